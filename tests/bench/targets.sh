# tests/bench/targets.sh -- sourced by `make bench`'s scripts: a row's
# figure against its issue's target (issue 31's table, issue 28's deep
# table), said on the row's own line and kept for the summary that
# `make bench` prints at its end.  Figures are still never judged: a
# missed target changes no exit status.

# target VALUE OP LIMIT: "met" or "MISSED" (OP one of < <= > >=)
target() {
	awk -v v="$1" -v op="$2" -v l="$3" 'BEGIN {
		if (op == "<") ok = v < l; else if (op == "<=") ok = v <= l
		else if (op == ">") ok = v > l; else ok = v >= l
		print ok ? "met" : "MISSED" }'
}

# summary ROW FIGURE [TARGET VERDICT]: one line of the summary, in the
# file BENCH_SUMMARY names (unset: nothing is kept)
summary() {
	test -n "${BENCH_SUMMARY:-}" || return 0
	if test $# -gt 2; then
		printf '%-50s %-26s target %s: %s\n' "$1" "$2" "$3" "$4"
	else
		printf '%-50s %s\n' "$1" "$2"
	fi >> "$BENCH_SUMMARY"
}

# judged ROW FIGURE OP LIMIT UNIT: the summary line of a figure with a
# target; prints the verdict for the row's own line
judged() {
	v=$(target "$2" "$3" "$4")
	summary "$1" "$2$5" "$3 $4$5" "$v"
	echo "$v"
}
