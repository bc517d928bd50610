"""The movement phase (4.1): battalions move one area, or further by card (Rask forflytning,
Jernbane), by air (Transportfly), from the air (Fallskjermtropp, Ex 3) or from the sea
(Ex 2); into an enemy area a move is an attack. In the German round Norway may then
sabotage an attack or escape from it (4.1 1c); a Jagerfly may divert paratroopers (Ex 4)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import hexwar.games.kampen.events as E
import hexwar.games.kampen.phases.sea as sea
import hexwar.games.kampen.ships as S
import hexwar.games.kampen.steps as steps_
from hexwar.core.dice import Dice
from hexwar.core.orders import Order, Pass
from hexwar.games.kampen.orders import KMove, PlayCard
from hexwar.games.kampen.phases import cards
from hexwar.games.kampen.state import (
    GERMANS,
    NORWAY,
    AttackGroup,
    KampenData,
    Paradrop,
    Sabotage,
    enemies,
)

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.games.kampen.context import KampenRules


def begin(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    """A faction's movement phase: sea movement first in the advanced game (8.1 1a), then land."""
    if g.fleet and sea.can_sail(g, d, d.faction):
        g.ask(d, "seamove", d.faction)
        return
    land_movement(g, d, dice, events)


def land_movement(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    """1b: battalions move (the faction may have nothing but ``pass``)."""
    g.ask(d, "move", d.faction)


# --- legal orders -----------------------------------------------------------------------------


def legal_move(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    out: list[Order] = [g.passes[f]]
    if d.stage:  # 7.1: no normal movement on 9 April; only Fallskjermtropp
        return out + [o for o in card_moves(g, d, f) if isinstance(o, PlayCard) and g.copies[o.copy].use("move").paradrop]  # type: ignore[union-attr]
    fresh = d.fresh[f]
    blocks = g.caches.move_blocks
    if g.step > 1:  # on hexes an area step is g.step hexes (issue 72): by paths, as the enemy stands
        foes = g.hostile_areas(d, f)
        for a, n in sorted(d.bn[f].items()):
            m = n - fresh.get(a, 0)
            for path in steps_.paths(g, d, f, a, g.step, attack=True, foes=foes) if m > 0 else ():
                out += [g.kmove(f, a, path[-1], k, path[:-1]) for k in range(1, m + 1)]
        if d.hand[f]:
            out += card_moves(g, d, f)
        return out
    for a, n in sorted(d.bn[f].items()):
        m = n - fresh.get(a, 0)
        if m <= 0:
            continue
        block = blocks.get((f, a, m))
        if block is None:  # orders are immutable: build each once per game object
            block = blocks[(f, a, m)] = tuple(g.kmove(f, a, b, k) for b in g.nbrs[a] for k in range(1, m + 1))
        out += block
    if d.hand[f]:
        out += card_moves(g, d, f)
    return out


def card_moves(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    out: list[Order] = []
    seen: set[str] = set()
    for c, u in g.hand_uses(d, f, "move"):
        if c.card in seen:
            continue  # identical copies give identical orders
        seen.add(c.card)
        if u.rapid or u.rail:
            n_max, steps = (u.rapid or u.rail)  # type: ignore[misc]
            foes = g.hostile_areas(d, f)
            for a in sorted(d.bn[f]):
                m = g.movable(d, f, a)
                if m <= 0:
                    continue
                ways = (paths(g, d, f, a, steps, attack=bool(u.rapid), foes=foes) if g.step == 1 else
                        # on hexes: beyond an ordinary move, as 2 areas are beyond 1 (issue 72)
                        steps_.paths(g, d, f, a, steps * g.step, bool(u.rapid), g.step + 1, foes))
                for path in ways:
                    for k in range(1, min(m, n_max) + 1):
                        out.append(g.play(f, c, "move", src=a, path=path, n=k))
        elif u.paradrop:
            for a in sorted(g.air_range(d)):
                out.append(g.play(f, c, "move", target=a, n=u.paradrop))
        elif u.airlift:
            held = [a for a in g.airfields if d.bn[f].get(a, 0) and not g.hostile(d, f, a)]
            for a in held:
                m = g.movable(d, f, a)
                for b in held:
                    if b != a and m > 0:
                        for k in range(1, min(m, u.airlift) + 1):
                            out.append(g.play(f, c, "move", src=a, target=b, n=k))
        elif u.invasion:
            if g.fleet and not any(S.allied_support(g, d, a, u.ships_needed) for a in g.land if g.allied_coast[a]):
                continue  # 5.2: no Allied ship off any coast it could land on
            others = [o for o in d.hand[f] if o != c.id]
            sym = sum(g.copies[o].symbols for o in others)
            if sym >= 3:
                cash = tuple(sorted(others, key=lambda o: -g.copies[o].symbols))
                # cash the fewest cards that buy the most battalions
                best: list[int] = []
                tot = 0
                for o in cash:
                    if tot // 3 == sym // 3:
                        break
                    best.append(o)
                    tot += g.copies[o].symbols
                for a in g.land:
                    if g.allied_coast[a] and allied_landing_ok(g, d, a) and S.allied_support(g, d, a, u.ships_needed):
                        out.append(g.play(f, c, "move", target=a, cash=tuple(sorted(best))))
    return out


#: card moves' paths kept at most (each is kept for the enemy-held areas within its reach;
#: a long batch of the basic game keeps meeting new sets: 14,900 after 1,600 games)
PATHS_KEPT = 20_000


def paths(g: "KampenRules", d: KampenData, f: str, a: str, steps: int, attack: bool,
          foes: frozenset[str] | None = None) -> list[tuple[str, ...]]:
    """Paths of 2..steps areas through friendly or empty areas; the last may be hostile
    when the card may attack (Rask forflytning, Ex 3), never for rail. They depend only on
    the areas ``f``'s enemies hold within ``steps`` of ``a`` (``foes``: all they hold,
    :meth:`KampenRules.hostile_areas`): kept per game object for each such set met."""
    if foes is None:
        foes = g.hostile_areas(d, f)
    near = foes & g.within(a, steps)  # only the enemy within reach of the paths matters
    key = (a, steps, attack, near)
    kept = g.caches.paths.get(key)
    if kept is None:
        if len(g.caches.paths) >= PATHS_KEPT:
            g.caches.paths.clear()
        kept = g.caches.paths[key] = _paths(g, near, a, steps, attack)
    return kept


def _paths(g: "KampenRules", foes: frozenset[str], a: str, steps: int, attack: bool) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    frontier: list[tuple[str, ...]] = [(a,)]
    for depth in range(steps):
        nxt = []
        for p in frontier:
            for b in g.nbrs[p[-1]]:
                if b in p:
                    continue
                q = p + (b,)
                if b in foes:
                    if attack and depth >= 1:
                        out.append(q[1:])
                    continue
                if depth >= 1:
                    out.append(q[1:])
                nxt.append(q)
        frontier = nxt
    return sorted(set(out))


def legal_sabotage(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    out: list[Order] = [g.passes[f]]
    for c, u in g.hand_uses(d, f, "sabotage"):
        for tgt, groups in sorted(d.attacks.items()):
            for grp in groups:
                if not grp.src or (u.land_only and grp.crossing):
                    continue
                out.append(g.play(f, c, "sabotage", target=tgt, src=grp.src))
    for c, _u in g.hand_uses(d, f, "escape"):
        for tgt in sorted(d.attacks):
            if d.bn[NORWAY].get(tgt, 0):
                for b in steps_.around(g, d, NORWAY, tgt):
                    # not into an area the Germans attack or attacked from (their
                    # repulsed battalions go back there), as for a withdrawal (4.2 step 8)
                    if not g.hostile(d, NORWAY, b) and b not in d.attacks and b not in d.attacked_from:
                        out.append(g.play(f, c, "escape", src=tgt, target=b))
    return list(dict.fromkeys(out))


def allied_landing_ok(g: "KampenRules", d: KampenData, a: str) -> bool:
    """8.3: no Allied landing on a coast of a sea area German ships control."""
    if not g.fleet:
        return True
    from hexwar.games.kampen.ships import controls

    return not any(controls(d, s) == "germans" for s in g.coasts[a])


def legal_divert(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    out: list[Order] = [g.passes[f]]
    assert d.paradrop is not None
    for c, u in g.hand_uses(d, f, "divert"):
        if not S.allied_support(g, d, d.paradrop.target, u.ships_needed):
            continue  # 5.2: the Allied Jagerfly needs a carrier off the area or an airfield in range
        for b in steps_.around(g, d, f, d.paradrop.target):
            out.append(g.play(f, c, "divert", target=b))
        break
    return out


def legal_counter(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    assert d.sabotage is not None
    sab = g.copies[d.sabotage.copy]
    out: list[Order] = [g.passes[f]]
    for c, u in g.hand_uses(d, f, "counter"):
        if sab.type in u.cancels:
            out.append(g.play(f, c, "counter"))
            break
    return out


# --- handlers -----------------------------------------------------------------------------------


def do_move(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    f = d.faction
    if isinstance(o, Pass):
        events.append(E.PhaseEnd(type="phase_end", faction=f, phase="movement", rule="4.1"))
        after_movement(g, d, dice, events)
        return
    if isinstance(o, KMove):
        move(g, d, f, o.src, o.dst, o.n, events, "4.1", via=o.via)
        return
    assert isinstance(o, PlayCard)
    cp = g.copies[o.copy]
    u = cp.use("move")
    assert u is not None
    cards.use_card(g, d, f, o.copy, events)
    if u.rapid or u.rail:
        move(g, d, f, o.src, o.path[-1], o.n, events, "4.1 " + cp.card, via=o.path[:-1])
    elif u.paradrop:  # Ex 3: a new battalion anywhere within air range
        d.paradrop = Paradrop(o.target, u.paradrop, cp.card)
        for e in enemies(f):  # 4.1: a red-square Jagerfly may divert the landing (Ex 4)
            if len(legal_divert(g, d, e)) > 1:
                g.ask(d, "divert", e)
                return
        land_paratroops(g, d, o.target, events)
    elif u.airlift:
        move(g, d, f, o.src, o.target, o.n, events, "2.3 " + cp.card, air=True)
    elif u.invasion:  # Ex 2: cash cards now, land from the sea (attacking if hostile)
        sym = 0
        for k in o.cash:
            sym += g.copies[k].symbols
            cards.use_card(g, d, f, k, events, "cashed")
        n = sym // 3
        if n:
            arrive(g, d, f, o.target, n, events, "Ex 2 " + cp.card)


def do_divert(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    assert d.paradrop is not None
    where = d.paradrop.target
    if isinstance(o, PlayCard):
        cards.use_card(g, d, d.side, o.copy, events)
        events.append(E.Diverted({"type": "diverted", "by": o.card, "from": where, "to": o.target, "rule": "4.1, Ex 4"}))
        where = o.target
    land_paratroops(g, d, where, events)
    land_movement(g, d, dice, events)


def land_paratroops(g: "KampenRules", d: KampenData, where: str, events: list[Any]) -> None:
    p = d.paradrop
    assert p is not None
    d.paradrop = None
    arrive(g, d, d.faction, where, p.n, events, "Ex 3 " + p.card)


def move(g: "KampenRules", d: KampenData, f: str, a: str, b: str, n: int, events: list[Any], rule: str,
         via: tuple[str, ...] = (), air: bool = False) -> None:
    """Move ``n`` battalions from ``a`` to ``b`` (through ``via``); into enemies it is an attack."""
    d.add(f, a, -n)
    last = via[-1] if via else a
    if g.hostile(d, f, b):
        crossing = (last, b) in g.water and not air
        d.attacks.setdefault(b, []).append(AttackGroup(a if not via else last, n, crossing, False, a))
        if last not in d.attacked_from:
            d.attacked_from.append(last)
        events.append(E.Attack({"type": "attack", "faction": f, "from": a, "via": list(via), "to": b, "n": n,
                                "fjord": crossing, "rule": rule}))
    else:
        d.add(f, b, n)
        d.fresh[f][b] = d.fresh[f].get(b, 0) + n
        events.append(E.Move({"type": "move", "faction": f, "from": a, "via": list(via), "to": b, "n": n, "rule": rule}))


def arrive(g: "KampenRules", d: KampenData, f: str, a: str, n: int, events: list[Any], rule: str) -> None:
    """Battalions arriving by sea or air: they attack if the area is hostile and, losing,
    withdraw like defenders (4.2 step 8); they are never halved (digest ambiguity 5)."""
    if g.hostile(d, f, a):
        d.attacks.setdefault(a, []).append(AttackGroup("", n, False, True, ""))
        events.append(E.Attack({"type": "attack", "faction": f, "from": "sea/air", "to": a, "n": n, "fjord": False, "rule": rule}))
    else:
        d.add(f, a, n)
        d.fresh[f][a] = d.fresh[f].get(a, 0) + n
        events.append(E.Arrive(type="arrive", faction=f, to=a, n=n, rule=rule))


def after_movement(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    if d.faction == GERMANS and d.attacks and legal_sabotage(g, d, NORWAY)[1:]:
        g.ask(d, "sabotage", NORWAY)  # 4.1 1c
        return
    g.combat_start(d, dice, events)


# --- 1c: sabotage and escape ------------------------------------------------------------------


def do_sabotage(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    if isinstance(o, Pass):
        g.combat_start(d, dice, events)
        return
    assert isinstance(o, PlayCard)
    cards.use_card(g, d, NORWAY, o.copy, events)
    if o.slot == "escape":  # 4.1 1c: flee out of an area under attack
        n = d.bn[NORWAY].get(o.src, 0)
        d.add(NORWAY, o.src, -n)
        d.add(NORWAY, o.target, n)
        events.append(E.Escape({"type": "escape", "faction": NORWAY, "from": o.src, "to": o.target, "n": n, "rule": "4.1 1c"}))
        drop_empty_attacks(g, d, events)
        next_sabotage(g, d, dice, events)
        return
    d.sabotage = Sabotage(o.copy, o.target, o.src)
    if len(legal_counter(g, d, GERMANS)) > 1:
        g.ask(d, "counter", GERMANS)
        return
    resolve_sabotage(g, d, dice, events, cancelled=False)


def do_counter(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    if isinstance(o, PlayCard):
        cards.use_card(g, d, GERMANS, o.copy, events)
    resolve_sabotage(g, d, dice, events, cancelled=isinstance(o, PlayCard))


def resolve_sabotage(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any], cancelled: bool) -> None:
    s = d.sabotage
    assert s is not None
    d.sabotage = None
    card = g.copies[s.copy].card
    if cancelled:
        events.append(E.SabotageCancelled(type="sabotage_cancelled", card=card, rule="4.1 1c"))
    else:  # Ex 1: the battalions from that area go back where they came from
        groups = d.attacks.get(s.target, [])
        back = [grp for grp in groups if grp.src == s.src]
        for grp in back:
            groups.remove(grp)
            d.add(GERMANS, grp.src, grp.n)
            events.append(E.SentBack({"type": "sent_back", "card": card, "from": grp.src, "to": grp.src, "n": grp.n,
                                      "target": s.target, "rule": "4.1 1c"}))
        if not groups:
            d.attacks.pop(s.target, None)
    next_sabotage(g, d, dice, events)


def next_sabotage(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    if d.attacks and len(legal_sabotage(g, d, NORWAY)) > 1:
        g.ask(d, "sabotage", NORWAY)
    else:
        g.combat_start(d, dice, events)


def drop_empty_attacks(g: "KampenRules", d: KampenData, events: list[Any]) -> None:
    """An attacked area left empty (by escape) is simply entered: no combat."""
    f = d.faction
    for a in list(d.attacks):
        if not g.hostile(d, f, a):
            for grp in d.attacks.pop(a):
                d.add(f, a, grp.n)
                d.fresh[f][a] = d.fresh[f].get(a, 0) + grp.n
            events.append(E.Entered(type="entered", faction=f, area=a, rule="4.1"))
