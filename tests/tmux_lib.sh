# Shared by the scripted tmux sessions: a private tmux server, waiting for text, typing.
# Needs SOCK and SAVE set by the caller; sourced, not run.
T="tmux -L $SOCK"
cleanup() { $T kill-server 2>/dev/null || true; }
trap cleanup EXIT
# a session that outlives the game's: killing "play" to start it again never takes the server
# down while a new session is being made (a race that a loaded machine loses)
$T new-session -d -s keep "sleep 3600"
wait_for() {  # wait until the pane shows a pattern
  for _ in $(seq 1 150); do
    if $T capture-pane -p -t play -S -300 | grep -q "$1"; then return 0; fi
    sleep 0.2
  done
  echo "timed out waiting for: $1"; $T capture-pane -p -t play -S -60; return 1
}
send() { $T send-keys -t play "$1" Enter; }
orders_saved() { "$PY" -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from entries").fetchone()[0])' "$SAVE"; }
