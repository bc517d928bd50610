"""The ships of Kampen om Norge's advanced game as the rules read them (6.1, 8): each ship's
card, where a side's ships are, who controls a sea area (8.2), the air range at sea (5.1) and
the extra requirements printed on some Allied cards (5.2)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from hexwar.games.kampen.fleet import ShipCard
from hexwar.games.kampen.state import (
    ALLIES,
    COALITION,
    GERMANS,
    RAID,
    KampenData,
    Ship,
)

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.games.kampen.context import KampenRules


def get(d: KampenData, i: int) -> Ship:
    """The ship with id ``i`` (a view lists the ships in another order)."""
    if 0 <= i < len(d.ships) and d.ships[i].id == i:
        return d.ships[i]
    return next(s for s in d.ships if s.id == i)


def side(f: str) -> tuple[str, ...]:
    """The factions of ``f``'s side at sea (Eidsvoll & Norge joins the Allies, 8.2)."""
    return (GERMANS,) if f == GERMANS else COALITION


def card(g: "KampenRules", s: Ship) -> ShipCard | None:
    """The card of a ship, or None for another faction's face-down ship in a view."""
    return g.fleet[s.id] if s.id >= 0 else None


def at_sea(d: KampenData, sea: str, factions: Iterable[str]) -> list[Ship]:
    """The ships of ``factions`` in a sea area (dummies included: they look like ships)."""
    fs = set(factions)
    return [s for s in d.ships if s.at == sea and s.owner in fs]


def real(g: "KampenRules", ships: Iterable[Ship]) -> list[Ship]:
    """The ships that are not dummies (a face-down enemy ship in a view counts as real)."""
    return [s for s in ships if s.id < 0 or not g.fleet[s.id].dummy]


def rank(g: "KampenRules", s: Ship) -> tuple[int, int]:
    """Firing order, best first (8.2 step 4)."""
    c = card(g, s)
    return (c.cls.rank if c and c.cls else 9, s.id)


def controls(d: KampenData, sea: str) -> str | None:
    """8.2: the side that alone has ships in a sea area (germans / allies), or None."""
    de = al = False
    for s in d.ships:
        if s.at == sea:
            if s.owner == GERMANS:
                de = True
            else:
                al = True
    return GERMANS if de and not al else ALLIES if al and not de else None


def allied_ships_in(d: KampenData, sea: str) -> bool:
    return any(s.at == sea and s.owner == ALLIES for s in d.ships)


def sea_air(g: "KampenRules", d: KampenData, sea: str) -> bool:
    """5.1: Bombefly reaches ships in a sea area when Germany holds an airfield on its
    coast (and sea area VII when it holds Bardufoss)."""
    de = d.bn[GERMANS]
    for a in g.airfields:
        if de.get(a, 0) and (sea in g.coasts[a] or (g.bardufoss_sea == (a, sea))):
            return True
    return False


def allied_support(g: "KampenRules", d: KampenData, area: str, need: str | None) -> bool:
    """5.2: the extra requirement printed on an Allied card, in the advanced game only:
    ``carrier`` an Allied carrier off the area (6.1) or an Allied-held airfield in range;
    ``gunship`` an Allied battleship or heavy cruiser off it; ``ship`` any Allied ship off it."""
    if need is None or not g.fleet:
        return True
    coasts = g.coasts.get(area, frozenset())
    mine = [g.fleet[s.id] for s in d.ships if s.owner == ALLIES and s.at in coasts and s.id >= 0]
    if need == "ship":
        return bool(mine)
    if need == "gunship":
        return any(c.type in ("battleship", "heavy_cruiser") for c in mine)
    if any(c.type == "carrier" for c in mine):
        return True
    return any(d.bn[ALLIES].get(f, 0) and area in g.reach[f] for f in g.airfields)


def sea_paths(g: "KampenRules", d: KampenData, s: Ship, steps: int) -> list[tuple[str, ...]]:
    """8.1: the routes of 1..steps sea areas a ship may sail; Allied ships never enter I or
    II (5.1); a recalled raider leaves the raid field by VI, VII or VIII (7.2)."""
    start = s.at
    out: list[tuple[str, ...]] = []
    frontier: list[tuple[str, ...]] = [(start,)]
    for _ in range(steps):
        nxt = []
        for p in frontier:
            here = p[-1]
            nbrs = g.raid_exits if here == RAID else g.sea_nbrs[here]
            for n in nbrs:
                if n in p or (s.owner != GERMANS and n in g.mined):
                    continue
                q = p + (n,)
                out.append(q[1:])
                nxt.append(q)
        frontier = nxt
    return out
