# tests/cli/mpi.sh -- tally-mpi prints what tally prints: the same bytes
# on stdout and stderr and the same exit status, whatever the number of
# ranks (the serial tally is the reference; the counterexample and the
# counts are also checked against what is known independently).  tally
# itself does not link MPI.  Skipped (77) when tally-mpi was not built
# (configure found no MPI, or --without-mpi) or no mpirun is on PATH.
. "$top_srcdir/tests/lib.sh"
T=$TALLY
M=${TALLY_MPI:-$(dirname "$TALLY")/tally-mpi}
if ! test -x "$M"; then
	echo "mpi.sh: tally-mpi was not built; skipped"
	exit 77
fi
MPIRUN=${MPIRUN:-mpirun}
if ! command -v "$MPIRUN" > /dev/null 2>&1; then
	echo "mpi.sh: no $MPIRUN on PATH; skipped"
	exit 77
fi

# The single-process tally never links MPI; tally-mpi does.
if command -v ldd > /dev/null 2>&1; then
	! ldd "$T" | grep -q 'libmpi' || fail "tally links MPI: $(ldd "$T" | grep mpi)"
	ldd "$M" | grep -q 'libmpi' || fail "tally-mpi does not link libmpi"
fi

mpirun_setup
opts=$MPI_OPTS
# Sanitizer builds: MPI's own allocations outlive MPI_Finalize, in
# plugins already unloaded (no suppression can name them), so the leak
# check is off for tally-mpi (tally's own runs keep it).
mpi_asan="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# An mpirun that cannot start two processes here (no usable transport,
# a restricted container) says nothing about tally-mpi.
# shellcheck disable=SC2086
if ! timeout "${TRY_BOUND:-120}" "$MPIRUN" $opts -np 2 true > probe.txt 2>&1
then
	cat probe.txt
	echo "mpi.sh: $MPIRUN cannot start two processes here; skipped"
	exit 77
fi

# mpi NP ARGS...: tally-mpi on NP ranks, output in mpi.out/mpi.err, the
# status in $got (a hang is a failure: timeout's 124).
mpi() {
	np=$1; shift
	got=0
	# shellcheck disable=SC2086
	ASAN_OPTIONS=$mpi_asan timeout "${TRY_BOUND:-120}" "$MPIRUN" $opts \
		-np "$np" "$M" "$@" \
		> mpi.out 2> mpi.err < /dev/null || got=$?
	test "$got" != 124 || fail "tally-mpi hung: $*"
}

# same NP ARGS...: tally and tally-mpi on NP ranks agree byte for byte.
same() {
	np=$1; shift
	want=0
	"$T" "$@" > tally.out 2> tally.err < /dev/null || want=$?
	mpi "$np" "$@"
	test "$got" = "$want" ||
		{ cat mpi.err; fail "exit $got on $np ranks, tally $want: $*"; }
	cmp -s tally.out mpi.out || { diff tally.out mpi.out || true
		fail "stdout differs on $np ranks: $*"; }
	cmp -s tally.err mpi.err || { diff tally.err mpi.err || true
		fail "stderr differs on $np ranks: $*"; }
}

dyck_a="#['('] = #[')'] & #[#['('] < #[')']] = 0"
dyck_b="#['('] = #[')'] & #[')' & #[')'] = #['('] + 1] = 0"
depth2="Q_a & 1 <= #[Q_a & #[Q_b] < 1] & 1 <= #[Q_a & 1 <= #[Q_b]]"

# The Dyck-1 pair to length 40: bounded, 3.
same 2 equiv --method=explore --max-length 40 -f "$dyck_a" -f "$dyck_b"
test "$want" = 3 || fail "dyck pair: exit $want"
# Not equivalent at depth 3, in one job: L_3 against a depth-2 attempt
# (the corpus's shortest witness ababa); three letters; a proof with
# its certificate.
tab=$(printf '\t')
{
	printf '%s\t%s\tab\tnot-equivalent\tababa\n' L_3 "$depth2"
	printf '%s\t%s\tabc\n' "#[Q_b & #[Q_a] > 2*#[Q_c]] < 4" \
		"#[Q_b & #[Q_a] > 2*#[Q_c]] < 4 | #[Q_c & Y Q_a] > 4"
	printf '%s\t%s\tab\tequivalent\n' "Y Q_a & MOD(3, 1)" \
		"Y Q_a & MOD(3, 1) & (Q_a | Q_b)"
} > pairs.tsv
same 2 equiv --method=explore --certificate --pairs=pairs.tsv
grep -q "^1${tab}not equivalent${tab}counterexample: ababa (accepted by second)" \
	mpi.out || fail "L_3 pair: $(cat mpi.out)"
