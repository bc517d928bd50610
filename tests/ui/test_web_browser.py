"""The web board in a real headless Chromium (Debian's ``chromium`` driven by Playwright):
click orders of each game, undo, reload the page and play on; screenshots are written to
$HEXWAR_ARTIFACTS (CI keeps them) and checked to be non-empty pictures."""

from __future__ import annotations

import os
import shutil
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")
from tests.ui import chromium as playwright_sync  # one Chromium for the process's browser tests
pytest.importorskip("uvicorn")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")

from rich.console import Console  # noqa: E402

from hexwar.games.kampen import ALLIES, GERMANS, NORWAY, KampenGame  # noqa: E402
from hexwar.games.kampen.bots import KampenBot  # noqa: E402
from hexwar.games.kampen.play import KampenPresenter  # noqa: E402
from hexwar.games.narvik import narvik_game  # noqa: E402
from hexwar.games.narvik.bots import PriorityBot  # noqa: E402
from hexwar.games.narvik.play import NarvikPresenter  # noqa: E402
from hexwar.web.server import WebGame, board_url, free_port, make_app  # noqa: E402
from hexwar.ui.play import terminal  # noqa: E402


class Served:
    """A uvicorn server on a free loopback port in a thread, for one test: a player's game
    (``app``: another board's app, the analysis board's)."""

    def __init__(self, player=None, app=None):
        import uvicorn

        self.port = free_port()
        self.app = app if app is not None else make_app(WebGame(player.presenter))
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        guard = time.monotonic() + 300  # only a hang's guard: a busy machine starts it late, not never
        while not self.server.started and self.thread.is_alive() and time.monotonic() < guard:
            time.sleep(0.05)
        return board_url(self.port, self.app.token)  # the address hexwar prints: it carries the board's key

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(10)


