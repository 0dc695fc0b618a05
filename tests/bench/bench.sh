# tests/bench/bench.sh -- `make bench`: tally against hand-written loops.
#
# Environment: TALLY (the binary), BENCHBIN (where genword, floor and
# runstat were built).  BENCH_N (default 10^8), BENCH_STREAM_N (10^9),
# BENCH_LANG_LEN (20) and BENCH_REPS (3) scale the runs.  Prints a table;
# the exit status is 0 unless something failed to run or the verdicts of
# tally and the floor differ.  Timing is reported, never judged.
set -eu
LC_ALL=C
export LC_ALL
N=${BENCH_N:-100000000}
SN=${BENCH_STREAM_N:-1000000000}
LL=${BENCH_LANG_LEN:-20}
REPS=${BENCH_REPS:-3}
work=$(mktemp -d "${TMPDIR:-/tmp}/tally-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

die() { echo "bench: $*" >&2; exit 1; }

# measure OUTFILE COMMAND... < INPUT: the best wall time of REPS runs,
# with the verdict column of the output in OUTFILE.
measure() {
	out=$1; shift
	best=
	for _ in $(seq "$REPS"); do
		"$BENCHBIN/runstat" -o "$work/stat" "$@" \
			< "$input" > "$work/raw" || die "runstat $*"
		read -r wall cpu rss code < "$work/stat"
		test "$code" -le 1 || die "exit $code: $*"
		if test -z "$best" || awk "BEGIN{exit !($wall < $best)}"; then
			best=$wall
		fi
	done
	cut -f2 "$work/raw" > "$out"
	echo "$best"
}

printf '%-34s %12s %10s %10s %8s\n' benchmark symbols "tally s" "floor s" ratio
for lang in dyck1 majority; do
	case $lang in dyck1) alpha='()' ;; majority) alpha=ab ;; esac
	input=$work/$lang.txt
	"$BENCHBIN/genword" "$alpha" "$N" 42 > "$input"
	t=$(measure "$work/t.out" "$TALLY" eval -f "$lang")
	f=$(measure "$work/f.out" "$BENCHBIN/floor" "$lang")
	cmp -s "$work/t.out" "$work/f.out" ||
		die "$lang: tally says $(cat "$work/t.out"), floor says $(cat "$work/f.out")"
	ratio=$(awk "BEGIN{printf \"%.2f\", $t / ($f > 0 ? $f : 0.001)}")
	printf '%-34s %12s %10s %10s %7sx\n' "$lang, random word from a file" \
		"$N" "$t" "$f" "$ratio"
	rm -f "$input"
done

# Future counts: majority written with #> (at position 1, more a than b
# lie ahead): the word kept as 2-bit codes, the letter counts give the
# totals, one pass; the same verdict as the floor's majority.  Peak
# memory per symbol is the point.
input=$work/future.txt
"$BENCHBIN/genword" ab "$N" 42 > "$input"
t=$(measure "$work/t.out" "$TALLY" eval --no-echo \
	-f '#[#[true] = 1 & #>[Q_b] < #>[Q_a]] = 1')
rss=$(cut -d' ' -f3 "$work/stat")
# the same run past-only, which keeps nothing of the word: the baseline
measure "$work/p.out" "$TALLY" eval --no-echo -f majority > /dev/null
base=$(cut -d' ' -f3 "$work/stat")
f=$(measure "$work/f.out" "$BENCHBIN/floor" majority)
cmp -s "$work/t.out" "$work/f.out" ||
	die "majority with #>: tally says $(cat "$work/t.out"), floor says $(cat "$work/f.out")"
printf '%-34s %12s %10s %10s %7sx\n' "majority with #>, from a file" "$N" "$t" \
	"$f" "$(awk "BEGIN{printf \"%.2f\", $t / ($f > 0 ? $f : 0.001)}")"
printf '%-34s %12s %10s   (%s bytes per symbol above past-only)\n' \
	"  peak RSS of tally (MB)" "" "$(awk "BEGIN{printf \"%.1f\", $rss / 1024}")" \
	"$(awk "BEGIN{printf \"%.3f\", ($rss - $base) * 1024 / $N}")"
rm -f "$input"

