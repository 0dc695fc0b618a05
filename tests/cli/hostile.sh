# hostile.sh -- inputs built to break a parser: deep nesting, huge
# formulas and constants, NUL bytes, invalid UTF-8, empty and comment-only
# files, binary junk.  Each must end in bounded time with exit 2 and a
# diagnostic, or with the correct result; never with a crash or a
# sanitizer report.  Inputs are generated here, deterministically.
. "$top_srcdir/tests/lib.sh"

# A million nested parentheses: the nesting limit, at the 1001st level.
{ repeat 1000000 '('; printf 'Q_a'; repeat 1000000 ')'; echo; } > parens.tl
try 2 "$TALLY" info -F parens.tl
err_has 'parens.tl:1:1001: error: nesting too deep (more than 1000 levels)'
# ... and the same through stdin lines and -f.
try 2 "$TALLY" print < parens.tl
err_has '<stdin>:1:1001: error: nesting too deep'
try 2 "$TALLY" info -f "$(repeat 5000 '#[')Q_a$(repeat 5000 ']') > 0"
err_has 'nesting too deep'
# Nesting just below the limit is fine.
{ repeat 999 '('; printf 'Q_a'; repeat 999 ')'; echo; } > parens999.tl
try 0 "$TALLY" print -F parens999.tl
out_is 'Q_a'

# A million '!' and a million 'Y': prefix operators nest too.
{ repeat 1000000 '!'; echo 'Q_a'; } > bangs.tl
try 2 "$TALLY" info -F bangs.tl
err_has 'nesting too deep'
{ repeat 1000000 'Y '; echo 'Q_a'; } > prevs.tl
try 2 "$TALLY" info -F prevs.tl
err_has 'nesting too deep'
{ repeat 1000 '!'; echo 'Q_a'; } > bangs1000.tl # an even number: Q_a
try 0 "$TALLY" print -F bangs1000.tl
out_is 'Q_a'

# 10 MB formulas: a conjunction, a sum, a sum of distinct atoms.
{ printf 'Q_a'; repeat 1700000 ' & Q_a'; echo; } > conj.tl
try 0 "$TALLY" print -F conj.tl
out_is 'Q_a'
try 0 "$TALLY" info -F conj.tl
grep -qx 'size: 1' out.txt || fail "conj info: $(cat out.txt)"
{ printf '#[Q_a]'; repeat 1100000 ' + #[Q_a]'; echo ' > 0'; } > sum.tl
try 0 "$TALLY" print -F sum.tl
out_is '1100001*#[Q_a] > 0'
awk 'BEGIN { printf "#[Q_x0]"
	for (i = 1; i < 500000; i++) printf " + #[Q_x%d]", i % 1000
	print " >= 1" }' > sums.tl # each of 1000 atoms 500 times
try 0 "$TALLY" info -F sums.tl
grep -qx 'depth: 1' out.txt || fail "sums info: $(cat out.txt)"
try 0 "$TALLY" print -F sums.tl
grep -q '^500\*#\[Q_x0\] + 500\*#\[Q_x1\] + .* + 500\*#\[Q_x999\] >= 1$' out.txt ||
	fail "sums: $(head -c 200 out.txt)"
{ printf '1'; repeat 1000000 ' - 1'; echo ' = -999999'; } > minus.tl
try 0 "$TALLY" print -F minus.tl
out_is 'true'

# A million-term implication chain a -> a -> ... (right-nested, flat in
# the parser): a -> (a -> ...) is true.
{ printf 'Q_a'; repeat 1000000 ' -> Q_a'; echo; } > implies.tl
try 0 "$TALLY" print -F implies.tl
out_is 'true'
{ printf 'Q_a'; repeat 1000000 ' -> Q_b'; echo ' -> Q_c'; } > implies2.tl
try 0 "$TALLY" print -F implies2.tl
# (operands are ordered by creation, so compare them as a set)
test "$(sed 's/ | /\n/g' out.txt | sort | tr '\n' ' ')" = '!Q_a !Q_b Q_c ' ||
	fail "implication chain: $(cat out.txt)"
