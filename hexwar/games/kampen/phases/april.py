"""The 9 April round (rules 7): the advanced game's opening, in place of chapter 3's set-up.

Every faction acts in this one round. 7.0: each keeps 9 April cards (Germany 5, Norway 3,
the Allies 3), Germany is dealt all its ships and dummies, the Allies draw 9 of their 18;
Norway places 4 battalions and «Eidsvoll & Norge», Germany its ships face down, the Allies
theirs outside I and II. 7.1: interception where both sides have ships (no ship moves), and
only paratroopers move. 7.2: sea combat, raiding, landings (one battalion per German ship
on the coast, after a fight with Eidsvoll & Norge where it lies), Norway's resistance roll
in each point city landed in, land combat with Germany attacking. 7.3: Norway mobilises,
then Germany, Norway and the Allies reinforce (placement by 8.3). 7.4: the 9 April cards
leave play, everyone draws, the dummies go; Germany's first ordinary round follows.

The round is a list of steps (``KampenData.todo``); ``advance`` runs them in order and stops
where a faction must decide.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from hexwar.core.dice import Dice
from hexwar.core.orders import Order
import hexwar.games.kampen.events as E
from hexwar.games.kampen import ships as S
from hexwar.games.kampen.orders import (
    Choose,
    Fight,
    Land,
    PlaceBn,
    PlaceShip,
    PlayCard,
    Raid,
)
from hexwar.games.kampen.phases import cards, combat, movement, reinforcement, sea
from hexwar.games.kampen.state import (
    ALLIES,
    FACTIONS,
    GERMANS,
    NORWAY,
    RAID,
    REMOVED,
    RESERVE,
    TO_PLACE,
    AttackGroup,
    KampenData,
    Reinforcement,
    SeaMove,
    Ship,
)

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.games.kampen.context import KampenRules

#: the 9 April round, step by step (7.0-7.4)
STEPS = ("choose:germans", "choose:norwegians", "choose:allies", "norway", "ships:germans", "ships:allies",
         "deceive", "redeploy", "intercept", "move", "raid", "engage", "land", "mines", "forts", "landfall",
         "land_combat", "telegraph", "mobilise", "reinforce:germans", "reinforce:norwegians", "reinforce:allies", "cards")


def setup(g: "KampenRules", d: KampenData, dice: Dice) -> None:
    """7.0: the 9 April cards dealt to choose from, the fleets dealt (the Allies draw 9 of 18)."""
    adv = g.advanced
    assert adv is not None
    d.stage, d.turn = "april9", 0
    d.pool = {f: list(g.april_decks.get(f, [])) for f in FACTIONS}
    d.box = {f: [] for f in FACTIONS}
    d.seen = {f: [] for f in FACTIONS}
    allied = [c.id for c in g.fleet if c.owner == ALLIES]
    dice.stream(f"kampen-ships:{d.seed}").shuffle(allied, "allied ships drawn")
    drawn = set(allied[:adv.allied_ships_drawn])
    d.ships = [Ship(c.id, c.owner, TO_PLACE if c.owner != ALLIES or c.id in drawn else RESERVE,
                    up=bool(c.cls and c.cls.face_up)) for c in g.fleet]
    steps = list(STEPS)
    i = steps.index("norway")
    spots = [k for k, n in adv.norway_start.items() for _ in range(n)] + ["ship"]
    steps[i:i + 1] = [f"norway:{k}" for k in spots]
    d.todo = steps


def again(d: KampenData, step: str) -> None:
    d.todo.insert(0, step)


def advance(g: "KampenRules", d: KampenData, dice: Dice, events: list[Any]) -> None:
    """Run the round's steps until one needs a decision (or the round is over)."""
    while d.todo and not d.over:
        step = d.todo.pop(0)
        name, _, arg = step.partition(":")
        if STEP[name](g, d, arg, dice, events):
            return


# --- 7.0: cards, placement ---------------------------------------------------------------------


