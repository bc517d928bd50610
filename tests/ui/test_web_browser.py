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

playwright_sync = pytest.importorskip("playwright.sync_api")
pytest.importorskip("uvicorn")

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it)")

from rich.console import Console  # noqa: E402

from hexwar.games.kampen import ALLIES, GERMANS, NORWAY, KampenGame  # noqa: E402
from hexwar.games.kampen.bots import KampenBot  # noqa: E402
from hexwar.games.kampen.play import KampenPlayer  # noqa: E402
from hexwar.games.narvik import narvik_game  # noqa: E402
from hexwar.games.narvik.bots import PriorityBot  # noqa: E402
from hexwar.games.narvik.play import NarvikPlayer  # noqa: E402
from hexwar.web.server import WebGame, free_port, make_app  # noqa: E402


class Served:
    """A uvicorn server on a free loopback port in a thread, for one test."""

    def __init__(self, player):
        import uvicorn

        self.port = free_port()
        config = uvicorn.Config(make_app(WebGame(player)), host="127.0.0.1", port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        for _ in range(200):
            if self.server.started:
                break
            time.sleep(0.05)
        return f"http://127.0.0.1:{self.port}/"

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


def play_by_clicks(url: str, folder: Path, name: str, clicks: int) -> tuple[str, str]:
    with playwright_sync.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(url)
        page.wait_for_selector("#orders button")
        assert page.locator("#svg svg").count() == 1
        shot(page, folder, f"{name}-start")
        for _ in range(clicks):
            before = page.inner_text("#history")
            page.locator("#orders button").first.click()
            page.wait_for_function("b => document.querySelector('#history').textContent !== b", arg=before)
            page.wait_for_selector("#orders button")
        after_clicks = page.inner_text("#history")
        page.click("#undo")
        page.wait_for_function("() => document.querySelector('#history').textContent.includes('took back')")
        page.reload()
        page.wait_for_selector("#orders button")
        heading = page.inner_text("#heading")
        # a click on the map picks a place and filters the orders to those that name it
        page.locator("#svg svg [data-loc]").first.click(force=True)
        assert page.input_value("#filter")
        shot(page, folder, f"{name}-after")
        browser.close()
    return after_clicks, heading


def test_narvik_in_chromium_click_orders_undo_reload(tmp_path):
    g = narvik_game()
    s = g.new_state(3)
    path = tmp_path / "b.hexwar"
    s.attach_save(path)
    p = NarvikPlayer(s, {ALLIES}, {GERMANS: PriorityBot(GERMANS, 3)}, Console(), path, lambda _: "quit", snapshots=tmp_path)
    with Served(p) as url:
        history, heading = play_by_clicks(url, artefacts(tmp_path), "narvik", clicks=3)
    assert "allies" in history and "turn" in heading
    assert len(s.log) >= 2


def test_kampen_in_chromium_click_orders_undo_reload(tmp_path):
    g = KampenGame("intro-narvik")
    s = g.new_state(5)
    p = KampenPlayer(s, {NORWAY, ALLIES}, {GERMANS: KampenBot(GERMANS, 5)}, Console(), None, lambda _: "quit")
    with Served(p) as url:
        history, heading = play_by_clicks(url, artefacts(tmp_path), "kampen", clicks=3)
    assert "round" in heading and len(s.log) >= 2
