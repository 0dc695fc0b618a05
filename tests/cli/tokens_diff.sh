# tokens_diff.sh -- token input against the same words written as
# characters (issue 31, item 4): the token reader hands its letters to
# the evaluator as one byte each, like the character reader, so both
# must give the same output for every formula shape the evaluator runs
# differently (the register kernel with and without counted tests, the
# general machine, #> in passes over a file or over the kept word).
# Seeded words over seven letters of 1 to 34 bytes (shared prefixes;
# longer than the 32 bytes of the direct table too), blanks of every
# kind and in runs, empty lines, a line of over 1 MiB (so tokens
# straddle the 64 KiB read buffers, at offsets the seed picks), from a
# file and from a pipe, --jobs=1 and 2, --tokens and lines that are
# tokens because they contain a blank.  The verdicts of the first
# formula are also counted here by awk; an unknown token gets the
# position awk finds.
. "$top_srcdir/tests/lib.sh"

letters='x abc abcdefgh abcdefghi a_rather_long_token_0001 an_even_longer_letter_name_of_34_b xy'
# chars.words: words over a..g, one per line (the last over 1 MiB of
# tokens); tok.words: the same words as tokens.
awk -v names="$letters" 'BEGIN {
	srand(31); split(names, name, " "); split("abcdefg", ch, "")
	for (w = 0; w < 60; w++) {
		n = w == 59 ? 90000 : w % 10 == 3 ? 0 : 1 + int(rand() * 3000)
		for (i = 0; i < n; i++) {
			k = 1 + int(rand() * 7)
			# skewed, so both verdicts occur
			if (rand() < 0.1 * (w % 3)) k = 1
			printf "%s", ch[k] > "chars.words"
			r = rand()
			sep = r < 0.8 ? " " : r < 0.85 ? "  " : r < 0.9 ? "\t" : \
			      r < 0.95 ? " \t \v" : "\f"
			printf "%s%s", i ? sep : (rand() < 0.2 ? " " : ""), \
				name[k] > "tok.words"
		}
		# a line of one token or none has a blank (tokens, not
		# characters, without --tokens)
		printf "%s%s\n", n < 2 || rand() < 0.3 ? " " : "", \
			rand() < 0.2 ? "\r" : "" > "tok.words"
		print "" > "chars.words"
	} }'
test "$(wc -c < tok.words)" -gt 1100000 || fail "the token words should pass 1 MiB"
set -- $letters
als="$*"
als=$(echo "$als" | tr ' ' ,)

# formula over the characters, then over the tokens
forms='#[Q_a] > #[Q_b]
#[#[Q_a | Q_c] < #[Q_b]] = 0 & #[Q_d] >= 1
#[Y Q_a & Q_e] >= #[Q_f] - 1
#[#>[Q_g] < #>[Q_a]] = 1'
tokform() {
	echo "$1" | sed "s/Q_a/Q_@1/g; s/Q_b/Q_@2/g; s/Q_c/Q_@3/g; s/Q_d/Q_@4/g
		s/Q_e/Q_@5/g; s/Q_f/Q_@6/g; s/Q_g/Q_@7/g
		s/@1/x/g; s/@2/abc/g; s/@3/abcdefgh/g; s/@4/abcdefghi/g
		s/@5/a_rather_long_token_0001/g
		s/@6/an_even_longer_letter_name_of_34_b/g; s/@7/xy/g"
}

# What the first formula says, counted here.
awk '{ na = gsub(/a/, "a"); nb = gsub(/b/, "b")
	print (na > nb ? "accept" : "reject") }' chars.words > want1.txt
grep -q accept want1.txt && grep -q reject want1.txt ||
	fail "the seeded words should give both verdicts"

echo "$forms" | while IFS= read -r f; do
	g=$(tokform "$f")
	status=0
	"$TALLY" eval --no-echo --alphabet=abcdefg -f "$f" < chars.words \
		> want.txt 2> err.txt || status=$?
	test "$status" -le 1 || fail "characters, $f: exit $status $(cat err.txt)"
	if test "$f" = '#[Q_a] > #[Q_b]'; then
		cmp -s want.txt want1.txt || fail "characters against awk, $f"
	fi
	for how in file pipe; do
		# the last: no --tokens (every line has a blank)
		for opt in --tokens '--tokens --jobs=1' '--tokens --jobs=2' ''; do
			set -- $opt
			if test $how = file; then
				try "$status" "$TALLY" eval --no-echo --alphabet="$als" \
					"$@" -f "$g" < tok.words
			else
				cat tok.words | try "$status" "$TALLY" eval --no-echo \
					--alphabet="$als" "$@" -f "$g"
			fi
			cmp -s out.txt want.txt ||
				fail "tokens ($how, ${opt}), $g: $(diff want.txt out.txt | head -5)"
		done
	done
done

# With the echo, each line is its word (CR dropped) and the verdict.
try 1 "$TALLY" eval --tokens --alphabet="$als" -f "$(tokform '#[Q_a] > #[Q_b]')" < tok.words
tr -d '\r' < tok.words | paste - want1.txt > want-echo.txt
cmp -s out.txt want-echo.txt || fail "echo of the token words"

# An unknown token at seeded places (the last one deep in the long
# line): the same message and position awk finds, nothing printed for
# its word, the words before it judged.
for seed in 1 2 3; do
	awk -v seed="$seed" 'BEGIN { srand(seed) }
		{ line[NR] = $0 }
		END { w = seed == 3 ? NR : 1 + int(rand() * (NR - 1))
			while (seed != 3 && split(line[w], t, /[ \t\v\f\r]+/) < 3) w--
			n = split(line[w], t, /[ \t\v\f\r]+/)
			k = 0; p = 1 + int(rand() * (n - 1))
			s = line[w]; out = ""
			# the p-th token (empty fields before the first blank do not count)
			for (i = 1; i <= n; i++) if (t[i] != "") { if (++k == p) break }
			match(s, /[^ \t\v\f\r]+/); pos = 0; q = 0
			while (q < p) { q++; if (q == p) break
				s2 = substr(s, RSTART + RLENGTH); out = out substr(s, 1, RSTART + RLENGTH - 1)
				s = s2; match(s, /[^ \t\v\f\r]+/) }
			out = out substr(s, 1, RSTART - 1) "abcdefghij" substr(s, RSTART + RLENGTH)
			line[w] = out
			for (i = 1; i <= NR; i++) print line[i] > "bad.words"
			printf "word %d: unknown letter '\''abcdefghij'\'' at position %d\n", w, p > "bad.want"
			print w - 1 > "bad.before" }' tok.words
	msg=$(cat bad.want)
	before=$(cat bad.before)
	for how in file pipe; do
		if test $how = file; then
			try 2 "$TALLY" eval --no-echo --tokens --alphabet="$als" \
				-f "$(tokform '#[Q_a] > #[Q_b]')" < bad.words
		else
			cat bad.words | try 2 "$TALLY" eval --no-echo --tokens \
				--alphabet="$als" -f "$(tokform '#[Q_a] > #[Q_b]')"
		fi
		err_has "$msg"
		test "$(wc -l < out.txt)" = "$before" ||
			fail "seed $seed ($how): $(wc -l < out.txt) verdicts before the error, wanted $before"
		head -n "$before" want1.txt | cmp -s - out.txt ||
			fail "seed $seed ($how): the verdicts before the error"
	done
done
