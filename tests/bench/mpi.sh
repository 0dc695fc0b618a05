# tests/bench/mpi.sh -- `make bench`, tally-mpi against tally: the
# hierarchy table (`hierarchy --k=1..K --quiet --no-time`, K =
# BENCH_MPI_K, default 6) by tally and by tally-mpi on 1, 2 and 4 ranks
# (BENCH_MPI_RANKS), each rank run under runstat so that the busiest
# rank's CPU time is known, and once more on 2 ranks with TALLY_MPI_SPIN=1
# (Open MPI's busy waiting, what tally-mpi did before it slept: the
# same run says what the sleeping waits save).  More ranks than cores are
# run oversubscribed, and the line says so.  Every figure of one line
# comes from the same run: wall and CPU seconds of the whole job, ratios
# to tally's wall and CPU, and whether the output is tally's byte for
# byte.  Where the machine has fewer cores than ranks the speed-up on
# idle cores is projected (below).  Figures are printed, never judged.
#
# Environment: TALLY, TALLY_MPI, BENCHBIN (runstat), MPIRUN (mpirun).
# Skipped (with a line saying why) when tally-mpi was not built or
# mpirun cannot start two processes.
set -eu
LC_ALL=C
export LC_ALL
K=${BENCH_MPI_K:-6}
RANKS=${BENCH_MPI_RANKS:-1 2 4}
MPIRUN=${MPIRUN:-mpirun}
M=${TALLY_MPI:-$(dirname "$TALLY")/tally-mpi}
work=$(mktemp -d "${TMPDIR:-/tmp}/tally-bench-mpi.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
die() { echo "bench: $*" >&2; exit 1; }
# shellcheck source=tests/bench/targets.sh
. "$(dirname "$0")/targets.sh"

echo
if ! test -x "$M" || ! command -v "$MPIRUN" > /dev/null 2>&1; then
	echo "tally-mpi: not built or no $MPIRUN; skipped"
	summary "hierarchy --k=1..$K, tally-mpi / tally" "skipped: not built or no $MPIRUN"
	exit 0
fi
cores=$(nproc)
opts=
if "$MPIRUN" --version 2>&1 | grep -q 'Open MPI'; then
	opts=-q
	if test "$(id -u)" = 0; then
		opts="$opts --allow-run-as-root"
		OMPI_ALLOW_RUN_AS_ROOT=1
		OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
		export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
	fi
fi
args="hierarchy --k=1..$K --quiet --no-time"
# A container without ptrace refuses Open MPI's single-copy transport:
# then without it (and said).
copy=
# shellcheck disable=SC2086
if ! "$MPIRUN" $opts -np 2 "$M" hierarchy --k=1 --quiet > /dev/null 2>&1; then
	OMPI_MCA_btl_vader_single_copy_mechanism=none
	export OMPI_MCA_btl_vader_single_copy_mechanism
	copy=", no single-copy transport"
	# shellcheck disable=SC2086
	"$MPIRUN" $opts -np 2 "$M" hierarchy --k=1 --quiet > /dev/null 2>&1 ||
		{ echo "tally-mpi: $MPIRUN cannot start two processes here; skipped"
		  summary "hierarchy --k=1..$K, tally-mpi / tally" "skipped: $MPIRUN cannot start two processes"
		  exit 0; }
fi

# The rank's own runstat line, named after its rank (Open MPI, MPICH).
cat > "$work/rank.sh" <<'EOF'
r=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}
stat=$1; shift
exec "$BENCHBIN/runstat" -o "$stat.$r" "$@"
EOF

# job NAME NP [ENV=VALUE]: one run; sets wall, cpu (the whole job's),
# busy (the busiest rank's CPU), same (the output is tally's) and
# code_note (a non-zero exit).
job() {
	name=$1 np=$2
	over=
	test "$np" -le "$cores" || over=--oversubscribe
	rm -f "$work/rank".stat.*
	# shellcheck disable=SC2086
	env ${3:+"$3"} "$BENCHBIN/runstat" -o "$work/stat" \
		"$MPIRUN" $opts $over -np "$np" sh "$work/rank.sh" \
		"$work/rank.stat" "$M" $args > "$work/$name.out" ||
		die "runstat $MPIRUN -np $np"
	read -r wall cpu _ code < "$work/stat"
	busy=$(cat "$work/rank".stat.* | awk '$2 > b { b = $2 } END { print b + 0 }')
	same=identical
	cmp -s "$work/tally.out" "$work/$name.out" || same=$(verdict "$name")
	code_note=
	test "$code" = 0 || code_note=" (exit $code)"
}

