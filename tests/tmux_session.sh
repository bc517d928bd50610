#!/usr/bin/env bash
# A newcomer's session in a real terminal: start a game, play several orders (the bot
# answers), undo, save a copy, quit, reload the save and continue. Run by
# tests/ui/test_play.py::test_scripted_tmux_session; runnable by hand too.
set -euo pipefail
PY=${HEXWAR_PYTHON:-python3}
WORK=${WORKDIR:-$(mktemp -d)}
SOCK="hexwar-test-$$"
SAVE="$WORK/session.hexwar"
. "$(dirname "$0")/tmux_lib.sh"

$T new-session -d -s play -x 160 -y 50 "$PY -m hexwar.ui.cli play narvik --side allies --opponent priority --seed 4 --save $SAVE --snapshots $WORK; echo EXITED; sleep 30"
wait_for "allies>"
send "help";           wait_for "quit                leave"
send "1";              wait_for "allies: mas\|allies: action"
send "1";              wait_for "allies: action"
send "list move";      wait_for "move "
send "status";         wait_for "German AP"
send "1";              sleep 1; wait_for "allies>"
send "map";            wait_for "map written to"
send "undo";           wait_for "took back"
send "save $WORK/copy.hexwar"; wait_for "saved to"
send "pass";           sleep 1; wait_for "allies>"
send "quit";           wait_for "EXITED"
N1=$(orders_saved)
$T kill-session -t play
$T new-session -d -s play -x 160 -y 50 "$PY -m hexwar.ui.cli play narvik --side allies --opponent priority --load $SAVE --snapshots $WORK; echo EXITED; sleep 30"
wait_for "allies>"
send "status";         wait_for "German AP"
send "1";              sleep 1; wait_for "allies>"
send "quit";           wait_for "EXITED"
N2=$(orders_saved)
test -f "$WORK/copy.hexwar"
ls "$WORK"/session.hexwar.turn*.svg >/dev/null
if [ "$N2" -gt "$N1" ] && [ "$N1" -gt 2 ]; then echo "RESUMED OK ($N1 -> $N2 orders)"; else echo "orders $N1 -> $N2"; exit 1; fi
