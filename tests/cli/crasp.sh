# crasp.sh -- C-RASP programs on the command line: the done-when of issue 4
# (Dyck-1 in .cr syntax to the core grammar, same language up to length 10,
# depth 2), translations of the corpus in every direction compared by
# `tally lang`, info's per-layer lines, the dot graph, and the exact
# diagnostics of ill-formed programs.
. "$top_srcdir/tests/lib.sh"

progs=$top_srcdir/corpora/programs

# Done when: dyck1.cr -> tl-core is a core formula with the program's
# language (up to length 10) and depth 2.
run 0 "$TALLY" translate -P "$progs/dyck1.cr" --to=tl-core > /dev/null
"$TALLY" translate -P "$progs/dyck1.cr" --to=tl-core > core.tl
"$TALLY" lang -P "$progs/dyck1.cr" --max-length 10 > want.txt
"$TALLY" lang -F core.tl --max-length 10 > got.txt
test -s want.txt || fail "Dyck-1 accepts nothing up to length 10"
cmp -s want.txt got.txt || fail "tl-core of dyck1.cr: another language"
test "$("$TALLY" info -F core.tl | head -1)" = "depth: 2" ||
	fail "tl-core of dyck1.cr: depth is not 2"
# only the core grammar: no |, -, *, ?, >, =, digits but 1, min/max/true
grep -v '^let ' core.tl | grep -q '[-|*?>=023456789]\|min\|max\|true' &&
	fail "tl-core output is not core: $(cat core.tl)"
sed -n 's/^let [A-Za-z_0-9]* = \(.*\);$/\1/p' core.tl |
	grep -q '[-|*?>=023456789]\|min\|max\|true' &&
	fail "tl-core let bodies are not core: $(cat core.tl)"

