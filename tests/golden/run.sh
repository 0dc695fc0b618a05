#!/bin/sh
# tests/golden/run.sh -- the golden corpus: every command line of
# tests/golden/cases.txt run with $TALLY, its exit status, stdout and
# stderr compared byte for byte with tests/golden/expected/ (recorded
# from an earlier binary).  A refactor must leave every byte unchanged;
# see tests/golden/README.md.
#
#   run.sh                    compare; exit 0 when every case is equal,
#                             1 (with the command line and a unified
#                             diff per differing case) otherwise
#   GOLDEN_RECORD=1 run.sh    rewrite tests/golden/expected/ from $TALLY
#   GOLDEN_ONLY=ID[,ID...]    run only these cases (ids: see below)
#   GOLDEN_SAMPLE=K           (compare only) every case whose record exits
#                             2 or more (errors, unknown, limits), and of
#                             the cases exiting 0 or 1 the first, then
#                             every K-th, of each command in each "## "
#                             section: .ci/run's sanitizer stage, where
#                             each tally pays ASan's start-up and leak
#                             check and every case already ran natively
#
# Each case runs as `sh -c COMMAND` from the top of the source tree, stdin
# from /dev/null unless the command pipes into tally, with
#   $T  tally ($TALLY)
#   $M  "mpirun -np 2 ... tally-mpi" (tally-mpi beside $TALLY)
#   $D  /tmp/tally-golden/ID, a scratch directory of the case (made empty
#       before the case, removed after the run: a fixed path, so outputs
#       that name it are reproducible; one run at a time per machine,
#       by flock(1) on /tmp/tally-golden.run.lock)
# A case's id is the first 12 hex digits of the MD5 of its command line
# (after its tags); its record is expected/ID: the command line, the exit
# status, then stdout and stderr between marker lines.
#
# Tags at the start of a line (before the command):
#   @mpi            needs tally-mpi and a working mpirun (skipped otherwise)
#   @nosan          skipped when TALLY_SANITIZED=yes (none at the moment)
#   @filter-method, @filter-evidence  the determinism filters, below
#
# Determinism filters.  Every case was chosen so that its bytes do not
# depend on time, load, memory or paths: hierarchy --no-time; equiv and
# check with an explicit --method and bounds (or a --timeout no case comes
# near), never the race of --method=auto under its time budget; search
# and hierarchy with --decide-length=0 (their last verification step
# gives each decision method one second: under load mona's proof becomes
# explore's bound, up to a length that varies); scratch files under the
# fixed $D; HOME is $D.  Two filters remain, each applied only to the
# cases tagged with it:
#   @filter-method    sed '/^method: /d'
#       the REPL's :equiv and :check always use --method=auto: which
#       method answers first varies (as in tests/cli/repl.sh)
#   @filter-evidence  sed -E 's/; tally equiv \([a-z]+\)[^;]*;
#                           evidence: (proof|bound)$/; tally equiv
#                           (FILTERED); evidence: FILTERED/'
#       the few search/hierarchy cases that keep the decision step (and
#       tally demo, which runs hierarchy): its text line, proof or bound
. "$top_srcdir/tests/lib.sh"
work=$(pwd)
cases=$top_srcdir/tests/golden/cases.txt
expected=$top_srcdir/tests/golden/expected
T=$TALLY
case $T in /*) ;; *) T=$(cd "$(dirname "$T")" && pwd)/$(basename "$T") ;; esac
mpi_bin=${TALLY_MPI:-$(dirname "$T")/tally-mpi}
base=/tmp/tally-golden
# tally's own environment variables would change what it prints.
unset TALLY_HISTORY TALLY_INJECT_PROOF TALLY_MONA TALLY_MPI_STATS || true
bound=${GOLDEN_BOUND:-${TRY_BOUND:-120}}

# filter: the determinism filters of a case (stdin to stdout), by its tags.
filter() {
	if test "$filter_method" = yes; then
		sed '/^method: /d'
	elif test "$filter_evidence" = yes; then
		sed -E 's/; tally equiv \([a-z]+\)[^;]*; evidence: (proof|bound)$/; tally equiv (FILTERED); evidence: FILTERED/'
	else
		cat
	fi
}

# tally-mpi at 2 ranks, as tests/cli/mpi.sh runs it.
M=
MPIRUN=${MPIRUN:-mpirun}
if test -x "$mpi_bin" && command -v "$MPIRUN" > /dev/null 2>&1; then
	mpirun_setup
	opts=$MPI_OPTS
	# shellcheck disable=SC2086
	if timeout "$bound" "$MPIRUN" $opts -np 2 true > mpiprobe.txt 2>&1; then
		M="$MPIRUN $opts -np 2 $mpi_bin"
	fi
fi
# Sanitizer builds: MPI's own allocations outlive MPI_Finalize (see
# tests/cli/mpi.sh); the leak check is off for tally-mpi only.
mpi_asan="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

record=${GOLDEN_RECORD:-}
only=,${GOLDEN_ONLY:-},
sample=${GOLDEN_SAMPLE:-1}
case $sample in '' | *[!0-9]* | 0) echo "golden: GOLDEN_SAMPLE=$sample: not a positive number" >&2; exit 2 ;; esac
test -z "$record" || sample=1
if test -n "$record" && test "$only" = ,,; then
	rm -rf "$expected"
fi
mkdir -p "$expected"

# One run at a time uses $base: flock(1) on $base.run.lock (released when
# this shell exits), waited for up to GOLDEN_LOCK_WAIT seconds (default
# 3600); without flock, no lock.
if command -v flock > /dev/null 2>&1; then
	exec 9> "$base.run.lock"
	if ! flock -n 9; then
		echo "golden: waiting for $base.run.lock (another run)" >&2
		flock -w "${GOLDEN_LOCK_WAIT:-3600}" 9 ||
			{ echo "golden: $base.run.lock: gave up waiting" >&2; exit 2; }
	fi
fi
# (make check-valgrind: lib.sh's report of valgrind's findings still runs)
trap 'st=$?; rm -rf "$base"
	if test -n "${TALLY_VALGRIND:-}"; then (exit "$st"); valgrind_reports; fi' EXIT
trap 'exit 130' INT TERM HUP
rm -rf "$base"
mkdir -p "$base"
rm -rf "$base"
mkdir -p "$base"

# sampled_out ID LINE: whether GOLDEN_SAMPLE leaves the case out (see
# the top).  The strata are a section and a command word ($T's or $M's
# next word), so every command of every section still runs; the error
# paths, where a leak or a bad free is likeliest, all run.
sampled_out() {
	test "$sample" -gt 1 || return 1
	case $(sed -n 2p "$expected/$1" 2> /dev/null) in
	'exit: 0' | 'exit: 1') ;;
	*) return 1 ;;
	esac
	key="$section/$(printf '%s\n' "$2" | sed -n 's/.*\$[TM] \([a-z-]*\).*/\1/p' | head -n 1)"
	printf '%s\n' "$key" >> strata.txt
	test $(($(grep -cxF -- "$key" strata.txt) % sample)) != 1
}

