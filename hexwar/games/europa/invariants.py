"""The Europa "Narvik" variant's rules that hold after every order, each broken one as a
sentence with its rule (the registry's ``invariants``: the conformance suite checks them after
every order of random games and of priority-bot games)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexwar.games.europa.state import ALLIES, GERMANS, EuropaData

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.games.europa.game import EuropaGame


def broken(g: "EuropaGame", d: EuropaData) -> list[str]:
    """Return every rule the state breaks (empty: all hold)."""
    out = []
    for u in d.units.values():
        if u.loc is not None and g.ground(u) and (u.loc in g.sweden or g.board.terrain(u.loc) == "sea"):
            out.append(f"E4: the ground unit {u.id} stands in {u.loc}, in Sweden or at sea (never entered)")
    for x, hq in sorted(d.absorbed.items()):
        if d.units[x].loc is None or d.units[x].loc != d.units[hq].loc:
            out.append(f"E5 C: {x}, absorbed by {hq}, is at {d.units[x].loc}, its HQ at {d.units[hq].loc}")
    owners = set(d.owner.values())
    if not owners <= {GERMANS, ALLIES} or not set(d.owner) <= set(g.key_hexes):
        out.append(f"E4: ownership is kept only of key hexes, by a side: {sorted(set(d.owner) - set(g.key_hexes))}, {sorted(owners)}")
    if d.phase in ("air", "combat") and d.combat is None:
        out += _stacking(g, d)
    for reg, bns in sorted(g.regiments.items()):
        if d.units[reg].loc is not None and any(d.units[b].loc is not None for b in bns):
            out.append(f"E1: the regiment {reg} and its battalions are on the map together (a breakdown replaces it)")
    return out


def _stacking(g: "EuropaGame", d: EuropaData) -> list[str]:
    """E5 A-B: the limits apply from the end of movement and throughout combat, so between
    combats the units not flipped overstacked fit them (``restack`` flips the rest after each
    combat: a retreat into a full hex waits for its combat's last decision)."""
    return [f"E5 A: {side} have {ground} ground units and {art} artillery batteries not flipped overstacked in "
            f"{loc} in the {d.phase} phase (limits {g.rules.stack_ground.hexes} and {g.rules.stack_artillery.hexes})"
            for loc, side, ground, art in overstacks(g, d)]


def overstacks(g: "EuropaGame", d: EuropaData) -> list[tuple[str, str, int, int]]:
    """E5 A: each (hex, side, ground units, artillery batteries) over the limits, counting the
    units not flipped overstacked (E5 B), in hex order (this check and the analysis board's flags)."""
    out = []
    for loc in sorted(g.by_hex(d)):
        for side in (GERMANS, ALLIES):
            ground, art = g.stack_points(d, loc, side, flipped=False)
            if ground > g.rules.stack_ground.hexes or art > g.rules.stack_artillery.hexes:
                out.append((loc, side, ground, art))
    return out
