"""Every cache has an owner (issue 73): no module-level counter or cache in the engine's core
or in a game's rules context, where one game's play could reach another's.

A module-level container is shared by every game, state and search in the process: a
counter there (the old ``_MOVES``, bumped whenever any unit anywhere moved) makes every
state's index stale for one game's move, and a cache there outlives the object it describes.
What such a value caches belongs to its owner: a state (``GameState.moves``), a class
(``_state_shape``), a rules object, a search.
"""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

import pytest

from hexwar.core.game import Caches
from hexwar.core.state import Unit, UnitState
from hexwar import registry

ROOT = Path(__file__).resolve().parents[1]
WATCHED = sorted([*ROOT.glob("hexwar/core/*.py"), *ROOT.glob("hexwar/games/*/context.py")])

#: the calls that make a mutable container
MAKERS = {"dict", "list", "set", "bytearray", "defaultdict", "OrderedDict", "Counter", "deque",
          "WeakKeyDictionary", "WeakValueDictionary", "WeakSet", "ChainMap", "SimpleNamespace"}
#: a cache made by a decorator lives in the function object, at module level all the same
CACHING = {"cache", "lru_cache", "cached_property"}

#: module-level containers that are neither counter nor cache, with why: filled while the
#: code is imported, from the code alone, never from play
REGISTRIES = {
    ("hexwar/core/state.py", "_STATE_TYPES"): "each game's state class by its name, filled by the class statements",
}


