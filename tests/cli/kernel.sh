# kernel.sh -- the register kernel (machine.h) against the general
# machine: formulas of the kernel's shape (one or two letter-driven
# slots, comparisons of them, counts of those; every relation) read as
# one-byte letters (the kernel) give the verdicts of the same words read
# as tokens (letters through the general block machine) and, for
# Dyck-1, of awk; so do words with a letter no formula mentions, a word
# cut by an unknown letter, and counts near the int64 boundary, where
# the static bounds hand the slots to FLINT and the kernel steps aside.
. "$top_srcdir/tests/lib.sh"

# Words over {a, b, c} of 0 to 40,000 letters, one per line (seeded):
# long runs of a (so counts cross zero rarely) and mixed ones.
awk 'BEGIN { srand(31); print ""; print "a"; print "ab"
	for (w = 0; w < 24; w++) {
		n = int(rand() * 40000); p = w % 3 ? 0.5 : 0.51
		for (i = 0; i < n; i++) {
			r = rand()
			printf "%s", r < p ? "a" : r < 0.98 ? "b" : "c"
		}
		print "" } }' > chars.words
awk '{ n = split($0, c, ""); s = c[1]
	for (i = 2; i <= n; i++) s = s " " c[i]; print s }' \
	chars.words > tok.words

verdicts() { # OUTFILE ARGS...: tally eval's verdicts, exit 0 or 1
	out=$1; shift
	"$TALLY" eval --alphabet=abc --no-echo "$@" > "$out" 2> err.txt ||
		test $? = 1 || fail "exit status of $*: $(cat err.txt)"
}
check() { # FORMULA: characters and tokens agree, and so do the exits
	verdicts chars.out -f "$1" < chars.words
	verdicts tok.out --tokens -f "$1" < tok.words
	cmp -s chars.out tok.out || fail "$1: characters and tokens differ"
	seen="$seen$(sort -u chars.out | tr -d '\n')"
}
seen=
for rel in '<' '<=' '=' '!=' '>=' '>'; do
	check "#[Q_a] $rel #[Q_b] + 2"
	check "#[#[Q_a] $rel #[Q_b]] >= 1"
	check "#[#[Q_a] $rel #[Q_b]] < 2 * #[Q_a] + 1"
done
check "#[#[Q_a] < #[Q_b]] = 0 & #[#[Q_a] > 2 * #[Q_b]] >= 3"
check "#[#[Q_a] >= #[Q_b]] > 10 & #[Q_c] < 3 * #[Q_b] & #[#[Q_c] > 2] >= 1"
check "#[Q_a] > 100 | #[#[Q_c] = 0] = #[true]"
case $seen in *acceptreject*) ;; *) fail "the formulas never split the words" ;; esac

# Dyck-1 against awk's depth count.
awk 'BEGIN { srand(7); print "()"; print ")("
	for (w = 0; w < 20; w++) {
		n = 2 * int(rand() * 20000); d = 0; s = ""
		for (i = 0; i < n; i++) {
			open = w % 2 ? rand() < 0.5 : (d == 0 || (d < n - i && rand() < 0.5))
			s = s (open ? "(" : ")"); d += open ? 1 : -1
		}
		print s } }' > dyck.words
awk '{ d = 0; lo = 0; n = split($0, c, "")
	for (i = 1; i <= n; i++) { d += c[i] == "(" ? 1 : -1; if (d < lo) lo = d }
	print d == 0 && lo == 0 ? "accept" : "reject" }' dyck.words > want.txt
grep -q accept want.txt && grep -q reject want.txt ||
	fail "the seeded Dyck words should give both verdicts"
try 1 "$TALLY" eval --no-echo -f dyck1 < dyck.words
cmp -s out.txt want.txt || fail "dyck1: got [$(head -c 100 out.txt)]"

# An unknown letter deep in a long line: the same error, no result line.
{ head -c 30000 dyck.words | tr -d '\n'; printf 'x()\n'; } > bad.words
try 2 "$TALLY" eval -f dyck1 < bad.words
err_has "unknown letter"
test ! -s out.txt || fail "a result line for a word with an unknown letter"

# The int64 boundary (tests/unit/check_eval.c, kernel_int64_boundary):
# in a count, 2^11 #a - 2^11 #b is int64 and in the kernel, 2^12 #a -
# 2^12 #b in FLINT beside it; both agree with the tokens' machine, also
# on values that need 63 bits.
for k in 2048 4096 4611686018427387904; do
	check "$k * #[Q_a] > $k * #[Q_b] + 1"
	check "#[$k * #[Q_a] > $k * #[Q_b]] >= 1"
done
