"""A Konflikt '47 scenario (seed 002) hosted by the skirmish ruleset, on a hex or an area table.

The template (``tables/konflikt/templates.yaml``) decides the set-up: who chooses roles or a
table edge (the high roller), objectives and bases, which units start on the table (hidden
where allowed, 3.1), the first wave, reserves and outflankers (3.4, 3.5), the preparatory
bombardment (3.3); and how the game is won. The host ruleset (``games/skirmish``: movement,
zones of control, the differential CRT, fatigue) moves and fights the units. Turns follow the
order dice (digest 4.3): every unit that can act has a die in the bag, a die drawn at random
gives its side one unit's order, and the turn ends when the bag is empty. After turn 6 a die
decides whether a 7th is played (1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, Collection

from hexwar.core.events import strip_hidden
from hexwar.core.dice import Dice
from hexwar.core.engine import PlayState, Result, new_play_state
from hexwar.core.orders import Assault, IllegalOrder, Move, Order
from hexwar.core.state import GameState, Unit
from hexwar.data.loader import DataError, Library, Problem, default_library
from hexwar.data.scenario import Scenario, load_scenario
from hexwar.games.konflikt.events import EVENTS
from hexwar.games.konflikt.orders import ORDERS, Assign, Down, Enter, Leave, Mark, Pick
from hexwar.games.konflikt.schemas import KonfliktTemplatesSpec, ScenarioSpec
from hexwar.games.konflikt.table import EDGES, Table, konflikt_table
from hexwar.games.skirmish.game import SkirmishGame
from hexwar.rules import stacking
from hexwar.rules.movement import MoveQuery, reach
from hexwar.rules.zoc import enemy_zoc

SIDES = ("allies", "germans")
RESERVE, FIRST_WAVE, FLANK, UNSET, EXITED = "reserve", "first wave", "outflank", "to set up", "exited"


@dataclass
class KonfliktData(GameState, game="konflikt"):
    """Everything that changes in a Konflikt '47 scenario."""

    POOLS: ClassVar[frozenset[str]] = frozenset({"eliminated", "removed", "reinforcements", RESERVE, FIRST_WAVE, FLANK,
                                                 UNSET, EXITED})

    template: str = ""
    attacker: str = ""  # "" in the scenarios without roles
    edge: dict[str, str] = field(default_factory=dict)  # side -> its own table edge (north / south)
    chooser: str = ""  # the high roller (2.x: "both roll a die")
    todo: list[str] = field(default_factory=list)  # set-up steps still to come
    bag: list[str] = field(default_factory=list)  # this turn's order dice, by side (digest 4.3)
    acted: list[str] = field(default_factory=list)  # units that have had their order this turn
    drawn: str = ""  # the side whose die was drawn
    last_turn: int = 0  # 6, or 7 after the die (1)
    objectives: dict[str, str] = field(default_factory=dict)  # location -> side holding it (2.3, 2.4)
    marker: str = ""  # Top Secret: where the marker lies (2.5)
    carrier: str = ""  # the unit carrying it
    base_at: dict[str, str] = field(default_factory=dict)  # Demolition: side -> its base (2.6)
    razed: list[str] = field(default_factory=list)  # sides whose base was destroyed
    flank: dict[str, str] = field(default_factory=dict)  # outflanking unit -> left / right (secret, 3.5)
    shown: list[str] = field(default_factory=list)  # sides whose outflank note is revealed
    ended: str = ""


