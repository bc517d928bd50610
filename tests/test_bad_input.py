"""Issue 12, bad input: every mistake gets one line naming the file, key or option, and
nothing is written or run that should not be. (The trial harness covers the same ground
by the hundred; these tests name each rule of the issue once.)"""

from __future__ import annotations

import fcntl
import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from hexwar.data.loader import DataError, DataNameError, Library, data_root, read_yaml
from hexwar.registry import validate_tree
from hexwar.sim import parse_setup
from hexwar.sim.runner import BatchError, game_seed, simulate
from hexwar.ui.cli import app

ROOT = data_root()
runner = CliRunner()


def copy_tree(tmp_path: Path) -> Path:
    for folder in ("maps", "oob", "tables"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    return tmp_path


def one_line(args: list[str], code: int = 2) -> str:
    p = subprocess.run([sys.executable, "-m", "hexwar.ui.cli", *args], capture_output=True, text=True, timeout=120)
    lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
    assert p.returncode == code, (p.returncode, p.stdout[-500:], p.stderr[-500:])
    assert len(lines) == 1 and "Traceback" not in p.stderr, p.stderr
    return lines[0]


# --- reading YAML ---------------------------------------------------------------------------


@pytest.mark.parametrize("make,needle", [
    (lambda p: p.write_bytes("kind: x\n".encode("utf-16")), "UTF-16 or UTF-32"),
    (lambda p: p.write_bytes(b"kind: x\nname: caf\xe9\n"), "line 2: not UTF-8 text"),
    (lambda p: (p.unlink(), os.mkfifo(p)), "not a regular file"),
    (lambda p: (p.unlink(), p.mkdir()), "not a regular file"),
    (lambda p: p.write_text("a: &a [1, 2]\nb: *a\n"), "aliases"),
    (lambda p: p.write_text("? [a, b]\n: 1\n"), "a key must be a plain value"),
    (lambda p: p.write_text("deep: " + "[" * 5000 + "]" * 5000 + "\n"), "nested"),
    (lambda p: p.write_text("x: 1\n" + ("#" * 1000 + "\n") * 21_000), "larger than"),
])
def test_unreadable_yaml_is_one_problem_naming_the_file_never_a_hang(tmp_path, make, needle):
    p = tmp_path / "t.yaml"
    p.write_text("kind: x\n")
    make(p)
    with pytest.raises(DataError) as e:
        read_yaml(p)
    assert len(e.value.problems) == 1 and "t.yaml" in str(e.value) and needle in str(e.value), str(e.value)


def test_names_stay_inside_the_data_root(tmp_path):
    lib = Library(copy_tree(tmp_path))
    for bad in ("../../../etc/passwd", "/etc/hostname", "narvik/../../x"):
        with pytest.raises(DataNameError):
            lib.path("oob", bad)
    assert "is not a name under oob/" in one_line(["reach", "../../../../etc/passwd", "1SG"])
    sc = tmp_path / "oob/narvik/scenario.yaml"
    sc.write_text(sc.read_text().replace("map: narvik", "map: ../../../etc/x"))
    probs, _ = validate_tree(tmp_path)
    assert any("oob/narvik/scenario.yaml:map:" in str(p) and "inside the data folder" in str(p) for p in probs)


# --- hexwar validate ------------------------------------------------------------------------


def test_validate_refuses_a_path_that_does_not_exist(tmp_path):
    assert "no such folder or file" in one_line(["validate", str(tmp_path / "nowhere")])


def test_validate_checks_one_file_given_as_path(tmp_path):
    root = copy_tree(tmp_path)
    w = root / "tables/narvik/weather.yaml"
    res = runner.invoke(app, ["validate", str(w)])
    assert res.exit_code == 0 and "ok: 1 files valid" in res.output
    w.write_text(w.read_text().replace("dice: 2D6", "dice: 100000000D6"))
    res = runner.invoke(app, ["validate", str(w)])
    assert res.exit_code == 1 and "weather.yaml:dice:" in res.output


def test_validate_reports_a_missing_required_file(tmp_path):
    # with tables/narvik/weather.yaml deleted, validate said ok and play then failed
    root = copy_tree(tmp_path)
    (root / "tables/narvik/weather.yaml").unlink()
    (root / "oob/kampen/basic.yaml").unlink()
    probs, _ = validate_tree(root)
    text = "\n".join(map(str, probs))
    assert "tables/narvik/weather.yaml: no such tables file" in text
    assert "oob/kampen/basic.yaml: no such oob file" in text


# --- data that cannot be right --------------------------------------------------------------


def _mutate(root: Path, rel: str, fn) -> None:
    p = root / rel
    d = yaml.safe_load(p.read_text(encoding="utf-8"))
    fn(d)
    p.write_text(yaml.safe_dump(d, sort_keys=False, allow_unicode=True), encoding="utf-8")


@pytest.mark.parametrize("rel,fn,where", [
    ("oob/narvik/unit-types.yaml", lambda d: d["types"]["brit_bn"].__setitem__("mp", -3), "types.brit_bn"),
    ("oob/narvik/unit-types.yaml", lambda d: d["types"]["brit_bn"].__setitem__("strength", 10**30), "types.brit_bn.strength"),
    ("oob/narvik/unit-types.yaml", lambda d: d["types"]["brit_bn"].__setitem__("strength", True), "types.brit_bn.strength"),
    ("tables/stacking.yaml", lambda d: d.__setitem__("limit", -1), "limit"),
    ("tables/narvik/fatigue.yaml", lambda d: d["recovery_at_limit"].__setitem__("fp", -99), "recovery_at_limit"),
    ("tables/narvik/terrain.yaml", lambda d: d["weather"]["winter"]["terrain"]["clear"].__setitem__("leg", 0), "weather"),
    ("oob/kampen/intro-narvik.yaml", lambda d: d["hands"].__setitem__("germans", -1), "hands.germans"),
    ("oob/kampen-cards.yaml", lambda d: d["decks"]["germans"]["copies"][0].__setitem__("count", 10**9), "decks.germans.copies.0.count"),
    # 7.0, 8.0-8.3, 30.0, 31.0: result words the phases do not know are refused, not read as "none"
    ("tables/narvik/weather.yaml", lambda d: d["entries"][4].__setitem__("result", "sunny"), "entries[4].result"),
    ("tables/narvik/event-type.yaml", lambda d: d["entries"][1].__setitem__("result", "opne"), "entries[1].result"),
    ("tables/narvik/british-redeployments.yaml", lambda d: d["entries"][0]["result"].__setitem__("formation", "99 Gds"), "entries[0].result.formation"),
    ("tables/narvik/victory-points.yaml", lambda d: d["awards"]["german_eliminated"].__setitem__("to", "sweden"), "awards.german_eliminated.to"),
])
def test_values_that_cannot_be_right_are_refused_with_file_and_key(tmp_path, rel, fn, where):
    root = copy_tree(tmp_path)
    _mutate(root, rel, fn)
    probs, _ = validate_tree(root)
    assert any(rel in p.file and p.key.startswith(where) for p in probs), [str(p) for p in probs]


@pytest.mark.parametrize("change,needle", [
    (lambda d: d["setup"].append(dict(d["setup"][-1])), "is already set up"),  # doubled
    (lambda d: d["setup"][-1].__setitem__("at", "0111"), "is a land unit and 0111 is all sea"),  # at sea (13.1)
    (lambda d: [e.__setitem__("at", "2903") for e in d["setup"] if e["at"] != "harstad"], "stacking points"),  # 13.2
])
def test_impossible_set_ups_are_refused(tmp_path, change, needle):
    root = copy_tree(tmp_path)
    _mutate(root, "oob/narvik/scenario.yaml", change)
    probs, _ = validate_tree(root)
    assert any("oob/narvik/scenario.yaml:setup." in str(p) and needle in str(p) for p in probs), [str(p) for p in probs]


# --- numbers and paths on the command line --------------------------------------------------


@pytest.mark.parametrize("args,needle", [
    (["reach", "fixtures/skirmish", "1SG", "--mp", "-3"], "--mp is -3"),
    (["reach", "fixtures/skirmish", "1SG", "--mp", "1/0"], "is not a number of MP"),
    (["simulate", "narvik", "--games", "1000000000000"], "--games is"),
    (["odds", "kampen", "--attack", "3", "--defend", "2", "--cards", "panzer=1000000000"], "panzer"),
    (["map", "render", "fixtures/skirmish", "-o", "/tmp/m.svg", "--scale", "1e308"], "--scale"),
    (["play", "narvik", "--seed", "-1"], "--seed is -1"),
])
def test_numbers_out_of_range_get_one_line_and_exit_2(args, needle):
    assert needle in one_line(args)


def test_output_paths_that_cannot_be_written_are_refused_before_anything_runs(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    os.chmod(ro, 0o555)
    try:
        assert "no folder" in one_line(["map", "render", "fixtures/skirmish", "-o", str(tmp_path / "no/m.svg")])
        assert "not writable" in one_line(["simulate", "narvik", "--games", "1", "--out", str(ro / "x.csv")])
        assert "read-only" in one_line(["compare", "narvik", "kampen", "--games", "1", "--out", str(ro / "rep")])
        assert os.listdir(ro) == []
    finally:
        os.chmod(ro, 0o755)


# --- batches --------------------------------------------------------------------------------


def test_a_second_simulate_on_one_csv_is_refused_while_the_first_runs(tmp_path):
    out = tmp_path / "b.csv"
    setup = parse_setup("kampen")
    fd = os.open(out, os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)  # what a running batch holds
    try:
        with pytest.raises(BatchError, match="another hexwar simulate is writing"):
            simulate(setup, 2, 1, out, workers=1)
    finally:
        os.close(fd)
    rows = simulate(setup, 2, 1, out, workers=1)
    assert len(rows) == 2 and len(simulate(setup, 2, 1, out, workers=1)) == 2  # resumed, not written twice
    assert out.read_text().count("\n") == 3


def test_a_resume_with_another_seed_or_setup_is_refused(tmp_path):
    out = tmp_path / "b.csv"
    simulate(parse_setup("kampen"), 2, 1, out, workers=1)
    before = out.read_bytes()
    with pytest.raises(BatchError, match="was not played with --seed 2"):
        simulate(parse_setup("kampen"), 2, 2, out, workers=1)
    with pytest.raises(BatchError, match="holds games of"):
        simulate(parse_setup("kampen@nordland-hex"), 2, 1, out, workers=1)
    assert out.read_bytes() == before
    assert "was not played with --seed 2" in one_line(["simulate", "kampen", "--games", "2", "--seed", "2", "--out", str(out)])
    assert str(game_seed(1, 0)) in before.decode()


def test_killing_the_batch_leaves_no_orphaned_workers(tmp_path):
    p = subprocess.Popen([sys.executable, "-m", "hexwar.ui.cli", "simulate", "narvik", "--games", "400", "--workers", "2",
                          "--out", str(tmp_path / "n.csv")], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    kids: list[int] = []
    guard = time.monotonic() + 600  # only a hang's guard: the waits below end with what they wait for
    while len(kids) < 2 and p.poll() is None and time.monotonic() < guard:  # however slow the machine
        kids = [int(x) for x in Path(f"/proc/{p.pid}/task/{p.pid}/children").read_text().split()]
        time.sleep(0.1)
    assert len(kids) >= 2, "the pool never started"
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    alive = kids
    while alive and time.monotonic() < guard:  # the kernel ends them; wait for it
        alive = [k for k in kids if Path(f"/proc/{k}").exists() and "Z" not in Path(f"/proc/{k}/stat").read_text().split()[2]]
        time.sleep(0.1)
    assert alive == [], f"orphaned workers {alive}"


# --- optional packages ----------------------------------------------------------------------


@pytest.mark.parametrize("missing,args,needle", [
    ("matplotlib", ["compare", "narvik", "kampen", "--games", "1"], "pip install 'hexwar[report]'"),
    ("distributed", ["simulate", "narvik", "--games", "1", "--dask"], "pip install 'hexwar[dask]'"),
])
def test_a_missing_optional_package_says_what_to_install(monkeypatch, tmp_path, missing, args, needle):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == missing else real(name, *a))
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(app, args)  # UserError: the CLI's main prints it as one line, exit 2
    assert type(res.exception).__name__ == "UserError" and needle in str(res.exception), (res.output, res.exception)
    assert not (tmp_path / "compare").exists()


def test_a_data_file_read_again_is_a_fresh_copy_and_a_changed_one_is_parsed_again(tmp_path):
    """read_yaml keeps the documents it parsed by their bytes (a data tree validated again and
    again is not parsed again): each read is its own copy, and a changed file is read anew."""
    p = tmp_path / "t.yaml"
    p.write_text("a: [1, 2]\nb: {c: 3}\n")
    first = read_yaml(p)
    first["a"].append(99)  # a caller changing what it read changes no later read
    assert read_yaml(p) == {"a": [1, 2], "b": {"c": 3}}
    p.write_text("a: [1, 2]\nb: {c: 4}\n")
    assert read_yaml(p)["b"] == {"c": 4}
    p.write_text("a: [1, 2]\na: 3\n")  # a file that does not parse is refused every time, never kept
    for _ in range(2):
        with pytest.raises(DataError, match="duplicate key"):
            read_yaml(p)
