"""A rule-based priority bot for the Europa "Narvik" variant.

It reads the state (never copies it), so it runs in batches. Its priorities:

- movement: each unit moves at most once, to the reachable hex that brings it nearest the
  side's objectives (the ports E2 counts, then the other key hexes E4 lets a side take), by
  steps over land; the last unit holding a port or a town of its side stays; it enters an
  enemy hex only where its own attack beats the defence there; regiments reassemble (E1);
  the Allies interdict the Axis port with German ships first (E1);
- air: missions where the side's ground strength meets the enemy's;
- combat: every attack whose exact odds favour it (and those E3 D makes compulsory);
- Norwegians evade (E1) an attack at 2:1 or worse; retreats go towards friendly key hexes;
  advances take key hexes.
"""

from __future__ import annotations

import random
from collections import deque
from fractions import Fraction
from functools import partial
from typing import Any, Sequence

from hexwar.core.orders import Move, Order, Pass, list_parts, orders_of_kind
from hexwar.rules.orders import Advance, Retreat
from hexwar.games.europa.orders import (
    Absorb,
    Assemble,
    Attack,
    Evade,
    Form,
    Interdict,
    Land,
    Mission,
    Truck,
)
from hexwar.games.europa.phases import combat
from hexwar.games.europa.state import GERMANS, Combat

GOOD = {"DE": 1.0, "DR": 0.6, "EX": 0.5, "DD": 0.4, "AD": -0.3, "AR": -0.5, "AE": -1.0}


# The bot's sort keys, at the module's top level with what they read given by functools.partial:
# a closure in a method of a class mypyc leaves to Python (native_class=False) fails its build.
def _defence_first(g: Any, u: Any) -> tuple[int, str]:
    return (-g.t(u).defence, u.id)


def _retreat_key(g: Any, own: list[str], o: Any) -> tuple[int, str]:
    """The retreat that ends nearest a key hex the side holds."""
    return (min((g.board.distance(o.path[-1], h) for h in own), default=0), o.path[-1])


def _advance_key(g: Any, d: Any, o: Any) -> tuple[int, str]:
    return (g.t(d.units[o.units[0]]).defence, o.units[0])


def _land_key(g: Any, want: str, o: Any) -> tuple[int, str]:
    return (g.board.distance(o.at, want) if want else 0, o.at)


def _store_key(g: Any, germans: list[str], o: Any) -> tuple[int, str]:
    return (min((g.board.distance(o.at, x) for x in germans), default=0), o.at)


MOVE, TRUCK = Move.kind, Truck.kind


class _Gains:
    """One decision's gains of moves (the priority bot's measure of a move or a truck move),
    with what the orders share worked out once: each unit's value where it stands and its
    attack, each destination's value and what stands there. A move gains the value of its
    end less that of its start (``PriorityBot.value``); a move into enemies that it and the
    friends there do not outnumber two to one in strength gains -1; a ground unit into a hex
    already full of ground units (E5 B: it would add nothing to the defence) 3 less."""

    def __init__(self, bot: Any, g: Any, d: Any, side: str, dist: dict[str, float], by_loc: dict[str, list[Any]]):
        self.bot, self.g, self.d, self.side, self.dist, self.by_loc = bot, g, d, side, dist, by_loc
        self.limit = g.rules.stack_ground.hexes
        self.start: dict[str, tuple[float, Fraction, bool]] = {}  # unit -> (value where it stands, attack, ground)
        #: hex -> (its value, the attack a mover must bring to outnumber the enemy there two to
        #: one beside the friends there (None: no enemy), whether its ground units are full)
        self.ends: dict[str, tuple[float, Fraction | None, bool]] = {}

    def gain(self, u: Any, to: str) -> float:
        """The gain of moving ``u`` to ``to``."""
        got = self.gain_over(u, to, 0.0, None)
        assert got is not None
        return got

    def gain_over(self, u: Any, to: str, bonus: float, over: float | None) -> float | None:
        """The gain of moving ``u`` to ``to``, or None when the gain plus ``bonus`` cannot be
        above ``over`` (at least -0.9): a gain is at most the values' difference (then
        rounded no higher with the bonus added), or -1."""
        g, d, side = self.g, self.d, self.side
        mine = self.start.get(u.id)
        if mine is None:
            mine = self.start[u.id] = (self.bot.value(g, d, side, u.loc, self.dist), g.attack(d, u), g.t(u).stacking == "ground")
        end = self.ends.get(to)
        if end is None:
            here = self.by_loc.get(to, [])
            enemy = [e for e in here if e.side != side]
            need = None
            if enemy:  # own + mine < 2 * dfn, as mine < 2 * dfn - own (exact: fractions)
                dfn = sum((g.defence(e) for e in enemy), Fraction(0))
                need = 2 * dfn - sum((g.attack(d, x) for x in here if x.side == side), Fraction(0))
            ground = sum(1 for x in here if x.side == side and g.t(x).stacking == "ground" and x.id not in d.absorbed)
            end = self.ends[to] = (self.bot.value(g, d, side, to, self.dist), need, ground >= self.limit)
        gain = end[0] - mine[0]
        if over is not None and gain + bonus <= over:
            return None
        if end[1] is not None and mine[1] < end[1]:
            return -1.0
        if mine[2] and end[2]:
            gain -= 3.0  # E5 B: an overstacked unit adds nothing to the defence
        return gain


