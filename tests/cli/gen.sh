# gen.sh -- tally gen: every family's formula against its membership
# function (written separately in src/families.c), on all words up to a
# length and on long random words; the membership functions against the
# hand-labelled words of corpora/languages; reproducible sampling; errors.
. "$top_srcdir/tests/lib.sh"

# agree FAMILY K N [GEN-OPTION...]: the labels of `tally gen --words` are
# what `tally eval` says of the family's formula, word by word.
agree() {
	family=$1 k=$2; shift 2
	kopt=; test "$k" = - || kopt=--k=$k
	"$TALLY" gen --family="$family" $kopt --words "$@" > labels ||
		fail "gen --words $family $k"
	test -s labels || fail "no words for $family $k"
	formula=$("$TALLY" gen --family="$family" $kopt) ||
		fail "gen $family $k"
	alphabet=$(cut -f1 labels | fold -w1 | sort -u | tr -d '\n')
	cut -f1 labels > words
	"$TALLY" eval -f "$formula" --alphabet="$alphabet" < words > verdicts ||
		true
	sed -e 's/	accept$/	1/' -e 's/	reject$/	0/' verdicts > got
	cmp -s labels got || {
		diff labels got | head -5
		fail "$family k=$k: formula and membership disagree ($*)"
	}
}

for k in 1 2 3 4 5; do agree lk $k -n 10; done
for k in 3 4 5 6; do agree lk-predict $k -n 11; done
for k in 1 2 3; do agree ek $k -n 7; done
for f in dyck1 majority anbn first-a subseq-ab d1 parity-twosided; do
	agree $f - -n 10
done
agree anbncn - -n 7
# Long words (long blocks for L_k: too-shallow formulas fail there).
for k in 2 3 4 6; do
	agree lk $k --sample=200 --min-length=30 --max-length=60
	agree ek $k --sample=100 --min-length=30 --max-length=60
done
agree lk-predict 5 --sample=100 --min-length=20 --max-length=40
for f in dyck1 majority anbn anbncn first-a subseq-ab d1 parity-twosided; do
	agree $f - --sample=100 --min-length=20 --max-length=60 --seed=7
done

# The comparison can fail: L_3's words against L_2's formula.
"$TALLY" gen --family=lk --k=3 --words -n 6 | cut -f1 > words
"$TALLY" eval -f "$("$TALLY" gen --family=lk --k=2)" --alphabet=ab \
	< words | sed -e 's/	accept$/	1/' -e 's/	reject$/	0/' > got || true
"$TALLY" gen --family=lk --k=3 --words -n 6 > labels
! cmp -s labels got || fail "L_2's formula passes as L_3"

# The membership functions against hand-given labels (corpora/languages).
corpus() {
	sed -e 's/	accept$/	1/' -e 's/	reject$/	0/' \
		"$top_srcdir/corpora/languages/$1.tsv" | sort > want
	max=$(cut -f1 want | awk '{ if (length > m) m = length } END { print m + 0 }')
	"$TALLY" gen --family="$2" ${3:+"$3"} --words -n "$max" | sort > all
	# every labelled word appears with the same label
	comm -23 want all > missing
	test ! -s missing || { cat missing; fail "$2 disagrees with $1.tsv"; }
}
corpus L_1 lk --k=1
corpus L_2 lk --k=2
corpus L_3 lk --k=3
corpus dyck1 dyck1
corpus anbn anbn
corpus anbncn anbncn
corpus first_a first-a
corpus ab_star d1

# lk-predict lists only prefixes of members: nonempty, starting with a,
# at most k blocks.
"$TALLY" gen --family=lk-predict --k=3 --words -n 3 > out
printf 'a\t0\naa\t0\nab\t0\naaa\t0\naab\t0\naba\t1\nabb\t0\n' > want
cmp -s out want || fail "lk-predict words: $(cat out)"

# Sampling is reproducible, depends on the seed, and keeps the lengths.
"$TALLY" gen --family=lk --k=3 --words --sample=50 --min-length=8 \
	--max-length=12 --seed=3 > s1
"$TALLY" gen --family=lk --k=3 --words --sample=50 --min-length=8 \
	--max-length=12 --seed=3 > s2
