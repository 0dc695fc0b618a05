# tests/cli/schema.sh -- every JSON record tally writes validates against
# the published schemas of logic/schema/ (draft 2020-12), with a real
# validator (python3-jsonschema): the records of the golden corpus's
# expected outputs (every command's --json), datasets and reports of
# gen, and a compiled model.  Skipped (77) without python3-jsonschema.
. "$top_srcdir/tests/lib.sh"
T=$TALLY
py=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import jsonschema' 2> /dev/null; then py=$p; break; fi
done
test -n "$py" || { echo "schema.sh: no python3-jsonschema; skipped"; exit 77; }

# Fresh records beside the corpus's: a dataset with every field, its
# report, a compiled model, equiv --pairs with an error record.
"$T" gen -f L_3 --sample=40 --split=train:1..8,test:9..12 \
	--labels=position --format=jsonl --report=report.json -q > data.jsonl
"$T" gen -f "#['ab'] >= 1" --alphabet=ab,c --max-length=4 --sample=10 \
	--format=jsonl -q >> data.jsonl
# sequence outputs: a count-valued dataset and its report, Boolean
# per-position labels
"$T" gen --family=margin --sample=20 --max-length=6 --format=jsonl \
	--report=report-seq.json -q >> data.jsonl
"$T" gen -f current_leads --labels=sequence --sample=10 --min-length=1 \
	--max-length=6 --format=jsonl -q >> data.jsonl
"$T" compile -f dyck1 > model.json
printf 'Q_a\t#>[Q_a] >= 1\nQ_a\tQ_b\tab\tnot-equivalent\n' > p.tsv
"$T" equiv --pairs=p.tsv --method=chc --json > pairs.json 2> /dev/null || true
"$T" check --sat --json -f 'Q_a' > sat.json
"$T" check --sat --json -f 'Q_a & !Q_a' >> sat.json || true
# sequence outputs (logic/README.md §2.7)
"$T" eval --json -f histogram -w abb > seq.json
"$T" eval --json -f '#[Q_a]*10000000000000000000' -w aa >> seq.json
"$T" eval --json --per-position -f histogram -f majority -w ab >> seq.json || true
"$T" eval --json --per-position -f margin -w ab >> seq.json
# equiv and check of sequences: the first position and the values there
"$T" equiv --json -f '#>[Q_a]' -f 'min(#>[Q_a], 2)' --alphabet=ab >> seq.json || true
"$T" check --json --bounded=2 -f margin >> seq.json || true
"$T" check --json --per-position --sat -f '#>[Q_a] >= 2' >> seq.json
"$T" info --json -f histogram >> seq.json
# a count-valued target searched directly, and enumerated terms
"$T" search --json --quiet -f '(Q_a ? #[Q_a] : 0) + (Q_b ? #[Q_b] : 0)' >> seq.json
"$T" search --json --quiet -f '#[Q_a] + 5' >> seq.json || true
"$T" search --json --family=reverse >> seq.json || true
"$T" search --json --family=copy >> seq.json || true
"$T" enum --terms --json --depth=1 --size=..6 --max-formulas=3 --quiet >> seq.json
# models with sequence outputs (tally-compile(1)), their values
"$T" compile -f histogram --readout=class:3 >> seq.json
"$T" compile -f margin --readout=ratio > ratio.json
"$T" simulate ratio.json --json -w abb >> seq.json
# the two-sided table: a searched row (D_2) and a built one (D_3)
"$T" hierarchy --family=dk --k=2..3 --search-depth=4 --json --quiet \
	--decide-length=0 > dk.json
"$T" compile -f current_leads --per-position |
	"$T" simulate --json -w abb >> seq.json || true
sed 's/"bias":"0","readout":"ratio"/"bias":"1","readout":"ratio"/' ratio.json |
	"$T" simulate --json --check-against-formula --max-length 1 >> seq.json ||
	true

cat > validate.py <<'PY'
import json, os, sys, warnings
import jsonschema

