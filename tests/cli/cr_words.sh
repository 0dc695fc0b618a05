# cr_words.sh -- the rest of issue 11 around .cr programs: word files in
# the interpreter's format (--word-format=cr), --open-alphabet, `tally
# print --to=cr` read back alike by both groupings, and info's layer
# count with pred as attention.
. "$top_srcdir/tests/lib.sh"

# A program in the interpreter's syntax (written for this test): the
# word ends in "a b" (the interpreter's contains-ab idea with pred).
cat > ab.cr <<'EOF'
// ends in a b
#import pred

prev_a = (#[pred] "a") == 1
L = "b" && prev_a
EOF

# A word file as the interpreter reads it: "//" lines and blank lines
# skipped, tokens split at any run of whitespace; "//" only at column 1
# starts a comment.
printf '// header\n\na b\n\n  \t \n// a b\nb  a\tb\n   // x a b\nc a b\r\n//' > words.txt
"$TALLY" eval -P ab.cr --word-format=cr --open-alphabet < words.txt > got.txt
printf 'a b\taccept\nb  a\tb\taccept\n// x a b\taccept\nc a b\taccept\n' > want.txt
cmp -s got.txt want.txt || fail "--word-format=cr: got [$(cat got.txt)]"

# Without --open-alphabet an unmentioned token (c, //) is still an error.
run 2 "$TALLY" eval -P ab.cr --word-format=cr < words.txt
# With it, every letter test is false on such tokens: "a c" is not ab,
# "x y" is not either, and counts of "!a" see them.
expect_out "$(printf 'a c\treject\nx y\treject')" \
	"$TALLY" eval -P ab.cr --open-alphabet -w "a c" -w "x y"
expect_out "$(printf 'x y z\taccept')" \
	"$TALLY" eval -f "#[!Q_a] = 3" --open-alphabet -w "x y z"
# the default format still reads a blank line as the empty word
expect_out "$(printf 'a\taccept\n\treject')" "$TALLY" eval -f Q_a -w a -w ""
run 2 "$TALLY" eval -f Q_a --word-format=python -w a

# print --to=cr: a .cr program both groupings read alike (no warning), with
# the language of the original (all words up to length 6).
for f in dyck1 majority anbn L_2 L_3 first_a \
	'Y Y Q_a & MOD(2, 1) | #[Q_b] - 2*#[Q_a] > -3 & min(#[Q_a], 3) = (Q_a ? 1 : 0)' \
	'#[Y (Q_a | Q_b)] >= 2 & MOD(3, 0) & max(#[Q_a], 1) != 2' \
	'(#[Q_a] - 3 < #[Q_b]) -> !Q_a'; do
	"$TALLY" print -f "$f" --to=cr > out.cr 2> note.txt ||
		fail "print --to=cr [$f]: $(cat note.txt)"
	"$TALLY" lang -f "$f" --max-length 6 --alphabet=ab > want.txt
	for prec in peer conventional; do
		"$TALLY" lang -P out.cr --max-length 6 --alphabet=ab \
			--cr-precedence=$prec > got.txt
		cmp -s want.txt got.txt ||
			fail "print --to=cr [$f] under $prec: another language"
	done
	"$TALLY" info -P out.cr > /dev/null 2> err.txt
	test ! -s err.txt || fail "print --to=cr [$f] warns when read: $(cat err.txt)"
done
# and the .cr programs of the traps, printed after reading: the printed
# program keeps the chosen reading
printf 'c = #"a"\nD = !"a" && c > 0\n' > t.cr
for prec in peer conventional; do
	"$TALLY" print -P t.cr --cr-precedence=$prec --to=cr > back.cr
	"$TALLY" lang -P t.cr --cr-precedence=$prec --max-length 5 --alphabet=ab > want.txt
	"$TALLY" lang -P back.cr --max-length 5 --alphabet=ab > got.txt 2> err.txt
	cmp -s want.txt got.txt || fail "trap printed under $prec: another language"
	# (lang's stderr holds its alphabet line; nothing else)
	grep -v '^alphabet: a b$' err.txt > warn.txt || true
	test ! -s warn.txt || fail "printed trap warns: $(cat err.txt)"
done
# what .cr cannot say
run 2 "$TALLY" print -f "#>[Q_a] > 1" --to=cr
"$TALLY" print -f "MOD(3, 1)" --to=cr > /dev/null 2> note.txt
grep -q "note: the Python interpreter needs pos_mod_3_0 in its predefined.py" note.txt ||
	fail "pos_mod note: $(cat note.txt)"

# info: depth as Knee-Deep counts it, and the layers with pred (a chain
# of Y, one #[predK]) as an attention layer.
# ab.cr has no plain count (depth 0) and one guarded count (1 layer)
expect_out "depth: 0
layers (pred as attention): 1" sh -c "\"$TALLY\" info -P ab.cr | head -2"
printf '#import pred4\nc = #[pred4] "a"\nL = #(c == 1) >= 1\n' > p4.cr
expect_out "depth: 1
layers (pred as attention): 2" sh -c "\"$TALLY\" info -P p4.cr | head -2"
expect_out "depth: 0
layers (pred as attention): 2" sh -c "\"$TALLY\" info -f 'Y (Q_a & Y Q_b)' | head -2"
"$TALLY" info -f "#[Q_a] > 1" > got.txt
grep -q "layers (pred" got.txt && fail "layers line without Y"
"$TALLY" info --json -P p4.cr | grep -q '"layers_pred_as_attention":2' ||
	fail "json layers_pred_as_attention"
echo "cr_words.sh: ok"
