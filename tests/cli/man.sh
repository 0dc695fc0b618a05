# tests/cli/man.sh -- the man pages cannot drift from the program:
#  1. every command listed by `tally --help` has a page man/tally-COMMAND.1
#     (translate shares tally-print.1); every long option of
#     `tally COMMAND --list-options` (its option table) appears in that
#     page (`tally --help` in tally.1), and every option a page documents in its OPTIONS section
#     (the tag line of each .TP) is printed by the command's --help (for
#     tally.1: by some command's --help; --help itself is everywhere);
#     tally-logic.7 lists every spelling of logic/ops.def;
#  2. every page lints cleanly with `groff -man -ww -z` (skipped, with a
#     message, when groff is missing);
#  3. every example of every page runs with exit status 0 or 1 and, when
#     the page shows its output, prints exactly that.  An example is a
#     line of an .EX/.EE (or .nf/.fi) block of the EXAMPLES section whose
#     first word is `tally` or that pipes into `| tally `; the lines after
#     it in the same block, up to the next example, are its expected
#     output (stdout and stderr; trailing empty lines ignored).  A block
#     with no example line whose preceding text ends in "prints" (or
#     "prints:") is the output of the example before it, wherever the
#     page places it; a block of `tally> ` lines is a REPL session, whose
#     inputs are replayed through `tally repl --echo` and must print the
#     block.  A block of output after an example whose output is already
#     shown is an error (which one would be checked?).  Examples run in
#     one scratch directory, in page order, so a later example may read a
#     file an earlier one wrote.  Example lines may use only the roff
#     escapes \- \(aq \(dq \e \& (undone here).
. "$top_srcdir/tests/lib.sh"
man=$top_srcdir/man

# A page's text with the roff escapes of option names and examples undone.
plain() {
	sed -e 's/\\-/-/g' -e "s/\\\\(aq/'/g" -e 's/\\(dq/"/g' \
		-e 's/\\&//g' -e 's/\\e/\\/g' "$1"
}

# The long options documented in a page's OPTIONS section: the tag lines
# (the line after .TP).
page_options() {
	plain "$1" | awk '
		/^\.SH/ { opts = ($0 ~ /^\.SH +"?OPTIONS/); next }
		opts && /^\.TP/ { tag = 1; next }
		opts && tag { print; tag = 0 }' |
		grep -o -e '--[a-z][a-z0-9-]*' | sort -u
}

# check_options PAGE HELP-COMMAND...: every option of the help text is in
# the page, and the page's OPTIONS are in the help text (for tally.1, in
# all.txt, every command's help).
check_options() {
	page=$1; shift
	"$@" --help > help.txt || fail "$* --help exited non-zero"
	test -s help.txt || fail "$* --help printed nothing"
	test -f "$page" || fail "no man page $page for '$*'"
	cat help.txt >> all.txt
	plain "$page" > page.txt
	# a command's option table; tally.1: the options tally --help names
	if test $# -gt 1; then
		"$@" --list-options > table.txt || fail "$* --list-options failed"
		cut -d' ' -f1 table.txt | sed 's/=$//' > listed.txt
	else
		grep -o -e '--[a-z][a-z0-9-]*' help.txt | sort -u > listed.txt
	fi
	for opt in $(cat listed.txt); do
		grep -q -E -e "$opt([^a-z0-9-]|\$)" page.txt ||
			fail "$(basename "$page") lacks $opt (from '$* --help')"
	done
	case $page in */tally.1) return ;; esac
	for opt in $(page_options "$page"); do
		test "$opt" = --help && continue # every command has it
		grep -q -E -e "$opt([^a-z0-9-]|\$)" help.txt ||
			fail "$(basename "$page") documents $opt, '$* --help' does not"
	done
}

: > all.txt
check_options "$man/tally.1" "$TALLY"
commands=$("$TALLY" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p')
test -n "$commands" || fail "tally --help lists no commands"
for cmd in $commands; do
	case $cmd in
	translate) page=print ;;
	*) page=$cmd ;;
	esac
	check_options "$man/tally-$page.1" "$TALLY" "$cmd"
done
for opt in $(page_options "$man/tally.1"); do
	grep -q -E -e "$opt([^a-z0-9-]|\$)" all.txt ||
		fail "tally.1 documents $opt, which no command's --help prints"
done

