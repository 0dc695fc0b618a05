# tests/cli/layers.sh -- the layers of src/: a folder includes headers of
# its own folder and of the folders below it, never of one above.  The
# order, bottom first, is written here once; HACKING.md ("The map")
# draws the same picture, and this test checks that it lists the same
# folders in the same order.  It also shows that it can fail: a copy of
# src/ with one include running upward must be refused.
. "$top_srcdir/tests/lib.sh"

LAYERS="base core machine decide search gen transformer cli python mpi"

rank() {
	i=0
	for l in $LAYERS; do
		test "$l" = "$1" && { echo $i; return; }
		i=$((i + 1))
	done
	echo -1
}

# check_tree DIR: prints one line per upward include or stray file;
# returns non-zero when there is any.
check_tree() {
	bad=0
	for f in "$1"/*; do
		test -f "$f" || continue
		case $f in
		*.c|*.h) echo "layers: $f is not in a layer folder"; bad=1 ;;
		esac
	done
	for d in "$1"/*/; do
		d=${d%/}
		from=$(basename "$d")
		rf=$(rank "$from")
		if test "$rf" -lt 0; then
			echo "layers: folder src/$from is not in the order ($LAYERS)"
			bad=1
			continue
		fi
		for f in "$d"/*.c "$d"/*.h; do
			test -f "$f" || continue
			for inc in $(sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f"); do
				case $inc in
				*/*) to=${inc%%/*} ;;
				*.inc|*.def) continue ;; # generated text, logic/ops.def
				*) echo "layers: $f includes \"$inc\" without its folder"
				   bad=1; continue ;;
				esac
				rt=$(rank "$to")
				if test "$rt" -lt 0; then
					echo "layers: $f includes \"$inc\" from no layer"
					bad=1
				elif test "$rt" -gt "$rf"; then
					echo "layers: $f ($from) includes \"$inc\": $to is above $from"
					bad=1
				fi
			done
		done
	done
	return $bad
}

out=$(check_tree "$top_srcdir/src") || fail "upward includes:
$out"

# HACKING.md's map names the layers in the same order.
map=$(sed -n '/^## The map/,/^## /p' "$top_srcdir/HACKING.md" |
	sed -n 's/^| *`src\/\([a-z]*\)\/`.*/\1/p' | tr '\n' ' ')
test "$map" = "$LAYERS " ||
	fail "HACKING.md's map lists '$map', the layers are '$LAYERS'"
# ... and every folder of src/ is a layer.
dirs=$(cd "$top_srcdir/src" && ls -d */ | tr -d / | sort | tr '\n' ' ')
want=$(echo $LAYERS | tr ' ' '\n' | sort | tr '\n' ' ')
test "$dirs" = "$want" || fail "src/ has folders '$dirs', layers '$want'"

# The check can fail: one include running upward.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -R "$top_srcdir/src" "$tmp/src"
chmod -R u+w "$tmp/src"
printf '#include "cli/cli.h"\n' >> "$tmp/src/base/mem.c"
out=$(check_tree "$tmp/src") && fail "an upward include was not found"
case $out in
*'base/mem.c (base) includes "cli/cli.h": cli is above base'*) ;;
*) fail "unexpected report of the upward include: $out" ;;
esac
echo "layers: $LAYERS: every include runs down"
