# tests/cli/faces.sh -- one concept, one spelling, at every face (issue
# 29): a word is written the same way by every command and read back by
# the rules it was written with.
. "$top_srcdir/tests/lib.sh"
T=$TALLY

# A word over one-character letters is written without spaces, whether
# the characters are ASCII or not: gen's JSONL "word" is a string, and
# lang writes what eval reads.
"$T" gen -f "#['é'] > #['ü']" --sample=8 --max-length=6 --seed=2 \
	--format=jsonl -q > g.jsonl
! grep -q '"word": \[' g.jsonl || fail "a word of one-character letters as a list: $(head -2 g.jsonl)"
grep -q '"word": "é"' g.jsonl || fail "no word é: $(cat g.jsonl)"
run 0 "$T" eval --check-labels -f "#['é'] > #['ü']" < g.jsonl
"$T" lang -f "#['α'] = 2" --max-length=2 > l.txt
test "$(cat l.txt)" = "αα" || fail "lang writes '$(cat l.txt)' for the word αα"
run 0 "$T" eval -f "#['α'] = 2" -w "$(cat l.txt)"
"$T" lang -f "#['α'] = 2" --max-length=2 --json > l.json
grep -q '"word":"αα"' l.json || fail "lang --json: $(cat l.json)"

# Letters longer than one character: spaces between letters, a string
# in JSON too, and a one-letter word is that letter when read back.
"$T" gen -f "#['ab'] >= 1" --alphabet=ab,c --max-length=3 --sample=12 \
	--seed=1 --format=jsonl -q > m.jsonl
grep -q '"word": "ab"' m.jsonl || fail "no one-letter word ab: $(cat m.jsonl)"
grep -q '"word": "[a-c]* [a-c ]*"' m.jsonl || fail "no spaced word: $(cat m.jsonl)"
! grep -q '"word": \[' m.jsonl || fail "a word as a list: $(cat m.jsonl)"
run 0 "$T" eval --check-labels -f "#['ab'] >= 1" --alphabet=ab,c < m.jsonl
"$T" gen -f "#['ab'] >= 1" --alphabet=ab,c --max-length=3 --sample=12 \
	--seed=1 -q > m.tsv
grep -q '^ab	1$' m.tsv || fail "no one-letter word ab: $(cat m.tsv)"
run 0 "$T" eval --check-labels -f "#['ab'] >= 1" --alphabet=ab,c < m.tsv
# A list of letters (what gen wrote before) still reads.
printf '{"word": ["ab", "c"], "label": 1, "length": 2}\n' > old.jsonl
run 0 "$T" eval --check-labels -f "#['ab'] >= 1" --alphabet=ab,c < old.jsonl
