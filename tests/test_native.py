"""The compiled engine (hexwar/native.py): the modules the build lists name (``native.txt``) compiled
by mypyc play the very games pure Python plays, and a build is used only for the sources it
was made from.

The build is made once, into a temporary folder, at the C compiler's optimisation level 0
(about 1 min here for every game's modules, against 2 to 3 min at the default 3: the games
are the same at every level, and these tests check the games, not their speed); the games
of every game are played in child processes, one with ``HEXWAR_NATIVE=1`` and one without,
and their whole logs compared. The pure Python games are also those of the record
``tests/golden/digests.txt`` (without a compiler too): a change of speed or words plays the
same games.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hexwar import native
from hexwar.ui.cli import app
from hexwar.ui.cli_common import UserError

CC = (sysconfig.get_config_var("CC") or "cc").split()[0]
needs_compiler = pytest.mark.skipif(shutil.which(CC) is None or importlib.util.find_spec("mypyc") is None,
                                    reason="no C compiler or no mypyc: the compiled engine cannot be built here")

REPO = Path(__file__).resolve().parents[1]
#: which marked modules this process loaded compiled, and the engine it says it plays
COMPILED = """
import importlib, json
from hexwar import native
compiled = sorted(m for m in native.marked() if native.compiled(importlib.import_module(m)))
print(json.dumps({"compiled": compiled, "engine": native.engine()}))
"""


#: the games the compiled engine is checked on, with their seeds (``bench/_digests.py``'s
#: ``GAME:K``; one otherwise): every game with a compiled module, each variant with each
#: fast bot (bench/_digests.py 10, pure and compiled, is the fuller check before a change)
GAMES = ("kampen:3", "narvik", "konflikt", "europa")


def _path() -> str:
    """The children's PYTHONPATH: the hexwar this test reads first, then what the run has (the
    example game's folder, where conftest put it: HEXWAR_GAMES names it, issue 70)."""
    return os.pathsep.join(filter(None, [str(Path(native.__file__).parents[1]), os.environ.get("PYTHONPATH")]))


def play(env_native: str, folder: Path, seeds: int = 1, games: tuple[str, ...] = GAMES) -> dict:
    """In child processes with ``HEXWAR_NATIVE`` set so: the digest of every variant's whole
    logs with every fast bot (``bench/_digests.py``: orders, dice, events, winner) of
    ``games``, which modules are compiled, and what was said on stderr."""
    env = dict(os.environ, HEXWAR_NATIVE=env_native, HEXWAR_NATIVE_DIR=str(folder), PYTHONHASHSEED="0",
               PYTHONPATH=_path())  # the hexwar this test reads (and built)
    games = subprocess.run([sys.executable, str(REPO / "bench" / "_digests.py"), str(seeds), *games], env=env,
                           capture_output=True, text=True, check=True)
    which = subprocess.run([sys.executable, "-c", COMPILED], env=env, capture_output=True, text=True, check=True)
    return json.loads(which.stdout.strip().splitlines()[-1]) | {
        "digests": dict(line.split() for line in games.stdout.splitlines()), "stderr": games.stderr + which.stderr}


@pytest.fixture(scope="module")
def build_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("native")
    old = os.environ.get("HEXWAR_NATIVE_DIR")
    os.environ["HEXWAR_NATIVE_DIR"] = str(folder)
    try:
        native.build(opt_level="0")
    finally:
        if old is None:
            del os.environ["HEXWAR_NATIVE_DIR"]
        else:
            os.environ["HEXWAR_NATIVE_DIR"] = old
    return folder


#: the digests of the games ``GAMES`` plays (one seed; bench/_digests.py), as pure Python played
#: them when the file was last written: a change meant to leave every game as it was (speed,
#: words) leaves it as it is
GOLDEN = REPO / "tests" / "golden" / "digests.txt"
WRITE_GOLDEN = f"PYTHONHASHSEED=0 python bench/_digests.py 1 {' '.join(GAMES)} > tests/golden/digests.txt"