class KonfliktGame(SkirmishGame):
    """One Konflikt '47 scenario template on one table, hosted by the skirmish ruleset."""

    name = "konflikt"
    orders = ORDERS
    events = EVENTS
    state_type = KonfliktData

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

    def allot(self, d: KonfliktData, kind: str, side: str):
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

    # --- the engine protocol ------------------------------------------------------------------

    def new_state(self, seed: int) -> PlayState:
        return new_play_state(self, seed, {"game": self.name, "scenario": self.template, "board": self.table.name})

    def initial_state(self, seed: int, dice: Dice) -> KonfliktData:
        d = KonfliktData(game=self.name, scenario=self.template, seed=seed, phase="set-up", turn=0, weather=self.spec.weather)
        for u in self.scenario.oob.units:
            d.units[u.id] = Unit(u.id, u.type, u.side, u.nation, u.formation, u.name, None, UNSET)
        d.vp = {s: 0 for s in SIDES}
        tpl = self.template
        if self.random:  # 1: roll a die on the scenario chart
            face = dice.roll(1, "scenario").faces[0]
            tpl = next(k for k, s in self.t.scenarios.items() if s.d6 == face)
        d.template = d.scenario = tpl
        while True:  # 2.x: both roll a die, the high roller chooses
            a, b = dice.roll(2, "who chooses").faces
            if a != b:
                d.chooser = SIDES[0] if a > b else SIDES[1]
                break
        d.side = d.chooser
        d.todo = ["pick"]
        self.advance(d, dice, [])
        return d

    def current_side(self, d: KonfliktData) -> str:  # type: ignore[override]
        return d.side

    def result(self, d: KonfliktData) -> Result:  # type: ignore[override]
        winner, level = self.standing(d)
        vp = self.points(d)
        return Result(d.over, winner if d.over else None, level if d.over else f"in progress ({level})", vp)

    def view(self, d: KonfliktData, sides: Collection[str]) -> KonfliktData:
        """3.1, 3.5: the other side's hidden units are not on the map for you, and its
        outflankers' directions are its secret until the first arrives."""
        import copy

        v = copy.copy(d)
        v.units = {}
        for uid, u in d.units.items():
            if u.side not in sides and u.concealed and u.loc is not None:
                u = Unit(u.id, u.type, u.side, u.nation, u.formation, u.name, None, "reinforcements", u.fatigue, True)
            v.units[uid] = u
        v.flank = {k: s for k, s in d.flank.items() if d.units[k].side in sides or d.units[k].side in d.shown}
        v.seed = 0
        return v

    def visible_events(self, d: KonfliktData, events: list[dict[str, Any]], sides: Collection[str]) -> list[dict[str, Any]]:
        return strip_hidden(events, sides)

    def visible_order(self, d: KonfliktData, order: Order, sides: Collection[str]) -> str:
        """A hidden deployment's place and an outflank's direction are the owner's (3.1, 3.5)."""
        if order.side in sides:
            return order.text()
        if isinstance(order, Assign) and order.hidden:
            return f"deploy {order.unit} hidden"
        if isinstance(order, Assign) and order.where.startswith(FLANK):
            return f"{FLANK} {order.unit}"
        return order.text()

    # --- legal orders -------------------------------------------------------------------------------

    def legal_orders(self, d: KonfliktData) -> list[Order]:  # type: ignore[override]
        if d.over:
            return []
        step = d.todo[0] if d.todo else "play"
        if step == "pick":
            opts = ("attacker", "defender") if self.spec_of(d).roles and not d.attacker else EDGES
            return [Pick(d.side, c) for c in opts]
        if step.startswith("mark"):
            return self.legal_marks(d, step.split(":")[1])
        if step.startswith("assign"):
            return self.legal_assign(d, d.side)
        return self.legal_play(d, d.side)

    def legal_marks(self, d: KonfliktData, what: str) -> list[Order]:
        side = d.side
        zone = self.zone(d, side)
        edge = d.edge[side]
        if what == "objective":  # 2.3: >= 6" from the edge, >= 24" apart, in the set-up zone
            o = self.spec_of(d).objectives or {}
            apart = int(o.get("apart_inches", 24))
            spots = sorted(loc for loc in zone if self.table.depth[loc][edge] >= o.get("from_edge_inches", 6))

            def room(chosen: list[str]) -> int:  # how many more fit, placed greedily west to east
                n, got = 0, list(chosen)
                for loc in spots:
                    if all(self.table.at_least(loc, x, apart) for x in got):
                        got.append(loc)
                        n += 1
                return n

            left = int(o.get("count", 3)) - len(d.objectives)
            ok = [loc for loc in spots if all(self.table.at_least(loc, x, apart) for x in d.objectives)
                  and room(list(d.objectives) + [loc]) >= left - 1]
            return [Mark(side, "objective", loc) for loc in ok]
        b = self.spec_of(d).bases or {}
        ok = [loc for loc in zone if self.table.depth[loc][edge] >= b.get("from_edge_inches", 6)]
        return [Mark(side, "base", loc) for loc in sorted(ok)]

    def unset(self, d: KonfliktData, side: str) -> list[Unit]:
        return sorted((u for u in d.units.values() if u.side == side and u.pool == UNSET), key=lambda u: u.id)

    def legal_assign(self, d: KonfliktData, side: str) -> list[Order]:
        """The next unit's set-up: what the template allows and still needs (at least half on
        the table, half the rest in the first wave ...)."""
        units = self.unset(d, side)
        u = units[0]
        left = len(units)
        mine = [x for x in d.units.values() if x.side == side]
        placed = sum(1 for x in mine if x.loc is not None)
        waved = sum(1 for x in mine if x.pool == FIRST_WAVE)
        dep = self.allot(d, "deploy", side)
        wave = self.allot(d, "first_wave", side)
        out: list[Order] = []
        where_table: list[str] = []
        need_table = need_wave = 0
        may_table = may_wave = 0
        if dep is not None:
            if dep.units:  # 2.4: the defender's infantry squad and one other unit, near the centre
                if placed < len(dep.units):
                    kind = dep.units[placed]
                    if kind == "infantry" and not self.infantry(u):
                        return [Assign(side, u.id, RESERVE)] if any(self.infantry(x) for x in units[1:]) else \
                            [Assign(side, u.id, "table", loc) for loc in self.near_centre(d, dep.near_centre_inches or 6)]
                    where_table = self.near_centre(d, dep.near_centre_inches or 6)
                    need_table = may_table = 1
            elif dep.only == "infantry":  # 2.4: the attacker's infantry anywhere far enough away
                if self.infantry(u):
                    where_table = [loc for loc in self.table.depth if self.far_from(d, loc, dep.away_inches or 18)]
                    may_table = 1
            else:
                total = len(mine)
                want = math.floor(dep.fraction_floor * total) if dep.fraction_floor is not None else math.ceil((dep.fraction or 0) * total)
                where_table = self.zone(d, side)
                need_table = max(0, want - placed)
                may_table = need_table if dep.fraction_floor is not None else left
        if wave is not None:
            total = len(mine)
            if wave.fraction_of_rest is not None:  # 2.4: half the rest, rounded down
                rest = total - (len(dep.units) if dep is not None and dep.units else 0)
                want = math.floor(wave.fraction_of_rest * rest)
                exact = True
            else:
                want = math.ceil((wave.fraction or 0) * total)
                exact = False
            need_wave = max(0, want - waved)
            may_wave = need_wave if exact else left
            if dep is not None and dep.units and placed < len(dep.units):
                may_wave = 0
        stack_ok = [loc for loc in where_table if self._stack_ok(d, loc, side, u)]
        if may_table > 0:
            hide = dep is not None and dep.hidden
            for loc in sorted(stack_ok):
                out.append(Assign(side, u.id, "table", loc))
                if hide and self.cover(loc):
                    out.append(Assign(side, u.id, "table", loc, True))
        if may_wave > 0 and need_table < left:
            out.append(Assign(side, u.id, FIRST_WAVE))
        if need_table + need_wave < left:
            out += [Assign(side, u.id, RESERVE), Assign(side, u.id, f"{FLANK} left"), Assign(side, u.id, f"{FLANK} right")]
        return out or [Assign(side, u.id, RESERVE)]

    def _stack_ok(self, d: KonfliktData, loc: str, side: str, u: Unit) -> bool:
        if any(x.side != side for x in d.at(loc)):
            return False
        return stacking.stack(self.board, d, self.tables, loc, side, extra=[u]).ok

    def near_centre(self, d: KonfliktData, inches: int) -> list[str]:
        c = self.table.centre
        return sorted(loc for loc in self.table.depth if self.table.within(c, loc, inches))

    def far_from(self, d: KonfliktData, loc: str, inches: int) -> bool:
        """2.4: more than ``inches`` from the objective and from every deployed enemy unit."""
        spots = [self.table.centre] + [u.loc for u in d.on_map() if u.loc is not None]
        return all(not self.table.within(s, loc, inches) for s in spots)

    def legal_play(self, d: KonfliktData, side: str) -> list[Order]:
        """The drawn die's side gives one of its units an order (digest 4.3)."""
        out: list[Order] = []
        sp = self.spec_of(d)
        for u in sorted(d.units.values(), key=lambda u: u.id):
            if u.side != side or u.id in d.acted or not self.has_die(d, u):
                continue
            if u.loc is not None:
                if self._may_act(d, u):
                    r = reach(self.board, self.tables.terrain, d.weather, self.tables.types[u.type].movement_class, u.loc,
                              self.query(d, u))
                    for dest in r.destinations():
                        if self._stack_ok(d, dest, side, u):
                            out.append(Move(side, u.id, tuple(r.path(dest))))
                    for target in self.targets(d, side):
                        att = [a for a in self._eligible_attackers(d, side, target) if a not in d.acted]
                        if u.id in att and not self.tables.types[u.type].is_artillery:
                            out.append(Assault(side, target, tuple(att)))
                    if self.may_leave(d, u):
                        out.append(Leave(side, u.id))
                out.append(Down(side, u.id))
            else:
                for loc in self.entries(d, u):
                    out.append(Enter(side, u.id, loc))
                if u.pool != FIRST_WAVE or d.turn > 1:
                    out.append(Down(side, u.id))
        del sp
        return list(dict.fromkeys(out))

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
            hand = d.flank[u.id]
            spots = [loc for loc in self.table.side_edge(edge, hand) if self.table.depth[loc][edge] <= limit]
        else:
            return []
        return sorted(loc for loc in spots if self._stack_ok(d, loc, u.side, u))

    def has_die(self, d: KonfliktData, u: Unit) -> bool:
        """A unit that can do more than Down has an order die this turn (reserves in turn 1
        and outflankers before turn 3 only wait, 3.4, 3.5)."""
        if u.pool in ("eliminated", EXITED, "removed", UNSET):
            return False
        if u.loc is not None:
            return True
        return bool(self.entries(d, u))

    # --- the host ruleset, on this table -----------------------------------------------------------

    def _may_act(self, data: GameState, u: Unit) -> bool:
        """A hidden unit may act (and is revealed by it, 3.1); fatigue still limits (host)."""
        t = self.tables.types[u.type]
        from hexwar.rules import fatigue as fat

        return u.loc is not None and t.kind != "dummy" and not fat.at_limit(self.tables, u)

    def query(self, data: GameState, unit: Unit) -> MoveQuery:
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

    # --- apply --------------------------------------------------------------------------------------

    def apply(self, d: KonfliktData, order: Order, dice: Dice) -> list[dict[str, Any]]:  # type: ignore[override]
        if d.over:
            raise IllegalOrder("the game is over", "1")
        if order.side != d.side:
            raise IllegalOrder(f"it is the {d.side}' order, not the {order.side}'", "4.3")
        if order not in self.legal_orders(d):
            raise IllegalOrder(f"{order.text()} is not an order the {order.side} may give now", "4.3")
        events: list[dict[str, Any]] = []
        if isinstance(order, Pick):
            self.do_pick(d, order, events)
        elif isinstance(order, Mark):
            self.do_mark(d, order, events)
        elif isinstance(order, Assign):
            self.do_assign(d, order, events)
        else:
            self.do_play(d, order, dice, events)
            return events
        self.advance(d, dice, events)
        return events

    def do_pick(self, d: KonfliktData, o: Pick, events: list) -> None:
        sp = self.spec_of(d)
        if o.choice in ("attacker", "defender"):
            d.attacker = o.side if o.choice == "attacker" else self.other(o.side)
            events.append({"type": "roles", "attacker": d.attacker, "rule": sp.source})
            d.side = self.other(d.attacker)  # the defender picks a table side
            return
        d.edge = {o.side: o.choice, self.other(o.side): EDGES[1] if o.choice == EDGES[0] else EDGES[0]}
        events.append({"type": "edges", "edges": dict(d.edge), "rule": sp.source})
        d.todo.pop(0)
        order = [d.attacker and self.other(d.attacker) or d.chooser]
        order.append(self.other(order[0]))
        if sp.objectives:
            d.todo += ["mark:objective"] * int(sp.objectives.get("count", 3))
        if sp.bases:
            d.todo += ["mark:base"] * 2
        if sp.centre:
            c = self.table.centre
            if sp.victory["kind"] == "marker":
                d.marker = c
            else:
                d.objectives = {c: ""}
        d.todo += [f"assign:{s}" for s in order] + ["begin"]

    def do_mark(self, d: KonfliktData, o: Mark, events: list) -> None:
        d.todo.pop(0)
        if o.what == "objective":
            d.objectives[o.at] = o.side  # 2.3: all objectives start held by the defender
        else:
            d.base_at[o.side] = o.at
        events.append({"type": "marked", "side": o.side, "what": o.what, "at": o.at, "rule": self.spec_of(d).source})

    def do_assign(self, d: KonfliktData, o: Assign, events: list) -> None:
        u = d.units[o.unit]
        if o.where == "table":
            d.place(u.id, o.at)
            u.concealed = o.hidden
            e = {"type": "deployed", "side": o.side, "unit": u.id, "at": o.at, "hidden": o.hidden, "rule": "3.1" if o.hidden else "2"}
            if o.hidden:
                e.update(hide=["at"], see=[o.side])
        elif o.where.startswith(FLANK):
            d.remove(u.id, FLANK)
            d.flank[u.id] = o.where.split()[1]
            e = {"type": "assigned", "side": o.side, "unit": u.id, "where": o.where, "rule": "3.5",
                 "hide": ["where"], "see": [o.side]}
        else:
            d.remove(u.id, o.where)
            e = {"type": "assigned", "side": o.side, "unit": u.id, "where": o.where, "rule": "3.4"}
        events.append(e)

    def advance(self, d: KonfliktData, dice: Dice, events: list) -> None:
        """Run the set-up's steps until one needs a decision, then turn 1."""
        while d.todo:
            step = d.todo[0]
            if step == "pick":
                return
            if step.startswith("mark"):
                d.side = d.attacker and self.other(d.attacker) or d.chooser
                if step == "mark:base" and d.base_at:
                    d.side = self.other(next(iter(d.base_at)))
                if self.legal_marks(d, step.split(":")[1]):
                    return
                d.todo.pop(0)  # nowhere left that qualifies
                continue
            if step.startswith("assign"):
                side = step.split(":")[1]
                if self.unset(d, side):
                    d.side = side
                    return
                d.todo.pop(0)
                continue
            if step == "begin":
                d.todo.pop(0)
                self.bombard(d, dice, events)
                self.start_turn(d, dice, events)
                return

    def bombard(self, d: KonfliktData, dice: Dice, events: list) -> None:
        """3.3: the attacker rolls 2+ for a bombardment; one die per unit in the defender's
        set-up zone, on our chart (hidden units get no benefit)."""
        if self.spec_of(d).bombardment != "attacker" or not d.attacker:
            return
        face = dice.roll(1, "bombardment").faces[0]
        ok = face in self.t.bombardment["faces_needed"].value
        events.append({"type": "bombardment", "side": d.attacker, "face": face, "falls": ok, "rule": "3.3"})
        if not ok:
            return
        defender = self.other(d.attacker)
        zone = set(self.zone(d, defender))
        chart = {int(k): int(v) for k, v in self.t.bombardment["chart"].value.items()}
        for u in sorted((u for u in d.on_map(defender) if u.loc in zone), key=lambda u: u.id):
            f = dice.roll(1, f"bombardment {u.id}").faces[0]
            events.append({"type": "bombarded", "unit": u.id, "face": f, "points": chart[f], "rule": "3.3 (chart authored)"})
            events += self._take(d, [u.id], chart[f], d.attacker)

    # --- turns --------------------------------------------------------------------------------------

    def start_turn(self, d: KonfliktData, dice: Dice, events: list) -> None:
        d.turn += 1
        d.phase = "orders"
        d.acted = []
        d.bag = sorted(u.side for u in d.units.values() if self.has_die(d, u))
        events.append({"type": "turn", "turn": d.turn, "dice": {s: d.bag.count(s) for s in SIDES}, "rule": "4.3"})
        self.draw(d, dice, events)

    def draw(self, d: KonfliktData, dice: Dice, events: list) -> None:
        """Draw the next order die from the bag (digest 4.3); an empty bag ends the turn."""
        while d.bag:
            side = d.bag[0] if len(set(d.bag)) == 1 else dice.choice(d.bag, "order die")
            d.bag.remove(side)
            if self.legal_play(d, side):
                d.side, d.drawn = side, side
                return
        self.end_turn(d, dice, events)

    def do_play(self, d: KonfliktData, o: Order, dice: Dice, events: list) -> None:
        side = o.side
        used: list[str] = []
        if isinstance(o, Move):
            u = d.units[o.unit]
            used = [u.id]
            path = self.stop_short(d, o.path, side)  # 3.1: a hidden enemy in the way stops the move
            u.concealed = False  # 3.1: ordered to advance or run: revealed
            if len(path) >= 2:
                events += self._move(d, Move(side, u.id, tuple(path)))
            else:
                events.append({"type": "ambushed", "unit": u.id, "at": u.loc, "rule": "3.1"})
        elif isinstance(o, Assault):
            used = list(o.units)
            for a in used:
                d.units[a].concealed = False
            events += self._assault(d, o, dice)
        elif isinstance(o, Enter):
            events += self.enter(d, o, dice)
            used = [o.unit]
        elif isinstance(o, Leave):
            u = d.units[o.unit]
            events.append({"type": "left", "side": side, "unit": u.id, "from": u.loc, "rule": self.spec_of(d).source})
            if u.id == d.carrier:
                d.ended = f"{side} carried the documents off the table (2.5)"
            d.remove(u.id, EXITED)
            used = [u.id]
        elif isinstance(o, Down):
            used = [o.unit]
            events.append({"type": "down", "side": side, "unit": o.unit, "rule": "3.4"})
        d.acted += used
        for extra in used[1:]:  # a joint assault spends the other units' dice too
            if extra not in d.acted[:-len(used)] and side in d.bag:
                d.bag.remove(side)
        self.after_order(d, events)
        if d.ended:
            self.finish(d, events)
            return
        self.draw(d, dice, events)

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

    def enter(self, d: KonfliktData, o: Enter, dice: Dice) -> list[dict[str, Any]]:
        """3.4, 3.5: the first wave comes on without a test; reserves and outflankers pass an
        order test (2D6 at most morale - 1) or stay off (Down)."""
        u = d.units[o.unit]
        events: list[dict[str, Any]] = []
        if u.pool != FIRST_WAVE:
            morale = self.t.units[u.type].morale + int(self.t.reserves["test_modifier"].value)
            faces = dice.roll(2, f"order test {u.id}").faces
            ok = sum(faces) <= morale
            events.append({"type": "order_test", "unit": u.id, "faces": list(faces), "needs": morale, "passed": ok, "rule": "3.4"})
            if not ok:
                return events
            if u.pool == FLANK and u.side not in d.shown:  # 3.5: the note is shown at the first arrival
                d.shown.append(u.side)
                events.append({"type": "flank_note", "side": u.side,
                               "flanks": {k: v for k, v in d.flank.items() if d.units[k].side == u.side}, "rule": "3.5"})
        d.place(u.id, o.at)
        events.append({"type": "entered", "side": u.side, "unit": u.id, "at": o.at, "rule": "3.4"})
        return events

    def after_order(self, d: KonfliktData, events: list) -> None:
        """Hidden units seen (3.1), the Top Secret marker picked up, carried or dropped (2.5)."""
        rin = int(self.t.hidden["reveal_infantry_inches"].value)
        rot = int(self.t.hidden["reveal_other_inches"].value)
        for h in sorted(d.on_map(), key=lambda u: u.id):
            if not h.concealed:
                continue
            for e in d.on_map():
                if e.side == h.side or e.concealed:
                    continue
                radius = rin if self.holds_ground(e) else rot
                if self.table.within(e.loc, h.loc, radius):  # type: ignore[arg-type]
                    h.concealed = False
                    events.append({"type": "revealed", "unit": h.id, "at": h.loc, "by": e.id, "rule": "3.1"})
                    break
        if self.spec_of(d).victory["kind"] != "marker":
            return
        if d.carrier:
            c = d.units[d.carrier]
            if c.loc is None:  # 2.5: the whole unit lost: the marker stays on the ground
                events.append({"type": "marker_dropped", "at": d.marker, "rule": "2.5"})
                d.carrier = ""
            else:
                d.marker = c.loc
        if not d.carrier and d.marker:
            for u in sorted(d.at(d.marker), key=lambda u: u.id):
                if self.infantry(u):  # 2.5: an infantry unit that ends its move there seizes it
                    d.carrier = u.id
                    events.append({"type": "marker_seized", "unit": u.id, "side": u.side, "at": d.marker, "rule": "2.5"})
                    break

    def end_turn(self, d: KonfliktData, dice: Dice, events: list) -> None:
        """End of a turn: objectives change hands (2.3), bases fall (2.6); after turn 6 a die
        for a 7th turn (1)."""
        sp = self.spec_of(d)
        radius = int(self.t.control["radius_inches"].value)
        for loc in sorted(d.objectives):
            holder = self.controller(d, loc, radius)
            if holder and holder != d.objectives[loc]:
                d.objectives[loc] = holder
                events.append({"type": "objective", "at": loc, "side": holder, "rule": sp.source})
        if sp.bases:
            for side, loc in sorted(d.base_at.items()):
                if side in d.razed:
                    continue
                near = [u for u in d.on_map(self.other(side))
                        if u.loc == loc or (self.table.hexes and self.board.distance(str(u.loc), loc) <= 1)]
                if near:
                    d.razed.append(side)
                    events.append({"type": "base_destroyed", "side": side, "by": near[0].id, "rule": "2.6"})
        gl = self.t.game_length
        after = int(gl["die_after_turn"].value)
        if d.turn == after and not d.last_turn:
            face = dice.roll(1, "game length").faces[0]
            d.last_turn = after if face in gl["ends_on"].value else after + 1
            events.append({"type": "game_length", "face": face, "last_turn": d.last_turn, "rule": "1"})
        if d.turn >= (d.last_turn or int(gl["max_turns"].value)):
            d.ended = f"end of turn {d.turn}"
            self.finish(d, events)
            return
        self.start_turn(d, dice, events)

    def controller(self, d: KonfliktData, loc: str, radius: int) -> str:
        """2.3, 2.4: the side with infantry or artillery within 3" and none of the enemy's."""
        near = {u.side for u in d.on_map() if self.holds_ground(u) and self.table.within(loc, u.loc, radius)}  # type: ignore[arg-type]
        return next(iter(near)) if len(near) == 1 else ""

    def finish(self, d: KonfliktData, events: list) -> None:
        for u in d.units.values():  # 3.4: who never arrived counts as destroyed
            if u.pool in (RESERVE, FIRST_WAVE, FLANK):
                d.remove(u.id, "removed")
                events.append({"type": "missing", "unit": u.id, "side": u.side, "rule": "3.4"})
        d.over = True
        d.vp = self.points(d)
        winner, level = self.standing(d)
        d.winner = winner
        events.append({"type": "game_over", "why": d.ended, "winner": winner, "level": level,
                       "attrition": self.attrition(d, winner), "rule": self.spec_of(d).source})

    # --- scoring ------------------------------------------------------------------------------------

    def lost(self, d: KonfliktData, side: str) -> list[Unit]:
        return [u for u in d.units.values() if u.side == side and u.pool in ("eliminated", "removed")]

    def points(self, d: KonfliktData) -> dict[str, int]:
        """2.1, 2.2: victory points (0 in the scenarios won otherwise)."""
        sp = self.spec_of(d)
        out = {s: 0 for s in SIDES}
        if sp.victory["kind"] != "points" or not d.edge:
            return out
        for side in SIDES:
            pts = self.points_for(sp, self.role(d, side))
            enemy = self.other(side)
            out[side] += pts.get("destroyed", 0) * len(self.lost(d, enemy))
            zone = set(self.zone(d, enemy))
            out[side] += pts.get("in_enemy_zone", 0) * sum(1 for u in d.on_map(side) if u.loc in zone)
            out[side] += pts.get("exited", 0) * sum(1 for u in d.units.values() if u.side == side and u.pool == EXITED)
        return out

    @staticmethod
    def points_for(sp: ScenarioSpec, role: str) -> dict[str, int]:
        """The VP a side scores for each event (2.1, 2.2): its role's, or both sides'."""
        table: dict[str, dict[str, int]] = {k: {str(e): n for e, n in v.items()} for k, v in sp.points.items()}
        return table.get(role) or table.get("both") or {}

    def standing(self, d: KonfliktData) -> tuple[str | None, str]:
        if not d.edge:
            return None, "setting up"
        sp = self.spec_of(d)
        kind = sp.victory["kind"]
        title = sp.title
        if kind == "points":
            vp = self.points(d)
            a, b = vp[SIDES[0]], vp[SIDES[1]]
            margin = int(sp.victory.get("margin", 2))
            if abs(a - b) >= margin:
                w = SIDES[0] if a > b else SIDES[1]
                return w, f"{title}: {w} win {max(a, b)}-{min(a, b)} VP (a lead of {margin} or more)"
            return None, f"{title}: draw ({a}-{b} VP, a lead under {margin})"
        if kind == "objectives":
            held = sum(1 for s in d.objectives.values() if s == d.attacker)
            table = {int(k): v for k, v in sp.victory["attacker_holds"].items()}
            res = table[min(held, max(table))]
            won = d.attacker if res == "attacker" else self.other(d.attacker) if res == "defender" else None
            return won, f"{title}: the attacker holds {held} of {len(d.objectives)} objectives: " + (f"{won} win" if won else "draw")
        if kind == "control":
            loc = next(iter(d.objectives), "")
            holder = self.controller(d, loc, int(self.t.control["radius_inches"].value)) if loc else ""
            return (holder or None), f"{title}: " + (f"{holder} control the objective" if holder else "nobody controls the objective: draw")
        if kind == "marker":
            gone = [u for u in d.units.values() if u.pool == EXITED and d.ended.startswith(u.side)]
            if gone:
                return gone[0].side, f"{title}: {gone[0].side} carried the documents off their edge"
            who = d.units[d.carrier].side if d.carrier else "nobody"
            return None, f"{title}: the documents are still on the table ({who} holds them): draw"
        standing = [s for s in SIDES if s not in d.razed]
        if len(standing) == 1:
            return standing[0], f"{title}: {standing[0]} destroyed the enemy base and kept their own"
        return None, f"{title}: " + ("both bases destroyed: draw" if not standing else "both bases stand: draw")

    def attrition(self, d: KonfliktData, winner: str | None) -> dict[str, int]:
        """3.6: the precise score: each destroyed enemy unit at its cost, times the scenario's
        VP for it (2 for the winner in an objective scenario); the loser capped at the winner - 10."""
        sp = self.spec_of(d)
        out = {}
        for side in SIDES:
            if sp.victory["kind"] == "points":
                pts = self.points_for(sp, self.role(d, side)).get("destroyed", 1)
            else:
                pts = 2 if side == winner else 1
            out[side] = pts * sum(self.t.units[u.type].cost for u in self.lost(d, self.other(side)))
        if winner:
            loser = self.other(winner)
            out[loser] = min(out[loser], out[winner] - 10)
        return out
