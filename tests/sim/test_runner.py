"""Batch simulation: seeds, resume after a kill, a local Dask cluster gives the same rows."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from hexwar.rules.dicecombat import summary as exact
from hexwar.sim import game_seed, parse_setup, play_one, simulate
from hexwar.sim.runner import read_rows

SETUP = parse_setup("kampen/intro-narvik@norway:priority")


def test_setups_parse_and_refuse_with_a_reason():
    assert parse_setup("kampen@nordland-hex:random").label == "kampen/intro-narvik@nordland-hex:random"
    with pytest.raises(ValueError, match="board 'moon'"):
        parse_setup("kampen@moon")
    with pytest.raises(ValueError, match="search bot"):
        parse_setup("narvik:search")


def test_a_single_game_of_a_batch_can_be_rerun_from_its_index():
    a = play_one(SETUP, 17, 5)
    assert a == play_one(SETUP, 17, 5) and a["seed"] == game_seed(5, 17)
    assert play_one(SETUP, 18, 5)["seed"] != a["seed"]


def test_a_game_that_does_not_end_stops_the_batch_in_a_line_and_is_never_a_row(monkeypatch, tmp_path):
    # as the ladder: a stalled phase is a bug to mend, not a game without a winner that a
    # comparison would count (the batch stopped at the engine's cap without a word)
    from hexwar.sim import runner

    monkeypatch.setattr(runner, "MAX_ORDERS", 10)  # the game takes more
    with pytest.raises(runner.BatchError, match=r"kampen/intro-narvik@norway:priority: game 0 \(seed \d+\) did not end in 10 orders"):
        play_one(SETUP, 0, 1)
    out = tmp_path / "b.csv"
    r = subprocess.run([sys.executable, "-c", "import sys; from hexwar.sim import runner; runner.MAX_ORDERS = 10; "
                        "from hexwar.ui.cli import main; sys.argv = ['hexwar', 'simulate', 'kampen', '--games', '2', "
                        f"'--workers', '1', '--out', {str(out)!r}]; main()"], capture_output=True, text=True)
    last = r.stderr.strip().splitlines()[-1]  # after the progress bar's line: the error, in a line
    assert r.returncode == 2 and last.startswith("error: ") and "did not end in 10 orders" in last, r.stderr
    assert "Traceback" not in r.stderr
    assert not out.exists() or len(out.read_text().splitlines()) <= 1  # its header at most: no row
    monkeypatch.setattr(runner, "MAX_ORDERS", 100_000)
    assert play_one(SETUP, 0, 1) == play_one(SETUP, 0, 1)  # an ended game is a row, as before


def test_process_pool_batch_resumes_and_matches_a_single_process_run(tmp_path):
    one = simulate(SETUP, 60, 3, tmp_path / "one.csv", workers=1)
    part = simulate(SETUP, 30, 3, tmp_path / "pool.csv", workers=2)
    assert len(part) == 30
    full = simulate(SETUP, 60, 3, tmp_path / "pool.csv", workers=2)  # resumes: 30 more
    assert [r["seed"] for r in full] == [r["seed"] for r in one]
    assert full == one


def test_an_interrupted_batch_keeps_finished_games_and_resumes(tmp_path):
    out = tmp_path / "kill.csv"
    cmd = [sys.executable, "-m", "hexwar.ui.cli", "simulate", "kampen", "--games", "4000", "--seed", "9",
           "--out", str(out), "--workers", "1", "--json"]
    # the checkout first, then what the run has (the example game's folder: HEXWAR_GAMES names it)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [os.getcwd(), os.environ.get("PYTHONPATH")])))
    said = open(tmp_path / "stderr", "wb")
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=said, env=env)
    # wait until some games are on disk, however slow the machine, then kill -9; a batch that
    # ends first (it cannot play 4000 games before 50 are written) is the test's failure
    while not (out.exists() and len(read_rows(out)) >= 50):
        assert p.poll() is None, f"the batch ended before 50 games were written: {(tmp_path / 'stderr').read_text()[-300:]}"
        time.sleep(0.05)
    p.send_signal(signal.SIGKILL)
    p.wait()
    said.close()
    kept = read_rows(out)
    assert 50 <= len(kept) < 4000
    rows = simulate(SETUP, len(kept) + 40, 9, out, workers=1)
    assert [int(r["index"]) for r in rows] == list(range(len(kept) + 40))
    assert rows[:len(kept)] == sorted(kept, key=lambda r: int(r["index"]))


@pytest.mark.parametrize("setup,games", [(SETUP, 40), (parse_setup("kampen:search:4"), 10)])
def test_a_local_dask_cluster_gives_the_same_rows_as_the_process_pool(tmp_path, setup, games):
    # the search bot too (issue 58): by playouts, its games are the same on any worker (10 of
    # them, a few each worker: 40 took half a minute of searching)
    distributed = pytest.importorskip("distributed")
    pool = simulate(setup, games, 11, tmp_path / "pool.csv", workers=2)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        rows = simulate(setup, games, 11, tmp_path / "dask.csv", scheduler=cluster.scheduler_address)
    assert rows == pool


def test_sampled_combat_outcomes_agree_with_the_exact_odds(tmp_path):
    rows = simulate(SETUP, 400, 2, tmp_path / "c.csv", workers=2)
    import json

    pooled: dict[str, list[int]] = {}
    for r in rows:
        for k, (n, w) in json.loads(r["combats"]).items():
            pooled.setdefault(k, [0, 0])
            pooled[k][0] += n
            pooled[k][1] += w
    checked = 0
    for k, (n, w) in pooled.items():
        if n < 40:
            continue
        a, d = map(int, k.split("v"))
        p = float(exact(a, d, 5, 5)["attacker_wins"])
        se = (p * (1 - p) / n) ** 0.5
        assert abs(w / n - p) < 4.5 * se + 1e-9, (k, n, w / n, p)
        checked += 1
    assert checked >= 3


def test_a_batch_played_by_other_rules_or_data_is_refused_and_a_reports_cache_is_played_again(tmp_path, monkeypatch):
    """Rows name the build that played them: resuming a batch after a rule or a chart changed
    would mix games of two rule sets in one figure."""
    import csv

    from hexwar.sim import runner

    out = tmp_path / "b.csv"
    first = simulate(SETUP, 6, 4, out, workers=1)
    assert {r["build"] for r in first} == {runner.build_fingerprint()}
    assert simulate(SETUP, 8, 4, out, workers=1)[:6] == first  # the same build resumes
    monkeypatch.setattr(runner, "build_fingerprint", lambda: "a-fixed-rule")
    with pytest.raises(runner.BatchError, match="played by other rules or data"):
        simulate(SETUP, 10, 4, out, workers=1)
    assert len(read_rows(out)) == 8  # refused, untouched
    again = simulate(SETUP, 8, 4, out, workers=1, stale="replace")
    assert [r["index"] for r in again] == [str(i) for i in range(8)] and {r["build"] for r in again} == {"a-fixed-rule"}
    # a file from before rows named their build (or with other columns): another hexwar's
    # batch, refused; a report's cache of that kind is played again
    old = tmp_path / "old.csv"
    with open(old, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=runner.columns(SETUP)[:-1])
        w.writeheader()
        w.writerows({k: v for k, v in r.items() if k != "build"} for r in first)
    with pytest.raises(runner.BatchError, match="its columns differ"):
        simulate(SETUP, 6, 4, old, workers=1)
    assert len(simulate(SETUP, 6, 4, old, workers=1, stale="replace")) == 6


def test_the_build_is_the_data_a_player_points_hexwar_at_and_changes_with_a_chart_value(tmp_path, monkeypatch):
    import shutil

    from hexwar.data.loader import data_root
    from hexwar.sim.runner import build_files, build_fingerprint

    names = {name for name, _ in build_files()}
    assert {"hexwar/games/narvik/game.py", "hexwar/rules/combat.py", "hexwar/sim/runner.py", "tables/narvik/crt.yaml"} <= names
    assert not names & {"hexwar/games/narvik/play.py", "hexwar/sim/report.py", "hexwar/sim/drivers.py", "hexwar/sim/robust.py", "hexwar/sim/html.py", "hexwar/ui/cli.py"}  # they only tell the games
    here = build_fingerprint()
    for folder in ("maps", "oob", "tables"):
        shutil.copytree(data_root() / folder, tmp_path / folder)
    monkeypatch.setenv("HEXWAR_DATA", str(tmp_path))
    assert build_fingerprint() == here  # the same files
    crt = tmp_path / "tables" / "narvik" / "crt.yaml"
    crt.write_text(crt.read_text().replace("source: authored", "source: publisher", 1))
    assert build_fingerprint() != here


# Europa is not among them: the runner plays every game alike, and a Europa game played three times
# over (the batch's, the record's, its replay) took 27 s of the suite; its batch game replays in
# tests/test_conformance.py (run_fast and PlayState) and tests/games/test_europa_rules.py
@pytest.mark.parametrize("setup,index", [("narvik", 0), ("kampen/advanced", 0), ("konflikt@table-areas", 2),
                                         ("kampen/basic:random,germans=priority", 1)])
def test_a_batch_game_played_again_and_saved_is_the_game_of_its_row_and_replays_to_its_end(setup, index):
    """``record_one`` plays game ``index`` of a batch again with its log: the row is the
    batch's own (``play_one``), and the log replays, every event checked, to the same end,
    under the meta an interactive save holds (so ``hexwar replay`` and ``play --load`` read
    it); one bot kind for every side is the save's opponent, mixed kinds name none."""
    from hexwar.core.replay import replay
    from hexwar.registry import from_meta
    from hexwar.sim.runner import record_one

    st = parse_setup(setup)
    row, log = record_one(st, index, 3)
    assert row == play_one(st, index, 3) and len(log) == row["orders"]
    _info, g = from_meta(log.meta)
    assert set(g.new_state(row["seed"]).log.meta) <= set(log.meta)
    again = replay(g, log)
    assert again.is_over() and again.result().level == row["level"] and again.result().winner == (row["winner"] or None)
    assert log.meta["batch"] == {"setup": st.label, "seed": 3, "index": index} and log.meta["seat"] == "none"
    assert log.meta.get("opponent") == (None if "," in st.bots else st.bots)


