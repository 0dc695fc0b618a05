# tests/cli/lang_count.sh -- lang --count by merged machine states against
# the words the listing walks (a different path: the evaluator per word),
# on every length up to 9, both acceptance conventions, letters no formula
# tests; Dyck-1's counts against the Catalan numbers computed here.
. "$top_srcdir/tests/lib.sh"
T=$TALLY

# listed F ACCEPT ALPHABET N: LENGTH<TAB>COUNT from the listing.
listed() {
	"$T" lang -f "$1" --accept-at="$2" --alphabet="$3" -n "$4" |
		awk -v n="$4" '{ c[length($0)]++ }
			END { for (i = 0; i <= n; i++) printf "%d\t%d\n", i, c[i] + 0 }'
}
for f in L_3 majority dyck1 "Y Q_a & #[Q_b] >= 2" "MOD(3,1) | #[Q_a & Y Q_b] = 1" \
	"#[Q_a] = 2*#[Q_b]" "#[!Q_a] >= 2" "#[#[true] > #[Q_a]] >= 1"; do
	for acc in last eos; do
		for al in ab abc; do
			case "$f" in dyck1) al="()";; esac
			listed "$f" $acc "$al" 9 > want.txt
			"$T" lang -f "$f" --accept-at=$acc --alphabet="$al" -n 9 \
				--count > got.txt
			cmp -s want.txt got.txt ||
				fail "$f $acc $al: $(paste want.txt got.txt | tr '\n' ' ')"
		done
	done
done
# Dyck-1 to length 26: the Catalan numbers at even lengths, 0 at odd.
awk 'BEGIN { c = 1; for (n = 0; n <= 26; n++) {
	if (n % 2) { printf "%d\t0\n", n } else {
		k = n / 2; printf "%d\t%d\n", n, c; c = c * 2 * (2 * k + 1) / (k + 2) } } }' \
	> want.txt
"$T" lang -f dyck1 -n 26 --count > got.txt
cmp want.txt got.txt || fail "dyck1 counts: $(paste want.txt got.txt | tr '\n' ' ')"
# Counts beyond 64 bits are exact: all 2^70 words of length 70 over {a, b}.
timeout 60 "$T" lang -f true --alphabet=ab -n 70 --count | tail -n 1 > got.txt
printf '70\t1180591620717411303424\n' | cmp - got.txt ||
	fail "2^70: $(cat got.txt)"
# JSON: the same counts, complete.
"$T" lang -f dyck1 -n 6 --count --json > got.json
grep -q '"counts":\[1,0,1,0,2,0,5\]' got.json || fail "json: $(cat got.json)"
grep -q '"complete":true' got.json || fail "json complete: $(cat got.json)"
