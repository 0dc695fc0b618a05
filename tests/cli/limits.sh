# limits.sh -- every command that can run long honours --timeout and
# --max-memory (limit.c), and running out of memory under a real
# `ulimit -v` is exit 4 with a message (mem.c), never a crash.
#
# Each job below cannot finish quickly: a command that ignored the limit
# would run into the wall bound of `try` (BOUND seconds, generous even
# for a sanitizer build on a loaded machine) and fail.  Exit 4, the
# message naming the limit and its value, and the partial output where
# the command has any are checked; no time is measured.
#
# A check of one limit must not race another limit or the machine's
# speed: a job checked for its memory limit gets a --timeout far above
# what it needs (equiv and check would otherwise stop at their default
# 3-second budget, which a loaded machine reaches first), and a memory
# limit the job reaches by construction, a few MB above what the command
# needs to start.
. "$top_srcdir/tests/lib.sh"
TRY_BOUND=40

# limited WANT-MESSAGE COMMAND...: exit 4 and `tally: limit: ...` naming it.
limited() {
	msg=$1; shift
	try 4 "$@"
	err_has "tally: limit: $msg"
}

# ---- the jobs -------------------------------------------------------------
# Each is a command line that never ends by itself in a few seconds.
LANG_JOB="lang -f majority --max-length 40"
EQUIV_JOB="equiv --method=explore -f majority -f 2*#[Q_a]>#[true]"
CHECK_JOB="check --method=explore --valid -f #[Q_a]>=#[Q_b]|#[Q_b]>=#[Q_a]"
ENUM_JOB="enum --depth=0..2 --size=..30 --quiet"
SEARCH_JOB="search --family=lk --k=8 --length=14 --pairs=64 --quiet"
HIER_JOB="hierarchy --k=1..10 --quiet"
SIM_CHECK_JOB="simulate maj.json --check-against-formula --max-length 28"
SIM_BREAK_JOB="simulate maj.json --find-breakdown --max-length 100000"
GEN_JOB="gen -f majority --sample=100000000 --min-length=20 --max-length=30 -q"
"$TALLY" compile -f majority > maj.json || fail "compile majority"
# A formula whose inlined tree has 2^27 nodes (the default --max-size
# is 10^8 nodes: raise it): printing it takes far longer than a second.
{ echo 'let A0 = Q_a;'
  i=1; while test $i -le 26; do
	echo "let A$i = A$((i - 1)) & #[A$((i - 1))] > 0;"; i=$((i + 1)); done
  echo A26; } > exp26.tl
PRINT_JOB="print --expand --max-size=1000000000000 -F exp26.tl"

# ---- (a) --timeout=1: exit 4, the message, the partial result ---------------
# (the jobs are word-split on purpose: no argument holds a blank)
# shellcheck disable=SC2086
{
limited '--timeout=1 reached; lengths 0..' "$TALLY" $LANG_JOB --timeout=1
test -s out.txt || fail "lang: no partial listing"

limited '--timeout=1 reached; every word up to length' "$TALLY" $EQUIV_JOB --timeout=1
head -n 1 out.txt | grep -qx unknown || fail "equiv: $(head -n 2 out.txt)"
grep -q '^method: explore (.*stopped by the time limit)' out.txt ||
	fail "equiv: method line $(cat out.txt)"

limited '--timeout=1 reached; every word up to length' "$TALLY" $CHECK_JOB --timeout=1
head -n 1 out.txt | grep -qx unknown || fail "check: $(head -n 2 out.txt)"

limited '--timeout=1 reached; ' "$TALLY" $ENUM_JOB --timeout=1
err_has 'formulas printed'
test -s out.txt || fail "enum: no formula printed before the limit"

limited '--timeout=1 reached; depths 0..' "$TALLY" $SEARCH_JOB --timeout=1
grep -q '^depth 0: no Boolean combination' out.txt ||
	fail "search: no refutation printed before the limit"

limited '--timeout=1 reached; rows before k = ' "$TALLY" $HIER_JOB --timeout=1
grep -q 'staircase: incomplete (a limit was reached)' out.txt ||
	fail "hierarchy: footer $(tail -n 3 out.txt)"

limited '--timeout=1 reached; ' "$TALLY" $SIM_CHECK_JOB --timeout=1
err_has 'words compared (of all words up to length 28), no disagreement'

limited '--timeout=1 reached; no disagreement up to length ' \
	"$TALLY" $SIM_BREAK_JOB --timeout=1

limited '--timeout=1 reached; ' "$TALLY" $GEN_JOB --timeout=1
err_has 'words were written'
test -s out.txt || fail "gen: no words before the limit"

# print polls while it writes the tree out (the backstop's message would
# say "in work that cannot stop early"), and prints nothing of it.
limited '--timeout=1 reached; nothing of this formula was printed' \
	"$TALLY" $PRINT_JOB --timeout=1
test ! -s out.txt || fail "print: part of a formula printed"
# ... in every syntax the printer writes
limited '--timeout=1 reached; nothing of this formula was printed' \
	"$TALLY" $PRINT_JOB --to=sexpr --timeout=1
}

