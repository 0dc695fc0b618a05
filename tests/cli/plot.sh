# plot.sh -- the SVG plots of `tally hierarchy --plot` and `tally simulate
# --find-breakdown --plot` (issue 22): well-formed XML whose every cell,
# bar and "none" row agrees with the --json records of the same run
# (parsed here and read by rules written from the man pages, not from the
# plot code), user strings escaped, errors that leave no file behind;
# then headless Chromium renders them (a screenshot) and measures the
# layout: every text inside the viewBox and no two texts overlapping.
# Only the browser part is skipped (77) when Chromium is not installed.
. "$top_srcdir/tests/lib.sh"

PY=/usr/bin/python3
test -x "$PY" || PY=python3

# 1. The hierarchy: L_1..L_5 with JSON on stdout and the plot in a file.
run 0 "$TALLY" hierarchy --k=1..5 --no-time --quiet --json --plot=h.svg > h.json
test -s h.svg || fail "no plot"
run 0 "$TALLY" hierarchy --family=dk --k=1..2 --no-time --quiet --json \
	--plot=d.svg > d.json
# a partial table (a limit): the plot holds the finished rows and says so
run 4 "$TALLY" hierarchy --k=1..5 --max-signatures=200 --no-time --quiet \
	--json --plot=lim.svg > lim.json 2> lim.err
# the plot changes nothing of the text output
"$TALLY" hierarchy --k=1..3 --no-time --quiet > t1.txt
"$TALLY" hierarchy --k=1..3 --no-time --quiet --plot=t.svg > t2.txt
cmp -s t1.txt t2.txt || fail "--plot changed the text output"

cat > cells.py <<'EOF'
import json, sys
from xml.dom import minidom

def expected(part, d):
    """The state of depth d of a row, from its JSON record (tally-hierarchy(1))."""
    if part["verified"] and part["depth_found"] == d:
        ev = part["evidence"]
        return "found-" + {"proof": "proof", "bound": "bound"}.get(ev, "sample")
    for r in part["refuted"]:
        if r["depth"] == d:
            return "refuted-pair" if r["indistinguishable_pairs"] else "refuted-search"
    return "not-tried"

def rows(recs):
    for rec in recs:
        if rec.get("family") == "dk":
            yield rec["target"], "past", rec["past"]
            yield rec["target"], "two_sided", rec["two_sided"]
        else:
            yield rec["target"], "", rec

svg, js = sys.argv[1], sys.argv[2]
recs = [json.loads(l) for l in open(js)]
doc = minidom.parse(svg)
cells, least, theory, tips = {}, {}, {}, {}
for e in doc.getElementsByTagName("rect"):
    key = (e.getAttribute("data-row"), e.getAttribute("data-part"))
    if not e.hasAttribute("data-depth"):
        continue
    d = int(e.getAttribute("data-depth"))
    cls = e.getAttribute("class").split()
    if "least" in cls:
        least.setdefault(key, []).append(d)
    elif "theory" in cls:
        theory.setdefault(key, []).append(d)
    elif "theory-under" not in cls:
        assert (key, d) not in cells, ("two cells", key, d)
        cells[(key, d)] = e.getAttribute("data-state")
        t = e.getElementsByTagName("title")
        tips[(key, d)] = t[0].firstChild.data if t else ""
rows_ = list(rows(recs))
assert rows_, "no records"
D = 0
for _, _, p in rows_:
    D = max([D, len(p["refuted"]) - 1, p.get("theory_depth") or 0,
             p["depth_found"] if p["verified"] else 0])
want = {}
for name, part, p in rows_:
    for d in range(D + 1):
        want[((name, part), d)] = expected(p, d)
    key = (name, part)
    assert least.get(key, []) == ([p["depth_found"]] if p["verified"] else []), \
        ("least", key, least.get(key))
    th = p.get("theory_depth")
    assert theory.get(key, []) == ([th] if th is not None else []), ("theory", key)
    if p["verified"]:  # the formula, unescaped by the parser, in the tooltip
        tip = tips[(key, p["depth_found"])]
        assert tip.endswith(": " + p["formula"]), ("tooltip", tip)
