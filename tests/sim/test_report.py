"""hexwar compare: a report with figures, significance and exact-vs-sampled combats."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hexwar.sim.report as report
from hexwar.sim import parse_setup
from hexwar.sim.report import compare, exact_vs_sampled
from hexwar.sim.runner import read_rows
from hexwar.sim.stats import holm, mcnemar_exact, mean_sd, two_proportions, wilson

pytest.importorskip("matplotlib")


def test_compare_writes_a_report_with_figures_and_tests(tmp_path):
    setups = [parse_setup("kampen@norway"), parse_setup("kampen@nordland-hex")]
    path = compare(setups, [50, 50], 3, tmp_path, "test report", workers=1)
    text = path.read_text()
    for part in ("| 1 | `kampen/intro-narvik@norway:priority` | 50 |", "## Which differences are significant",
                 "## Exact where possible", "## What is compared", "## Reach before results", "win-rates.png",
                 "narvik-falls.png"):
        assert part in text, part
    opening = text[:text.index("## In short")]  # issue 72: each board's scale before any finding
    assert "- **norway**, setup 1: 44 land areas" in opening
    assert "- **nordland-hex**, setup 2: 15 km hexes cut from the norway area map; one area step of the rules is 5 hex" in opening
    busiest = text[text.index("| # | busiest places"):].split("\n\n")[0]
    assert "| 2 | Narvik " in busiest and "1622" not in busiest and "narvik (" not in busiest  # names, not ids
    for fig in ("win-rates.png", "game-length.png", "narvik-falls.png", "per-game.png"):
        assert (tmp_path / fig).stat().st_size > 5000
    # the report's numbers are the rows' numbers
    rows = read_rows(next((tmp_path / "rows").glob("*norway*.csv")))
    k = sum(int(r["allied_win"]) for r in rows)
    lo, hi = wilson(k, len(rows))
    assert f"{k / len(rows):.3f} ({lo:.3f}-{hi:.3f})" in text
    # the game length says what it counts: Kampen om Norge's game rounds
    length = sum(int(r["end_turn"]) for r in rows) / len(rows)
    assert f"| {length:.2f} ± " in text and " game rounds |" in text
    from hexwar.games.common.front import NARVIK_FALLS

    fell = [t for t in map(NARVIK_FALLS.of, rows) if t is not None]
    assert "| when it falls |" in text and f"| {sum(fell) / len(fell):.2f} ± " in text  # when Narvik falls, in game rounds too


def test_a_report_gives_each_games_length_in_what_it_counts():
    assert report._turns("narvik/scenario@narvik:priority", 9, 1.25) == "9.00 ± 1.25 turns"
    assert report._turns("kampen/intro-narvik@norway:priority", 1.5) == "1.50 game rounds"
    assert report._turns("konflikt/envelopment@table:random", 6.4) == "6.40 turns"


def test_a_report_on_games_without_narvik_has_no_narvik_figure_and_draws_without_a_warning(tmp_path):
    # Konflikt '47 (make reports-konflikt) has no Narvik to fall: its report leaves that
    # figure out, and drawing the others warns of nothing (no legend without labels)
    import warnings

    setups = [parse_setup("konflikt/envelopment@table:random"), parse_setup("konflikt/envelopment@table-areas:random")]
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)  # what matplotlib warns with (not a library's deprecations)
        path = compare(setups, [6, 6], 3, tmp_path, "test report", workers=1)
    assert "narvik-falls.png" not in path.read_text() and not (tmp_path / "narvik-falls.png").exists()
    assert (tmp_path / "game-length.png").stat().st_size > 5000


def test_a_preset_writes_into_the_checkouts_docs_or_when_installed_the_current_folders(tmp_path):
    # make reports regenerates the checkout's docs/; an installed wheel's bundled data (what
    # `pip install .` gives) are no place for a report: it goes where the user runs it
    p = report.presets()["games"]
    here = tmp_path / "here"
    checkout = tmp_path / "checkout"
    assert report.preset_folder(p, root=checkout, cwd=here) == checkout / "docs" / "compare-games"
    wheel = Path(report.__file__).resolve().parents[1] / "_bundled"
    assert report.preset_folder(p, root=wheel, cwd=here) == here / "docs" / "compare-games"


def test_exact_vs_sampled_uses_enumerated_odds():
    rows = [{"combats": '{"2v1": [10, 8]}'}, {"combats": '{"2v1": [6, 5]}'}]
    (e,) = exact_vs_sampled("kampen/intro-narvik@norway:priority", rows, min_n=1)
    assert e["n"] == 16 and e["sampled"] == 13 / 16
    assert str(e["exact"]) == "181/216"


def test_significance_helpers():
    assert two_proportions(10, 100, 10, 100) == 1.0
    assert two_proportions(90, 100, 10, 100) < 1e-10
    assert holm([0.5, 0.001]) == [False, True]


def test_mcnemar_exact_is_the_binomial_tail_of_the_discordant_pairs():
    assert mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(5, 0) == mcnemar_exact(0, 5) == 2 / 2**5  # symmetric
    assert mcnemar_exact(21, 0) < 1e-5
    assert mcnemar_exact(6, 4) == 2 * (1 + 10 + 45 + 120 + 210) / 1024  # a near tie is no evidence (0.754)
    # 10 against 2: P(X <= 2 | n=12, 1/2) = (1 + 12 + 66) / 4096, doubled
    assert abs(mcnemar_exact(10, 2) - 2 * 79 / 4096) < 1e-12
    assert 0.05 < mcnemar_exact(8, 2) < 0.2 and mcnemar_exact(9, 1) < 0.05  # where the line falls at n = 10


@settings(max_examples=200)
@given(st.lists(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), min_size=2, max_size=60), st.randoms())
def test_a_mean_and_sd_are_the_same_to_the_bit_in_any_order_of_the_rows(xs, rnd):
    # a batch's rows come in the order its processes finish them: a report played again must
    # not change in its last digit (summary.json's sd did, with a plain sum)
    ys = list(xs)
    rnd.shuffle(ys)
    a, b = mean_sd(xs), mean_sd(ys)
    assert a == b
    assert a["sd"] >= 0 and abs(a["mean"] - sum(xs) / len(xs)) <= 1e-6 * max(1.0, max(abs(x) for x in xs))


def test_reports_sharing_a_folder_of_rows_play_each_game_once(tmp_path, monkeypatch):
    # the presets share docs/rows/: a setup's game i of a batch seed is the same game in every
    # report, so a second report with that setup takes its rows and plays only what it adds
    import hexwar.sim.runner as runner

    played: list[tuple[str, int]] = []
    real = runner.run_chunk

    def counted(setup, indices, batch_seed):
        played.extend((setup.label, i) for i in indices)
        return real(setup, indices, batch_seed)

    monkeypatch.setattr(runner, "run_chunk", counted)
    shared = tmp_path / "rows"
    a, b = parse_setup("kampen@norway"), parse_setup("kampen@nordland-hex")
    first = compare([a, b], [12, 12], 3, tmp_path / "one", "one", workers=1, rows=shared)
    assert sorted(played) == sorted([(a.label, i) for i in range(12)] + [(b.label, i) for i in range(12)])
    played.clear()
    c = parse_setup("kampen@nordland-areas")
    second = compare([a, c], [16, 12], 3, tmp_path / "two", "two", workers=1, rows=shared)
    assert sorted(played) == sorted([(a.label, i) for i in range(12, 16)] + [(c.label, i) for i in range(12)])
    assert not (tmp_path / "one" / "rows").exists() and not (tmp_path / "two" / "rows").exists()
    # each report says where its rows are, and its figures are its own games'
    assert "cached under `../rows/`" in first.read_text() and "cached under `../rows/`" in second.read_text()
    assert "| 1 | `kampen/intro-narvik@norway:priority` | 16 |" in second.read_text()


SHIPPED_BOARDS = [["kampen/intro-narvik@norway:priority", "kampen/intro-narvik@nordland-areas:priority",
                   "kampen/intro-narvik@nordland-hex:priority", "kampen/intro-narvik@nordland-hex-km20-step2:priority"],
                  ["kampen/intro-narvik@norway:priority", "narvik/scenario@narvik:priority"],
                  ["konflikt/hold_until_relieved@table:priority", "konflikt/hold_until_relieved@table-areas:priority"]]


@pytest.mark.parametrize("labels", SHIPPED_BOARDS, ids=["kampen-boards", "two-games", "konflikt-tables"])
def test_a_report_opens_with_each_boards_scale_before_any_finding(labels):
    """Issue 72: the opening of every comparison states each board's scale and conversion, in
    the game's words or the board's own; a board with none fails here."""
    setups = [parse_setup(x) for x in labels]
    lines = report.opening(setups)
    assert lines[0] == "## What is compared"
    for i, st in enumerate(setups, 1):
        line = next((x for x in lines if x.startswith(f"- **{st.board}**")), None)
        assert line is not None, f"no scale for {st.board}"
        assert f"setup {i}" in line or f"setups {i}" in line or f", {i}" in line
        assert any(unit in line for unit in (" km ", " km;", "-inch", "inches")), line
    if any(st.game in ("kampen", "konflikt") for st in setups):
        assert "## Reach before results" in lines


def test_the_conversion_parameters_reach_the_scale_line():
    """A sweep's board names its parameters, and its scale says them (maps/nordland-hex.yaml)."""
    lines = report.opening([parse_setup("kampen@nordland-hex-km20-step2")])
    assert any("20 km hexes" in x and "2 hex steps (about 40 km; set by the board's name" in x for x in lines), lines


