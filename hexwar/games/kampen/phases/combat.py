"""The combat phase (4.2), its eight steps: the attacker picks the next fight; attack,
defence and reaction cards (one card per type, cancels); the battalion dice (at most 5, a
fjord or lake crossing halves) plus card dice; sixes kill; the higher total wins, a tie goes
to the defender; the loser withdraws to one adjacent area or is lost (step 8)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

import hexwar.games.kampen.events as E
import hexwar.games.kampen.ships as S
from hexwar.core.dice import Dice
from hexwar.core.orders import Order, Pass
from hexwar.games.kampen.orders import Fight, Losses, PlayCard, Split, Withdraw
from hexwar.games.kampen.phases import cards, movement, victory
from hexwar.games.kampen.state import (
    ALLIES,
    GERMANS,
    NORWAY,
    CardPlay,
    Combat,
    KampenData,
    enemies,
)
from hexwar.rules.dicecombat import battalion_dice

from hexwar.games.kampen.steps import around

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.games.kampen.context import KampenRules


def start(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    """After movement (and sabotage): sea combat first in the advanced game (8.2 2a), then
    every land attack, the attacker choosing the order."""
    if g.fleet:
        g.sea_start(d, dice, events)
        return
    land_start(g, d, dice, events)


def after_sea(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    """The sea combats are over: on 9 April the raids and landings come next (7.2)."""
    if d.stage:
        g.april_advance(d, dice, events)
        return
    land_start(g, d, dice, events)


def land_start(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    """2b: land combat; an attacked area left empty is simply entered."""
    movement.drop_empty_attacks(g, d, events)
    next_combat(g, d, dice, events)


def next_combat(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    if d.over:
        return
    if not d.attacks:
        if d.stage:  # 7.3 comes next in the 9 April round
            g.april_advance(d, dice, events)
            return
        g.reinforcement_begin(d, dice, events)
        return
    if len(d.attacks) == 1:
        begin(g, d, next(iter(d.attacks)), dice, events)
        return
    g.ask(d, "pick", d.faction)


def legal_pick(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    return [Fight(f, a) for a in sorted(d.attacks)]


def do_pick(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    assert isinstance(o, Fight)
    begin(g, d, o.area, dice, events)


def begin(g: "KampenRules", d: KampenData, area: str, dice: Dice, events: list[Any]) -> None:
    f = d.faction
    groups = d.attacks.pop(area)
    dn = {e: d.bn[e].get(area, 0) for e in enemies(f) if d.bn[e].get(area, 0)}
    d.combat = Combat(area=area, att=f, groups=groups, dn=dn, defq=list(enemies(f)))
    events.append(E.CombatStart(type="combat", area=area, attacker=f, attackers=sum(grp.n for grp in groups),
                                defenders=dict(dn), rule="4.2"))
    card_step(g, d, "attack", f, dice, events)


def card_step(g: "KampenRules", d: KampenData, step: str, f: str, dice: Dice, events: list[Any]) -> None:
    """Ask ``f`` for cards at ``step`` unless it has none to play (steps 1-3)."""
    c = d.combat
    assert c is not None
    if step == "defend":
        while c.defq:
            defender = c.defq.pop(0)
            if len(combat_cards(g, d, defender, "defend")) > 1:
                g.ask(d, "defend", defender)
                return
        card_step(g, d, "react", c.att, dice, events)
        return
    if len(combat_cards(g, d, f, step)) > 1:
        g.ask(d, step, f)
        return
    if step == "attack":
        card_step(g, d, "defend", f, dice, events)
    else:
        roll(g, d, dice, events)


def combat_cards(g: "KampenRules", d: KampenData, f: str, slot: str) -> list[Order]:
    """The cards ``f`` may play now: one per type, where it has battalions (Jagerfly
    anywhere), air cards within air range (2.3), coastal cards on the coast, counters only
    against a card of the kind they counter."""
    c = d.combat
    assert c is not None
    played = c.att_types if f == c.att else c.def_types
    out: list[Order] = [g.passes[f]]
    air = None
    seen: set[str] = set()
    present = f == c.att or c.dn.get(f, 0) > 0
    for cp, u in g.hand_uses(d, f, slot):
        if cp.type in played or cp.card + str(cp.dice) in seen:
            continue
        if not present and not u.anywhere:
            continue  # 4.2: only Jagerfly works where its player has no battalions
        if u.needs == "air":
            air = g.air_range(d) if air is None else air
            if c.area not in air:
                continue
        if u.needs == "coast" and not g.allied_coast[c.area]:
            continue
        if u.ships_needed and not S.allied_support(g, d, c.area, u.ships_needed):
            continue  # 5.2: the card's extra requirement in the advanced game
        if u.faces and (f != c.att or set(c.dn) != {"norwegians"}):
            continue  # Bløff/trusler: the attacker's threat against Norwegian defenders (Ex 4)
        if u.cancels and not u.dice:
            live = {g.copies[p.copy].type for p in c.cards if p.copy not in c.cancelled}
            if not (live & set(u.cancels)):
                continue  # nothing of the kind to counter
        seen.add(cp.card + str(cp.dice))
        out.append(g.play(f, cp, slot, target=c.area))
    return out


def legal_attack(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    return combat_cards(g, d, f, "attack")


def legal_defend(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    return combat_cards(g, d, f, "defend")


def legal_react(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    return combat_cards(g, d, f, "react")


def play_card(g: "KampenRules", d: KampenData, f: str, o: PlayCard, events: list[Any]) -> None:
    c = d.combat
    assert c is not None
    cp = g.copies[o.copy]
    cards.use_card(g, d, f, o.copy, events)
    for copy in lay_card(g.copies, c, CardPlay(o.copy, f, o.slot)):
        events.append(E.Cancelled(type="cancelled", card=g.copies[copy].card, by=cp.card, rule="4.2"))


def lay_card(copies: "Mapping[int, Any] | Sequence[Any]", c: Combat, play: CardPlay) -> list[int]:
    """4.2 steps 1-3: a card played in the combat, and the other factions' live cards of a type
    it counters cancelled by it; returns those copies. The combat phase and ``hexwar odds
    kampen`` both lay their cards with this."""
    cp = copies[play.copy]
    u = cp.use(play.slot)
    assert u is not None
    c.cards.append(play)
    (c.att_types if play.owner == c.att else c.def_types).append(cp.type)
    gone = [p.copy for p in c.cards if p.copy not in c.cancelled and p.owner != play.owner and copies[p.copy].type in u.cancels]
    c.cancelled.extend(gone)
    return gone


def do_attack(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    f = d.faction
    if isinstance(o, Pass):
        card_step(g, d, "defend", f, dice, events)
        return
    assert isinstance(o, PlayCard)
    play_card(g, d, f, o, events)
    u = g.copies[o.copy].use("attack")
    if u is not None and u.faces and bluff(g, d, u.faces, dice, events):
        return
    card_step(g, d, "attack", f, dice, events)


def bluff(g: "KampenRules", d: KampenData, faces: list[int], dice: Dice, events: list[Any]) -> bool:
    """Bløff/trusler (Ex 4): the attacker rolls; on a working face the Norwegians withdraw
    without a dice combat, and the attackers take the area."""
    c = d.combat
    assert c is not None
    face = dice.roll(1, "Bløff/trusler").faces[0]
    works = face in faces
    events.append(E.Bluff(type="bluff", area=c.area, face=face, works=works, rule="Ex 4 Bløff/trusler"))
    if not works:
        return False
    c.win, c.a_total, c.d_total = True, 0, 0
    decide(g, d, dice, events)
    return True


def do_defend(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    defender = d.side
    if isinstance(o, PlayCard):
        play_card(g, d, defender, o, events)
        if len(combat_cards(g, d, defender, "defend")) > 1:
            return  # the same defender may add another card
    card_step(g, d, "defend", defender, dice, events)


def do_react(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    f = d.faction
    if isinstance(o, Pass):
        roll(g, d, dice, events)
        return
    assert isinstance(o, PlayCard)
    play_card(g, d, f, o, events)
    card_step(g, d, "react", f, dice, events)


# --- the dice (steps 4-6) -------------------------------------------------------------------------


def dice_pool(g: "KampenRules", d: KampenData, explain: bool = True) -> tuple[int, int, list[dict[str, Any]]]:
    """Return (attacker dice, defender dice, ledger) of the current combat (4.2); without
    ``explain`` the ledger is empty (a bot weighing its cards needs only the dice)."""
    assert d.combat is not None
    return pool(g.copies, d.combat, explain)


def pool(copies: "Mapping[int, Any] | Sequence[Any]", c: Combat, explain: bool = True) -> tuple[int, int, list[dict[str, Any]]]:
    """``dice_pool`` of a combat ``c`` with its cards among ``copies``: the battalion dice (at
    most 5, halved across a fjord or lake) and the live cards' dice (4.2). The combat phase
    and ``hexwar odds kampen`` both count their dice with this."""
    ledger: list[dict[str, Any]] = []
    groups = [(grp.n, grp.crossing) for grp in c.groups]
    a_bn = battalion_dice(groups)
    d_bn = battalion_dice([(sum(c.dn.values()), False)])
    if explain:
        ledger.append({"side": "attacker", "what": f"battalions {sum(n for n, _ in groups)}"
                       + (" (across fjord/lake: halved)" if any(h for _, h in groups) else "") + ", at most 5", "dice": a_bn, "rule": "4.2"})
        joint = " (Norway and Allies together)" if len(c.dn) > 1 else ""
        ledger.append({"side": "defender", "what": f"battalions {sum(c.dn.values())}, at most 5{joint}", "dice": d_bn, "rule": "4.2"})
    a, dd = a_bn, d_bn
    for p in c.cards:
        cp = copies[p.copy]
        slot_side = "attacker" if p.owner == c.att else "defender"
        u = cp.use(p.slot)
        n = cp.dice_for(u) if u else 0
        if p.copy in c.cancelled:
            if explain:
                ledger.append({"side": slot_side, "what": f"{cp.name} (cancelled)", "dice": 0, "rule": "4.2"})
            continue
        if n:
            if explain:
                ledger.append({"side": slot_side, "what": cp.name, "dice": n, "rule": "4.2 (card dice are not capped or halved)"})
            if slot_side == "attacker":
                a += n
            else:
                dd += n
    return a, dd, ledger


def roll(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    c = d.combat
    assert c is not None
    a, dn_dice, ledger = dice_pool(g, d)
    ra = dice.roll(a, "attack") if a else None
    rd = dice.roll(dn_dice, "defence") if dn_dice else None
    fa = ra.faces if ra else ()
    fd = rd.faces if rd else ()
    ta, td = sum(fa), sum(fd)
    att_n = sum(grp.n for grp in c.groups)
    def_n = sum(c.dn.values())
    dkill = min(fa.count(6), def_n)  # 4.2 step 4: each 6 kills a defending battalion
    akill = min(fd.count(6), att_n)  # step 5: the defender rolls for all, the killed too
    c.a_dice, c.d_dice, c.a_faces, c.d_faces = a, dn_dice, list(fa), list(fd)
    c.a_total, c.d_total, c.dkill, c.akill, c.win, c.ledger = ta, td, dkill, akill, ta > td, ledger
    events.append(E.CombatRoll(type="combat_roll", area=c.area, attacker=list(fa), defender=list(fd),
                               totals=[ta, td], kills=[dkill, akill], ledger=[dict(x) for x in ledger], rule="4.2 steps 4-5"))
    # step 6: remove the killed, each owner choosing which of his own (the attacker from which group)
    ways = loss_ways(c)
    if len(ways) > 1:
        g.ask(d, "losses", c.att)
        return
    take_losses(d, c, ways[0])
    defender_losses(g, d, dice, events)


def loss_ways(c: Combat) -> list[tuple[int, ...]]:
    """4.2 step 6: the ways an attacker can take ``akill`` losses from its groups, one count per
    group; the largest groups first comes first. Ways that leave the same survivors in the same
    places are one way, and a winner's survivors all enter the area (step 7), so a winner has one."""
    order = sorted(range(len(c.groups)), key=lambda i: -c.groups[i].n)
    first = [0] * len(c.groups)
    left = c.akill
    for i in order:
        first[i] = min(left, c.groups[i].n)
        left -= first[i]
    if c.win or not c.akill:
        return [tuple(first)]
    ways: list[tuple[int, ...]] = [()]
    for grp in c.groups:
        ways = [w + (k,) for w in ways for k in range(min(grp.n, c.akill - sum(w)) + 1)]
    out: dict[tuple[tuple[tuple[str, bool], int], ...], tuple[int, ...]] = {}
    for w in [tuple(first)] + [w for w in ways if sum(w) == c.akill]:
        left_by_place: dict[tuple[str, bool], int] = {}
        for grp, k in zip(c.groups, w):
            key = ("", True) if grp.sea_air else (grp.src, False)
            left_by_place[key] = left_by_place.get(key, 0) + grp.n - k
        out.setdefault(tuple(sorted(left_by_place.items())), w)
    return list(out.values())


