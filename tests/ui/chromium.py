"""One Chromium for all the browser tests of a test process.

A test writes ``with sync_playwright() as pw: browser = pw.chromium.launch(...)`` as with
Playwright's own, and gets a *window* of the process's one Chromium: each ``new_page`` in a
browser context of its own (its own cookies, storage, cache and origin, as a new browser's
first page has), every one closed when the ``with`` ends, whatever the test did. Starting
Chromium and Playwright took a second of CPU for each of some twenty tests; the browser is
started at the first test that asks and stopped when the test session ends
(``tests/conftest.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_running: list[Any] = []  # [playwright, browser] once started


def _browser(executable_path: str | None) -> Any:
    if _running and _running[1].is_connected():
        return _running[1]
    stop()
    from playwright.sync_api import sync_playwright as real  # here: this module is collected without it too

    pw = real().start()
    _running[:] = [pw, pw.chromium.launch(executable_path=executable_path, headless=True, args=["--no-sandbox"])]
    return _running[1]


def stop() -> None:
    """Stop the shared Chromium and Playwright (the end of the test session)."""
    if _running:
        pw, browser = _running
        _running.clear()
        try:
            browser.close()
        finally:
            pw.stop()


class Window:
    """What a test calls its browser: pages of the shared Chromium, each in a context of
    its own, closed together."""

    def __init__(self, browser: Any):
        self._browser = browser
        self._contexts: list[Any] = []

    def new_page(self, **options: Any) -> Any:
        page = self._browser.new_page(**options)
        self._contexts.append(page.context)
        return page

    def close(self) -> None:
        while self._contexts:
            self._contexts.pop().close()


class _Chromium:
    def __init__(self) -> None:
        self.windows: list[Window] = []

    def launch(self, executable_path: str | None = None, **_: Any) -> Window:
        window = Window(_browser(executable_path))
        self.windows.append(window)
        return window


class _Playwright:
    def __init__(self) -> None:
        self.chromium = _Chromium()


@contextmanager
def sync_playwright() -> Iterator[_Playwright]:
    """As ``playwright.sync_api.sync_playwright``, on the shared Chromium."""
    pw = _Playwright()
    try:
        yield pw
    finally:
        for window in pw.chromium.windows:
            window.close()
