# parse_errors.sh -- exact diagnostics at the command line: the text on
# stderr (location, message, source line, caret) and exit status 2, for
# -f formulas, -F files (positions on later lines) and stdin lines (the
# line number is the stdin line).
. "$top_srcdir/tests/lib.sh"

# expect_error WANTED-STDERR COMMAND...: exit 2 and exactly that stderr.
expect_error() {
	want=$1; shift
	status=0
	"$@" > out.txt 2> err.txt || status=$?
	test "$status" = 2 || fail "exit $status, wanted 2: $*"
	printf '%s\n' "$want" > want.txt
	cmp -s want.txt err.txt ||
		fail "$*: stderr differs:$(diff want.txt err.txt)"
}

# -f
expect_error "tally: -f:1:6: error: expected ']' to close '[' at 1:2, found end of input
#[Q_a
     ^" "$TALLY" info -f '#[Q_a'
expect_error "tally: -f:1:17: error: expected ')' to close '(' at 1:7, found end of input
Q_a & (Q_b | Q_c
                ^" "$TALLY" print -f 'Q_a & (Q_b | Q_c'
expect_error "tally: -f:1:9: error: expected a formula or a term, found '<'
#[Q_b] >< 1
        ^" "$TALLY" info -f '#[Q_b] >< 1'
expect_error "tally: -f:1:7: error: unterminated letter: expected ' to close it, found end of input
Q_a & 'x
      ^" "$TALLY" info -f "Q_a & 'x"
# Columns count code points: the caret sits under the fault.
expect_error "tally: -f:1:10: error: expected an integer term, found a formula (count it with #[...])
#⃖[Q_a] ≤ ⊤
         ^" "$TALLY" info -f '#⃖[Q_a] ≤ ⊤'
# Several -f: the second one is named by its own position.
expect_error "tally: -f:1:5: error: unknown name 'x' (letters are written Q_x or 'x')
Q_b|x
    ^" "$TALLY" info -f 'Q_a' -f 'Q_b|x'

# -F FILE: line:col on a later line; the line shown is that line.
printf 'let x = #[Q_a];\nlet y = x >= 1;\n-- a comment\ny & (Q_b | \n' > defs.tl
expect_error "tally: defs.tl:4:11: error: expected a formula or a term, found end of input
y & (Q_b | 
          ^" "$TALLY" info -F defs.tl
printf 'let x = #[Q_a];\nlet x = 2;\nx > 1\n' > redef.tl
expect_error "tally: redef.tl:2:5: error: redefinition of 'x' (first defined at 1:5)
let x = 2;
    ^" "$TALLY" print -F redef.tl
printf '#[Q_a]\n  > #[Q_b]\n  > 2\n' > chain.tl
expect_error "tally: chain.tl:3:3: error: comparisons do not chain; join them with '&' (a < b & b < c)
  > 2
  ^" "$TALLY" info -F chain.tl
printf 'let c = #[Q_a];\nc\n' > sort.tl
expect_error "tally: sort.tl:2:1: error: expected a formula, found an integer term (compare it, e.g. '... >= 1')
c
^" "$TALLY" print -F sort.tl
# The same file through -F - is named <stdin>.
expect_error "tally: <stdin>:2:1: error: expected a formula, found an integer term (compare it, e.g. '... >= 1')
c
^" "$TALLY" print -F - < sort.tl

# stdin, one formula per line: the line number is the stdin line (blank
# and comment lines count).
printf 'Q_a\n\n-- comment\n#[Q_b] > 1\n(Q_a & Q_b\nQ_c\n' > lines.tl
expect_error "tally: <stdin>:5:11: error: expected ')' to close '(' at 5:1, found end of input
(Q_a & Q_b
          ^" "$TALLY" print < lines.tl
printf 'Q_a\n  #[Q_b] >< 1\n' > lines2.tl
expect_error "tally: <stdin>:2:11: error: expected a formula or a term, found '<'
  #[Q_b] >< 1
          ^" "$TALLY" info < lines2.tl
# A CRLF line: the carriage return is not part of the shown line's fault.
printf 'Q_a\r\nQ_b $\r\n' > crlf.tl
expect_error "tally: <stdin>:2:5: error: unexpected character '\$'
Q_b \$?
    ^" "$TALLY" info < crlf.tl

# Errors that have no location: "tally: error: ...".
expect_error "tally: error: --output: no definition named 'x'" \
	"$TALLY" info -f 'let y = Q_a; y' --output=x
expect_error "tally: error: --output: 'c' is an integer term, not a formula" \
	"$TALLY" print -f 'let c = #[Q_a]; c > 1' --output=c
