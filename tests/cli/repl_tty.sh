# tests/cli/repl_tty.sh -- tally repl on a real terminal: tmux runs it in a
# detached session on a private server (-L), keys are typed with
# send-keys and the screen is read with capture-pane.  Checked: the
# prompt, tab completion of a : command, of a prelude name and of a
# letter, definitions with their values, the up arrow recalling history,
# Ctrl-C abandoning a half-typed line and an unfinished input and
# stopping a long command, Ctrl-D
# leaving with status 0, the history file, and `tally` alone starting
# the REPL.  Every wait is bounded
# (a hang fails the test instead of blocking it); timing is never
# judged.  Skipped (77) only when tmux is absent.
. "$top_srcdir/tests/lib.sh"
command -v tmux > /dev/null 2>&1 || { echo "tmux not found: skipped"; exit 77; }

HOME=$(pwd)
TALLY_HISTORY=$(pwd)/history
export HOME TALLY_HISTORY
sock=tally-repl-tty-$$
tm() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'tm kill-server > /dev/null 2>&1 || true' EXIT

screen() { tm capture-pane -p -J -S -200 -t repl; }
# wait_for TEXT: until the screen holds TEXT (a fixed string), at most
# about 60 s (sanitizer builds on a busy machine are slow).
wait_for() {
	i=0
	while ! screen | grep -q -F -e "$1"; do
		i=$((i + 1))
		test $i -le 600 || { screen; fail "never saw: $1"; }
		sleep 0.1
	done
}
# count TEXT: how many lines of the screen hold TEXT.
count() { screen | grep -c -F -e "$1" || true; }
# wait_count TEXT N WHY: until TEXT is on N lines of the screen.
wait_count() {
	i=0
	while test "$(count "$1")" -lt "$2"; do
		i=$((i + 1))
		test $i -le 600 || { screen; fail "$3"; }
		sleep 0.1
	done
}
keys() { tm send-keys -t repl "$@"; }
type_line() { keys -l "$1"; keys Enter; }

# A build without readline reads plain lines: no completion, no history.
readline=true
"$TALLY" repl --help | grep -q 'without GNU readline' && readline=false

tm new-session -d -s repl -x 120 -y 50 \
	"'$TALLY' repl; echo \"tally exited with \$?\"; sleep 600"
wait_for 'tally> '

# Tab completes a command; a definition shows its values.
if $readline; then
	keys -l ':wo'
	keys Tab
	wait_for 'tally> :word '
	type_line 'ab'
else
	type_line ':word ab'
fi
wait_for 'example word: "ab"'
type_line 'let A = #[Q_a] > 0'
wait_for 'A("ab") = [1]*2  bool, depth 1'

if $readline; then
	# Tab completes a prelude name and a letter.
	keys -l 'majo'
	keys Tab
	wait_for 'tally> majority'
	keys Enter
	wait_for '_("ab") = [1, 0]  bool, depth 1'
	keys -l 'Q_'
	keys Tab
	wait_for 'tally> Q_a'
	keys Enter
	wait_for '_("ab") = [1, 0]  bool, depth 0'

	# Up, up recalls "majority"; Enter runs it again.
	keys Up
	wait_for 'tally> Q_a'
	keys Up
	keys Enter
	wait_count '_("ab") = [1, 0]  bool, depth 1' 2 \
		"history recall did not run majority"
fi

# Ctrl-C abandons a half-typed line, and an input left open.
keys -l '#[Q_a & nonsense'
wait_for 'tally> #[Q_a & nonsense'
keys C-c
type_line 'A'
wait_for '_("ab") = [1]*2  bool, depth 1'
type_line '(Q_a &'
wait_for '  ...> '
keys C-c
type_line '!A'
wait_for '_("ab") = [0]*2  bool, depth 1'
screen | grep -q 'error' && { screen; fail "an abandoned input was read"; }

# Ctrl-C stops a long command (2.2e12 words to visit), not the session.
type_line ':alphabet ab'
wait_for 'alphabet: a b'
type_line ':lang 40 #[Q_a] = 100'
wait_for 'lang visits 2.2e+12 words'
keys C-c
wait_for 'tally: :lang interrupted'
type_line '!A'
wait_count '_("ab") = [0]*2  bool, depth 1' 2 \
	"the session did not go on after Ctrl-C"

# Ctrl-D leaves.
keys C-d
wait_for 'tally exited with 0'

# 'tally' alone on a terminal is the REPL too.
tm kill-session -t repl
tm new-session -d -s repl -x 120 -y 50 \
	"'$TALLY'; echo \"tally exited with \$?\"; sleep 600"
wait_for 'tally> '
type_line ':word a'
wait_for 'example word: "a"'
keys C-d
wait_for 'tally exited with 0'

$readline || { echo "repl_tty.sh: no readline: plain lines checked"; exit 0; }
grep -q -x 'let A = #\[Q_a\] > 0' history || fail "history lacks the definition"
grep -q '^majority *$' history || fail "history lacks majority"
grep -q 'nonsense' history && fail "history holds the abandoned line"
echo "repl_tty.sh: the terminal session behaved"
