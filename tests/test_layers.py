"""The engine's layers (shared/DESIGN.md): nothing outside ``hexwar/games/`` knows a game.

Outside the game packages, code reaches a game only through the registry: it imports no
game package, and it never branches on a game's name (comparing a value with "narvik",
"kampen", ...); CLI defaults and help texts may name games.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from hexwar import registry

ROOT = Path(__file__).resolve().parents[1] / "hexwar"
SHARED = [p for p in ROOT.rglob("*.py") if "games" not in p.relative_to(ROOT).parts[:1]]


def test_no_shared_module_imports_a_game_package():
    mods = {_module(p) for p in PACKAGE}
    bad = [f"{p.relative_to(ROOT)}: {y}" for p in SHARED for y in _imports(p, False, mods)
           if y.startswith("hexwar.games.")]
    assert bad == []


def test_no_shared_module_branches_on_a_game_name():
    games = set(registry.names())
    bad = []
    for p in SHARED:
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.Compare):
                for side in [node.left, *node.comparators]:
                    if isinstance(side, ast.Constant) and side.value in games:
                        bad.append(f"{p.relative_to(ROOT)}:{node.lineno}")
                    if isinstance(side, (ast.Tuple, ast.List, ast.Set)) and any(
                            isinstance(e, ast.Constant) and e.value in games for e in side.elts):
                        bad.append(f"{p.relative_to(ROOT)}:{node.lineno}")
            if isinstance(node, ast.Dict) and any(isinstance(k, ast.Constant) and k.value in games for k in node.keys):
                bad.append(f"{p.relative_to(ROOT)}:{node.lineno} (a table keyed by game)")
    assert bad == []


# --- issue 52: the contract is the only way in -------------------------------------------------

PACKAGE = sorted(ROOT.rglob("*.py"))


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for n in ast.walk(tree):
        if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.body \
                and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant):
            out.add(id(n.body[0].value))
    return out


def _contract_members() -> set[str]:
    """Every member of the contract and of every registered game's class (a probe for one of
    them is a probe of a game)."""
    from hexwar.core.game import Game

    names = {n for n in dir(Game) if not n.startswith("__")}
    for info in registry.games():
        names |= {n for n in dir(type(info.build())) if not n.startswith("__")}
    return names


#: what shared code may still introspect: records that are no game (a shapely geometry, a
#: YAML module, an OS error, a dataclass's fields, a pydantic spec), named by the expression
PROBED_NON_GAMES = {"module", "lat", "v", "e", "geom", "yaml", "exc", "spec", "self", "t", "list", "obj"}


def test_shared_code_never_probes_a_game_with_getattr_or_hasattr():
    members = _contract_members()
    bad = []
    for p in SHARED:
        for n in ast.walk(ast.parse(p.read_text())):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in ("getattr", "hasattr") and n.args:
                subject = ast.unparse(n.args[0])
                attr = n.args[1].value if len(n.args) > 1 and isinstance(n.args[1], ast.Constant) else None
                if subject not in PROBED_NON_GAMES or attr in members:
                    bad.append(f"{p.relative_to(ROOT)}:{n.lineno} {n.func.id}({subject}, {attr!r})")
    assert bad == [], "shared code reaches a game only through the contract (hexwar.core.game.Game)"


SECTION = re.compile(r"^(?:[A-Z]{1,3}\d*\s?)?\d+(?:\.\d+){1,2}[a-z]?$|^[EK]\d+(?:\.\d+)*(?: [A-Z])?$"
                     r"|^\d+(\.\d+)+(, \d+(\.\d+)+)+$")
#: a section cited inside a longer string (issue 73): "(14.1)", "rules 13.2: ...", ", 18.1)",
#: "(E4)", "section 12.2", "§ 3.5"; not a decimal (0.5, "font: 16px/1.5", stroke-width="2.8")
_NUM = r"(?:[1-9]\d?(?:\.\d{1,2}){1,2}[a-z]?|[EK]\d{1,2}(?:\.\d{1,2})*)"
CITED = re.compile(rf"(?:\(|\brules? |\bsections? |§ ?|[,;] )({_NUM})(?=$|[),;:'\"]|\s)")


def cited_sections(text: str) -> list[str]:
    """The rule sections a string cites, whole or inside its words."""
    v = text.strip()
    if SECTION.match(v) and not IP.match(v):
        return [v]
    return [m.group(1) for m in CITED.finditer(text)]


@pytest.mark.parametrize("text", ["(14.1)", "14.1", "rules 13.2: stacking points a location holds",
                                  "no costs for this terrain class (14.1)", "the last column must end at 30 AP (18.1: max 30)",
                                  "arrival turn (1: initial deployment, 27.0; later: 28.0)", "point city (1.3)",
                                  "a truck (E1)", "see section 12.2 first", "naval results (18.1.3)", "(10.1a) below"])
def test_the_layer_rule_finds_a_section_inside_a_longer_string(text):
    assert cited_sections(text), text


@pytest.mark.parametrize("text", ["Pixels per km (0.01 to 100)", 'stroke="#fff" stroke-width="2.8"', "font: 16px/1.5 system-ui",
                                  "line-height: 1.25;", "round,pad=0.15", "127.0.0.1", "version 3.11 or later",
                                  "(1: the initial deployment; later: a reinforcement)", "1/2, or P"])
def test_the_layer_rule_leaves_numbers_that_cite_nothing(text):
    assert cited_sections(text) == [], text


def test_no_game_name_or_rule_section_in_the_string_constants_of_shared_layers():
    games = set(registry.names()) | {"narvik", "kampen", "europa", "konflikt", "skirmish"}
    bad = []
    for p in SHARED:
        tree = ast.parse(p.read_text())
        docs = _docstrings(tree)
        for n in ast.walk(tree):
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs:
                v = n.value.strip()
                if v.lower() in games:
                    bad.append(f"{p.relative_to(ROOT)}:{n.lineno} game name {v!r}")
                for sec in cited_sections(n.value):
                    bad.append(f"{p.relative_to(ROOT)}:{n.lineno} rule section {sec!r} in {v[:60]!r}")
    assert bad == [], "a game's words and sections come from the game (its Refusals, cites, presenter)"


IP = re.compile(r"^\d+\.\d+\.\d+\.\d+$")


def _module(p: Path) -> str:
    parts = list(p.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(p: Path, runtime_only: bool, mods: set[str]) -> set[str]:
    me = _module(p)
    tree = ast.parse(p.read_text())
    typing_only = {id(x) for n in ast.walk(tree) if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING"
                   for x in ast.walk(n)}
    out = set()
    for n in ast.walk(tree):
        if runtime_only and id(n) in typing_only:
            continue
        names = []
        if isinstance(n, ast.ImportFrom) and n.module:
            names = [n.module] + [f"{n.module}.{a.name}" for a in n.names]
        elif isinstance(n, ast.Import):
            names = [a.name for a in n.names]
        for x in names:
            parts = x.split(".")
            for k in range(1, len(parts) + 1):  # importing a.b.c runs a and a.b too
                y = ".".join(parts[:k])
                if y in mods and y != me and not me.startswith(y + "."):
                    out.add(y)
    return out


@pytest.mark.parametrize("runtime_only", [True, False], ids=["at-runtime", "with-type-checking-imports"])
def test_no_import_cycle_anywhere_in_the_package(runtime_only):
    import networkx as nx

    mods = {_module(p) for p in PACKAGE}
    graph = nx.DiGraph()
    for p in PACKAGE:
        for y in _imports(p, runtime_only, mods):
            graph.add_edge(_module(p), y)
    cycles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert cycles == []


def test_no_phase_module_imports_its_games_composition():
    """Phases read the state and the game's rules context; the game module composes them
    (so ``game.py`` imports its phases, never the reverse)."""
    bad = []
    mods = {_module(p) for p in PACKAGE}
    for p in PACKAGE:
        rel = p.relative_to(ROOT).parts
        if rel[0] == "games" and "phases" in rel:
            game_module = f"hexwar.games.{rel[1]}.game"
            if game_module in _imports(p, False, mods):
                bad.append(str(p.relative_to(ROOT)))
    assert bad == []


#: the most methods a class may have (the issue's "about 25"): one job per class
MAX_METHODS = 25


def test_no_class_has_more_than_about_25_methods():
    big = []
    for p in PACKAGE:
        for n in ast.walk(ast.parse(p.read_text())):
            if isinstance(n, ast.ClassDef):
                k = sum(isinstance(x, (ast.FunctionDef, ast.AsyncFunctionDef)) for x in n.body)
                if k > MAX_METHODS:
                    big.append(f"{p.relative_to(ROOT)}::{n.name} has {k} methods")
    assert big == []


def test_core_orders_are_only_the_engines_own():
    """Core's orders are those every game may give (issue 73): passing and moving. A game's
    own orders live in its package (Assault on Narvik's ways to take a result), the land
    games' shared combat orders in ``hexwar.rules.orders``."""
    from hexwar.core import orders

    own = {n for n, v in vars(orders).items() if isinstance(v, type) and issubclass(v, orders.Order) and v is not orders.Order}
    assert own == {"Pass", "Move"}


def test_a_module_exports_only_what_it_defines():
    """One name each (issue 73): a module's ``__all__`` lists its own classes and functions,
    never another module's under a second address (as ``core/engine.py`` once re-exported the
    contract, and named ``Game`` ``Ruleset``); a package's ``__init__`` may gather its API. The
    shared layers (a game's package may give its own facade)."""
    import importlib
    import inspect

    bad = []
    for p in SHARED:
        if p.name == "__init__.py" or "__all__" not in p.read_text():
            continue
        mod = importlib.import_module(_module(p))
        for name in getattr(mod, "__all__", ()):
            obj = getattr(mod, name)
            if (inspect.isclass(obj) or inspect.isfunction(obj)) and obj.__module__ != mod.__name__:
                bad.append(f"{_module(p)}.{name} is {obj.__module__}.{obj.__qualname__}")
    assert bad == []


def test_the_data_layer_imports_only_itself():
    """``hexwar.data`` is the ground floor (issue 73): it reads and checks YAML and imports
    no layer above it; a scenario, which joins a board to its order of battle and tables,
    is ``hexwar.scenario``, above the boards."""
    mods = {_module(p) for p in PACKAGE}
    bad = [f"{p.relative_to(ROOT)}: {y}" for p in PACKAGE if _module(p).startswith("hexwar.data")
           for y in _imports(p, False, mods) if not y.startswith("hexwar.data") and y != "hexwar"]
    assert bad == []
