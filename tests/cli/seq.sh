# tests/cli/seq.sh -- sequence outputs (issue 32): count-valued programs
# and --per-position in tally eval (text, JSON, traces, .cr programs),
# the prelude's count-valued tasks against awk on every word up to
# length 10, and the errors of the commands that need a formula.
. "$top_srcdir/tests/lib.sh"
T=$TALLY
tab=$(printf '\t')

# A count-valued formula prints its value at the last position (the
# empty word: position 0, counts 0); counts never reject: exit 0.
try 0 "$T" eval -f '#[Q_a]' --alphabet=ab -w aab -w '' -w b
out_is "aab${tab}2
${tab}0
b${tab}0"

# --per-position: every position, Booleans as 1/0; the empty word has
# none; a Boolean output still judges the word at its last position.
try 1 "$T" eval -f majority --per-position -w aab -w abb -w ''
out_is "aab${tab}1 1 1
abb${tab}1 0 0
${tab}"
try 0 "$T" eval -f margin -f '#>[Q_a]' --per-position -w abbab
out_is "abbab${tab}1 0 -1 0 -1${tab}2 1 1 1 0"
# exact beyond 64 bits, streaming from stdin
printf 'aaa\n' | "$T" eval -f '#[Q_a]*10000000000000000000' --per-position \
	> out.txt || fail "big values"
out_is "aaa${tab}10000000000000000000 20000000000000000000 30000000000000000000"
# under --accept-at=eos the end marker is a position too
try 0 "$T" eval -f count_a --alphabet=ab --accept-at=eos --per-position -w ab
out_is "ab${tab}1 1 1"

# JSON: "value", "values", "values_per_input"; "accepted" only where
# every output is Boolean.
try 0 "$T" eval -f histogram --json -w abb
grep -q '"value":2' out.txt || fail "json value: $(cat out.txt)"
grep -q '"accepted"' out.txt && fail "json accepted on a count"
try 0 "$T" eval -f histogram --per-position --json -w abb
grep -q '"values":\[1,1,2\]' out.txt || fail "json values: $(cat out.txt)"
try 1 "$T" eval -f histogram -f majority --per-position --json -w abb
grep -q '"values_per_input":\[\[1,1,2\],\[true,false,false\]\]' out.txt ||
	fail "json values_per_input: $(cat out.txt)"
try 1 "$T" eval -f majority --per-position --json -w abb
grep -q '"accepted":false' out.txt || fail "json accepted: $(cat out.txt)"

# Traces go with sequence outputs.
try 0 "$T" eval -f 'let h = histogram; h' --per-position --trace -w ab
grep -q '^h  *1 1$' out.txt || fail "trace row: $(cat out.txt)"

# Programs: `output` may name a count; a program without a Boolean
# definition outputs its last one; the .cr dialect's result is its last
# statement, as the Python interpreter prints it.
try 0 "$T" eval -f 'let x = #[Q_a]; output x' -w aa
out_is "aa${tab}2"
printf 'x := #[Q_a]\ny := x - #[Q_b]\n' > h.crasp
try 0 "$T" eval -P h.crasp --per-position -w aab
out_is "aab${tab}1 2 1"
printf '// running count\nc = #"a"\nd = c + 1\n' > h.cr
try 0 "$T" eval -P h.cr --tokens --alphabet=a,b -w 'a b a'
out_is "a b a${tab}3"

# The commands that need a formula say so, as before.
try 2 "$T" lang -f '#[Q_a]' --max-length=2
err_has "expected a formula, found an integer term"
try 2 "$T" eval --runs -f '#[Q_a]' -w a
err_has "--runs judges Boolean outputs"

# The prelude's tasks on every word over {a, b} up to length 10 against
# awk, written from their definitions.
awk 'BEGIN { n = 0; w[n++] = ""; print "";
	for (i = 0; i < n && length(w[i]) < 10; i++)
		for (c = 0; c < 2; c++) { x = w[i] substr("ab", c + 1, 1);
			w[n++] = x; print x } }' > words.txt
"$T" eval -f histogram -f count_a -f margin -f current_leads \
	--alphabet=ab --per-position < words.txt > got.txt || true
awk -F '\t' '{ na = nb = 0; h = a = m = l = "";
	for (i = 1; i <= length($1); i++) {
		c = substr($1, i, 1); if (c == "a") na++; else nb++;
		mine = c == "a" ? na : nb; other = c == "a" ? nb : na;
		sep = i > 1 ? " " : "";
		h = h sep mine; a = a sep na; m = m sep (na - nb);
		l = l sep (mine > other ? 1 : 0) }
	printf "%s\t%s\t%s\t%s\t%s\n", $1, h, a, m, l }' words.txt > want.txt
test "$(wc -l < want.txt)" = 2047 || fail "word list"
cmp got.txt want.txt || fail "prelude tasks differ from awk: $(diff got.txt want.txt | head -5)"
