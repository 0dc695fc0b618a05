# gen_jobs.sh -- tally gen --jobs: the words are labelled and formatted
# on threads, then written in order, so 1, 2 and 3 threads give the same
# bytes (the dataset and the --report file) for the same seed: word,
# position and prediction labels, TSV, JSONL and .cr, splits, a family's
# membership check, rejection sampling (no state graph), a dataset
# larger than one chunk of words, and sequence outputs (the values at
# every position and their distribution in the report): a count-valued
# family checked by its value function, a count-valued formula, a
# per-position Boolean program.  And long words, whose counts take two,
# three and four machine words (gen_unrank.c; mutants tried ahead on the
# threads), every label checked by a reference written here in awk.
. "$top_srcdir/tests/lib.sh"

# same NAME ARGS...: gen ARGS with --jobs=1, 2 and 3 writes the same
# dataset, report and exit status
same() {
	name=$1; shift
	status=0
	"$TALLY" gen --jobs=1 --report=one.json "$@" > one.out 2> one.err ||
		status=$?
	test "$status" = 0 || fail "$name: exit $status: $(head -c 300 one.err)"
	test -s one.out || fail "$name: no words"
	for j in 2 3; do
		got=0
		"$TALLY" gen --jobs=$j --report=par.json "$@" > par.out 2> par.err ||
			got=$?
		test "$got" = "$status" || fail "$name: --jobs=$j exits $got"
		cmp -s one.out par.out || fail "$name: --jobs=$j writes other words"
		cmp -s one.json par.json || fail "$name: --jobs=$j: another report"
		cmp -s one.err par.err || fail "$name: --jobs=$j: another summary"
	done
}

D3='#[Q_a & #[Q_b & #[Q_a] < #[Q_b]] >= 1] > #[Q_b]'
same depth3 --seed=7 --sample=40000 --min-length=30 --max-length=40 -f "$D3"
same position --seed=3 --sample=600 --split=train:1..12,test:13..20 \
	--labels=position -f L_3
same prediction -f dyck1 --seed=5 --sample=500 --min-length=2 \
	--max-length=12 --labels=prediction --format=jsonl
same cr -f dyck1 --seed=9 --sample=300 --min-length=2 --max-length=10 \
	--format=cr
same family --family=lk --k=3 --words --seed=4 --sample=400 --min-length=4 \
	--max-length=14
same rejection --max-states=1 --seed=2 --sample=300 --min-length=4 \
	--max-length=12 -f majority
same histogram --family=histogram --seed=6 --sample=3000 \
	--split=train:0..12,test:13..18 --format=jsonl
same count --seed=8 --sample=2000 --max-length=24 --alphabet=ab \
	-f '#[Q_a] - #[Q_b]'
same leads -f current_leads --labels=sequence --seed=3 --sample=1500 \
	--min-length=1 --max-length=20 --format=cr

# ref_d3 FILE: the labels of a TSV dataset of D3 recomputed letter by
# letter from the formula's meaning (past counts, inclusive: at each b,
# whether fewer a than b so far; at each a, whether such a b came
# before; accepted when those a outnumber the b); prints the lines that
# disagree.
ref_d3() {
	awk -F '\t' '{
		na = nb = mid = outer = 0
		for (i = 1; i <= length($1); i++) {
			c = substr($1, i, 1)
			if (c == "a") na++; else nb++
			if (c == "b" && na < nb) mid++
			if (c == "a" && mid >= 1) outer++
		}
		if ((outer > nb) != $2) print
	}' "$1"
}
# ref_dyck FILE: the same for Dyck-1 (never below 0, 0 at the end).
ref_dyck() {
	awk -F '\t' '{
		h = 0; ok = 1
		for (i = 1; i <= length($1); i++) {
			h += substr($1, i, 1) == "(" ? 1 : -1
			if (h < 0) ok = 0
		}
		if ((ok && h == 0) != $2) print
	}' "$1"
}
# same_long NAME REF ARGS...: same, every label of the dataset agreed
# by REF, and as many members as non-members (some).
same_long() {
	name=$1 ref=$2; shift 2
	same "$name" "$@"
	test -z "$($ref one.out | head -n 3)" ||
		fail "$name: labels the reference disputes: $($ref one.out | head -n 3)"
	m=$(cut -f2 one.out | grep -c '^1$' || true)
	k=$(wc -l < one.out)
	test "$m" -gt 0 && test "$((2 * m))" = "$k" ||
		fail "$name: $m members of $k words"
}
same_long two-words ref_d3 --seed=12 --sample=6000 --min-length=100 \
	--max-length=100 -f "$D3"
same_long three-words ref_d3 --seed=13 --sample=600 --min-length=129 \
	--max-length=131 -f "$D3"
same_long four-words ref_dyck --seed=14 --sample=400 --min-length=200 \
	--max-length=210 -f dyck1
