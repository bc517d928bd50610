"""Solitaire play: the loop with scripted input, saves that resume, replay, a golden game, tmux."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from hexwar.ui.bots_turn import bot_summary
from hexwar.core.engine import load_game
from hexwar.games.narvik import narvik_game
from hexwar.games.narvik.bots import PriorityBot
from hexwar.games.narvik.play import NarvikPresenter
from hexwar.games.narvik.play import describe
from hexwar.ui.play import terminal
from hexwar.ui.words import said_text

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "narvik-priority-seed1.txt"


def scripted(lines):
    it = iter(lines)

    def read(prompt):
        return next(it, "quit")

    return read


def test_play_loop_commands_save_undo_and_resume(tmp_path):
    g = narvik_game()
    path = tmp_path / "g.hexwar"
    s = g.new_state(3)
    s.attach_save(path)
    buf = io.StringIO()
    con = Console(file=buf, width=120)
    bots = {"germans": PriorityBot("germans", 3)}
    p = terminal(NarvikPresenter, s, {"allies"}, bots, con, path, scripted(["help", "1", "status", "map", "explain 1SG", "explain 2212", "explain last", "bogus", "undo", "1", "quit"]))
    assert p.run() == 0
    text = buf.getvalue()
    assert "Commands" in text and "map written to" in text and "not understood" in text and "took back 1" in text
    assert "fatigue of 1SG" in text and "ZoC of allies" in text
    n = len(s.log)
    back = load_game(g, path)
    assert len(back.log) == n and back.data.to_json() == s.data.to_json()
    svgs = list(tmp_path.glob("g.hexwar.turn*.svg"))
    assert svgs and "<svg" in svgs[0].read_text()


def test_allied_view_hides_german_counters(tmp_path):
    g = narvik_game()
    s = g.new_state(2)
    buf = io.StringIO()
    p = terminal(NarvikPresenter, s, {"allies"}, {"germans": PriorityBot("germans", 2)}, Console(file=buf), tmp_path / "x.hexwar", scripted(["explain KM-1", "quit"]))
    p.run()
    text = buf.getvalue()
    assert "a unit you can see" in text and "naval_infantry" not in text and "KM-1 " not in text.replace("explain KM-1", "")
    svg = p.snapshot().read_text()
    assert "KM-1" not in svg and ">?<" in svg


def golden_lines(seed=1):
    g = narvik_game()
    s = g.new_state(seed)
    bots = {side: PriorityBot(side, seed) for side in ("allies", "germans")}
    out = [f"Assault on Narvik, priority vs priority, seed {seed}"]
    while not s.is_over():
        side = s.current_side()
        o = bots[side].choose(s, s.legal_orders())
        ev = s.apply(o)
        out.append(f"{len(s.log) - 1:>4} t{s.data.turn} {side}: {o.text()}")
        out += [f"       {describe(e)}" for e in ev]
    r = s.result()
    out.append(f"result: {r.level}, VP {r.vp}")
    return out


def test_golden_playthrough_is_unchanged():
    """A change in rules or bots shows up as a diff of this file; regenerate with
    python -c 'from tests.ui.test_play import write_golden; write_golden()' and review it."""
    want = GOLDEN.read_text().splitlines()
    got = golden_lines()
    assert got == want


def write_golden() -> None:
    GOLDEN.write_text("\n".join(golden_lines()) + "\n")


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux not installed")
def test_scripted_tmux_session(tmp_path):
    """Play several turns in a real terminal, undo, save, quit, reload, continue (tests/tmux_session.sh)."""
    script = Path(__file__).resolve().parents[1] / "tmux_session.sh"
    env = dict(os.environ, HEXWAR_PYTHON=sys.executable, WORKDIR=str(tmp_path))
    p = subprocess.run(["bash", str(script)], capture_output=True, text=True, env=env, timeout=240)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-2000:]
    assert "RESUMED OK" in p.stdout


def test_map_supply_draws_lines_of_supply(tmp_path):
    g = narvik_game()
    s = g.new_state(3)
    s.data.bases.append("2503")  # Gratangsbotn, next to the Norwegians
    p = terminal(NarvikPresenter, s, {"allies"}, {"germans": PriorityBot("germans", 3)}, Console(file=io.StringIO()), tmp_path / "s.hexwar", scripted([]))
    paths = p.presenter.supply_paths()
    assert paths and all(path[-1] == "2503" and len(path) - 1 <= 10 for path in paths)  # 19.3
    svg = p.snapshot("supply").read_text()
    assert svg.count('class="supply"') == len(paths)
    assert "1SG 4-3" in svg  # counters show strength-MP (1st Scots Guards, in the Harstad box)


def test_explain_move_gives_mp_per_step_with_rule_sections(tmp_path):
    g = narvik_game()
    s = g.new_state(3)
    p = terminal(NarvikPresenter, s, {"allies"}, {"germans": PriorityBot("germans", 3)}, Console(file=io.StringIO()), tmp_path / "m.hexwar", scripted([]))
    u = s.data.units["6-I/12"]
    dest = next(n for n in g.board.neighbours(u.loc) if g.board.terrain(n) not in ("sea",) and not g.board.border(u.loc, n).is_water)
    text = said_text(p.presenter.explain(f"6-I/12 {dest}"))
    assert "movement" in text and "[14.1]" in text and "MP left" in text


def _at_a_move(seed=3):
    """A game played by the priority bots to the Allies' first decision offering moves."""
    g = narvik_game()
    s = g.new_state(seed)
    bots = {x: PriorityBot(x, seed) for x in ("allies", "germans")}
    for _ in range(300):
        legal = s.legal_orders()
        if s.current_side() == "allies" and any(o.kind == "move" for o in legal):
            return g, s
        s.apply(bots[s.current_side()].choose(s.view_for((s.current_side(),)), legal))
    raise AssertionError("no Allied move in 300 orders")