def test_a_narvik_row_counts_the_counters_each_side_turned_face_up_itself_11_1():
    # 11.1: a side may turn its own counter face up; an attack's reveal ("revealed") is not counted
    from hexwar.sim.runner import record_one
    from hexwar.sim.setups import build_game, parse_setup

    row, log = record_one(parse_setup("narvik:priority"), 0, 1)
    reveals = [ev["unit"] for e in log.entries for ev in e.events if ev["type"] == "reveal"]
    assert reveals and row["reveals_germans"] == len(reveals) and row["reveals_allies"] == 0
    units = build_game(parse_setup("narvik:priority")).new_state(row["seed"]).data.units
    assert {units[u].side for u in reveals} == {"germans"}


def test_a_batch_gives_the_search_bot_playouts_not_seconds_and_plays_the_same_games_again():
    # issue 58's bot pairings: the search bot in a batch is capped by playouts, so its games
    # are the same on any machine however busy, like every other batch's
    from hexwar.sim.runner import record_one

    setup = parse_setup("kampen:search:8")
    a = [play_one(setup, i, 4) for i in range(3)]
    assert a == [play_one(setup, i, 4) for i in range(3)]
    assert a != [play_one(parse_setup("kampen:priority"), i, 4) for i in range(3)]  # the search played, not its prior
    row, log = record_one(setup, 1, 4)
    assert row == a[1] and log.meta["opponent"] == "search"  # in play it thinks on the clock again
    for text, says in (("kampen:search", "gives it playouts a decision instead"), ("kampen:priority:8", "does not search"),
                       ("kampen:search:0", "whole number from 1")):
        with pytest.raises(ValueError, match=says):
            parse_setup(text)


