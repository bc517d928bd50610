"""The coach (issue 57): ``hint`` in the terminal (the web board's button sends the same
line: tests/ui/test_web_browser.py clicks it) and ``hexwar review`` after a game. The
searches here are capped by playouts, not by the clock (``searcher`` patched), so every
figure is the same on every machine."""

from __future__ import annotations

import io
import json
import random

import pytest
from rich.console import Console
from typer.testing import CliRunner

from hexwar import registry
from hexwar.games.narvik.bots import PriorityBot
from hexwar.ui import coach
from hexwar.ui.cli import app
from hexwar.ui.play import terminal
from hexwar.ui.session import Session

SEEN: list[object] = []
CAP = {"playouts": 40}


@pytest.fixture
def capped(monkeypatch):  # type: ignore[no-untyped-def]
    """The coach's searches capped at 40 playouts with an unbounded clock; the states they
    are asked about kept in ``SEEN``."""
    real = coach.searcher
    SEEN.clear()

    def searcher(game_name, side, think, seed, playouts=None):  # type: ignore[no-untyped-def]
        bot = real(game_name, side, 1e9, seed, CAP["playouts"])
        if bot is None:
            return None
        advise = bot.advise

        def spy(state, legal, first=None):  # type: ignore[no-untyped-def]
            SEEN.append(state.data)
            return advise(state, legal, first)

        bot.advise = spy
        return bot

    monkeypatch.setattr(coach, "searcher", searcher)
    yield
    CAP["playouts"] = 40


def _narvik_terminal(lines: list[str], seed: int = 5):  # type: ignore[no-untyped-def]
    info = registry.get("narvik")
    s = info.build().new_state(seed)
    buf = io.StringIO()
    it = iter(lines)
    t = terminal(info.presenter, s, {"allies"}, {"germans": PriorityBot("germans", seed)}, Console(file=buf, width=400),
                 None, lambda prompt: next(it, "quit"))
    t.run()
    return buf.getvalue(), s


def _to_an_action(s, seed: int = 5):  # type: ignore[no-untyped-def]
    """Play priority bots to the Allies' first action with moves."""
    bots = {x: PriorityBot(x, seed) for x in ("allies", "germans")}
    while not (s.current_side() == "allies" and any(o.kind == "move" for o in s.legal_orders())):
        side = s.current_side()
        s.apply(bots[side].choose(s.view_for((side,)), s.legal_orders()))
    return s


def test_a_hint_rates_three_listed_orders_from_the_persons_view_only(capped) -> None:  # type: ignore[no-untyped-def]
    info = registry.get("narvik")
    s = _to_an_action(info.build().new_state(5))
    p = info.presenter(Session(s, {"allies"}, {"germans": PriorityBot("germans", 5)}, None, None))
    legal = s.legal_orders()
    advice, said = coach.hint(p.session, p)
    assert "40 playouts" in said and "from your side's view only" in said
    assert len(advice) == 3
    for a in advice:
        assert legal[a.number - 1] == a.order  # its number in the person's list gives it
        assert 0 <= a.chance <= 1 and a.playouts >= 1
        assert a.explained.startswith(a.order.text())  # the presenter's explanation of the order
        assert f"order {a.number}, expected margin {a.margin:+.1f}" in a.line(1) and "estimated win chance" in a.line(1)
        lo, hi = a.line(1).split("estimated win chance ")[1].split("(")[1].split(",")[0].split("-")
        assert float(lo.rstrip("%")) <= round(100 * a.chance) <= float(hi.rstrip("%"))  # with its interval
    # 74: best first by the figure shown, each tried at least a fifth as often as the most tried
    assert [a.margin for a in advice] == sorted((a.margin for a in advice), reverse=True)
    assert min(a.playouts for a in advice) >= coach.TRIED * max(a.playouts for a in advice)
    # 11.0: the search was asked about the Allies' view: every face-down German counter hidden
    hidden = {u.id for u in s.data.units.values() if u.side == "germans" and u.concealed}
    assert hidden and SEEN
    for data in SEEN:
        assert all(data.units[uid].type == "hidden" for uid in hidden if uid in data.units)  # type: ignore[attr-defined]


def test_hint_in_the_terminal_and_its_refusals(capped) -> None:  # type: ignore[no-untyped-def]
    out, s = _narvik_terminal(["hint", "hint soon", "hint 99"])
    assert "hint for the allies: the search bot weighed this decision" in out
    assert "1. order " in out and "estimated win chance" in out
    assert "hint takes the seconds the search may think, from 0.05 to 60 (not 'soon')" in out
    assert "(not '99')" in out
    assert len(s.log) == 0  # a hint gives no order