# Token input (--tokens) against the character reader on the same word,
# per symbol: "a b a b ..." (one-character tokens) and "open close ..."
# (the Python C-RASP interpreter's format).  CPU seconds, not wall time:
# process start-up (loading the libraries) is most of a short run's wall
# time.  The Python interpreter itself is compared only when it is
# installed (it is not part of tally's dependencies).
TN=${BENCH_TOKEN_N:-10000000}
input=$work/chars.txt
"$BENCHBIN/genword" ab "$TN" 5 > "$input"
cpu_of() { # the best CPU seconds of REPS runs of COMMAND < $input
	best=
	for _ in $(seq "$REPS"); do
		"$BENCHBIN/runstat" -o "$work/stat" "$@" < "$input" > /dev/null ||
			die "runstat $*"
		read -r wall cpu rss code < "$work/stat"
		test "$code" -le 1 || die "exit $code: $*"
		if test -z "$best" || awk "BEGIN{exit !($cpu < $best)}"; then
			best=$cpu
		fi
	done
	echo "$best"
}
tc=$(cpu_of "$TALLY" eval --no-echo -f majority)
sed 's/./& /g' "$work/chars.txt" > "$work/tok1.txt"
sed 's/a/open /g; s/b/close /g' "$work/chars.txt" > "$work/tokw.txt"
input=$work/tok1.txt
t1=$(cpu_of "$TALLY" eval --no-echo --tokens -f majority)
input=$work/tokw.txt
tw=$(cpu_of "$TALLY" eval --no-echo --tokens -f '#[Q_open] > #[Q_close]')
for row in "characters ab:$tc" "tokens 'a b', CPU s:$t1" \
	   "tokens 'open close', CPU s:$tw"; do
	printf '%-34s %12s %10s %10s %7sx\n' "${row%%:*}" "$TN" "${row#*:}" \
		"$tc" "$(awk "BEGIN{printf \"%.2f\", ${row#*:} / ($tc > 0 ? $tc : 0.001)}")"
done
if command -v crasp > /dev/null 2>&1; then
	echo "  (a Python C-RASP interpreter is installed; compare it by hand)"
else
	echo "  (the Python C-RASP interpreter is not installed: no comparison)"
fi
rm -f "$work"/chars.txt "$work"/tok1.txt "$work"/tokw.txt

# Streaming from a pipe: the word is generated on the fly, never stored;
# the verdict is the exit status (0 accept, 1 reject).
stream() {
	"$BENCHBIN/genword" '()' "$SN" 7 |
		"$BENCHBIN/runstat" -o "$work/stat" "$@" > /dev/null
	read -r wall cpu rss code < "$work/stat"
	test "$code" -le 1 || die "streaming run exited $code: $*"
}
stream "$BENCHBIN/floor" dyck1
fwall=$wall fcode=$code
stream "$TALLY" eval -f dyck1
test "$code" = "$fcode" || die "streaming: tally exits $code, floor $fcode"
printf '%-34s %12s %10s %10s %7sx\n' "dyck1, streamed from a pipe" "$SN" \
	"$wall" "$fwall" "$(awk "BEGIN{printf \"%.2f\", $wall / $fwall}")"
printf '%-34s %12s %10s   (target < 64 MB: %s)\n' "  peak RSS of tally (MB)" "" \
	"$(awk "BEGIN{printf \"%.1f\", $rss / 1024}")" \
	"$(test "$rss" -lt 65536 && echo met || echo MISSED)"

# tally lang: the tree of all words over ( and ) up to length LL.
nodes=$(awk "BEGIN{printf \"%.0f\", 2^($LL + 1) - 1}")
input=/dev/null
t=$(measure "$work/l.out" "$TALLY" lang -f dyck1 --max-length "$LL" \
	--alphabet='()' --count)
printf '%-34s %12s %10s %10s\n' "lang dyck1 --count, tree nodes" "$nodes" \
	"$t" "-"
printf '%-34s %12s\n' "  tree nodes per second" \
	"$(awk "BEGIN{printf \"%.3g\", $nodes / ($t > 0 ? $t : 0.001)}")"