def offences(path: Path, source: str) -> list[str]:
    """The module-level mutable values, caching decorators and ``global`` statements of one
    module, each as ``file:line what``."""
    rel = path.relative_to(ROOT).as_posix() if path.is_absolute() else path.as_posix()
    tree = ast.parse(source)
    out: list[str] = []
    for node in tree.body:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            value = None
        if value is not None:
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            if names == ["__all__"] or any((rel, n) in REGISTRIES for n in names):
                continue
            made = isinstance(value, (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp))
            if isinstance(value, ast.Call):
                made = ast.unparse(value.func).split(".")[-1] in MAKERS
            if made:
                out.append(f"{rel}:{node.lineno} {', '.join(names)} = {ast.unparse(value)[:40]}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Global):
            out.append(f"{rel}:{node.lineno} global {', '.join(node.names)}")
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for dec in node.decorator_list:
                name = ast.unparse(dec.func if isinstance(dec, ast.Call) else dec).split(".")[-1]
                if name in CACHING:
                    out.append(f"{rel}:{node.lineno} @{name} {node.name}")
    return out


def test_the_core_and_the_game_contexts_hold_no_module_level_counter_or_cache():
    assert len(WATCHED) > 10, "the files the rule watches moved: point WATCHED at them again"
    found = [o for p in WATCHED for o in offences(p, p.read_text(encoding="utf-8"))]
    assert found == [], "give each an owner (a state, a class, a rules object, a search):\n" + "\n".join(found)


@pytest.mark.parametrize("source", [
    "_MOVES = [0]",
    "_SHAPES: dict[type, tuple] = {}",
    "_SEEN = set()",
    "from collections import defaultdict\n_BY = defaultdict(list)",
    "import weakref\n_C = weakref.WeakKeyDictionary()",
    "_N = 0\ndef bump():\n    global _N\n    _N += 1",
    "import functools\n@functools.lru_cache(maxsize=None)\ndef f(x):\n    return x",
])
def test_the_rule_catches_each_kind_of_shared_counter_and_cache(source):
    assert offences(Path("hexwar/core/x.py"), source), source


@pytest.mark.parametrize("source", ["KINDS = ('a', 'b')", "NONE: frozenset[str] = frozenset()", "__all__ = ['x']",
                                    "LIMIT = 50_000", "def f():\n    seen = {}\n    return seen"])
def test_constants_and_a_functions_own_containers_pass(source):
    assert offences(Path("hexwar/core/x.py"), source) == []


def _state(locs: dict[str, str | None]) -> UnitState:
    d = UnitState(game="t", scenario="t", seed=0)
    for uid, loc in locs.items():
        d.units[uid] = Unit(uid, "inf", "a" if uid[0] == "a" else "z", "x", loc=loc, pool=None if loc else "reinforcements")
    return d


def _fresh(d: UnitState, loc: str) -> list[str]:
    return sorted(u.id for u in d.units.values() if u.loc == loc)


def test_a_move_in_one_game_leaves_another_games_location_index_alone():
    # each state keeps its index by its own count (GameState.moves): a unit moved in one game
    # makes that game's index stale and no other's
    one, two = _state({"a1": "0101", "b1": "0102"}), _state({"a1": "0101", "b1": "0102"})
    assert [u.id for u in one.at("0101")] == ["a1"] and [u.id for u in two.at("0101")] == ["a1"]
    before = two.moves().n
    one.units["a1"].loc = "0103"
    assert two.moves().n == before
    assert [u.id for u in one.at("0103")] == ["a1"] and one.at("0101") == []
    assert [u.id for u in two.at("0101")] == ["a1"]


def test_a_view_and_its_state_see_every_move_made_in_either():
    d = _state({"a1": "0101", "a2": "0101", "b1": "0102"})
    assert len(d.at("0101")) == 2
    v = d.shallow()
    v.units = dict(d.units)  # a view's own dict, the same units (as the games' views do)
    assert len(v.at("0101")) == 2
    d.units["a2"].loc = "0104"  # moved in the state: the view's index is stale too
    assert [u.id for u in v.at("0101")] == ["a1"] and [u.id for u in v.at("0104")] == ["a2"]
    v.units["a1"].loc = "0105"  # and the other way
    assert d.at("0101") == [] and [u.id for u in d.at("0105")] == ["a1"]
    assert d.occupied_by("a") == {"0104", "0105"}


def test_a_copy_has_an_index_of_its_own_and_the_original_stays_true():
    d = _state({"a1": "0101", "b1": "0102"})
    d.at("0101")
    c = d.clone()
    c.units["a1"].loc = "0109"
    assert [u.id for u in c.at("0109")] == ["a1"]
    assert [u.id for u in d.at("0101")] == ["a1"] and d.at("0109") == []
    d.units["b1"].loc = None
    assert [u.id for u in c.at("0102")] == ["b1"] and d.at("0102") == []


def test_the_index_agrees_with_a_scan_through_random_moves_views_and_copies():
    import random

    rng = random.Random(7)
    states: list[UnitState] = [_state({f"{s}{i}": f"01{i:02d}" for s in "az" for i in range(1, 6)})]
    for _ in range(400):
        d = rng.choice(states)
        act = rng.random()
        if act < 0.1 and len(states) < 12:
            states.append(d.clone())
        elif act < 0.2 and len(states) < 12:
            v = d.shallow()
            v.units = dict(d.units)
            states.append(v)
        else:
            u = rng.choice(list(d.units.values()))
            u.loc = rng.choice([None, *(f"01{i:02d}" for i in range(1, 8))])
        for s in states:
            loc = f"01{rng.randint(1, 7):02d}"
            assert [u.id for u in s.at(loc)] == _fresh(s, loc)
            side = rng.choice("az")
            assert [u.id for u in s.on_map(side)] == [u.id for u in s.units.values() if u.loc is not None and u.side == side]


def test_the_class_owned_caches_stay_off_the_state_and_its_json():
    d = _state({"a1": "0101"})
    d.at("0101")
    c = d.clone()
    again = UnitState.from_json(d.to_json())
    assert "_moves" not in d.to_dict() and "_moves" not in d.units["a1"].__dataclass_fields__
    assert c.units["a1"] == d.units["a1"] and again.to_json() == d.to_json()


# --- the rules object: frozen once built, its caches in one place (issue 73) -------------------


@pytest.mark.parametrize("name", sorted(registry.names()))
def test_every_games_rules_object_is_frozen_once_built_and_a_copy_starts_with_fresh_caches(name):
    info = registry.get(name)
    g = info.build()
    with pytest.raises(AttributeError, match="frozen once built"):
        g.board = None
    with pytest.raises(AttributeError, match="frozen once built"):
        g.memo_of_mine = {}
    with pytest.raises(AttributeError, match="frozen once built"):
        del g.name
    # a few orders played: nothing in the rules sets an attribute of theirs on the way (it would raise)
    state = g.new_state(1)
    for _ in range(30):
        if state.is_over():
            break
        state.apply(state.legal_orders()[0])
    caches = getattr(g, "caches", None)
    copy = pickle.loads(pickle.dumps(g))
    assert type(copy) is type(g) and copy.name == g.name
    with pytest.raises(AttributeError, match="frozen once built"):
        copy.board = None
    if caches is not None:  # one place, emptied for a copy (a search helper's)
        assert isinstance(caches, Caches) and copy.caches is not caches
        assert copy.caches == type(caches)()
