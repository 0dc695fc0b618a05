# tests/cli/man.sh -- the man pages cannot drift from the program:
#  1. every command listed by `tally --help` has a page man/tally-COMMAND.1
#     (translate shares tally-print.1), and every long option printed by
#     `tally COMMAND --help` appears in that page (`tally --help` in tally.1);
#  2. every page lints cleanly with `groff -man -ww -z` (skipped, with a
#     message, when groff is missing);
#  3. every example line of every page runs with exit status 0 or 1: in the
#     EXAMPLES section, inside .EX/.EE (or .nf/.fi), a line whose first word
#     is `tally`, or that starts with `printf`/`echo` and pipes into
#     `| tally `.  Other lines there (sample output) are not run.  Example
#     lines may use only the roff escapes \- \(aq \(dq \e \& (undone here).
. "$top_srcdir/tests/lib.sh"
man=$top_srcdir/man

# A page's text with the roff escapes of option names and examples undone.
plain() {
	sed -e 's/\\-/-/g' -e "s/\\\\(aq/'/g" -e 's/\\(dq/"/g' \
		-e 's/\\&//g' -e 's/\\e/\\/g' "$1"
}

# check_options HELP-COMMAND... PAGE: the long options of the help text.
check_options() {
	page=$1; shift
	"$@" --help > help.txt || fail "$* --help exited non-zero"
	test -s help.txt || fail "$* --help printed nothing"
	test -f "$page" || fail "no man page $page for '$*'"
	plain "$page" > page.txt
	for opt in $(grep -o -e '--[a-z][a-z0-9-]*' help.txt | sort -u); do
		grep -q -E -e "$opt([^a-z0-9-]|\$)" page.txt ||
			fail "$(basename "$page") lacks $opt (from '$* --help')"
	done
}

check_options "$man/tally.1" "$TALLY"
commands=$("$TALLY" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
test -n "$commands" || fail "tally --help lists no commands"
for cmd in $commands; do
	case $cmd in
	translate) page=print ;;
	*) page=$cmd ;;
	esac
	check_options "$man/tally-$page.1" "$TALLY" "$cmd"
done


if command -v groff > /dev/null 2>&1; then
	for page in "$man"/*.[1-9]; do
		groff -man -ww -z "$page" > lint.txt 2>&1 ||
			fail "groff failed on $page"
		test ! -s lint.txt || { cat lint.txt; fail "groff warns on $page"; }
	done
else
	echo "man.sh: groff not found, lint skipped"
fi

# The example lines of one page, one per line.
examples() {
	plain "$1" | awk '
		/^\.SH/ { ex = ($0 ~ /^\.SH +"?EXAMPLES/); block = 0; next }
		ex && /^\.(EX|nf)/ { block = 1; next }
		ex && /^\.(EE|fi)/ { block = 0; next }
		ex && block && (/^tally / || /^(printf|echo) .*\| tally /)'
}

tally() { "$TALLY" "$@"; }
n=0
for page in "$man"/*.[1-9]; do
	examples "$page" > examples.txt
	while IFS= read -r line; do
		n=$((n + 1))
		got=0
		eval "$line" > example.out 2>&1 < /dev/null || got=$?
		case $got in
		0 | 1) ;;
		*) cat example.out
		   fail "$(basename "$page"): exit $got: $line" ;;
		esac
	done < examples.txt
done
test "$n" -ge 5 || fail "only $n example lines found"
echo "man.sh: $n examples ran"
