"""The Random Events Phase (6.2, 8.0): secret and open events, German reinforcements and
replacements (30.0, 23.4) with the railway check (19.1), and British redeployments (31.0)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.dice import Dice
from hexwar.core.orders import IllegalOrder, Order
from hexwar.core.state import Unit
import hexwar.games.narvik.events as E
from hexwar.games.narvik.orders import ChooseUnits, Place, expect
from hexwar.games.narvik.phases.supply import german_supply
from hexwar.games.narvik.state import (
    ALLIES,
    GERMANS,
    HARSTAD,
    REPLACEMENT,
    Ask,
    NarvikData,
    RedeployPick,
)
from hexwar.rules import fatigue as fat
from hexwar.rules import stacking
from hexwar.rules.stacking import ABOARD

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.games.narvik.context import NarvikRules

MAX_DUMMIES = 5  # 11.2


def run(g: NarvikRules, d: NarvikData, dice: Dice, events: list[Any]) -> None:
    """Step 0: roll the event (8.0); step 1: place German arrivals, pick redeployments."""
    if d.step == 0:
        d.fuhrer = False
        kind = g.event_type.lookup(dice.roll(1, "event type").faces)
        events.append(E.RandomEvent(type="event", kind=kind, rule="8.0"))
        if kind == "allied_secret":
            res = g.allied_secret.lookup(dice.roll(1, "allied secret event").faces)
            if res == "evacuation_next_turn" and d.game_end_turn is None:
                d.game_end_turn = d.turn + 1  # 8.1: the end of the next turn
                d.exits_banned = True  # 8.4
                d.end_secret = True
            events.append(E.Secret(type="secret", side=ALLIES, result=res, rule="8.1"))
        elif kind == "german_secret":
            res = g.german_secret.lookup(dice.roll(1, "german secret event").faces)
            d.fuhrer = res == "fuhrer_orders"
            events.append(E.Secret(type="secret", side=GERMANS, result=res, rule="8.2"))
        else:
            r = dice.roll(2, "open event")
            res = g.open_events.lookup(r.faces)
            events.append(E.OpenEvent(type="open_event", roll=list(r.faces), result=res, rule="8.3"))
            if res in ("german_reinforcements", "both"):
                german_reinforcements(g, d, dice, events)
            if res in ("allied_redeployment", "both"):
                redeployment(g, d, dice, events)
            if res.startswith("game_end") and d.game_end_turn is None:
                d.game_end_turn = d.turn  # 24.0
                d.exits_banned = True  # 8.4
        d.step = 1
    if d.step == 1:
        if d.arrivals:
            g.ask(d, GERMANS, "place", unit=d.arrivals[0])
            return
        if d.redeploy_pick is not None:
            pick = d.redeploy_pick
            g.ask(d, ALLIES, "redeploy", options=pick.options, count=pick.count)
            return
        g.to_phase(d, "air")


# German reinforcements and replacements (30.0, 23.4, 19.1) ---------------------------------


def german_reinforcements(g: NarvikRules, d: NarvikData, dice: Dice, events: list[Any]) -> None:
    res = g.german_reinf.lookup(dice.roll(1, "german reinforcements").faces)
    events.append(E.GermanReinforcements(type="german_reinforcements", result=res, rule="30.0"))
    arrivals: list[str] = []
    for _ in range(res.get("replacement", 0)):  # 23.4: rebuild one eliminated company, the German's pick
        if replaceable(g, d, arrivals):
            arrivals.append(REPLACEMENT)
        else:
            events.append(E.Lost(type="lost", what="replacement (no eliminated company)", rule="23.4"))
    for key, kind in (("infantry_coy", "infantry"), ("paratroop_coy", "paratroop")):
        for _ in range(res.get(key, 0)):
            pool = sorted(u.id for u in d.in_pool("german_reinforcements") if g.t(u).kind == kind and u.id not in arrivals)
            if pool:
                arrivals.append(pool[0])
            else:
                events.append(E.Lost(type="lost", what=f"{key} (counter mix exhausted)", rule="30.0"))
    if arrivals:
        hit, why = german_supply(g, d)
        if hit:
            r = dice.roll(1, "railway control")
            lost = r.faces[0] >= 5  # 19.1: 5-6 all lost
            events.append(E.Railway(type="railway", why=why, roll=r.faces[0], lost=lost, rule="19.1"))
            if lost:
                arrivals = []
    d.arrivals = arrivals


def replaceable(g: NarvikRules, d: NarvikData, taken: list[str]) -> list[str]:
    """23.4: eliminated German companies of any type (never the KM battalions, never interned)."""
    return sorted(u.id for u in d.in_pool("eliminated", GERMANS)
                  if g.t(u).size == "company" and not g.is_dummy(u) and u.id not in taken)


def place_orders(g: NarvikRules, d: NarvikData, ask: Ask) -> list[Order]:
    return _place_orders(g, d, ask.unit)


def _place_orders(g: NarvikRules, d: NarvikData, uid: str) -> list[Order]:
    """23.4: in a hex holding a real German unit, within stacking, face up or down, with a dummy."""
    if uid == REPLACEMENT:
        out_r: list[Order] = []
        for dead in replaceable(g, d, d.arrivals):
            out_r += _place_orders(g, d, dead)
        return out_r or [Place(GERMANS, REPLACEMENT, "", False)]
    hosts = sorted({u.loc for u in d.on_map(GERMANS) if not g.is_dummy(u) and u.loc})
    u = d.units[uid]
    out: list[Order] = []
    n_dummies = sum(1 for x in d.on_map(GERMANS) if g.is_dummy(x))
    for h in hosts:
        if not stacking.stack(g.board, d, g.tables, h, GERMANS, extra=[u]).ok:
            continue
        out.append(Place(GERMANS, uid, h, False))
        out.append(Place(GERMANS, uid, h, True))
        if n_dummies < MAX_DUMMIES:
            out.append(Place(GERMANS, uid, h, True, h))
    if not out:
        out.append(Place(GERMANS, uid, "", False))  # nowhere to go: the arrival is lost
    return out


def do_place(g: NarvikRules, d: NarvikData, order: Order, dice: Dice, events: list[Any]) -> None:
    expect(order, Place)
    assert isinstance(order, Place)
    assert d.ask is not None
    if order not in _place_orders(g, d, d.ask.unit):
        raise IllegalOrder(f"{order.unit} may be placed only in a hex holding a German unit, within stacking", "23.4")
    d.arrivals.pop(0)
    if order.hex and order.unit != REPLACEMENT:
        u = d.units[order.unit]
        was_dead = u.pool == "eliminated"
        d.place(order.unit, order.hex)
        fat.set_fatigue(d, u.id, 0, "placed fresh", "23.4, A42")
        u.concealed = order.concealed
        events.append(E.Place(type="place", unit=order.unit, hex=order.hex, concealed=order.concealed, rule="23.4"))
        if was_dead:  # 29.0: only units eliminated and NOT replaced score; the VP are public,
            # the counter placed face down is not (11.2): the cause then names no unit
            cause = "a German unit replaced, placed face down" if order.concealed else f"{order.unit} replaced"
            g.award(d, "german_replaced", cause, "29.0, 23.4", events)
        if order.dummy_hex:
            spare = sorted(x.id for x in d.units.values() if g.is_dummy(x) and x.pool is not None)
            if spare:
                d.place(spare[0], order.dummy_hex)
                d.units[spare[0]].concealed = True
                events.append(E.Dummy(type="dummy", hex=order.dummy_hex, rule="23.4, 11.2"))
    else:
        events.append(E.Lost(type="lost", what=order.unit, rule="23.4"))
    d.ask = None


# British redeployments (31.0) ------------------------------------------------------------------


def redeployment(g: NarvikRules, d: NarvikData, dice: Dice, events: list[Any]) -> None:
    face = dice.roll(1, "redeployment").faces[0]
    res = g.redeploy.lookup((face,))
    events.append(E.Redeployment(type="redeployment", roll=face, result=res, rule="31.0"))
    if res.get("once") and face in d.redeploy_used:
        events.append(E.NoEffect(type="no_effect", why="once-only redeployment already used", rule="31.0, A41"))
        return
    if res.get("once"):
        d.redeploy_used.append(face)
    gone: list[str] = []

    def available(u: Unit) -> bool:
        return u.pool is None and u.loc is not None  # deployed, not eliminated or exited (23.3)

    if "formation" in res:
        gone += [u.id for u in d.units.values() if u.formation == res["formation"] and available(u)]
    for kind_key, kind in (("artillery", "artillery"), ("tank", "tank")):
        n = res.get(kind_key, 0)
        opts = sorted(u.id for u in d.units.values() if u.side == ALLIES and u.nation != "norwegian"
                      and g.t(u).kind == kind and available(u))
        if n and opts:
            if len(opts) <= n:
                gone += opts
            else:
                old = d.redeploy_pick or RedeployPick((), 0)
                d.redeploy_pick = RedeployPick(old.options + tuple(opts), old.count + n)
    for ship_type, n in res.get("ships", {}).items():
        ships = sorted(u.id for u in d.units.values() if u.type == ship_type and available(u))
        take = ships if n == "all" else ships[: int(n)]
        gone += take
        if not res.get("returns"):
            d.ships_lost_for_good.extend(take)  # A40
    for uid in gone:
        redeploy_unit(g, d, uid, res.get("returns", False), events)


def redeploy_unit(g: NarvikRules, d: NarvikData, uid: str, returns: bool, events: list[Any]) -> None:
    cargo = d.cargo.pop(uid, None)
    if cargo:
        d.place(cargo, HARSTAD)
        d.units[cargo].flags.remove(ABOARD)
    for s, c in list(d.cargo.items()):
        if c == uid:
            del d.cargo[s]
    u = d.units[uid]
    if u.has(ABOARD):
        u.flags.remove(ABOARD)
    d.remove(uid, "redeployed")  # 23.3: not eliminated, no VP
    if returns:
        d.returning.setdefault(d.turn + 1, []).append(uid)
    events.append(E.Redeployed(type="redeployed", unit=uid, returns=returns, rule="23.3, 31.0"))


def redeploy_orders(g: NarvikRules, d: NarvikData, ask: Ask) -> list[Order]:
    """31.0 (A41): one of the options, or (choosing several) the first or the last ``count``."""
    opts, n = ask.options, ask.count
    if n == 1:
        return [ChooseUnits(ask.side, (o,)) for o in opts]
    return [ChooseUnits(ask.side, tuple(opts[:n])), ChooseUnits(ask.side, tuple(opts[-n:]))]


def do_redeploy(g: NarvikRules, d: NarvikData, order: Order, dice: Dice, events: list[Any]) -> None:
    expect(order, ChooseUnits)
    assert isinstance(order, ChooseUnits)
    pick = d.redeploy_pick
    assert pick is not None
    if len(order.units) != pick.count or any(u not in pick.options for u in order.units) or len(set(order.units)) != len(order.units):
        raise IllegalOrder(f"choose {pick.count} of {', '.join(pick.options)}", "31.0, A41")
    for uid in order.units:
        redeploy_unit(g, d, uid, False, events)
    d.redeploy_pick = None
    d.ask = None
