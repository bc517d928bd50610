"""Skirmish: a small generic ruleset over the shared rules, for fixture maps and engine tests.

It is not a published game. It uses the Assault on Narvik rule functions the engine core
provides (movement 14.0, ZoC 12.0, stacking 13.2, fatigue 10.0/21.0, supply 19.0, the
differential CRT 15.1) in a simplified action phase (9.0): the side with the initiative
moves one unit, assaults, or passes; an assault or a pass hands the initiative over; two
passes in a row end the turn. Combat results are taken automatically (6 FP while a
participant can take them, else eliminations, tanks first); the Assault on Narvik game
asks the owner instead (15.2).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence, TypeVar

from hexwar.core.dice import Dice
from hexwar.core.game import Game
from hexwar.core.orders import Refusals
from hexwar.core.result import Result
from hexwar.core.invariants import counters
from hexwar.core.orders import IllegalOrder, Move, Order, OrderKinds, Pass
from hexwar.rules.orders import Assault
from hexwar.core.state import Unit
from hexwar.data.loader import Library
from hexwar.scenario import Scenario, load_scenario
from hexwar.games.common.narvik_rules import ALWAYS_SUPPLIED, MAX_SUPPLY_LINE, Cites
from hexwar.games.skirmish.events import EVENTS
from hexwar.games.skirmish.state import SkirmishData
from hexwar.rules import fatigue as fat
from hexwar.rules import stacking
from hexwar.rules.assault import assault_sums, may_attack_into
from hexwar.rules.combat import resolve_differential
from hexwar.rules.movement import MoveQuery, explain_path, path_mp, reach
from hexwar.rules.supply import SupplyResult, line_of_supply
from hexwar.rules.zoc import enemy_zoc

VP_ELIMINATED = 4  # as 29.0: a land unit eliminated

SD = TypeVar("SD", bound=SkirmishData)  # the state a game on the skirmish ruleset plays on

#: the orders of the skirmish ruleset
ORDERS = OrderKinds("skirmish", [Pass, Move, Assault], rule="6.0")


class SkirmishGame(Game[SD]):
    """The skirmish ruleset bound to one scenario (board, tables, OOB)."""

    name = "skirmish"
    orders = ORDERS
    events = EVENTS
    #: the skirmish ruleset keeps Assault on Narvik's numbering: over (24.0), not an order (6.0)
    refusals = Refusals(over="24.0", foreign=ORDERS.rule, not_now="6.0")
    state_type: type[SD] = SkirmishData  # type: ignore[assignment]  # a hosted game's own (Konflikt's)
    cites = Cites()  # the sections its rules cite: Assault on Narvik's numbering

    def __init__(self, scenario: Scenario):
        self.scenario = scenario
        self.spec = scenario.spec
        self.board = scenario.board
        self.tables = scenario.tables

    @classmethod
    def from_scenario(cls, name: str, library: Library | None = None) -> "SkirmishGame[Any]":
        return cls(load_scenario(name, library))

    def save_meta(self) -> dict[str, Any]:
        return {"game": self.name, "scenario": self.spec.name, "scenario_file": self.scenario.file, "board": self.board.name}

    def state_problems(self, data: SD, sides: Any = None) -> list[str]:
        """A position must be one this game can play on (issue 70): every counter of the
        scenario's forces as it has them, on the table or in a pool, the weather of its terrain
        chart, turns 1 to the scenario's last, and its sides."""
        out = super().state_problems(data, sides)
        oob = {u.id: u for u in self.scenario.oob.units}
        out += counters(data, self.board, self.tables.types, oob, self.tables.terrain.weather, self.spec.turns,
                        first=0)  # 0: a set-up before the first turn (Konflikt '47)
        if data.side not in self.spec.sides:
            out.append(f"side: the side to act is {data.side!r}; the sides are {', '.join(self.spec.sides)}")
        return out

    # --- the Game contract ---------------------------------------------------------------

    def initial_state(self, seed: int, dice: Dice) -> SD:
        data = self.state_type(game=self.name, scenario=self.spec.name, seed=seed, phase="action",
                               side=self.spec.first_side, weather=self.spec.weather, bases=list(self.spec.bases))
        for u in self.scenario.oob.units:
            data.units[u.id] = Unit(u.id, u.type, u.side, u.nation, u.formation, u.name)
        for s in self.spec.setup:
            data.place(s.unit, s.at)
            fat.set_fatigue(data, s.unit, s.fatigue, "set-up", "5.0")
            data.units[s.unit].concealed = s.concealed
        data.vp = {s: 0 for s in self.spec.sides}
        return data

    def current_side(self, data: SD) -> str:
        return data.side

    def result(self, data: SD) -> Result:
        vp = dict(data.vp)
        a, b = self.spec.sides[0], self.spec.sides[1]
        if vp.get(a, 0) > vp.get(b, 0):
            winner, level = a, "victory"
        elif vp.get(b, 0) > vp.get(a, 0):
            winner, level = b, "victory"
        else:
            winner, level = None, "draw"
        return Result(data.over, winner if data.over else None, level if data.over else "in progress", vp)

    # --- helpers ------------------------------------------------------------------------

    def _enemy(self, side: str) -> str:
        return next(s for s in self.spec.sides if s != side)

    def query(self, data: SD, unit: Unit) -> MoveQuery:
        """Return the movement query for a unit: its MP, enemy ZoC and enemy locations."""
        t = self.tables.types[unit.type]
        zoc = enemy_zoc(self.board, data, self.tables, unit.side)
        blocked = frozenset(x.loc for x in data.on_map() if x.side != unit.side and x.loc is not None)
        finf = frozenset(
            x.loc for x in data.on_map(unit.side) if self.tables.types[x.type].infantry and x.loc is not None
        )
        return MoveQuery(t.mp, zoc, blocked, Fraction(t.zoc_exit_mp), t.is_artillery, finf)

    def _may_act(self, data: SD, u: Unit) -> bool:
        t = self.tables.types[u.type]
        return u.loc is not None and not u.concealed and t.kind != "dummy" and not fat.at_limit(self.tables, u)

    def legal_orders(self, data: SD) -> list[Order]:
        if data.over:
            return []
        side = data.side
        out: list[Order] = [Pass(side)]
        chart, w = self.tables.terrain, data.weather
        for u in sorted(data.on_map(side), key=lambda u: u.id):
            if not self._may_act(data, u):
                continue
            t = self.tables.types[u.type]
            r = reach(self.board, chart, w, t.movement_class, u.loc, self.query(data, u))  # type: ignore[arg-type]
            for d in r.destinations():
                if stacking.stack(self.board, data, self.tables, d, side, extra=[u]).ok:
                    out.append(Move(side, u.id, tuple(r.path(d))))
        for target in sorted({x.loc for x in data.on_map() if x.side != side and x.loc is not None}):
            units = self._eligible_attackers(data, side, target)
            if units:
                out.append(Assault(side, target, tuple(units)))
        return out

    def _eligible_attackers(self, data: SD, side: str, target: str) -> list[str]:
        chart, w = self.tables.terrain, data.weather
        out = []
        for n in self.board.neighbours(target):
            for u in data.at(n):
                if u.side != side or not self._may_act(data, u):
                    continue
                if may_attack_into(self.board, chart, w, self.tables.types[u.type], n, target):  # 15.1
                    out.append(u.id)
        inf_or_tank = [x for x in out if not self.tables.types[data.units[x].type].is_artillery]
        return sorted(out) if inf_or_tank else []  # 16.1: artillery cannot assault alone

    # --- apply --------------------------------------------------------------------------

    def apply(self, data: SD, order: Order, dice: Dice) -> list[dict[str, Any]]:
        if order.side != data.side:
            raise IllegalOrder(f"it is {data.side}'s action, not {order.side}'s", "9.1")
        if isinstance(order, Pass):
            return self._pass(data)
        if isinstance(order, Move):
            return self._move(data, order)
        if isinstance(order, Assault):
            return self._assault(data, order, dice)
        raise IllegalOrder(f"skirmish has no {order.kind!r} orders", "9.0")

    def _pass(self, data: SD) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = [{"type": "pass", "side": data.side}]
        data.passes += 1
        data.side = self._enemy(data.side)
        if data.passes >= 2:  # 9.2: two passes in a row end the phase
            events += self._end_turn(data)
        return events

    def _end_turn(self, data: SD) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        for ch in fat.end_of_turn_recovery(data, self.tables):  # 21.0
            events.append({"type": "fatigue", "unit": ch.unit, "fp": ch.applied, "cause": "recovery", "rule": "21.0"})
        data.passes = 0
        data.side = self.spec.first_side  # 6.4: the Allies start each action phase
        if data.turn >= self.spec.turns:
            data.over = True
            events.append({"type": "game_over", "turn": data.turn})
        else:
            data.turn += 1
            events.append({"type": "turn", "turn": data.turn})
        return events

    def _move(self, data: SD, order: Move) -> list[dict[str, Any]]:
        u = data.units.get(order.unit)
        if u is None or u.side != order.side:
            raise IllegalOrder(f"{order.unit} is not a unit of {order.side}", "14.0")
        if not self._may_act(data, u):
            why = ("is off the table" if u.loc is None else "is face down: it does not act until revealed" if u.concealed
                   else "is a dummy" if self.tables.types[u.type].kind == "dummy"
                   else f"is at its fatigue limit ({u.fatigue} FP): it may not move or attack")
            raise IllegalOrder(f"{u.id} {why}", "11.1" if u.concealed else "10.1")
        if len(order.path) < 2 or order.path[0] != u.loc:
            raise IllegalOrder(f"a path must start at {u.id}'s location {u.loc} and enter at least one hex", "14.0")
        spent = self.move_cost(data, order)
        dest = order.path[-1]
        rep = stacking.stack(self.board, data, self.tables, dest, u.side, extra=[u])
        if not rep.ok:
            raise IllegalOrder(rep.message(self.cites.stack), self.cites.stack.limit)
        data.place(u.id, dest)
        data.passes = 0
        ch = fat.add_fatigue(data, self.tables, u.id, "movement_action")
        return [{"type": "move", "unit": u.id, "path": list(order.path), "mp": str(spent), "fp": ch.applied}]

    def _assault(self, data: SD, order: Assault, dice: Dice) -> list[dict[str, Any]]:
        target = order.target
        defenders = [u.id for u in data.at(target) if u.side != order.side]
        if not defenders:
            raise IllegalOrder(f"{target} holds no enemy units", "15.1")
        eligible = set(self._eligible_attackers(data, order.side, target))
        bad = [x for x in order.units if x not in eligible]
        if bad or not order.units:
            raise IllegalOrder(f"not eligible to assault {target}: {', '.join(bad) or 'no units'}", "15.1")
        if all(self.tables.types[data.units[x].type].is_artillery for x in order.units):
            raise IllegalOrder("artillery cannot assault alone", "16.1")
        events: list[dict[str, Any]] = []
        # 15.1 step 1 / 19.2: an unsupplied defender of the supply side takes +6 FP first (A21)
        for d in self.unsupplied_attacked(data, [data.units[x] for x in defenders]):
            ch = fat.add_fatigue(data, self.tables, d, "unsupplied_attacked")
            events.append({"type": "fatigue", "unit": d, "fp": ch.applied, "cause": "unsupplied_attacked", "rule": "19.2"})
        for d in defenders:
            data.units[d].concealed = False  # 11.2: revealed when assaulted
        sums = assault_sums(data, self.tables, order.units, defenders, cites=self.cites.assault)
        res = resolve_differential(self.tables.crt, sums.attack, sums.defence, sums.drms, dice, self.cites.combat)  # type: ignore[arg-type]
        events.append({"type": "assault", "target": target, "attackers": list(order.units), "defenders": defenders,
                       "ad": sums.differential, "drm": sums.drm, "die": res.die, "column": res.column,
                       "result": f"{res.attacker}/{res.defender}", "ledger": res.ledger.to_dict()})
        events += self.take_results(data, defenders, res.defender, order.side)  # 15.2: defender first
        events += self.take_results(data, list(order.units), res.attacker, self._enemy(order.side))
        for a in order.units:
            if data.units[a].loc is not None:
                ch = fat.add_fatigue(data, self.tables, a, "assault")
                events.append({"type": "fatigue", "unit": a, "fp": ch.applied, "cause": "assault", "rule": "15.1"})
        if not [u for u in data.at(target) if u.side != order.side]:
            for a in order.units:  # 15.3: attacking infantry and tanks advance, -1 FP
                u = data.units[a]
                t = self.tables.types[u.type]
                if u.loc is not None and not t.is_artillery and stacking.stack(self.board, data, self.tables, target, u.side, extra=[u]).ok:
                    data.place(a, target)
                    if t.infantry:
                        fat.add_fatigue(data, self.tables, a, "advance")
                    events.append({"type": "advance", "unit": a, "to": target})
        data.passes = 0
        data.side = self._enemy(data.side)  # 9.2: initiative passes after an attack action
        return events

    def unsupplied_attacked(self, data: SD, units: list[Unit]) -> list[str]:
        """19.2 (A21): which of ``units``, attacked now, take +6 FP first: units of the supply
        side that take fatigue, not Norwegian, with no line of supply (19.3). The assault and
        the supply query both ask this."""
        side = self.spec.supply_side
        return [u.id for u in units if u.side == side and u.nation not in ALWAYS_SUPPLIED
                and fat.takes_fatigue(self.tables, u) and not self.supply(data, u).supplied]

    # --- what the queries ask (issue 71: games.common.asked) --------------------------------

    def move_cost(self, data: SD, order: Move) -> Fraction:
        """The MP a move along its path spends (14.0, 14.1, 12.1), or IllegalOrder naming the
        step it cannot take or the MP it lacks: the move and the reach query both charge so."""
        u = data.units[order.unit]
        t = self.tables.types[u.type]
        q = self.query(data, u)
        for a, b in zip(order.path, order.path[1:]):
            if b not in self.board.neighbours(a):
                raise IllegalOrder(f"{a} and {b} are not adjacent", "14.0")
        spent = path_mp(self.board, self.tables.terrain, data.weather, t.movement_class, order.path, q)
        if spent is None:  # the ledger says which step is refused
            led = explain_path(self.board, self.tables.terrain, data.weather, t.movement_class, order.path, q, self.cites.move)
            why = led.lines[-1].text if led.lines else "prohibited"
            raise IllegalOrder(f"{u.id} cannot move {'>'.join(order.path)}: {why}", "14.1")
        if spent > q.mp and not (len(order.path) == 2):
            raise IllegalOrder(f"{u.id} needs {spent} MP for {'>'.join(order.path)} but has {q.mp}", "14.1")
        return spent

    def acting(self, data: SD, side: str) -> SD:
        """A copy of ``data`` at ``side``'s action (9.0), no pass pending: what a unit of the
        side may do as its action, with everything else as it stands."""
        w = data.clone()
        w.side, w.passes, w.over = side, 0, False
        return w

    def assault_order(self, data: SD, side: str, target: str, units: Sequence[str],
                      support: Sequence[str] = (), ap: int = 0) -> Order:
        """The assault (15.1) of ``units`` on ``target``: this ruleset has no support or AP."""
        if support or ap:
            raise ValueError("this game's assaults take no supporting units or air points (15.1)")
        return Assault(side, target, tuple(units))

    def supply_answer(self, data: SD, u: Unit) -> Any:
        """What 19.0 says of a unit now: only the supply side traces a line (19.3); Norwegians
        and ships are never penalised (19.2); whether it takes +6 FP if attacked now."""
        from hexwar.games.common.asked import SupplyAnswer

        side = self.spec.supply_side
        if side is None:
            return SupplyAnswer(None, False, "no side traces a line of supply in this game")
        if u.side != side:
            return SupplyAnswer(None, False, f"only the {side} trace a line of supply here (19.2)")
        if self.tables.types[u.type].kind == "ship":
            return SupplyAnswer(True, False, "ships are unaffected by supply (19.2)")
        if u.nation in ALWAYS_SUPPLIED:
            return SupplyAnswer(True, False, "Norwegians are never penalised (19.2)")
        line = self.supply(data, u)
        penalised = u.id in self.unsupplied_attacked(data, [u])
        reason = line.reason + ("; if attacked it takes +6 FP first (19.2)" if penalised else "")
        return SupplyAnswer(line.supplied, penalised, reason, tuple(line.path), line.base, line.blocked_at)

    def supply(self, data: SD, u: Unit) -> SupplyResult:
        """Return the supply check of one unit (19.3: passable means passable to infantry, A29)."""
        zoc = enemy_zoc(self.board, data, self.tables, u.side)
        inf = {x.loc for x in data.on_map(u.side) if self.tables.types[x.type].infantry}
        return line_of_supply(self.board, self.tables.terrain, data.weather, "leg", u.loc, data.bases, zoc, inf, MAX_SUPPLY_LINE, self.cites.supply)  # type: ignore[arg-type]

    def take_results(self, data: SD, uids: list[str], points: int, scorer: str) -> list[dict[str, Any]]:
        """Take a result automatically: 6 FP while some participant can, else eliminate (15.2)."""
        events: list[dict[str, Any]] = []
        for _ in range(points):
            alive = [data.units[x] for x in uids if data.units[x].loc is not None]
            if not alive:
                break
            can_fp = [u for u in alive if fat.takes_fatigue(self.tables, u) and not fat.at_limit(self.tables, u)]
            if can_fp:
                u = min(can_fp, key=lambda u: (u.fatigue, u.id))
                ch = fat.add_fatigue(data, self.tables, u.id, "crt_point")
                events.append({"type": "fatigue", "unit": u.id, "fp": ch.applied, "cause": "crt_point", "rule": "15.2"})
                continue
            tanks = [u for u in alive if self.tables.types[u.type].is_tank]  # 16.2: tanks first
            victim = sorted(tanks or alive, key=lambda u: u.id)[0]
            data.remove(victim.id, "eliminated")
            data.add_vp(scorer, VP_ELIMINATED, f"{victim.id} eliminated", "29.0")
            events.append({"type": "eliminated", "unit": victim.id, "rule": "15.2"})
        return events

