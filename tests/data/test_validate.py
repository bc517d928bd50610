"""Data layer: schemas, cross-references, and `hexwar validate` on good and broken trees."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hexwar.data.loader import DataError, Library, data_root
from hexwar.scenario import load_scenario
from hexwar.registry import validate_tree

ROOT = data_root()


def copy_tree(tmp_path: Path) -> Path:
    for folder in ("maps", "oob", "tables"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    return tmp_path


def test_bundled_data_is_valid():
    probs, n = validate_tree()
    assert probs == [] and n >= 10


def test_every_problem_is_reported_at_once_with_file_and_key(tmp_path):
    root = copy_tree(tmp_path)
    m = root / "maps/fixtures/skirmish.yaml"
    text = m.read_text()
    text = text.replace('"1914": mountain', '"1914": mountain\n  "9914": forest')  # off the grid
    text = text.replace('"2010/2011": [ridge]', '"2010/2011": [ridgeline]\n  "1710/1712": [road]')  # bad feature; not adjacent
    m.write_text(text)
    t = root / "tables/fixtures/crt.yaml"
    t.write_text(t.read_text().replace('"2/0", "2/0", "1/0", "1/0", "1/1", "0/1"', '"2/0", "2/0", "1/0", "1/0", "1/1"'))
    u = root / "oob/fixtures/unit-types.yaml"
    u.write_text(u.read_text().replace("movement_class: tank,", "movement_class: tracked,"))
    probs, _ = validate_tree(root)
    text = "\n".join(str(p) for p in probs)
    assert "maps/fixtures/skirmish.yaml:terrain.9914: hex is not on the map grid" in text
    assert "maps/fixtures/skirmish.yaml:hexsides.2010/2011: unknown feature 'ridgeline'" in text
    assert "maps/fixtures/skirmish.yaml:hexsides.1710/1712: the two hexes are not adjacent" in text
    assert "tables/fixtures/crt.yaml:columns.0: 1D6 needs 6 results, found 5" in text
    assert "unit_types.tank.movement_class: 'tracked' is not a movement class of fixture-terrain (14.1)" in text
    assert all(":" in str(p) for p in probs)


def test_missing_keys_and_typos_are_errors_not_defaults(tmp_path):
    root = copy_tree(tmp_path)
    f = root / "tables/fixtures/fatigue.yaml"
    f.write_text(f.read_text().replace("recovery_other:", "recovery_others:"))
    probs, _ = validate_tree(root)
    text = "\n".join(str(p) for p in probs)
    assert "tables/fixtures/fatigue.yaml:recovery_other: required key is missing" in text
    assert "tables/fixtures/fatigue.yaml:recovery_others: unknown key (typo?)" in text


def test_provenance_is_checked(tmp_path):
    root = copy_tree(tmp_path)
    f = root / "tables/fixtures/crt.yaml"
    f.write_text(f.read_text().replace("source: fixture}", "source: trust me}", 1))
    probs, _ = validate_tree(root)
    assert any("columns.0.source" in str(p) and "must be 'rules N.N', 'authored'" in str(p) for p in probs)


def test_yaml_syntax_and_duplicate_keys_name_the_line(tmp_path):
    root = copy_tree(tmp_path)
    (root / "maps/fixtures/bad.yaml").write_text("kind: hex_map\nname: x\nname: y\n")
    (root / "tables/broken.yaml").write_text("kind: [unclosed\n")
    probs, _ = validate_tree(root)
    text = "\n".join(str(p) for p in probs)
    assert "maps/fixtures/bad.yaml:line 3: YAML syntax: duplicate key 'name'" in text
    assert "tables/broken.yaml:line" in text


def test_scenario_cross_references(tmp_path):
    root = copy_tree(tmp_path)
    s = root / "oob/fixtures/skirmish.yaml"
    text = s.read_text().replace('{unit: 1SG, at: "1710"}', '{unit: 1SG, at: "3010"}').replace('{unit: TK1, at: "1711"}', '{unit: TK9, at: "1711"}')
    text = text.replace('bases: ["1612"]', 'bases: ["1710"]')
    s.write_text(text)
    with pytest.raises(DataError) as exc:
        load_scenario("fixtures/skirmish", Library(root))
    text = str(exc.value)
    assert "setup.0.at: '3010' is not a location of map fixture-skirmish" in text
    assert "setup.4.unit: no unit 'TK9'" in text
    assert "bases.0: 1710 is not a port (a supply base is a port)" in text


def _cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "hexwar.ui.cli", *args], capture_output=True, text=True, cwd=cwd)


def test_cli_validate_ok_and_broken(tmp_path):
    ok = _cli("validate")
    assert ok.returncode == 0 and ok.stdout.startswith("ok:")
    root = copy_tree(tmp_path)
    (root / "tables/fixtures/crt.yaml").write_text("kind: crt_differential\nname: x\ndice: 2D6\ncolumns: []\n")
    bad = _cli("validate", str(root))
    assert bad.returncode == 1
    assert "Traceback" not in bad.stdout + bad.stderr
    lines = [ln for ln in bad.stdout.splitlines() if ln]
    assert lines and all(ln.startswith("tables/fixtures/crt.yaml:") or ln.startswith(str(root)) for ln in lines)
