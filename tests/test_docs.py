"""Keep docs/rules-coverage.md and docs/data-provenance.md true."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from hexwar.data.loader import default_library
from hexwar.data.tables import DifferentialCrt
from hexwar.rules.combat import diff_outcomes

ROOT = Path(__file__).resolve().parents[1]
DIGEST = ROOT.parent / "shared" / "rules" / "assault-on-narvik.md"
COVERAGE = (ROOT / "docs" / "rules-coverage.md").read_text()


def _sections() -> list[str]:
    heads = re.findall(r"^#{2,4} ((?:\d+(?:\.\d+)+)|E\d) ", DIGEST.read_text(), flags=re.M)
    return heads


@pytest.mark.skipif(not DIGEST.exists(), reason="shared/ rules digest not beside the checkout")
def test_every_numbered_section_is_in_the_coverage_table():
    rows = COVERAGE
    missing = []
    for sec in _sections():
        # a row may cover a range such as "6.0-6.5" or a list "9.1, 9.1.1"
        if not re.search(rf"\| [^|]*\b{re.escape(sec)}\b", rows) and not _in_range(sec, rows):
            missing.append(sec)
    assert missing == []


@pytest.mark.skipif(not (DIGEST.parent / "kampen-om-norge.md").exists(), reason="shared/ rules digest not beside the checkout")
def test_every_kampen_section_basic_and_advanced_is_in_the_coverage_table():
    """Kampen om Norge's numbered sections, chapters 1-8, and its worked examples: rows K1.1 .. K8.4."""
    text = (DIGEST.parent / "kampen-om-norge.md").read_text()
    secs = re.findall(r"^#{2,3} (\d(?:\.\d)?) (?!April)", text, flags=re.M)
    assert "7.2" in secs and "8.3" in secs
    missing = [s for s in secs if not re.search(rf"\| [^|]*\bK{re.escape(s)}\b", COVERAGE)]
    examples = re.findall(r"^#{2,3} Example (\d)", text, flags=re.M)
    missing += [f"Example {n}" for n in examples if not re.search(rf"Example[s]? [^|]*{n}", COVERAGE)]
    assert missing == []


@pytest.mark.skipif(not (DIGEST.parent / "konflikt47-scenarios.md").exists(), reason="shared/ rules digest not beside the checkout")
def test_every_konflikt_section_is_in_the_coverage_table():
    """Konflikt '47's chapters 0-3 and their numbered sections (the six scenarios among them)."""
    text = (DIGEST.parent / "konflikt47-scenarios.md").read_text()
    secs = re.findall(r"^## (\d) ", text, flags=re.M)[:4] + re.findall(r"^### ([23]\.\d) ", text, flags=re.M)
    assert "2.6" in secs and "3.5" in secs
    missing = [s for s in secs if not re.search(rf"\| K47 {re.escape(s)}\b", COVERAGE)]
    assert missing == []


def _in_range(sec: str, rows: str) -> bool:
    for a, b in re.findall(r"\| (\d+\.\d+)-(\d+\.\d+) ", rows):
        if a.split(".")[0] == sec.split(".")[0] and float(a) <= float(".".join(sec.split(".")[:2])) <= float(b):
            return True
    return False


def test_every_test_named_in_the_coverage_table_exists():
    refs = re.findall(r"`((?:\w+/)*test_\w+\.py)::(\w+)", COVERAGE)
    assert refs
    for path, name in refs:
        text = (ROOT / "tests" / path).read_text()
        if "conformance_tests(" in text:  # the suite the package ships (hexwar.testing): its tests are defined there
            text += (ROOT / "hexwar" / "testing" / "conformance.py").read_text()
        prefix = name.rstrip("*").rstrip("_")
        assert re.search(rf"(def|class) {re.escape(prefix)}", text), f"{path}::{name} not found"


def test_fixture_crt_odds_in_provenance_doc_match_the_engine():
    crt = DifferentialCrt.from_spec(default_library().load("tables", "fixtures/crt"))
    doc = (ROOT / "docs" / "data-provenance.md").read_text()
    rows = re.findall(r"^\| (<= -3|-2\.\.0|1\.\.2|3\.\.5|>= 6) \| ([\d/]+) \| ([\d/]+) \|$", doc, flags=re.M)
    assert len(rows) == 5
    ads = {"<= -3": -3, "-2..0": 0, "1..2": 1, "3..5": 3, ">= 6": 6}
    for label, att, dfn in rows:
        dist = diff_outcomes(crt, ads[label])
        assert sum(p for (a, _), p in dist if a >= 1) == Fraction(att)
        assert sum(p for (_, d), p in dist if d >= 1) == Fraction(dfn)


def test_narvik_crt_odds_in_provenance_doc_match_the_engine():
    from hexwar.scenario import load_scenario
    from hexwar.rules.combat import column_table_markdown

    crt = load_scenario("narvik/scenario").tables.crt
    doc = (ROOT / "docs" / "data-provenance.md").read_text()
    assert column_table_markdown(crt, 0) in doc
    assert column_table_markdown(crt, 1) in doc


def test_europa_crt_odds_in_provenance_doc_match_the_engine():
    """E1: every column of the Europa CRT with its exact chances, AD and DD included."""
    from hexwar.games.europa import EuropaGame
    from hexwar.rules.combat import odds_table_markdown

    doc = (ROOT / "docs" / "data-provenance.md").read_text()
    table = odds_table_markdown(EuropaGame().crt)
    assert "| AE | AR | AD | EX | DR | DD | DE |" in table and table in doc


def test_every_code_reference_in_the_coverage_table_exists():
    # `games/narvik/phases/movement.py` `move`, `move_orders`: the file, and each name after it
    refs = 0
    for row in COVERAGE.splitlines():
        if not row.startswith("|"):
            continue
        code = row.split("|")[3] if row.count("|") >= 5 else ""
        current = None
        for tok in re.findall(r"`([^`]+)`", code):
            if tok.endswith(".py") and not tok.startswith("tests"):
                current = ROOT / "hexwar" / tok
                assert current.exists(), tok
                refs += 1
            elif tok.endswith((".yaml",)):
                assert (ROOT / tok).exists(), tok
            elif current is not None and re.fullmatch(r"[A-Za-z_]\w*", tok):
                text = current.read_text()
                assert re.search(rf"(def|class) {tok}\b|^{tok}\b|^    {tok}\b", text, flags=re.M), f"{current.name}: {tok}"
    assert refs > 20


def test_the_readme_game_api_example_runs():
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"## Game API\n\n```python\n(.*?)```", readme, flags=re.S)
    assert block
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(block.group(1), "README.md", "exec"), {})
    assert "Result(over=True" in buf.getvalue()