def test_no_hint_without_a_decision_or_a_search_bot() -> None:
    info = registry.get("narvik")
    s = info.build().new_state(5)
    watching = info.presenter(Session(s, set(), {x: PriorityBot(x, 5) for x in info.sides}, None, None))
    assert coach.hint(watching.session, watching) == ([], "no hint: no decision of yours now")
    sk = registry.get("skirmish")
    assert "search" not in sk.bots
    t = sk.build().new_state(1)
    p = sk.presenter(Session(t, set(sk.sides), {}, None, None))
    advice, said = coach.hint(p.session, p)
    assert advice == [] and said == "no hint: skirmish has no search bot"


def _saved_game(tmp_path, n: int = 40):  # type: ignore[no-untyped-def]
    """A Kampen om Norge Scenario 1 game saved from the coalition's seat, the coalition
    playing random orders (a weak player) against the German priority bot, for ``n`` orders."""
    info = registry.get("kampen")
    s = info.build().new_state(7)
    s.log.meta.update(scenario=info.default_scenario, board=info.default_board, switches=[], seat="coalition",
                      opponent="priority", think=1.0)
    path = tmp_path / "weak.hexwar"
    s.attach_save(path)
    rng, bot = random.Random(7), info.bot("priority", "germans", 7)
    while len(s.log) < n and not s.is_over():
        side = s.current_side()
        legal = s.legal_orders()
        s.apply(bot.choose(s.view_for((side,)), legal) if side == "germans" else rng.choice(legal))
    s.close()
    return path, s


def test_review_names_the_decisions_that_lost_the_most_with_the_order_preferred(capped, tmp_path) -> None:  # type: ignore[no-untyped-def]
    CAP["playouts"] = 120
    path, s = _saved_game(tmp_path)
    game = registry.get("kampen").build()
    sides = ["norwegians", "allies"]
    slips, searched = coach.review(game, s.log, sides, most=5)
    assert searched > 0
    assert slips, "random play loses estimated win chance somewhere"
    assert [x.loss for x in slips] == sorted((x.loss for x in slips), reverse=True)
    for x in slips:
        played = game.orders.from_dict(s.log.entries[x.seq].order)
        assert x.played == played.text() and x.side in sides and played.side == x.side
        assert x.preferred != x.played
        assert x.loss >= coach.REVIEW_FLOOR
        # more than the search's noise: twice the standard error of the two means, each order
        # searched on its own with the same budget (the duel)
        assert x.loss > 2 * x.noise > 0
        assert x.preferred_playouts == x.played_playouts == 120
    # only the person's sides are reviewed: the Germans' (the bot's) decisions are not searched
    assert all(s.log.entries[x.seq].order["side"] in sides for x in slips)