# ---- the decision engine (tally equiv / check) --------------------------
# decide_run LABEL UNITS COMMAND...: wall time, states and peak RSS of one
# run (exit 0, 1 and 3 are verdicts).
decide_run() {
	label=$1 units=$2; shift 2
	"$BENCHBIN/runstat" -o "$work/stat" "$@" < /dev/null > "$work/raw" ||
		die "runstat $*"
	read -r wall cpu rss code < "$work/stat"
	case $code in 0 | 1 | 3) ;; *) die "exit $code: $*" ;; esac
	states=$(sed -n 's/^method: .*(\([0-9]*\) states\{0,1\} visited.*/\1/p' "$work/raw")
	printf '%-34s %12s %10s %10s  %s\n' "$label" "${states:--}" "$wall" \
		"$(awk "BEGIN{printf \"%.1f\", $rss / 1024}")" \
		"$(head -n 1 "$work/raw")${units:+ ($units)}$(sed -n \
			's/^counterexample: \(.*\) (accepted.*/: \1/p' "$work/raw")"
}

# lk K P: L_K as one formula (the prelude stops at L_5): PA_j / PB_j say
# that the alternating word of length j starting with a / b is a
# subsequence (P keeps the two sides' definitions apart).
lk() {
	k=$1 p=$2 j=1 text=
	while test "$j" -le $((k + 1)); do
		if test $((j % 2)) = 1; then la=a lb=b; else la=b lb=a; fi
		if test "$j" = 1; then
			text="${text}let ${p}A1 = 1 <= #[Q_$la]; "
			text="${text}let ${p}B1 = 1 <= #[Q_$lb]; "
		else
			text="${text}let ${p}A$j = 1 <= #[Q_$la & ${p}A$((j - 1))]; "
			text="${text}let ${p}B$j = 1 <= #[Q_$lb & ${p}B$((j - 1))]; "
		fi
		j=$((j + 1))
	done
	echo "${text}${p}A$k & !${p}B$k"
}

echo
printf '%-34s %12s %10s %10s  %s\n' "decide" states "wall s" "RSS MB" verdict
dyck_a="#['('] = #[')'] & #[#['('] < #[')']] = 0"
dyck_b="#['('] = #[')'] & #[')' & #[')'] = #['('] + 1] = 0"
DL=${BENCH_DYCK_LEN:-40}
decide_run "dyck1 pair, explore to $DL" \
	"$(awk "BEGIN{printf \"%.3g\", 2^($DL + 1) - 1}") words" \
	"$TALLY" equiv --quiet --method=explore --max-length "$DL" \
	-f "$dyck_a" -f "$dyck_b"
for k in 1 2 3 4 5 6; do
	decide_run "L_$k vs L_$((k + 1)), shortest" "" "$TALLY" equiv --quiet \
		-f "$(lk $k X)" -f "$(lk $((k + 1)) Y)"
done
decide_run "majority pair (auto)" "" "$TALLY" equiv --quiet \
	-f "#[Q_b] < #[Q_a]" -f "2*#[Q_a] > #[true]"
decide_run "dyck1 pair, chc proof" "" "$TALLY" equiv --quiet \
	--method=chc --certificate -f "$dyck_a" -f "$dyck_b"
big=100000000000000000000
decide_run "depth 1, 21 digits, proof" "" "$TALLY" equiv --quiet \
	-f "100000000000000000001*#[Q_a] > $big*#[true] | #[Q_b] = 0 & #[Q_a] >= 1" \
	-f "#[Q_a] > $big*#[Q_b]"
decide_run "depth 1, 21 digits, 10^20+2" "" "$TALLY" equiv --quiet \
	-f "100000000000000000001*#[Q_a] > $big*#[true]" -f "#[Q_b] = 0 & #[Q_a] >= 1"
decide_run "one letter, depth 2, unary" "" "$TALLY" check --valid \
	--quiet -f "#[#[true] >= $big] < 7"
decide_run "L_3 vs L_4, mona" "" "$TALLY" equiv --quiet --method=mona \
	-f L_3 -f L_4
n=100000000000000000000
decide_run "eval --runs dyck1, 2*10^20 letters" "" "$TALLY" eval --runs \
	-f dyck1 -w "(^$n )^$n"
