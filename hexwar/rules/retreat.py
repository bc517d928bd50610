"""Retreat paths (Assault on Narvik 15.3, 15.3.1, 12.3; A23).

A retreating unit never enters an enemy-occupied location, never enters an enemy ZoC
unless a friendly unit that was not in the assault is there (tanks exempt), never
crosses anything impassable to it, never enters the same location twice, and ends an
N-location retreat at a distance >= N + 1 from the nearest participating enemy land unit.
Stacking limits apply throughout. Entering Sweden interns the unit (22.2); boxes and the
map edge are never entered by retreat (22.3).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable

from hexwar.rules.movement import passable

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.board.base import Board
    from hexwar.data.tables import TerrainChart


def retreat_paths(
    board: "Board",
    chart: "TerrainChart",
    weather: str,
    mclass: str,
    start: str,
    length: int,
    enemy_locs: frozenset[str],
    enemy_zoc: frozenset[str],
    friendly_hosts: frozenset[str],
    enemy_participants: Iterable[str],
    is_tank: bool = False,
    stack_ok: Callable[[str], bool] | None = None,
    limit: int = 200,
) -> list[tuple[str, ...]]:
    """Return legal retreat paths of exactly ``length`` steps (start excluded from the count).

    ``friendly_hosts``: locations holding a friendly unit that was not in the assault (they
    open an enemy ZoC, 15.3.1); ``enemy_participants``: locations of the enemy's
    participating land units, for the distance rule (A23); ``stack_ok(loc)``: stacking check.
    """
    targets = [x for x in enemy_participants]
    out: list[tuple[str, ...]] = []
    steps = passable(board, chart, weather, mclass)  # step_cost(...) is not None, once per board
    room: dict[str, bool] = {}  # stack_ok by location: the state does not change while we search

    def far_enough(loc: str) -> bool:
        if not targets:
            return True
        return min(board.distance(loc, e) for e in targets) >= length + 1

    def step_ok(a: str, b: str, visited: set[str]) -> bool:
        if b in visited or b in enemy_locs or board.terrain(b) == "box":
            return False
        if b not in steps[a]:
            return False
        if not is_tank and b in enemy_zoc and b not in friendly_hosts:
            return False  # 12.3, 15.3.1
        if stack_ok is not None:
            ok = room.get(b)
            if ok is None:
                ok = room[b] = stack_ok(b)
            if not ok:
                return False
        return True

    def dfs(path: list[str], visited: set[str]) -> None:
        if len(out) >= limit:
            return
        if len(path) - 1 == length:
            if far_enough(path[-1]):
                out.append(tuple(path))
            return
        last = path[-1]
        if board.is_a(last, "sweden"):
            return  # interned on entry: the retreat stops there
        for b in board.neighbours(last):
            if step_ok(last, b, visited):
                visited.add(b)
                path.append(b)
                dfs(path, visited)
                path.pop()
                visited.discard(b)

    if length == 0:
        return [(start,)]
    dfs([start], {start})
    return out
