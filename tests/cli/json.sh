# tests/cli/json.sh -- the JSON OUTPUT rules of tally(1), checked on the
# --json output of every command that takes it: one object per line, each
# with tally_version and the command's name; input and source on the
# records of batches; equiv/check: verdict, outcome, bound as a number,
# witness for sat and counterexample otherwise.  The validator is a small
# Python program of its own (not tally's code).
. "$top_srcdir/tests/lib.sh"
T=$TALLY
command -v python3 > /dev/null || { echo "no python3: skipped"; exit 77; }

cat > validate.py <<'PY'
import json, sys
command, rules = sys.argv[1], sys.argv[2:]
lines = [l for l in sys.stdin.read().split("\n") if l.strip()]
if not lines:
    sys.exit("no output")
for n, line in enumerate(lines, 1):
    try:
        o = json.loads(line)
    except ValueError as e:
        sys.exit("line %d is not JSON: %s: %.200s" % (n, e, line))
    if not isinstance(o, dict):
        sys.exit("line %d is not an object" % n)
    if not isinstance(o.get("tally_version"), str):
        sys.exit("line %d: no tally_version" % n)
    if not str(o.get("command", "")).startswith(command):
        sys.exit("line %d: command %r, wanted %r" % (n, o.get("command"), command))
    if "records" in rules and "records" not in o:
        if not (isinstance(o.get("input"), int) and o["input"] == n):
            sys.exit("line %d: input %r, wanted %d" % (n, o.get("input"), n))
        if not isinstance(o.get("source"), str):
            sys.exit("line %d: no source" % n)
    if "verdict" in rules and "verdict" in o:
        oc = o.get("outcome")
        if oc not in ("proved", "refuted", "bounded", "unknown"):
            sys.exit("line %d: outcome %r" % (n, oc))
        if oc == "bounded" and not isinstance(o.get("bound"), int):
            sys.exit("line %d: bounded without a numeric bound" % n)
        # The outcome is the question's: proved exactly when the exit
        # status is 0; a satisfiable formula is proved by its witness.
        sat = o["command"] == "check --sat"
        if (oc == "proved") if sat else (oc == "refuted"):
            key, other = ("witness", "counterexample") if sat else ("counterexample", "witness")
            w = o.get(key)
            if not isinstance(w, dict) or not isinstance(w.get("word"), str):
                sys.exit("line %d: no %s" % (n, key))
            if other in o:
                sys.exit("line %d: %s where %s belongs" % (n, other, key))
print("ok %d objects" % len(lines))
PY
v() { python3 validate.py "$@"; }

"$T" info --json -f majority | v info || fail "info"
printf 'majority\nL_3\n' > many.tl
"$T" info --json --batch=many.tl | v info records || fail "info --batch"
"$T" print --json -f L_2 | v print || fail "print --json"
"$T" print --to=json --batch=many.tl | v print records || fail "print --batch"
"$T" eval --json -f majority -w aab -w b | v eval || fail "eval"
"$T" lang --json -f majority -n 3 | v lang || fail "lang"
"$T" lang --json --count -f majority -n 3 | v lang || fail "lang --count"
for args in "-f L_2 -f L_3" "-f majority -f majority" \
	"--method=explore --max-length=3 -f L_2 -f L_2&true"; do
	# shellcheck disable=SC2086
	"$T" equiv --json $args | v equiv verdict || fail "equiv $args"
done
"$T" check --sat --json -f '!Q_a' | v "check --sat" verdict || fail "check --sat"
"$T" check --sat --json -f 'Q_a & !Q_a' | v "check --sat" verdict || fail "unsat"
"$T" check --valid --json -f majority | v "check --valid" verdict || fail "check --valid"
"$T" check --sat --json --batch=many.tl | v "check --sat" verdict records ||
	fail "check --batch"
printf 'L_2\tL_3\tab\tnot-equivalent\tab\n' > p.tsv
"$T" equiv --json --pairs=p.tsv | head -n 1 | v equiv verdict records ||
	fail "equiv --pairs"
"$T" enum --json --alphabet=a --size=..3 2> /dev/null | v enum || fail "enum"