bad = [(k, cells.get(k), v) for k, v in want.items() if cells.get(k) != v]
assert not bad and len(cells) == len(want), ("cells", bad[:5], len(cells), len(want))
print("%d rows, depths 0..%d, %d cells agree" % (len(rows_), D, len(cells)))
EOF
for p in h d lim; do
	"$PY" cells.py $p.svg $p.json > $p.cells 2> $p.err ||
		fail "$p.svg against $p.json: $(tail -3 $p.err)"
done
grep -q '^5 rows, depths 0..5, 30 cells agree$' h.cells || fail "h: $(cat h.cells)"
grep -q '^4 rows, ' d.cells || fail "d: $(cat d.cells)"
grep -q '^1 rows, ' lim.cells || fail "lim: $(cat lim.cells)"
grep -q 'partial table: a limit stopped it at k = 2' lim.svg ||
	fail "the partial plot does not say so"
# the L_k formulas contain >=: escaped in the file
grep -q '&gt;= 1' h.svg || fail "formulas not escaped"
grep -q '>= 1' h.svg && fail "a raw '>=' in the file"

# 2. The breakdown: majority in F_{10,4} breaks at 64 under rounded sums
# (tally-simulate(1)); bf16 and kneedeep agree up to 100.  The model's
# file name and formula (#[Q_b] < #[Q_a]) must be escaped.
model='m&<"x">.json'
"$TALLY" compile --precision=10,4 -f majority > "$model"
run 1 "$TALLY" simulate "$model" --semantics=rounded-sums,ieee=bf16,kneedeep \
	--find-breakdown --max-length 100 --json --plot=b.svg > b.json
cat > bars.py <<'EOF'
import json, sys
from xml.dom import minidom
recs = [json.loads(l) for l in open(sys.argv[2])]
doc = minidom.parse(sys.argv[1])
bands = [e for e in doc.getElementsByTagName("rect")
         if "band" in e.getAttribute("class").split()]
bars = {e.getAttribute("data-semantics"): e for e in doc.getElementsByTagName("rect")
        if "bar" in e.getAttribute("class").split() and e.hasAttribute("data-semantics")}
texts = [t.firstChild.data for t in doc.getElementsByTagName("text") if t.firstChild]
ticks = {t.firstChild.data: float(t.getAttribute("x"))
         for t in doc.getElementsByTagName("text")
         if t.firstChild and t.firstChild.data.isdigit()}
assert [b.getAttribute("data-semantics") for b in bands] == \
    [r["semantics"] for r in recs], "one row per record, in order"
for b, r in zip(bands, recs):
    assert b.getAttribute("data-result") == r["result"], (r["semantics"], r["result"])
    if r["result"] == "found":
        bar = bars[r["semantics"]]
        assert int(bar.getAttribute("data-length")) == r["length"]
        # a power of two ends on its tick
        end = float(bar.getAttribute("x")) + float(bar.getAttribute("width"))
        if str(r["length"]) in ticks:
            assert abs(end - ticks[str(r["length"])]) < 0.2, (end, ticks)
        assert any(t.startswith("%d: %s" % (r["length"], r["word"])) for t in texts)
    else:  # said, not drawn
        assert r["semantics"] not in bars, ("a bar for", r["semantics"])
        n = r["agrees_up_to"]
        assert any(t.startswith("none up to length %d" % n) for t in texts), n
heading = " ".join(texts[:6])
assert 'm&<"x">.json' in heading and "#[Q_b] < #[Q_a]" in heading, heading
print(" ".join("%s:%s" % (r["semantics"], r.get("length", r["result"])) for r in recs))
EOF
"$PY" bars.py b.svg b.json > b.bars 2> b.err || fail "b.svg: $(tail -3 b.err)"
test "$(cat b.bars)" = "rounded-sums:64 ieee=bf16:none kneedeep:none" ||
	fail "breakdown records: $(cat b.bars)"
grep -q 'm&amp;&lt;&quot;x&quot;&gt;.json' b.svg || fail "file name not escaped"