# Chains of <-> and ?: nest to one side: the nesting limit, or a result
# whose printed form is linear in the input (not 2^n).
{ printf 'Q_a'; repeat 1000000 ' <-> Q_b'; echo; } > iffs.tl
try 2 "$TALLY" info -F iffs.tl
err_has 'nesting too deep'
{ printf 'Q_a'; repeat 900 ' <-> Q_b'; echo; } > iffs900.tl
try 0 "$TALLY" print -F iffs900.tl
test "$(wc -c < out.txt)" -lt 20000 || fail "<-> chain printed as $(wc -c < out.txt) bytes"
cp out.txt iffs900.out
# Its tree size (each <-> doubles its operands) exceeds 64 bits: said so.
try 0 "$TALLY" info -F iffs900.tl
grep -qx 'size: more than 18446744073709551614' out.txt || fail "iff size: $(cat out.txt)"
try 0 "$TALLY" info --json -F iffs900.tl
grep -q '"size":">18446744073709551614"' out.txt || fail "iff json size: $(cat out.txt)"
try 0 "$TALLY" print -F iffs900.out
cmp -s out.txt iffs900.out || fail "<-> chain does not print back to itself"
{ repeat 1000000 'Q_a ? 1 : '; echo '0 > 0'; } > ites.tl
try 2 "$TALLY" info -F ites.tl
err_has 'nesting too deep'

# A 10,000-digit constant: exact, and comparisons with it fold exactly.
big=$(awk 'BEGIN { printf "9"; for (i = 1; i < 10000; i++) printf "%d", (i * 7 + 3) % 10 }')
try 0 "$TALLY" print -f "#[Q_a] < $big"
out_is "#[Q_a] < $big"
try 0 "$TALLY" info -f "#[Q_a] < $big"
grep -qx 'depth: 1' out.txt || fail "big constant info"
try 0 "$TALLY" print -f "$big < $big + 1"
out_is 'true'
try 0 "$TALLY" print -f "$big + 1 <= $big"
out_is 'false'
try 0 "$TALLY" print -f "2*$big = $big + $big & $big - $big = 0"
out_is 'true'
try 0 "$TALLY" print -f "#[Q_a] + $big < $big + 2"
out_is '#[Q_a] < 2'
try 2 "$TALLY" print -f "MOD($big, 1)"
err_has 'number too large here'

# NUL bytes: between tokens, inside a letter, on a later stdin line.
printf 'Q_a &\000 Q_b\n' > nul.tl
try 2 "$TALLY" info -F nul.tl
err_has 'nul.tl:1:6: error: unexpected NUL byte'
printf "'a\000b' & Q_b\n" > nul2.tl
try 2 "$TALLY" info -F nul2.tl
err_has 'nul2.tl:1:3: error: NUL byte inside a letter'
printf 'Q_a\nQ_b &\000\n' > nul3.tl
try 2 "$TALLY" print < nul3.tl
err_has '<stdin>:2:6: error: unexpected NUL byte'

# Invalid UTF-8: a stray byte, a truncated sequence, inside a letter.
printf 'Q_a & \377\376\n' > utf.tl
try 2 "$TALLY" info -F utf.tl
err_has 'utf.tl:1:7: error: invalid UTF-8 byte 0xFF'
printf 'Q_a \342\210' > utf2.tl # the first two bytes of '∧', then EOF
try 2 "$TALLY" info -F utf2.tl
err_has 'utf2.tl:1:5: error: invalid UTF-8 byte 0xE2'
printf "'\377' | Q_a\n" > utf3.tl # a letter is any bytes: fine
try 0 "$TALLY" info -F utf3.tl

# Empty input and comments only.
: > empty.tl
try 2 "$TALLY" info -F empty.tl
err_has 'empty.tl:1:1: error: expected a formula, found empty input'
try 2 "$TALLY" info -f ''
printf -- '-- a comment\n// another\n\n   \n' > comments.tl
try 2 "$TALLY" info -F comments.tl
err_has 'expected a formula, found empty input'
# One formula per stdin line: no formula at all is no input, an error as
# for -f '' and -F empty.tl above (and as a terminal on stdin).
try 2 "$TALLY" info < empty.tl
err_has 'no input: standard input holds no formula'
out_is ''
printf '\n-- only a comment\n\n' > blank.tl
try 2 "$TALLY" print < blank.tl
out_is ''

# Binary junk from a fixed linear congruential generator (portable awk:
# every intermediate stays below 2^53).
junk() { # SEED BYTES
	awk -v x="$1" -v n="$2" 'BEGIN {
		for (i = 0; i < n; i++) {
			x = (x * 75 + 74) % 65537
			printf "%c", x % 256
		}
	}'
}
for seed in 1 2 3 4 5 6 7 8; do
	junk $seed 65536 > junk$seed.bin
	try 2 "$TALLY" info -F junk$seed.bin
	try 2 "$TALLY" print < junk$seed.bin
done
# Junk made of the language's own characters.
awk 'BEGIN { x = 7; s = "()[]#<>=!&|-+*?:;,01Q_a \047\"\n"
	for (i = 0; i < 200000; i++) {
		x = (x * 75 + 74) % 65537
		printf "%s", substr(s, x % length(s) + 1, 1)
	} }' > tokens.tl
try 2 "$TALLY" info -F tokens.tl
