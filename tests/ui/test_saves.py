"""Saves keep the player's game (issue 12): never overwritten, resumed exactly, one writer,
any file name, read-only saves replayed, damaged saves answered in one line and untouched."""

from __future__ import annotations

import hashlib
import os
import shlex
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from hexwar.core.engine import load_game
from hexwar.core.log import SaveError, SaveFile, SaveLocked

PY = [sys.executable, "-m", "hexwar.ui.cli"]


def hexwar(*args: str, cwd: Path, stdin: str = "quit\n", env: dict | None = None) -> subprocess.CompletedProcess:
    e = dict(os.environ, HEXWAR_SNAPSHOTS=str(cwd / "snaps"), COLUMNS="200")
    e.update(env or {})
    return subprocess.run([*PY, *args], cwd=cwd, input=stdin, capture_output=True, text=True, env=e, timeout=180)


def hexwar_here(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``hexwar ARGS`` run in this process as the console script runs it (``cli.main``): its
    exit code and what it wrote to stdout and stderr. For many refusals in a row, where a
    process each costs the start-up of Python and the package (about 1.5 s here)."""
    import contextlib
    import io

    from hexwar.ui import cli

    out, err = io.StringIO(), io.StringIO()
    old_cwd, old_argv, old_in = os.getcwd(), sys.argv, sys.stdin
    os.chdir(cwd)
    sys.argv, sys.stdin = ["hexwar", *args], io.StringIO("quit\n")
    code = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            cli.main()
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        os.chdir(old_cwd)
        sys.argv, sys.stdin = old_argv, old_in
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


def orders(path: Path) -> int:
    return len(SaveFile(path).load())


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_new_game_never_overwrites_a_save_or_any_file(tmp_path):
    p = hexwar("play", "narvik", "--seed", "3", "--opponent", "random", cwd=tmp_path, stdin="1\n1\n1\nquit\n")
    assert p.returncode == 0, p.stderr
    save = tmp_path / "narvik-seed3.hexwar"
    n = orders(save)
    assert n >= 3
    # the same command again resumes it (and says so) instead of starting over
    again = hexwar("play", "narvik", "--seed", "3", "--opponent", "random", cwd=tmp_path, stdin="quit\n")
    assert "resuming narvik-seed3.hexwar" in again.stdout and orders(save) == n
    # --new keeps it and starts another under the next free name
    fresh = hexwar("play", "narvik", "--seed", "3", "--new", "--opponent", "priority", cwd=tmp_path, stdin="quit\n")
    assert "narvik-seed3-2.hexwar" in fresh.stdout and orders(save) == n and (tmp_path / "narvik-seed3-2.hexwar").exists()
    # an explicit --save naming any existing file is refused, the file untouched
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes")
    bad = hexwar("play", "narvik", "--save", str(notes), cwd=tmp_path)
    assert bad.returncode == 2 and notes.read_text() == "my notes"
    assert bad.stderr.count("\n") == 1 and "already exists (not a hexwar save)" in bad.stderr
    taken = hexwar("play", "kampen", "--save", str(save), cwd=tmp_path)
    assert taken.returncode == 2 and "--load" in taken.stderr and orders(save) == n


def test_a_save_resumes_with_its_side_bot_switches_board_and_scenario(tmp_path):
    p = hexwar("play", "narvik", "--side", "germans", "--opponent", "random", "--switch", "allied_concealment",
               "--seed", "5", "--save", "g.hexwar", cwd=tmp_path, stdin="quit\n")
    assert p.returncode == 0, p.stderr
    meta = SaveFile(tmp_path / "g.hexwar").load().meta
    assert (meta["seat"], meta["opponent"], meta["switches"], meta["scenario"], meta["board"]) == (
        "germans", "random", ["allied_concealment"], "scenario", "narvik")
    hint = p.stdout.split("resume with: ")[1].strip().replace("\n", "")
    args = shlex.split(hint)
    assert args[:3] == ["hexwar", "play", "narvik"]
    back = hexwar(*args[1:], cwd=tmp_path, stdin="status\nquit\n")
    assert back.returncode == 0, back.stderr
    assert "you command germans" in back.stdout  # not the Allies, with the bot on the person's side
    k = hexwar("play", "kampen", "--board", "nordland-hex", "--side", "germans", "--seed", "2", "--opponent", "priority", "--save", "k.hexwar",
               cwd=tmp_path, stdin="quit\n")
    assert k.returncode == 0, k.stderr
    back = hexwar("play", "kampen", "--load", "k.hexwar", cwd=tmp_path, stdin="quit\n")
    assert "you command germans" in back.stdout
    assert SaveFile(tmp_path / "k.hexwar").load().meta["board"] == "nordland-hex"


def test_one_writer_per_save(tmp_path):
    from hexwar.games.narvik import narvik_game

    g = narvik_game()
    s = g.new_state(2)
    s.attach_save(tmp_path / "a.hexwar")  # this process now plays it
    p = hexwar("play", "narvik", "--load", "a.hexwar", cwd=tmp_path)
    assert p.returncode == 2 and "another hexwar is playing this save" in p.stderr and p.stderr.count("\n") == 1
    with pytest.raises(SaveLocked):
        load_game(g, tmp_path / "a.hexwar", writer=True)
    s.close()
    load_game(g, tmp_path / "a.hexwar", writer=True).close()  # free again


def test_read_only_saves_and_folders_replay_and_refuse_writes(tmp_path):
    from hexwar.games.narvik import narvik_game

    g = narvik_game()
    s = g.new_state(2)
    s.attach_save(tmp_path / "r.hexwar")
    s.apply(s.legal_orders()[0])
    s.close()
    path = tmp_path / "r.hexwar"
    path.chmod(stat.S_IRUSR)
    before = digest(path)
    assert hexwar("replay", "r.hexwar", cwd=tmp_path).returncode == 0
    p = hexwar("play", "narvik", "--load", "r.hexwar", cwd=tmp_path)
    assert p.returncode == 2 and "read-only" in p.stderr and p.stderr.count("\n") == 1
    ro = tmp_path / "ro"
    ro.mkdir()
    (ro / "r.hexwar").write_bytes(path.read_bytes())
    ro.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        assert hexwar("replay", "r.hexwar", cwd=ro).returncode == 0
        p = hexwar("play", "narvik", "--load", "r.hexwar", cwd=ro)
        assert p.returncode == 2 and "read-only" in p.stderr
        assert sorted(x.name for x in ro.iterdir()) == ["r.hexwar"]
    finally:
        ro.chmod(stat.S_IRWXU)
    assert digest(path) == before


# every awkward character of a name (#, %, ?, spaces, letters beyond ASCII), two names holding
# them all (four names, one of each, cost 40 s of CI for the same tries)
@pytest.mark.parametrize("name", ["my#game 100%?.hexwar", "ünïcode two words.hexwar"])
def test_any_file_name_saves_loads_and_leaves_no_stray_files(tmp_path, name):
    p = hexwar("play", "kampen", "--seed", "4", "--save", name, "--opponent", "random", cwd=tmp_path, stdin="1\nquit\n")
    assert p.returncode == 0, p.stderr
    n = orders(tmp_path / name)
    back = hexwar("play", "kampen", "--load", name, cwd=tmp_path, stdin="1\nundo\nquit\n")
    assert back.returncode == 0, back.stderr
    assert hexwar("replay", name, cwd=tmp_path).returncode == 0
    assert orders(tmp_path / name) >= n
    assert sorted(x.name for x in tmp_path.iterdir() if x.is_file()) == [name]  # no -wal, -shm, .copy or -journal


def _tamper(src: Path, dst: Path, sql: str, args: tuple = ()) -> Path:
    dst.write_bytes(src.read_bytes())
    con = sqlite3.connect(dst)
    con.execute(sql, args)
    con.commit()
    con.close()
    return dst


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    from hexwar.ai.random_bot import RandomBot
    from hexwar.games.narvik import narvik_game

    d = tmp_path_factory.mktemp("played")
    s = narvik_game().new_state(7)
    s.attach_save(d / "ok.hexwar")
    bot = RandomBot(7)
    for _ in range(30):
        s.apply(bot.choose(s, s.legal_orders()))
    s.close()
    return d / "ok.hexwar"


def test_damaged_saves_get_one_line_naming_the_file_and_entry_and_stay_as_they_were(tmp_path, played):
    import json

    cases = {}
    t = tmp_path / "trunc.hexwar"
    t.write_bytes(played.read_bytes()[:3000])
    cases["trunc.hexwar"] = "trunc.hexwar"
    cases["bad-json.hexwar"] = _tamper(played, tmp_path / "bad-json.hexwar", "UPDATE entries SET body = '{nope' WHERE seq = 5")
    body = json.loads(sqlite3.connect(played).execute("SELECT body FROM entries WHERE seq = 3").fetchone()[0])
    body["order"] = {"kind": "move", "side": body["order"]["side"], "unit": "KM-1", "path": ["0101", "0102"]}
    cases["illegal.hexwar"] = _tamper(played, tmp_path / "illegal.hexwar", "UPDATE entries SET body = ? WHERE seq = 3", (json.dumps(body),))
    cases["gap.hexwar"] = _tamper(played, tmp_path / "gap.hexwar", "DELETE FROM entries WHERE seq = 4")
    cases["dice.hexwar"] = _tamper(played, tmp_path / "dice.hexwar",
                                   "UPDATE entries SET body = replace(body, '\"faces\": [', '\"faces\": [9, ') WHERE seq = 0")
    cases["game.hexwar"] = _tamper(played, tmp_path / "game.hexwar", "UPDATE meta SET value = '\"kampen\"' WHERE key = 'game'")
    cases["nometa.hexwar"] = _tamper(played, tmp_path / "nometa.hexwar", "DROP TABLE meta")
    (tmp_path / "text.hexwar").write_text("hello")
    (tmp_path / "empty.hexwar").write_bytes(b"")
    (tmp_path / "dir.hexwar").mkdir()
    for name in [*cases, "text.hexwar", "empty.hexwar", "dir.hexwar"]:
        path = tmp_path / name
        before = digest(path) if path.is_file() else None
        for cmd in (["play", "narvik", "--load", name], ["replay", name]):
            run = hexwar if name == "trunc.hexwar" else hexwar_here  # one in a process of its own, as a person runs it
            p = run(*cmd, cwd=tmp_path)
            assert p.returncode == 2, (name, cmd, p.stdout[-500:])
            assert "Traceback" not in p.stderr and p.stderr.count("\n") == 1 and name in p.stderr, (name, p.stderr)
        if before is not None:
            assert digest(path) == before, name
    # the entry is named where one is to blame
    assert "entry 5" in hexwar("replay", "bad-json.hexwar", cwd=tmp_path).stderr
    assert "order 3" in hexwar("replay", "illegal.hexwar", cwd=tmp_path).stderr
    assert "entry 5" in hexwar("replay", "gap.hexwar", cwd=tmp_path).stderr
    with pytest.raises(SaveError):
        SaveFile(tmp_path / "gap.hexwar").load()


def test_undo_keeps_the_same_file_so_the_lock_holds(tmp_path):
    from hexwar.games.kampen import kampen_game

    g = kampen_game()
    s = g.new_state(1)
    s.attach_save(tmp_path / "u.hexwar")
    ino = (tmp_path / "u.hexwar").stat().st_ino
    for _ in range(5):
        s.apply(s.legal_orders()[-1])
    s.undo(3)
    assert (tmp_path / "u.hexwar").stat().st_ino == ino and orders(tmp_path / "u.hexwar") == 2
    with pytest.raises(SaveLocked):
        SaveFile(tmp_path / "u.hexwar").lock()
    s.close()


def test_a_save_that_stops_replaying_at_an_order_resumes_from_the_orders_before_it_and_nothing_is_lost(tmp_path, played):
    """A save replays with each order's events checked: one made before a rule was fixed
    stops at the first order the rule changes. The refusal says how to play on from the
    orders before it (``--upto``), and that keeps the whole save in a new file first."""
    import json

    body = json.loads(sqlite3.connect(played).execute("SELECT body FROM entries WHERE seq = 20").fetchone()[0])
    body["events"].append({"type": "pass", "side": "allies"})  # what an older rule would have logged
    path = _tamper(played, tmp_path / "old.hexwar", "UPDATE entries SET body = ? WHERE seq = 20", (json.dumps(body),))
    whole = SaveFile(path).load().to_json()
    p = hexwar("play", "--load", "old.hexwar", cwd=tmp_path)
    assert p.returncode == 2 and p.stderr.count("\n") == 1, p.stderr
    assert "replay diverged at order 20" in p.stderr and p.stderr.rstrip().endswith("hexwar play --load old.hexwar --upto 20")
    assert SaveFile(path).load().to_json() == whole  # refused, untouched
    (tmp_path / "old.all-30-orders.hexwar").write_text("someone's file")  # a copy never replaces a file
    p = hexwar("play", "--load", "old.hexwar", "--upto", "20", cwd=tmp_path, stdin="status\nquit\n")
    assert p.returncode == 0, p.stderr
    assert "resumed from the first 20 of 30 orders; the whole save is kept in old.all-30-orders-2.hexwar" in p.stdout
    assert (tmp_path / "old.all-30-orders.hexwar").read_text() == "someone's file"
    assert SaveFile(tmp_path / "old.all-30-orders-2.hexwar").load().to_json() == whole
    st = load_game(_game(path), path)  # the cut save loads: its first 20 orders, then the bots' on from them
    assert json.loads(st.log.to_json())["entries"][:20] == json.loads(whole)["entries"][:20]
    assert json.loads(st.log.to_json())["entries"][20:21] != json.loads(whole)["entries"][20:21]
    st.save.close()
    n = orders(path)
    for bad in (["--upto", str(n + 1)], ["--upto", "-1"]):
        p = hexwar("play", "--load", "old.hexwar", *bad, cwd=tmp_path)
        assert p.returncode == 2 and p.stderr.count("\n") == 1 and f"the save holds {n} orders" in p.stderr, p.stderr
    p = hexwar("play", "narvik", "--upto", "3", cwd=tmp_path)
    assert p.returncode == 2 and "--upto resumes a save: give it with --load" in p.stderr


def test_a_konflikt_save_made_before_its_supply_was_taken_out_plays_on_from_before_the_first_assault_it_changes(tmp_path):
    """A Konflikt '47 game saved before 4806f61 (the host's 19.2 gave assaulted British units
    +6 FP) stops loading at order 86, the first assault on a British unit; ``--upto 86``
    plays on from there under the rules as they are."""
    import json

    from hexwar.core.log import EventLog

    golden = Path(__file__).resolve().parents[1] / "golden" / "diverging" / "konflikt-before-4806f61.json"
    log = EventLog.from_json(golden.read_text())
    assert any(ev.get("cause") == "unsupplied_attacked" for ev in log.entries[86].events)
    SaveFile(tmp_path / "k.hexwar").create(log)
    p = hexwar("play", "--load", "k.hexwar", cwd=tmp_path)
    assert p.returncode == 2 and "replay diverged at order 86 (assault 0209 with G3,G5)" in p.stderr
    p = hexwar("replay", "k.hexwar", cwd=tmp_path)  # read-only: the orders before it are shown
    assert p.returncode == 2 and p.stderr.rstrip().endswith("hexwar replay k.hexwar --upto 86 shows the orders before it")
    p = hexwar("replay", "k.hexwar", "--upto", "86", "--json", cwd=tmp_path)
    assert p.returncode == 0 and json.loads(p.stdout)["orders"] == 86, p.stderr
    p = hexwar("play", "--load", "k.hexwar", "--upto", "86", cwd=tmp_path, stdin="status\nquit\n")
    assert p.returncode == 0 and "standing: Maximum Attrition" in p.stdout, p.stderr
    now = SaveFile(tmp_path / "k.hexwar").load()
    assert json.loads(now.to_json())["entries"][:86] == json.loads(log.to_json())["entries"][:86]
    assert not any(ev.get("cause") == "unsupplied_attacked" for e in now.entries for ev in e.events)
    kept = SaveFile(tmp_path / f"k.all-{len(log)}-orders.hexwar").load()
    assert json.loads(kept.to_json())["entries"] == json.loads(log.to_json())["entries"]


def _game(path: Path):
    from hexwar.registry import from_meta

    return from_meta(SaveFile(path).load().meta)[1]
