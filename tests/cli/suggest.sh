# tests/cli/suggest.sh -- "did you mean" for misspelt commands, names and
# REPL commands; the hint for L_k beyond the prelude; no suggestion for a
# name far from every candidate.
. "$top_srcdir/tests/lib.sh"
T=$TALLY

try 2 "$T" equv -f a
grep -q "unknown command 'equv'; did you mean 'equiv'?" err.txt || fail "equv: $(cat err.txt)"
try 2 "$T" hierachy
grep -q "did you mean 'hierarchy'?" err.txt || fail "hierachy: $(cat err.txt)"
try 2 "$T" zzzzzz
! grep -q "did you mean" err.txt || fail "zzzzzz: $(cat err.txt)"
try 2 "$T" info -f "dyk1"
grep -q "unknown name 'dyk1'; did you mean 'dyck1'?" err.txt || fail "dyk1: $(cat err.txt)"
try 2 "$T" info -f "let open = Q_a; opn"
grep -q "did you mean 'open'?" err.txt || fail "opn: $(cat err.txt)"
try 2 "$T" info -f "qqqqqqqqqq"
! grep -q "did you mean" err.txt || fail "far name: $(cat err.txt)"
try 2 "$T" info -f L_9
grep -q "tally gen --family=lk --k=9" err.txt || fail "L_9: $(cat err.txt)"
# The hint's command works: L_9 read back from gen.
run 0 "$T" info -f "$("$T" gen --family=lk --k=9)"
printf ':trcae\n:chek sat Q_a\n' | "$T" repl > out.txt 2> err.txt || true
grep -q "unknown command ':trcae'; did you mean ':trace'?" err.txt ||
	fail ":trcae: $(cat err.txt)"
grep -q "did you mean ':check'?" err.txt || fail ":chek: $(cat err.txt)"

# Families: '_' for '-', the family whose formula a prelude name is (an
# exact test: the same node), else a typo; the suggestion is a family.
try 2 "$T" gen --family=first_a
grep -q "unknown family 'first_a'; did you mean 'first-a'?" err.txt || fail "first_a: $(cat err.txt)"
try 2 "$T" gen --family=sub_ab
grep -q "did you mean 'subseq-ab' (the prelude's sub_ab)?" err.txt || fail "sub_ab: $(cat err.txt)"
try 2 "$T" gen --family=L_3
grep -q "did you mean '--family=lk --k=3' (the prelude's L_3)?" err.txt || fail "L_3: $(cat err.txt)"
try 2 "$T" gen --family=majorty
grep -q "did you mean 'majority'?" err.txt || fail "majorty: $(cat err.txt)"
try 2 "$T" gen --family=zzzzzz
! grep -q "did you mean" err.txt || fail "zzzzzz family: $(cat err.txt)"
# ... and each suggestion is right: the family's formula is the prelude's
expect_out "equivalent" sh -c '"$1" equiv -f sub_ab -f "$("$1" gen --family=subseq-ab)" | head -n 1' sh "$T"
expect_out "equivalent" sh -c '"$1" equiv -f L_3 -f "$("$1" gen --family=lk --k=3)" | head -n 1' sh "$T"

# simulate without a model says where a model comes from.
try 2 "$T" simulate -w ab < /dev/null
grep -q "no model: standard input is empty; tally simulate reads the model .* from MODEL, -m/--model=FILE or standard input" err.txt ||
	fail "simulate, empty stdin: $(cat err.txt)"
echo majority > notamodel.txt
try 2 "$T" simulate -w ab < notamodel.txt
grep -q "stdin: invalid token near 'majority' (line 1); tally simulate reads the model" err.txt ||
	fail "simulate, a formula on stdin: $(cat err.txt)"
try 2 "$T" simulate -m no-such-model.json -w ab
grep -q "cannot open model 'no-such-model.json': No such file or directory$" err.txt ||
	fail "simulate, no such file: $(cat err.txt)"