# A depth-3 pair whose first separating length holds many words, spread
# over the ranks: the least one in shortlex order is a^5 b^3 a (the
# longest run of a's first).
# Under a tiny --max-states too: tally's first check of the state count
# comes after the counterexample's parent.
same 3 equiv --method=explore --json --max-states 1 -f L_3 \
	-f "L_3 & (#[Q_a] < 6 | #[Q_b] < 3)"
grep -q '"word":"aaaaabbba"' mpi.out || fail "L_3 threshold pair: $(cat mpi.out)"

# Dyck-1 counts to 24: Catalan numbers at even lengths, 0 at odd ones.
same 2 lang -f dyck1 -n 24 --count
awk 'BEGIN { c = 1; for (n = 0; n <= 24; n++) {
	if (n % 2) { print n "\t0"; continue }
	print n "\t" c; k = n / 2; c = c * 2 * (2 * k + 1) / (k + 2) } }' > catalan.txt
cmp -s catalan.txt mpi.out || { diff catalan.txt mpi.out; fail "dyck1 counts"; }

# Limits: --max-states stops where tally stops (the same states counted,
# mid-level too), exit 4 with tally's message.
same 2 equiv --method=explore --max-states 1 --max-length 100 \
	-f "$dyck_a" -f "$dyck_b"
test "$want" = 4 || fail "--max-states=1: exit $want"
same 2 equiv --method=explore --max-states 1000 --max-length 100 \
	-f "$dyck_a" -f "$dyck_b"
# Three letters: tally stops at 1581 in the level of the counterexample,
# holding 1582 states; at 1582 the counterexample comes first.
abc1="#[Q_b & #[Q_a] > 2*#[Q_c]] < 4"
abc2="#[Q_b & #[Q_a] > 2*#[Q_c]] < 4 | #[Q_c & Y Q_a] > 4"
same 3 equiv --method=explore --max-states 1581 -f "$abc1" -f "$abc2"
test "$want" = 4 || fail "--max-states=1581: exit $want"
same 2 equiv --method=explore --max-states 1582 -f "$abc1" -f "$abc2"
test "$want" = 1 || fail "--max-states=1582: exit $want"
mpi 2 equiv --method=explore --timeout=0.5 -f majority -f "2*#[Q_a] > #[true]"
test "$got" = 4 || fail "--timeout: exit $got"
grep -q '^tally: limit: --timeout=0.5 reached; every word up to length' mpi.err ||
	fail "--timeout: $(cat mpi.err)"
mpi 2 lang -f dyck1 -n 100000 --count --max-memory=1M
test "$got" = 4 || fail "lang --max-memory: exit $got"
grep -q '^tally: limit: --max-memory reached' mpi.err ||
	fail "lang --max-memory: $(cat mpi.err)"

# The search engine: the bank shared out by signature hash.  The table
# and its footer (every layer's kept and generated counts) are tally's,
# and the staircase is the theory's (depth k for L_k).
same 2 hierarchy --k=1..4 --quiet --no-time
test "$want" = 0 || fail "hierarchy: exit $want"
grep -q '^staircase: reproduced' mpi.out || fail "hierarchy: $(cat mpi.out)"
# Waiting by polling (TALLY_MPI_SPIN=1, make bench's comparison) changes
# the CPU spent, nothing printed; on 3 ranks, so that an owner takes
# the candidates of two other ranks as they land.
TALLY_MPI_SPIN=1
export TALLY_MPI_SPIN
same 3 hierarchy --k=1..3 --quiet --no-time
unset TALLY_MPI_SPIN
same 3 hierarchy --k=1..4 --pairs=0 --quiet --no-time
# The rows' pairs are the last rank's (mpi_pairs.c), each built a row
# ahead on a thread with its own Store: for L_k (above; a membership
# test with the letters swapped, or another row's formula, gives other
# pairs there), for the prediction task (its prefix guard a second
# root) and for the dk rows (pairgen_dk: built when asked, with the
# caller's test); on 3 ranks the pair rank is not the one next to
# rank 0.
same 2 hierarchy --task=predict --k=3..5 --quiet --no-time
same 3 hierarchy --family=dk --k=1..2 --quiet --no-time
# --plot: rank 0 alone writes the file (no rank's temporary file is
# left), and it is tally's picture.
"$T" hierarchy --k=1..2 --quiet --no-time --plot=tally.svg > /dev/null
mpi 2 hierarchy --k=1..2 --quiet --no-time --plot="$PWD/mpi.svg"
test "$got" = 0 || fail "hierarchy --plot: exit $got"
cmp -s tally.svg mpi.svg || fail "hierarchy --plot: another picture"
test "$(ls | grep -c 'svg')" = 2 || fail "stray files: $(ls | grep svg)"
# --separate: the entries dealt in chunks, rank 0 checking the pairs.
same 3 search --separate=2 --alphabet=ab --count=2 --quiet
grep -q '^1\. .*(depth 3, size' mpi.out || fail "separate: $(cat mpi.out)"
# Labelled words with one mislabelled (the majority over the met
# partition), and the two-sided bank (Q_x & atom & atom, pinned atoms).
"$T" lang -f L_2 --max-length 8 --alphabet=ab > npos.txt
"$T" lang -f '!L_2' --max-length 6 --alphabet=ab > nneg.txt
echo aababbb >> npos.txt
same 2 search --positive=npos.txt --negative=nneg.txt --max-errors=1 --quiet
grep -q '^wrong: 1 of the 141 labelled words' mpi.out ||
	fail "noisy labels: $(cat mpi.out)"
