# seq_cr_interp.sh -- .cr programs with integer and per-position outputs
# (issue 32) agree with the Python C-RASP interpreter: histogram, a
# running count, a per-position comparison and a count whose value turns
# on the interpreter's grouping, at every position of every word over
# {a, b} of length 1..7.  The expected values are the interpreter's own
# (github.com/coli-saar/c-rasp at 8df6c1549dfc, recorded once by
# tests/data/cr_interp/record.py from its trace of the last statement),
# not tally's.
. "$top_srcdir/tests/lib.sh"
dir=$top_srcdir/tests/data/cr_interp

# grouping.cr reads as the interpreter groups it under
# --cr-precedence=peer (tally's default is the conventional reading,
# with a warning that names the interpreter's).
for prog in histogram count_a current_leads grouping; do
	cut -f1 "$dir/$prog.out" > words.txt
	"$TALLY" eval -P "$dir/$prog.cr" --tokens --alphabet=a,b \
		--cr-precedence=peer --per-position < words.txt \
		> "$prog.got" 2> err.txt ||
		test $? = 1 || fail "$prog: $(cat err.txt)"
	diff "$dir/$prog.out" "$prog.got" > diff.txt ||
		fail "$prog differs from the interpreter: $(head -5 diff.txt)"
done

"$TALLY" eval -P "$dir/grouping.cr" --tokens --alphabet=a,b -w a \
	> out.txt 2> err.txt || fail "grouping, conventional"
out_is "a	3"
grep -q "interpreter:  m = (2 \* (ca - (cb + 1)))" err.txt ||
	fail "no grouping warning: $(cat err.txt)"

# The value alone is the last position's, as the interpreter prints it.
"$TALLY" eval -P "$dir/histogram.cr" --tokens --alphabet=a,b -w 'a b b a' \
	> out.txt || fail "histogram value"
out_is "a b b a	2"
exit 0