"$TALLY" gen --family=lk --k=3 --words --sample=50 --min-length=8 \
	--max-length=12 --seed=4 > s3
cmp -s s1 s2 || fail "same seed, different words"
! cmp -s s1 s3 || fail "the seed is ignored"
test "$(wc -l < s1)" -eq 50 || fail "not 50 sampled words"
awk -F '\t' 'length($1) < 8 || length($1) > 12 { exit 1 }' s1 ||
	fail "sampled length out of range"
grep -q '	1$' s1 && grep -q '	0$' s1 || fail "sample not mixed"

# The list names every family once, with its reference.
"$TALLY" gen --list > list
for f in lk lk-predict ek dyck1 majority anbn anbncn first-a subseq-ab d1 \
	parity-twosided; do
	grep -q "^$f " list || fail "--list lacks $f"
done
test "$("$TALLY" gen --list --json | wc -l)" -eq \
	"$(grep -c '^[a-z]' list)" || fail "--list --json count"
"$TALLY" gen --family=lk --k=2 --words -n 2 --json | head -1 > j
grep -q '"word": *""' j && grep -q '"label": *0' j || fail "json word: $(cat j)"

# Formulas: one per k, in any print format; depth k for L_k.
test "$("$TALLY" gen --family=lk --k=1..4 | wc -l)" -eq 4 || fail "k range"
test "$("$TALLY" gen --family=lk --k=..3 | wc -l)" -eq 3 || fail "..M range"
for k in 1 2 3 4 5; do
	"$TALLY" gen --family=lk --k=$k | "$TALLY" info > info
	grep -q "^depth: $k\$" info || fail "L_$k depth: $(head -1 info)"
done
"$TALLY" gen --family=lk-predict --k=5 | "$TALLY" info | grep -q '^depth: 3$' ||
	fail "lk-predict 5 depth"
"$TALLY" gen --family=dyck1 --to=crasp > prog.crasp
"$TALLY" gen --family=dyck1 --words -n 8 | cut -f1 > words
"$TALLY" eval -P prog.crasp < words | sed -e 's/	accept$/	1/' \
	-e 's/	reject$/	0/' > got || true
"$TALLY" gen --family=dyck1 --words -n 8 | cmp -s - got ||
	fail "dyck1 as C-RASP"
test "$("$TALLY" gen --family=lk --k=1..2 --to=crasp | grep -c '^$')" -eq 1 ||
	fail "programs not separated by one empty line"

# Errors: exit 2 and a message.
run 2 "$TALLY" gen 2> err
run 2 "$TALLY" gen --family=nosuch 2> err
grep -q "unknown family 'nosuch'" err || fail "unknown family: $(cat err)"
run 2 "$TALLY" gen --family=lk 2> err
run 2 "$TALLY" gen --family=lk --k=0 2> err
run 2 "$TALLY" gen --family=lk-predict --k=2 2> err
run 2 "$TALLY" gen --family=lk --k=3.. 2> err
run 2 "$TALLY" gen --family=lk --k=x 2> err
run 2 "$TALLY" gen --family=lk --k=3..2 2> err
run 2 "$TALLY" gen --family=dyck1 --k=2 2> err
run 2 "$TALLY" gen --family=lk --k=1..2 --words -n 3 2> err
run 2 "$TALLY" gen --family=lk --k=2 --words 2> err
run 2 "$TALLY" gen --family=lk --k=2 -n 3 2> err
run 2 "$TALLY" gen --family=lk --k=2 --words -n 3 --min-length=4 2> err
run 2 "$TALLY" gen --family=lk --k=2 --words -n -1 2> err
run 2 "$TALLY" gen --family=parity-twosided --to=crasp > /dev/null 2> err
run 2 "$TALLY" gen --family=lk --k=2 --to=nosuch > /dev/null 2> err
run 2 "$TALLY" gen --list extra 2> err
run 2 "$TALLY" gen --family=lk --k=257 2> err
run 0 "$TALLY" gen --family=lk --k=256 > /dev/null
run 2 "$TALLY" gen --family=lk --k=2 --words --sample=1 -n 100000001 2> err
