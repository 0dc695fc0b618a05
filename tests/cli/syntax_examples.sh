# syntax_examples.sh -- every example formula of the syntax page
# (tests/data/syntax_examples.tl, one per line with its comment) parses,
# prints back to itself in the tl form, and `info` describes it; a comment
# that names a depth ("depth 2") is checked too.
. "$top_srcdir/tests/lib.sh"

data=$top_srcdir/tests/data/syntax_examples.tl
test -s "$data" || fail "missing $data"
n=0
while IFS= read -r line; do
	n=$((n + 1))
	# The formula is the line without its trailing comment and blanks.
	formula=$(printf '%s\n' "$line" | sed -e 's/[[:space:]]*--.*$//')
	test -n "$formula" || fail "line $n: no formula"
	out=$("$TALLY" print -f "$line") || fail "line $n does not parse: $line"
	test "$out" = "$formula" ||
		fail "line $n prints as [$out], wanted [$formula]"
	out=$("$TALLY" print --to=tl -f "$formula") || fail "line $n: print --to=tl"
	test "$out" = "$formula" || fail "line $n: --to=tl gives [$out]"
	# The Unicode form reads back as the same formula.
	utf=$("$TALLY" print --to=utf8 -f "$formula") || fail "line $n: utf8"
	out=$("$TALLY" print -f "$utf") || fail "line $n: utf8 form does not parse: $utf"
	test "$out" = "$formula" || fail "line $n: utf8 [$utf] reads back as [$out]"
	"$TALLY" info -f "$line" > info.txt || fail "line $n: info failed"
	grep -q '^depth: [0-9][0-9]*$' info.txt || fail "line $n: info has no depth"
	grep -q '^size: [1-9][0-9]*$' info.txt || fail "line $n: info has no size"
	grep -q '^letters: a b$' info.txt || grep -q '^letters: ( )$' info.txt ||
		fail "line $n: letters: $(grep letters info.txt)"
	depth=$(printf '%s\n' "$line" | sed -n 's/.*--.*depth \([0-9][0-9]*\).*/\1/p')
	if test -n "$depth"; then
		grep -qx "depth: $depth" info.txt ||
			fail "line $n: $(grep depth: info.txt), wanted depth $depth"
	fi
done < "$data"
test "$n" -ge 4 || fail "only $n examples"

# The same file as a stream on stdin: one result per line, in order.
sed -e 's/[[:space:]]*--.*$//' "$data" > want.txt
"$TALLY" print < "$data" > got.txt || fail "print from stdin failed"
cmp -s want.txt got.txt || fail "stdin print differs: $(diff want.txt got.txt)"
