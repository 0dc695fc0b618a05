# tests/cli/docs.sh -- the README's examples are real: inside its ``` blocks,
# a line "$ COMMAND" is run (src/tally standing for the tally under test),
# and the lines after it, up to the next "$ " line or the end of the block,
# must equal what the command prints (stdout and stderr together).
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
	sh run.sh > got.$i 2>&1 < /dev/null || true
	diff -u exp.$i got.$i > diff.$i ||
		{ cat diff.$i; fail "README example $i differs: $(cat "$cmd")"; }
done
echo "docs.sh: $n README examples checked"