# ---- (b) a tiny --max-memory: exit 4 --------------------------------------
# 20M is above what each command needs to start and below what the job
# needs; lang and simulate --check-against-formula run in constant memory
# (a few MB), so they get a limit below that; the breakdown search grows
# by a few MB a second, so it gets 8M, just above its start.
# shellcheck disable=SC2086
{
limited '--max-memory reached' "$TALLY" $LANG_JOB --count --max-memory=1M
err_has 'limit 1 MiB'
limited '--max-memory reached' "$TALLY" $EQUIV_JOB --max-memory=20M --timeout=1000
err_has 'limit 20 MiB'
head -n 1 out.txt | grep -qx unknown || fail "equiv: $(head -n 2 out.txt)"
limited '--max-memory reached' "$TALLY" $CHECK_JOB --max-memory=20M --timeout=1000
err_has 'limit 20 MiB'
limited '--max-memory reached' "$TALLY" $ENUM_JOB --max-memory=20M
err_has 'limit 20 MiB'
limited '--max-memory reached' "$TALLY" $SEARCH_JOB --max-memory=20M
err_has 'limit 20 MiB'
limited '--max-memory reached' "$TALLY" $HIER_JOB --max-memory=20M
err_has 'limit 20 MiB'
limited '--max-memory reached' "$TALLY" $SIM_CHECK_JOB --max-memory=1M
limited '--max-memory reached' "$TALLY" $SIM_BREAK_JOB --max-memory=8M
err_has 'limit 8 MiB'
limited '--max-memory reached' "$TALLY" $GEN_JOB --max-memory=20M
err_has 'limit 20 MiB'
# print refuses up front: the text of a node takes at least a byte.
limited '--expand: the inlined formula has' "$TALLY" $PRINT_JOB --max-memory=20M
err_has 'more than --max-memory (one byte a node)=20971520'
test ! -s out.txt || fail "print: output despite the refusal"
# below the refusal's bound (2^22 nodes), the memory the text takes
{ echo 'let A0 = Q_a;'
  i=1; while test $i -le 21; do
	echo "let A$i = A$((i - 1)) & #[A$((i - 1))] > 0;"; i=$((i + 1)); done
  echo A21; } > exp21.tl
limited '--max-memory reached' "$TALLY" print --expand -F exp21.tl --max-memory=20M
err_has 'nothing of this formula was printed'
test ! -s out.txt || fail "print: part of a formula printed"
}

# Malformed limits are usage errors, the same for every command.
for cmd in "$LANG_JOB" "$EQUIV_JOB" "$ENUM_JOB" "$SEARCH_JOB" "$HIER_JOB" \
	"$SIM_BREAK_JOB" "$PRINT_JOB" "$GEN_JOB" repl; do
	# shellcheck disable=SC2086
	try 2 "$TALLY" $cmd --timeout=soon
	err_has "--timeout: expected a number of seconds greater than 0, not 'soon'"
	# shellcheck disable=SC2086
	try 2 "$TALLY" $cmd --max-memory=0
	err_has "--max-memory: expected a size such as 500M or 2G, not '0'"
done

# ---- the REPL: a limit ends the command, never the session ------------------
printf ':lang 40 majority\n:equiv majority 2*#[Q_a]>#[true]\nQ_a & Q_b\n' > session.txt
try 0 "$TALLY" repl --timeout=1 < session.txt
err_has 'tally: limit: --timeout=1 reached; lengths 0..'
grep -qx equivalent out.txt || fail "repl: :equiv after the limit $(tail -n 3 out.txt)"

# ---- (c) a real ulimit -v: out of memory is exit 4 ---------------------------
# Not on a sanitizer build (ASan reserves terabytes of address space), nor
# where the limit cannot be set.  The jobs whose memory grows run until
# malloc fails; nothing else may stop them first: no --timeout but a far
# one where the command has a default budget (equiv, check), and the wall
# bound of `timeout` (ULIMIT_BOUND) only catches a hang.
# The counting job: lang --count keeps one number per merged machine
# state, and six independent comparisons have about n^6/720 states at
# length n, so its memory grows with no bound and fast; it loads no
# solver, so it runs under a tighter ulimit (40 MB: it reaches it below
# length 15).
PAIRS6='#[Q_a]>#[Q_b]&#[Q_c]>#[Q_d]&#[Q_e]>#[Q_f]&#[Q_g]>#[Q_h]&#[Q_i]>#[Q_j]&#[Q_k]>#[Q_l]'
ULIMIT_BOUND=300
if ! ldd "$TALLY" 2> /dev/null | grep -q libasan &&
	(ulimit -v 120000 && "$TALLY" --version) > /dev/null 2>&1; then
	# under_ulimit KB TALLY-ARGS...
	under_ulimit() {
		kb=$1; shift
		status=0
		# shellcheck disable=SC2068
		(ulimit -v "$kb"; exec timeout "$ULIMIT_BOUND" "$TALLY" "$@") \
			> out.txt 2> err.txt || status=$?
		test "$status" = 4 || fail "ulimit -v $kb: exit $status: $* $(head -c 300 err.txt)"
		err_has 'tally: limit: out of memory'
	}
	# shellcheck disable=SC2086
	{
	under_ulimit 40000 lang -f "$PAIRS6" --max-length 100000000 --count
	under_ulimit 120000 $EQUIV_JOB --max-memory=100G --timeout=10000
	under_ulimit 120000 $CHECK_JOB --max-memory=100G --timeout=10000
	under_ulimit 120000 $ENUM_JOB
	under_ulimit 120000 $SEARCH_JOB --jobs=1
	under_ulimit 120000 $HIER_JOB --jobs=1
	under_ulimit 120000 $PRINT_JOB
	}
	# The breakdown search grows by about 5 MB a second: it reaches the
	# limit only after tens of seconds (make check-heavy).
	if test "${TALLY_TEST_MULTIPLIER:-1}" -ge 10; then
		# shellcheck disable=SC2086
		under_ulimit 120000 $SIM_BREAK_JOB --max-states=1000000000
	fi
fi
exit 0
