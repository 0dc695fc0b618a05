# tests/bench/search.sh -- `make bench`, the search engine: the whole
# hierarchy table (L_1..L_5 recognition + L_3..L_7 prediction on all words
# <= 10 plus 16 witness pairs), L_1..L_5 without the witness pairs, the
# two-sided table (--family=dk, D_1..D_4), bank building per CPU second, and depth
# 6 behind a signature cap, and the deep table (issue 28): L_1..L_8 with
# rows above --search-depth built from the theory's formula, its time and
# peak memory, the certified pair's length per depth and the peak memory
# after each row.  Figures are printed, never judged; "target" columns
# restate the issues' goals.
#
# Environment: TALLY, BENCHBIN (runstat).  BENCH_DEPTH6=0 skips depth 6;
# BENCH_DEEP_K (default 8) is the deep table's last row, 0 skips it;
# BENCH_DEEP_TIMEOUT (default 1800 s) bounds it.
set -eu
LC_ALL=C
export LC_ALL
work=$(mktemp -d "${TMPDIR:-/tmp}/tally-bench-search.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
die() { echo "bench: $*" >&2; exit 1; }
# shellcheck source=tests/bench/targets.sh
. "$(dirname "$0")/targets.sh"

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
run "hierarchy --family=dk, k = 1..4" "$TALLY" hierarchy --family=dk --k=1..4 --quiet
grep -E '^(two-sided table|lower bounds|[0-9] )' "$work/hierarchy --family=dk, k = 1..4.out" | cut -c1-110 | sed 's/^/  /'
# issue 28: D_1..D_4, every part certified, in 5 minutes and 4 GB
mb=$(awk "BEGIN{printf \"%.0f\", $rss / 1024}")
v=MISSED
test "$code" != 0 || test "$(target "$wall" "<" 300)" != met ||
	test "$(target "$mb" "<" 4096)" != met ||
	! grep -q "^lower bounds: .* for no row$" "$work/hierarchy --family=dk, k = 1..4.out" ||
	v=met
summary "hierarchy --family=dk D_1..D_4: wall, peak" "$wall s, $mb MB" \
	"< 300 s, < 4096 MB, all certified" "$v"
echo "  (target: under 5 minutes and 4 GB, every part certified: $v)"
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

# deep: L_1..L_K and the prediction table P_3..P_(K+2): pairs and memory per depth
deepk=${BENCH_DEEP_K:-8}
if test "$deepk" -gt 0; then
	for task in recognize predict; do
		lo=1; hi=$deepk; name="hierarchy L_1..L_$hi"
		if test $task = predict; then
			lo=3; hi=$((deepk + 2)); name="hierarchy predict P_3..P_$hi"
		fi
		run "$name" "$TALLY" hierarchy --task=$task --k=$lo..$hi --quiet \
			--max-memory=4G --timeout="${BENCH_DEEP_TIMEOUT:-1800}"
		mb=$(awk "BEGIN{printf \"%.0f\", $rss / 1024}")
		v=MISSED
		test "$code" != 0 || test "$(target "$wall" "<" 300)" != met ||
			test "$(target "$mb" "<" 4096)" != met || v=met
		summary "$name: wall, peak" "$wall s, $mb MB" "< 300 s, < 4096 MB" "$v"
		echo "  (target: under 5 minutes and 4 GB on 2 cores: $v)"
		# per row: the depth its pair certifies, the pair's letters, the
		# time of its two checks, and the peak memory after the row
		awk '/^[0-9]+ +[LP]_[0-9]+ / { row = $2; match($0, /peak [0-9]+ MB/)
			peak[row] = substr($0, RSTART + 5, RLENGTH - 8); rows[++n] = row }
		     /^  lower bound: .*no formula of depth/ { match($0, /depth <= [0-9]+/)
			d = substr($0, RSTART + 9, RLENGTH - 9)
			match($0, /: [0-9]+ letters each/); len = substr($0, RSTART + 2, RLENGTH - 15)
			match($0, /candidate [0-9]+, [0-9.]+s/); t = substr($0, RSTART, RLENGTH)
			pair[row] = "depth " d ": " len " letters (" t ")" }
		     /^  lower bound: a limit stopped/ { pair[row] = "stopped by a limit" }
		     END { for (i = 1; i <= n; i++) printf "  %-5s pair %s; peak after the row %s MB\n",
			rows[i], pair[rows[i]] ? pair[rows[i]] : "none", peak[rows[i]] }' \
			"$work/$name.out" | tee "$work/rows"
		summary "  pair letters per depth 0, 1, ..." \
			"$(sed -n 's/.* pair depth [0-9]*: \([0-9]*\) letters.*/\1/p' "$work/rows" | paste -sd' ' -)"
		summary "  peak MB after each row" \
			"$(sed -n 's/.*peak after the row \([0-9]*\) MB/\1/p' "$work/rows" | paste -sd' ' -)"
		grep -E '^(staircase|lower bounds|upper bounds)' "$work/$name.out" |
			sed 's/^/  /'
	done
fi
