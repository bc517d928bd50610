"""Ships at sea (rules 8.1, 8.2; the 9 April round's 7.1 and 7.2a use the same steps).

Sea movement (1a): a ship or stack moves up to 2 sea areas (Eidsvoll & Norge 1), the Allies
never into I or II; entering an area with enemy ships, the mover and then the other side may
try to intercept, with all or none of their ships there: one die per enemy ship, each success
turns one enemy ship, drawn at random, face up to fight (a dummy is removed). Sea combat (2a):
intercepted ships fight, the interceptor with all its ships there; cards as in land combat
(one of each type); the attacker's ships fire best first, then the defender's (a hit ship
still fires back); a sunk ship costs its owner cards from the top of its deck; a chased ship
goes to an adjacent area the opponent chooses; the survivors turn face down.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.dice import Dice
from hexwar.core.orders import Order, Pass
import hexwar.games.kampen.events as E
from hexwar.games.kampen import ships as S
from hexwar.games.kampen.orders import (
    AddShip,
    Chase,
    Fight,
    Intercept,
    PlaceShip,
    PlayCard,
    RecallRaiders,
    Sail,
)
from hexwar.games.kampen.phases import cards
from hexwar.games.kampen.state import (
    ALLIES,
    COALITION,
    GERMANS,
    NORWAY,
    RAID,
    REMOVED,
    RESERVE,
    SUNK,
    CardPlay,
    KampenData,
    SeaCombat,
    SeaMove,
    Ship,
)

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.games.kampen.context import KampenRules


def other(f: str) -> tuple[str, ...]:
    """The factions of the other side at sea."""
    return COALITION if f == GERMANS else (GERMANS,)


def names(g: "KampenRules", ids: list[int]) -> list[str]:
    return [g.fleet[i].name for i in ids]


def lose_cards(g: "KampenRules", d: KampenData, f: str, n: int, dice: Dice, events: list[Any], why: str, rule: str) -> None:
    """6.1, 7.2, 5.1: ``n`` cards from the top of ``f``'s deck to the bottom, face up (an
    exhausted deck then does what 2.4 says)."""
    k = min(n, max(d.down[f], 0))
    if n <= 0 or f == NORWAY:
        return
    lost = d.deck[f][:k]
    events.append(E.CardsLost(type="cards_lost", faction=f, n=k, cards=[g.copies[c].card for c in lost], why=why, rule=rule))
    for _ in range(k):
        d.deck[f].append(d.deck[f].pop(0))
        d.down[f] -= 1
    if k and d.down[f] == 0:
        cards.exhausted(g, d, f, dice, events)


def sink(g: "KampenRules", d: KampenData, s: Ship, dice: Dice, events: list[Any], why: str, rule: str) -> None:
    """A ship goes down: out of play, and its owner loses the cards its class costs (8.2 step 6)."""
    c = g.fleet[s.id]
    s.at, s.caught, s.landing, s.up = SUNK, False, "", True
    events.append(E.ShipSunk(type="ship_sunk", faction=s.owner, ship=c.name, cls=c.type, why=why, rule=rule))
    if c.cls is not None and c.cls.cards_lost:
        lose_cards(g, d, s.owner, c.cls.cards_lost, dice, events, f"{c.name} sunk", "8.2 step 6")


# --- 1a: sea movement ---------------------------------------------------------------------------


def movable(g: "KampenRules", d: KampenData, f: str) -> list[Ship]:
    out = []
    for s in d.ships:
        if s.owner != f or s.moved or s.tried or s.caught:
            continue
        if s.at in g.sea_nbrs or (s.at == RAID and d.raid_open):
            out.append(s)
    return out


def legal_sail(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    """8.1: each ship, or a whole stack, up to its moves; the Home Fleet's placement (7.4);
    the raiders' recall for 6 symbols (7.2)."""
    out: list[Order] = [g.passes[f]]
    by_area: dict[str, list[Ship]] = {}
    for s in movable(g, d, f):
        by_area.setdefault(s.at, []).append(s)
    for area, group in sorted(by_area.items()):
        for s in group:
            c = g.fleet[s.id]
            steps = c.cls.moves if c.cls else 2
            for path in S.sea_paths(g, d, s, steps):
                out.append(Sail(f, (s.id,), c.name, path))
        if len(group) > 1:
            steps = min((g.fleet[s.id].cls.moves if g.fleet[s.id].cls else 2) for s in group)  # type: ignore[union-attr]
            for path in S.sea_paths(g, d, group[0], steps):
                out.append(Sail(f, tuple(s.id for s in group), f"all at {area}", path))
    if f == ALLIES and not d.stage:  # 7.4: the Home Fleet comes into III-VIII
        for s in d.ships:
            if s.owner == ALLIES and s.at == RESERVE:
                for sea in g.seas:
                    if sea not in g.mined:
                        out.append(PlaceShip(f, s.id, g.fleet[s.id].name, sea))
    if f == GERMANS and not d.raid_open and any(s.owner == GERMANS and s.at == RAID for s in d.ships):
        cash = cheapest_cash(g, d, f, g.advanced.recall_symbols)
        if cash:
            out.append(RecallRaiders(f, cash))
    return out


