# tests/cli/repl.sh -- tally repl with a script on stdin (no terminal: no
# prompts, no readline):
#  1. the golden transcripts tests/repl/NAME.in -> NAME.out (run with
#     --echo, stdout and stderr together, in a scratch directory holding
#     tests/repl/*.tl and corpora/programs/*; without the method: lines
#     of :equiv and :check), with their exit statuses;
#  2. the Dyck-1 session of the README and of tally-repl(1) is exactly
#     tests/repl/dyck1.out;
#  3. keyword names are refused in files as in the REPL;
#  4. a script of thousands of definitions, with :reset, runs through;
#  5. no history file is written in script mode.
. "$top_srcdir/tests/lib.sh"
repl=$top_srcdir/tests/repl
cp "$repl"/*.tl "$top_srcdir"/corpora/programs/* .
HOME=$(pwd)
export HOME
unset TALLY_HISTORY || true

for in in "$repl"/*.in; do
	name=$(basename "$in" .in)
	case $name in errors | loadsave | decide | alphabet | seq) want=2 ;; *) want=0 ;; esac
	got=0
	"$TALLY" repl --echo < "$in" > "$name.raw" 2>&1 || got=$?
	# which method of tally equiv/check answers first varies; the
	# verdicts do not
	grep -v '^method: ' "$name.raw" > "$name.got" || true
	diff -u "$repl/$name.out" "$name.got" ||
		fail "transcript $name differs"
	test "$got" = "$want" || fail "transcript $name: exit $got, wanted $want"
done
test -f dyck1.tl || fail ":save wrote no dyck1.tl"
run 0 "$TALLY" eval -F dyck1.tl -w "(()())"

# 2. The documented session is the transcript.
awk '/^```/ { if (block) exit; block = 0 }
     /^tally> :word \(\(\)\(\)\)/ { block = 1 }
     block' "$top_srcdir/README.md" > readme.txt
diff -u "$repl/dyck1.out" readme.txt || fail "README's REPL session differs"
sed -e 's/\\-/-/g' -e "s/\\\\(aq/'/g" -e 's/\\(dq/"/g' -e 's/\\&//g' \
	-e 's/\\e/\\/g' "$top_srcdir/man/tally-repl.1" |
	awk '/^\.EE/ { if (block) exit }
	     /^tally> :word \(\(\)\(\)\)/ { block = 1 }
	     block' > man.txt
diff -u "$repl/dyck1.out" man.txt || fail "tally-repl(1)'s session differs"

# 3. Keywords cannot name definitions, in files either.
for f in 'let Y = Q_a; Y' 'let max = Q_a; max' 'MOD := Q_a'; do
	run 2 "$TALLY" print -f "$f" 2> err.txt
	grep -q "is a keyword and cannot name a definition" err.txt ||
		fail "no keyword message for: $f"
done
printf 'min := #Q_a\nout := min > 0\n' > kw.crasp
run 2 "$TALLY" info -P kw.crasp 2> err.txt
grep -q "'min' is a keyword" err.txt || fail "no keyword message in a .crasp file"

# 4. Thousands of inputs: each definition uses the one before.
awk 'BEGIN { print ":word abab"; print "d0 := #Q_a"
	     for (i = 1; i <= 3000; i++) printf "d%d := d%d + #Q_b\n", i, i - 1
	     print ":reset"; print "d0 := #Q_a > 0" }' > many.in
run 0 "$TALLY" repl < many.in > many.out
test "$(wc -l < many.out)" = 3004 || fail "many.in: $(wc -l < many.out) lines"
grep -q '^d3000("abab") = \[1, 3001, 3002, 6002\]  int, depth 1$' many.out ||
	fail "d3000 has wrong values: $(grep '^d3000' many.out)"
tail -1 many.out | grep -q '^d0("abab") = \[1\]\*4  bool, depth 1$' ||
	fail "after :reset: $(tail -1 many.out)"

# 5. Script mode keeps no history; an empty script is a quiet success.
run 0 "$TALLY" repl < /dev/null > empty.out
test ! -s empty.out || fail "an empty script printed something"
test ! -e .tally_history || fail "script mode wrote a history file"
run 2 "$TALLY" repl extra < /dev/null 2> /dev/null
# 6. A file that cannot be written says why (and the session goes on).
printf 'let A = Q_a\n:save nodir/x.tl\n:dot nodir/x.dot A\n:save /dev/full\nA\n' > w.in
run 2 "$TALLY" repl < w.in > w.out 2> err.txt
grep -q "cannot write 'nodir/x.tl': No such file or directory" err.txt ||
	fail ":save: $(cat err.txt)"
grep -q "cannot write 'nodir/x.dot': No such file or directory" err.txt ||
	fail ":dot: $(cat err.txt)"
if test -w /dev/full; then
	grep -q "cannot write '/dev/full': No space left on device" err.txt ||
		fail ":save to a full device: $(cat err.txt)"
fi
test "$(tail -1 w.out)" = "_: bool, depth 0" || fail "after the errors: $(tail -1 w.out)"
echo "repl.sh: transcripts, documentation and keywords checked"