# Batch records: numbered in order, a broken one reported in its place,
# the others go on, exit 2.
printf 'majority\n#[Q_a\nL_3\n' > broken.tl
status=0
"$T" info --batch=broken.tl > out.txt 2> err.txt || status=$?
test "$status" = 2 || fail "broken batch: exit $status"
grep -q 'broken.tl:2:' err.txt || fail "broken batch: $(cat err.txt)"
test "$(grep -c '^depth:' out.txt)" = 2 || fail "broken batch: $(cat out.txt)"
# Blocks between ';;' lines, with definitions over several lines.
printf 'let X = #[Q_a] > 0;\nX & Q_b\n;;\nL_2\n' > blocks.tl
"$T" info --json --batch=blocks.tl > out.json
test "$(grep -c . out.json)" = 2 || fail "blocks: $(cat out.json)"
grep -q '"source":"blocks.tl:4"' out.json || fail "blocks source: $(cat out.json)"
# check --batch: one line per record.
"$T" check --sat --batch=many.tl > out.txt || true
grep -q '^1	satisfiable	witness: ' out.txt || fail "check --batch: $(cat out.txt)"
grep -q '^2	satisfiable	witness: ' out.txt || fail "check --batch: $(cat out.txt)"
# simulate: one object per word, its verdict as tally eval's.
"$T" compile -f majority > m.json
"$T" simulate -m m.json --json -w aab -w b | v simulate > /dev/null || fail "simulate"
"$T" simulate -m m.json --json -w aab -w b > out.json || true
grep -q '"word":"aab","accepted":true' out.json || fail "simulate aab: $(cat out.json)"
grep -q '"word":"b","accepted":false' out.json || fail "simulate b: $(cat out.json)"
# simulate --check-against-formula --json: one record per check; a
# disagreement's word is one the formula decides the other way (eval).
"$T" simulate -m m.json --check-against-formula --max-length=5 --json > out.json
v simulate < out.json || fail "simulate check --json"
grep -q '"result":"agreement","compared":63' out.json || fail "check record: $(cat out.json)"
"$T" compile -f majority --precision=4,1 > m41.json
status=0
"$T" simulate -m m41.json --check-against-formula --max-length=10 \
	--semantics=rounded-sums --json > out.json || status=$?
test "$status" = 1 || fail "disagreement: exit $status"
python3 -c '
import json, sys
o = json.loads(open("out.json").read())
assert o["result"] == "disagreement" and o["length"] == len(o["word"]), o
print(o["word"], "accept" if not o["transformer_accepts"] else "reject")
' > want.txt || fail "disagreement record: $(cat out.json)"
read -r word verdict < want.txt
test "$("$T" eval -f majority -w "$word" | cut -f2)" = "$verdict" ||
	fail "the disagreement $word is not one: $(cat out.json)"
# gen --list --json: results; the dataset's JSONL records are a file
# format of their own (tally-gen(1)), checked there.
"$T" gen --list --json | v gen || fail "gen --list --json"
# gen's formulas and prelude names, compile's report, translate, search
# and hierarchy: every command that prints results.
"$T" gen --family=lk --k=1..3 --json > out.json
v gen < out.json || fail "gen --family --json"
test "$(grep -c '"family":"lk"' out.json)" = 3 || fail "gen lk: $(cat out.json)"
grep -q '"k":2' out.json || fail "gen lk k: $(cat out.json)"
"$T" gen --family=dyck1 --json | v gen || fail "gen --family=dyck1 --json"
"$T" gen --prelude --json | v gen || fail "gen --prelude --json"
"$T" compile -f majority --report --json > out.json
v compile < out.json || fail "compile --report --json"
grep -q '"all_lengths":true' out.json || fail "compile report: $(cat out.json)"
grep -q '"input":1,"source":"-f"' out.json || fail "compile report input: $(cat out.json)"
"$T" compile -f dyck1 --report --json --semantics=ieee=bf16 > out.json
grep -q '"exact_up_to_length":[0-9]' out.json || fail "compile bf16: $(cat out.json)"
"$T" translate -f majority --json | v translate || fail "translate --json"
"$T" search --separate=1 --alphabet=ab --max-formulas=2 --json --quiet |
	v search || fail "search --json"
"$T" hierarchy --k=1..2 --json --quiet | v hierarchy || fail "hierarchy --json"