# RefResolver is what Debian's jsonschema 4.10 offers; newer ones warn.
warnings.simplefilter("ignore", DeprecationWarning)

schema_dir, files = sys.argv[1], sys.argv[2:]
schemas = {}
for name in os.listdir(schema_dir):
    if name.endswith(".schema.json"):
        with open(os.path.join(schema_dir, name)) as f:
            schemas[name[:-len(".schema.json")]] = json.load(f)
V = jsonschema.Draft202012Validator
for name, s in schemas.items():
    V.check_schema(s)
store = {s["$id"]: s for s in schemas.values()}

def validator(name):
    s = schemas[name]
    return V(s, resolver=jsonschema.RefResolver(s["$id"], s, store=store))

validators = {name: validator(name) for name in schemas if name != "common"}

def kind(o):
    if "command" in o:
        return o["command"].split()[0]
    if "components" in o and "format" in o:
        return "model"
    if "word" in o and "label" in o:
        return "gen-record"
    return None

seen, bad = {}, 0
for path in files:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    docs = []
    if text.lstrip().startswith("{") and "\n{" not in text.strip():
        try:
            docs = [json.loads(text)]
        except ValueError:
            docs = []
    if not docs:
        for line in text.split("\n"):
            if line.startswith("{"):
                try:
                    docs.append(json.loads(line))
                except ValueError:
                    pass
    for o in docs:
        k = kind(o)
        if k is None or k not in validators:
            print("%s: a record no schema describes: %.150s" % (path, json.dumps(o)))
            bad += 1
            continue
        errors = list(validators[k].iter_errors(o))
        seen[k] = seen.get(k, 0) + 1
        for e in errors[:3]:
            print("%s: %s record: %s at %s: %.150s" % (path, k, e.message[:200],
                  "/".join(map(str, e.absolute_path)), json.dumps(o)))
        bad += bool(errors)
print("validated: " + ", ".join("%s %d" % kv for kv in sorted(seen.items())))
missing = sorted(set(validators) - set(seen))
if missing:
    print("no record validated against: " + ", ".join(missing))
    bad += 1
sys.exit(1 if bad else 0)
PY
# The corpus's outputs, without the command line and markers.
for f in "$top_srcdir"/tests/golden/expected/*; do
	sed -n '/^--- stdout$/,/^--- stderr$/p' "$f" > "golden.$(basename "$f")"
done
"$py" validate.py "$top_srcdir/logic/schema" data.jsonl report.json \
	report-seq.json \
	model.json pairs.json sat.json seq.json dk.json golden.* > report.txt ||
	fail "records that do not validate:
$(head -40 report.txt)"
cat report.txt

# The check can fail: a record with the alphabet as a string (as gen
# --list --json once wrote it), an eval record with a verdict string
# instead of "accepted", a dataset record with a word as a list, one
# with a Boolean among the values of a count-valued sequence, a
# sequence counterexample whose value is not an exact integer.
cat > wrong.jsonl <<'J'
{"tally_version":"0.1.0","command":"gen","family":"lk","alphabet":"ab","k_min":1,"definition":"d","reference":"r"}
{"tally_version":"0.1.0","command":"eval","word":"ab","length":2,"alphabet":["a","b"],"accept_at":"last","verdict":"accept"}
{"word": ["é"], "label": 1, "length": 1}
{"word": "ab", "label": 1, "length": 2, "values": [1, true]}
{"tally_version":"0.1.0","command":"check --nonneg","per_position":true,"alphabet":["a","b"],"accept_at":"last","verdict":"not valid","outcome":"refuted","method":"presburger","method_line":"presburger","states":0,"counterexample":{"word":"b","length":1,"position":1,"at_position":[{"input":"input","value":-1.5}]}}
J
for n in 1 2 3 4 5; do
	sed -n "${n}p" wrong.jsonl > wrong1.jsonl
	! "$py" validate.py "$top_srcdir/logic/schema" wrong1.jsonl > /dev/null ||
		fail "a wrong record validates: $(cat wrong1.jsonl)"
done
