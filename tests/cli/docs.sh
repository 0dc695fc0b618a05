# tests/cli/docs.sh -- the README's examples are real: inside its ``` blocks,
# a line "$ COMMAND" is run (src/tally standing for the tally under test),
# and the lines after it, up to the next "$ " line or the end of the block,
# must equal what the command prints (stdout and stderr together; trailing
# empty lines are ignored on both sides).
. "$top_srcdir/tests/lib.sh"

# Split the examples into cmd.N and exp.N files.
awk '
	/^```/ { block = !block; cur = ""; next }
	!block { next }
	/^\$ / { n++; cur = "exp." n; print substr($0, 3) > ("cmd." n);
		 printf "" > cur; next }
	cur != "" { print > cur }
' "$top_srcdir/README.md"

test -f cmd.1 || fail "README.md has no '\$ ' example lines"
n=0
for cmd in cmd.*; do
	i=${cmd#cmd.}
	n=$((n + 1))
	# "src/tally" in the README is the binary under test.
	sed "s|src/tally|$TALLY|g" "$cmd" > run.sh
	# Run from the top of the source tree, as the README's reader does.
	(cd "$top_srcdir" && sh "$OLDPWD/run.sh") > got.$i 2>&1 < /dev/null ||
		true
	for f in exp.$i got.$i; do # drop trailing empty lines
		sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' "$f" > "$f.trim"
	done
	diff -u exp.$i.trim got.$i.trim > diff.$i ||
		{ cat diff.$i; fail "README example $i differs: $(cat "$cmd")"; }
done
echo "docs.sh: $n README examples checked"

# What users read cites only documents of the tree: the design pack's
# logic.md, syntax.md, cli.md ... are not shipped, so a reference to them
# in a man page, a README, a corpus README or `tally gen --list` is dead.
dead='(logic|syntax|cli|decide|architecture|extensions)\.md'
{
	grep -n -E "$dead" "$top_srcdir"/man/*.[1-9] "$top_srcdir"/README.md \
		"$top_srcdir"/corpora/*/README.md \
		"$top_srcdir"/corpora/*/*/README.md 2> /dev/null
	"$TALLY" gen --list | grep -E "$dead"
} > dead.txt || true
test ! -s dead.txt || { cat dead.txt; fail "references to files not in the tree"; }
