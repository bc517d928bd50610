"""A comparison report as one HTML page (issue 58), opened in a real headless Chromium at a
phone's size: self-contained (nothing fetched from anywhere), every figure shown, the page
no wider than the screen (a wide table scrolls by itself), the findings before the tables."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from hexwar.sim import parse_setup
from hexwar.sim.report import compare

pytest.importorskip("matplotlib")
pytest.importorskip("playwright.sync_api")
from tests.ui import chromium as playwright_sync  # one Chromium for the process's browser tests
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def test_a_reports_html_page_is_self_contained_and_fits_a_phone(tmp_path):
    setups = [parse_setup("kampen@norway"), parse_setup("kampen@nordland-hex")]
    md = compare(setups, [60, 60], 5, tmp_path, "Areas <and> hexes", workers=1)
    page_path = md.with_suffix(".html")
    text = page_path.read_text()
    assert "<title>Areas &lt;and&gt; hexes</title>" in text and "<script" not in text and "GENERATED" not in text
    assert 'src="win-rates.png"' not in text and text.count('src="data:image/png;base64,') == md.read_text().count("![")
    assert "http://" not in text and "https://" not in text  # nothing to fetch
    if CHROMIUM is None:
        pytest.skip("Debian's chromium is not installed (.ci/run installs it)")
    fetched: list[str] = []
    with playwright_sync.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
        page.on("request", lambda r: fetched.append(r.url) if not r.url.startswith(("file:", "data:")) else None)
        page.goto(page_path.as_uri())
        page.wait_for_load_state("load")
        images = page.evaluate("() => [...document.images].map(i => [i.complete, i.naturalWidth, i.getBoundingClientRect().width])")
        assert images and all(done and natural > 300 and 0 < shown <= 390 for done, natural, shown in images), images
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390  # the page fits the phone's width
        wide = page.evaluate("() => [...document.querySelectorAll('.table')].filter(t => t.scrollWidth > t.clientWidth).length")
        assert wide >= 1  # the setups' table is wider than a phone: it scrolls in its own box
        heads = page.evaluate("() => [...document.querySelectorAll('h2')].map(h => h.textContent)")
        assert heads[0] == "What is compared" and heads.index("In short") <= 2 and "Which differences are significant" in heads
        folder = Path(os.environ.get("HEXWAR_ARTIFACTS") or tmp_path)
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / "report-phone.png"), full_page=False)
        browser.close()
    assert fetched == []