# 3. Errors: a usage error and an unwritable path (exit 2, no file left,
# before any work); a path that is a directory fails at the rename and
# leaves no temporary file.
try 2 "$TALLY" hierarchy --k=1 --plot=no/such/dir/h.svg
err_has "cannot write the plot 'no/such/dir/h.svg'"
try 2 "$TALLY" hierarchy --k=1 --plot=
try 2 "$TALLY" simulate "$model" -w ab --plot=x.svg
err_has "--find-breakdown"
try 2 "$TALLY" simulate "$model" -w ab --semantics=kneedeep,rounded-sums
mkdir adir
try 2 "$TALLY" hierarchy --k=1 --no-time --quiet --plot=adir
err_has "cannot write the plot 'adir'"
try 2 "$TALLY" simulate "$model" --find-breakdown --max-length 4 --plot=adir
test -z "$(ls -d adir.* 2> /dev/null)" || fail "temporary files left: $(ls -d adir.*)"
test ! -e x.svg || fail "a plot from a usage error"

# 4. The browser: a screenshot of each plot, and the layout it measures.
chromium_find
if [ -z "$browser" ]; then
	echo "plot.sh: XML and JSON checks passed; no Chromium, rendering skipped"
	exit 77
fi
CHROME_SIZE=1000,700
printf '<!DOCTYPE html><html><body></body></html>\n' > blank.html
chrome --screenshot="$PWD/blank.png" "file://$PWD/blank.html" > /dev/null ||
	fail "chromium failed on a blank page"
for p in h b; do
	chrome --screenshot="$PWD/$p.png" "file://$PWD/$p.svg" > /dev/null ||
		fail "chromium failed: $(tail -3 chrome.err)"
	test "$(od -A n -t x1 -N 8 $p.png | tr -d ' \n')" = 89504e470d0a1a0a ||
		fail "$p: the screenshot is not a PNG"
	test "$(wc -c < $p.png)" -gt "$(($(wc -c < blank.png) * 4))" ||
		fail "$p.svg renders like an empty page"
done

# The layout: the SVG inline in a page with a script that measures every
# text (getBBox, in user units) against the viewBox and the others.
for p in h d b; do
	{
		printf '<!DOCTYPE html><html><body style="margin:0">\n'
		sed '1{/^<?xml/d}' $p.svg
		cat <<'EOF'
<script>
(function () {
  var svg = document.querySelector('svg'), vb = svg.viewBox.baseVal;
  var t = svg.querySelectorAll('text'), boxes = [], out = 0, over = [];
  for (var i = 0; i < t.length; i++) {
    var b = t[i].getBBox();
    boxes.push(b);
    if (b.width <= 0 || b.x < -0.5 || b.y < -0.5 || b.x + b.width > vb.width + 0.5 ||
        b.y + b.height > vb.height + 0.5)
      out++;
  }
  for (var i = 0; i < boxes.length; i++)
    for (var j = i + 1; j < boxes.length; j++) {
      var a = boxes[i], c = boxes[j];
      var w = Math.min(a.x + a.width, c.x + c.width) - Math.max(a.x, c.x);
      var h = Math.min(a.y + a.height, c.y + c.height) - Math.max(a.y, c.y);
      if (w > 0.5 && h > 1.5)  /* lines 17 units apart may touch by a pixel */
        over.push(t[i].textContent + ' / ' + t[j].textContent);
    }
  var p = document.createElement('pre');
  p.textContent = 'RESULT texts=' + t.length + ' outside=' + out +
    ' overlaps=' + over.length + ' ' + over.slice(0, 3).join(' | ') + ' END';
  document.body.appendChild(p);
})();
</script>
</body></html>
EOF
	} > $p.html
	chrome --dump-dom "file://$PWD/$p.html" > $p.dom ||
		fail "chromium failed: $(tail -3 chrome.err)"
	got=$(sed -n 's/.*<pre>RESULT \(.*\) END<\/pre>.*/\1/p' $p.dom)
	case $got in
	"texts="*" outside=0 overlaps=0 ") ;;
	*) fail "$p.svg as rendered: [$got]" ;;
	esac
	n=${got#texts=}
	test "${n%% *}" -gt 20 || fail "$p.svg: only [$got]"
done
echo "plot.sh: ok ($(cat h.cells); $(cat b.bars))"