def test_a_short_move_order_takes_the_cheapest_path_there_14_1(tmp_path):
    g, s = _at_a_move()
    moves = [o for o in s.legal_orders() if o.kind == "move"]
    buf = io.StringIO()
    p = terminal(NarvikPresenter, s, {"allies"}, {"germans": PriorityBot("germans", 3)}, Console(file=buf, width=150), None, scripted([]))
    # a destination with two or more paths, if there is one
    by_dest: dict = {}
    for o in moves:
        by_dest.setdefault((o.unit, o.path[-1]), []).append(o)
    (unit, dest), options = max(by_dest.items(), key=lambda kv: len(kv[1]))
    costs = {o: p.presenter.path_cost(unit, o.path) for o in options}
    chosen = p.parse(f"move {unit} {dest}", s.legal_orders())
    assert chosen in options and costs[chosen] == min(costs.values())
    assert p.parse(f"move {unit} 0101", s.legal_orders()) is None or p.parse(f"move {unit} 0101", s.legal_orders()).path[-1] == "0101"


def test_terminal_list_filters_by_words_says_no_match_and_how_many_more(tmp_path):
    g, s = _at_a_move()
    buf = io.StringIO()
    unit = next(o.unit for o in s.legal_orders() if o.kind == "move")
    p = terminal(NarvikPresenter, s, {"allies"}, {"germans": PriorityBot("germans", 3)}, Console(file=buf, width=200), None,
               scripted([f"list move {unit}", "list zzz", "list move", "undo abc", "undo 0", "rules MAS", "rules", "rules xyz", "quit"]))
    p.run()
    text = buf.getvalue()
    listed = [ln for ln in text.splitlines() if ln.strip()[:1].isdigit() and f"move {unit} " in ln]
    assert listed and "no match: no legal order contains 'zzz'" in text
    n_moves = sum(1 for o in s.legal_orders() if o.kind == "move")
    assert n_moves <= 200 or f"{n_moves - 200} more" in text
    assert "undo takes a number of your orders (undo, undo 3), not 'abc'" in text and "from 1 up" in text
    assert "MAS: maximum air support" in text and "[18.2]" in text
    assert "terms: action, AD, advance, AFL" in text and "no term 'xyz'" in text  # by name, whatever the case


def test_refused_orders_say_why_with_the_rule_section_and_change_nothing(tmp_path):
    g, s = _at_a_move()
    buf = io.StringIO()
    before = s.data.to_json()
    unit = next(o.unit for o in s.legal_orders() if o.kind == "move")
    p = terminal(NarvikPresenter, s, {"allies"}, {"germans": PriorityBot("germans", 3)}, Console(file=buf, width=200), None,
               scripted([f"assault 0101 with {unit}", "quit"]))
    p.run()
    assert "refused: 0101 holds no enemy land units (15.1)" in buf.getvalue()
    assert s.data.to_json() == before


