"""Set-up (5.0, 5.1, 11.3): the scenario's positions, or a seeded set-up per side."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexwar.core.dice import Dice
from hexwar.core.state import Unit
from hexwar.games.narvik.state import ALLIES, GERMANS, HARSTAD, NarvikData
from hexwar.rules import fatigue as fat
from hexwar.rules import stacking

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.games.narvik.context import NarvikRules


def deploy(g: NarvikRules, d: NarvikData, dice: Dice) -> None:
    """Put every counter of the OOB in its pool or set-up hex (5.0, 27.0)."""
    for u in g.scenario.oob.units:
        d.units[u.id] = Unit(u.id, u.type, u.side, u.nation, u.formation, u.name, loc=None, pool=u.pool or "reinforcements")
    for s in g.spec.setup:
        d.place(s.unit, s.at)
        fat.set_fatigue(d, s.unit, s.fatigue, "set-up", "5.0")
        d.units[s.unit].concealed = s.concealed
    if g.switches.random_setup:
        random_setup(g, d, dice)
    if g.switches.allied_concealment:  # 11.3: the Allies deploy face down
        for unit in d.units.values():
            if unit.side == ALLIES and g.is_land(unit):
                unit.concealed = True
    d.vp = {ALLIES: 0, GERMANS: 0}
    d.tracks = {"ap": 0}


def random_setup(g: NarvikRules, d: NarvikData, dice: Dice) -> None:
    """5.1: Norwegians anywhere in the 3 northernmost rows, Germans face down outside the 4
    northernmost, each within stacking (every pick is a logged draw of the set-up dice)."""
    bands = {"norwegian": sorted(g.board.regions["norwegian_setup"]),
             "german": sorted(g.board.regions["german_setup"])}
    for u in sorted(d.units.values(), key=lambda u: u.id):
        if u.loc is None or u.loc == HARSTAD:
            continue
        band = bands["norwegian" if u.nation == "norwegian" else "german"]
        d.remove(u.id, "removed")
        for _ in range(200):
            h = dice.choice(band, "set-up")
            if g.board.terrain(h) == "sea":
                continue
            if stacking.stack(g.board, d, g.tables, h, u.side, extra=[u]).ok:
                d.place(u.id, h)
                break
