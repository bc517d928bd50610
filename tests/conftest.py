"""Shared fixtures: the fixture scenario, its board and tables, and small map builders."""

from __future__ import annotations

import os
from fractions import Fraction

# the suite tests the pure Python engine (the reference; some tests patch its modules): the
# compiled one is compared with it in tests/test_native.py, in processes of its own
os.environ["HEXWAR_NATIVE"] = "0"

# a crash log a test provokes (the command line's and the web board's, hexwar/ui/crash.py)
# goes to a folder of the run's own, never into the person's ~/.local/state
if not os.environ.get("HEXWAR_TESTS_STATE"):  # made once: the test processes of one run share it
    import tempfile

    os.environ["HEXWAR_TESTS_STATE"] = tempfile.mkdtemp(prefix="hexwar-tests-state-")
os.environ["XDG_STATE_HOME"] = os.environ["HEXWAR_TESTS_STATE"]
# nor does the suite see the person's compiled builds (~/.cache/hexwar/native, made by make
# reports or hexwar native build): a batch would offer one, a second line where a test reads
# one; tests/test_native.py builds into folders of its own
os.environ.setdefault("HEXWAR_NATIVE_DIR", os.path.join(os.environ["HEXWAR_TESTS_STATE"], "native"))

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
#: a minute and more, then plays every game both ways): collected first, so that the suite's
#: two processes (pytest-xdist, --dist loadfile: one file to a process) end together, rather
#: than one waiting on a long file handed out last
FIRST = ("tests/test_native.py",)


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: not item.nodeid.startswith(FIRST))  # stable: the rest keep their order


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Stop the Chromium the browser tests shared (tests/ui/chromium.py), if one started."""
    import sys

    shared = sys.modules.get("tests.ui.chromium")
    if shared is not None:
        shared.stop()
