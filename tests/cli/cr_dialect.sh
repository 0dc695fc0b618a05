# cr_dialect.sh -- the .cr dialect (issue 11): every #import predicate and
# family with the interpreter's 0-based positions, each construct its
# grammar accepts (with its meaning), the result convention, names, and
# the messages for what is refused.  Programs written for this test;
# expected verdicts derived by hand (comments).
. "$top_srcdir/tests/lib.sh"

# check PROGRAM WORD EXPECTED: one word ('_' separates its tokens).
check() {
	printf '%s\n' "$1" > p.cr
	w=$(echo "$2" | tr _ ' ')
	got=$("$TALLY" eval -P p.cr --tokens --open-alphabet -w "$w" 2> err.txt |
		cut -f2) || true
	test "$got" = "$3" || fail "[$1] on [$w]: got [$got], wanted [$3]: $(cat err.txt)"
}

# error PROGRAM MESSAGE-FRAGMENT: refused with exit 2 and that text.
error() {
	printf '%s\n' "$1" > p.cr
	got=0
	"$TALLY" print -P p.cr > /dev/null 2> err.txt || got=$?
	test "$got" = 2 || fail "[$1]: exit $got, wanted 2"
	grep -q -F -e "$2" err.txt || fail "[$1]: message [$(cat err.txt)] lacks [$2]"
}