same 2 search --family=lk --k=3 --two-sided --csv --quiet
# Limits: --max-signatures stops after the same block (exit 4, tally's
# partial table); --timeout stops every rank.
same 2 hierarchy --k=1..4 --max-signatures=5000 --quiet --no-time
test "$want" = 4 || fail "--max-signatures: exit $want"
mpi 2 hierarchy --k=1..8 --timeout=1 --quiet --no-time
test "$got" = 4 || fail "hierarchy --timeout: exit $got"
grep -q '^tally: limit: --timeout=1 reached; rows before k = ' mpi.err ||
	fail "hierarchy --timeout: $(cat mpi.err)"
grep -q '^staircase: incomplete' mpi.out ||
	fail "hierarchy --timeout: $(cat mpi.out)"

# What is not distributed is refused, not run N times over.
mpi 2 equiv -f L_2 -f L_3
test "$got" = 2 || fail "auto: exit $got"
grep -q 'runs --method=explore only' mpi.err || fail "auto: $(cat mpi.err)"
# A rank that cannot read the inputs (stdin reaches rank 0 only) ends
# the job, never a hang.
got=0
echo L_3 | ASAN_OPTIONS=$mpi_asan timeout "${TRY_BOUND:-120}" "$MPIRUN" \
	$opts -np 2 "$M" equiv --method=explore -F - -f L_4 \
	> mpi.out 2> mpi.err || got=$?
test "$got" = 2 || fail "stdin: exit $got: $(cat mpi.err)"
grep -q 'rank 1 stopped before the distributed work' mpi.err ||
	fail "stdin: $(cat mpi.err)"
got=0
echo L_3 | ASAN_OPTIONS=$mpi_asan timeout "${TRY_BOUND:-120}" "$MPIRUN" \
	$opts -np 2 "$M" search -F - --quiet > mpi.out 2> mpi.err || got=$?
test "$got" = 2 || fail "search stdin: exit $got: $(cat mpi.err)"
grep -q 'rank 1 stopped before the distributed work' mpi.err ||
	fail "search stdin: $(cat mpi.err)"
got=0
echo dyck1 | ASAN_OPTIONS=$mpi_asan timeout "${TRY_BOUND:-120}" "$MPIRUN" \
	$opts -np 2 "$M" gen -F - --sample=10 --max-length=8 \
	> mpi.out 2> mpi.err || got=$?
test "$got" = 2 || fail "gen stdin: exit $got: $(cat mpi.err)"
grep -q 'rank 1 stopped before the distributed work' mpi.err ||
	fail "gen stdin: $(cat mpi.err)"
mpi 2 demo
test "$got" = 2 || fail "demo: exit $got"
grep -q "does not run 'demo'" mpi.err || fail "demo: $(cat mpi.err)"

# gen: every rank builds the state graph and runs the sampler alike
# (the same random numbers); the exact counts are shared out by blocks
# of each level.  The same words, order, labels and report as tally on
# 2 and 3 ranks: dense lengths (every word, shuffled), duplicates among
# the draws, one draw at a time (mutants of members drawn for them,
# --ratio=0:1), a family's domain and position and prediction labels,
# splits, JSON lines, the report file (written by rank 0 alone).
same 2 gen -f dyck1 --sample=300 --min-length=10 --max-length=40 --seed=3
test "$(wc -l < mpi.out)" = 300 || fail "gen: $(wc -l < mpi.out) words"
# The labels are Dyck-1's, by a count of the brackets.
awk -F'\t' '{ d = 0; ok = 1; for (i = 1; i <= length($1); i++) {
	d += substr($1, i, 1) == "(" ? 1 : -1; if (d < 0) ok = 0 }
	if (d != 0) ok = 0; if (ok != $2) { print; exit 1 } }' mpi.out ||
	fail "gen: a wrong label"
