#!/bin/sh
# tests/cli/search_partial.sh -- search and hierarchy stopped by a tiny
# --max-memory or --timeout print the rows they completed, the deepest
# certified lower bound (or why there is none) and exit 4; the default
# memory bound is documented.  No time is measured: each job cannot
# finish within its bound, and what is checked is printed before it.
. "$top_srcdir/tests/lib.sh"
TRY_BOUND=60

JOB="search --family=lk --k=8 --max-length=14 --pairs=64 --quiet"

# shellcheck disable=SC2086
try 4 "$TALLY" $JOB --max-memory=64M
err_has 'tally: limit: --max-memory reached'
err_has 'limit 64 MiB'
grep -q '^target: ' out.txt || fail "memory: no header: $(head -n 2 out.txt)"
# (natively the job completes depths 0 and 1 in 64M; a sanitizer build's
# allocator may spend them before depth 0 ends)
if test -z "${TALLY_SANITIZED:-}"; then
	grep -q '^depth 0: ' out.txt || fail "memory: no depth row printed"
fi
grep -q '^no verified formula up to depth ' out.txt || fail "memory: no summary"
grep -q '^lower bound: ' out.txt || fail "memory: no lower-bound line"

# shellcheck disable=SC2086
try 4 "$TALLY" $JOB --timeout=2
err_has 'tally: limit: --timeout=2 reached'
grep -q '^depth 0: ' out.txt || fail "timeout: no depth row printed"
grep -q '^lower bound: ' out.txt || fail "timeout: no lower-bound line"

# hierarchy: the stopped row is printed, with its lower bound when the
# pair was built before the limit, and the staircase says incomplete
try 4 "$TALLY" hierarchy --k=1..9 --max-memory=64M --quiet
err_has 'tally: limit: --max-memory reached'
if test -z "${TALLY_SANITIZED:-}"; then
	grep -q 'stopped at depth [0-9]* (partial table)' out.txt ||
		fail "hierarchy memory: no stopped row: $(tail -n 4 out.txt)"
fi
grep -q '^staircase: incomplete (a limit was reached)' out.txt ||
	fail "hierarchy memory: footer"
try 4 "$TALLY" hierarchy --k=1..9 --timeout=2 --quiet
err_has 'tally: limit: --timeout=2 reached'
grep -q '^staircase: incomplete (a limit was reached)' out.txt ||
	fail "hierarchy timeout: footer"

# the default bound is documented where the option is
for c in search hierarchy; do
	"$TALLY" $c --help | tr -s ' \n' ' ' | grep -q "default a quarter of the machine's memory" ||
		fail "$c --help: no default --max-memory"
done
exit 0
