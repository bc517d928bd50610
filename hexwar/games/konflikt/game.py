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

from typing import Any, Collection

from hexwar.core.dice import Dice
from hexwar.core.orders import Refusals
from hexwar.core.result import Result
from hexwar.core.events import strip_hidden
from hexwar.core.orders import IllegalOrder, Move, Order
from hexwar.rules.orders import Assault
from hexwar.core.state import Unit
from hexwar.games.konflikt import victory
import hexwar.games.konflikt.setup as setup
from hexwar.games.konflikt.events import EVENTS
from hexwar.games.konflikt.orders import ORDERS, Assign, Down, Enter, Leave, Mark, Pick
from hexwar.games.konflikt.state import (
    EXITED,
    FIRST_WAVE,
    FLANK,
    RESERVE,
    SIDES,
    UNSET,
    KonfliktData,
)
from hexwar.games.konflikt.table import EDGES
from hexwar.games.konflikt.context import KonfliktRules
from hexwar.rules import stacking
from hexwar.rules.movement import reach

class KonfliktGame(KonfliktRules):
    """One Konflikt '47 scenario template on one table: its rules (``KonfliktRules``) with the
    set-up, the order dice and the scoring."""

    name = "konflikt"
    orders = ORDERS
    events = EVENTS
    added_events = {"game_over": frozenset({"on_attrition"})}  # issue 55: the verdict, told since
    state_type = KonfliktData
    #: over: turns, scoring and victory (4.4); orders and activation (4.3)
    refusals = Refusals(over="4.4", foreign=ORDERS.rule, not_now="4.3")
    # --- the engine protocol ------------------------------------------------------------------

    def save_meta(self) -> dict[str, Any]:
        return {"game": self.name, "scenario": self.template, "board": self.table.name}

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

    def acting(self, d: KonfliktData, side: str) -> KonfliktData:
        """A copy of ``d`` with ``side``'s order die drawn (digest 4.3), the set-up done: what
        a unit of the side may be ordered to do now; the units that have had their order this
        turn keep it spent."""
        w = d.clone()
        w.todo, w.phase, w.over, w.ended = [], "orders", False, ""
        w.side = w.drawn = side
        return w

    def current_side(self, d: KonfliktData) -> str:
        return d.side

    def result(self, d: KonfliktData) -> Result:
        winner, level = victory.standing(self, d)
        vp = victory.points(self, d)
        return Result(d.over, winner if d.over else None, level if d.over else f"in progress ({level})", vp)

    def view(self, d: KonfliktData, sides: Collection[str]) -> KonfliktData:
        """3.1, 3.5: the other side's hidden units are not on the map for you, and its
        outflankers' directions are its secret until the first arrives."""

        v = d.shallow()
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

    def legal_orders(self, d: KonfliktData) -> list[Order]:
        if d.over:
            return []
        step = d.todo[0] if d.todo else "play"
        if step == "pick":
            opts = ("attacker", "defender") if self.spec_of(d).roles and not d.attacker else EDGES
            return [Pick(d.side, c) for c in opts]
        if step.startswith("mark"):
            return setup.legal_marks(self, d, step.split(":")[1])
        if step.startswith("assign"):
            return setup.legal_assign(self, d, d.side)
        return self.legal_play(d, d.side)

    def legal_play(self, d: KonfliktData, side: str) -> list[Order]:
        """The drawn die's side gives one of its units an order (digest 4.3)."""
        out: list[Order] = []
        sp = self.spec_of(d)
        # 3.1, 3.4: where a unit may stand, as ``stack_ok`` says, from one count of the side's
        # stacking points a listing (not one count of a location per destination)
        st = self.tables.stacking
        assert st is not None
        points = stacking.points_by_location(d, self.tables, side)
        free = stacking.unlimited(self.board, st.unlimited_places)
        enemy = {x.loc for x in d.on_map() if x.side != side}
        fights: list[tuple[str, list[str]]] | None = None
        for u in sorted(d.units.values(), key=lambda u: u.id):
            if u.side != side or u.id in d.acted or not self.has_die(d, u):
                continue
            if u.loc is not None:
                if self._may_act(d, u):
                    r = reach(self.board, self.tables.terrain, d.weather, self.tables.types[u.type].movement_class, u.loc,
                              self.query(d, u))
                    up = stacking.unit_points(self.tables, u, ashore=True)
                    for dest in r.destinations():
                        if dest not in enemy and (dest in free or points.get(dest, 0) + up <= st.limit):
                            out.append(Move(side, u.id, tuple(r.path(dest))))
                    if fights is None:  # the assaults open to the side, once a listing (15.1)
                        fights = [(target, [a for a in self._eligible_attackers(d, side, target) if a not in d.acted])
                                  for target in self.targets(d, side)]
                    for target, att in fights:
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

    # --- apply --------------------------------------------------------------------------------------

    def apply(self, d: KonfliktData, order: Order, dice: Dice) -> list[dict[str, Any]]:
        if d.over:
            raise IllegalOrder("the game is over", "1")
        if order.side != d.side:
            raise IllegalOrder(f"it is the {d.side}' order, not the {order.side}'", "4.3")
        if order not in self.legal_orders(d):
            u = d.units.get(getattr(order, "unit", ""))
            if isinstance(order, Move) and u is not None and u.side == order.side:
                if u.id in d.acted:
                    raise IllegalOrder(f"{u.id} has had its order this turn", "4.3")
                self._move(d.clone(), order)  # the move's own refusal (10.1, 14.1, 13.2), said as it is
            raise IllegalOrder(f"{order.text()} is not an order the {order.side} may give now", "4.3")
        return self._carry_out(d, order, dice)

    def apply_unchecked(self, d: KonfliktData, order: Order, dice: Dice, events: list[dict[str, Any]]) -> None:
        """An order a bot took from the list (``run_fast``): carried out without listing the
        orders again to check it."""
        events.extend(self._carry_out(d, order, dice))

    def _carry_out(self, d: KonfliktData, order: Order, dice: Dice) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        if isinstance(order, Pick):
            setup.do_pick(self, d, order, events)
        elif isinstance(order, Mark):
            setup.do_mark(self, d, order, events)
        elif isinstance(order, Assign):
            setup.do_assign(self, d, order, events)
        else:
            self.do_play(d, order, dice, events)
            return events
        self.advance(d, dice, events)
        return events

    def advance(self, d: KonfliktData, dice: Dice, events: list[dict[str, Any]]) -> None:
        """Run the set-up's steps until one needs a decision, then turn 1."""
        while d.todo:
            step = d.todo[0]
            if step == "pick":
                return
            if step.startswith("mark"):
                d.side = d.attacker and self.other(d.attacker) or d.chooser
                if step == "mark:base" and d.base_at:
                    d.side = self.other(next(iter(d.base_at)))
                if setup.legal_marks(self, d, step.split(":")[1]):
                    return
                d.todo.pop(0)  # nowhere left that qualifies
                continue
            if step.startswith("assign"):
                side = step.split(":")[1]
                if setup.unset(self, d, side):
                    d.side = side
                    return
                d.todo.pop(0)
                continue
            if step == "begin":
                d.todo.pop(0)
                setup.bombard(self, d, dice, events)
                self.start_turn(d, dice, events)
                return

    # --- turns --------------------------------------------------------------------------------------

    def start_turn(self, d: KonfliktData, dice: Dice, events: list[dict[str, Any]]) -> None:
        d.turn += 1
        d.phase = "orders"
        d.acted = []
        d.bag = sorted(u.side for u in d.units.values() if self.has_die(d, u))
        events.append({"type": "turn", "turn": d.turn, "dice": {s: d.bag.count(s) for s in SIDES}, "rule": "4.3"})
        self.draw(d, dice, events)

    def draw(self, d: KonfliktData, dice: Dice, events: list[dict[str, Any]]) -> None:
        """Draw the next order die from the bag (digest 4.3); an empty bag ends the turn."""
        while d.bag:
            side = d.bag[0] if len(set(d.bag)) == 1 else dice.choice(d.bag, "order die")
            d.bag.remove(side)
            if self.legal_play(d, side):
                d.side, d.drawn = side, side
                return
        self.end_turn(d, dice, events)

    def do_play(self, d: KonfliktData, o: Order, dice: Dice, events: list[dict[str, Any]]) -> None:
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
    def enter(self, d: KonfliktData, o: Enter, dice: Dice) -> list[dict[str, Any]]:
        """3.4, 3.5: the first wave comes on without a test; reserves and outflankers pass an
        order test (2D6 at most morale - 1) or stay off (Down)."""
        u = d.units[o.unit]
        events: list[dict[str, Any]] = []
        if u.pool != FIRST_WAVE:
            morale = self.order_test_needs(u)
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

    def after_order(self, d: KonfliktData, events: list[dict[str, Any]]) -> None:
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

    def end_turn(self, d: KonfliktData, dice: Dice, events: list[dict[str, Any]]) -> None:
        """End of a turn: objectives change hands (2.3), bases fall (2.6); after turn 6 a die
        for a 7th turn (1)."""
        sp = self.spec_of(d)
        radius = int(self.t.control["radius_inches"].value)
        for loc in sorted(d.objectives):
            holder = victory.controller(self, d, loc, radius)
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

    def finish(self, d: KonfliktData, events: list[dict[str, Any]]) -> None:
        for u in d.units.values():  # 3.4: who never arrived counts as destroyed
            if u.pool in (RESERVE, FIRST_WAVE, FLANK):
                d.remove(u.id, "removed")
                events.append({"type": "missing", "unit": u.id, "side": u.side, "rule": "3.4"})
        d.over = True
        d.vp = victory.points(self, d)
        winner, level = victory.standing(self, d)
        d.winner = winner
        scores = victory.attrition(self, d, winner)
        events.append({"type": "game_over", "why": d.ended, "winner": winner, "level": level,
                       "attrition": scores, "on_attrition": victory.outright(self, d, scores)[1],
                       "rule": self.spec_of(d).source})