test "$(sort -u mpi.out | wc -l)" = 300 || fail "gen: a word twice"
same 3 gen -f dyck1 --sample=216 --min-length=12 --max-length=14 \
	--ratio=1:3 --random=50 --seed=4
# counts of three machine words (gen_unrank.c: the ranks turned into
# exact integers for the shared-out walk)
same 2 gen -f dyck1 --sample=40 --min-length=140 --max-length=144 --seed=5
same 3 gen -f dyck1 --sample=60 --max-length=30 --ratio=0:1
same 3 gen --family=lk --k=2 --sample=100 --max-length=12 --labels=position
same 2 gen -f L_3 --sample=400 --split=train:1..30,test:31..60 \
	--format=jsonl --seed=9
same 3 gen --family=lk-predict --k=2 --sample=50 --max-length=10 \
	--labels=prediction --format=jsonl
"$T" gen -f "#[Q_a] = #[Q_b] & #[Q_b] = #[Q_c]" --sample=200 \
	--max-length=24 --report=tally.json > tally.out
mpi 2 gen -f "#[Q_a] = #[Q_b] & #[Q_b] = #[Q_c]" --sample=200 \
	--max-length=24 --report="$PWD/mpi.json"
test "$got" = 0 || fail "gen --report: exit $got"
cmp -s tally.out mpi.out || fail "gen --report: other words"
cmp -s tally.json mpi.json || fail "gen --report: another report"
# Without a state graph (future counts; --max-states reached while the
# graph was built), rejection sampling, the same on every rank.
same 3 gen -f '#>[Q_a] > #>[Q_b]' --sample=40 --min-length=3 -n 12 --seed=7
grep -q '^gen: no exact counts (the formula has future counts' mpi.err ||
	fail "gen #>: $(cat mpi.err)"
same 2 gen -f dyck1 --sample=100 --min-length=10 -n 40 --max-states=100
# Limits reached by the job: exit 4, tally's message, never a hang.
mpi 2 gen -f dyck1 --sample=2000 --min-length=600 --max-length=1200 \
	--timeout=1 --quiet
test "$got" = 4 || fail "gen --timeout: exit $got"
# (in the build when it is slow: a sanitizer build)
grep -Eq '^tally: limit: --timeout=1 reached; (no word was|[0-9]+ words were) written$' \
	mpi.err || fail "gen --timeout: $(cat mpi.err)"
mpi 3 gen -f dyck1 --sample=2000 --min-length=600 --max-length=1200 \
	--max-memory=40M
test "$got" = 4 || fail "gen --max-memory: exit $got"
grep -q '^tally: limit: --max-memory reached .*; no word was written$' \
	mpi.err || fail "gen --max-memory: $(cat mpi.err)"

# enum: the signatures shared out by hash, the owner keeping the first
# candidate in tally's order; the same formulas, numbers and per-layer
# counts (--stats) on any number of ranks, also when --max-formulas
# stops inside a layer (the candidates counted up to the stop over the
# ranks), with Y, MOD, two-count comparisons, future counts, --check.
same 2 enum --depth=0..2 --size=..11 --max-length=10 --stats \
	--format='%n %d %s %h %f'
test "$(wc -l < mpi.out)" -gt 1000 || fail "enum: $(wc -l < mpi.out) formulas"
same 3 enum --depth=0..2 --size=..11 --max-length=10 --stats --max-formulas=777
same 3 enum --depth=1 --size=..7 --with-y --with-mod=3 --max-const=2 \
	--max-coeff=2 --stats --json --check --max-formulas=5000
same 2 enum --depth=0..2 --size=..6 --with-future --max-length=4 --stats \
	--csv --pairs=2
# A limit reached by the job: exit 4, tally's message.
mpi 3 enum --depth=0..3 --size=..18 --max-length=10 --quiet --max-memory=60M
test "$got" = 4 || fail "enum --max-memory: exit $got"
grep -q '^tally: limit: --max-memory reached .*; [0-9]* formulas printed$' \
	mpi.err || fail "enum --max-memory: $(cat mpi.err)"

# The page names every command of tally-mpi --help.
"$M" --help > help.txt
for cmd in $(sed -n '/^Commands:/,/^$/s/^  \([a-z]*\) .*/\1/p' help.txt); do
	grep -q "^\\.B $cmd\$" "$top_srcdir/man/tally-mpi.1" ||
		fail "tally-mpi.1 lacks the command $cmd"
done
sed 's/\\-/-/g' "$top_srcdir/man/tally-mpi.1" | grep -q 'allow-run-as-root' ||
	fail "tally-mpi.1 does not say how to run as root"
