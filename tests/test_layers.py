"""The engine's layers (shared/DESIGN.md): nothing outside ``hexwar/games/`` knows a game.

Outside the game packages, code reaches a game only through the registry: it imports no
game package, and it never branches on a game's name (comparing a value with "narvik",
"kampen", ...); CLI defaults and help texts may name games.
"""

from __future__ import annotations

import ast
from pathlib import Path

from hexwar.games import registry

ROOT = Path(__file__).resolve().parents[1] / "hexwar"
SHARED = [p for p in ROOT.rglob("*.py") if "games" not in p.relative_to(ROOT).parts[:1]]


def test_no_shared_module_imports_a_game_package():
    bad = []
    for p in SHARED:
        for node in ast.walk(ast.parse(p.read_text())):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for n in names:
                parts = n.split(".")
                if parts[:2] == ["hexwar", "games"] and len(parts) > 2 and parts[2] not in ("registry",):
                    bad.append(f"{p.relative_to(ROOT)}: {n}")
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