class PriorityBot:
    """Rule-based priorities (see the module docstring); seeded only to break ties."""

    name = "priority"
    reads_by_kind = False  # it reads the whole list, never a menu by kind
    reads_menu = False
    thinks = False  # it answers at once: no progress to report
    progress = None

    def __init__(self, side: str, seed: int = 0):
        self.side = side
        self.rng = random.Random(seed)
        self._dist: dict[Any, dict[str, int]] = {}

    def __getstate__(self) -> dict[str, Any]:
        """A copy for a search helper (``hexwar.ai.helpers``): without the distance tables,
        which it rebuilds on use."""
        return {**self.__dict__, "_dist": {}}

    # --- objectives --------------------------------------------------------------------------

    def _walkable(self, g: Any) -> set[str]:
        return {x for x in g.norway if g.chart.terrain_class(g.board.terrain(x)) not in (None, "sea", "glacier", "lake")}

    def _steps(self, g: Any, targets: list[str]) -> dict[str, int]:
        """Steps over land from every hex to the nearest of ``targets`` (cached per target set)."""
        key = tuple(targets)
        hit = self._dist.get(key)
        if hit is None:
            land = self._walkable(g)
            dist: dict[str, int] = {t: 0 for t in targets}
            q = deque(targets)
            while q:
                x = q.popleft()
                for n in g.board.neighbours(x):
                    if n in land and n not in dist and not g.board.border(x, n).is_water:
                        dist[n] = dist[x] + 1
                        q.append(n)
            if len(self._dist) > 32:
                self._dist.clear()
            hit = self._dist[key] = dist
        return hit

    def distances(self, g: Any, d: Any, side: str) -> dict[str, float]:
        """How far each hex is from ``side``'s objectives: the nearest port of E2 the enemy owns,
        or the nearest other key hex it owns, counted 3 steps further (a port is worth a detour)."""
        ports = [h for h in g.victory_ports if d.owner.get(h) != side]
        return self._steps(g, ports or [h for h in g.key_hexes if d.owner.get(h) != side])  # type: ignore[return-value]

    def value(self, g: Any, d: Any, side: str, x: str, dist: dict[str, float] | None = None) -> float:
        v = -float((dist if dist is not None else self.distances(g, d, side)).get(x, 60))
        if x in g.key_hexes and d.owner.get(x) != side:
            v += 2.0
        return v

    # --- choosing ----------------------------------------------------------------------------

    def choose(self, state: Any, legal: Sequence[Order]) -> Order:
        g, d = state.game, state.data
        what = d.ask.what if d.ask is not None else ""
        pick = getattr(self, f"_{what}", None)
        choice = pick(g, d, legal) if pick is not None else None
        return choice if choice is not None else self._default(legal)

    def __call__(self, state: Any, legal: Sequence[Order]) -> Order:
        return self.choose(state, legal)

    def ranked(self, state: Any, legal: Sequence[Order]) -> list[Order]:
        """The legal orders best first, for the search bot's prior: this bot's own choice,
        then the rest by the measure its choice weighs them with (a move's or a truck's
        gain towards the objectives, an attack's expected result, a mission's support), the
        others after them in list order."""
        if len(legal) < 2:
            return list(legal)
        g, d = state.game, state.data
        first = self.choose(state, legal)
        side = d.ask.side if d.ask is not None else self.side
        gains: dict[int, float] = {}
        if any(isinstance(o, (Move, Truck)) for o in legal):
            by_loc = self._ground_by_loc(g, d)
            held = self._garrisons(g, d, side, by_loc)
            memo = _Gains(self, g, d, side, self.distances(g, d, side), by_loc)
            for i, o in enumerate(legal):
                if isinstance(o, (Move, Truck)):
                    u = d.units[o.unit]
                    gains[i] = -5.0 if u.id in held else memo.gain(u, o.path[-1])
        supplied = g.attack_supplied(d, side) if any(isinstance(o, Attack) for o in legal) else None
        for i, o in enumerate(legal):
            if isinstance(o, Attack):
                score = self._attack_score(g, d, o, supplied)
                if score is not None:
                    gains[i] = score
            elif isinstance(o, Mission):
                gains[i] = float(self._support(g, d, side, o)) * 0.1
        # sorted by keys made first: a closure in a method of a class mypyc leaves to Python
        # (native_class=False) fails its build; the same order
        keyed = sorted([(legal[i] is not first, -gains.get(i, 0.0), i) for i in range(len(legal))])
        return [legal[i] for _, _, i in keyed]

    def _default(self, legal: Sequence[Order]) -> Order:
        for o in legal:
            if isinstance(o, Pass):
                return o
        return legal[0]

    def _move(self, g: Any, d: Any, legal: Sequence[Order]) -> Order | None:
        side = d.ask.side
        for o in orders_of_kind(legal, Assemble.kind):  # E1: reassemble first (fewer counters against the stacking limit)
            return o
        for o in orders_of_kind(legal, Interdict.kind):
            if any(g.t(u).kind == "ship" for u in d.at(o.port)):  # type: ignore[attr-defined]
                return o
        for o in orders_of_kind(legal, Interdict.kind):
            return o
        for o in orders_of_kind(legal, Absorb.kind):
            if g.stack_points(d, d.units[o.hq].loc, side)[0] > g.rules.stack_ground.hexes:  # type: ignore[attr-defined]
                return o
        best: Order | None = None
        by_loc = self._ground_by_loc(g, d)
        held = self._garrisons(g, d, side, by_loc)
        memo = _Gains(self, g, d, side, self.distances(g, d, side), by_loc)
        units = d.units
        bar = 0.5  # a move is played for a gain above 0.5, the first of the best
        # the list's parts in list order: a unit's moves, a cargo's truck moves (most of the
        # list) part by part; a part of mixed kinds order by order
        for kind, orders in list_parts(legal):
            if kind is not None and kind != MOVE and kind != TRUCK:
                continue
            for o in orders:
                bonus = 0.0
                if kind is None:
                    if isinstance(o, Truck):
                        bonus = 0.1
                    elif not isinstance(o, Move):
                        continue
                elif kind == TRUCK:
                    bonus = 0.1
                unit = o.unit  # type: ignore[attr-defined]
                if unit in held:
                    continue
                gain = memo.gain_over(units[unit], o.path[-1], bonus, bar)  # type: ignore[attr-defined]
                if gain is not None and gain + bonus > bar:
                    best, bar = o, gain + bonus
        return best

    def _exploit(self, g: Any, d: Any, legal: Sequence[Order]) -> Order | None:
        """An exploitation move (E3 E) is weighed as a move."""
        return self._move(g, d, legal)

    @staticmethod
    def _ground_by_loc(g: Any, d: Any) -> dict[str, list[Any]]:
        """The ground units on the map by hex."""
        by_loc: dict[str, list[Any]] = {}
        for u in d.on_map():
            if u.loc is not None and g.ground(u):
                by_loc.setdefault(u.loc, []).append(u)
        return by_loc

    def _garrisons(self, g: Any, d: Any, side: str, by_loc: dict[str, list[Any]]) -> set[str]:
        """The strongest ground units on each key hex ``side`` owns stay put: on the ports that
        decide the game (E2) two, three with the enemy within 3 hexes; one elsewhere."""
        out: set[str] = set()
        ports = set(g.victory_ports)
        enemy = [loc for loc, us in by_loc.items() if any(u.side != side for u in us)]
        for h in g.key_hexes:
            if d.owner.get(h) != side:
                continue
            us = sorted((u for u in by_loc.get(h, []) if u.side == side and g.t(u).kind not in ("truck", "hq")),
                        key=partial(_defence_first, g))
            keep = 1
            if h in ports:
                keep = 3 if any(g.board.distance(h, e) <= 3 for e in enemy) else 2
            out.update(u.id for u in us[:keep])
        return out

    def _air(self, g: Any, d: Any, legal: Sequence[Order]) -> Order | None:
        side = d.ask.side
        best: tuple[Fraction, Order] | None = None
        for o in legal:
            if not isinstance(o, Mission):
                continue
            w = self._support(g, d, side, o)
            if best is None or w > best[0]:
                best = (w, o)
        return best[1] if best else None

    def _combat(self, g: Any, d: Any, legal: Sequence[Order]) -> Order | None:
        best: tuple[float, Order] | None = None
        forced = not any(isinstance(o, Pass) for o in legal)
        supplied = g.attack_supplied(d, d.ask.side)
        for o in legal:
            if not isinstance(o, Attack):
                continue
            score = self._attack_score(g, d, o, supplied)
            if score is None:
                continue
            if best is None or score > best[0]:
                best = (score, o)
        if best is not None and (best[0] > 0.05 or forced):
            return best[1]
        return None

    @staticmethod
    def _attack_score(g: Any, d: Any, o: Attack, supplied: Any) -> float | None:
        """An attack's expected result by its exact odds (``GOOD``), a key hex a tenth more;
        None: no attack the rules allow now."""
        try:
            ex = combat.explain(g, d, o, supplied)
        except ValueError:
            return None
        score: float = sum(float(p) * GOOD.get(r, 0.0) for r, p in ex["odds"])
        return score + 0.1 if o.target in g.key_hexes else score

    @staticmethod
    def _support(g: Any, d: Any, side: str, o: Mission) -> Fraction:
        """What an air mission supports: the side's ground attack strength at and around its target."""
        near = [o.target, *g.board.neighbours(o.target)]
        return sum((g.attack(d, u) for n in near for u in g.ground_at(d, n, side)), Fraction(0))

    def _evade(self, g: Any, d: Any, legal: Sequence[Order]) -> Order | None:
        c: Combat = d.combat
        att, dfn, _, _ = combat.strengths(g, d, c)
        go = att >= 2 * max(dfn, Fraction(1, 2))
        return next(o for o in legal if isinstance(o, Evade) and o.go == go)

    def _retreat(self, g: Any, d: Any, legal: Sequence[Order]) -> Order | None:
        side = d.ask.side
        own = [h for h in g.key_hexes if d.owner.get(h) == side]
        options = [o for o in legal if isinstance(o, Retreat)]
        return min(options, key=partial(_retreat_key, g, own)) if options else None

    def _advance(self, g: Any, d: Any, legal: Sequence[Order]) -> Order | None:
        target = d.ask.hex
        if target in g.key_hexes and not g.ground_at(d, target, d.ask.side):
            adv = [o for o in legal if isinstance(o, Advance)]
            if adv:
                return max(adv, key=partial(_advance_key, g, d))
        return None

    def _land(self, g: Any, d: Any, legal: Sequence[Order]) -> Order | None:
        want = g.arrive_at.get(d.ask.unit, "")
        options = [o for o in legal if isinstance(o, Land)]
        if not options:
            return None
        return min(options, key=partial(_land_key, g, want))

    def _store(self, g: Any, d: Any, legal: Sequence[Order]) -> Order | None:
        germans = [u.loc for u in d.on_map(GERMANS) if u.loc and g.ground(u)]
        options = [o for o in legal if isinstance(o, Form)]
        return max(options, key=partial(_store_key, g, germans))
