# python.sh -- the Python package (src/python/) under pytest: the suite of
# tests/python/ (golden examples through the package and the CLI, a
# Hypothesis property of evaluation, errors, Ctrl-C, datasets).
# The Python: $TALLY_PYTHON, else the first of /usr/bin/python3 and
# python3 that imports numpy, pytest and hypothesis (a pyenv shim on PATH
# may lack them); none skips (77), except under CI (scripts/bootstrap
# installs them), where a missing one fails.  A build without the
# extension (no python3 headers) skips; so does a sanitizer build: an
# ASan library cannot be loaded into an uninstrumented python3.
. "$top_srcdir/tests/lib.sh"

test -z "${TALLY_SANITIZED:-}" || { echo "python.sh: sanitizer build, skipped"; exit 77; }
ext=$(dirname "$TALLY")/python/_tally.so
test -f "$ext" || { echo "python.sh: no $ext (configure found no python3 headers), skipped"; exit 77; }
py=$(for p in ${TALLY_PYTHON:-} /usr/bin/python3 python3; do
	"$p" -c 'import numpy, pytest, hypothesis' 2> /dev/null &&
		{ echo "$p"; break; }
done) || true
if test -z "$py"; then
	test -z "${CI:-}" || fail "CI: no python3 with numpy, pytest and hypothesis"
	echo "python.sh: no python3 with numpy, pytest and hypothesis, skipped"
	exit 77
fi
PYTHONPATH=$(dirname "$ext"):$top_srcdir/src/python:$top_srcdir/contrib
export PYTHONPATH TALLY top_srcdir
"$py" -m pytest -q -p no:cacheprovider "$top_srcdir/tests/python" ||
	fail "pytest: see above"