def artefacts(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("HEXWAR_ARTIFACTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def shot(page, folder: Path, name: str) -> Path:
    path = folder / f"web-{name}.png"
    page.screenshot(path=str(path), full_page=False)
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5_000  # a picture, not a blank
    return path


#: open the folded groups of the order list that hold a button (issue 53's folded lists)
OPEN_GROUPS = "b => { for (let d = b.closest('details'); d; d = d.parentElement.closest('details')) d.open = true; }"


def click_order(page, text: str | None = None, btn=None) -> None:
    """Click an order button (the first, or the one with this text, or ``btn``: what gives an
    order when clicked) and wait for the answer."""
    n = page.evaluate("() => last.history.length + ':' + last.heading")
    if btn is None:
        btn = page.locator("#orders button").first if text is None else page.locator(f'button[data-order="{text}"]').first
    btn.evaluate(OPEN_GROUPS)  # a folded group is opened as a person opens it, by its heading
    btn.click()
    page.wait_for_function("n => (last.history.length + ':' + last.heading) !== n", arg=n)


def hand_orders(page, i: int) -> list[str]:
    """The orders the page offers for the ``i``-th card of the hand."""
    return page.evaluate("i => last.hand[i].orders", i)


def open_page(pw, url: str):
    browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(url)
    page.wait_for_selector("#orders button")
    assert page.locator("#svg > svg").count() == 1
    return browser, page


def narvik_seat(tmp_path: Path, name: str):
    """A new Assault on Narvik game saved in ``tmp_path``, the Allies' seat against the priority bot."""
    s = narvik_game().new_state(3)
    path = tmp_path / name
    s.attach_save(path)
    p = terminal(NarvikPresenter, s, {ALLIES}, {GERMANS: PriorityBot(GERMANS, 3)}, Console(), path, lambda _: "quit", snapshots=tmp_path)
    return s, path, p


def undo_save_reload(page, copy: Path) -> str:
    """Undo, save a copy from the command line, reload the page: the same game comes back."""
    before = page.evaluate("() => last.history.length")
    page.click("#undo")
    page.wait_for_function("() => document.querySelector('#history').textContent.includes('took back')")
    page.fill("#cmd", f"save {copy.name}")  # the page names a file, which goes beside the game's save (51)
    page.press("#cmd", "Enter")
    page.wait_for_function("() => document.querySelector('#history').textContent.includes('saved to')")
    assert copy.is_file()
    heading = page.inner_text("#heading")
    page.reload()
    page.wait_for_selector("#orders button")
    assert page.inner_text("#heading") == heading and page.evaluate("() => last.history.length") > before
    return heading


def test_narvik_in_chromium_select_a_unit_click_a_shaded_hex_hover_undo_save_reload_resume(tmp_path):
    from hexwar.core.engine import load_game

    s, path, p = narvik_seat(tmp_path, "b.hexwar")
    folder = artefacts(tmp_path)
    with Served(p) as url, playwright_sync.sync_playwright() as pw:
        browser, page = open_page(pw, url)
        shot(page, folder, "narvik-start")
        for _ in range(12):  # the set-up orders, until an action offers moves
            if page.evaluate("() => last.orders.some(o => o.startsWith('move '))"):
                break
            click_order(page)
        st = page.evaluate("() => last")
        i = next(i for i, o in enumerate(st["orders"]) if o.startswith("move "))
        unit, frm = st["marks"][i]["u"][0], st["marks"][i]["f"]
        # click the unit's counter: the hexes it can reach are shaded with their MP cost (14.0)
        page.locator(f'g.counter[data-loc="{frm}"]').click()
        page.wait_for_selector(".reach")
        if page.locator(f'button[data-unit="{unit}"]').count() and not page.evaluate("() => sel"):
            page.click(f'button[data-unit="{unit}"]')
            page.wait_for_selector(".reach")
        assert page.evaluate("() => sel.unit") is not None
        costs = page.evaluate("() => [...document.querySelectorAll('text.cost')].map(t => t.textContent)")
        assert costs and all(c.endswith("MP") for c in costs)
        shot(page, folder, "narvik-reach")
        # an order the rules refuse: the page shows the API's record, the reason and its rule
        # (issue 73), and keeps the map it holds (the server does not send it again)
        held = page.evaluate("() => svgId")
        page.fill("#cmd", f"move {unit} {frm}>0101")
        page.press("#cmd", "Enter")
        page.wait_for_selector("#outcome.refused")
        assert page.inner_text("#outcome") == f"refused: move {unit} {frm}>0101: {frm} and 0101 are not adjacent (14.0)"
        assert page.evaluate("() => svgId") == held and page.locator("g.counter").count() > 0
        shot(page, folder, "narvik-refused")
        # explain an order: its MP ledger drawn as a table, each step with its rule (issue 73)
        page.fill("#cmd", f"explain {i + 1}")
        page.press("#cmd", "Enter")
        page.wait_for_selector("#outcome.explained table.ledger")
        rules = page.evaluate("() => [...document.querySelectorAll('#outcome td.rule')].map(t => t.textContent).filter(Boolean)")
        assert rules and all(r in ("[14.1]", "[14.2]") for r in rules)
        shot(page, folder, "narvik-explained")
        page.locator(f'g.counter[data-loc="{frm}"]').click()  # the unit again, its reach shaded
        page.wait_for_selector(".reach")
        dest = page.evaluate("() => Object.keys(sel.dest).find(t => sel.dest[t].text.startsWith('move '))")
        mover = page.evaluate("() => sel.unit")
        n = len(s.log)
        page.locator(f'path.loc[data-loc="{dest}"]').click(force=True)
        page.wait_for_function("n => last.history.length > 0 && !document.body.classList.contains('busy')", arg=n)
        page.wait_for_function(f"() => last.history.some(h => h.includes('move {mover}'))")
        assert s.data.units[mover].loc == dest or any(e.order.get("unit") == mover for e in s.log.entries[n:])
        # hover a hex: its terrain and what stands there
        page.locator(f'path.loc[data-loc="{dest}"]').hover(force=True)
        page.wait_for_function("d => document.querySelector('#tip').textContent.startsWith(d)", arg=dest)
        assert page.is_visible("#tip")
        shot(page, folder, "narvik-hover")
        heading = undo_save_reload(page, tmp_path / "copy.hexwar")
        browser.close()
    length = len(s.log)
    s.close()
    # the server stops; a new one resumes from the save where the page left off
    s2 = load_game(narvik_game(), path, writer=True)
    assert len(s2.log) == length
    p2 = terminal(NarvikPresenter, s2, {ALLIES}, {GERMANS: PriorityBot(GERMANS, 3)}, Console(), path, lambda _: "quit", snapshots=tmp_path)
    with Served(p2) as url, playwright_sync.sync_playwright() as pw:
        browser, page = open_page(pw, url)
        assert page.inner_text("#heading") == heading
        click_order(page)
        shot(page, folder, "narvik-resumed")
        browser.close()
    assert len(s2.log) > length
    assert load_game(narvik_game(), tmp_path / "copy.hexwar").log.entries[-1].order == s.log.entries[length - 1].order
    s2.close()


#: whether any of the bots' last-turn outlines lies inside the map's visible area
BOT_MARK_SEEN = """() => { const m = document.getElementById('map').getBoundingClientRect();
  return [...document.querySelectorAll('.botmark')].some(e => { const r = e.getBoundingClientRect();
    return r.right > m.left && r.left < m.right && r.bottom > m.top && r.top < m.bottom; }); }"""


def test_narvik_in_chromium_the_bots_turn_off_screen_is_brought_into_view_once(tmp_path):
    # seed 5, the Allies' first action: LC-1 sails to 2503, east of the map's first view,
    # and the German air mission answers there; the player is shown where it happened
    g = narvik_game()
    s = g.new_state(5)
    folder = artefacts(tmp_path)
    p = terminal(NarvikPresenter, s, {ALLIES}, {GERMANS: PriorityBot(GERMANS, 5)}, Console(), None, lambda _: "quit")
    with Served(p) as url, playwright_sync.sync_playwright() as pw:
        browser, page = open_page(pw, url)
        click_order(page, "base 2503")
        click_order(page, "no mas")
        page.evaluate("() => { const m = document.getElementById('map'); m.scrollLeft = 0; m.scrollTop = 0; }")
        assert page.evaluate("() => document.querySelector('path.loc[data-loc=\"2503\"]').getBoundingClientRect().left") \
            > page.evaluate("() => document.getElementById('map').getBoundingClientRect().right")  # off-screen
        embark = next(o for o in page.evaluate("() => last.orders") if o.startswith("embark 7-I/16 on LC-1 via "))
        click_order(page, embark)
        assert "2503" in page.evaluate("() => last.bot.locs")
        assert page.evaluate(BOT_MARK_SEEN)
        shot(page, folder, "narvik-bot-turn")
        # issue 53: the bots' turn step by step, each order with where it acted and what came of it
        steps = page.evaluate("() => last.bot.steps")
        assert steps and [st["line"] for st in steps] == page.evaluate("() => last.bot.lines.slice(1)")
        page.click("button.botstep:has-text('step through it')")
        assert f"order 1 of {len(steps)}:\n{steps[0]['line']}" in page.inner_text("#botturn")
        assert page.locator("#svg .botmark").count() == len(steps[0]["locs"])
        if len(steps) > 1:
            page.click("button.botstep:has-text('next')")
            assert f"order 2 of {len(steps)}" in page.inner_text("#botturn")
        shot(page, folder, "narvik-bot-step")
        page.click("button.botstep:has-text('all')")
        assert "the bots' last turn" in page.inner_text("#botturn")
        # the same bot turn shown again (the page redrawn) leaves the player's view where it is
        assert page.evaluate("""() => { const m = document.getElementById('map'); m.scrollLeft = 0; m.scrollTop = 0;
                                        show(last); return [m.scrollLeft, m.scrollTop]; }""") == [0, 0]
        browser.close()


def test_kampen_in_chromium_hand_as_cards_click_an_area_undo_save_reload(tmp_path):
    g = KampenGame("intro-narvik")
    s = g.new_state(5)
    folder = artefacts(tmp_path)
    s.attach_save(tmp_path / "kampen.hexwar")
    p = terminal(KampenPresenter, s, {NORWAY, ALLIES}, {GERMANS: KampenBot(GERMANS, 5)}, Console(), tmp_path / "kampen.hexwar",
                     lambda _: "quit")
    with Served(p) as url, playwright_sync.sync_playwright() as pw:
        browser, page = open_page(pw, url)
        assert page.locator(".card").count() > 0  # the Norwegian and Allied hands, face up (2.4)
        german = {g.copies[c].name for c in s.data.hand[GERMANS]} - {g.copies[c].name for f in (NORWAY, ALLIES) for c in s.data.hand[f]}
        cards = page.locator(".card b").all_inner_texts()
        assert not set(cards) & german  # never the German hand
        shot(page, folder, "kampen-start")
        # issue 53: cards drawn as cards, the faction's colour and the timing symbols (2.4)
        head = page.evaluate("""() => [...document.querySelectorAll('.card')].map(c => [c.dataset.card,
            getComputedStyle(c.querySelector('.head')).backgroundColor, c.querySelectorAll('.timing span').length])""")
        hand = page.evaluate("() => last.hand")
        assert [h[0] for h in head] == [c["name"] for c in hand]
        assert all(bg == "rgb(200, 16, 46)" for (_, bg, _), c in zip(head, hand) if c["faction"] == NORWAY)  # red
        assert any(n for _, _, n in head) and all(c["effect"] for c in hand)
        played = False
        for _ in range(30):
            one = page.evaluate("() => last.hand.findIndex(c => c.orders.length === 1)")
            if one >= 0:  # a card with one order now (the discard asked for): a click on the card gives it
                n = len(s.log)
                order = hand_orders(page, one)[0]
                click_order(page, None, page.locator(".card").nth(one).locator(".effect"))
                assert s.log.entries[n].order.get("kind") in ("card", "cash", "discard"), order
                played = True
                break
            btn = page.locator(".card button")
            if btn.count():
                click_order(page, btn.first.get_attribute("data-order"))
                played = True
                break
            click_order(page)
        assert played and any(e.order.get("kind") in ("card", "cash", "discard") for e in s.log.entries)
        # click an area: its borders, coasts and air range, and the orders onto it
        page.locator('path.loc[data-loc="narvik"]').click(force=True)
        page.wait_for_function("() => document.querySelector('#about').textContent.includes('borders')")
        shot(page, folder, "kampen-area")
        undo_save_reload(page, tmp_path / "k.hexwar")
        browser.close()
    assert len(s.log) >= 2


def test_kampen_in_chromium_a_clicked_area_shows_the_orders_onto_it_with_their_odds_below_the_hand(tmp_path):
    # the hand fills the side panel, so what a click on the map picks sits below it: the panel
    # scrolls to it, and the moves onto an enemy-held area carry their odds (4.2)
    g = KampenGame("intro-narvik")
    s = g.new_state(3)
    p = terminal(KampenPresenter, s, {GERMANS}, {NORWAY: KampenBot(NORWAY, 3), ALLIES: KampenBot(ALLIES, 3)}, Console(), None,
                     lambda _: "quit")
    shown = """() => { const b = document.getElementById('scroll').getBoundingClientRect();
      const r = document.querySelector('#picklist h4').getBoundingClientRect(); return r.top >= b.top && r.bottom <= b.bottom; }"""
    with Served(p) as url, playwright_sync.sync_playwright() as pw:
        browser, page = open_page(pw, url)
        assert page.evaluate("() => document.getElementById('scroll').scrollTop") == 0
        page.locator('path.loc[data-loc="bardufoss"]').click(force=True)
        page.wait_for_function("() => document.querySelector('#picklist h4') !== null")
        assert page.inner_text("#picklist h4") == "orders onto Bardufoss (exact odds before you commit)"  # by its name
        assert page.evaluate(shown)  # brought into view from under the hand
        notes = page.locator("#picklist .note").all_inner_texts()
        assert len(notes) == page.locator("#picklist button").count() > 0  # every move onto it is an attack
        assert all("takes the area" in n and "before cards" in n for n in notes)
        buttons = page.locator("#picklist button")  # each says its areas and cards by name, sends its typed text
        assert all("→ Bardufoss" in t and ">" not in t and "#" not in t for t in buttons.all_inner_texts())
        assert all((b.get_attribute("data-order") or "").endswith(">bardufoss") for b in buttons.all())
        shot(page, artefacts(tmp_path), "kampen-area-orders-with-odds")
        browser.close()


MARK_CENTRED = """() => { const m = document.getElementById('map').getBoundingClientRect();
  const r = document.querySelector('#svg .highlight').getBoundingClientRect();
  const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
  return x > m.left && x < m.right && y > m.top && y < m.bottom; }"""


def test_kampen_in_chromium_4_2_the_fight_to_decide_about_is_brought_into_view(tmp_path):
    # seed 11: the page opens on the play (Norway's battalions by Narvik); scrolled away from it,
    # the attack decision brings Narvik's fight back into view
    g = KampenGame("intro-narvik")
    s = g.new_state(11)
    p = terminal(KampenPresenter, s, {NORWAY, ALLIES}, {GERMANS: KampenBot(GERMANS, 11)}, Console(), None, lambda _: "quit")
    with Served(p) as url, playwright_sync.sync_playwright() as pw:
        browser, page = open_page(pw, url)
        narvik = """() => { const m = document.getElementById('map').getBoundingClientRect();
          const r = document.querySelector('path.loc[data-loc="narvik"]').getBoundingClientRect();
          return (r.top + r.bottom) / 2 > m.top; }"""
        assert page.evaluate(narvik)  # the page opens where the play is (issue 53): Norway's battalions by Narvik
        page.evaluate("() => { const m = document.getElementById('map'); m.scrollTop = m.scrollHeight; }")
        assert not page.evaluate(narvik)  # the person scrolled away: the fight's area is out of view
        for order in ("move 2 bardufoss>narvik", "move 1 gratangen>narvik", "pass"):
            click_order(page, order)
        assert "attack" in page.inner_text("#heading") and page.locator("#svg .highlight").count() == 1
        assert page.evaluate(MARK_CENTRED)
        shot(page, artefacts(tmp_path), "kampen-fight-in-view")
        browser.close()


def test_kampen_in_chromium_a_new_decision_shows_the_hand_from_its_first_card(tmp_path):
    # the panel under the map's side holds the hand and the orders; scrolled down at one
    # decision, it starts at the top at the next (the first card's title in view), and a
    # command that leaves the decision as it was (status) leaves the panel where it was
    g = KampenGame("intro-narvik")
    s = g.new_state(11)
    p = terminal(KampenPresenter, s, {NORWAY, ALLIES}, {GERMANS: KampenBot(GERMANS, 11)}, Console(), None, lambda _: "quit")
    first_card_shown = """() => { const b = document.getElementById('scroll').getBoundingClientRect();
      const r = document.querySelector('.card b').getBoundingClientRect(); return r.top >= b.top && r.bottom <= b.bottom; }"""
    with Served(p) as url, playwright_sync.sync_playwright() as pw:
        browser, page = open_page(pw, url)
        page.evaluate("() => { document.getElementById('scroll').scrollTop = 400; }")
        with page.expect_response(lambda r: "/api/command" in r.url):
            page.locator("#status").click()
        page.wait_for_function("() => !document.body.classList.contains('busy')")
        assert page.evaluate("() => document.getElementById('scroll').scrollTop") > 0  # the same decision
        page.evaluate("() => { document.getElementById('scroll').scrollTop = 400; }")
        assert not page.evaluate(first_card_shown)
        click_order(page, "move 2 bardufoss>narvik")
        assert page.evaluate("() => document.getElementById('scroll').scrollTop") == 0 and page.evaluate(first_card_shown)
        shot(page, artefacts(tmp_path), "kampen-new-decision-from-the-top")
        browser.close()


def test_kampen_in_chromium_the_search_bot_shows_how_its_search_stands_while_it_thinks(tmp_path):
    """Issue 17: while the German search bot thinks, the page's spinner says how its search
    stands (time against the cap, playouts), as the terminal does; then the orders come."""
    from hexwar.ai.search import SearchBot
    from hexwar.games.kampen.search import search_hooks

    g = KampenGame("intro-narvik")
    s = g.new_state(5)
    folder = artefacts(tmp_path)
    bot = SearchBot(GERMANS, 5, 0.4, **search_hooks())
    p = terminal(KampenPresenter, s, {NORWAY, ALLIES}, {GERMANS: bot}, Console(), None, lambda _: "quit")
    with Served(p) as url, playwright_sync.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(url)  # the Germans open the game: the first state waits on their search
        page.wait_for_function("() => /germans \\(search\\) is thinking: [0-9.]+\\/0.4 s, [0-9]+ playouts/"
                               ".test(document.querySelector('#spinner').textContent)", timeout=60_000)
        assert page.locator("#spinner").is_visible()
        shot(page, folder, "kampen-search-thinking")
        page.wait_for_selector("#orders button", timeout=120_000)
        assert not page.locator("#spinner").is_visible()
        browser.close()


#: the place under the mouse's last position, as the page finds it
UNDER = """([x, y]) => { const e = document.elementFromPoint(x, y);
  const l = e && e.closest && e.closest('[data-loc]'); return l ? l.dataset.loc : null; }"""
#: the hover box shows the text of that place
TIP_NAMES = """loc => { const t = document.querySelector('#tip');
  return t.style.display === 'block' && t.dataset.loc === loc && t.textContent.startsWith(loc); }"""


def test_narvik_in_chromium_the_hover_box_follows_the_map_under_a_still_mouse(tmp_path):
    """Hover a hex: the box names it. Scroll the map with the wheel, then zoom, the mouse
    not moving: the box names the hex now under the mouse, never the one before."""
    g = narvik_game()
    s = g.new_state(3)
    p = terminal(NarvikPresenter, s, {ALLIES}, {GERMANS: PriorityBot(GERMANS, 3)}, Console(), None, lambda _: "quit")
    with Served(p) as url, playwright_sync.sync_playwright() as pw:
        browser, page = open_page(pw, url)
        m = page.locator("#map").bounding_box()
        x, y = m["x"] + m["width"] * 0.4, m["y"] + m["height"] * 0.5
        page.mouse.move(x, y)
        first = page.evaluate(UNDER, [x, y])
        assert first is not None
        page.wait_for_function(TIP_NAMES, arg=first)
        page.mouse.wheel(0, 240)  # the map scrolls under the mouse; the mouse stays
        page.wait_for_function("() => document.getElementById('map').scrollTop > 0")
        second = page.evaluate(UNDER, [x, y])
        assert second not in (None, first)
        assert not page.evaluate(TIP_NAMES, first)  # at once: the old hex's box is gone
        page.wait_for_function(TIP_NAMES, arg=second)
        page.evaluate("() => setZoom(zoom * 1.6)")
        third = page.evaluate(UNDER, [x, y])
        assert third not in (None, second)
        page.wait_for_function(TIP_NAMES, arg=third)
        shot(page, artefacts(tmp_path), "narvik-hover-after-scroll")
        browser.close()


NUMBERS = """() => [...document.querySelectorAll('#orders button, .card button')].map(b =>
  [b.querySelector('.num') ? b.querySelector('.num').textContent : '', b.dataset.order, last.orders.indexOf(b.dataset.order) + 1])"""


def test_kampen_in_chromium_each_order_button_shows_the_number_the_command_box_takes(tmp_path):
    """The word hint answers with order numbers; the buttons show the same numbers, and
    typing one plays the order whose button shows it."""
    g = KampenGame("intro-narvik")
    s = g.new_state(5)
    p = terminal(KampenPresenter, s, {NORWAY, ALLIES}, {GERMANS: KampenBot(GERMANS, 5)}, Console(), None, lambda _: "quit")
    with Served(p) as url, playwright_sync.sync_playwright() as pw:
        browser, page = open_page(pw, url)
        checked = 0
        for _ in range(30):  # every decision up to one that plays a card from the hand
            rows = page.evaluate(NUMBERS)
            checked += len(rows)
            for num, text, at in rows:
                assert num == str(at) and at > 0, (num, text, at)
            if page.locator(".card button").count():
                break
            click_order(page, rows[-1][1])
        assert checked > 3 and page.locator(".card button").count()  # orders and cards' orders both
        num, text, _ = rows[-1]
        before, chosen = len(s.log), s.legal_orders()[int(num) - 1]
        assert p.session.order_text(chosen) == text
        n = page.evaluate("() => last.history.length + ':' + last.heading")
        page.fill("#cmd", num)
        page.press("#cmd", "Enter")
        page.wait_for_function("n => (last.history.length + ':' + last.heading) !== n", arg=n)
        assert len(s.log) > before and s.log.entries[before].order == chosen.to_dict()
        shot(page, artefacts(tmp_path), "kampen-numbers")
        browser.close()


def test_narvik_in_chromium_a_late_answer_for_a_hex_the_mouse_left_is_not_shown(tmp_path, monkeypatch):
    """The server is slow to describe the first hex: the mouse moves on to a second before
    the answer comes. The box names the second, and the first's late answer never replaces it."""
    g = narvik_game()
    s = g.new_state(3)
    p = terminal(NarvikPresenter, s, {ALLIES}, {GERMANS: PriorityBot(GERMANS, 3)}, Console(), None, lambda _: "quit")
    slow: list[str] = []
    answered: list[str] = []
    about = WebGame.about

    def slow_about(self, loc, unit):
        if loc in slow:
            time.sleep(1.5)
        answered.append(loc)
        return about(self, loc, unit)

    monkeypatch.setattr(WebGame, "about", slow_about)
    with Served(p) as url, playwright_sync.sync_playwright() as pw:
        browser, page = open_page(pw, url)
        m = page.locator("#map").bounding_box()
        x, y = m["x"] + m["width"] * 0.4, m["y"] + m["height"] * 0.5
        first = page.evaluate(UNDER, [x, y])
        slow.append(first)
        page.mouse.move(x, y)
        page.wait_for_timeout(500)  # the box has asked about the first hex; no answer yet
        assert first not in answered
        x2 = x + 90
        page.mouse.move(x2, y)
        second = page.evaluate(UNDER, [x2, y])
        assert second not in (None, first)
        page.wait_for_function(TIP_NAMES, arg=second)
        for _ in range(60):  # until the first hex's answer has reached the page
            if first in answered:
                break
            page.wait_for_timeout(100)
        page.wait_for_timeout(300)
        assert first in answered and page.evaluate(TIP_NAMES, second) and not page.evaluate(TIP_NAMES, first)
        browser.close()


def test_europa_in_chromium_the_pass_button_names_the_units_left_overstacked_and_waits_for_a_second_click(tmp_path):
    """E5 B: the pass that ends the Allied movement phase with units over the stacking limit
    carries them in its note on the full list; clicked once it says so in the history and
    the phase stays; clicked again it is given."""
    from hexwar.games.europa import EuropaGame
    from hexwar.games.europa.bots import PriorityBot as EuropaBot
    from hexwar.games.europa.play import EuropaPresenter

    g = EuropaGame()
    s = g.new_state(3)
    while not (s.current_side() == "allies" and s.data.phase == "movement"):
        s.apply(EuropaBot(s.current_side(), 3).choose(s.view_for((s.current_side(),)), s.legal_orders()))
    folder = artefacts(tmp_path)
    p = terminal(EuropaPresenter, s, {"allies"}, {"germans": EuropaBot("germans", 3)}, Console(), None, lambda _: "quit", snapshots=folder)
    with Served(p) as url, playwright_sync.sync_playwright() as pw:
        browser, page = open_page(pw, url)
        btn = page.locator('button[data-order="pass"]').first
        assert "leaves over the stacking limit (E5 B): " in btn.inner_text() and "2DivHQ at 1841 (Hamar)" in btn.inner_text()
        n = len(s.log)
        btn.click()
        page.wait_for_function("() => document.querySelector('#history').textContent.includes('Give it again to confirm')")
        assert len(s.log) == n and "movement" in page.inner_text("#heading")
        shot(page, folder, "europa-pass-once")
        click_order(page, "pass")
        assert len(s.log) > n and s.log.entries[n].order["kind"] == "pass" and "movement" not in page.inner_text("#heading")
        browser.close()


def test_narvik_in_chromium_a_finished_game_shows_every_counter_turned_up_around_its_last_combat(tmp_path):
    """A finished game (game 2 of batch 4, played again) opened on the web board: the heading
    gives the result, the orders panel says the game is over, the German dummies are drawn by
    name (no '?'), and the map is scrolled to the last combat, outlined in red."""
    from hexwar.core.replay import replay
    from hexwar.sim import parse_setup
    from hexwar.sim.runner import record_one

    _row, log = record_one(parse_setup("narvik"), 2, 4)
    g = narvik_game()
    s = replay(g, log)
    assert s.is_over()
    folder = artefacts(tmp_path)
    p = terminal(NarvikPresenter, s, {"allies"}, {"germans": PriorityBot("germans", 4)}, Console(), None, lambda _: "quit", snapshots=folder)
    with Served(p) as url, playwright_sync.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(url)
        page.wait_for_selector("#svg > svg")
        page.wait_for_function("() => document.querySelector('#orders').textContent.includes('the game is over')")
        assert page.inner_text("#heading").startswith("game over: ")
        units = " ".join(page.locator("g.counter").evaluate_all("gs => gs.map(g => g.dataset.units)"))
        dummies = [u.id for u in s.data.units.values() if u.type == "dummy" and u.loc]
        assert dummies and all(x in units.split() for x in dummies) and "?" not in units
        inside = page.evaluate("""() => { const r = document.querySelector('#svg .highlight').getBoundingClientRect();
            const m = document.querySelector('#map').getBoundingClientRect(); const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
            return x > m.left && x < m.right && y > m.top && y < m.bottom; }""")
        assert inside
        shot(page, folder, "narvik-over")
        browser.close()


EVIL_PAGE = """<!doctype html><html><body><p>a page of another site</p>
<iframe id="framed" src="BOARD"></iframe>
<script>
const board = "BOARD_ROOT";
window.results = {};
async function tryit(name, f) {
  try { const r = await f(); window.results[name] = r === undefined ? "sent" : r; }
  catch (e) { window.results[name] = "blocked: " + e.name; }
}
(async () => {
  // the browser's "simple request": no preflight, the answer unreadable, but sent
  await tryit("simple undo", () => fetch(board + "api/command", {method: "POST", mode: "no-cors",
      headers: {"Content-Type": "text/plain"}, body: JSON.stringify({line: "undo 2"})}).then(r => r.type));
  await tryit("simple save", () => fetch(board + "api/command", {method: "POST", mode: "no-cors",
      headers: {"Content-Type": "text/plain"}, body: JSON.stringify({line: "save /tmp/owned-by-evil.hexwar"})}).then(r => r.type));
  // JSON and a guessed key: the browser asks first (a preflight), and the board says no
  await tryit("json with a key", () => fetch(board + "api/command", {method: "POST",
      headers: {"Content-Type": "application/json", "X-Hexwar-Token": "guess"}, body: JSON.stringify({line: "pass"})})
      .then(r => r.status));
  // reading the state (which also lets the bots play)
  await tryit("read the state", () => fetch(board + "api/state").then(r => r.text()).then(t => t.slice(0, 40)));
  await tryit("read the page", () => fetch(board).then(r => r.text()).then(t => t.slice(0, 40)));
  window.done = true;
})();
</script></body></html>"""


def test_a_page_of_another_site_in_chromium_can_neither_play_nor_read_the_board(tmp_path):
    # issue 51: the attack, in a real browser: a page on another origin sends the board
    # simple requests (text/plain, no preflight), JSON with a guessed key, reads, and frames it
    import http.server
    import socketserver

    s, path, p = narvik_seat(tmp_path, "victim.hexwar")
    folder = artefacts(tmp_path)
    with Served(p) as url, playwright_sync.sync_playwright() as pw:
        browser, page = open_page(pw, url)
        for _ in range(4):  # a few orders of the person's, so an undo would show
            click_order(page)
        n, before = len(s.log), path.read_bytes()
        site = tmp_path / "evil"
        site.mkdir()
        root = url.split("?")[0]
        (site / "index.html").write_text(EVIL_PAGE.replace("BOARD_ROOT", root).replace("BOARD", url))

        class Quiet(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *a, **k):
                super().__init__(*a, directory=str(site), **k)

            def log_message(self, *a):
                pass

        with socketserver.TCPServer(("127.0.0.1", 0), Quiet) as evil:
            threading.Thread(target=evil.serve_forever, daemon=True).start()
            other = browser.new_page()
            other.goto(f"http://127.0.0.1:{evil.server_address[1]}/index.html")
            other.wait_for_function("() => window.done === true", timeout=30_000)
            results = other.evaluate("() => window.results")
            # the board is not drawn inside the other site's frame (frame-ancestors 'none')
            framed = other.frame_locator("#framed").locator("#heading").count()
            shot(other, folder, "evil-page")
            evil.shutdown()
        assert results["simple undo"] == "opaque" and results["simple save"] == "opaque"  # sent, unread
        for k in ("json with a key", "read the state", "read the page"):
            assert results[k].startswith("blocked"), (k, results[k])
        assert framed == 0
        assert len(s.log) == n and path.read_bytes() == before  # nothing undone, nothing played
        assert not Path("/tmp/owned-by-evil.hexwar").exists()
        # and the board's own page plays on
        click_order(page)
        assert len(s.log) > n
        browser.close()


IN_VIEW = """() => {
  const m = document.getElementById('map').getBoundingClientRect();
  const pr = document.getElementById('panel').getBoundingClientRect();
  const side = document.getElementById('side').getBoundingClientRect();
  const right = pr.width && pr.left > m.left ? pr.left : m.right;
  const shapes = (last.focus || []).map(l => document.querySelector(`#svg [data-loc="${CSS.escape(l)}"].loc`)).filter(Boolean);
  const seen = shapes.filter(e => { const r = e.getBoundingClientRect(); const x = (r.left + r.right) / 2, y = (r.top + r.bottom) / 2;
    return x > m.left && x < right && y > m.top && y < m.bottom; });
  const apart = (a, b) => a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
  const tracks = document.getElementById('tracks').getBoundingClientRect();
  return {focus: shapes.length, seen: seen.length, panelClear: !pr.width || apart(pr, side),
          panelOnScreen: !pr.width || (pr.left >= 0 && pr.top >= 0 && pr.right <= innerWidth),
          tracksOnScreen: tracks.top >= 0 && tracks.bottom <= innerHeight && tracks.right <= innerWidth}; }"""


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)], ids=["1366x768", "1920x1080"])
@pytest.mark.parametrize("name", ["narvik", "kampen", "europa", "konflikt"])
def test_the_board_opens_where_the_play_is_with_the_legend_and_tracks_uncovered(name, size, tmp_path):
    """Issue 53: at both window sizes the page opens on the places of the person's decision
    (some in the map's free window), and the map's tracks, boxes and legend sit in a corner
    of the map, never under the side panel, the page's tracks on screen."""
    from hexwar import registry
    from hexwar.ui.session import Session

    info = registry.get(name)
    s = info.build().new_state(3)
    humans = set(info.seats[info.default_seat])
    bots = {side: info.bot(info.default_bot if info.bots[info.default_bot].fast else "random", side, 3)
            for side in info.sides if side not in humans}
    p = info.presenter(Session(s, humans, bots, None, tmp_path))
    with Served(type("T", (), {"presenter": p})) as url, playwright_sync.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": size[0], "height": size[1]})
        page.goto(url)
        page.wait_for_selector("#orders button")
        page.wait_for_timeout(300)
        for _ in range(15):  # a decision that names no place (Konflikt's pick of a role): the first order, on to one that does
            if page.evaluate("() => (last.focus || []).length"):
                break
            click_order(page)
        geo = page.evaluate(IN_VIEW)
        assert geo["focus"] > 0 and geo["seen"] > 0, geo
        assert geo["panelClear"] and geo["panelOnScreen"] and geo["tracksOnScreen"], geo
        # the counters readable at the first zoom: their strength line 12 pixels high or more (the median)
        hs = sorted(page.evaluate("""() => [...document.querySelectorAll('#svg g.counter text[font-weight=bold]')]
            .map(e => e.getBoundingClientRect().height).filter(h => h > 0)"""))
        assert not hs or hs[len(hs) // 2] >= 11.5, (name, hs[len(hs) // 2])
        shot(page, artefacts(tmp_path), f"opens-{name}-{size[0]}x{size[1]}")
        browser.close()


def test_narvik_in_chromium_the_hint_button_gives_the_searchs_best_orders_one_is_played_by_its_number_and_review_searches_them_again(tmp_path):
    # issue 57: the coach's hint, from the Allies' view only; each advice names its order's
    # number in the list, its estimated win chance and what the order does
    s, path, p = narvik_seat(tmp_path, "hint.hexwar")
    folder = artefacts(tmp_path)
    with Served(p) as url, playwright_sync.sync_playwright() as pw:
        browser, page = open_page(pw, url)
        for _ in range(12):  # the set-up orders, until an action offers moves
            if page.evaluate("() => last.orders.some(o => o.startsWith('move '))"):
                break
            click_order(page)
        orders = page.evaluate("() => last.orders")
        page.click("#hint")
        page.wait_for_function("() => document.querySelector('#history').textContent.includes('its best orders')")
        page.wait_for_function("() => !document.body.classList.contains('busy')")
        text = page.inner_text("#history")
        advice = [line.strip() for line in text.splitlines() if "estimated win chance" in line and ". order " in line]
        assert 1 <= len(advice) <= 3, text[-1500:]
        for line in advice:
            number = int(line.split(". order ")[1].split(",")[0])
            assert 1 <= number <= len(orders)
            assert orders[number - 1] in line  # the explanation names the order it rates
        shot(page, folder, "narvik-hint")
        first = int(advice[0].split(". order ")[1].split(",")[0])
        n = len(s.log)
        page.fill("#cmd", str(first))
        page.press("#cmd", "Enter")
        page.wait_for_function("n => last.history.length > 0 && !document.body.classList.contains('busy')", arg=n)
        # the review button: the Allies' decisions so far searched again, 0.5 s each
        page.click("#review")
        page.wait_for_function("() => document.querySelector('#history').textContent.includes('searched again')",
                               timeout=120_000)
        page.wait_for_function("() => !document.body.classList.contains('busy')")
        said = next(line for line in page.inner_text("#history").splitlines() if "searched again" in line)
        mine = sum(e.order["side"] == "allies" for e in s.log.entries)
        assert "of the allies searched again, 0.5 s each" in said and 1 <= int(said.split()[0]) <= mine, said
        shot(page, folder, "narvik-review")
        browser.close()
    assert s.game.orders.from_dict(s.log.entries[n].order).text() == orders[first - 1]
    s.close()
