""""An adjacent area" on any board (issue 72): on the area map one border; on a hex board
cut from it, ``KampenRules.step`` hex steps (the conversion's ``area_step``,
``hexwar.board.conversion``) through land free of the enemy.

The rules say "area" where a move, a retreat, an escape or a card's range goes: 4.1 (a
battalion moves one land area a round), 4.1 1c (escape into an adjacent area), Ex 4 (a
Jagerfly diverts paratroopers to an adjacent area), 4.2 step 8 (a retreat to one adjacent
area), Rask forflytning and Jernbane (2 or more areas). On hexes each of these goes as far as
one area step goes, so a battalion does in a round what it did on the area map. On the area
map (``step`` 1) nothing here is asked: the phases read ``nbrs`` as they always did.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexwar.games.kampen.state import KampenData

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.games.kampen.context import KampenRules

#: hex paths kept at most per game object (as movement.PATHS_KEPT)
KEPT = 20_000


def hex_paths(g: "KampenRules", foes: frozenset[str], a: str, steps: int, attack: bool,
              shortest: int = 1, dry: bool = False) -> list[tuple[str, ...]]:
    """The places ``steps`` hex steps or fewer from ``a``, each by one shortest path through
    land free of ``foes`` (the path without ``a``, ending at the place); a hostile place ends
    a path (an attack, when ``attack``), once for each hex it may be entered from, since that
    hex is where the attackers stand (4.1) and what a fjord crossing is read from (4.2).
    Paths shorter than ``shortest`` are left out (a card's move beyond an ordinary one);
    ``dry``: no step across a fjord or lake (a German or Allied retreat, 4.2 step 8).

    Breadth first over sorted neighbours, so the same board gives the same paths."""
    parent: dict[str, tuple[str, ...]] = {a: ()}
    frontier = [a]
    out: list[tuple[str, ...]] = []
    for depth in range(1, steps + 1):
        nxt: list[str] = []
        for h in frontier:
            for b in sorted(g.nbrs[h]):
                if dry and (h, b) in g.water:
                    continue
                if b in foes:
                    if attack and depth >= shortest:
                        out.append(parent[h] + (b,))
                    continue
                if b in parent:
                    continue
                parent[b] = parent[h] + (b,)
                nxt.append(b)
                if depth >= shortest:
                    out.append(parent[b])
        frontier = nxt
    return sorted(set(out))


def paths(g: "KampenRules", d: KampenData, f: str, a: str, steps: int, attack: bool, shortest: int = 1,
          foes: frozenset[str] | None = None, dry: bool = False) -> list[tuple[str, ...]]:
    """``hex_paths`` with ``f``'s enemies as they stand, kept per game object for each set
    of enemy places within reach (as ``movement.paths``)."""
    if foes is None:
        foes = g.hostile_areas(d, f)
    near = foes & g.within(a, steps)
    key = ("hex", a, steps, attack, shortest, dry, near)
    kept = g.caches.paths.get(key)
    if kept is None:
        if len(g.caches.paths) >= KEPT:
            g.caches.paths.clear()
        kept = g.caches.paths[key] = hex_paths(g, near, a, steps, attack, shortest, dry)
    return kept


def around(g: "KampenRules", d: KampenData, f: str, a: str, dry: bool = False) -> tuple[str, ...]:
    """The places one area step from ``a`` for ``f``: its neighbours on the area map; on hexes
    the land within ``g.step`` hex steps reached through places free of ``f``'s enemies (an
    enemy-held place among them, for the caller to refuse); ``dry``: not across water."""
    if g.step == 1:
        return tuple(b for b in g.nbrs[a] if not (dry and (a, b) in g.water))
    return tuple(dict.fromkeys(p[-1] for p in paths(g, d, f, a, g.step, attack=True, dry=dry)))