def test_after_the_bots_turn_the_terminal_sums_up_what_they_did(tmp_path):
    g = narvik_game()
    s = g.new_state(3)
    buf = io.StringIO()
    p = terminal(NarvikPresenter, s, {"allies"}, {"germans": PriorityBot("germans", 3)}, Console(file=buf, width=200), None,
               scripted(["1"] * 30 + ["quit"]))
    p.run()
    text = buf.getvalue()
    assert "while you waited: the germans " in text


def test_tab_completion_offers_the_next_word_of_legal_orders_and_commands():
    g, s = _at_a_move()
    p = terminal(NarvikPresenter, s, {"allies"}, {"germans": PriorityBot("germans", 3)}, Console(file=io.StringIO()), None, scripted([]))
    assert "move" in p.completions("mo") and "undo" in p.completions("un")
    unit = next(o.unit for o in s.legal_orders() if o.kind == "move")
    nxt = p.completions(f"move {unit} ")
    assert nxt and all(any(o.text().startswith(f"move {unit} {w}") for o in s.legal_orders()) for w in nxt)


def test_20_2_20_3_a_landing_or_unloading_that_sails_on_is_marked_and_summed_up_where_the_troops_land(tmp_path):
    """20.2, 20.3: ``land ... then`` and ``disembark ... then`` put the troops ashore where the
    ships stand and send the ships on; the map marks and the bots' summary name that hex,
    not the end of the ships' way home."""
    from hexwar.games.narvik.orders import Disembark, Landing

    g = narvik_game()
    s = g.new_state(11)
    buf = io.StringIO()
    p = terminal(NarvikPresenter, s, {"germans"}, {"allies": PriorityBot("allies", 11)}, Console(file=buf, width=200), None,
               scripted(["quit"]))
    home = ("1315", "1314", "harstad")
    for o in (Landing("allies", ("PUF-1",), "1315", then=home), Disembark("allies", "LC-1", home)):
        assert p.presenter.order_marks(o) == {"u": [o.ships[0] if isinstance(o, Landing) else o.ship], "f": "1315", "t": "1315"}
        assert bot_summary(p.presenter, [o]).endswith("(1315)")


def _sample(hint):
    """A value of an event field's type (what an event of that schema could hold)."""
    import types
    import typing

    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint in (str, int, bool, float):
        return {str: "x", int: 1, bool: True, float: 1.0}[hint]
    if origin is typing.Literal:
        return args[0]
    if origin is list:
        return [_sample(args[0]) if args else 1] * 2
    if origin is dict:
        return {_sample(args[0]): _sample(args[1])}
    if origin in (typing.Union, types.UnionType):
        return _sample(next(a for a in args if a is not type(None)))
    return 1


@pytest.mark.parametrize("name", ["narvik", "kampen", "europa", "konflikt"])
def test_every_event_a_game_can_log_reads_as_a_sentence_never_as_its_fields(name):
    """The play loop, the web board's history and ``hexwar replay`` word each event; an
    event with no sentence came out as 'reinforcements: faction germans, symbols 5, ...'.
    Every schema a game declares gets a sentence (the fixture skirmish, words none by design)."""
    import typing

    from hexwar.registry import get
    from hexwar.ui.words import describe as field_form

    info = get(name)
    g = info.build()
    say = info.describer(g)
    unworded = []
    for tag, schema in g.events.items():
        e = {k: _sample(h) for k, h in typing.get_type_hints(schema).items()}
        e["type"] = tag
        if say(e) == field_form(e):
            unworded.append(tag)
    assert len(g.events) > 20 and not unworded


@pytest.mark.parametrize("name", ["narvik", "kampen", "europa", "konflikt", "skirmish"])
def test_the_bots_turn_summed_up_has_a_past_tense_for_every_kind_of_order_a_game_lists(name):
    """'while you waited: the germans mission 2 times (1644)': a verb with no past tense
    came out as the order's first word. Every first word of the orders random games of each
    scenario list has one, in the game's own player (``past``) or the shared ``PAST``."""
    import random

    from hexwar.registry import get
    from hexwar.ui.words import PAST

    info = get(name)
    verbs: set[str] = set()
    for scenario, seed in ((sc, seed) for sc in info.scenarios for seed in range(4 if name == "kampen" else 1)):
        s = info.build(scenario).new_state(seed)
        rng = random.Random(seed)
        while not s.is_over() and len(s.log) < 800:
            legal = s.legal_orders()
            verbs |= {o.text().split(" ", 1)[0] for o in legal}
            s.apply(rng.choice(legal))
    past = {**PAST, **info.presenter.past}
    assert "move" in verbs or "play" in verbs
    assert not verbs - set(past), sorted(verbs - set(past))
