"""The Air Phase (6.3, 18.0): maximum air support (18.2), German air points (18.1), and the
German air missions flown as actions or reactions: interdiction (18.1.2), attacks on ships
(18.1.3) and, with the concealment switch, air recon (11.3)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.dice import Dice
from hexwar.core.orders import IllegalOrder, Order
import hexwar.games.narvik.events as E
from hexwar.games.narvik.orders import AirStrike, DeclareMas, expect
from hexwar.games.narvik.phases import common
from hexwar.games.narvik.state import ALLIES, GERMANS, HARSTAD, Ask, NarvikData
from hexwar.rules import fatigue as fat
from hexwar.rules.stacking import ABOARD

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.games.narvik.context import NarvikRules

MAX_AP = 30  # 18.1


def run(g: NarvikRules, d: NarvikData, dice: Dice, events: list[Any]) -> None:
    """Step 0: the Allies may declare MAS (once a game); step 1: roll the German AP."""
    if d.step == 0:
        d.mas = False
        d.step = 1
        if not d.mas_used:
            g.ask(d, ALLIES, "mas")
            return
    if d.step == 1:
        r = dice.roll(4, "air points")
        ap = r.total
        if "trondheim" in d.bad:
            ap //= 2  # 7.0, 18.1: halved, round down, before the bonus
        if d.turn >= 8:
            ap += 4  # 18.1, 28.0 (A27)
        d.tracks["ap"] = min(MAX_AP, ap)
        d.ap_bonus = False
        if g.switches.allied_concealment:  # 11.3 (A18): 1D6 caps the recon hexes this turn
            d.tracks["recon"] = 0 if "narvik" in d.bad else dice.roll(1, "recon").faces[0]
        events.append(E.AirPoints(type="air_points", roll=list(r.faces), ap=d.tracks["ap"], rule="18.1"))
        d.initiative = ALLIES  # 6.4: the Allies start with the initiative
        d.passes = 0
        g.to_phase(d, "action")


def mas_orders(g: NarvikRules, d: NarvikData, ask: Ask) -> list[Order]:
    return [DeclareMas(ask.side, False), DeclareMas(ask.side, True)]


def do_mas(g: NarvikRules, d: NarvikData, order: Order, dice: Dice, events: list[Any]) -> None:
    """18.2: maximum air support, once a game."""
    expect(order, DeclareMas)
    assert isinstance(order, DeclareMas)
    if order.declare:
        d.mas = True
        d.mas_used = True
        events.append(E.Mas(type="mas", rule="18.2"))
    d.ask = None


def targets(g: NarvikRules, d: NarvikData) -> list[tuple[str, str]]:
    """18.1.2, 18.1.3: hexes with Allied infantry on land, and hexes with Allied ships (never Harstad)."""
    out = []
    for loc in sorted({u.loc for u in d.on_map(ALLIES) if u.loc not in (None, HARSTAD)}):
        units = d.at(loc)
        if any(g.t(u).infantry and not u.has(ABOARD) and u.side == ALLIES for u in units):
            out.append(("infantry", loc))
        if any(g.is_ship(u) and u.side == ALLIES for u in units):
            out.append(("ships", loc))
    return out


def orders(g: NarvikRules, d: NarvikData) -> list[Order]:
    """The German air missions on offer: all AP or half on infantry; on ships all AP on one,
    two attacks on one, or the AP shared among every ship in the hex (18.1.3: any pattern;
    other splits are accepted when typed); recon (11.3)."""
    ap = d.tracks["ap"]
    if ap <= 0:
        return []
    out: list[Order] = []
    if d.tracks.get("recon", 0) > 0:  # 11.3: 1 AP a hex reveals everything in it
        hidden = sorted({u.loc for u in d.on_map(ALLIES) if u.concealed and u.loc not in (None, HARSTAD)})
        out += [AirStrike(GERMANS, "recon", h, 1) for h in hidden]
    for mission, loc in targets(g, d):
        if mission == "infantry":
            out += [AirStrike(GERMANS, "infantry", loc, a) for a in sorted({ap, max(1, ap // 2)})]
        else:
            ships = sorted(u.id for u in d.at(loc) if g.is_ship(u))
            out += [AirStrike(GERMANS, "ships", loc, ap, ((s, ap),)) for s in ships]
            if ap >= 2:
                out += [AirStrike(GERMANS, "ships", loc, ap, ((s, ap // 2), (s, ap - ap // 2))) for s in ships]
            if 2 <= len(ships) <= ap:
                share = [(s, ap // len(ships) + (1 if i < ap % len(ships) else 0)) for i, s in enumerate(ships)]
                out.append(AirStrike(GERMANS, "ships", loc, ap, tuple(share)))
    return out


def drm(g: NarvikRules, d: NarvikData, loc: str) -> int:
    """18.1: bad weather at Narvik, an Allied Base, maximum air support."""
    out = 0
    if "narvik" in d.bad:
        out += g.air.drms["bad_weather_narvik"][0]
    if loc in d.bases:
        out += g.air.drms["allied_base"][0]
    if d.mas:
        out += g.air.drms["mas"][0]
    return out


def strike(g: NarvikRules, d: NarvikData, order: AirStrike, dice: Dice, events: list[Any]) -> None:
    """Fly one German air mission (18.1.2, 18.1.3, 11.3)."""
    ap = d.tracks["ap"]
    if order.mission == "recon":
        if d.tracks.get("recon", 0) <= 0 or ap < 1 or order.hex == HARSTAD:
            raise IllegalOrder("no air recon left this turn (1D6 recon hexes, none in bad weather at Narvik)", "11.3")
        d.tracks["ap"] -= 1
        d.tracks["recon"] -= 1
        for u in d.at(order.hex):
            if u.side == ALLIES and u.concealed:
                u.concealed = False
        events.append(E.Recon(type="recon", hex=order.hex, rule="11.3"))
        return
    if (order.mission, order.hex) not in targets(g, d):
        raise IllegalOrder(f"no Allied {order.mission} target at {order.hex} (never Harstad)", "18.1.2, 18.1.3")
    if order.mission not in ("infantry", "ships"):
        raise IllegalOrder(f"unknown air mission {order.mission!r}", "18.1")
    if order.mission == "infantry":
        if not 1 <= order.ap <= ap:
            raise IllegalOrder(f"commit 1 to {ap} AP", "18.1")
        d.tracks["ap"] -= order.ap
        r = dice.roll(2, "air table")
        inf, _ = g.air.result(order.ap, r.total, drm(g, d, order.hex))
        events.append(E.AirInterdiction(type="air_interdiction", hex=order.hex, ap=order.ap, roll=list(r.faces), infantry=inf, rule="18.1.2"))
        for u in d.at(order.hex):
            if u.side == ALLIES and g.t(u).infantry and not u.has(ABOARD):
                ch = fat.add_fatigue(d, g.tables, u.id, "air_interdiction_per_point", times=inf)
                events.append(E.Fatigue(type="fatigue", unit=u.id, fp=ch.applied, cause="air interdiction", rule="18.1.2"))
        return
    total = sum(a for _, a in order.allocation)
    ships = {u.id for u in d.at(order.hex) if g.is_ship(u) and u.side == ALLIES}
    if not order.allocation or total > ap or order.ap != total or any(s not in ships or a < 1 for s, a in order.allocation):
        raise IllegalOrder(f"allocate 1 to {ap} AP among the ships at {order.hex} (ap = the sum of the attacks)", "18.1.3")
    d.tracks["ap"] -= total
    damaged: list[str] = []
    for sid, a in order.allocation:  # declared before any is resolved (18.1.3)
        s = d.units[sid]
        if s.pool is not None:
            continue
        r = dice.roll(2, "air table")
        _, nav = g.air.result(a, r.total, drm(g, d, order.hex))
        events.append(E.AirShipAttack(type="air_ship_attack", ship=sid, ap=a, roll=list(r.faces), naval=nav, rule="18.1.3"))
        if nav == 2 or (nav == 1 and "damaged" in s.flags):
            common.sink(g, d, s, events)
        elif nav == 1:
            s.flags.append("damaged")
            dmg = g.victory_points["ship_damaged"].points(g.t(s))
            d.ship_damage_vp[sid] = dmg
            g.score(d, GERMANS, dmg, f"{sid} damaged", "29.0", events)
            damaged.append(sid)
    for sid in damaged:  # 20.4: back to Harstad with its cargo, no more movement this turn
        s = d.units[sid]
        if s.pool is None:
            cargo = d.cargo.get(sid)
            events.append(E.ShipDamaged(type="ship_damaged", ship=sid, at=s.loc or HARSTAD, cargo=cargo or None, rule="20.4"))
            d.place(sid, HARSTAD)
            s.flags.append("no_move")
            if cargo:
                d.place(cargo, HARSTAD)
            for f in ("base", "crossing"):
                if f in s.flags:
                    s.flags.remove(f)
