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
