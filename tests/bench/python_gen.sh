# tests/bench/python_gen.sh -- `make bench`'s Python row: the dataset of
# bench.sh's gen row (BENCH_GEN_N words, default 10^6, of length 100 of a
# depth-3 formula) generated through the package into NumPy arrays (words
# and letter ids), against `tally gen` writing it to a file, in the same
# run.  The same words both ways (compared by digest).  CPU seconds (user
# + system: a shared machine's load stretches wall time), best of
# BENCH_REPS (3), and the wall time of that run; printed, never judged.
# The package's CPU is the process's own (getrusage) from its start
# (interpreter and imports included) to the arrays made; the digest
# that checks them comes after and is not counted (tally gen's is taken
# by sha1sum outside its run).
#
# Environment: TALLY, BENCHBIN (runstat), PYTHON, BENCH_PYTHONPATH (where
# the package and _tally.so are).
set -eu
LC_ALL=C
export LC_ALL
GN=${BENCH_GEN_N:-1000000}
REPS=${BENCH_REPS:-3}
F='#[Q_a & #[Q_b & #[Q_a] < #[Q_b]] >= 1] > #[Q_b]'
work=$(mktemp -d "${TMPDIR:-/tmp}/tally-pybench.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
die() { echo "bench: $*" >&2; exit 1; }
# shellcheck source=tests/bench/targets.sh
. "$(dirname "$0")/targets.sh"

cat > "$work/gen.py" <<PY
import hashlib, resource, sys
import numpy as np
import tally
d = tally.generate(sys.argv[1], sample=$GN, min_length=100, max_length=100)
ids = d.ids("ab")
u = resource.getrusage(resource.RUSAGE_SELF)
open(sys.argv[3], "w").write("%.4f\n" % (u.ru_utime + u.ru_stime))
assert ids.shape == ($GN, 100) and d.labels.shape == ($GN,)
# the digest of the lines WORD\n from the byte matrix of the words (all
# of 100 letters), without a Python object per word
rows = d.words.view(np.uint8).reshape($GN, 100)
assert d.words.dtype.itemsize == 100 and (rows != 0).all()
h = hashlib.sha1(np.hstack((rows, np.full(($GN, 1), 10, np.uint8)))
                 .tobytes()).hexdigest()
open(sys.argv[2], "w").write(h + "\n")
PY

best() { # COMMAND...: "CPU WALL" of the run with the least CPU of REPS
	# (the CPU the command wrote to $work/cpu when it did)
	b=
	w=
	for _ in $(seq "$REPS"); do
		rm -f "$work/cpu"
		"$BENCHBIN/runstat" -o "$work/stat" "$@" < /dev/null \
			> "$work/out" || die "runstat $*"
		read -r wall cpu rss code < "$work/stat"
		test "$code" = 0 || die "exit $code: $*"
		test ! -s "$work/cpu" || cpu=$(cat "$work/cpu")
		if test -z "$b" || awk "BEGIN{exit !($cpu < $b)}"; then
			b=$cpu
			w=$wall
		fi
	done
	echo "$b $w"
}
set -- $(best "$TALLY" gen -q --sample="$GN" --min-length=100 --max-length=100 -f "$F")
t=$1 tw=$2
want=$(cut -f1 "$work/out" | sha1sum | cut -d' ' -f1)
set -- $(PYTHONPATH=$BENCH_PYTHONPATH best "$PYTHON" "$work/gen.py" "$F" \
	"$work/digest" "$work/cpu")
p=$1 pw=$2
test "$(cat "$work/digest")" = "$want" || die "the package's words differ from tally gen's"
printf '%-34s %12s %10s %10s %8s\n' benchmark words "python s" "tally s" ratio
ratio=$(awk "BEGIN{printf \"%.2f\", $p / ($t > 0 ? $t : 0.001)}")
summary "gen into NumPy / tally gen > file, CPU" "${ratio}x"
printf '%-34s %12s %10s %10s %7sx\n' "gen into NumPy vs tally gen > file" \
	"$GN" "$p" "$t" "$ratio"
printf '%-34s %12s %10s %10s\n' "  (CPU seconds; wall seconds:)" "" "$pw" "$tw"
