"""The Initial Phase (6.1): weather (7.0), winter fatigue (10.1), Allied arrivals at Harstad
(28.0, 23.1, 31.0), flipping fired units, and the designation of Bases (19.4)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.dice import Dice
from hexwar.core.orders import IllegalOrder, Order, Pass
import hexwar.games.narvik.events as E
from hexwar.games.narvik.orders import DesignateBase, expect
from hexwar.games.narvik.state import ALLIES, GERMANS, HARSTAD, Ask, NarvikData
from hexwar.rules import fatigue as fat
from hexwar.rules.stacking import ABOARD

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.games.narvik.context import NarvikRules

MAX_BASES = 2  # 19.4


def run(g: NarvikRules, d: NarvikData, dice: Dice, events: list[Any]) -> None:
    """Step 0: weather, fatigue, arrivals, flips; step 1: Bases; then the Random Events Phase."""
    if d.step == 0:
        d.bad = []
        if d.thaw_turn is not None and d.turn >= d.thaw_turn:
            d.weather = "good"
        if d.turn <= 7:  # 7.0: weather on turns 1-7
            r = dice.roll(2, "weather")
            res = g.weather_table.lookup(r.faces)
            events.append(E.Weather(type="weather", roll=list(r.faces), result=res, rule="7.0"))
            if res == "bad_both":
                d.bad = ["trondheim", "narvik"]
            elif res in ("bad_trondheim", "bad_narvik"):
                d.bad = [res.split("_")[1]]
            elif res == "thaw" and d.thaw_turn is None:
                d.thaw_turn = d.turn + 2  # A8
        # 6.1 (2), 10.1: automatic start-of-turn FP
        if d.weather == "winter":
            for u in sorted(d.on_map(), key=lambda u: u.id):
                if g.t(u).infantry and not u.has(ABOARD) and u.loc != HARSTAD and g.board.terrain(u.loc) in ("mountain", "glacier"):  # type: ignore[arg-type]  # a unit on the map
                    ch = fat.add_fatigue(d, g.tables, u.id, "turn_start_winter_mountain", rule="10.1")
                    if ch.applied:
                        events.append(E.Fatigue(type="fatigue", unit=u.id, fp=ch.applied, cause="turn start", rule="10.1"))
        # 6.1 (3): Allied reinforcements (28.0), returning redeployments (31.0), naval replacements (23.1)
        arrivals = [u.id for u in d.units.values() if u.pool == "reinforcements" and g.oob[u.id].turn == d.turn]
        arrivals += d.returning.pop(d.turn, [])
        arrivals += [u.id for u in d.units.values() if u.pool == "eliminated" and g.is_ship(u) and u.id not in d.ships_lost_for_good]
        for uid in sorted(set(arrivals)):
            u = d.units[uid]
            d.place(uid, HARSTAD)
            fat.set_fatigue(d, uid, 0, "arrives fresh", "28.0")
            u.concealed = g.switches.allied_concealment and g.is_land(u)  # 11.3
            events.append(E.Arrive(type="arrive", unit=uid, at=HARSTAD, rule="28.0, 23.1, 31.0"))
        # 6.1 (4): flip fired naval and artillery units
        for u in d.units.values():
            for f in ("fired", "no_move"):
                if f in u.flags:
                    u.flags.remove(f)
        d.step = 1
    if d.step == 1:
        # 6.1 (5), 19.4: Allied base designation
        if len(d.bases) + len(d.bases_lost) < MAX_BASES and d.base_occasions < MAX_BASES and base_candidates(g, d):
            d.step = 2
            g.ask(d, ALLIES, "base")
            return
        g.to_phase(d, "events")
    elif d.step == 2:  # returned from a base decision
        g.to_phase(d, "events")


def base_candidates(g: NarvikRules, d: NarvikData) -> list[str]:
    """19.4: ports held by an Allied land unit, without Germans, not already a Base."""
    out = []
    for loc in sorted(g.occupied(d, ALLIES)):
        if g.board.is_a(loc, "port") and loc not in d.bases and not g.land_units_at(d, loc, GERMANS, real=False):
            out.append(loc)
    return out


def base_orders(g: NarvikRules, d: NarvikData, ask: Ask) -> list[Order]:
    return [Pass(ask.side)] + [DesignateBase(ask.side, h) for h in base_candidates(g, d)]


def do_base(g: NarvikRules, d: NarvikData, order: Order, dice: Dice, events: list[Any]) -> None:
    """19.4: designate a Base (on one or two occasions), or pass."""
    if isinstance(order, DesignateBase):
        if order.hex not in base_candidates(g, d):
            raise IllegalOrder(f"{order.hex} is not a port held by an Allied land unit without Germans", "19.4")
        d.bases.append(order.hex)
        if d.base_turn != d.turn:  # 19.4: designations come on 1 or 2 occasions
            d.base_turn = d.turn
            d.base_occasions += 1
        events.append(E.Base(type="base", hex=order.hex, rule="19.4"))
        d.ask = None
        if len(d.bases) + len(d.bases_lost) < MAX_BASES and base_candidates(g, d):
            g.ask(d, ALLIES, "base")
        return
    expect(order, Pass, DesignateBase)
    d.ask = None
