# tests/bench/search.sh -- `make bench`, the search engine: the whole
# hierarchy table (L_1..L_5 recognition + L_3..L_7 prediction on all words
# <= 10 plus 16 witness pairs), L_1..L_5 without the witness pairs, the
# two-sided table (--family=dk), bank building per CPU second, and depth
# 6 behind a signature cap.  Figures are printed, never judged; "target"
# columns restate issue 8's goals.
#
# Environment: TALLY, BENCHBIN (runstat).  BENCH_DEPTH6=0 skips depth 6.
set -eu
LC_ALL=C
export LC_ALL
work=$(mktemp -d "${TMPDIR:-/tmp}/tally-bench-search.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
die() { echo "bench: $*" >&2; exit 1; }

# run NAME COMMAND...: wall, CPU, peak RSS and exit status of one run
run() {
	name=$1; shift
	"$BENCHBIN/runstat" -o "$work/stat" "$@" > "$work/$name.out" ||
		die "runstat $*"
	read -r wall cpu rss code < "$work/stat"
	printf '%-40s %8s %8s %8s %5s\n' "$name" "$wall" "$cpu" \
		"$(awk "BEGIN{printf \"%.0f\", $rss / 1024}")" "$code"
}

echo
printf '%-40s %8s %8s %8s %5s\n' "search engine" "wall s" "cpu s" "peak MB" exit
run "hierarchy L_1..L_5" "$TALLY" hierarchy --k=1..5 --quiet
w1=$wall
run "hierarchy predict L_3..L_7" "$TALLY" hierarchy --task=predict --k=3..7 --quiet
w2=$wall
printf '%-40s %8s   (target < 10 s on 2 cores: %s)\n' "  whole table" \
	"$(awk "BEGIN{printf \"%.2f\", $w1 + $w2}")" \
	"$(awk "BEGIN{print ($w1 + $w2 < 10) ? \"met\" : \"MISSED\"}")"
for f in "hierarchy L_1..L_5" "hierarchy predict L_3..L_7"; do
	grep -E '^(staircase|bank building)' "$work/$f.out" | sed 's/^/  /'
done
run "hierarchy L_1..L_5, --pairs=0" "$TALLY" hierarchy --k=1..5 --pairs=0 --quiet
grep -E '^(staircase|bank building)' "$work/hierarchy L_1..L_5, --pairs=0.out" | sed 's/^/  /'
run "hierarchy --family=dk, k = 1..3" "$TALLY" hierarchy --family=dk --k=1..3 --quiet
grep -E '^(two-sided table|[0-9] )' "$work/hierarchy --family=dk, k = 1..3.out" | cut -c1-110 | sed 's/^/  /'
run "bank to depth 5, one thread" "$TALLY" hierarchy --k=5 --jobs=1 --quiet
grep '^bank building' "$work/bank to depth 5, one thread.out" | sed 's/^/  /'
echo "  (target >= 1e6 candidate signatures per second per core)"
if test "${BENCH_DEPTH6:-1}" != 0; then
	run "hierarchy L_6 (cap 3e6 signatures)" "$TALLY" hierarchy --k=6 --quiet \
		--max-signatures=3000000 --timeout=120 --max-memory=4G
	sed -n '/^6 /p; /^staircase/p; /^bank building/p; /stopped/p' \
		"$work/hierarchy L_6 (cap 3e6 signatures).out" | cut -c1-160 | sed 's/^/  /'
	run "hierarchy predict L_8 (cap 3e6)" "$TALLY" hierarchy --task=predict \
		--k=8 --quiet --max-signatures=3000000 --timeout=120 --max-memory=4G
	sed -n '/^8 /p; /^staircase/p; /^bank building/p; /stopped/p' \
		"$work/hierarchy predict L_8 (cap 3e6).out" | cut -c1-160 | sed 's/^/  /'
	echo "  (target: depth 6 under 2 minutes and 4 GB, or an honest partial table)"
fi
