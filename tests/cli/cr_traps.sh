# cr_traps.sh -- where the Python C-RASP interpreter groups a .cr statement
# differently from tally (issue 11): for each trap, the warning with its
# caret and both readings, and a differential run of the program under
# --cr-precedence=peer and =conventional against verdicts derived by hand
# (written next to each case), plus statements that must not warn.
. "$top_srcdir/tests/lib.sh"

# verdicts PRECEDENCE PROGRAM WORD...: the verdicts, space-separated.
verdicts() {
	prec=$1 prog=$2
	shift 2
	printf '%s\n' "$prog" > p.cr
	for w in "$@"; do set -- "$@" -w "$(echo "$w" | tr _ ' ')"; shift; done
	"$TALLY" eval -P p.cr --tokens --alphabet=a,b,c \
		--cr-precedence="$prec" "$@" \
		2> err.txt | cut -f2 | tr '\n' ' ' | sed 's/ $//'
	test ! -s err.txt || fail "stderr under --cr-precedence=$prec: $(cat err.txt)"
}

# trap PROGRAM WORDS PEER-VERDICTS CONVENTIONAL-VERDICTS
trap_case() {
	got=$(verdicts peer "$1" $2)
	test "$got" = "$3" || fail "peer [$1] on [$2]: got [$got], wanted [$3]"
	got=$(verdicts conventional "$1" $2)
	test "$got" = "$4" ||
		fail "conventional [$1] on [$2]: got [$got], wanted [$4]"
	# the default is the conventional reading, with a warning
	printf '%s\n' "$1" > p.cr
	for w in $2; do
		"$TALLY" eval -P p.cr --tokens --alphabet=a,b,c \
			-w "$(echo "$w" | tr _ ' ')" 2> err.txt | cut -f2 >> def.txt
	done
	grep -q "warning: the Python C-RASP interpreter groups this statement differently" err.txt ||
		fail "no warning for [$1]: $(cat err.txt)"
	got=$(tr '\n' ' ' < def.txt | sed 's/ $//')
	rm -f def.txt
	test "$got" = "$4" || fail "default [$1]: got [$got], wanted [$4]"
}

# 1. '!' takes the whole && chain: peer !("a" && "b"), conventional
#    (!"a") && "b".  At the last letter a: peer !(T && F) = T, conv F && F
#    = F; at b: peer !(F && T) = T, conv T && T = T.
trap_case 'D = !"a" && "b"' 'a b c' 'accept accept accept' 'reject accept reject'
# (c is neither: peer !(F && F) = T, conv T && F = F)

# 2. '!' over ||: peer !("a" || "b"), conventional (!"a") || "b".
#    At b: peer !(F || T) = F, conv T || T = T; at a: both F.
trap_case 'D = !"a" || "b"' 'b a' 'reject reject' 'accept reject'

# 3. '+' binds tighter than '-': 5 - 2 + 1 is 5 - 3 = 2 in the peer, 4
#    conventionally.
trap_case 'c = 5 - 2 + 1
L = c == 2' 'a' 'accept' 'reject'

# 4. k * C + D is k * (C + D): on "a", 2 * (1 + 1) = 4 against 2 * 1 + 1
#    = 3.
trap_case 'c = 2 * #"a" + 1
L = c == 3' 'a' 'reject' 'accept'

# 5. '#' counts the whole Boolean expression after it: peer #("a" && "b")
#    = 0 always; conventionally (#"a" != 0) && "b", true on "a b".
trap_case 'x = #"a" && "b"
L = x >= 1' 'a_b a_a' 'reject reject' 'accept reject'

# 6. the guarded count likewise: peer #[pred] ("a" && "b") = 0 always;
#    conventionally (#[pred] "a" != 0) && "b": previous a, current b.
trap_case '#import pred
x = #[pred] "a" && "b"
L = x == 1' 'a_b b_b' 'reject reject' 'accept reject'

# 7. a comparison takes the whole conditional: peer (c if "a" else 5) ==
#    5, conventionally c if "a" else (5 == 5) (a count, 1 when true).
#    a a a a a: c = 5, last a: peer 5 == 5 -> y = (T == 1) = T; conv
#    x = 5, y = (5 == 1) = F.  a a b: peer 5 == 5 -> T; conv x = 1 -> T.
#    a b a: c = 2: peer 2 == 5 -> F -> y F; conv x = 2 -> F.
trap_case 'c = #"a"
x = c if "a" else 5 == 5
y = x == 1' 'a_a_a_a_a a_a_b a_b_a' 'accept accept reject' 'reject accept reject'

# 8. conditionals nest to the left: peer (1 if "a" else 2) if "b" else 3,
#    conventionally 1 if "a" else (2 if "b" else 3).  On a: peer 3, conv
#    1; on b: both 2.
trap_case 'c = 1 if "a" else 2 if "b" else 3
L = c == 1' 'a b' 'reject reject' 'accept reject'

# (In the word lists above '_' separates the positions of one word.)

