"""The reinforcement phase (4.3): cards cashed for their symbols, 3 symbols a battalion, the
free German battalion (by air with Transportfly), the Ubåt that sinks one, placement by
faction; and the Allies' first landing of two groups of 3 (3.5)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import hexwar.games.kampen.events as E
import hexwar.games.kampen.ships as S
from hexwar.core.dice import Dice
from hexwar.core.orders import Order
from hexwar.games.kampen.orders import Cash, PlaceBn, PlayCard
from hexwar.games.kampen.phases import cards
from hexwar.games.kampen.state import (
    ALLIES,
    GERMANS,
    NORWAY,
    KampenData,
    Reinforcement,
    enemies,
)

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.games.kampen.context import KampenRules


def begin(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    f = d.faction
    d.rein = Reinforcement(free=1 if f == GERMANS else 0)
    if f == ALLIES and d.landing:  # 3.5: the 6 Allied battalions of the first phase 3
        d.rein.groups = (g.spec.allied_landing or {}).get("groups", 2)
        d.landing = 0
        g.ask(d, "place", ALLIES)
        return
    if not g.spec.reinforcements:
        cards.new_cards(g, d, dice, events)  # S1: no phase 3
        return
    g.ask(d, "reinforce", f)


def legal_reinforce(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    out: list[Order] = [g.passes[f]]
    seen = set()
    for cid in d.hand[f]:
        cp = g.copies[cid]
        if (cp.card, cp.symbols) in seen:
            continue
        seen.add((cp.card, cp.symbols))
        out.append(Cash(f, cid, cp.card))
    assert d.rein is not None
    if f == GERMANS and not d.rein.airlift:
        for cp, _u in g.hand_uses(d, f, "reinforce"):
            if any(d.bn[GERMANS].get(a, 0) for a in g.airfields):
                out.append(g.play(f, cp, "reinforce"))
            break
    return out


def do_reinforce(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    f = d.faction
    r = d.rein
    assert r is not None
    if isinstance(o, Cash):
        r.symbols += g.copies[o.copy].symbols
        cards.use_card(g, d, f, o.copy, events, "cashed")
        return
    if isinstance(o, PlayCard):
        cards.use_card(g, d, f, o.copy, events)
        r.airlift = True
        return
    bought = r.symbols // 3  # 4.3: 3 symbols buy 1 battalion, leftovers are lost
    r.n = bought + r.free
    events.append(E.Reinforcements(type="reinforcements", faction=f, symbols=r.symbols, bought=bought, free=r.free, rule="4.3"))
    for opp in enemies(f):  # a red-square Ubåt of an enemy (the first that holds one)
        if bought and len(legal_submarine(g, d, opp)) > 1:
            g.ask(d, "submarine", opp)
            return
    placing(g, d, dice, events)


def legal_submarine(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    out: list[Order] = [g.passes[f]]
    for cp, _ in g.hand_uses(d, f, "submarine"):
        out.append(g.play(f, cp, "submarine"))
        break
    return out


def do_submarine(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    assert d.rein is not None
    if isinstance(o, PlayCard):
        cards.use_card(g, d, d.side, o.copy, events)
        d.rein.n -= 1
        events.append(E.SunkReinforcement(type="sunk_reinforcement", faction=d.faction, rule="4.3 (Ubåt, authored)"))
    placing(g, d, dice, events)


def placing(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    f = d.faction
    assert d.rein is not None
    if d.rein.n > 0 and placement_areas(g, d, f):
        g.ask(d, "place", f)
    else:
        cards.new_cards(g, d, dice, events)


def legal_place(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    assert d.rein is not None
    if d.rein.groups:
        return [PlaceBn(f, a, 3) for a in landing_areas(g, d)]
    return [PlaceBn(f, a, 1) for a in placement_areas(g, d, f)]


def placement_areas(g: "KampenRules", d: KampenData, f: str) -> list[str]:
    r = d.rein
    assert r is not None
    if f == NORWAY:  # 4.3: friendly mobilisation points and point cities, 1 each per round
        return [a for a in g.land if (a in g.mobilisation or a in g.point_cities)
                and not g.hostile(d, f, a) and a not in r.placed]
    if f == ALLIES:  # 4.3: coasts of III-VII, not I/II (8.3: nor of a sea German ships control)
        return [a for a in g.land if g.allied_coast[a] and not g.hostile(d, f, a)
                and (not g.fleet or not any(S.controls(d, s) == GERMANS for s in g.coasts[a]))]
    if g.fleet:
        ok, capped = german_seas(g, d)
        out = [a for a in g.land if not g.hostile(d, f, a) and (g.coasts[a] & ok or any(
               capped[s] > r.sea_used.get(s, 0) for s in g.coasts[a] if s in capped))]
    else:
        out = [a for a in g.land if g.german_coast[a] and not g.hostile(d, f, a)]
    if r.airlift and r.free:
        out += [a for a in g.airfields if d.bn[GERMANS].get(a, 0) and a not in out]
    return out


def german_seas(g: "KampenRules", d: KampenData) -> tuple[set[str], dict[str, int]]:
    """8.3: the sea areas German reinforcements land from: I and II; a sea with no Allied
    ships when every sea further south (VIII not counted) has none either; a sea German ships
    control, 1 battalion per German ship there when Allied ships are further south."""
    ok: set[str] = set(g.mined)
    capped: dict[str, int] = {}
    south_clear = True
    for s in g.seas:
        if s in g.open_sea:
            continue
        allied = S.allied_ships_in(d, s)
        if s not in g.mined and not allied:
            if south_clear:
                ok.add(s)
            elif S.controls(d, s) == GERMANS:
                capped[s] = len(S.real(g, S.at_sea(d, s, [GERMANS])))
        if allied:
            south_clear = False
    return ok, capped


def landing_areas(g: "KampenRules", d: KampenData) -> list[str]:
    """3.5: the Allies' first battalions: 2 groups of 3 on III-VII coasts, not adjacent."""
    r = d.rein
    assert r is not None
    return [a for a in g.land if g.allied_coast[a] and not g.hostile(d, ALLIES, a)
            and not any(p in g.within(a, g.step) for p in r.placed)]  # on hexes: an area step (issue 72)


def do_place(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    assert isinstance(o, PlaceBn)
    f = d.faction
    r = d.rein
    assert r is not None
    d.add(f, o.area, o.n)
    r.placed.append(o.area)
    events.append(E.Placed(type="placed", faction=f, area=o.area, n=o.n, rule="3.5" if r.groups else "4.3"))
    if r.groups:
        r.groups -= 1
        if r.groups and landing_areas(g, d):
            return
        r.groups = 0
        if g.spec.reinforcements:
            g.ask(d, "reinforce", f)
        else:
            cards.new_cards(g, d, dice, events)
        return
    r.n -= 1
    if f == GERMANS and g.fleet:  # 8.3: a battalion landed by a capped sea's ships counts against it
        ok, capped = german_seas(g, d)
        if not g.coasts[o.area] & ok:
            s = max((s for s in g.coasts[o.area] if s in capped), key=lambda s: capped[s] - r.sea_used.get(s, 0), default=None)
            if s is not None:
                r.sea_used[s] = r.sea_used.get(s, 0) + 1
    if f == GERMANS and r.free:
        r.free = 0
    if r.n > 0 and placement_areas(g, d, f):
        return
    cards.new_cards(g, d, dice, events)
