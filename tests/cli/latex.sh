# tests/cli/latex.sh -- --to=latex escapes every character TeX treats
# specially, in letters and in definition names.  Where pdflatex is
# installed the output is compiled (in math mode, as it is meant to be
# used); everywhere, a list check: after taking out the escapes tally
# writes, no special character is left bare.
. "$top_srcdir/tests/lib.sh"
T=$TALLY
dir=$(pwd)

# One letter for each special character, and names with _ in them.
formula="let my_def := '#' | '\$' | '%' | '&' | '_' | '{' | '}' | '~' | '^' | 'a\\\\b' | 'x^y';
let other_name := #[my_def] >= 2;
other_name & #[Q_a] >= 1"
printf '%s\n' "$formula" > "$dir/in.tl"
"$T" print -F "$dir/in.tl" --to=latex > "$dir/out.tex" 2> "$dir/err" ||
	fail "print --to=latex failed: $(cat "$dir/err")"

# The list check.  Take out what tally writes on purpose: \mbox{...}
# of one text command, escapes \X of a special character, \commands,
# and the subscript of Q_{...}; whatever special character is left is
# bare.
bare=$(sed -e 's/\\mbox{\\text[a-z]*}//g' -e 's/\\[#$%&_{}]//g' \
	-e 's/\\[a-zA-Z]*//g' -e 's/Q_{/{/g' "$dir/out.tex" |
	tr -d -c '#$%&_~^\\\n' | tr -d '\n')
test -z "$bare" || fail "bare special characters '$bare' in:
$(cat "$dir/out.tex")"
grep -q 'mathit{my\\_def}' "$dir/out.tex" ||
	fail "the name my_def is not an escaped identifier: $(cat "$dir/out.tex")"
# Braces balance (an escaped brace is not a group).
opens=$(sed 's/\\[{}]//g' "$dir/out.tex" | tr -d -c '{' | wc -c)
closes=$(sed 's/\\[{}]//g' "$dir/out.tex" | tr -d -c '}' | wc -c)
test "$opens" = "$closes" || fail "unbalanced braces ($opens/$closes)"

# The compile check, where a TeX is installed.
if command -v pdflatex > /dev/null 2>&1; then
	{
		printf '\\documentclass{article}\n\\begin{document}\n'
		sed 's/.*/$&$\\par/' "$dir/out.tex"
		printf '\\end{document}\n'
	} > "$dir/doc.tex"
	(cd "$dir" && pdflatex -interaction=nonstopmode -halt-on-error \
		doc.tex > pdflatex.log 2>&1) ||
		fail "pdflatex refused the output: $(grep -A3 '^!' "$dir/pdflatex.log" | head -8)"
	echo "latex.sh: compiled with pdflatex"
else
	echo "latex.sh: no pdflatex; list check only"
fi