@pytest.fixture(scope="module")
def pure(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """The games of ``GAMES`` played in pure Python (no build is read: ``HEXWAR_NATIVE=0``)."""
    return play("0", tmp_path_factory.mktemp("no-build"))


def test_pure_python_plays_the_games_of_the_golden_record(pure: dict) -> None:
    """Every game's seeded games with its fast bots, move for move, die for die, event for
    event, are those of ``tests/golden/digests.txt``: a change of the engine's speed or words
    plays the same games (issue 56). A change of a rule or a bot that plays other games on
    purpose writes the file again (its command is in the failure) and says why in its commit."""
    golden = dict(line.split() for line in GOLDEN.read_text(encoding="utf-8").splitlines())
    assert pure["compiled"] == [] and pure["engine"] == "pure Python"
    assert set(pure["digests"]) == set(golden), "other variants or bots than the golden record's"
    changed = sorted(k for k in golden if pure["digests"][k] != golden[k])
    assert not changed, (f"these games are not those of {GOLDEN.name} any more: {', '.join(changed)}; "
                         f"if that is meant, write it again: {WRITE_GOLDEN}")


@needs_compiler
def test_compiled_engine_plays_the_same_games_as_pure_python(build_folder: Path, pure: dict) -> None:
    fast = play("1", build_folder)
    marked = native.marked()
    for game in ("kampen", "narvik", "europa", "konflikt"):  # every game has its hot modules compiled (issue 56)
        assert f"hexwar.games.{game}.bots" in marked and f"hexwar.games.{game}.game" in marked
    assert {"hexwar.games.kampen.phases.april", "hexwar.games.kampen.phases.sea"} <= set(marked)  # the advanced game
    assert fast["compiled"] == sorted(marked), "every marked module is the compiled one"
    assert fast["engine"] == f"compiled by mypyc, {len(marked)} modules"
    assert pure["compiled"] == [] and pure["engine"] == "pure Python"
    played = {key.split("/")[0] for key in fast["digests"]}
    assert played == {"kampen", "narvik", "konflikt", "europa"}
    assert len(fast["digests"]) >= 30  # every variant of each game, with both bots: priority and random
    assert fast["digests"] == pure["digests"]  # move for move, die for die, event for event


HELPED = """
import copy, json, pickle
from hexwar.core.engine import run_fast
from hexwar import registry
out = {}
for name in ("narvik", "europa", "konflikt", "kampen"):
    info = registry.get(name)
    g = info.build()
    bots = {s: info.bot("priority", s, 1) for s in info.sides}
    view, _ = run_fast(g, 1, bots)  # what a game leaves in its state, its caches and the bots' memories
    pickle.loads(pickle.dumps(view.data))  # a helper is sent the state (a side's view of it)
    copy.deepcopy(view.data)
    for b in bots.values():
        pickle.loads(pickle.dumps(b))
        copy.deepcopy(b, {id(g): g})  # as play keeps a bot to undo to
    pickle.loads(pickle.dumps(g))  # as a search helper is sent the game
    s = g.new_state(2)
    while len(s.legal_orders()) < 2:
        s.apply(s.legal_orders()[0])
    side = s.current_side()
    bot = info.bot("search", side, 2, 10.0)
    bot.helpers, bot.max_iterations, bot.MIN_ITERATIONS = 1, 6, 7
    bot.choose(s.view_for((side,)), s.legal_orders())
    kept = copy.deepcopy(bot, {id(g): g})  # as play keeps the search bot to undo to
    assert kept.me is not bot.me and kept.rank is bot.rank
    bot.close()
    out[name] = bot.last["iterations"]
print(json.dumps(out))
"""


@needs_compiler
def test_compiled_games_and_bots_copy_and_travel_to_a_search_helper(build_folder: Path) -> None:
    """With the compiled engine, a game and its bots pickle and deep-copy after a game (a
    person's undo keeps a copy of each bot, the search bot's too, which shares the game's
    hooks; the search bot's helper process is sent the game and the bot's policy), and a
    search helper's playouts count: 6 of the bot's and 6 of its helper's. A compiled class
    needs a constructor's arguments to be made, so these stay Python classes with compiled
    methods (named on their module's line of the build list: ``native.keep_python_classes``)."""
    env = dict(os.environ, HEXWAR_NATIVE="1", HEXWAR_NATIVE_DIR=str(build_folder), PYTHONHASHSEED="0",
               PYTHONPATH=_path())
    out = subprocess.run([sys.executable, "-c", HELPED], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout.strip().splitlines()[-1]) == {"narvik": 12, "europa": 12, "konflikt": 12, "kampen": 12}


@needs_compiler
def test_a_build_made_once_is_kept_and_reported(build_folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEXWAR_NATIVE_DIR", str(build_folder))
    m = native.built()
    assert m is not None and m["key"] == native.source_key() and m["modules"] == native.marked()
    assert m["opt_level"] == "0"  # the tests' build (the fixture)
    stamp = (build_folder / m["key"] / "manifest.json").stat().st_mtime_ns
    r = CliRunner().invoke(app, ["native", "build", "--json"])
    assert r.exit_code == 0, r.output
    said = json.loads(r.stdout)
    assert said["build"] == "already built" and said["seconds"] > 0  # how long the build took, as it was made
    assert (build_folder / m["key"] / "manifest.json").stat().st_mtime_ns == stamp  # not built again
    assert not list(build_folder.glob("*.part-*"))  # no half build left


@needs_compiler
def test_a_batch_in_pure_python_offers_the_build_of_these_sources(build_folder: Path, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEXWAR_NATIVE_DIR", str(build_folder))
    monkeypatch.delenv("HEXWAR_NATIVE", raising=False)
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(app, ["simulate", "kampen", "--games", "2", "--workers", "1"])
    assert r.exit_code == 0, r.output
    assert "a compiled engine is built for these sources; HEXWAR_NATIVE=1" in r.output
    monkeypatch.setenv("HEXWAR_NATIVE_DIR", str(tmp_path / "none"))  # no build: nothing offered
    assert native.offer() is None


def test_a_build_serves_only_the_sources_it_was_made_from(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "hot.py").write_text('"""Hot."""\nX = 1\n')
    (pkg / "cold.py").write_text('X = 2\n')
    (pkg / "sub" / "native.txt").write_text("# the build list: no mark in the module\nhot  # the hot path\n")
    assert native.marked(pkg) == ["pkg.sub.hot"]
    key = native.source_key(pkg)
    assert native.source_key(pkg) == key
    (pkg / "cold.py").write_text('X = 2 \n')  # one byte more
    assert native.source_key(pkg) != key  # any file of the package, compiled or not
    key2 = native.source_key(pkg)
    (pkg / "sub" / "new.py").write_text("")
    assert native.source_key(pkg) != key2  # a file added
    key3 = native.source_key(pkg)
    (pkg / "sub" / "native.txt").write_text("hot\nnew\n")
    assert native.source_key(pkg) != key3 and native.marked(pkg) == ["pkg.sub.hot", "pkg.sub.new"]  # the list is a source
    (pkg / "sub" / "native.txt").write_text("hot\ngone\n")
    with pytest.raises(native.NativeError, match=r"native.txt: gone: no such module in sub"):
        native.marked(pkg)


def test_no_module_of_the_package_carries_a_mark_of_its_speed():
    """Speed is the build lists' business (issue 73): no module says ``# hexwar: native`` or
    carries mypyc's ``mypyc_attr`` (the classes that stay Python classes are named in the
    lists, and the build marks its own copy); every listed module and class exists, and each
    game lists its own in its own package."""
    marks = [str(p) for p in native.sources() if p.suffix == ".py" and p.name != "native.py"
             and any(line.startswith("# hexwar: native") or "mypyc_attr" in line
                     for line in p.read_text(encoding="utf-8").splitlines())]
    assert marks == []
    for module, classes in native.listed().items():  # each named class is one its module defines
        src = native.ROOT.parent.joinpath(*module.split(".")).with_suffix(".py").read_text(encoding="utf-8")
        assert native.keep_python_classes(src, classes, module).count(native.KEEP) == len(classes)
    with pytest.raises(native.NativeError, match="bots: Ghost: no class Ghost"):
        native.keep_python_classes("class A:\n    pass\n", ["Ghost"], "bots: Ghost")
    lists = {str(p.parent.relative_to(native.ROOT)) for p in native.ROOT.rglob(native.LIST)}
    assert {"games/narvik", "games/kampen", "games/europa", "games/konflikt", "rules"} <= lists
    assert all(not m.startswith("hexwar.games.") or f"games/{m.split('.')[2]}" in lists for m in native.marked())


def test_without_a_build_the_engine_stays_pure_python_and_says_so(tmp_path: Path) -> None:
    out = play("1", tmp_path / "empty", seeds=1, games=("kampen",))
    assert out["compiled"] == [] and out["engine"] == "pure Python"
    assert "HEXWAR_NATIVE=1 but no compiled build for these sources (run `hexwar native build`)" in out["stderr"]
    said = subprocess.run([sys.executable, "-c", "import os, subprocess, sys, hexwar; subprocess.run([sys.executable, "
                           "'-c', 'import hexwar'], check=True); print(os.environ['HEXWAR_NATIVE'])"],
                          env=dict(os.environ, HEXWAR_NATIVE="1", HEXWAR_NATIVE_DIR=str(tmp_path / "empty")),
                          capture_output=True, text=True, check=True)
    assert said.stderr.count("no compiled build") == 1 and said.stdout.strip() == "0"  # a worker is not told again
    r = CliRunner().invoke(app, ["native", "status", "--json"], env={"HEXWAR_NATIVE_DIR": str(tmp_path / "empty")})
    assert r.exit_code == 0 and json.loads(r.stdout)["build"] == "not built"


def test_no_compiler_is_one_line_and_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEXWAR_NATIVE_DIR", str(tmp_path))
    monkeypatch.setattr(sysconfig, "get_config_var", lambda name: "no-such-cc-here" if name == "CC" else None)
    r = CliRunner().invoke(app, ["native", "build"])
    assert isinstance(r.exception, UserError)  # hexwar's main prints it as one line, exit 2
    assert str(r.exception) == "hexwar native: no C compiler (no-such-cc-here) on this machine: the engine stays pure Python"
    assert list(tmp_path.iterdir()) == []


def test_a_build_killed_mid_way_is_swept_away_by_the_next(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A build killed before its folder was renamed into place leaves ``KEY.part-PID``
    behind; the next build removes it, and leaves alone one whose process still runs."""
    monkeypatch.setenv("HEXWAR_NATIVE_DIR", str(tmp_path))
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True)
    dead = tmp_path / f"0123456789abcdef.part-{done.stdout.strip()}"  # its process has ended
    live = tmp_path / f"0123456789abcdef.part-{os.getpid()}"
    for part in (dead, live):
        (part / "c").mkdir(parents=True)
    monkeypatch.setattr(sysconfig, "get_config_var", lambda name: "no-such-cc-here" if name == "CC" else None)
    with pytest.raises(native.NativeError):
        native.build()
    assert not dead.exists() and live.is_dir()


def test_a_compiled_module_binds_a_pure_python_module_by_its_full_name() -> None:
    """In a module compiled by mypyc, ``from pkg import mod as X`` for a module that is not
    compiled left ``X`` None inside compiled functions when no module of the build had
    imported ``pkg.mod`` by its full name (the Kampen advanced game failed so, issue 52);
    ``import pkg.mod as X`` binds it. Every marked module keeps to that."""
    import ast

    marked = set(native.marked())
    bad = []
    for m in sorted(marked):
        path = native.ROOT.parent / (m.replace(".", "/") + ".py")
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("hexwar"):
                for a in node.names:
                    full = f"{node.module}.{a.name}"
                    is_module = (native.ROOT.parent / (full.replace(".", "/") + ".py")).exists()
                    if is_module and full not in marked:
                        bad.append(f"{m}:{node.lineno} {ast.unparse(node)}")
    assert bad == []
