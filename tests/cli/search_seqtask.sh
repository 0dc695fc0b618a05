# tests/cli/search_seqtask.sh -- tally search --family=copy|reverse|sort
# (issue 32 item 4): sequence tasks whose output is a letter get the
# argument that no program computes them.  Each pair printed is checked
# here with awk's own version of the task: the two words share their
# first letters up to the position (reverse, sort: past-only programs
# cannot tell them apart there) or have the same letter counts and last
# letter (copy: depth <= 1 cannot), and their outputs there differ.
. "$top_srcdir/tests/lib.sh"
T=$TALLY

# out TASK WORD POS: awk's output letter
out() {
	awk -v task="$1" -v w="$2" -v i="$3" 'BEGIN { n = length(w)
		if (task == "reverse") { print substr(w, n + 1 - i, 1); exit }
		if (task == "sort") { na = gsub(/a/, "a", w)
			print (i <= na ? "a" : "b"); exit }
		m = index(w, "#") - 1        # copy: u # v
		print substr(w, i - m, 1) }'
}

for task in reverse sort copy; do
	try 1 "$T" search --family=$task --json
	u=$(sed -n 's/.*"words":\["\([^"]*\)","\([^"]*\)"\].*/\1/p' out.txt)
	v=$(sed -n 's/.*"words":\["\([^"]*\)","\([^"]*\)"\].*/\2/p' out.txt)
	i=$(sed -n 's/.*"position":\([0-9]*\).*/\1/p' out.txt)
	kind=$(sed -n 's/.*"kind":"\([a-z]*\)".*/\1/p' out.txt)
	test -n "$u" && test -n "$v" && test -n "$i" || fail "$task: $(cat out.txt)"
	ou=$(out $task "$u" "$i")
	ov=$(out $task "$v" "$i")
	test "$ou" != "$ov" || fail "$task: $u and $v agree at $i ($ou)"
	grep -q "\"outputs\":\[\"$ou\",\"$ov\"\]" out.txt ||
		fail "$task: outputs, awk says $ou $ov: $(cat out.txt)"
	case $task in
	reverse | sort)
		test "$kind" = future || fail "$task: kind $kind"
		test "$(echo "$u" | cut -c1-"$i")" = "$(echo "$v" | cut -c1-"$i")" ||
			fail "$task: $u and $v differ before $i" ;;
	copy)
		test "$kind" = counts || fail "copy: kind $kind"
		test "$i" = "${#u}" || fail "copy: not the last position"
		su=$(echo "$u" | fold -w1 | sort | tr -d '\n')
		sv=$(echo "$v" | fold -w1 | sort | tr -d '\n')
		test "$su" = "$sv" || fail "copy: counts of $u and $v differ"
		test "$(printf %s "$u" | tail -c 1)" = "$(printf %s "$v" | tail -c 1)" ||
			fail "copy: last letters differ" ;;
	esac
done
try 1 "$T" search --family=reverse
grep -q '^not expressible by a past-only program' out.txt || fail "reverse text"
try 1 "$T" search --family=copy
grep -q '^depth >= 2: not searched' out.txt || fail "copy text"
try 2 "$T" search --family=sort --csv
exit 0
