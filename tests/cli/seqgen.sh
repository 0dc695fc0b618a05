# tests/cli/seqgen.sh -- datasets of sequence outputs (issue 32, item 3):
# tally gen's records for the families histogram, margin and count-a and
# for a per-position Boolean program, every value recomputed by awk from
# the definitions (sharing nothing with tally); eval --check-labels on
# them; a corrupted value reported at its position; the report's value
# distribution recounted; same seed, same bytes.
. "$top_srcdir/tests/lib.sh"
T=$TALLY
tab=$(printf '\t')

# The checker: reads TSV (WORD, LABEL, V1,...,Vn [, SPLIT]) or the JSONL
# records of tally-gen(1) and recomputes each value from the word
# (task: histogram, margin, count-a or leads); prints "ok N" or the first
# bad record.  Also: no word twice in a split.
cat > check.awk <<'AWK'
function value(task, na, nb, c) {
	if (task == "histogram") return c == "a" ? na : nb
	if (task == "margin") return na - nb
	if (task == "count-a") return na
	# leads: the current letter occurred strictly more often
	return (c == "a" ? na > nb : nb > na) ? 1 : 0
}
function bad(why) { print "bad line " NR ": " why ": " $0; failed = 1; exit 1 }
{
	if (substr($0, 1, 1) == "{") {
		# {"word": "W", "label": L, "length": N[, "split": "S"], "values": [...]}
		if (!match($0, /"word": "[ab]*"/)) bad("word")
		w = substr($0, RSTART + 9, RLENGTH - 10)
		if (!match($0, /"label": -?[0-9]+/)) bad("label")
		label = substr($0, RSTART + 9, RLENGTH - 9)
		if (!match($0, /"length": [0-9]+/)) bad("length")
		len = substr($0, RSTART + 10, RLENGTH - 10)
		if (len != length(w)) bad("length field")
		split_ = match($0, /"split": "[a-z]*"/) ? \
			substr($0, RSTART + 10, RLENGTH - 11) : "all"
		if (!match($0, /"values": \[[-0-9, ]*\]/)) bad("values")
		vs = substr($0, RSTART + 11, RLENGTH - 12)
		gsub(/ /, "", vs)
	} else {
		nf = split($0, f, "\t")
		w = f[1]; label = f[2]; vs = f[3]
		split_ = nf > 3 ? f[4] : "all"
	}
	n = vs == "" ? 0 : split(vs, v, ",")
	if (n != length(w)) bad(n " values")
	na = nb = 0
	for (i = 1; i <= n; i++) {
		c = substr(w, i, 1)
		if (c == "a") na++; else nb++
		if (v[i] != value(task, na, nb, c)) bad("position " i)
	}
	last = n ? v[n] : 0
	if (label != last) bad("label " label)
	if (seen[split_ SUBSEP w]++) bad("duplicate")
	words++
}
END { if (!failed) print "ok " words }
AWK
check() { # task file
	awk -v task="$1" -f check.awk "$2" > chk.txt ||
		fail "$1 ($2): $(cat chk.txt)"
}

# Every word up to length 6: 127 records, all right.
try 0 "$T" gen -f histogram --max-length=6 -q
cp out.txt all.tsv
check histogram all.tsv
test "$(cat chk.txt)" = "ok 127" || fail "every word: $(cat chk.txt)"
grep -qx "abbab${tab}3${tab}1,1,2,2,3" all.tsv || fail "abbab: $(grep abbab all.tsv)"
grep -qx "${tab}0${tab}" all.tsv || fail "the empty word: $(head -1 all.tsv)"

# The three families, sampled with splits, in both formats; the same
# seed gives the same bytes, another seed other words.
split=train:0..10,test:11..16
for fam in histogram margin count-a; do
	"$T" gen --family=$fam --sample=240 --split=$split --seed=7 \
		--format=jsonl --report=$fam.json -q > $fam.jsonl ||
		fail "gen $fam"
	"$T" gen --family=$fam --sample=240 --split=$split --seed=7 \
		--format=jsonl --report=$fam.json -q > again.jsonl
	cmp -s $fam.jsonl again.jsonl || fail "$fam: not the same bytes"
	"$T" gen --family=$fam --sample=240 --split=$split --seed=8 \
		--format=jsonl -q > other.jsonl
	cmp -s $fam.jsonl other.jsonl && fail "$fam: seeds 7 and 8 alike"
	"$T" gen --family=$fam --sample=240 --split=$split --seed=7 -q > $fam.tsv
	check $fam $fam.jsonl
	test "$(cat chk.txt)" = "ok 240" || fail "$fam jsonl: $(cat chk.txt)"
	check $fam $fam.tsv
	test "$(cat chk.txt)" = "ok 240" || fail "$fam tsv: $(cat chk.txt)"
	# the same words and values in both formats
	awk -F '\t' '{ print $1 }' $fam.tsv > w1.txt
	sed 's/.*"word": "\([ab]*\)".*/\1/' $fam.jsonl > w2.txt
	cmp -s w1.txt w2.txt || fail "$fam: formats differ in their words"
	# tally's own check, by the prelude's spelling and by the family's
	prelude=$(echo $fam | tr - _)
	"$T" eval -f $prelude --alphabet=ab --check-labels < $fam.jsonl 2> err.txt ||
		fail "$fam: check-labels: $(cat err.txt)"
	grep -q '240 words, 0 with a wrong label' err.txt || fail "$(cat err.txt)"
	formula=$("$T" gen --family=$fam)
	"$T" eval -f "$formula" --alphabet=ab --check-labels < $fam.tsv 2> err.txt ||
		fail "$fam: check-labels (tsv): $(cat err.txt)"