# Every corpus program, and each of its translations, has one language
# (words up to length 7) and one depth.
for f in "$progs"/*.cr "$progs"/*.crasp; do
	name=$(basename "$f")
	"$TALLY" lang -P "$f" --max-length 7 > want.txt
	depth=$("$TALLY" info -P "$f" | head -1)
	"$TALLY" print -P "$f" --to=tl > t.tl
	"$TALLY" print -P "$f" --to=tl-core > c.tl
	"$TALLY" print -P "$f" --to=crasp > p.crasp
	"$TALLY" print -P "$f" --to=crasp-paper > pp.crasp
	"$TALLY" print -F c.tl --to=crasp > cp.crasp
	for t in t.tl c.tl p.crasp pp.crasp cp.crasp; do
		case $t in *.tl) opt=-F ;; *) opt=-P ;; esac
		"$TALLY" lang $opt $t --max-length 7 > got.txt
		cmp -s want.txt got.txt || fail "$name -> $t: another language"
		test "$("$TALLY" info $opt $t | head -1)" = "$depth" ||
			fail "$name -> $t: depth differs from $depth"
	done
done

# TL -> C-RASP -> TL on the prelude formulas.
for f in L_1 L_2 L_3 dyck1 majority anbn anbncn first_a twice_b ab_star \
	factor_bb; do
	"$TALLY" print -f $f --to=crasp > p.crasp
	"$TALLY" print -P p.crasp --to=tl > back.tl
	"$TALLY" lang -f $f --max-length 7 --alphabet=abc > want.txt
	"$TALLY" lang -F back.tl --max-length 7 --alphabet=abc > got.txt
	cmp -s want.txt got.txt || fail "$f -> C-RASP -> TL: another language"
	test "$("$TALLY" info -F back.tl | head -1)" = \
		"$("$TALLY" info -f $f | head -1)" || fail "$f: depth changed"
done

# info: depth first, then the layers of the program (Dyck-1: two counts
# and two comparisons in layer 1; one count, M and D in layer 2).
"$TALLY" info -P "$progs/dyck1.crasp" > info.txt
test "$(head -1 info.txt)" = "depth: 2" || fail "info: depth not first"
grep -qx 'layer 0: 0 counts, 0 position-wise' info.txt || fail "layer 0"
grep -qx 'layer 1: 2 counts, 2 position-wise' info.txt || fail "layer 1"
grep -qx 'layer 2: 1 count, 2 position-wise' info.txt || fail "layer 2"
grep -q '^core-dag-size: [0-9][0-9]*$' info.txt || fail "core-dag-size"

# The paper form, exactly (user names kept, one operation per line).
expect_out "C_a(i) := #[j <= i] Q_a(j)
C_b(i) := #[j <= i] Q_b(j)
M(i)   := C_b(i) < C_a(i)" "$TALLY" print -P "$progs/majority.crasp" \
	--to=crasp-paper

# dot: a cluster per layer, counts drawn as filled boxes; dot renders it.
"$TALLY" print -P "$progs/count3.crasp" --to=dot > g.dot
grep -q 'subgraph cluster_layer2' g.dot || fail "dot: no layer 2 cluster"
grep -q 'shape=box, style="filled,bold"' g.dot || fail "dot: counts"
if command -v dot > /dev/null 2>&1; then
	dot -Tsvg g.dot > g.svg || fail "dot -Tsvg failed"
	grep -q '<svg' g.svg || fail "dot -Tsvg: no svg"
fi

# Errors: two-sided counts have no C-RASP form; bad programs.
run 2 "$TALLY" print -f '#>[Q_a] < 2' --to=crasp 2> /dev/null
expect_err() { # EXPECTED-STDERR PROGRAM-TEXT [EXT]
	printf '%s\n' "$2" > "bad.${3:-crasp}"
	run 2 "$TALLY" print -P "bad.${3:-crasp}" 2> /dev/null
	"$TALLY" print -P "bad.${3:-crasp}" 2> err.txt > /dev/null || true
	test "$(cat err.txt)" = "$1" ||
		fail "diagnostic for [$2]: got [$(cat err.txt)], wanted [$1]"
}
"$TALLY" print -f '#>[Q_a] < 2' --to=crasp 2> err.txt > /dev/null || true
test "$(cat err.txt)" = "tally: error: the formula counts the future (#>[...]): two-sided counting has no C-RASP counterpart" ||
	fail "two-sided: $(cat err.txt)"
expect_err "tally: bad.crasp:2:6: error: a count is used as a Boolean (compare it, e.g. 'C > 0')
B := A & Q_b
     ^" "A := #Q_a
B := A & Q_b"
expect_err "tally: bad.crasp:1:6: error: unknown name 'Z' (letters are written Q_Z or 'Z')
V := Z < #Q_a
     ^" "V := Z < #Q_a"
expect_err "tally: bad.crasp:2:1: error: redefinition of 'A' (first defined at 1:1)
A := #Q_b < 1
^" "A := #Q_a < 1
A := #Q_b < 1"
expect_err "tally: bad.crasp:1:7: error: 'A' is used in its own definition (a cycle)
A := #A < 1
      ^" "A := #A < 1"
expect_err "tally: bad.crasp:1:7: error: cycle in the definitions: A -> B -> C -> A ('B' is defined at 2:1)
A := #B < 1
      ^" "A := #B < 1
B := #C < 1
C := A & Q_a"
expect_err "tally: bad.crasp:1:7: error: 'B' is used before its definition at 2:1 (a program defines every name before using it)
A := #B < 1
      ^" "A := #B < 1
B := #Q_a < 1"
expect_err "tally: bad.cr:1:13: error: 'b' is used before its definition at 2:1 (the interpreter runs statements in order)
a = #\"x\" == b
            ^" "a = #\"x\" == b
b = #a" cr
expect_err "tally: bad.crasp:1:1: error: the program has no Boolean definition to accept with ('A' is a count)
A := #Q_a
^" "A := #Q_a"
expect_err "tally: bad.crasp:3:10: error: a Boolean is used as a count (count it with #P)
D := C + B
         ^" "B := Q_b
C := #Q_a
D := C + B"
