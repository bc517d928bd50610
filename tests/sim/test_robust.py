"""Comparisons that hold whatever the bots (issue 58): every setup played with more than one
pairing of bots, tests only between setups of the same bots, and each difference's verdict
across the pairings; the report's first lines say the findings in words."""

from __future__ import annotations

import pytest

from hexwar.core.metrics import Rate
from hexwar.sim import parse_setup, robust
from hexwar.sim.report import compare, with_bots

pytest.importorskip("matplotlib")

WIN = Rate("allied_win", "Allied wins", lambda r: r["allied_win"] == "1", test="Allied win rate")
A, B = "kampen/intro-narvik@norway", "kampen/intro-narvik@nordland-hex"


def _summary(rates: dict[str, float]) -> dict[str, dict[str, float]]:
    return {label: {"allied_win_rate": r} for label, r in rates.items()}


@pytest.mark.parametrize("effects, significant, kind", [
    ((0.2, 0.1), (True, True), "holds"),
    ((0.2, -0.1), (True, True), "some"),  # significant both ways, of opposite signs: the bots decide
    ((0.2, 0.1), (True, False), "some"),
    ((0.2, 0.1), (False, False), "none"),
])
def test_a_difference_holds_only_with_the_same_sign_and_significance_under_every_pairing(effects, significant, kind):
    rates = {}
    tests = []
    for bots, e in zip(("priority", "search:8"), effects):
        rates[f"{A}:{bots}"], rates[f"{B}:{bots}"] = 0.5 + e, 0.5
        tests.append((f"{A}:{bots}", f"{B}:{bots}", WIN, 0.01))
    [v] = robust.verdicts(tests, significant, _summary(rates), lambda m: m.test)
    assert v.kind == kind and (v.a, v.b, v.quantity) == (A, B, "Allied win rate")
    assert [round(e, 3) for e, _, _ in v.by.values()] == list(effects)
    if kind == "some":  # opposite signs are said only when both are significant
        assert "comes from the bots" in v.said() and ("opposite" in v.said()) == all(significant)
    words = robust.headline([v], {A: "on areas", B: "on hexes"})
    if kind == "holds":
        assert words == ["Allied win rate: higher for on areas than for on hexes with every pairing of bots (by 0.100 to 0.200)."]
    elif kind == "some":
        assert words[0].startswith("1 difference comes from the bots")
    else:
        assert words == ["No difference is significant with every pairing of bots."]


def test_a_difference_tested_under_one_pairing_only_gets_no_verdict():
    C = "kampen/intro-narvik@nordland-areas"
    tests = [(f"{A}:priority", f"{B}:priority", WIN, 0.01), (f"{A}:search:8", f"{B}:search:8", WIN, 0.01),
             (f"{A}:priority", f"{C}:priority", WIN, 0.01)]
    rates = {f"{A}:priority": 0.6, f"{B}:priority": 0.5, f"{C}:priority": 0.4, f"{A}:search:8": 0.5, f"{B}:search:8": 0.4}
    assert [(v.a, v.b) for v in robust.verdicts(tests, [True] * 3, _summary(rates), lambda m: m.test)] == [(A, B)]
    assert with_bots("kampen@norway:priority", "search:8") == "kampen@norway:search:8"
    assert robust.arm(parse_setup("kampen:search:8").label) == "kampen/intro-narvik@norway"


def test_a_report_with_two_pairings_tests_within_a_pairing_and_says_what_holds(tmp_path):
    setups = [parse_setup(with_bots(x, b)) for b in ("priority", "search:4") for x in ("kampen@norway", "kampen@nordland-hex-step1")]  # one hex a round: far apart
    text = compare(setups, [8] * 4, 3, tmp_path, "two pairings", workers=1).read_text()  # the form, not the figures
    assert text.index("## In short") < text.index("| # | setup |")  # the findings first
    assert "## Whatever the bots?" in text and "| setups | quantity | `priority` | `search:4` | verdict |" in text
    table = text[text.index("## Which differences are significant"):text.index("## Whatever the bots?")]
    assert "| 1 vs 2 |" in table and "| 3 vs 4 |" in table
    assert "| 1 vs 3 |" not in table and "| 2 vs 3 |" not in table  # never the bots against each other
    rows = text[text.index("## Whatever the bots?"):].split("\n\n")[2].splitlines()[2:]
    assert rows and all(r.startswith("| 1 vs 2 |") for r in rows)
    assert all(any(w in r for w in ("holds with both pairings", "comes from the bots", "significant with no pairing")) for r in rows)
    assert "kampen intro-narvik on norway, search:4 bots" in text  # the bots in words where they are not the batch bot


