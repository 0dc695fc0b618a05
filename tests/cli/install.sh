# install.sh -- `make install` puts the man pages where man finds them and
# the bash completion where configure said; `man tally` then works.
. "$top_srcdir/tests/lib.sh"
builddir=$(cd "$(dirname "$TALLY")/.." && pwd)
dest=$PWD/dest
${MAKE:-make} -s -C "$builddir" install DESTDIR="$dest" > install.log 2>&1 ||
	{ cat install.log; fail "make install failed"; }
mandir=$(find "$dest" -type d -name man1 | head -1)
test -n "$mandir" || fail "no man1 directory installed"
for page in "$top_srcdir"/man/*.[1-9]; do
	name=$(basename "$page")
	sec=${name##*.}
	test -f "$mandir/../man$sec/$name" || fail "$name not installed"
done
find "$dest" -path '*/bash-completion/completions/tally' | grep -q . ||
	fail "bash completion not installed"
test -x "$(find "$dest" -path '*/bin/tally' | head -1)" || fail "no tally"
# The Python package (when built): where Debian's python3 looks
# (dist-packages under the prefix), importable from there alone.
if test -f "$builddir/src/python/_tally.so" && test -z "${TALLY_SANITIZED:-}"; then
	pkg=$(find "$dest" -path '*/tally/__init__.py' | head -1)
	test -n "$pkg" || fail "the Python package not installed"
	site=$(dirname "$(dirname "$pkg")")
	test -f "$site/_tally.so" || fail "_tally.so not beside the package"
	test -f "$site/tally/tally_torch.py" || fail "tally_torch.py not installed"
	if /usr/bin/python3 -c 'import sys; sys.exit(not any(p.endswith("/dist-packages") for p in sys.path))' 2> /dev/null; then
		case $site in */dist-packages) ;; *) fail "installed in $site, not dist-packages" ;; esac
	fi
	got=$(cd / && PYTHONPATH=$site /usr/bin/python3 -c "import tally; print(tally.parse('dyck1').depth, tally.__file__.startswith('$site'))" 2>&1) ||
		true
	case $got in *"No module named 'numpy'"*) ;; "2 True") ;;
	*) fail "import of the installed package: $got" ;; esac
fi
if command -v man > /dev/null 2>&1; then
	MANPATH=$(dirname "$mandir") MANWIDTH=80 man tally > man.txt 2> man.err ||
		{ cat man.err; fail "man tally failed"; }
	grep -q 'EXIT STATUS' man.txt || fail "man tally: $(head -3 man.txt)"
	MANPATH=$(dirname "$mandir") man 1 tally-gen > /dev/null 2>&1 ||
		fail "man tally-gen failed"
else
	echo "install.sh: man not found, only the files checked"
fi