n=0 differ=0 skipped=0 left_out=0 section=
: > ids.txt
: > strata.txt
# shellcheck disable=SC2094
while IFS= read -r line || test -n "$line"; do
	case $line in '## '*) section=$line; continue ;; esac
	case $line in '' | '#'*) continue ;; esac
	mpi=no nosan=no filter_method=no filter_evidence=no
	while :; do
		case $line in
		'@filter-evidence '*) filter_evidence=yes
			line=${line#@filter-evidence } ;;
		'@mpi '*) mpi=yes; line=${line#@mpi } ;;
		'@nosan '*) nosan=yes; line=${line#@nosan } ;;
		'@filter-method '*) filter_method=yes
			line=${line#@filter-method } ;;
		*) break ;;
		esac
	done
	id=$(printf '%s' "$line" | md5sum | cut -c1-12)
	if grep -qx "$id" ids.txt; then
		echo "golden: duplicate case: $line" >&2
		exit 2
	fi
	echo "$id" >> ids.txt
	case $only in ,,) ;; *",$id,"*) ;; *) continue ;; esac
	if test "$mpi" = yes && test -z "$M"; then
		skipped=$((skipped + 1)); continue
	fi
	if test "$nosan" = yes && test "${TALLY_SANITIZED:-}" = yes; then
		skipped=$((skipped + 1)); continue
	fi
	if sampled_out "$id" "$line"; then
		left_out=$((left_out + 1)); continue
	fi
	n=$((n + 1))
	D=$base/$id
	rm -rf "$D"
	mkdir "$D"
	status=0
	asan=${ASAN_OPTIONS:-}
	test "$mpi" = no || asan=$mpi_asan
	(cd "$top_srcdir" && T=$T M=$M D=$D HOME=$D ASAN_OPTIONS=$asan \
		timeout "$bound" sh -c "$line" < /dev/null > "$work/out" 2> "$work/err" 9>&-) ||
		status=$?
	{
		printf 'command: %s\nexit: %s\n--- stdout\n' "$line" "$status"
		filter < out
		printf '\n--- stderr\n'
		filter < err
		printf '\n--- end\n'
	} > got
	rm -rf "$D"
	if test -n "$record"; then
		cp got "$expected/$id"
	elif ! cmp -s got "$expected/$id" 2> /dev/null; then
		differ=$((differ + 1))
		echo "golden: DIFFERS [$id]: $line"
		if test -f "$expected/$id"; then
			diff -u "$expected/$id" got | sed 1,2d || true
		else
			echo "golden: no expected/$id (new case: record it)"
			head -c 2000 got
		fi
	fi
done < "$cases"

if test -n "$record"; then
	echo "golden: recorded $n cases ($skipped skipped)"
	exit 0
fi
# A record whose case is gone from cases.txt is stale: re-record.
stale=0
for f in "$expected"/*; do
	test -f "$f" || continue
	grep -qx "$(basename "$f")" ids.txt && continue
	echo "golden: stale record expected/$(basename "$f") (no such case)"
	stale=$((stale + 1))
done
sampled=
test "$sample" = 1 || sampled="; GOLDEN_SAMPLE=$sample left out $left_out answering 0 or 1"
echo "golden: $n cases, $differ differ ($skipped skipped, $stale stale records$sampled)"
test "$differ" = 0 && test "$stale" = 0