def cheapest_cash(g: "KampenRules", d: KampenData, f: str, need: int) -> tuple[int, ...]:
    """The fewest cards in hand (the most symbols first) that add up to ``need`` symbols."""
    tot, out = 0, []
    for c in sorted(d.hand[f], key=lambda c: (-g.copies[c].symbols, c)):
        if tot >= need:
            break
        out.append(c)
        tot += g.copies[c].symbols
    return tuple(sorted(out)) if tot >= need else ()


def can_sail(g: "KampenRules", d: KampenData, f: str) -> bool:
    return len(legal_sail(g, d, f)) > 1


def do_sail(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    f = d.side
    if isinstance(o, Pass):
        events.append(E.PhaseEnd(type="phase_end", faction=f, phase="sea movement", rule="8.1"))
        g.land_movement(d, dice, events)
        return
    if isinstance(o, PlaceShip):  # 7.4: the Home Fleet arrives (its placement is its move)
        s = d.ships[o.ship]
        s.at, s.moved = o.sea, 2
        events.append(E.ShipPlaced(type="ship_placed", faction=f, sea=o.sea, ship=o.name, rule="7.4", hide=["ship"], see=[f]))
        after_sail(g, d, dice, events)
        return
    if isinstance(o, RecallRaiders):  # 7.2: 6 symbols bring the raiders back; they sail this round
        for c in o.cash:
            cards.use_card(g, d, f, c, events, "cashed")
        d.raid_open = True
        events.append(E.RaidersRecalled(type="raiders_recalled", faction=f, rule="7.2"))
        after_sail(g, d, dice, events)
        return
    assert isinstance(o, Sail)
    d.sea_move = SeaMove(list(o.ships), list(o.path), d.ships[o.ships[0]].at)
    step(g, d, dice, events)


def step(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    """The moving ships enter the next sea area; enemy ships there: both sides may intercept."""
    m = d.sea_move
    assert m is not None
    nxt = m.ahead.pop(0)
    f = d.ships[m.ships[0]].owner
    events.append(E.Sail({"type": "sail", "faction": f, "from": m.at, "to": nxt, "n": len(m.ships),
                          "ships": names(g, m.ships), "rule": "8.1", "hide": ["ships"], "see": [f]}))
    for sid in m.ships:
        s = d.ships[sid]
        s.at = nxt
        s.moved += 1
    m.at = nxt
    if S.at_sea(d, nxt, other(f)):
        m.ask = [f] + [e for e in ((ALLIES, NORWAY) if f == GERMANS else (GERMANS,))]
    next_intercept(g, d, dice, events)


def interceptors(g: "KampenRules", d: KampenData, f: str, sea: str) -> list[Ship]:
    """``f``'s ships that may try to intercept in ``sea`` (Eidsvoll & Norge only on 9 April, 6.1)."""
    out = []
    for s in d.ships:
        if s.owner == f and s.at == sea and s.id >= 0:
            c = g.fleet[s.id]
            if c.cls is not None and (c.cls.intercepts or d.stage):
                out.append(s)
    return out


def legal_intercept(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    m = d.sea_move
    assert m is not None
    out: list[Order] = [g.passes[f]]
    if interceptors(g, d, f, m.at) and any(not s.caught for s in S.at_sea(d, m.at, other(f))):
        out.append(Intercept(f, m.at))
    return out


def next_intercept(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    m = d.sea_move
    assert m is not None
    while m.ask:
        f = m.ask[0]
        if len(legal_intercept(g, d, f)) > 1:
            g.ask(d, "intercept", f)
            return
        m.ask.pop(0)
    continue_move(g, d, dice, events)


def do_intercept(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    m = d.sea_move
    assert m is not None
    f = m.ask.pop(0)
    if isinstance(o, Intercept):
        if f != GERMANS and len(legal_smoke(g, d, GERMANS)) > 1:
            m.trying = f  # 7.1: Germany may lay a smoke screen first
            g.ask(d, "smoke", GERMANS)
            return
        intercept(g, d, f, m.at, dice, events)
    next_intercept(g, d, dice, events)


def legal_smoke(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    out: list[Order] = [g.passes[f]]
    for cp, _u in g.hand_uses(d, f, "smoke"):
        out.append(g.play(f, cp, "smoke", target=d.sea_move.at if d.sea_move else ""))
        break
    return out


def do_smoke(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    m = d.sea_move
    assert m is not None
    f, m.trying = m.trying, ""
    if isinstance(o, PlayCard):
        cards.use_card(g, d, GERMANS, o.copy, events)
        events.append(E.Smoke(type="smoke", faction=f, sea=m.at, rule="7.1 Røykdekke (authored)"))
    else:
        intercept(g, d, f, m.at, dice, events)
    next_intercept(g, d, dice, events)


def intercept(g: "KampenRules", d: KampenData, f: str, sea: str, dice: Dice, events: list[Any]) -> None:
    """8.1 step 1: one die per enemy ship there; each success turns one, drawn at random, face
    up; dummies are removed; Germany always catches Eidsvoll & Norge."""
    for s in interceptors(g, d, f, sea):
        s.tried = s.up = True
    d.intercepts.setdefault(sea, []).append(f)
    pool = [s for s in S.at_sea(d, sea, other(f)) if not s.caught]
    caught: list[Ship] = []
    if f == GERMANS:
        caught += [s for s in pool if g.fleet[s.id].type == "panserskip"]
        pool = [s for s in pool if s not in caught]
    faces: list[int] = []
    if pool:
        faces = list(dice.roll(len(pool), "interception").faces)
        hits = sum(1 for x in faces if x in g.sea_faces("interception"))
        for _ in range(min(hits, len(pool))):
            s = pool[0] if len(pool) == 1 else dice.choice(pool, "intercepted ship")
            pool.remove(s)
            caught.append(s)
    shown = []
    for s in caught:
        c = g.fleet[s.id]
        if c.dummy:
            s.at, s.up = REMOVED, True  # 6.1: an intercepted dummy is removed
            shown.append("a dummy ship (removed)")
        else:
            s.caught = s.up = True
            shown.append(c.name)
    events.append(E.Interception(type="interception", faction=f, sea=sea, faces=faces, caught=shown, rule="8.1"))


def continue_move(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    """8.1 step 3: ships neither intercepted nor used to intercept, moved one area so far, go on."""
    m = d.sea_move
    assert m is not None
    go = [sid for sid in m.ships if d.ships[sid].at == m.at and not d.ships[sid].caught and not d.ships[sid].tried
          and d.ships[sid].moved == 1]
    if m.ahead and go:
        m.ships = go
        step(g, d, dice, events)
        return
    d.sea_move = None
    after_sail(g, d, dice, events)


def after_sail(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    if d.stage:
        g.april_advance(d, dice, events)
        return
    g.ask(d, "seamove", d.faction)


# --- 2a: sea combat -----------------------------------------------------------------------------


def pending(d: KampenData) -> list[str]:
    """Sea areas where intercepted ships wait to fight."""
    return sorted({s.at for s in d.ships if s.caught and s.at not in (SUNK, REMOVED, RAID, RESERVE)})


def start(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    next_fight(g, d, dice, events)


def next_fight(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    if d.over:
        return
    areas = pending(d)
    if not areas:
        g.combat_after_sea(d, dice, events)
        return
    if len(areas) == 1:
        begin(g, d, areas[0], dice, events)
        return
    g.ask(d, "seapick", d.faction)  # 8.2: the attacker chooses which sea area fights first


def legal_seapick(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    return [Fight(f, a) for a in pending(d)]


def do_seapick(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    assert isinstance(o, Fight)
    begin(g, d, o.area, dice, events)


def attacking_side(d: KampenData) -> tuple[str, ...]:
    """8.2 step 4: the side with the initiative in the round (9 April: Germany, Ex 4)."""
    return S.side(d.faction)


def begin(g: "KampenRules", d: KampenData, area: str, dice: Dice, events: list[Any]) -> None:
    att = attacking_side(d)
    dfn = other(att[0])
    committed = set(d.intercepts.get(area, []))

    def fighters(sd: tuple[str, ...]) -> list[int]:
        mine = [s for s in S.real(g, S.at_sea(d, area, sd))]
        if committed & set(sd):  # 8.2: the interceptor commits all his ships there
            return [s.id for s in mine]
        out = [s.id for s in mine if s.caught]
        if sd == COALITION:  # Eidsvoll & Norge joins the Allied side where combat occurs
            out += [s.id for s in mine if g.fleet[s.id].type == "panserskip" and s.id not in out]
        return out

    c = SeaCombat(area=area, att=d.faction, a=fighters(att), d=fighters(dfn))
    d.sea = c
    for sid in c.a + c.d:
        d.ships[sid].up = True
    events.append(E.SeaCombatStart(type="sea_combat", sea=area, attacker=d.faction, attackers=names(g, c.a),
                                   defenders=names(g, c.d), rule="8.2"))
    # 8.2: the owner of intercepted ships may add his others there (the interceptor has all in)
    c.ask = [f for f in (GERMANS, ALLIES) if not committed & set(S.side(f))]
    c.step = "add"
    next_add(g, d, dice, events)


def legal_add(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    c = d.sea
    assert c is not None
    out: list[Order] = [g.passes[f]]
    for s in S.real(g, S.at_sea(d, c.area, [f])):
        if s.id not in c.a and s.id not in c.d:
            out.append(AddShip(f, s.id, g.fleet[s.id].name))
    return out


def next_add(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    c = d.sea
    assert c is not None
    while c.ask:
        if len(legal_add(g, d, c.ask[0])) > 1:
            g.ask(d, "add", c.ask[0])
            return
        c.ask.pop(0)
    if not c.a or not c.d:  # nobody to fight
        end_fight(g, d, dice, events)
        return
    card_step(g, d, "sea_attack", dice, events)


def do_add(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    c = d.sea
    assert c is not None
    if isinstance(o, AddShip):
        s = d.ships[o.ship]
        s.up = True
        (c.a if s.owner in S.side(c.att) else c.d).append(o.ship)
        events.append(E.ShipAdded(type="ship_added", faction=o.side, ship=o.name, sea=c.area, rule="8.2"))
        return  # the same faction may add another
    c.ask.pop(0)
    next_add(g, d, dice, events)


def card_step(g: "KampenRules", d: KampenData, step: str, dice: Dice, events: list[Any]) -> None:
    """Steps 1-3: attacker's cards, defender's (counters first), attacker's reactions."""
    c = d.sea
    assert c is not None
    c.step = step
    sd = S.side(c.att) if step != "sea_defend" else other(S.side(c.att)[0])
    c.ask = [f for f in sd if f != NORWAY]
    next_card(g, d, dice, events)


def next_card(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    c = d.sea
    assert c is not None
    while c.ask:
        if len(legal_sea_card(g, d, c.ask[0])) > 1:
            g.ask(d, c.step, c.ask[0])
            return
        c.ask.pop(0)
    if c.step == "sea_attack":
        card_step(g, d, "sea_defend", dice, events)
    elif c.step == "sea_defend":
        card_step(g, d, "sea_react", dice, events)
    else:
        fire(g, d, dice, events)


def legal_sea_card(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    c = d.sea
    assert c is not None
    played = c.att_types if f in S.side(c.att) else c.def_types
    out: list[Order] = [g.passes[f]]
    if not any(S.get(d, i).owner == f for i in c.a + c.d):
        return out  # as on land (4.2): cards only where one's own ships fight
    seen: set[str] = set()
    for cp, u in g.hand_uses(d, f, c.step):
        if cp.type in played or cp.card in seen:
            continue
        if u.needs == "sea_air" and not S.sea_air(g, d, c.area):
            continue  # 5.1: Bombefly at sea needs a German airfield on that coast
        if u.cancels and not u.faces:
            live = {g.copies[p.copy].type for p in c.cards if p.copy not in c.cancelled and p.owner not in S.side(f)}
            if not live & set(u.cancels):
                continue
        seen.add(cp.card)
        out.append(g.play(f, cp, c.step, target=c.area))
    return out


def do_sea_card(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    c = d.sea
    assert c is not None
    f = d.side
    if isinstance(o, Pass):
        c.ask.pop(0)
        next_card(g, d, dice, events)
        return
    assert isinstance(o, PlayCard)
    cp = g.copies[o.copy]
    u = cp.use(o.slot)
    assert u is not None
    cards.use_card(g, d, f, o.copy, events)
    c.cards.append(CardPlay(o.copy, f, o.slot))
    (c.att_types if f in S.side(c.att) else c.def_types).append(cp.type)
    for p in c.cards:
        if p.copy not in c.cancelled and p.owner not in S.side(f) and g.copies[p.copy].type in u.cancels:
            c.cancelled.append(p.copy)
            events.append(E.Cancelled(type="cancelled", card=g.copies[p.copy].card, by=cp.card, rule="8.2"))
    if u.faces:
        if o.slot == "sea_attack":
            c.pending_dice.append(o.copy)  # rolled in step 4, unless shot down first (Ex 3's Jagerfly)
        else:
            card_die(g, d, o.copy, f, dice, events)  # Ex 4: Stupbombefly rolls as it is played
    if len(legal_sea_card(g, d, f)) <= 1:
        c.ask.pop(0)
        next_card(g, d, dice, events)


def targets(d: KampenData, c: SeaCombat, f: str) -> list[int]:
    """The enemy ships in the combat not yet sunk or chased."""
    pool = c.d if f in S.side(c.att) else c.a
    return [sid for sid in pool if sid not in c.hits]


def hit(g: "KampenRules", d: KampenData, c: SeaCombat, f: str, kind: str, dice: Dice) -> int | None:
    """A sink or chase result on a ship drawn at random from the enemy's (8.2 step 4); a German
    sink takes Eidsvoll & Norge before any Allied ship (step 6)."""
    pool = targets(d, c, f)
    if not pool:
        return None
    if f == GERMANS and kind == "sink":
        en = [sid for sid in pool if g.fleet[sid].type == "panserskip"]
        if en:
            c.hits[en[0]] = kind
            return en[0]
    sid = pool[0] if len(pool) == 1 else dice.choice(pool, "sea target")
    c.hits[sid] = kind
    return sid


def card_die(g: "KampenRules", d: KampenData, copy: int, f: str, dice: Dice, events: list[Any]) -> None:
    c = d.sea
    assert c is not None
    cp = g.copies[copy]
    u = next(x for x in cp.uses if x.faces and x.slot.startswith("sea_"))
    if not targets(d, c, f):
        return
    face = dice.roll(1, f"sea: {cp.name}").faces[0]
    sid = hit(g, d, c, f, "sink", dice) if face in u.faces else None
    events.append(E.SeaShot(type="sea_shot", faction=f, by=cp.name, face=face, result="sink" if sid is not None else "miss",
                            target=g.fleet[sid].name if sid is not None else "", rule="8.2"))


def fire(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    """Steps 4-5: the attacker's card dice, then one die per ship best first; then the
    defender's ships, the hit ones too; rolling stops when no target is left (Ex 4)."""
    c = d.sea
    assert c is not None
    att = S.side(c.att)
    for cid in c.pending_dice:
        if cid not in c.cancelled:
            card_die(g, d, cid, c.att, dice, events)
    for pool, f in ((c.a, att[0]), (c.d, other(att[0])[0])):
        for sid in sorted(pool, key=lambda i: S.rank(g, d.ships[i])):
            if not targets(d, c, f):
                break
            card = g.fleet[sid]
            assert card.cls is not None
            face = dice.roll(1, f"sea: {card.name}").faces[0]
            kind = "sink" if face in card.cls.sink else "chase" if face in card.cls.chase else ""
            tgt = hit(g, d, c, f, kind, dice) if kind else None
            events.append(E.SeaShot(type="sea_shot", faction=card.owner, by=card.name, face=face, result=kind or "miss",
                                    target=g.fleet[tgt].name if tgt is not None else "", rule="8.2 steps 4-5"))
    # step 6: the sunk go down and cost cards; step 7: the chased flee
    for sid, kind in sorted(c.hits.items()):
        s = d.ships[sid]
        card = g.fleet[sid]
        if kind == "sink" or (card.cls is not None and card.cls.chased_sinks):
            if s.owner == GERMANS:
                c.sunk_de += 1
            sink(g, d, s, dice, events, "sunk" if kind == "sink" else "chased, too slow to flee", "8.2 steps 6-7")
            if d.over:
                return
        else:
            c.chased.append(sid)
    next_chase(g, d, dice, events)


def chase_seas(g: "KampenRules", d: KampenData, s: Ship) -> list[str]:
    return [n for n in g.sea_nbrs[s.at] if not (s.owner != GERMANS and n in g.mined)]


def next_chase(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    c = d.sea
    assert c is not None
    if c.chased:
        s = d.ships[c.chased[0]]
        g.ask(d, "chase", ALLIES if s.owner == GERMANS else GERMANS)  # step 7: the opponent chooses
        return
    sailors(g, d, dice, events)


def legal_chase(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    c = d.sea
    assert c is not None
    s = S.get(d, c.chased[0])
    return [Chase(f, s.id, g.fleet[s.id].name, sea) for sea in chase_seas(g, d, s)]


def do_chase(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    assert isinstance(o, Chase)
    c = d.sea
    assert c is not None
    c.chased.pop(0)
    s = d.ships[o.ship]
    events.append(E.Chased({"type": "chased", "faction": s.owner, "ship": o.name, "from": s.at, "to": o.sea, "rule": "8.2 step 7"}))
    s.at, s.caught = o.sea, False
    next_chase(g, d, dice, events)


def sailors(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    c = d.sea
    assert c is not None
    if c.sunk_de and len(legal_sailors(g, d, GERMANS)) > 1:
        g.ask(d, "sailors", GERMANS)
        return
    end_fight(g, d, dice, events)


def legal_sailors(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    c = d.sea
    assert c is not None
    out: list[Order] = [g.passes[f]]
    for cp, _u in g.hand_uses(d, f, "sailors"):
        for a in g.sea_coast.get(c.area, ()):
            if not g.hostile(d, f, a):
                out.append(g.play(f, cp, "sailors", target=a))
        break
    return out


def do_sailors(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    if isinstance(o, PlayCard):
        u = g.copies[o.copy].use("sailors")
        assert u is not None
        cards.use_card(g, d, GERMANS, o.copy, events)
        d.add(GERMANS, o.target, u.sailors)
        events.append(E.Arrive(type="arrive", faction=GERMANS, to=o.target, n=u.sailors, rule="7.2a Evakuerte matroser (authored)"))
    end_fight(g, d, dice, events)


def end_fight(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    """Step 8: the survivors turn face down (Eidsvoll & Norge stays face up)."""
    c = d.sea
    assert c is not None
    for s in d.ships:
        if s.at == c.area and (s.id in c.a or s.id in c.d or s.caught):
            s.caught = False
            s.fought = True
            cls = g.fleet[s.id].cls
            s.up = bool(cls and cls.face_up)
    events.append(E.SeaCombatEnd(type="sea_combat_end", sea=c.area, rule="8.2 step 8"))
    d.sea = None
    next_fight(g, d, dice, events)
