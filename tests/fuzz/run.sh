#!/bin/sh
# run.sh TARGET SECONDS [RUNS] -- one fuzzing run of tests/fuzz/fuzz_TARGET
# (built by `make fuzz`) on one core, seeded from corpora/, tests/data/,
# tests/repl/ and `src/tally compile` plus the kept inputs; it ends after
# SECONDS or RUNS executions (default -1: no bound); new crashes land in
# tests/fuzz/crashes/TARGET/.  Prints libFuzzer's last status lines.
# FUZZ_CORPUS: the corpus directory (default tests/fuzz/corpus/TARGET).
set -eu
t=$1 secs=$2 runs=${3:--1}
srcdir=${srcdir:-.}
corpus=${FUZZ_CORPUS:-tests/fuzz/corpus/$t}
mkdir -p "$corpus" "tests/fuzz/crashes/$t"
seed() { # seed NAME PREFIX-BYTE FILE
	{ test -z "$2" || printf "$2"; cat "$3"; } > "$corpus/seed-$1"
}
case $t in
tl|roundtrip|eval)
	i=0
	grep -v '^--' "$srcdir/tests/data/syntax_examples.tl" | grep . |
	while IFS= read -r line; do
		i=$((i + 1)); printf '%s\n' "$line" > "$corpus/seed-ex$i"
	done
	for f in "$srcdir"/logic/prelude.tally; do seed prelude "" "$f"; done ;;
crasp)
	for f in "$srcdir"/corpora/programs/*.crasp; do
		seed "$(basename "$f")" '\000' "$f"; done
	for f in "$srcdir"/corpora/programs/*.cr; do
		seed "$(basename "$f")" '\001' "$f"; done ;;
word)
	for f in "$srcdir"/corpora/languages/*.tsv; do
		b=$(basename "$f" .tsv)
		cut -f1 "$f" | head -50 > "$corpus/words-$b"
		seed "$b-ab" '\000' "$corpus/words-$b"
		seed "$b-tok" '\007' "$corpus/words-$b"
		rm -f "$corpus/words-$b"
	done
	# lines of tokens longer than the reader's 64-byte blocks
	awk 'BEGIN { for (i = 0; i < 60; i++) printf "open close\t"
		printf "\r\n"; for (i = 0; i < 40; i++) printf "close  open "
		print "opn" }' > "$corpus/words-long"
	seed long-oc '\005' "$corpus/words-long"
	awk 'BEGIN { for (i = 0; i < 30; i++)
		printf "a bc abcdefghi abcdefghijklmnopq ( "; print "" }' \
		> "$corpus/words-long"
	seed long-multi '\003' "$corpus/words-long"
	rm -f "$corpus/words-long"
	printf 'a b\n// comment\nx y a\n' > "$corpus/words-cr"
	seed crwords '\031' "$corpus/words-cr"
	rm -f "$corpus/words-cr" ;;
repl)
	for f in "$srcdir"/tests/repl/*.in; do seed "$(basename "$f")" "" "$f"
	done ;;
runs)
	printf 'dyck1\n(^100000000000000000000 )^100000000000000000000\n)(^3\n' \
		> "$corpus/seed-dyck1"
	for n in majority anbn first_a ab_star parity2 factor_bb L_3; do
		printf '%s\na^3 b^2\nab^100000000000000000001 a\nb^7 a^7 b\n\n' \
			"$n" > "$corpus/seed-$n"
	done
	printf '#[Q_a & MOD(3, 1)] < #[Q_b]\na^1000 b^999\n' \
		> "$corpus/seed-mod" ;;
model)
	for n in majority dyck1 first_a factor_bb 'Y Q_a' '#[Q_a] = 2*#[Q_b]'; do
		i=$((${i:-0} + 1))
		src/tally compile -f "$n" > "$corpus/seed-model$i" 2>/dev/null ||
			rm -f "$corpus/seed-model$i"
		src/tally compile --ffn=relu -f "$n" \
			> "$corpus/seed-relu$i" 2>/dev/null ||
			rm -f "$corpus/seed-relu$i"
	done ;;
esac
cp "$srcdir/tests/fuzz/regress/$t/"* "$corpus/" 2>/dev/null || true
# the REPL and the simulator print: libFuzzer keeps its own output and
# the sanitizers' reports with -close_fd_mask
mask=0
case $t in repl|model) mask=3 ;; esac
tests/fuzz/fuzz_$t -max_total_time="$secs" -runs="$runs" \
	-close_fd_mask=$mask \
	-dict=tests/fuzz/tally.dict -max_len=4096 -timeout=20 \
	-rss_limit_mb=2048 -print_final_stats=1 \
	-artifact_prefix="tests/fuzz/crashes/$t/" "$corpus" \
	> "tests/fuzz/run-$t.log" 2>&1 || true
grep -E '^(#[0-9]+|stat::number_of_executed_units|==[0-9]+==ERROR|SUMMARY)' \
	"tests/fuzz/run-$t.log" | tail -4
ls "tests/fuzz/crashes/$t" | sed 's/^/crash: /'
