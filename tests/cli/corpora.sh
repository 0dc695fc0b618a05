# corpora.sh -- the corpora are what they say:
#  1. corpora/equiv/pairs.tsv: well formed, at least 20 pairs, and every
#     verdict and witness agrees with `tally eval` on all words up to a
#     length (the first disagreement in shortlex order is the witness);
#  2. corpora/families is current: scripts/gen-corpora writes the same
#     files byte for byte;
#  3. every formula and program file there, and the hand-written .cr
#     programs of the families, agree with the labels (which come from
#     the membership functions, not from the formulas);
#  4. tally equiv never contradicts a pair: an equivalent pair is never
#     "not equivalent", and an inequivalent one is "not equivalent" with a
#     counterexample as short as the witness, accepted by the same side.
. "$top_srcdir/tests/lib.sh"
corp=$top_srcdir/corpora
tab=$(printf '\t')

# words ALPHABET N: every word of length <= N, shortlex (letters in order).
words() {
	awk -v A="$1" -v N="$2" 'BEGIN {
		print ""; n = split(A, L, ""); c = 1; cur[1] = ""
		for (len = 1; len <= N; len++) {
			m = 0
			for (i = 1; i <= c; i++)
				for (j = 1; j <= n; j++) nxt[++m] = cur[i] L[j]
			for (i = 1; i <= m; i++) { cur[i] = nxt[i]; print cur[i] }
			c = m
		} }'
}

pairs=$corp/equiv/pairs.tsv
awk -F '\t' 'NF != 7 { print "line " NR ": " NF " fields"; bad = 1 }
	$4 != "equivalent" && $4 != "not-equivalent" { print "line " NR ": verdict " $4; bad = 1 }
	$4 == "equivalent" && ($5 != "-" || $6 != "-") { print "line " NR ": witness"; bad = 1 }
	$4 == "not-equivalent" && $6 != "first" && $6 != "second" { print "line " NR ": accepted by " $6; bad = 1 }
	END { exit bad }' "$pairs" || fail "pairs.tsv is malformed"
test "$(wc -l < "$pairs")" -ge 20 || fail "fewer than 20 pairs"
test "$(grep -c "${tab}equivalent$tab" "$pairs")" -ge 8 || fail "few equivalent pairs"
test "$(grep -c "${tab}not-equivalent$tab" "$pairs")" -ge 8 || fail "few inequivalent pairs"

i=0
while :; do
	i=$((i + 1))
	line=$(sed -n "${i}p" "$pairs")
	test -n "$line" || break
	field() { printf '%s\n' "$line" | awk -F '\t' -v n="$1" '{ print $n }'; }
	f=$(field 1) g=$(field 2) alphabet=$(field 3)
	want="$(field 4) $(field 5) $(field 6)"
	case ${#alphabet} in 1) n=14 ;; 2) n=12 ;; *) n=8 ;; esac
	words "$alphabet" $n > words
	"$TALLY" eval -f "$f" -f "$g" --alphabet="$alphabet" < words > both ||
		test $? = 1 || fail "pair $i: tally eval failed"
	test "$(wc -l < both)" -eq "$(wc -l < words)" || fail "pair $i: lines"
	first=$(awk -F '\t' '$2 != $3 { print $1 "\t" ($2 == "accept" ? "first" : "second"); exit }' both)
	if test -z "$first"; then
		got="equivalent - -"
	else
		got="not-equivalent $(printf '%s' "$first" | cut -f1) $(printf '%s' "$first" | cut -f2)"
	fi
	test "$got" = "$want" || fail "pair $i ($f ~ $g): got [$got], file says [$want]"
done
test $i -gt 20 || fail "only $((i - 1)) pairs checked"

# 2. The family corpora are current.
"$top_srcdir/scripts/gen-corpora" "$TALLY" "$PWD/families" ||
	fail "scripts/gen-corpora failed"
diff -r "$corp/families" families > diff.txt ||
	{ head -20 diff.txt; fail "corpora/families is stale: run scripts/gen-corpora"; }

# 3. Formulas and programs against the labels.
labels_of() { sed -e 's/	accept$/	1/' -e 's/	reject$/	0/'; }
agree() { # PROGRAM-OPTION FILE LABELS ALPHABET
	if test "$(head -1 "$3" | awk -F '\t' '{ print NF }')" = 3; then
		# a sequence task's values (WORD, VALUE, V1,...,Vn)
		"$TALLY" eval "$1" "$2" --alphabet="$4" --check-labels < "$3" \
			2> /dev/null > got ||
			fail "$(basename "$2") disagrees with $(basename "$3"): $(head -3 got)"
		return
	fi
	cut -f1 "$3" | "$TALLY" eval "$1" "$2" --alphabet="$4" | labels_of > got ||
		true
	cmp -s "$3" got || fail "$(basename "$2") disagrees with $(basename "$3")"
}
n=0
for dir in "$corp"/families/*/; do
	for tsv in "$dir"*.tsv; do
		stem=${tsv%.*.tsv}
		alphabet=$(cut -f1 "$dir"*.short.tsv | fold -w1 | sort -u | tr -d '\n')
		agree -F "$stem.tl" "$tsv" "$alphabet"
		for prog in "$stem.crasp" "$stem-paper.crasp"; do
			test -f "$prog" || continue
			agree -P "$prog" "$tsv" "$alphabet"
		done
		n=$((n + 1))
	done
done
test $n -ge 40 || fail "only $n labelled files"
for p in anbn:anbn first_a:first-a subseq_ab:subseq-ab d1:d1; do
	"$TALLY" gen --family="${p#*:}" --words -n 10 > labels
	agree -P "$corp/programs/${p%:*}.cr" labels ab
	"$TALLY" gen --family="${p#*:}" --words --sample=50 --min-length=20 \
		--max-length=60 > labels
	agree -P "$corp/programs/${p%:*}.cr" labels ab
done
# 4. tally equiv against the pairs (a time budget keeps it short; a
# bounded or unknown answer is no contradiction for an equivalent pair).
# An inequivalent pair must end in its counterexample: it gets a budget
# far above what finding it takes (it ends at the word), so that a
# loaded machine does not turn it into a timeout.
j=0
while test $j -lt $((i - 1)); do
	j=$((j + 1))
	line=$(sed -n "${j}p" "$pairs")
	field() { printf '%s\n' "$line" | awk -F '\t' -v n="$1" '{ print $n }'; }
	st=0 budget=2
	test "$(field 4)" = equivalent || budget=100
	"$TALLY" equiv --timeout=$budget --alphabet="$(field 3)" -f "$(field 1)" \
		-f "$(field 2)" > verdict 2>&1 || st=$?
	if test "$(field 4)" = equivalent; then
		case $st in 0 | 3 | 4) ;; *) cat verdict
			fail "pair $j: equiv exit $st on an equivalent pair" ;; esac
	else
		test $st = 1 || { cat verdict; fail "pair $j: equiv exit $st"; }
		ce=$(sed -n 's/^counterexample: \(.*\) (accepted by \(first\|second\))$/\1|\2/p' verdict)
		test "${#ce}" -gt 0 || { cat verdict; fail "pair $j: no counterexample"; }
		word=${ce%|*} side=${ce##*|} want=$(field 5)
		test "$word" != "ε" || word=	# the empty word prints as ε
		test "${#word}" = "${#want}" && test "$side" = "$(field 6)" ||
			fail "pair $j: counterexample [$word] by $side, file: [$want] by $(field 6)"
	fi
done
echo "corpora.sh: $((i - 1)) pairs, $n labelled files checked, tally equiv agrees"
