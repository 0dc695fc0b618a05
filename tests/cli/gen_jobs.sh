# gen_jobs.sh -- tally gen --jobs: the words are labelled and formatted
# on threads, then written in order, so 1, 2 and 3 threads give the same
# bytes (the dataset and the --report file) for the same seed: word,
# position and prediction labels, TSV, JSONL and .cr, splits, a family's
# membership check, rejection sampling (no state graph), a dataset
# larger than one chunk of words, and sequence outputs (the values at
# every position and their distribution in the report): a count-valued
# family checked by its value function, a count-valued formula, a
# per-position Boolean program.
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
