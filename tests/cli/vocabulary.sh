# tests/cli/vocabulary.sh -- one name means one thing in every command:
#  - "all words up to N" is --max-length wherever a command has it (no
#    command's --help offers --length), and "at most N formulas" is
#    --max-formulas (no --count=N: lang's --count, a switch, prints counts);
#  - the old spellings still work, rewritten before the command parses
#    them: the same output as the new spelling, one warning per spelling
#    however often it is given, none for the new spelling.
. "$top_srcdir/tests/lib.sh"
T=$TALLY

commands=$("$T" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
test -n "$commands" || fail "no commands in tally --help"
for c in $commands; do
	"$T" "$c" --help > help.txt 2>&1 || true
	! grep -q -E -e '--length([= ]|$)' help.txt || fail "$c --help offers --length"
	! grep -q -E -e '--count=' help.txt || fail "$c --help offers --count=N"
done
for c in enum search hierarchy lang equiv check gen; do
	"$T" "$c" --help | grep -q -e '--max-length=N' || fail "$c has no --max-length=N"
done

# enum: --length / --count against --max-length / --max-formulas
run 0 "$T" enum --max-length=3 --max-formulas=7 > new.txt 2> new.err
run 0 "$T" enum --length 3 --count=7 --length=3 > old.txt 2> old.err
cmp -s new.txt old.txt || fail "enum: old spellings print something else"
test "$(grep -c 'warning: --length is now --max-length' old.err)" = 1 ||
	fail "enum --length: not exactly one warning: $(cat old.err)"
test "$(grep -c 'warning: --count is now --max-formulas' old.err)" = 1 ||
	fail "enum --count: not exactly one warning: $(cat old.err)"
! grep -q warning new.err || fail "enum: a warning for the new spellings"
test "$(wc -l < new.txt)" = 7 || fail "enum --max-formulas=7: $(wc -l < new.txt) lines"

# search and hierarchy share the sample's options
run 0 "$T" search --separate=1 --alphabet=ab --max-formulas=2 --max-length=6 --csv --quiet > new.txt
run 0 "$T" search --separate=1 --alphabet=ab --count=2 --length=6 --csv --quiet > old.txt 2> old.err
cmp -s new.txt old.txt || fail "search: old spellings print something else"
grep -q 'warning: --length is now --max-length' old.err || fail "search --length: no warning"
run 0 "$T" hierarchy --k=1..2 --pairs=0 --length=5 --quiet --no-time > old.txt 2> old.err
grep -q 'warning: --length is now --max-length' old.err || fail "hierarchy --length: no warning"
grep -q 'length <= 5' old.txt || fail "hierarchy --length=5 not read as --max-length: $(head -3 old.txt)"

# simulate: --length was the random words' length
"$T" compile -f majority > m.json || fail "compile majority"
run 0 "$T" simulate --check-against-formula --random=1 --random-length=300 < m.json > new.txt
run 0 "$T" simulate --check-against-formula --random=1 --length=300 < m.json > old.txt 2> old.err
cmp -s new.txt old.txt || fail "simulate: --length prints something else than --random-length"
grep -q 'warning: --length is now --random-length' old.err || fail "simulate --length: no warning"

# after "--" nothing is rewritten (an operand that looks like an option)
try 2 "$T" enum -- --length=3
! grep -q warning err.txt || fail "rewrote an operand after --"
echo "vocabulary.sh: ok"
