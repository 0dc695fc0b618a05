# future_file.sh -- formulas with future counts #> read from a file on
# stdin take their passes over the file (cli/eval_file.c: nothing of the
# word kept), from a pipe over the word kept in memory (eval.c): the two
# must print the same bytes and exit alike, on every word over {a, b}
# up to length 9, on long random words, on tokens, CRLF lines, a last
# line without a newline, words with a letter no formula mentions,
# under --accept-at=eos, and on errors (an unknown letter).  Majority
# written with #> is also checked against awk.
. "$top_srcdir/tests/lib.sh"

awk 'BEGIN { print ""
	for (n = 1; n <= 9; n++)
		for (w = 0; w < 2 ^ n; w++) {
			s = ""
			for (i = 0; i < n; i++)
				s = s (int(w / 2 ^ i) % 2 ? "b" : "a")
			print s } }' > all.words
awk 'BEGIN { srand(53)
	for (w = 0; w < 12; w++) {
		n = int(rand() * 30000); p = w % 2 ? 0.5 : 0.49
		for (i = 0; i < n; i++) printf "%s", rand() < p ? "a" : "b"
		print "" } }' > long.words
cat all.words long.words > words
awk '{ n = split($0, c, ""); s = c[1]
	for (i = 2; i <= n; i++) s = s " " c[i]; print s }' words > tok.words
printf 'ab\r\nba\r\n\r\nabab' > crlf.words
printf 'aab\nab\nba' > nonl.words
printf 'aab\nabca\nab\n' > other.words

# same ARGS... < FILE: the file and a pipe of it give the same output and
# exit status (any status: errors too)
same() {
	in=$1; shift
	st=0; "$TALLY" eval "$@" < "$in" > file.out 2> file.err || st=$?
	sp=0; cat "$in" | "$TALLY" eval "$@" > pipe.out 2> pipe.err || sp=$?
	test "$st" = "$sp" || fail "$* < $in: exit $st from the file, $sp from a pipe"
	cmp -s file.out pipe.out || fail "$* < $in: the outputs differ"
	cmp -s file.err pipe.err || fail "$* < $in: the messages differ"
	seen="$seen $st"
}
seen=
maj='#[#[true] = 1 & #>[Q_b] < #>[Q_a]] = 1'
for f in "$maj" \
	 '#>[#>[Q_a] > #[Q_b]] >= 2' \
	 '#>[Y Q_a & #[Q_b] = 2] = 1 | #>[Q_b] = 3' \
	 '#>[#>[Q_a & #>[Q_b] > 1] > #[Q_b]] <= #[Q_a]' \
	 '#>[MOD(3, 1) & Q_a] > #[Q_b] + 1' \
	 '#>[Q_a] - #>[Q_b] = #[Q_a] - #[Q_b]' \
	 '#[#>[!Q_b] > #>[Q_b] + #[Q_a]] >= 2'; do
	for in in words crlf.words nonl.words; do
		same "$in" -f "$f"
		same "$in" --accept-at=eos -f "$f"
	done
	same tok.words --tokens --no-echo -f "$f"
	same words -f "$f" -f '#[Q_a] > #[Q_b]' -f '#>[Q_b] > 1'
	same other.words --alphabet=abc -f "$f"
	same other.words -f "$f"  # c is not a letter: an error on line 2
done
case $seen in *0*1*2* | *1*0*2*) ;; *) fail "accept, reject and error all expected: $seen" ;; esac

# majority with #>: accept iff the word has more a than b
"$TALLY" eval --no-echo -f "$maj" < words > got.txt || test $? = 1 ||
	fail "exit status of majority with #>"
awk '{ na = gsub(/a/, "a"); nb = gsub(/b/, "b")
	print (na > nb ? "accept" : "reject") }' words > want.txt
cmp -s got.txt want.txt || fail "majority with #> disagrees with awk"

# the file is read from where stdin stands: a line taken before tally
{ read -r first; "$TALLY" eval -f "$maj"; } < words > rest.out || test $? = 1 ||
	fail "exit status after a line was read"
tail -n +2 words | "$TALLY" eval -f "$maj" > rest.want || test $? = 1 || true
cmp -s rest.out rest.want || fail "reading from the offset stdin stands at"
