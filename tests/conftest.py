"""Shared fixtures: the fixture scenario, its board and tables, and small map builders."""

from __future__ import annotations

import os
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

# the suite tests the pure Python engine (the reference; some tests patch its modules): the
# compiled one is compared with it in tests/test_native.py, in processes of its own
os.environ["HEXWAR_NATIVE"] = "0"

# a crash log a test provokes (the command line's and the web board's, hexwar/ui/crash.py)
# goes to a folder of the run's own, never into the person's ~/.local/state
if not os.environ.get("HEXWAR_TESTS_STATE"):  # made once: the test processes of one run share it
    import tempfile

    os.environ["HEXWAR_TESTS_STATE"] = tempfile.mkdtemp(prefix="hexwar-tests-state-")
os.environ["XDG_STATE_HOME"] = os.environ["HEXWAR_TESTS_STATE"]

# the example game (examples/vestfjord) outside the package: CI installs it (its entry point
# registers it); a checkout that has not finds it through HEXWAR_GAMES, so every suite that
# runs over the registered games (conformance, OpenSpiel, the web board's guard) runs on it
# too, in this process and in the command lines the tests start
EXAMPLE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples", "vestfjord")
try:
    import vestfjord  # noqa: F401
except ImportError:
    import sys

    sys.path.insert(0, EXAMPLE)
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [EXAMPLE, os.environ.get("PYTHONPATH")]))
    os.environ["HEXWAR_GAMES"] = ",".join(filter(None, [os.environ.get("HEXWAR_GAMES"), "vestfjord"]))

import pytest
from hypothesis import settings

from hexwar.board.hexboard import HexBoard
from hexwar.data.schemas import HexMapSpec
from hexwar.games.skirmish import SkirmishGame

settings.register_profile("ci", deadline=None, max_examples=60, derandomize=True)
settings.register_profile("dev", deadline=None, max_examples=60)
settings.load_profile("ci")


@pytest.fixture(scope="session")
def game() -> SkirmishGame:
    return SkirmishGame.from_scenario("fixtures/skirmish")


@pytest.fixture(scope="session")
def board(game):
    return game.board


@pytest.fixture(scope="session")
def tables(game):
    return game.tables


@pytest.fixture
def state(game):
    return game.new_state(1)


def hex_board(columns=(1, 5), rows=(1, 5), terrain=None, hexsides=None, places=None, boxes=None,
              default="clear", name="t") -> HexBoard:
    """Build a small hex board inline."""
    spec = HexMapSpec(
        kind="hex_map", name=name, description="test", source="fixture",
        grid={"digits": 2, "columns": columns, "rows": rows, "hex_km": 3.0, "parity": "odd-q"},
        default_terrain=default, terrain=terrain or {}, hexsides=hexsides or {},
        places=places or [], boxes=boxes or {},
    )
    return HexBoard(spec)


F = Fraction


#: the test files whose tests take longest together (test_native builds the compiled engine,
#: a minute and more, then plays every game both ways): handed out first
FIRST = ("tests/test_native.py",)

#: the test files that define a fixture shared beyond one test (a module's, a class's, the
#: session's: a build, a played game, a server): each is handed to one process whole, so that
#: the fixture is made once (``pytest_xdist_make_scheduler``)
WHOLE = frozenset(
    p.relative_to(Path(__file__).resolve().parent.parent).as_posix() for p in Path(__file__).resolve().parent.rglob("test_*.py")
    if re.search(r'@pytest\.fixture\(scope="(module|class|package|session)"', p.read_text(encoding="utf-8")))


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """The order the tests are handed out in: ``FIRST``, then the files handed out whole,
    then every other test (stable: each part keeps its order)."""
    def place(item: pytest.Item) -> tuple[bool, bool]:
        path = item.nodeid.split("::")[0]
        return not path.startswith(FIRST), path not in WHOLE

    items.sort(key=place)


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """How the suite's two processes (``-n auto``) share its tests: a file of ``WHOLE`` goes
    to one process whole, every other test alone to whichever process is free, in the order
    of collection (``pytest_collection_modifyitems``: the long groups first, the single tests
    last). The two processes end together: with a file to a process (``--dist loadfile``) a
    long file handed out last kept one working while the other waited, a tenth of the run.
    (pytest-xdist's own ``loadgroup`` would do it by marks, but it renames the test ids
    through an attribute pytest 9 no longer reads.)"""
    from xdist.scheduler import LoadScopeScheduling

    class Shared(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::")[0]
            return path if path in WHOLE else nodeid

    config.option.loadscopereorder = False  # the collection's order, not the biggest groups first
    return Shared(config, log)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Stop the Chromium the browser tests shared (tests/ui/chromium.py), if one started."""
    import sys

    shared = sys.modules.get("tests.ui.chromium")
    if shared is not None:
        shared.stop()