def test_a_game_that_declares_no_batch_is_simulated_with_the_columns_every_game_has(tmp_path):
    """A game's author gets batches without writing an observer (issue 73): the skirmish
    fixture declares none, and its rows hold the base columns, its summary each side's wins."""
    from hexwar.core.metrics import BASE_COLUMNS
    from hexwar.sim.runner import summary
    from hexwar.registry import get

    info = get("skirmish")
    assert info.batch is None
    rows = simulate(parse_setup("skirmish"), 6, 2, tmp_path / "s.csv", workers=1)
    assert len(rows) == 6 and set(BASE_COLUMNS) <= set(rows[0])
    assert {r["winner"] for r in rows} <= {"allies", "germans", ""}
    assert all(int(r["end_turn"]) >= 1 and int(r["orders"]) > 0 for r in rows)
    summ = summary(rows, info.batches.metrics)
    wins = sum(r["winner"] == "allies" for r in rows)
    assert summ["allies_win_rate"] == pytest.approx(wins / 6)
    assert summ["games"] == 6


@pytest.mark.parametrize("text", ["narvik:random", "kampen:random", "europa:random", "konflikt:random"])
def test_a_front_games_row_is_the_base_row_of_its_own_result_and_the_front_columns(text):
    """Each bundled game's observer extends the base row (issue 73): who won, how and when
    come from the game's own ``result``; ``allied_win`` agrees with the winner."""
    from hexwar.core.observe import Observer
    from hexwar.core.replay import replay
    from hexwar.games.common import front
    from hexwar.sim.runner import record_one
    from hexwar.sim.setups import build_game

    row, log = record_one(parse_setup(text), 0, 3)
    end = replay(build_game(parse_setup(text)), log)
    base = Observer({})
    base.orders = int(row["orders"])
    assert {k: str(v) for k, v in base.row(end).items()} == {k: str(row[k]) for k in ("winner", "level", "end_turn", "orders")}
    assert set(front.COLUMNS) <= set(row)
    assert str(row["allied_win"]) == str(int(row["winner"] == "allies"))