# tally.1 describes every command once: the tags of its COMMANDS section
# (the line after each .TP) name exactly the commands of tally --help.
plain "$man/tally.1" | awk '
	/^\.SH/ { cmds = ($0 ~ /^\.SH +"?COMMANDS/); next }
	cmds && /^\.TP/ { tag = 1; next }
	cmds && tag { sub(/^\.BR? /, ""); gsub(/[",]/, " "); print; tag = 0 }' |
	tr ' ' '\n' | sed '/^$/d' | sort > page-commands.txt
printf '%s\n' $commands | sort > help-commands.txt
cmp -s page-commands.txt help-commands.txt || {
	diff page-commands.txt help-commands.txt || true
	fail "tally.1 COMMANDS does not list each command of tally --help once"
}

if command -v groff > /dev/null 2>&1; then
	for page in "$man"/*.[1-9]; do
		groff -man -ww -z "$page" > lint.txt 2>&1 ||
			fail "groff failed on $page"
		test ! -s lint.txt || { cat lint.txt; fail "groff warns on $page"; }
	done
else
	echo "man.sh: groff not found, lint skipped"
fi

# An alternating font macro (.BR, .IR, ...) glues its arguments together
# with no space, so prose left on its line renders as "G):thesame,for";
# an unquoted line whose arguments after the second hold three or more
# plain words is such a line.
for page in "$man"/*.[1-9]; do
	awk -v page="$page" '
		/^\.(BR|RB|IR|RI|BI|IB) / && !/"/ {
			words = 0
			for (i = 4; i <= NF; i++)
				if ($i ~ /^[a-z][a-z][a-z]+[,.;:]?$/)
					words++
			if (words >= 3)
				printf "%s:%d: prose on a font macro line: %s\n",
				       page, NR, $0
		}' "$page"
done > glued.txt
test ! -s glued.txt || { cat glued.txt; fail "prose glued by a font macro"; }

# tally-logic(7) lists every spelling of logic/ops.def: for each token,
# one line of its Spellings section holds all of the token's spellings.
if command -v groff > /dev/null 2>&1; then
	groff -man -Tutf8 -P-cbou "$man/tally-logic.7" 2> /dev/null |
		sed -n '/^ *Spellings$/,/^ *Word spellings/p' > spellings.txt
	test "$(wc -l < spellings.txt)" -gt 20 ||
		fail "tally-logic.7 has no Spellings section"
	sed -n 's/^SPELLING(\([A-Z_]*\), "\(.*\)")$/\1 \2/p' \
		"$top_srcdir/logic/ops.def" > ops.txt
	test "$(wc -l < ops.txt)" -gt 40 || fail "ops.def not read"
	awk 'NR == FNR { sp[$1] = sp[$1] " " $2; next }
	     { t = " " $0 " "; gsub(/[ \t]+/, " ", t); line[++n] = t }
	     END {
		for (k in sp) {
			m = split(sp[k], w, " "); found = 0
			for (i = 1; i <= n && !found; i++) {
				ok = 1
				for (j = 1; j <= m; j++)
					if (index(line[i], " " w[j] " ") == 0) ok = 0
				found = ok
			}
			if (!found) { print k ":" sp[k]; bad = 1 }
		}
		exit bad }' ops.txt spellings.txt > missing.txt ||
		{ cat missing.txt; fail "tally-logic.7 lacks spellings"; }
fi

# The examples of one page as files PREFIX.N.cmd, with PREFIX.N.out when
# the page shows the output (in the example's block, or in a block of its
# own after text ending in "prints"), and PREFIX.N.repl for a REPL
# session shown as a transcript (PREFIX.N.out is then the transcript).
# A second output for one example is written to PREFIX.N.twice.
examples() {
	plain "$1" | awk -v pfx="$2" '
		function flush_block() {
			if (nlines == 0 || has_ex) return
			if (body[1] ~ /^tally> /) {
				n++
				for (i = 1; i <= nlines; i++) {
					print body[i] > (pfx "." n ".out")
					if (body[i] ~ /^tally> /)
						print substr(body[i], 8) > \
							(pfx "." n ".repl")
				}
				return
			}
			if (!prints || n == 0) return
			f = pfx "." n ".out"
			if (shown[n]) f = pfx "." n ".twice"
			for (i = 1; i <= nlines; i++) print body[i] > f
			shown[n] = 1
		}
		/^\.SH/ { ex = ($0 ~ /^\.SH +"?EXAMPLES/); block = 0
			prints = 0; next }
		!ex { next }
		/^\.(EX|nf)/ { block = 1; out = ""; nlines = 0; has_ex = 0
			next }
		/^\.(EE|fi)/ { flush_block(); block = 0; out = ""; prints = 0
			next }
		!block && /^\./ { next }
		!block { prints = ($0 ~ /(^|[ \t])prints:?[ \t]*$/); next }
		/^tally / || /\| *tally / {
			n++; has_ex = 1; printf "%s\n", $0 > (pfx "." n ".cmd")
			out = pfx "." n ".out"; next }
		out != "" { print > out; shown[n] = 1; next }
		{ body[++nlines] = $0 }'
}

trim() { sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' "$1"; }

tally() { "$TALLY" "$@"; }
n=0 shown=0
for page in "$man"/*.[1-9]; do
	name=$(basename "$page")
	rm -f ex.*
	examples "$page" ex
	i=1
	while test -f "ex.$i.cmd" || test -f "ex.$i.repl"; do
		test ! -f "ex.$i.twice" ||
			fail "$name: two outputs shown for $(cat "ex.$i.cmd")"
		n=$((n + 1))
		got=0
		if test -f "ex.$i.repl"; then
			line="tally repl --echo (the session of $(head -n 1 "ex.$i.repl"))"
			"$TALLY" repl --echo < "ex.$i.repl" > example.out 2>&1 ||
				got=$?
		else
			line=$(cat "ex.$i.cmd")
			eval "$line" > example.out 2>&1 < /dev/null || got=$?
		fi
		case $got in
		0 | 1) ;;
		*) cat example.out
		   fail "$name: exit $got: $line" ;;
		esac
		if test -f "ex.$i.out"; then
			shown=$((shown + 1))
			trim "ex.$i.out" > want.txt
			trim example.out > got.txt
			diff -u want.txt got.txt > diff.txt || {
				cat diff.txt
				fail "$name: the output differs from the page: $line"
			}
		fi
		i=$((i + 1))
	done
done
test "$n" -ge 5 || fail "only $n example lines found"
echo "man.sh: $n examples ran, $shown outputs compared"
