# cr_html.sh -- `tally eval --trace --html` checked in a real browser
# (issue 11): one self-contained page; headless Chromium renders it (a
# screenshot) and, on a copy with a checking script appended, reports the
# layout: the overall verdict above the first table, one table per word
# with a row per definition and a column per position, every true cell
# coloured alike and no false cell so.  Skipped (77) only when Chromium is
# not installed.  Expected figures derived by hand (below).
. "$top_srcdir/tests/lib.sh"

chromium_find
if [ -z "$browser" ]; then
	echo "cr_html.sh: no Chromium, skipped"
	exit 77
fi

# Written for this test: accept iff some b follows an a.
cat > ab.cr <<'EOF'
#import pred
prev_a = (#[pred] "a") == 1
ab = "b" && prev_a
n = #ab
L = n >= 1
EOF
run 1 "$TALLY" eval --trace --html -P ab.cr --tokens -w "a b" -w "b a b" -w "b" > trace.html
run 2 "$TALLY" eval --html -P ab.cr -w "a b"

# one self-contained page: no scripts, nothing loaded from elsewhere
test "$(grep -c '<!DOCTYPE html>' trace.html)" = 1 || fail "not one page"
grep -q -i -e '<script' -e 'src=' -e 'href=' -e '@import' trace.html &&
	fail "the page loads or runs something"
grep -q '<h1 class="verdict reject" id="verdict">reject: 2 of 3 words accepted</h1>' trace.html ||
	fail "overall verdict: $(grep '<h1' trace.html)"

# 1. The screenshot: a 900x700 PNG, and more than an empty page gives.
chrome --screenshot="$PWD/shot.png" "file://$PWD/trace.html" > /dev/null ||
	fail "chromium failed: $(tail -3 chrome.err)"
test -s shot.png || fail "no screenshot"
test "$(od -A n -t x1 -N 8 shot.png | tr -d ' \n')" = 89504e470d0a1a0a ||
	fail "the screenshot is not a PNG"
# IHDR: width and height, big-endian, at bytes 16..23
test "$(od -A n -t x1 -j 16 -N 8 shot.png | tr -d ' \n')" = 00000384000002bc ||
	fail "screenshot size: $(od -A n -t x1 -j 16 -N 8 shot.png)"
printf '<!DOCTYPE html><html><body></body></html>\n' > blank.html
chrome --screenshot="$PWD/blank.png" "file://$PWD/blank.html" > /dev/null ||
	fail "chromium failed on a blank page"
test "$(wc -c < shot.png)" -gt "$(($(wc -c < blank.png) * 4))" ||
	fail "the trace renders like an empty page"

# 2. The rendered layout, measured by the browser on a copy with a script.
sed -e 's|</body>||' -e 's|</html>||' trace.html > check.html
cat >> check.html <<'EOF'
<script>
(function () {
  var out = [], tables = document.getElementsByTagName('table');
  var h1 = document.getElementById('verdict');
  out.push('top=' + (tables.length > 0 &&
    h1.getBoundingClientRect().bottom <= tables[0].getBoundingClientRect().top));
  var t = document.querySelectorAll('td.t'), f = document.querySelectorAll('td.f');
  var colour = t.length ? getComputedStyle(t[0]).backgroundColor : 'none';
  var marked = t.length > 0;
  for (var i = 0; i < t.length; i++)
    marked = marked && getComputedStyle(t[i]).backgroundColor === colour &&
      t[i].getBoundingClientRect().width > 0 && t[i].textContent.indexOf('\u2713') >= 0;
  for (var j = 0; j < f.length; j++)
    marked = marked && getComputedStyle(f[j]).backgroundColor !== colour;
  out.push('true=' + t.length, 'false=' + f.length, 'marked=' + marked);
  var shape = [];
  for (var k = 0; k < tables.length; k++)
    shape.push(tables[k].rows.length + 'x' + tables[k].rows[0].cells.length);
  out.push('tables=' + shape.join(','));
  var p = document.createElement('pre');
  p.textContent = 'RESULT ' + out.join(' ') + ' END';
  document.body.appendChild(p);
})();
</script>
</body></html>
EOF
chrome --dump-dom "file://$PWD/check.html" > dom.txt ||
	fail "chromium failed: $(tail -3 chrome.err)"
# By hand: rows position, letter, prev_a, ab, n, L (6); columns 1 + the
# length (3, 4, 2).  True: prev_a, ab and L at the last position of "a b"
# and of "b a b" (6).  Boolean cells: 3 rows x 6 positions = 18, so 12
# false.
got=$(sed -n 's/.*<pre>RESULT \(.*\) END<\/pre>.*/\1/p' dom.txt)
test "$got" = "top=true true=6 false=12 marked=true tables=6x3,6x4,6x2" ||
	fail "rendered page: [$got]"
echo "cr_html.sh: ok"
