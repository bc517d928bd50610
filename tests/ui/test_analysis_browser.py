"""The analysis board in a real headless Chromium (issue 54): worked examples of the rulebooks
set up by clicks and drags, their figures read off the page. Screenshots go to
$HEXWAR_ARTIFACTS (CI keeps them)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")
from tests.ui import chromium as playwright_sync  # one Chromium for the process's browser tests
pytest.importorskip("uvicorn")

from tests.ui.test_web_browser import CHROMIUM, Served, artefacts, shot  # noqa: E402

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")

from hexwar.registry import get  # noqa: E402
from hexwar.ui.analysis import AnalysisBoard  # noqa: E402
from hexwar.web.analysis import WebAnalysis, make_analysis_app  # noqa: E402


def served(game: str, scenario: str | None, folder: Path) -> Served:
    """The analysis board of a game's scenario start on a free loopback port, for one test."""
    info = get(game)
    sc = scenario or info.default_scenario
    g = info.build(sc)
    head = {"game": game, "scenario": sc, "board": info.default_board, "switches": [], "seed": 0, "seen_by": "all"}
    board = AnalysisBoard(info, g, g.new_state(0).data, head, folder, f"{game}-example")
    return Served(app=make_analysis_app(WebAnalysis(board)))


def open_board(pw, url: str):
    browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
    page = browser.new_page(viewport={"width": 1500, "height": 950})
    page.goto(url)
    page.wait_for_selector("#svg > svg")
    page.wait_for_function("() => last !== null")
    return browser, page


def settle(page, before: int) -> None:
    """Wait until the page has drawn a new answer of the board."""
    page.wait_for_function("b => shown > b && pending === 0", arg=before)


def state_key(page) -> int:
    return page.evaluate("() => shown")


def click_place(page, loc: str) -> None:
    """Click a place of the map as a person does (its shape, or the counter standing on it)."""
    before = state_key(page)
    page.locator(f'#svg path.loc[data-loc="{loc}"]').first.dispatch_event("click")
    settle(page, before)


def tray_piece(page, piece: str):
    return page.locator(f'#tray .piece[data-piece="{piece}"]')


def take_from_tray(page, piece: str) -> None:
    """Click a piece of the tray: it is in hand, and the next place clicked takes it."""
    before = state_key(page)
    tray_piece(page, piece).scroll_into_view_if_needed()
    box = tray_piece(page, piece).bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    settle(page, before)


def pick_piece(page, piece: str) -> None:
    """Pick a piece as the tray's list does, and wait for its menu and figures."""
    before = state_key(page)
    page.evaluate("p => { hand = null; pick.piece = p; pick.loc = null; look(); }", piece)
    settle(page, before)


def figures(page) -> str:
    return page.inner_text("#figures")


def test_analysis_narvik_mountain_minimum_move_14_1_set_up_by_a_drag_and_read_off_the_page(tmp_path):
    """14.1: a British infantry battalion, MA 3, may enter a mountain hex in Winter although it
    costs 4 MP (the minimum move). 1SG is dragged from Harstad onto 0303 (rough), next to the
    mountain hex 0404; the weather is set to winter; the page shows 0404 in reach by the
    minimum move only, and the way there costs 4 MP."""
    folder = artefacts(tmp_path)
    with served("narvik", None, tmp_path) as url, playwright_sync.sync_playwright() as pw:
        browser, page = open_board(pw, url)
        shot(page, folder, "analysis-narvik-start")
        # the weather first: good, then back to winter, through the position's fields
        before = state_key(page)
        page.select_option('#tracks select[data-key="weather"]', "good")
        page.wait_for_function("() => last.tracks.find(t => t.key === 'weather').value === 'good'")
        page.select_option('#tracks select[data-key="weather"]', "winter")
        page.wait_for_function("() => last.tracks.find(t => t.key === 'weather').value === 'winter'")
        # drag 1SG from the tray onto 0303
        before = state_key(page)
        tray_piece(page, "1SG").scroll_into_view_if_needed()
        page.locator('#svg path.loc[data-loc="0303"]').first.scroll_into_view_if_needed()
        src = tray_piece(page, "1SG").bounding_box()
        dst = page.locator('#svg path.loc[data-loc="0303"]').first.bounding_box()
        page.mouse.move(src["x"] + 5, src["y"] + 5)
        page.mouse.down()
        page.mouse.move(src["x"] + 40, src["y"] + 40, steps=4)
        page.mouse.move(dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] / 2, steps=8)
        page.mouse.up()
        settle(page, before)
        assert page.evaluate("() => last.pieces.find(p => p.id === '1SG').loc") == "0303"
        assert "1SG placed at 0303" in page.inner_text("#said")
        text = figures(page)
        assert "1SG from 0303: 3 MP in winter (14.1)" in text
        assert "by the minimum move only (14.1): 0404" in text
        # the hex's label on the map: reached by the minimum move
        assert page.locator("#svg text.m-label", has_text="min").count() >= 1
        click_place(page, "0404")  # where the picked unit would go: the way there, explained
        text = figures(page)
        assert "enter 0404 (mountain = mountain): 4  [14.1]" in text
        assert "costs 4 > MP 3: allowed as the one-hex minimum move  [14.1]" in text
        shot(page, folder, "analysis-narvik-mountain")
        # in good weather the same step is no minimum move: the chart's good section
        page.select_option('#tracks select[data-key="weather"]', "good")
        page.wait_for_function("() => last.tracks.find(t => t.key === 'weather').value === 'good'")
        assert "in good" in figures(page)
        # play on from here: the position saved, a play board of it opened in its place
        page.fill("#name", "mountain")
        page.select_option("#seat", "allies")
        page.click("#play")
        page.wait_for_selector("#orders button", timeout=60_000)
        assert (tmp_path / "mountain.yaml").is_file() and (tmp_path / "mountain.hexwar").is_file()
        assert page.evaluate("() => last.heading").startswith("turn 1")
        shot(page, folder, "analysis-narvik-played-on")
        browser.close()