## predicates (0-based positions in the interpreter)
# pred: j == i-1, the previous token
check '#import pred
L = (#[pred] "a") == 1' a_b accept
check '#import pred
L = (#[pred] "a") == 1' b_a reject
check '#import pred
L = (#[pred] "a") == 1' a reject
# predK: K back; pred2 on a b b (last index 2, j = 0 is a)
check '#import pred2
L = (#[pred2] "a") == 1' a_b_b accept
check '#import pred2
L = (#[pred2] "a") == 1' b_a_b reject
check '#import pred2
L = (#[pred2] "a") == 1' a_b reject
check '#import pred4
L = (#[pred4] "a") == 1' a_b_b_b_b accept
check '#import pred4
L = (#[pred4] "a") == 1' a_b_b_b reject
check '#import pred12
L = (#[pred12] "a") == 1' a_b_b_b_b_b_b_b_b_b_b_b_b accept
# pos_even: the last 0-based index is even, i.e. odd length
check '#import pos_even
L = pos_even' a accept
check '#import pos_even
L = pos_even' a_a reject
check '#import pos_even
L = pos_even' a_a_a accept
check '#import pos_odd
L = pos_odd' a_a accept
check '#import pos_odd
L = pos_odd' a reject
# pos_mod_3_0: last index 0 or 3 (length 1, 4); pos_mod_3_2: length 3
check '#import pos_mod_3_0
L = pos_mod_3_0' a accept
check '#import pos_mod_3_0
L = pos_mod_3_0' a_a_a_a accept
check '#import pos_mod_3_0
L = pos_mod_3_0' a_a reject
check '#import pos_mod_3_2
L = pos_mod_3_2' a_a_a accept
check '#import pos_mod_3_2
L = pos_mod_3_2' a reject
# imports hold for the whole program, wherever the line is
check 'L = pos_even && "a"
#import pos_even' a accept
# a unary predicate counts like any Boolean: #pos_even on 5 positions
# holds at 0, 2, 4
check '#import pos_even
L = #pos_even == 3' a_a_a_a_a accept

## constructs
# unparenthesised conditional, on a count: 1 where the token is a
check 'n = 1 if "a" else 0
L = n == 1' b_a accept
check 'n = 1 if "a" else 0
L = n == 1' a_b reject
# '#' over a compound Boolean, '!' under '#': #!"a" counts non-a
check 'L = #!"a" == 2' a_b_b accept
check 'L = #!"a" == 2' b_a reject
check 'L = #("a" || "b") == 2' a_c_b accept
# '#c' on a count: positions where c != 0; c = #a - #b is 1 0 1 on a b a
check 'c = #"a" - #"b"
n = #c
L = n == 2' a_b_a accept
check 'c = #"a" - #"b"
n = #c
L = n == 2' a_a_b_b reject
# a count as a Boolean elsewhere (!, &&): != 0
check 'c = #"a"
L = !c' b_b accept
check 'c = #"a"
L = c && "b"' a_b accept
check 'c = #"a"
L = c && "b"' b_b reject
# Booleans in arithmetic are 0/1
check 'b = "a"
s = b + b + 1
L = s == 3' b_a accept
check 'b = "a"
s = b + b + 1
L = s == 3' a_b reject
check 'b = "a"
L = 3 * b > 2' a accept
check 'b = "a"
L = b == 1' a accept
check 'b = "a"
L = max(b, 0) == 0' a reject
# min/max of Booleans stay Boolean (and / or)
check 'p = "a"
q = "b"
L = min(p, q)' a reject
check 'p = "a"
q = "b"
L = max(p, q)' b accept
# reassignment: later statements see the new value
check 'x = #"a"
y = x
x = x + 1
L = x == 3 && y == 2' a_a accept
check 'x = "a"
x = !x
L = x' a reject
# names that are tally keywords or look like letters
check 'Y = #"a"
not = Y > 1
and = not && "b"
or = and || false
let = or
MOD = let
output = MOD
Q_a = output' a_a_b accept
check 'Y = #"a"
not = Y > 1
Q_a = not' a_b reject
# backslashes are ordinary characters in token strings
check 'L = "x\y"' 'x\y' accept
check 'L = "\"' '\' accept
check 'L = #"\n" == 1' 'n' reject
# true, false, comments, blank lines, CRLF
check '// a comment line

L = true && !false   // trailing comment' a accept
printf 'x = #"a"\r\nL = x == 2\r\n' > p.cr
test "$("$TALLY" eval -P p.cr --tokens -w "a a" | cut -f2)" = accept ||
	fail "CRLF program"
# min, max, comparisons of every kind
check 'L = min(#"a", 2) == 2 && max(#"b", 1) >= 1 && #"a" != 0 && #"a" <= 3 && #"b" < 1 && #"a" > 1' a_a_a accept

## the result: the last statement; a count there falls back, with a
## warning naming the Boolean statement used
printf 'B = #"a" > 1\nC = #"a"\n' > p.cr
got=$("$TALLY" eval -P p.cr --tokens -w "a a" 2> err.txt | cut -f2)
test "$got" = accept || fail "last statement a count: got [$got]"
grep -q -F "warning: the last statement 'C' is a count (the interpreter prints its value); tally accepts by the last Boolean statement, 'B' at 1:1" err.txt ||
	fail "result warning: $(cat err.txt)"
error 'C = #"a"' "the program has no Boolean statement to accept with ('C' is a count"

## names
error 'L = y' "unknown name 'y' (a .cr program defines a name before using it"
error 'z = majority' "unknown name 'majority' (tally's prelude names are not available in .cr files"
error 'a = b
b = "x"' "'b' is used before its definition at 2:1"
error 'a = a' "'a' is used in its own first definition"

## what is refused, with how to write it
error '#import foo' "unknown predicate 'foo': tally knows pred and predK (j == i-K, K >= 1), pos_even, pos_odd and pos_mod_M_R"
error '#import foo' "write others in tally's syntax with Y"
error '#import pred0' "unknown predicate 'pred0'"
error '#import pos_mod_3_3' "unknown predicate 'pos_mod_3_3'"
error 'L = (#[pred] "a") == 1' "the guard 'pred' is not imported: add '#import pred' (anywhere in the program; imports apply to all of it)"
error '#import pos_even
L = (#[pos_even] "a") == 1' "'pos_even' is a unary predicate, not a guard"
error '#import pred
L = pred' "'pred' is a binary predicate: use it as a guard, #[pred] P"
error 'L = pos_even' "unknown name 'pos_even' (a predicate of the interpreter: add '#import pos_even')"
error 'L = (#[what] "a") == 1' "unknown predicate 'what'"
error 'L = "a" & "b"' "'&' alone is not an operator in .cr files; write '&&'"
error "L = 'a'" "a token is written in double quotes"
error 'L = "a b"' "never matches a token"
error 'L = ""' "never matches a token"
error 'L = "a' "unterminated string"
error 'L = "a" ? 1 : 0' "a conditional is written 'A if P else B'"
error 'L := "a"' "a .cr file defines with '=', not ':='"
error 'L = x * 2' "'*' multiplies a number by a count"
error 'L = #"a" < #"b" < 3' "cannot read '<' here"
error 'L = ' "the statement ends too early"

# error_at PROGRAM COLUMN MESSAGE: the diagnostic is at line 1, COLUMN and
# its caret under that column (not at the end of the statement).
error_at() {
	error "$1" "tally: p.cr:1:$2: error: $3"
	caret=$(sed -n 3p err.txt)
	test "$caret" = "$(printf "%$2s" '^')" ||
		fail "[$1]: caret [$caret], wanted one at column $2"
}
## brackets are checked first, with the caret at the one at fault
error_at 'L = #("a" && (#"b" == 0)' 6 "this '(' is never closed: expected ')' before the statement ends"
error_at 'L = (((' 7 "this '(' is never closed"
error_at 'L = #[pred "a"' 6 "this '[' is never closed: expected ']'"
error_at 'L = #("a"]' 10 "expected ')' to close '(' at 1:6, found ']'"
error_at 'L = #"a")' 9 "')' closes nothing: no '(' is open"
## words of other notations: what to write
error_at 'L = "a" and "b"' 9 "'and' is a name in .cr files, not an operator: use && for and"
error_at 'L = "a" or #"b" > 0' 9 "'or' is a name in .cr files, not an operator: use || for or"
error_at 'L = not "b"' 5 "'not' is a name in .cr files, not an operator: use ! for not"
error_at 'L = "a" && not "b"' 12 "'not' is a name in .cr files, not an operator: use ! for not"

## hostile input: a diagnostic, never a crash; long chains stay linear
awk 'BEGIN { printf "x = "; for (i = 0; i < 5000; i++) printf "("; printf "\"a\""; for (i = 0; i < 5000; i++) printf ")"; print "" }' > deep.cr
run 2 "$TALLY" info -P deep.cr
"$TALLY" info -P deep.cr 2>&1 | grep -q "too complex or too deeply nested" ||
	fail "deep nesting message"
awk 'BEGIN { printf "x = #\"a\""; for (i = 1; i < 20000; i++) printf " + #\"a\""; print " > 1" }' > long.cr
run 0 "$TALLY" info -P long.cr

echo "cr_dialect.sh: ok"