def test_the_shipped_boards_comparison_plays_every_board_with_the_priority_bots_and_the_search_bot():
    from hexwar.sim.report import presets

    specs, games = presets()["boards"].arms()
    arms = [robust.arm(parse_setup(x).label) for x in specs]
    assert arms[:3] == arms[3:] and len(set(arms)) == 3
    assert [robust.pairing(parse_setup(x).label) for x in specs] == ["priority"] * 3 + ["search:8"] * 3
    assert games == [2000] * 3 + [300] * 3


def test_a_rules_switches_experiment_tests_each_switch_against_the_game_as_written():
    from hexwar.sim.report import _pairs

    labels = [parse_setup(x).label for x in ("narvik", "narvik+random_setup", "narvik+allied_concealment")]
    assert _pairs(labels) == [(labels[0], labels[1]), (labels[0], labels[2])]
    boards = [parse_setup(x).label for x in ("kampen@norway", "kampen@nordland-hex", "kampen@nordland-areas")]
    assert len(_pairs(boards)) == 3  # not an experiment on switches: every pair of boards
    assert parse_setup("narvik+allied_concealment").switches == ("allied_concealment",)
    with pytest.raises(ValueError, match="unknown switch 'fog'"):
        parse_setup("narvik+fog")


def test_every_row_says_where_combats_were_fought_and_how_often_objectives_changed_hands():
    # issue 58's drivers: the columns every game's row ends with, from the events themselves
    import json

    from hexwar.core.observe import Observer
    from hexwar.sim.runner import record_one

    row, log = record_one(parse_setup("narvik:priority"), 2, 1)
    assaults = [ev["target"] for e in log.entries for ev in e.events if ev["type"] == "assault"]
    where = json.loads(row["combat_at"])
    assert assaults and sum(where.values()) == len(assaults) and set(where) == set(assaults)
    moves = [len(ev["path"]) - 1 for e in log.entries for ev in e.events if ev["type"] == "move"]
    by = {int(k): n for k, n in json.loads(row["move_lengths"]).items()}
    assert sum(by.values()) == len(moves) and sum(k * n for k, n in by.items()) == sum(moves)
    gone = [ev["rule"] for e in log.entries for ev in e.events if ev["type"] == "eliminated"]
    assert json.loads(row["losses_by"]) == {r: gone.count(r) for r in set(gone)}

    class Watch(Observer):  # an objective the side holds when the flag says so
        flag = {"x": False}

        def held(self, data, loc):
            return self.flag[loc]

        def fought_at(self, ev):
            return ev.get("at")

    w, view = Watch({"x": "the bridge"}), type("V", (), {"data": type("D", (), {"turn": 2})()})()
    for taken, ev in ((False, {"at": "x"}), (True, {"at": "x"}), (True, {}), (False, {"at": "y"}), (True, {})):
        Watch.flag["x"] = taken
        w(view, [ev])
    assert w.extra() == {"combat_at": '{"x": 2, "y": 1}', "changed_hands": '{"the bridge": 3}', "move_lengths": "{}",
                         "losses_by": "{}"}
    assert w.fell == {"the bridge": 2}


def test_a_report_shows_where_the_fighting_is_on_each_setups_board(tmp_path):
    setups = [parse_setup("kampen@norway"), parse_setup("kampen@nordland-hex")]
    text = compare(setups, [40, 40], 2, tmp_path, "where", workers=1).read_text()
    assert "## Where the fighting is, and who holds what" in text and "![combats a game at each place](combats-map.png)" in text
    assert (tmp_path / "combats-map.png").stat().st_size > 10_000 and (tmp_path / "move-lengths.png").stat().st_size > 10_000
    assert "| # | moves a game | locations a move (mean) |" in text and "| rule 4.2 step 6 |" in text
    for fig in ("changed-hands.png", "losses-by-cause.png"):  # a plot for each driver
        assert f"]({fig})" in text and (tmp_path / fig).stat().st_size > 10_000
    section = text[text.index("## Where the fighting is"):]
    assert "| 1 | " in section and "Narvik" in section and "| # | Bardufoss | Bjørnfjell | Narvik |" in section