def test_hexwar_review_in_words_and_json_and_its_refusals(capped, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path, _ = _saved_game(tmp_path, 30)
    runner = CliRunner()
    res = runner.invoke(app, ["review", str(path), "--top", "3", "--json"])
    assert res.exit_code == 0, res.output
    got = json.loads(res.output)
    assert got["sides"] == ["allies", "norwegians"] or got["sides"] == ["norwegians", "allies"]
    assert got["decisions"] > 0 and len(got["slips"]) <= 3
    assert got["floor"] is None  # --top: the three worst, whatever their size (74)
    assert [x["loss"] for x in got["slips"]] == sorted((x["loss"] for x in got["slips"]), reverse=True)
    floored = json.loads(runner.invoke(app, ["review", str(path), "--floor", "1.5", "--json"]).output)
    assert floored["floor"] == 1.5 and all(x["loss"] >= 1.5 and x["loss"] > 2 * x["noise"] for x in floored["slips"])
    words = runner.invoke(app, ["review", str(path), "--top", "3"])
    assert words.exit_code == 0 and "decisions of the" in words.output and "searched again" in words.output
    other = runner.invoke(app, ["review", str(path), "--side", "germans"])
    assert other.exit_code != 0 and "until it is over, a review shows only what they were shown" in str(other.exception)
    assert "from 0.05 to 10" in str(runner.invoke(app, ["review", str(path), "--think", "0"]).exception)
    assert "from 1 to 100" in str(runner.invoke(app, ["review", str(path), "--top", "0"]).exception)
    assert "0 or more" in str(runner.invoke(app, ["review", str(path), "--floor", "-1"]).exception)


def test_review_during_a_game_searches_the_persons_decisions_so_far_and_refuses_bad_seconds(capped, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # the web board's review button sends the same line
    path, s = _saved_game(tmp_path, 30)
    info = registry.get("kampen")
    p = info.presenter(Session(s, {"norwegians", "allies"}, {"germans": info.bot("priority", "germans", 7)}, None, None))
    lines = coach.review_now(p.session, "")
    mine = sum(1 for e in s.log.entries if e.order["side"] in ("norwegians", "allies"))
    searched = int(lines[0].split()[0])
    assert 0 < searched <= mine and "of the allies and the norwegians searched again, 0.5 s each" in lines[0]
    assert all(x.startswith("  order ") and "the search preferred" in x for x in lines[1:]) or "no decision lost" in lines[1]
    assert coach.review_now(p.session, "soon") == ["review takes the seconds the search thinks on each decision, "
                                                   "from 0.05 to 10 (not 'soon')"]
    watching = info.presenter(Session(s, set(), {x: info.bot("priority", x, 7) for x in info.sides}, None, None))
    assert coach.review_now(watching.session, "") == ["no review: you command no side in this game"]
    out, t = _narvik_terminal(["review 0.1"])
    assert "0 decisions of the allies searched again, 0.1 s each" in out and len(t.log) == 0


def _planted_blunder():  # type: ignore[no-untyped-def]
    """Assault on Narvik played by the priority bots (seed 3) to order 252, then saved as a
    game played on from there: the Allies' fourth order is a blunder planted in it, a lone
    battalion (2SWB) sent against the German stack in 2312 that the whole Allied stack beside
    it could assault together; the priority bots play every other order, 14 in all."""
    from hexwar.core.log import EventLog
    from hexwar.core.play import PlayState

    info = registry.get("narvik")
    g = info.build()
    s = g.new_state(3)
    bots = {x: PriorityBot(x, 3) for x in info.sides}
    while len(s.log) < 252:
        side = s.current_side()
        s.apply(bots[side].choose(s.view_for((side,)), s.legal_orders()))
    p = PlayState(g, s.data.clone(), EventLog(dict(s.log.meta, start=s.data.to_json(), seat="allies")))
    planted = None
    while len(p.log) < 14:
        side = p.current_side()
        legal = p.legal_orders()
        lone = next((o for o in legal if o.text() == "assault 2312 with 2SWB"), None) if side == "allies" else None
        if lone is not None and planted is None:
            together = [o for o in legal if o.kind == "land_assault" and o.target == "2312" and len(o.units) > 2]
            assert together, "the Allied stack could assault 2312 together"
            assert sum(u.side == "germans" for u in p.data.at("2312")) >= 2  # a stack
            planted = len(p.log)
            p.apply(lone)
            continue
        p.apply(bots[side].choose(p.view_for((side,)), legal))
    assert planted is not None, "the position offers the lone assault"
    return g, p, planted


def test_74_review_names_a_planted_blunder_first_with_the_order_the_search_preferred_and_why(capped) -> None:  # type: ignore[no-untyped-def]
    """Issue 74: a lone battalion sent into a stack is the decision a review names first,
    ranked by the expected margin it lost (the Allies' win chance hardly moves when they are
    behind), with the search's choice: the stack's assault together, its odds explained."""
    CAP["playouts"] = 60
    g, p, planted = _planted_blunder()
    slips, searched = coach.review(g, p.log, ["allies"], most=3, why=coach.explainer("narvik", ["allies"]))
    assert searched >= 3 and slips
    first = slips[0]
    assert first.seq == planted and first.played == "assault 2312 with 2SWB"
    assert first.preferred.startswith("assault 2312 with ") and "2SWB" in first.preferred and first.preferred.count(",") >= 2
    assert first.loss > 2 * first.noise and first.played_playouts == first.preferred_playouts == 60
    assert first.why.startswith(first.preferred) and "before the die" in first.why  # the odds of the assault preferred
    assert f"order {planted + 1} (turn " in first.line() and "of expected margin lost" in first.line()


def test_74_a_hint_asked_twice_gives_the_same_orders_and_figures(capped) -> None:  # type: ignore[no-untyped-def]
    """Issue 74: a hint searches a fixed number of playouts, seeded by the position, so the
    same position gets the same hint, on any machine however busy; in two games' positions."""
    CAP["playouts"] = 120
    info = registry.get("narvik")
    s = _to_an_action(info.build().new_state(5))
    p = info.presenter(Session(s, {"allies"}, {"germans": PriorityBot("germans", 5)}, None, None))
    first, _ = coach.hint(p.session, p)
    again, _ = coach.hint(p.session, p)
    assert [(a.order, a.playouts, a.margin) for a in first] == [(a.order, a.playouts, a.margin) for a in again]
    path, ks = _saved_game_for_hint()
    k = registry.get("kampen")
    kp = k.presenter(Session(ks, {"norwegians", "allies"}, {"germans": k.bot("priority", "germans", 7)}, None, None))
    one, _ = coach.hint(kp.session, kp)
    two, _ = coach.hint(kp.session, kp)
    assert one and [(a.order, a.margin) for a in one] == [(a.order, a.margin) for a in two]


def _saved_game_for_hint():  # type: ignore[no-untyped-def]
    """Kampen om Norge at the coalition's first decision with a choice."""
    info = registry.get("kampen")
    s = info.build().new_state(7)
    bot = info.bot("priority", "germans", 7)
    while s.current_side() == "germans" or len(s.legal_orders()) < 2:
        s.apply(bot.choose(s.view_for((s.current_side(),)), s.legal_orders()) if s.current_side() == "germans"
                else s.legal_orders()[0])
    return None, s
