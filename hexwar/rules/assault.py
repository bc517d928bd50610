"""Land assault arithmetic shared by the games (Assault on Narvik 15.1, 16.1, 16.2, 17.0).

Strength per side = combat strengths (+ supports) - AFL; AD = attack - defence; DRMs:
+1 per attacking tank, -1 per defending tank (16.2), +1 per attacking formation with at
least two participating units (17.0), +2 if artillery alone defends (16.1). Weather and
other game-specific DRMs are passed in as extra ledger lines.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Sequence

from hexwar.rules.cites import AssaultCites
from hexwar.rules.fatigue import average_fatigue_level
from hexwar.rules.ledger import Line
from hexwar.rules.movement import passable

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.board.base import Board
    from hexwar.core.state import UnitState
    from hexwar.scenario import Tables
    from hexwar.data.tables import TerrainChart, UnitType


@dataclass(frozen=True)
class AssaultSums:
    """The ledger lines of both sides' strengths and the DRMs, ready for a CRT."""

    attack: tuple[Line, ...]
    defence: tuple[Line, ...]
    drms: tuple[Line, ...]

    @property
    def attack_total(self) -> int:
        return sum(int(x.value or 0) for x in self.attack)

    @property
    def defence_total(self) -> int:
        return sum(int(x.value or 0) for x in self.defence)

    @property
    def differential(self) -> int:
        return self.attack_total - self.defence_total

    @property
    def drm(self) -> int:
        return sum(int(x.value or 0) for x in self.drms)


def may_attack_into(board: "Board", chart: "TerrainChart", weather: str, utype: "UnitType", frm: str, target: str) -> bool:
    """15.1, 16.2: infantry and tanks may assault only a hex they could move into directly;
    artillery supports from where it stands (16.1)."""
    return utype.is_artillery or target in passable(board, chart, weather, utype.movement_class)[frm]


def strength_lines(state: "UnitState", tables: "Tables", uids: Iterable[str], cites: AssaultCites,
                   halve: bool = False) -> list[Line]:
    """Return one line per unit with its combat strength (halved, rounded down, if asked: A35)."""
    out = []
    for uid in uids:
        t = tables.types[state.units[uid].type]
        s = t.strength // 2 if halve else t.strength
        out.append(Line(f"{uid} strength{' halved' if halve else ''}", s, cites.halved if halve else cites.strength))
    return out


def assault_sums(
    state: "UnitState",
    tables: "Tables",
    attackers: Sequence[str],
    defenders: Sequence[str],
    attack_support: Sequence[Line] = (),
    defence_support: Sequence[Line] = (),
    extra_drms: Sequence[Line] = (),
    halve_attack: bool = False,
    *,
    cites: AssaultCites,
) -> AssaultSums:
    """Return strengths and DRMs of an assault (15.1 steps 2-4), each line citing the
    game's section (``cites``)."""
    att = strength_lines(state, tables, attackers, cites, halve_attack) + list(attack_support)
    afl_a, _ = average_fatigue_level(state, tables, attackers, cites.afl)
    if afl_a:
        att.append(Line("attacker AFL", -afl_a, cites.afl))
    dfn = strength_lines(state, tables, defenders, cites) + list(defence_support)
    afl_d, _ = average_fatigue_level(state, tables, defenders, cites.afl)
    if afl_d:
        dfn.append(Line("defender AFL", -afl_d, cites.afl))
    drms = list(extra_drms)
    kinds_a = [tables.types[state.units[u].type] for u in attackers]
    kinds_d = [tables.types[state.units[u].type] for u in defenders]
    n_tank_a = sum(1 for t in kinds_a if t.is_tank)
    n_tank_d = sum(1 for t in kinds_d if t.is_tank)
    if n_tank_a:
        drms.append(Line(f"{n_tank_a} attacking tank(s)", n_tank_a, cites.tanks))
    if n_tank_d:
        drms.append(Line(f"{n_tank_d} defending tank(s)", -n_tank_d, cites.tanks))
    forms = Counter(
        state.units[u].formation
        for u, t in zip(attackers, kinds_a)
        if state.units[u].formation and not (t.is_tank or t.is_artillery)
    )
    for f, n in sorted(forms.items()):
        if n >= 2:
            drms.append(Line(f"formation {f}: {n} units attack", 1, cites.formation))
    if defenders and all(t.is_artillery for t in kinds_d):
        drms.append(Line("artillery defends alone", 2, cites.artillery_alone))
    return AssaultSums(tuple(att), tuple(dfn), tuple(drms))
