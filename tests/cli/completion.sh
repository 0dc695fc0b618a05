# completion.sh -- the bash completion, sourced in bash and called the way
# bash calls it (COMP_WORDS, COMP_CWORD, then COMPREPLY): commands, each
# command's options as its option table lists them, the values of enumerated
# options (exactly those the program accepts), prelude names after -f,
# families after --family=, files after -F, -P and every =FILE option.
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

# A command's options are its option table's (tests/cli/options.sh checks
# the table against --help); every command has one.
for cmd in $(cat want); do
	"$TALLY" "$cmd" --list-options | cut -d' ' -f1 | sort > opts ||
		fail "$cmd --list-options failed"
	test -s opts || test "$cmd" = demo || fail "$cmd lists no options"
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
# ... and after every option whose --help shows =FILE (each name once,
# with one command that has it)
for cmd in $(cat want); do
	"$TALLY" "$cmd" --help | grep -o -e '--[a-z][a-z0-9-]*=FILE' |
		sed "s/=FILE\$/ $cmd/"
done | sort -u -k 1,1 > file-options
test "$(wc -l < file-options)" -ge 6 || fail "file options: $(cat file-options)"
while read -r o cmd; do
	expect "files/prog.cr files/prog.crasp" tally "$cmd" "$o" = files/prog
done < file-options
expect "files/prog.crasp" tally simulate -m files/prog.cra

# Enumerated option values, read from each option's table row, are
# exactly the values the program accepts: the list its error message
# gives for a value it does not know (checked for every option of every
# command that completes values at all).
printf 'A := #Q_a\n' > files/x.crasp
# the values an error message lists: "expected A, B or C, not 'zz'",
# "unknown --to 'zz' (expected A, ... or C)", "unknown task 'zz' (A or B)"
listed() {
	grep -m 1 "zz" | sed -e "s/, not 'zz'.*//" -e 's/.*expected //' \
		-e 's/.*(\(.*\)).*/\1/' -e 's/)$//' -e 's/ or /, /g' |
		tr ',' '\n' | sed 's/^ *//; s/ *$//' | awk '
		/=.*[|]/ { k = index($0, "="); n = split(substr($0, k + 1), a, "|")
			   for (i = 1; i <= n; i++) print substr($0, 1, k) a[i]
			   next }
		{ print }' | sort
}
: > valued
for cmd in $(cat want); do
	# every option's values in one bash: lines "--opt= VALUE"
	# shellcheck disable=SC2046
	PATH=$PWD/bin:$PATH bash -c '
		. "$1"; cmd=$2; shift 2
		for o; do
			_tally_values tally "$cmd" "${o%=}" | sed "s/^/$o /"
		done' sh "$top_srcdir/completion/tally" "$cmd" \
		$("$TALLY" "$cmd" --list-options | cut -d' ' -f1 | grep '=$') \
		> all-values
	for o in $(cut -d ' ' -f 1 all-values | sort -u); do
		echo "$cmd $o" >> valued
		sed -n "s/^$o //p" all-values | sort > vals
		# what else the command needs before it looks at the value
		for extra in "" --family=dyck1 "-P files/x.crasp" "--sat -P files/x.crasp" \
			"-P files/x.crasp -P files/x.crasp" \
			"--max-length=1 -P files/x.crasp"; do
			# shellcheck disable=SC2086
			"$TALLY" "$cmd" "${o}zz" $extra < /dev/null > /dev/null 2> err || true
			grep -q zz err && break
		done
		listed < err > accepted
		test -s accepted || fail "$cmd ${o}zz: no list of values: $(cat err)"
		cmp -s vals accepted || fail "$cmd $o completes [$(tr '\n' ' ' < vals)], the program accepts [$(tr '\n' ' ' < accepted)]"
	done
done
for co in "equiv --method=" "check --method=" "print --to=" "translate --to=" \
	"gen --to=" "compile --semantics=" "simulate --semantics=" \
	"compile --pe=" "compile --ffn=" "eval --accept-at=" "lang --accept-at=" \
	"equiv --accept-at=" "hierarchy --task=" "info --syntax=" \
	"eval --word-format=" "eval --cr-precedence="; do
	grep -qx -e "$co" valued || fail "no values completed for tally $co"
done
# (with the "=" kept in the word, and split off by bash)
expect "--method=auto --method=chc --method=explore --method=mona --method=presburger --method=unary" \
	tally check --method=
expect "ieee=bf16 ieee=fp16 ieee=fp32" tally simulate --semantics = ie
expect "--to=cr --to=crasp --to=crasp-paper" tally print --to=cr
expect "predict" tally hierarchy --task = p

# Unknown values and commands complete to nothing, without errors.
expect "" tally lang --alphabet = x
expect "" tally nosuch --