def test_analysis_kampen_example_1_hamar_across_mjosa_panzer_bakhold_speidertropp(tmp_path):
    """Kampen om Norge, Example 1, phase 2: 3 German battalions attack Hamar from Gjøvik across
    Mjøsa (a lake: floor(3/2) = 1 die) against 1 Norwegian battalion (1 die); DE plays Panzer
    (+1), NO Bakhold (+2), DE Speidertropp, which cancels Bakhold: DE 2 dice, NO 1."""
    folder = artefacts(tmp_path)
    with served("kampen", "basic", tmp_path) as url, playwright_sync.sync_playwright() as pw:
        browser, page = open_board(pw, url)
        # the Norwegian battalion in Gjøvik at the start goes back to the tray
        click_place(page, "gjovik")
        pick_piece(page, "norwegians@gjovik")
        before = state_key(page)
        page.fill('#fields input[data-key="battalions"]', "0")
        page.dispatch_event('#fields input[data-key="battalions"]', "change")
        settle(page, before)
        before = state_key(page)
        page.click("#clear")
        settle(page, before)
        for _ in range(3):  # three German battalions into Gjøvik, one click each
            take_from_tray(page, "germans")
            click_place(page, "gjovik")
        take_from_tray(page, "norwegians")
        click_place(page, "hamar")
        assert page.evaluate("() => last.pieces.find(p => p.id === 'germans@gjovik').count") == 3
        assert page.evaluate("() => last.pieces.find(p => p.id === 'norwegians@hamar').count") == 1
        # the attack: the attacking side, its area, then the target
        page.click("#attack-btn")
        page.select_option("#att-side", "germans")
        click_place(page, "gjovik")
        click_place(page, "hamar")
        for card, who in (("panzer", "cards"), ("speidertropp", "cards"), ("bakhold", "defend_cards")):
            before = state_key(page)
            page.check(f'#cards input[data-card="{card}"][data-who="{who}"]')
            settle(page, before)
        text = figures(page)
        # the combat phase's own ledger (issue 71: the odds count the dice with its ``pool``)
        assert "attacker: battalions 3 (across fjord/lake: halved), at most 5: 1 die [4.2]" in text
        assert "attacker: Panzer: 1 die [4.2 (card dice are not capped or halved)]" in text
        assert "defender: Bakhold (cancelled): 0 dice [4.2]" in text
        assert "dice: attacker 2, defender 1" in text
        shot(page, folder, "analysis-kampen-example-1")
        browser.close()


def test_analysis_europa_e5_stacking_an_hq_absorbs_a_unit_of_its_division(tmp_path):
    """E5 A: two ground units a hex; E5 C: an HQ absorbs units of its own formation, which then
    count nothing (the HQ itself always counts). 163HQ and two of its regiment's battalions put
    into an empty hex (1744) are 3 ground units, flagged; II/IR307 absorbed by 163HQ from its menu
    leaves 2 of 2, and the flag goes."""
    folder = artefacts(tmp_path)
    with served("europa", None, tmp_path) as url, playwright_sync.sync_playwright() as pw:
        browser, page = open_board(pw, url)
        for unit in ("163HQ", "I/IR307", "II/IR307"):
            take_from_tray(page, unit)
            click_place(page, "1744")
        problems = page.inner_text("#problems")
        assert "1744: germans overstacked, 3 ground units" in problems
        page.click("#play")  # a position that breaks a rule is checked, not played on
        page.wait_for_function("() => document.querySelector('#said').textContent.includes('mend what is flagged first')")
        pick_piece(page, "II/IR307")
        assert "germans at 1744: 3 ground units of 2" in figures(page)
        before = state_key(page)
        page.select_option('#fields select[data-key="absorbed"]', "163HQ")
        settle(page, before)
        text = figures(page)
        assert "germans at 1744: 2 ground units of 2" in text
        assert "II/IR307: absorbed by 163HQ: counts nothing (E5 C)" in text
        assert "1744" not in page.inner_text("#problems")
        shot(page, folder, "analysis-europa-stacking")
        # save the position: a file beside the others, and the command that plays on from it
        page.fill("#name", "stacked")
        page.click("#save")
        page.wait_for_function("() => document.querySelector('#playon').textContent.includes('--from')")
        assert (tmp_path / "stacked.yaml").is_file()
        browser.close()
