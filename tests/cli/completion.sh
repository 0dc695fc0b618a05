# completion.sh -- the bash completion, sourced in bash and called the way
# bash calls it (COMP_WORDS, COMP_CWORD, then COMPREPLY): commands, each
# command's options as its --help prints them, prelude names after -f,
# families after --family=, files after -F and -P.
. "$top_srcdir/tests/lib.sh"
command -v bash > /dev/null 2>&1 || { echo "no bash"; exit 77; }
mkdir bin
ln -s "$TALLY" bin/tally
mkdir files
: > files/prog.crasp
: > files/prog.cr

# complete WORD...: the replies for the command line WORD... (the last one
# being completed), one per line, sorted.
complete() {
	PATH=$PWD/bin:$PATH bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		_tally
		test ${#COMPREPLY[@]} -eq 0 || printf "%s\n" "${COMPREPLY[@]}" | sort' \
		sh "$top_srcdir/completion/tally" "$@"
}
expect() {
	want=$1; shift
	got=$(complete "$@" | tr '\n' ' ' | sed 's/ $//')
	test "$got" = "$want" || fail "complete '$*': got [$got], wanted [$want]"
}

# The commands are those of tally --help.
"$TALLY" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p' |
	sort > want
complete tally "" | grep -v '^--' > got
cmp -s want got || fail "commands: $(cat got)"
expect "eval" tally ev
expect "--help --version" tally --

# A command's options are its --help's, for every command ("=" when the
# option is printed with a value somewhere).
for cmd in $(cat want); do
	"$TALLY" "$cmd" --help | grep -o -e '--[a-z][a-z0-9-]*' | sort -u > bare
	: > opts
	while read -r o; do
		if "$TALLY" "$cmd" --help | grep -q -e "$o=" ; then
			echo "$o="
		else
			echo "$o"
		fi
	done < bare | sort > opts
	complete tally "$cmd" -- > got
	cmp -s opts got || fail "options of $cmd: $(tr '\n' ' ' < got)"
done
expect "--trace --trace-window=" tally eval --tr
expect "--timeout= --to=" tally print --t
expect "--max-length=" tally lang -f dyck1 --max-l

# Prelude names after -f and --formula=, whether bash splits at '=' or not.
expect "L_1 L_2 L_3 L_4 L_5" tally eval -f L_
expect "dyck1" tally info --formula = dy
expect "--formula=dyck1" tally info --formula=dy
"$TALLY" gen --prelude | grep -q '^majority$' || fail "gen --prelude"

# Families after --family.
expect "lk lk-predict" tally gen --family = l
expect "--family=parity-twosided" tally gen --family=par

# Files after -F, -P, --program.
expect "files/prog.cr files/prog.crasp" tally eval -P files/prog
expect "files/prog.cr files/prog.crasp" tally info -F files/
expect "files/prog.crasp" tally print --program = files/prog.cra

# Unknown values and commands complete to nothing, without errors.
expect "" tally lang --alphabet = x
expect "" tally nosuch --