done
grep -q '"split": "test"' margin.jsonl || fail "no split field"

# A wrong value at one position (the 3rd, of the first record of at
# least 3 letters) is reported with that position; a wrong label too;
# exit 1 (some labels are wrong).
at=$(awk '/"length": ([3-9]|[1-9][0-9])/ { print NR; exit }' histogram.jsonl)
awk -v at="$at" 'NR == at { sub(/"values": \[[-0-9]+, [-0-9]+, /, "&99") } 1' \
	histogram.jsonl > bad.jsonl
cmp -s bad.jsonl histogram.jsonl && fail "no value changed"
word=$(sed -n "${at}s/.*\"word\": \"\([ab]*\)\".*/\1/p" bad.jsonl)
! awk -v task=histogram -f check.awk bad.jsonl > chk.txt ||
	fail "the checker missed the wrong value"
grep -q "^bad line $at: position 3" chk.txt || fail "checker: $(cat chk.txt)"
try 1 "$T" eval -f histogram --check-labels < bad.jsonl
grep -q "^line $at: '$word': position 3: value 99[0-9]*, the program says" \
	out.txt || fail "the wrong position: $(cat out.txt)"
err_has "240 words, 1 with a wrong label"
awk -F '\t' -v OFS='\t' 'NR == 9 { $2 = $2 + 1 } 1' margin.tsv > bad.tsv
try 1 "$T" eval -f margin --check-labels < bad.tsv
grep -q "^line 9: '[ab]*': label -*[0-9]*, the program says" out.txt ||
	fail "the wrong label: $(cat out.txt)"

# Records that are malformed for a count-valued program: exit 2, said.
printf '{"word": "ab", "label": 1, "length": 2, "values": [1, true]}\n' |
	run 2 "$T" eval -f histogram --check-labels 2> err.txt
grep -q 'value 2 is not an integer' err.txt || fail "$(cat err.txt)"
printf '{"word": "ab", "label": true, "length": 2, "values": [1, 1]}\n' |
	run 2 "$T" eval -f histogram --check-labels 2> err.txt
grep -q 'the label is not an integer' err.txt || fail "$(cat err.txt)"
printf '{"word": "ab", "label": 1, "length": 2, "values": [1]}\n' |
	run 2 "$T" eval -f histogram --check-labels 2> err.txt
grep -q '1 values for a word of length 2' err.txt || fail "$(cat err.txt)"
printf 'ab\t1\t1,x\n' | run 2 "$T" eval -f histogram --check-labels 2> err.txt
grep -q "value 2 is 'x', not an integer" err.txt || fail "$(cat err.txt)"
printf 'ab\t0\t1,2\n' |
	run 2 "$T" eval -f current_leads --check-labels 2> err.txt
grep -q "value 2 is '2', not 0 or 1" err.txt || fail "$(cat err.txt)"

# The report: no classes, and the distribution of the values, recounted
# here from the dataset (count, least, greatest of the last values).
grep -q '"output": "integer"' margin.json || fail "report output"
grep -q '"non_members"' margin.json && fail "members in a count's report"
awk '/"split": "train"/ { n++; v = $0; sub(/.*"label": /, "", v);
	sub(/,.*/, "", v); v += 0; if (n == 1 || v < lo) lo = v;
	if (n == 1 || v > hi) hi = v }
	END { printf "gen:   values at the last position: %d, %d..%d\n", n, lo, hi }' \
	margin.jsonl > want.txt
"$T" gen --family=margin --sample=240 --split=$split --seed=7 2> err.txt \
	> /dev/null
grep -q "^$(cat want.txt)," err.txt ||
	fail "report: wanted [$(cat want.txt)] in: $(cat err.txt)"

# A per-position Boolean program: balanced on the word's verdict (its
# last value), every value recomputed.
try 0 "$T" gen -f current_leads --labels=sequence --sample=200 \
	--min-length=1 --max-length=12 --seed=3 -q
cp out.txt leads.tsv
check leads leads.tsv
test "$(cat chk.txt)" = "ok 200" || fail "leads: $(cat chk.txt)"
test "$(awk -F '\t' '$2 == 1' leads.tsv | wc -l)" = 100 || fail "not balanced"
"$T" eval -f current_leads --check-labels < leads.tsv 2> err.txt ||
	fail "leads: $(cat err.txt)"
# future counts: the whole word before the values
f='#>[Q_a] >= 1 & #[Q_b] >= 1'
"$T" gen -f "$f" --alphabet=ab --labels=sequence --sample=40 \
	--max-length=8 --format=jsonl -q > fut.jsonl || fail "gen #>"
"$T" eval -f "$f" --alphabet=ab --check-labels < fut.jsonl 2> err.txt ||
	fail "#>: $(cat err.txt)"

# Families and options.
try 0 "$T" gen --list
for fam in histogram margin count-a; do
	grep -q "^$fam " out.txt || fail "--list: no $fam"
done
try 0 "$T" gen --family=count-a --to=crasp
out_is "out := #Q_a"
try 2 "$T" gen -f margin --ratio=1:1 --max-length=3
err_has "no classes"
try 2 "$T" gen -f margin --labels=position --max-length=3
err_has "count-valued program's labels are its values"
try 0 "$T" gen -f count_a --labels=word --max-length=2 -q
out_is "${tab}0
a${tab}1
aa${tab}2"