def test_compare_sweep_plays_each_value_and_draws_it_against_the_area_map(tmp_path):
    """``hexwar compare --sweep`` (issue 72): the swept setup at each value, the baseline as a
    line, the reach of each value's board first, and where they meet and part."""
    from typer.testing import CliRunner

    from hexwar.ui.cli import app

    out = tmp_path / "sweep"
    res = CliRunner().invoke(app, ["compare", "kampen@norway:priority", "kampen@nordland-hex:priority", "--sweep",
                                   "step=1,5", "--games", "12", "--workers", "1", "--out", str(out), "--title", "sweep"])
    assert res.exit_code == 0, res.output
    text = (out / "report.md").read_text()
    assert text.index("## What is compared") < text.index("## Reach before results") < text.index("## In short")
    assert "- **nordland-hex-step1**, setup 2: 15 km hexes" in text and "- **norway**, setup 1: 44 land areas" in text
    assert "**Cannot arrive** on nordland-hex-step1: the Germans cannot reach Bardufoss" in text
    assert "The conversion's default is an area step of 5 hexes" in text
    assert "| priority | 1 | nordland-hex-step1 | 12 |" in text and "| priority | area map | norway | 12 |" in text
    assert (out / "sweep.png").stat().st_size > 20_000
    for bad, said in (("step=1", "two or more values"), ("size=1,2", "give step=1,2,3 or km=10,15,20"),
                      ("step=1.5,2", "whole numbers for step"), ("km=a,b", "numbers separated by commas")):
        res = CliRunner().invoke(app, ["compare", "kampen@norway", "kampen@nordland-hex", "--sweep", bad, "--out",
                                       str(tmp_path / "bad")])
        assert res.exit_code != 0 and said in res.output + str(res.exception), (bad, res.output)
        assert not (tmp_path / "bad" / "report.md").exists()
