"""bench/bench_search.py's match file: games merged from other processes' files once each,
the match file's own row kept, in the order the match plays them (issue 17's match runs in
pieces, in two processes, over several sessions)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _bench():
    spec = importlib.util.spec_from_file_location("bench_search", ROOT / "bench" / "bench_search.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _row(seed, hero, winner, think=1.0):
    return {"seed": seed, "hero": hero, "think": think, "winner": winner, "turn": 10, "times": [], "playouts": []}


def test_merge_adds_each_game_once_keeps_the_files_own_row_and_sorts_by_seed(tmp_path):
    m, a, b = tmp_path / "match.jsonl", tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    m.write_text(json.dumps(_row(5, "allies", "allies")) + "\n")
    a.write_text("".join(json.dumps(r) + "\n" for r in
                         (_row(5, "allies", "germans"), _row(5, None, None), _row(5, "germans", "germans"))))
    b.write_text(json.dumps(_row(1, None, "allies")) + "\n" + json.dumps(_row(1, "allies", "allies", think=0.5)) + "\n")
    assert _bench().merge(str(m), [str(a), str(b), str(tmp_path / "missing.jsonl")]) == 5
    rows = [json.loads(x) for x in m.read_text().splitlines()]
    assert [(r["seed"], r["think"], r["hero"]) for r in rows] == [
        (1, 0.5, "allies"), (1, 1.0, None), (5, 1.0, "allies"), (5, 1.0, "germans"), (5, 1.0, None)]
    assert rows[2]["winner"] == "allies"  # the match file's own game, not a.jsonl's of the same seed and seat
    assert not (tmp_path / "match.jsonl.tmp").exists()


def test_the_readme_figures_pair_the_seats_with_the_baseline_seed_by_seed(tmp_path):
    b = _bench()
    assert b.spans([0, 1, 2, 50, 51, 53]) == "0-2, 50-51 and 53" and b.spans([7]) == "7"
    done = {"allies": [dict(_row(s, "allies", w), commit="abc1234", times=[1.0], playouts=[80]) for s, w in
                       ((0, "allies"), (1, "allies"), (2, None))],
            "germans": [dict(_row(s, "germans", w), commit="abc1234", times=[0.5], playouts=[90]) for s, w in
                        ((0, "germans"), (1, "allies"), (2, "germans"))],
            None: [dict(_row(s, None, w), commit="abc1234") for s, w in ((0, "germans"), (1, "allies"), (2, None))]}
    text = b.markdown("narvik", done, 1.0, 100, "2026-11-27")
    assert text.startswith("So far (2026-11-27, engine at abc1234 throughout): 3 of the 100 seeds, every pairing "
                           "finished (seeds 0-2).")
    assert "| Allies | 2/3 = 66.7% [20.8%, 93.9%] wins, 1 draw | 1/3 = 33.3% [6.1%, 79.2%], 1 draw |" in text
    assert "as the Allies 1 against 0 (p = 1); as the Germans 1 against 0 (p = 1)" in text
    assert "over 6 decisions; playouts a decision: median 85." in text and "the one at 100 seeds" in text
    whole = b.markdown("narvik", done, 1.0, 3, "2026-11-27")  # the match's size reached: the verdict
    assert whole.startswith("The whole match (2026-11-27, engine at abc1234 throughout): all 3 seeds, every "
                            "pairing finished (seeds 0-2).") and whole.endswith("This is the verdict: the match's 3 seeds are all played.")
    readme = tmp_path / "README.md"
    readme.write_text("# x\n<!-- narvik so far -->\nold\n<!-- /narvik so far -->\nkept\n")
    b.put_block(str(readme), "narvik", text)
    assert readme.read_text() == f"# x\n<!-- narvik so far -->\n{text}\n<!-- /narvik so far -->\nkept\n"
