# blockeval.sh -- eval --jobs (machine/blockeval.h: a word read in passes
# over blocks, on threads) against the sequential evaluator (--jobs=1):
# the same stdout, stderr and exit status for --jobs=2, 3 and 7, on every
# word over {a, b, c} up to length 7 and over {(, )} up to length 10, on
# seeded random words long enough for threads, from a file (mapped) and
# from a pipe (buffered); formulas with counts up to three levels deep,
# MOD, min, ?: and several outputs, and the ones the blocks leave to the
# sequential evaluator (Y, #>), bad letters, CRLF, tokens, a last line
# without its newline.  Dyck-1 also against awk on the long words.
. "$top_srcdir/tests/lib.sh"

# every word over LETTERS up to length N, shortest first
all_words() {
	awk -v L="$1" -v N="$2" 'BEGIN { k = split(L, c, ""); print ""
		n = 1; w[1] = ""
		for (len = 1; len <= N; len++) {
			m = 0
			for (i = 1; i <= n; i++)
				for (j = 1; j <= k; j++) { v[++m] = w[i] c[j]; print v[m] }
			n = m; for (i = 1; i <= n; i++) w[i] = v[i] } }'
}
all_words abc 7 > abc.words
all_words '()' 10 > dyck.words
test "$(wc -l < abc.words)" = 3280 || fail "abc.words: $(wc -l < abc.words) lines"
# long words (seeded): near-balanced, so the counts cross zero
awk 'BEGIN { srand(5)
	for (w = 0; w < 6; w++) {
		n = 20000 + int(rand() * 60000); p = w % 2 ? 0.5 : 0.502
		for (i = 0; i < n; i++) {
			r = rand(); printf "%s", r < p ? "a" : r < 0.99 ? "b" : "c"
		}
		print "" } }' > long.words
awk 'BEGIN { srand(9)
	for (w = 0; w < 6; w++) {
		n = 2 * (10000 + int(rand() * 40000)); d = 0
		for (i = 0; i < n; i++) {
			open = w % 2 ? rand() < 0.5 : (d == 0 || (d < n - i && rand() < 0.5))
			printf "%s", open ? "(" : ")"; d += open ? 1 : -1
		}
		print "" } }' > longdyck.words

# same WORDS ARGS...: every --jobs gives what --jobs=1 gives, from the
# file and (with a fresh buffer) from a pipe
same() {
	words=$1; shift
	status=0
	"$TALLY" eval --jobs=1 "$@" < "$words" > seq.out 2> seq.err || status=$?
	test "$status" -le 2 || fail "sequential exit $status: $*"
	for j in 2 3 7; do
		got=0
		"$TALLY" eval --jobs=$j "$@" < "$words" > par.out 2> par.err || got=$?
		test "$got" = "$status" || fail "--jobs=$j exits $got, --jobs=1 $status: $*"
		cmp -s seq.out par.out || fail "--jobs=$j: stdout differs: $*"
		cmp -s seq.err par.err || fail "--jobs=$j: stderr differs: $*"
	done
	got=0
	cat "$words" | "$TALLY" eval --jobs=2 "$@" > par.out 2> par.err || got=$?
	test "$got" = "$status" || fail "pipe: exits $got, --jobs=1 $status: $*"
	cmp -s seq.out par.out || fail "pipe: stdout differs: $*"
	cmp -s seq.err par.err || fail "pipe: stderr differs: $*"
	verdicts="$verdicts$(cut -f2 seq.out | sort -u | tr -d '\n')"
}

verdicts=
for f in majority '#[Q_a] > #[Q_b]' \
	'#[#[Q_a] < #[Q_b]] = 0 & #[Q_a] >= #[Q_b]' \
	'#[#[#[Q_a] > #[Q_b]] > #[Q_c]] >= 2 | #[Q_c] = 1' \
	'#[MOD(3, 1) & Q_a] > #[Q_b] & #[MOD(2, 0)] >= 1' \
	'min(#[Q_a], 2 * #[Q_b]) > (Q_c ? #[Q_c] : 1)' \
	'#[max(#[Q_a], #[Q_b]) > 2 * #[Q_c] + 1] >= #[Q_b]' \
	'Y Q_a | #[Y Q_b] > 2' '#>[Q_a] > #[Q_b]'; do
	same abc.words --alphabet=abc -f "$f"
	same long.words --alphabet=abc --no-echo -f "$f"
done
case $verdicts in *accept*reject* | *reject*accept*) ;;
	*) fail "the formulas never split the words" ;; esac
same abc.words --alphabet=abc -f majority -f '#[#[Q_a] < #[Q_b]] = 0'
same abc.words --alphabet=abc --accept-at=eos -f '#[#[Q_a] > #[Q_b]] > 1'
same abc.words --alphabet=abc --json -f '#[Q_a] = #[Q_c]'
same dyck.words -f dyck1
same longdyck.words -f dyck1
same longdyck.words --no-echo -f dyck1 -f '#[#[Q_(] = #[Q_)]] > 3'

# Dyck-1 by awk's depth count
awk '{ d = 0; lo = 0; n = split($0, c, "")
	for (i = 1; i <= n; i++) { d += c[i] == "(" ? 1 : -1; if (d < lo) lo = d }
	print d == 0 && lo == 0 ? "accept" : "reject" }' longdyck.words > want.txt
grep -q accept want.txt && grep -q reject want.txt ||
	fail "the seeded Dyck words should give both verdicts"
try 1 "$TALLY" eval --jobs=2 --no-echo -f dyck1 < longdyck.words
cmp -s out.txt want.txt || fail "dyck1 --jobs=2: got [$(head -c 100 out.txt)]"

# Lines the blocks leave to the reader: a bad letter (deep in a long
# line, then after good lines), CRLF, tokens, no final newline.
{ head -n 2 long.words; head -c 30000 long.words | tr -d '\n'; printf 'x\nab\n'; } > bad.words
same bad.words --alphabet=abc -f majority
printf 'ab\r\naab\r\nb a a\n\nabc' > odd.words
same odd.words --alphabet=abc -f majority
printf 'ab\nq\n' > q.words
same q.words --alphabet=abc -f majority

# From a pipe, a word longer than the buffer (1 MiB) streams through the
# reader (mid-line across buffers), and the lines after it are whole again.
awk 'NR == 1 { for (i = 0; i < 70; i++) printf "%s", $0; print "" }
	NR == 2 || NR == 3 { print }' longdyck.words > huge.words
test "$(head -n 1 huge.words | wc -c)" -gt 1100000 || fail "huge.words is short"
same huge.words --no-echo -f dyck1

# --jobs=1 maps a file too (its long words read in order from the
# mapping and echoed from there): the same as from a pipe, where the
# reader takes every word; also a long word with a bad letter at its
# end (nothing of it printed), and Y.
{ cat huge.words; head -n 1 huge.words | tr -d '\n'; printf 'x\n(())\n'; } > hugebad.words
for f in dyck1 'Y Q_( | #[Q_)] > 2'; do
	for w in huge.words hugebad.words; do
		st=0
		"$TALLY" eval --jobs=1 -f "$f" < $w > file.out 2> file.err || st=$?
		got=0
		cat $w | "$TALLY" eval --jobs=1 -f "$f" > pipe.out 2> pipe.err || got=$?
		test "$st" = "$got" || fail "$w, $f: file exits $st, pipe $got"
		cmp -s file.out pipe.out || fail "$w, $f: stdout differs"
		cmp -s file.err pipe.err || fail "$w, $f: stderr differs"
	done
done
test "$st" = 2 && test -s file.err || fail "hugebad.words: exit $st, no error"
