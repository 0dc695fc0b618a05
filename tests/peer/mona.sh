#!/bin/sh
# tests/peer/mona.sh -- MONA as an independent peer: random pairs of the
# threshold fragment (fixed seed) decided by `tally equiv --method=mona`
# and by tally's own methods (explore up to a length; presburger on the
# depth-1 pairs, unary on the one-letter ones).  Verdicts must agree and
# counterexamples have the same (shortest) length.  Skipped (77) only
# when mona is not installed.
. "$top_srcdir/tests/lib.sh"

command -v mona >/dev/null 2>&1 || { echo "SKIP: mona not installed"; exit 77; }

PAIRS=${PEER_PAIRS:-40}
MAXLEN=7

# Random formulas of the fragment, spelled in TL: a Park-Miller generator
# (exact in awk's doubles) so every awk gives the same pairs.
gen_pairs() {
	awk -v n="$PAIRS" -v seed=20261123 '
	function rnd(k) { x = (x * 16807) % 2147483647; return x % k }
	function letter() { return (nl == 1 || rnd(2)) ? "Q_a" : "Q_b" }
	function f(d,    c, r) {
		c = rnd(d > 0 ? 8 : 3)
		if (c <= 1) return letter()
		if (c == 2) return (pos ? "MOD(" (1 + rnd(3)) ", " rnd(3) ")" : letter())
		if (c == 3) return "!(" f(d) ")"
		if (c == 4) return "(" f(d - 1) (rnd(2) ? " & " : " | ") f(d - 1) ")"
		if (c == 5) return pos ? "Y (" f(d - 1) ")" : letter()
		split("< <= = != >= >", rel, " ")
		r = rel[1 + rnd(6)]
		return (1 + rnd(2)) "*" ((fut && rnd(3) == 0) ? "#>" : "#") \
			"[" f(d - 1) "] " r " " rnd(5)
	}
	BEGIN {
		x = seed
		for (i = 0; i < n; i++) {
			kind = i % 3  # 0: any depth, 1: depth 1, 2: one letter
			nl = kind == 2 ? 1 : 2
			pos = kind != 1; fut = kind == 0
			d = kind == 1 ? 1 : 3
			a = f(d); b = f(d)
			if (rnd(3) == 0) b = "(" a ") & ((" b ") | !(" b "))"
			print kind "\t" a "\t" b
		}
	}'
}

# verdict and counterexample length of `tally equiv ... --json`
field() { sed -n "s/.*\"$1\":\"\{0,1\}\([^\",}]*\).*/\1/p" | head -n 1; }

decide() { # METHOD KIND A B [OPTIONS]: prints "EXIT LENGTH"
	method=$1 kind=$2 a=$3 b=$4; shift 4
	alpha=ab; test "$kind" = 2 && alpha=a
	st=0
	"$TALLY" equiv -f "$a" -f "$b" --alphabet=$alpha --method="$method" \
		--json --quiet "$@" >out.json 2>err.txt || st=$?
	case $st in 0|1|3) ;; *) fail "exit $st: $method on [$a] [$b]: $(cat err.txt)" ;; esac
	len=-; test "$st" = 1 && len=$(sed 's/.*"counterexample"//' out.json | field length)
	echo "$st $len"
}

count=0 differ=0
gen_pairs > pairs.txt
while IFS="	" read -r kind a b; do
	count=$((count + 1))
	set -- $(decide mona "$kind" "$a" "$b")
	m_st=$1 m_len=$2
	test "$m_st" = 3 && fail "mona gave no verdict on [$a] [$b]"
	set -- $(decide explore "$kind" "$a" "$b" --max-length=$MAXLEN)
	e_st=$1 e_len=$2
	if test "$m_st" = 1; then
		differ=$((differ + 1))
		if test "$m_len" -le $MAXLEN; then
			test "$e_st" = 1 && test "$e_len" = "$m_len" ||
				fail "[$a] vs [$b]: mona length $m_len, explore exit $e_st length $e_len"
		else
			test "$e_st" != 1 || test "$e_len" -gt $MAXLEN ||
				fail "[$a] vs [$b]: explore found $e_len < mona's $m_len"
		fi
	else
		test "$e_st" != 1 ||
			fail "[$a] vs [$b]: mona equivalent, explore counterexample of length $e_len"
	fi
	other=
	test "$kind" = 1 && other=presburger
	test "$kind" = 2 && other=unary
	if test -n "$other"; then
		set -- $(decide $other "$kind" "$a" "$b")
		test "$1 $2" = "$m_st $m_len" ||
			fail "[$a] vs [$b]: mona $m_st $m_len, $other $1 $2"
	fi
done < pairs.txt
test "$count" -ge 10 || fail "only $count pairs"
# Both verdicts must occur often, or agreement proves little.
test $((differ * 5)) -ge "$count" && test $(((count - differ) * 5)) -ge "$count" ||
	fail "$differ of $count pairs differ: the generator is off balance"
echo "$count pairs agree ($differ not equivalent)"