def _choose(g: "KampenRules", d: KampenData, f: str, dice: Dice, events: list[Any]) -> bool:
    want = g.advanced.april9_hands[f]
    if len(d.hand[f]) < want and d.pool[f]:
        d.todo.insert(0, f"choose:{f}")
        g.ask(d, "choose", f)
        return True
    d.box[f] += d.pool[f]  # 7.0: the rest go back in the box face down
    d.pool[f] = []
    return False


def legal_choose(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    seen: set[str] = set()
    out: list[Order] = []
    for cid in d.pool[f]:
        cp = g.copies[cid]
        if cp.card not in seen:
            seen.add(cp.card)
            out.append(Choose(f, cid, cp.card))
    return out


def do_choose(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    assert isinstance(o, Choose)
    d.todo.pop(0)
    d.pool[o.side].remove(o.copy)
    d.hand[o.side].append(o.copy)
    events.append(E.Chose(type="chose", faction=o.side, card=o.card, rule="7.0", hide=["card"], see=[o.side]))
    again(d, f"choose:{o.side}")
    advance(g, d, dice, events)


def _norway(g: "KampenRules", d: KampenData, what: str, dice: Dice, events: list[Any]) -> bool:
    opts = legal_norway_for(g, d, what)
    if len(opts) == 1 and isinstance(opts[0], PlaceBn):  # Finnmark: no choice to make
        place_norwegians(g, d, opts[0], events)
        return False
    if not opts:
        return False
    d.todo.insert(0, f"norway:{what}")
    g.ask(d, "norway", NORWAY)
    return True


def legal_norway_for(g: "KampenRules", d: KampenData, what: str) -> list[Order]:
    """7.0: 1 battalion in Finnmark, 1 in Oslo or next to it, 2 on mobilisation points,
    «Eidsvoll & Norge» face up in any sea area but VIII."""
    if what == "finnmark":
        return [PlaceBn(NORWAY, a, 1) for a in (g.loc("finnmark"),)]
    if what == "oslo_or_adjacent":
        oslo = g.loc("oslo")
        return [PlaceBn(NORWAY, a, 1) for a in (oslo, *g.nbrs[oslo])]
    if what == "mobilisation":
        return [PlaceBn(NORWAY, a, 1) for a in g.mobilisation]
    en = [s for s in d.ships if s.owner == NORWAY and s.at == TO_PLACE]
    return [PlaceShip(NORWAY, s.id, g.fleet[s.id].name, sea_) for s in en for sea_ in g.seas if sea_ not in g.open_sea]


def legal_norway(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    return legal_norway_for(g, d, d.todo[0].partition(":")[2])


def place_norwegians(g: "KampenRules", d: KampenData, o: PlaceBn, events: list[Any]) -> None:
    d.add(NORWAY, o.area, o.n)
    events.append(E.Placed(type="placed", faction=NORWAY, area=o.area, n=o.n, rule="7.0"))


def do_norway(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    d.todo.pop(0)
    if isinstance(o, PlaceBn):
        place_norwegians(g, d, o, events)
    else:
        assert isinstance(o, PlaceShip)
        d.ships[o.ship].at = o.sea
        events.append(E.ShipPlaced(type="ship_placed", faction=NORWAY, sea=o.sea, ship=o.name, rule="7.0", hide=[], see=[]))
    advance(g, d, dice, events)


def _ships(g: "KampenRules", d: KampenData, f: str, dice: Dice, events: list[Any]) -> bool:
    if any(s.owner == f and s.at == TO_PLACE for s in d.ships):
        d.todo.insert(0, f"ships:{f}")
        g.ask(d, "ships", f)
        return True
    return False


def legal_ships(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    """7.0: Germany's ships and dummies in any sea area, face down; the Allies' outside I and
    II; the Allies may first send a reconnaissance plane or call more ships."""
    out: list[Order] = []
    seen: set[str] = set()
    for s in d.ships:
        if s.owner != f or s.at != TO_PLACE:
            continue
        c = g.fleet[s.id]
        if c.dummy:
            if "dummy" in seen:
                continue  # the dummies are alike
            seen.add("dummy")
        for sea_ in g.seas:
            if f == GERMANS or sea_ not in g.mined:
                out.append(PlaceShip(f, s.id, c.name, sea_))
    if f == ALLIES:
        for cp, _u in g.hand_uses(d, f, "recon"):
            for sea_ in g.seas:
                if S.at_sea(d, sea_, [GERMANS]):
                    out.append(g.play(f, cp, "recon", target=sea_))
            break
        if any(s.owner == ALLIES and s.at == RESERVE for s in d.ships):
            for cp, _u in g.hand_uses(d, f, "rescue"):
                out.append(g.play(f, cp, "rescue"))
                break
    return out


def do_ships(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    f = o.side
    if isinstance(o, PlaceShip):
        d.ships[o.ship].at = o.sea
        events.append(E.ShipPlaced(type="ship_placed", faction=f, sea=o.sea, ship=o.name, rule="7.0", hide=["ship"], see=[f]))
    else:
        assert isinstance(o, PlayCard)
        u = g.copies[o.copy].use(o.slot)
        assert u is not None
        cards.use_card(g, d, f, o.copy, events)
        if o.slot == "recon":
            recon(g, d, f, o.target, u.faces, dice, events)
        else:  # Skip til unnsetning (authored): more of the ships set aside join the round
            reserve = [s for s in d.ships if s.owner == ALLIES and s.at == RESERVE]
            for _ in range(min(u.ships, len(reserve))):
                s = reserve[0] if len(reserve) == 1 else dice.choice(reserve, "ships to the rescue")
                reserve.remove(s)
                s.at = TO_PLACE
                events.append(E.Rescue(type="rescue", faction=f, ship=g.fleet[s.id].name, rule="7.0 Skip til unnsetning (authored)",
                                       hide=["ship"], see=[f]))
    advance(g, d, dice, events)


def recon(g: "KampenRules", d: KampenData, f: str, area: str, faces: list[int], dice: Dice, events: list[Any]) -> None:
    """Ex 4: one die per German ship in the area; each success shows the Allies one German ship
    card drawn at random, which goes back face down."""
    pool = S.at_sea(d, area, [GERMANS])
    roll = dice.roll(len(pool), "reconnaissance").faces
    hits = sum(1 for x in roll if x in faces)
    shown = []
    for _ in range(min(hits, len(pool))):
        s = pool[0] if len(pool) == 1 else dice.choice(pool, "ship sighted")
        pool.remove(s)
        d.seen[f].append(s.id)
        shown.append(g.fleet[s.id].name)
    events.append(E.Sighted(type="sighted", faction=f, sea=area, faces=list(roll), ships=shown, rule="Ex 4",
                            hide=["ships"], see=[f, GERMANS]))


def legal_deceive(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    out: list[Order] = [g.passes[f]]
    for cp, _u in g.hand_uses(d, f, "deceive"):
        for sea_ in g.seas:
            if S.at_sea(d, sea_, [GERMANS]):
                out += [g.play(f, cp, "deceive", src=sea_, target=n) for n in g.sea_nbrs[sea_]]
        break
    return out


def do_deceive(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    if isinstance(o, PlayCard):  # authored: one German stack slips to an adjacent sea area
        cards.use_card(g, d, GERMANS, o.copy, events)
        n = 0
        for s in S.at_sea(d, o.src, [GERMANS]):
            s.at = o.target
            n += 1
        d.seen[ALLIES] = [i for i in d.seen[ALLIES] if d.ships[i].at != o.target]
        events.append(E.Sail({"type": "sail", "faction": GERMANS, "from": o.src, "to": o.target, "n": n, "ships": [],
                              "rule": "7.0 Villedende manøver (authored)", "hide": [], "see": []}))
    advance(g, d, dice, events)


def legal_redeploy(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    out: list[Order] = [g.passes[f]]
    for cp, u in g.hand_uses(d, f, "redeploy"):
        n_max = u.rapid[0] if u.rapid else 1
        for a, n in sorted(d.bn[f].items()):
            for b in g.nbrs[a]:
                if not g.hostile(d, f, b):
                    out += [g.play(f, cp, "redeploy", src=a, target=b, n=k) for k in range(1, min(n, n_max) + 1)]
        break
    return out


def do_redeploy(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    if isinstance(o, PlayCard):  # authored: up to 2 Norwegian battalions move one area
        cards.use_card(g, d, NORWAY, o.copy, events)
        d.add(NORWAY, o.src, -o.n)
        d.add(NORWAY, o.target, o.n)
        events.append(E.Move({"type": "move", "faction": NORWAY, "from": o.src, "via": [], "to": o.target, "n": o.n,
                              "rule": "7.0 Omdisponering (authored)"}))
    advance(g, d, dice, events)


# --- 7.1: interception, paratroopers ----------------------------------------------------------------


def _intercept(g: "KampenRules", d: KampenData, arg: str, dice: Dice, events: list[Any]) -> bool:
    """7.1: in every sea area with both sides' ships, Germany, then the Allies, then Norway
    may intercept; no ship moves."""
    if arg:
        d.sea_move = SeaMove([], [], arg, ask=[GERMANS, ALLIES, NORWAY])
        sea.next_intercept(g, d, dice, events)
        return True
    both = [s_ for s_ in g.seas if S.at_sea(d, s_, [GERMANS]) and S.at_sea(d, s_, [ALLIES, NORWAY])]
    d.todo[0:0] = [f"intercept:{s_}" for s_ in both]
    return False


def _move(g: "KampenRules", d: KampenData, arg: str, dice: Dice, events: list[Any]) -> bool:
    """7.1: only Fallskjermtropp moves (and a Jagerfly against it); then the combat phase."""
    d.faction = GERMANS
    if len(movement.legal_move(g, d, GERMANS)) > 1:
        g.ask(d, "move", GERMANS)
    else:
        movement.after_movement(g, d, dice, events)
    return True


# --- 7.2: raiding, landings, resistance ---------------------------------------------------------------


def legal_raid(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    out: list[Order] = [g.passes[f]]
    for s in d.ships:
        c = g.fleet[s.id]
        if s.owner == GERMANS and s.at in g.raid_exits and c.cls is not None and c.cls.raid_cards:
            out.append(Raid(f, s.id, c.name))
    return out


def do_raid(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    if isinstance(o, Raid):  # 7.2: each raider takes 2 (battleship) or 1 (heavy cruiser) Allied cards
        s = d.ships[o.ship]
        c = g.fleet[o.ship]
        events.append(E.Raiding(type="raiding", faction=GERMANS, ship=o.name, sea=s.at, rule="7.2"))
        s.at, s.up = RAID, True
        assert c.cls is not None
        sea.lose_cards(g, d, ALLIES, c.cls.raid_cards, dice, events, f"{o.name} raiding", "7.2")
        again(d, "raid")
    advance(g, d, dice, events)


def eandn_seas(g: "KampenRules", d: KampenData) -> list[str]:
    """Sea areas where «Eidsvoll & Norge» must be fought before Germany lands from them (7.2)."""
    out = []
    for s in d.ships:
        if g.fleet[s.id].type == "panserskip" and s.at in g.sea_nbrs and not s.fought and s.at not in d.no_landing:
            if S.real(g, S.at_sea(d, s.at, [GERMANS])) and g.sea_coast.get(s.at):
                out.append(s.at)
    return out


def _engage(g: "KampenRules", d: KampenData, arg: str, dice: Dice, events: list[Any]) -> bool:
    if eandn_seas(g, d):
        g.ask(d, "engage", GERMANS)
        return True
    return False


def legal_engage(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    """7.2: fight «Eidsvoll & Norge» there, or land nothing from that sea area."""
    return [g.passes[f]] + [Fight(f, a) for a in eandn_seas(g, d)]


def do_engage(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    if isinstance(o, Fight):
        for s in d.ships:
            if s.at == o.area and g.fleet[s.id].type == "panserskip":
                s.caught = s.up = True
        d.intercepts.setdefault(o.area, []).append(GERMANS)  # all German ships there fight
        again(d, "engage")
        sea.start(g, d, dice, events)
        return
    blocked = eandn_seas(g, d)
    d.no_landing += blocked
    events.append(E.NoLanding(type="no_landing", seas=blocked, rule="7.2"))
    advance(g, d, dice, events)


def landers(g: "KampenRules", d: KampenData) -> list[Ship]:
    return [s for s in d.ships if s.owner == GERMANS and s.at in g.sea_nbrs and s.at not in d.no_landing
            and g.sea_coast.get(s.at) and not g.fleet[s.id].dummy]


def _land(g: "KampenRules", d: KampenData, arg: str, dice: Dice, events: list[Any]) -> bool:
    if arg == "again" and not turned_away(d):
        return False
    if len(legal_land(g, d, GERMANS)) > 1:
        g.ask(d, "land", GERMANS)
        return True
    return False


def turned_away(d: KampenData) -> list[Ship]:
    """Ships a Kystfort turned away: they land elsewhere on the same sea, or not at all (6.1)."""
    return [s for s in d.ships if s.landing.startswith("!")]


def legal_land(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    """7.2: each German ship on the coast lands one battalion in a land area on its sea (after
    a Kystfort, only the ships it turned away land again)."""
    out: list[Order] = [g.passes[f]]
    for s in turned_away(d) or landers(g, d):
        if s.landing.startswith("!"):
            banned = s.landing[1:]
        elif s.landing:
            continue
        else:
            banned = ""
        for a in g.sea_coast[s.at]:
            if a != banned:
                out.append(Land(f, s.id, g.fleet[s.id].name, a))
    return out


def do_land(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    if isinstance(o, Land):
        s = d.ships[o.ship]
        again(d, "land:again" if s.landing.startswith("!") else "land")
        s.landing, s.up = o.area, True  # Ex 4: the ship is revealed as it lands
        events.append(E.Landing(type="landing", faction=GERMANS, ship=o.name, sea=s.at, area=o.area, rule="7.2"))
    else:
        for s in d.ships:  # ships turned away that do not land elsewhere land nothing
            if s.landing.startswith("!"):
                s.landing = ""
    advance(g, d, dice, events)


def legal_mines(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    out: list[Order] = [g.passes[f]]
    seas = sorted({s.at for s in d.ships if s.landing and not s.landing.startswith("!")})
    for cp, _u in g.hand_uses(d, f, "mines"):
        out += [g.play(f, cp, "mines", target=x) for x in seas]
        break
    return out


def do_mines(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    if isinstance(o, PlayCard):  # authored: one ship landing from that sea hits a mine on 4-6
        u = g.copies[o.copy].use("mines")
        assert u is not None
        cards.use_card(g, d, ALLIES, o.copy, events)
        face = dice.roll(1, "Minelegging").faces[0]
        pool = [s for s in d.ships if s.at == o.target and s.landing]
        hit = None
        if face in u.faces and pool:
            hit = pool[0] if len(pool) == 1 else dice.choice(pool, "ship on a mine")
        events.append(E.SeaShot(type="sea_shot", faction=ALLIES, by=g.copies[o.copy].name, face=face,
                                result="sink" if hit else "miss", target=g.fleet[hit.id].name if hit else "",
                                rule="7.2 Minelegging (authored)"))
        if hit is not None:
            sea.sink(g, d, hit, dice, events, "mine", "7.2 Minelegging (authored)")
    advance(g, d, dice, events)


def _forts(g: "KampenRules", d: KampenData, arg: str, dice: Dice, events: list[Any]) -> bool:
    if arg:
        d.todo.insert(0, f"forts:{arg}")
        if len(legal_fort(g, d, NORWAY)) > 1:
            g.ask(d, "fort", NORWAY)
            return True
        d.todo.pop(0)
        return False
    cities = sorted({s.landing for s in d.ships if s.landing in g.point_cities})
    d.todo[0:0] = [f"forts:{c}" for c in cities] + (["land:again"] if cities else [])
    return False


def legal_fort(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    city = d.todo[0].partition(":")[2]
    out: list[Order] = [g.passes[f]]
    if any(s.landing == city for s in d.ships):
        for cp, _u in g.hand_uses(d, f, "fort"):
            out.append(g.play(f, cp, "fort", target=city))
            break
    return out


def do_fort(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    d.todo.pop(0)
    if isinstance(o, PlayCard):  # 6.1: one ship sunk and the rest turned away, or all turned away
        u = g.copies[o.copy].use("fort")
        assert u is not None
        cards.use_card(g, d, NORWAY, o.copy, events)
        face = dice.roll(1, "Kystfort").faces[0]
        pool = [s for s in d.ships if s.landing == o.target]
        result = "sink" if face in u.faces else "turned away" if face in u.faces2 else "miss"
        events.append(E.Fort(type="fort", area=o.target, face=face, result=result, rule="6.1 Kystfort"))
        if face in u.faces:
            s = pool[0] if len(pool) == 1 else dice.choice(pool, "ship sunk by the fort")
            pool.remove(s)
            sea.sink(g, d, s, dice, events, "coastal fort", "6.1 Kystfort")
        if face in u.faces or face in u.faces2:
            for s in pool:
                s.landing = "!" + o.target  # must land elsewhere on the same sea (6.1)
    advance(g, d, dice, events)


def _landfall(g: "KampenRules", d: KampenData, arg: str, dice: Dice, events: list[Any]) -> bool:
    """7.2: the battalions land (attacking where the enemy is); Norway's resistance roll in
    each point city landed in."""
    cities: list[str] = []
    for s in d.ships:
        if s.landing and not s.landing.startswith("!"):
            a = s.landing
            d.attacks.setdefault(a, []).append(AttackGroup("", 1, False, True, ""))
            events.append(E.Arrive(type="arrive", faction=GERMANS, to=a, n=1, rule="7.2 landing"))
            if a in g.point_cities and a not in cities:
                cities.append(a)
        s.landing = ""
    faces = g.sea_faces("resistance")
    for a in cities:
        face = dice.roll(1, f"resistance {a}").faces[0]
        ok = face in faces
        if ok:
            d.add(NORWAY, a, 1)
            d.mobilised.append(a)
        events.append(E.Resistance(type="resistance", area=a, face=face, mobilised=ok, rule="7.2"))
    return False


def _land_combat(g: "KampenRules", d: KampenData, arg: str, dice: Dice, events: list[Any]) -> bool:
    combat.land_start(g, d, dice, events)
    return True


def _telegraph(g: "KampenRules", d: KampenData, arg: str, dice: Dice, events: list[Any]) -> bool:
    """5.1: Germany in Egersund after the 9 April round's fighting: the Allies lose a card."""
    tg = g.advanced.telegraph
    area = g.loc(str(tg["area"]))
    if d.bn[GERMANS].get(area, 0):
        events.append(E.Telegraph(type="telegraph", area=area, rule="5.1"))
        sea.lose_cards(g, d, ALLIES, int(tg["cards"]), dice, events, "the Egersund telegraph", "5.1")
    return False


# --- 7.3: mobilisation, reinforcements -------------------------------------------------------------


def _mobilise(g: "KampenRules", d: KampenData, arg: str, dice: Dice, events: list[Any]) -> bool:
    """7.3: a battalion in each point city that has not mobilised and is not German; one per
    2 mobilisation points free of Germans, on points Norway chooses."""
    if not arg:
        d.faction = NORWAY
        for a in g.point_cities:
            if a not in d.mobilised and not d.bn[GERMANS].get(a, 0):
                d.add(NORWAY, a, 1)
                events.append(E.Placed(type="placed", faction=NORWAY, area=a, n=1, rule="7.3"))
        free = [a for a in g.mobilisation if not d.bn[GERMANS].get(a, 0)]
        d.rein = Reinforcement(n=len(free) // g.advanced.mobilise_per)
    if d.rein is not None and d.rein.n > 0 and legal_mobilise(g, d, NORWAY):
        d.todo.insert(0, "mobilise:more")
        g.ask(d, "mobilise", NORWAY)
        return True
    d.rein = None
    return False


def legal_mobilise(g: "KampenRules", d: KampenData, f: str) -> list[Order]:
    r = d.rein
    assert r is not None
    return [PlaceBn(f, a, 1) for a in g.mobilisation if not d.bn[GERMANS].get(a, 0) and a not in r.placed]


def do_mobilise(g: "KampenRules", d: KampenData, o: Order, dice: Dice, events: list[Any]) -> None:
    assert isinstance(o, PlaceBn) and d.rein is not None
    d.todo.pop(0)
    d.add(NORWAY, o.area, 1)
    d.rein.placed.append(o.area)
    d.rein.n -= 1
    events.append(E.Placed(type="placed", faction=NORWAY, area=o.area, n=1, rule="7.3"))
    again(d, "mobilise:more")
    advance(g, d, dice, events)


def _reinforce(g: "KampenRules", d: KampenData, f: str, dice: Dice, events: list[Any]) -> bool:
    """7.3: Germany, then Norway, then the Allies cash their 9 April cards (Germany's free
    battalion too), placing by 8.3."""
    d.faction = f
    reinforcement.begin(g, d, dice, events)
    return True


def _cards(g: "KampenRules", d: KampenData, arg: str, dice: Dice, events: list[Any]) -> bool:
    """7.4: the 9 April cards leave play, the dummies go, everyone draws from its own deck;
    Germany's first ordinary round."""
    for f in FACTIONS:
        left = [c for c in d.hand[f] if g.copies[c].april9]
        d.box[f] += left + d.pool[f]
        d.hand[f] = [c for c in d.hand[f] if c not in left]
        d.pool[f] = []
    for s in d.ships:
        if g.fleet[s.id].dummy and s.at not in (REMOVED,):
            s.at = REMOVED
        s.moved, s.tried, s.caught, s.fought, s.landing = 0, False, False, False, ""
        s.up = bool(g.fleet[s.id].cls and g.fleet[s.id].cls.face_up)  # type: ignore[union-attr]
    d.seen = {f: [] for f in FACTIONS}
    d.intercepts, d.no_landing, d.mobilised = {}, [], []
    events.append(E.AprilEnd(type="april_end", rule="7.4"))
    for f in FACTIONS:
        cards.draw(g, d, f, g.spec.hands[f] - len(d.hand[f]), dice, events)
        if d.over:
            return True
        events.append(E.Draw(type="draw", faction=f, hand=len(d.hand[f]), rule="7.4"))
    d.stage = ""
    d.faction = ALLIES  # next_round passes to Germany and opens game round 1
    cards.next_round(g, d, dice, events)
    return True


def _offer(step: str, faction: str, legal: Callable[..., list[Order]]) -> Callable[..., bool]:
    """A step that asks ``faction`` only when it has a choice besides passing."""

    def run(g: "KampenRules", d: KampenData, arg: str, dice: Dice, events: list[Any]) -> bool:
        if len(legal(g, d, faction)) > 1:
            g.ask(d, step, faction)
            return True
        return False

    return run


STEP: dict[str, Callable[..., bool]] = {
    "choose": _choose, "norway": _norway, "ships": _ships,
    "deceive": _offer("deceive", GERMANS, legal_deceive),  # 7.0 Villedende manøver
    "redeploy": _offer("redeploy", NORWAY, legal_redeploy),  # 7.0 Omdisponering
    "intercept": _intercept, "move": _move,
    "raid": _offer("raid", GERMANS, legal_raid),  # 7.2 raiding
    "engage": _engage, "land": _land,
    "mines": _offer("mines", ALLIES, legal_mines),  # 7.2 Minelegging
    "forts": _forts, "landfall": _landfall, "land_combat": _land_combat, "telegraph": _telegraph,
    "mobilise": _mobilise, "reinforce": _reinforce, "cards": _cards,
}