def legal_losses(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    c = d.combat
    assert c is not None
    return [Losses(f, tuple(zip(group_names(c), w))) for w in loss_ways(c)]


def group_names(c: Combat) -> list[str]:
    return ["by sea or air" if grp.sea_air else grp.src for grp in c.groups]


def do_losses(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    assert isinstance(o, Losses) and d.combat is not None
    take_losses(d, d.combat, tuple(k for _name, k in o.groups))
    defender_losses(g, d, dice, events)


def take_losses(d: KampenData, c: Combat, counts: tuple[int, ...]) -> None:
    for grp, k in zip(c.groups, counts):
        grp.n -= k
    c.groups = [grp for grp in c.groups if grp.n > 0]
    d.losses[c.att] += c.akill
    if c.att == ALLIES:  # 4.2 step 6: Kystevakuering serves in the Allies' own round too
        c.al_lost += c.akill


def defender_losses(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    """4.2 step 6, the defenders' side: one faction loses its own; Norway and the Allies together agree."""
    c = d.combat
    assert c is not None
    dkill = c.dkill
    if dkill and len(c.dn) == 2:
        g.ask(d, "split", NORWAY)  # 4.2 step 6: NO and AL agree who is lost
        return
    if dkill:
        (defender,) = c.dn
        kill_defenders(g, d, {defender: dkill}, events)
    after_removal(g, d, dice, events)


def kill_defenders(g: "KampenRules", d: KampenData, kills: dict[str, int], events: list[Any]) -> None:
    c = d.combat
    assert c is not None
    for f, k in kills.items():
        if not k:
            continue
        c.dn[f] -= k
        d.add(f, c.area, -k)
        d.losses[f] += k
        if c.dn[f] <= 0:
            del c.dn[f]
        if f == ALLIES:
            c.al_lost += k
    events.append(E.Eliminated(type="eliminated", area=c.area, defenders=dict(kills), attackers=c.akill, rule="4.2 step 6"))


def legal_split(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    c = d.combat
    assert c is not None
    k = c.dkill
    no, al = c.dn.get(NORWAY, 0), c.dn.get(ALLIES, 0)
    return [Split(f, i, k - i) for i in range(0, k + 1) if i <= no and k - i <= al]


def do_split(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    assert isinstance(o, Split)
    kill_defenders(g, d, {NORWAY: o.norwegians, ALLIES: o.allies}, events)
    after_removal(g, d, dice, events)


def after_removal(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    c = d.combat
    assert c is not None
    if c.al_lost and len(legal_evac(g, d, ALLIES)) > 1:
        g.ask(d, "evac", ALLIES)
        return
    decide(g, d, dice, events)


def legal_evac(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    c = d.combat
    assert c is not None
    out: list[Order] = [g.passes[f]]
    for cp, u in g.hand_uses(d, f, "evacuate"):
        if g.mined_coast[c.area] or not S.allied_support(g, d, c.area, u.ships_needed):
            break  # 2.3: not in areas on the coasts of I/II; 5.2: an Allied ship off the coast
        for a in g.land:
            if a != c.area and g.allied_coast[a] and not g.hostile(d, ALLIES, a) and a not in d.attacks:
                out.append(g.play(f, cp, "evacuate", target=a))
        break
    return out


def do_evac(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    c = d.combat
    assert c is not None
    if isinstance(o, PlayCard):  # Ex 3: one lost battalion is saved to another coastal area
        cards.use_card(g, d, ALLIES, o.copy, events)
        d.add(ALLIES, o.target, 1)
        d.losses[ALLIES] -= 1
        c.al_lost -= 1
        events.append(E.Evacuated(type="evacuated", faction=ALLIES, to=o.target, rule="Ex 3"))
    decide(g, d, dice, events)


# --- steps 7-8: who wins, who withdraws --------------------------------------------------------------


def decide(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    """Steps 7-8: the higher total wins; ties to the defender; the loser withdraws."""
    c = d.combat
    assert c is not None
    f, area = c.att, c.area
    events.append(E.CombatResult(type="combat_result", area=area, winner="attacker" if c.win else "defender",
                                 totals=[c.a_total, c.d_total], rule="4.2 step 7"))
    if c.win:
        for grp in c.groups:  # the winner takes the area
            d.add(f, area, grp.n)
            d.fresh[f][area] = d.fresh[f].get(area, 0) + grp.n
        c.groups = []  # they are on the board now
        survivors = {e: n for e, n in c.dn.items() if n > 0}
        if survivors:
            withdraw_defenders(g, d, survivors, dice, events)
            return
    else:
        sea_air = sum(grp.n for grp in c.groups if grp.sea_air)
        for grp in c.groups:
            if not grp.sea_air:
                d.add(f, grp.src, grp.n)  # back to the area attacked from
        if c.groups:
            events.append(E.AttackRepulsed(type="attack_repulsed", area=area, rule="4.2 step 8"))
        c.groups = []
        if sea_air:
            withdraw_arrivals(g, d, sea_air, dice, events)
            return
    end(g, d, dice, events)


def retreat_areas(g: "KampenRules", d: KampenData, factions: Iterable[str], area: str) -> list[str]:
    """4.2 step 8: one adjacent land area, not enemy-held, not an unresolved combat, not
    attacked from this round; Germans and Allies never across a fjord or lake (Norway may, S1)."""
    fs = list(factions)
    no_water = any(x in (GERMANS, ALLIES) for x in fs)
    me = fs[0]
    out = []
    for b in around(g, d, me, area, dry=no_water):  # on hexes: one area step of hexes (issue 72)
        if g.hostile(d, me, b) or b in d.attacks or (me != d.faction and b in d.attacked_from):
            continue
        out.append(b)
    return out


def withdraw_defenders(g: "KampenRules", d: KampenData, survivors: dict[str, int], dice: Dice, events: list[Any]) -> None:
    c = d.combat
    assert c is not None
    opts = retreat_areas(g, d, survivors, c.area)
    c.retreat_to, c.retreating = opts, survivors
    if not opts:  # surrounded: all are lost
        for f, n in survivors.items():
            d.add(f, c.area, -n)
            d.losses[f] += n
        events.append(E.Surrounded(type="surrounded", area=c.area, lost=dict(survivors), rule="4.2 step 8"))
        end(g, d, dice, events)
        return
    g.ask(d, "withdraw", NORWAY if NORWAY in survivors else next(iter(survivors)))


def withdraw_arrivals(g: "KampenRules", d: KampenData, n: int, dice: Dice, events: list[Any]) -> None:
    c = d.combat
    assert c is not None
    f = c.att
    opts = retreat_areas(g, d, [f], c.area)
    c.retreat_to, c.retreating = opts, {f: n}
    c.arrivals = True
    if not opts:
        d.losses[f] += n
        events.append(E.Surrounded(type="surrounded", area=c.area, lost={f: n}, rule="4.2 step 8"))
        end(g, d, dice, events)
        return
    g.ask(d, "withdraw", f)


def legal_withdraw(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    assert d.combat is not None
    return [Withdraw(f, a) for a in d.combat.retreat_to]


def do_withdraw(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    assert isinstance(o, Withdraw)
    c = d.combat
    assert c is not None
    for f, n in c.retreating.items():
        if not c.arrivals:
            d.add(f, c.area, -n)
        d.add(f, o.area, n)
    events.append(E.Withdraw({"type": "withdraw", "from": c.area, "to": o.area, "battalions": dict(c.retreating),
                              "rule": "4.2 step 8"}))
    end(g, d, dice, events)


def end(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    d.combat = None
    if victory.wiped_out(g, d, events):
        return
    next_combat(g, d, dice, events)
