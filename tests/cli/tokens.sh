# tokens.sh -- --tokens input at length (issue 12): long lines of tokens
# give the verdicts of the same words read as characters and the counts
# awk finds, whatever the blanks between the tokens (spaces, runs of
# them, tabs, CR before the newline); an unknown token deep in a long
# line is named with its position; --no-echo prints the verdicts alone.
# The fast path reads 64 bytes at a time, so every word here is longer.
. "$top_srcdir/tests/lib.sh"

# Words over {a, b} of 1,000 to 30,000 letters, one per line (seeded).
awk 'BEGIN { srand(12); for (w = 0; w < 6; w++) {
	n = 1000 + int(rand() * 29000)
	for (i = 0; i < n; i++) printf "%s", rand() < 0.5 ? "a" : "b"
	print "" } }' > chars.words
# What "#[Q_a] > #[Q_b]" says, counted here.
awk '{ na = gsub(/a/, "a"); nb = gsub(/b/, "b")
	print (na > nb ? "accept" : "reject") }' chars.words > want.txt
grep -q accept want.txt && grep -q reject want.txt ||
	fail "the seeded words should give both verdicts"

f='#[Q_a] > #[Q_b]'
try 1 "$TALLY" eval --no-echo -f "$f" < chars.words
cmp -s out.txt want.txt || fail "characters: got [$(head -c 100 out.txt)]"

# The same words as tokens, with one kind of blank each.
for sep in ' ' '  ' '\t' ' \t ' '\v' '\f'; do
	awk -v sep="$sep" '{ n = split($0, c, ""); s = c[1]
		for (i = 2; i <= n; i++) s = s sep c[i]; print s }' \
		chars.words > tok.words
	try 1 "$TALLY" eval --no-echo --tokens -f "$f" < tok.words
	cmp -s out.txt want.txt || fail "tokens with [$sep]: got [$(head -c 100 out.txt)]"
done
# Letters of several characters (also longer than 8 and 16 bytes), CRLF.
for pair in 'open close' 'abcdefghijk abcdefghijkl' \
	    'a_letter_of_20_bytes a_letter_of_20_byte'; do
	set -- $pair
	tr ab '\001\002' < chars.words |
		awk -v x="$1" -v y="$2" '{ gsub(/\001/, x " ")
			gsub(/\002/, y " "); printf "%s\r\n", $0 }' > tok.words
	try 1 "$TALLY" eval --no-echo --tokens -f "#[Q_$1] > #[Q_$2]" < tok.words
	cmp -s out.txt want.txt || fail "tokens $pair: got [$(head -c 100 out.txt)]"
	# with the echo: each line is its word, CR dropped, and the verdict
	try 1 "$TALLY" eval --tokens -f "#[Q_$1] > #[Q_$2]" < tok.words
	tr -d '\r' < tok.words | paste - want.txt > want-echo.txt
	cmp -s out.txt want-echo.txt || fail "echo of tokens $pair"
done

# The interpreter's format: the same, with a comment line.
{ echo '// a comment'; sed 's/a/open /g; s/b/close /g' chars.words; } > cr.words
try 1 "$TALLY" eval --no-echo --word-format=cr -f '#[Q_open] > #[Q_close]' < cr.words
cmp -s out.txt want.txt || fail "--word-format=cr: got [$(head -c 100 out.txt)]"

# An unknown token at position 70,001 of a line: named, nothing printed.
{ repeat 35000 'open close '; echo 'opne close'; } > bad.words
try 2 "$TALLY" eval --tokens -f '#[Q_open] > #[Q_close]' < bad.words
err_has "word 1: unknown letter 'opne' at position 70001 (alphabet: close open)"
test ! -s out.txt || fail "output before the error"
# A 200-byte unknown token (longer than a block): its first bytes.
{ repeat 100 'open '; repeat 200 x; echo ' close'; } > long.words
try 2 "$TALLY" eval --tokens -f '#[Q_open] > #[Q_close]' < long.words
err_has "unknown letter 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' at position 101"
# A control byte inside a token makes it unknown; NUL too.
{ repeat 100 'open '; printf 'op\001en close\n'; } > ctl.words
try 2 "$TALLY" eval --tokens -f '#[Q_open] > #[Q_close]' < ctl.words
err_has "unknown letter 'op\\x01en' at position 101"
{ repeat 100 'open '; printf 'open\000 close\n'; } > nul.words
try 2 "$TALLY" eval --tokens -f '#[Q_open] > #[Q_close]' < nul.words
err_has "unknown letter 'open\\x00' at position 101"
