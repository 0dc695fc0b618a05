. "$top_srcdir/tests/lib.sh"
run 0 "$TALLY" --version
