"""What the set-up and the scoring of a Konflikt '47 scenario read: ``KonfliktRules``, a
scenario template on its table hosted by the skirmish ruleset, with the questions its set-up,
turns and scoring ask. It knows no set-up step and no scoring: ``game.KonfliktGame`` composes
``setup`` and ``victory`` on it, so neither imports the game."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hexwar.core.state import Unit
from hexwar.data.loader import DataError, Library, Problem, default_library
from hexwar.scenario import Scenario, load_scenario
from hexwar.games.konflikt.schemas import Allot, KonfliktTemplatesSpec, ScenarioSpec
from hexwar.games.konflikt.state import EXITED, FIRST_WAVE, FLANK, RESERVE, SIDES, UNSET, KonfliktData
from hexwar.games.konflikt.table import Table, konflikt_table
from hexwar.games.skirmish.game import SkirmishGame
from hexwar.rules import stacking
from hexwar.rules.movement import MoveQuery
from hexwar.rules.zoc import enemy_zoc


class KonfliktRules(SkirmishGame[KonfliktData]):
    """One Konflikt '47 scenario template on one table, hosted by the skirmish ruleset: the
    templates chart, the table, and the questions of units, edges and entries."""

    def __init__(self, template: str = "envelopment", board: str = "table", library: Library | None = None):
        lib = library or default_library()
        host: Scenario = load_scenario("konflikt/table", lib)
        self.table: Table = konflikt_table(board, lib) if library is None else konflikt_table.__wrapped__(board, lib)
        super().__init__(Scenario(host.spec, host.oob, self.table.board, host.tables, host.file))
        self.t: KonfliktTemplatesSpec = lib.load("tables", "konflikt/templates", "konflikt_templates")
        self.random = template == "random"
        if not self.random and template not in self.t.scenarios:
            raise DataError([Problem("tables/konflikt/templates.yaml", f"scenarios.{template}",
                                     f"no such scenario; scenarios: {', '.join(self.t.scenarios)} or random (rules 1)")])
        self.template = template
        for u in host.oob.units:
            if u.type not in self.t.units:
                raise DataError([Problem("tables/konflikt/templates.yaml", f"units.{u.type}",
                                         f"no cost or morale for unit type {u.type!r} of {host.oob.name} (rules 3.4, 3.6)")])
        self.zone_in = int(self.t.scale["zone_inches"].value)
        self._area_mp = not self.table.hexes

    # --- the template and the table --------------------------------------------------------------

    def spec_of(self, d: KonfliktData) -> ScenarioSpec:
        return self.t.scenarios[d.template]

    def other(self, side: str) -> str:
        return SIDES[1] if side == SIDES[0] else SIDES[0]

    def role(self, d: KonfliktData, side: str) -> str:
        return "" if not d.attacker else ("attacker" if side == d.attacker else "defender")

    def allot(self, d: KonfliktData, kind: str, side: str) -> Allot | None:
        table = self.spec_of(d).deploy if kind == "deploy" else self.spec_of(d).first_wave
        return table.get(self.role(d, side)) or table.get("both")  # type: ignore[call-overload]

    def zone(self, d: KonfliktData, side: str) -> list[str]:
        return self.table.zone(d.edge[side], self.zone_in)

    def infantry(self, u: Unit) -> bool:
        return bool(self.tables.types[u.type].infantry)

    def holds_ground(self, u: Unit) -> bool:
        """2.3, 2.4: infantry or artillery take and deny objectives."""
        t = self.tables.types[u.type]
        return bool(t.infantry or t.is_artillery)

    def cover(self, loc: str) -> bool:
        return self.board.terrain(loc) in set(self.t.hidden["cover"].value)

    def targets(self, d: KonfliktData, side: str) -> list[str]:
        """Locations of enemy units this side can see (a hidden unit is not a target, 3.1)."""
        return sorted({x.loc for x in d.on_map() if x.side != side and not x.concealed and x.loc is not None})

    def may_leave(self, d: KonfliktData, u: Unit) -> bool:
        sp = self.spec_of(d)
        if sp.exit == "attacker" and u.side == d.attacker:  # 2.1: off the defender's edge
            return u.loc in self.table.edge_locs[d.edge[self.other(u.side)]]
        if sp.victory["kind"] == "marker" and u.id == d.carrier:  # 2.5: off one's own edge
            return u.loc in self.table.edge_locs[d.edge[u.side]]
        return False

    def entries(self, d: KonfliktData, u: Unit) -> list[str]:
        """Where a unit off the table may come on this turn (3.4, 3.5; first wave, 1)."""
        r = self.t.reserves
        edge = d.edge[u.side]
        if u.pool == FIRST_WAVE:
            spots = self.table.edge_locs[edge] if d.turn == 1 else []
        elif u.pool == RESERVE:
            first = 1 if self.spec_of(d).reserves_turn_one else int(r["from_turn"].value)
            spots = self.table.edge_locs[edge] if d.turn >= first else []
        elif u.pool == FLANK:
            if d.turn < int(r["outflank_from_turn"].value):
                return []
            limit = int(r["outflank_inches"].value) + int(r["outflank_per_turn"].value) * (d.turn - int(r["outflank_from_turn"].value))
            hand = d.flank.get(u.id)
            if hand is None:  # an enemy outflank's direction, hidden in a side's view (3.5): not guessed
                return []
            spots = [loc for loc in self.table.side_edge(edge, hand) if self.table.depth[loc][edge] <= limit]
        else:
            return []
        return sorted(loc for loc in spots if self.stack_ok(d, loc, u.side, u))

    def has_die(self, d: KonfliktData, u: Unit) -> bool:
        """A unit that can do more than Down has an order die this turn (reserves in turn 1
        and outflankers before turn 3 only wait, 3.4, 3.5)."""
        if u.pool in ("eliminated", EXITED, "removed", UNSET):
            return False
        if u.loc is not None:
            return True
        return bool(self.entries(d, u))

    # --- the host ruleset, on this table -----------------------------------------------------------

    def _may_act(self, data: KonfliktData, u: Unit) -> bool:
        """A hidden unit may act (and is revealed by it, 3.1); fatigue still limits (host)."""
        t = self.tables.types[u.type]
        from hexwar.rules import fatigue as fat

        return u.loc is not None and t.kind != "dummy" and not fat.at_limit(self.tables, u)

    def query(self, data: KonfliktData, unit: Unit) -> MoveQuery:
        """The host's movement query, blind to hidden enemies (3.1); on the area table a unit
        moves one area an action (an area is 4 x 5 hexes)."""
        t = self.tables.types[unit.type]
        hidden = [x for x in data.on_map() if x.side != unit.side and x.concealed]
        saved = [(x, x.loc) for x in hidden]
        for x, _ in saved:
            x.loc = None
        try:
            zoc = enemy_zoc(self.board, data, self.tables, unit.side)
            blocked = frozenset(x.loc for x in data.on_map() if x.side != unit.side and x.loc is not None)
        finally:
            for x, loc in saved:
                x.loc = loc
        finf = frozenset(x.loc for x in data.on_map(unit.side) if self.tables.types[x.type].infantry and x.loc is not None)
        mp = Fraction(1) if self._area_mp else t.mp
        return MoveQuery(mp, zoc, blocked, Fraction(t.zoc_exit_mp), t.is_artillery, finf)

    def stack_ok(self, d: KonfliktData, loc: str, side: str, u: Unit) -> bool:
        """Whether ``u`` may stand at ``loc``: no enemy there, and the host's stacking (3.1, 3.4)."""
        if any(x.side != side for x in d.at(loc)):
            return False
        return stacking.stack(self.board, d, self.tables, loc, side, extra=[u]).ok

    def stop_short(self, d: KonfliktData, path: tuple[str, ...], side: str) -> list[str]:
        hidden = {x.loc for x in d.on_map() if x.side != side and x.concealed}
        out = [path[0]]
        for loc in path[1:]:
            if loc in hidden:
                for x in d.on_map():
                    if x.loc == loc and x.side != side:
                        x.concealed = False
                break
            out.append(loc)
        return out

    def order_test_needs(self, u: Any) -> int:
        """The 2D6 total a unit off the table must not exceed to come on: its morale with the
        entry's modifier (3.4, 3.5; -1 in the templates' table, from rules 3.4)."""
        return self.t.units[u.type].morale + int(self.t.reserves["test_modifier"].value)