# verdict NAME: how the output of run NAME differs from tally's.  The
# equivalence proof of a row's formula has 2 s of wall-clock time (in
# tally too), so on a loaded machine a row's "verified:" line can differ
# between any two runs, of tally or of tally-mpi.
verdict() {
	grep -v '^  verified: ' "$work/tally.out" > "$work/a"
	grep -v '^  verified: ' "$work/$1.out" > "$work/b"
	if cmp -s "$work/a" "$work/b"; then
		echo "identical but a proof's evidence (2 s budget)"
	else
		echo "DIFFERS from tally's"
	fi
}

# line LABEL [NP]: the figures of the last job against tally's; with NP,
# its line of the summary too (2 ranks: judged against the target)
line() {
	r=$(awk "BEGIN{printf \"%.2f\", $wall / $twall}")
	v=
	case ${2:+$2${over:+o}} in
	2 | 2o) v=" (target <= 1.0x: $(judged "hierarchy --k=1..$K, 2 ranks / tally, wall" \
		"$r" "<=" 1.0 x))" ;;
	4) # four cores of its own: the speed-up is measured
		x=$(awk "BEGIN{printf \"%.2f\", $twall / $wall}")
		v=" (speed-up ${x}x, target >= 2x: $(judged \
			"hierarchy --k=1..$K, 4 ranks on 4 cores, speed-up" "$x" ">=" 2 x))" ;;
	?*) summary "hierarchy --k=1..$K, $2 rank(s) / tally, wall" "${r}x${over:+ (oversubscribed)}" ;;
	esac
	printf '%-34s %7s %7s %7s %6sx %6sx  %s\n' "$1" "$wall" "$cpu" "$busy" \
		"$r" "$(awk "BEGIN{printf \"%.2f\", $cpu / $tcpu}")" "$same$code_note$v"
}

# shellcheck disable=SC2086
"$BENCHBIN/runstat" -o "$work/stat" "$TALLY" $args > "$work/tally.out" ||
	die "runstat tally"
read -r twall tcpu _ code < "$work/stat"
printf '%-34s %7s %7s %7s %7s %7s  %s\n' \
	"tally-mpi, hierarchy --k=1..$K" "wall s" "cpu s" "rank s" "/wall" \
	"/cpu" "output"
printf '%-34s %7s %7s %7s %7s %7s\n' "tally ($cores cores, default --jobs)" \
	"$twall" "$tcpu" "" "" ""
last_busy=
for np in $RANKS; do
	job "np$np" "$np"
	label="$np rank(s)"
	test "$np" -le "$cores" || label="$np ranks, OVERSUBSCRIBED on $cores cores"
	line "$label$copy" "$np"
	test "$np" -le "$cores" || last_busy="$np $busy"
done
job spin 2 TALLY_MPI_SPIN=1
line "2 ranks, busy waiting (SPIN=1)"
echo "  (rank s: the busiest rank's CPU; targets: 2 ranks <= 1.0x tally's wall;"
echo "   4 ranks on 4 cores >= 2x faster than tally)"
if test -n "$last_busy"; then
	# shellcheck disable=SC2086
	set -- $last_busy
	# On idle cores a rank that sleeps while it waits finishes about
	# when its own CPU time is spent: the busiest rank's CPU time is
	# the projected wall (a lower bound: it leaves out the waits for
	# each other).  tally's own wall on idle cores is at least its CPU
	# time over the cores it uses (an upper bound of its speed).
	x=$(awk -v b="$2" -v tc="$tcpu" -v c="$cores" \
		'BEGIN { printf "%.2f", tc / c / b }')
	awk -v np="$1" -v b="$2" -v tc="$tcpu" -v c="$cores" -v x="$x" \
		-v v="$(judged "  $1 ranks on $1 idle cores, projected speed-up" "$x" ">=" 2 x)" 'BEGIN {
		printf "  projected for %d ranks on %d idle cores: wall about %.2f s " \
			"(the busiest rank'"'"'s CPU) against tally'"'"'s >= %.2f s on %d " \
			"(its CPU / cores): %sx faster (target >= 2x: %s)\n", np, np, b, tc / c, c, x, v
	}'
fi
