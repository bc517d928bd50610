#!/usr/bin/env bash
# A newcomer's Kampen om Norge session in a real terminal: play Germany in Scenario 1 against
# the coalition bots, look at the map and an area, undo, quit, reload and continue. Run by
# tests/ui/test_kampen_cli.py::test_scripted_kampen_tmux_session; runnable by hand too.
set -euo pipefail
PY=${HEXWAR_PYTHON:-python3}
WORK=${WORKDIR:-$(mktemp -d)}
SOCK="hexwar-kampen-$$"
SAVE="$WORK/kampen.hexwar"
. "$(dirname "$0")/tmux_lib.sh"

$T new-session -d -s play -x 160 -y 50 "$PY -m hexwar.ui.cli play kampen --side germans --opponent priority --seed 5 --save $SAVE --snapshots $WORK; echo EXITED; sleep 30"
wait_for "germans>"
send "help";                   wait_for "quit                leave"
send "status";                 wait_for "standing:"
send "explain bjornfjell";     wait_for "in German air range"
send "move 1 narvik>gratangen"; wait_for "germans attack Gratangen"
send "undo";                   wait_for "took back"
send "move 2 narvik>gratangen"; wait_for "germans attack Gratangen with 2"
send "pass";                   sleep 1; wait_for "germans>"
send "map";                    wait_for "map written to"
send "quit";                   wait_for "EXITED"
N1=$(orders_saved)
$T kill-session -t play
$T new-session -d -s play -x 160 -y 50 "$PY -m hexwar.ui.cli play kampen --load $SAVE --side germans --snapshots $WORK; echo EXITED; sleep 30"
wait_for "germans>"
send "status";                 wait_for "standing:"
send "1";                      sleep 1; wait_for "germans>\|GAME OVER"
send "quit";                   wait_for "EXITED"
N2=$(orders_saved)
ls "$WORK"/kampen.hexwar.round*.svg >/dev/null
if [ "$N2" -gt "$N1" ] && [ "$N1" -ge 2 ]; then echo "RESUMED OK ($N1 -> $N2 orders)"; else echo "orders $N1 -> $N2"; exit 1; fi