# The warning: position, caret under the operator the interpreter groups
# differently, both readings fully parenthesised, the way out.
printf 'L = "b"\nD = !"a" && "b"\n' > w.cr
"$TALLY" info -P w.cr > /dev/null 2> err.txt
want='tally: w.cr:2:5: warning: the Python C-RASP interpreter groups this statement differently
D = !"a" && "b"
    ^
  interpreter:  D = (!("a" && "b"))
  conventional: D = ((!"a") && "b")
  tally uses the conventional reading (--cr-precedence=peer: the interpreter'"'"'s; --cr-precedence=conventional: no warning)'
test "$(cat err.txt)" = "$want" || fail "warning text: [$(cat err.txt)]"

# the caret of each other trap, and its two readings
check_warning() { # PROGRAM-LINE CARET-COLUMN PEER CONVENTIONAL
	printf 'c = #"a"\n%s\n' "$1" > w.cr
	"$TALLY" info -P w.cr > /dev/null 2> err.txt || true
	grep -q "^tally: w.cr:2:$2: warning: " err.txt ||
		fail "[$1]: no warning at column $2: $(cat err.txt)"
	grep -q -F "  interpreter:  $3" err.txt || fail "[$1]: peer reading: $(cat err.txt)"
	grep -q -F "  conventional: $4" err.txt || fail "[$1]: conventional reading: $(cat err.txt)"
}
check_warning 'L = 5 - 2 + 1 == 2' 7 'L = ((5 - (2 + 1)) == 2)' 'L = (((5 - 2) + 1) == 2)'
check_warning 'L = 2 * c + 1 == 3' 7 'L = ((2 * (c + 1)) == 3)' 'L = (((2 * c) + 1) == 3)'
check_warning 'L = #"a" && "b"' 5 'L = (#("a" && "b"))' 'L = ((#"a") && "b")'
check_warning 'L = c if "a" else 5 == 5' 21 'L = ((c if "a" else 5) == 5)' 'L = (c if "a" else (5 == 5))'
check_warning 'L = 1 if "a" else 2 if "b" else 3' 21 'L = ((1 if "a" else 2) if "b" else 3)' 'L = (1 if "a" else (2 if "b" else 3))'
check_warning 'L = !"a" || "b"' 5 'L = (!("a" || "b"))' 'L = ((!"a") || "b")'

# --cr-precedence=conventional and =peer are silent.
printf 'D = !"a" && "b"\n' > w.cr
for prec in peer conventional; do
	"$TALLY" info -P w.cr --cr-precedence=$prec > /dev/null 2> err.txt
	test ! -s err.txt || fail "--cr-precedence=$prec warns: $(cat err.txt)"
done
run 2 "$TALLY" info -P w.cr --cr-precedence=python
"$TALLY" info -P w.cr --cr-precedence=python 2> err.txt || true
grep -q "expected peer or conventional, not 'python'" err.txt ||
	fail "bad --cr-precedence: $(cat err.txt)"

# Same grouping, or a different grouping with the same meaning: no warning.
for stmt in 'L = #c == 0' 'L = #c + 1 < 3' 'L = !c == 3' 'L = #!"a" < 3' \
	'L = "a" && "b" || "c"' 'L = (c) && c == 3' 'L = 2 * 3 * c > 1' \
	'L = c + c + c > 1 && min(c, 2) < max(c, 1)' 'L = #"a" == #"b"' \
	'L = ((#"a" - #"b") if "a" else 0) > 1'; do
	printf 'c = #"a"\n%s\n' "$stmt" > w.cr
	"$TALLY" info -P w.cr > /dev/null 2> err.txt ||
		fail "[$stmt] does not load: $(cat err.txt)"
	test ! -s err.txt || fail "[$stmt] warns: $(cat err.txt)"
done

# A statement that replaces an earlier variable or an import warns (the
# interpreter replaces silently); the program still means what the
# interpreter computes, and the alphabet keeps every letter mentioned.
printf 'X = #"a"\nX = #"b"\nD = X > 0\n' > r.cr
got=$("$TALLY" eval -P r.cr -w ab -w a 2> err.txt | cut -f2 | tr '\n' ' ')
test "$got" = "accept reject " || fail "redefined X: [$got]"
grep -q "^tally: r.cr:2:1: warning: 'X' is defined again (first at 1:1)" err.txt ||
	fail "redefinition warning: $(cat err.txt)"
printf '#import pos_even\npos_even = #"a"\nD = pos_even > 0\n' > r.cr
got=$("$TALLY" eval -P r.cr --alphabet=a,b -w b -w a 2> err.txt | cut -f2 | tr '\n' ' ')
test "$got" = "reject accept " || fail "redefined import: [$got]"
grep -q "^tally: r.cr:2:1: warning: 'pos_even' replaces the predicate imported at 1:9" err.txt ||
	fail "import replaced: $(cat err.txt)"
printf '#import pred\npred = #"a"\nD = #[pred] "a" > 0 && pred > 0\n' > r.cr
"$TALLY" info -P r.cr > /dev/null 2> err.txt || fail "guard beside a variable: $(cat err.txt)"
grep -q "^tally: r.cr:2:1: warning: 'pred' is also an imported binary predicate" err.txt ||
	fail "guard and variable: $(cat err.txt)"
echo "cr_traps.sh: ok"
