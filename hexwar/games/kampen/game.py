"""Kampen om Norge, the basic game and Scenario 1, on any ``Board`` (rules 1-4, S1).

Three factions play rounds in a fixed order, Germany, Norway, the Allies (4); each round
has four phases: movement (4.1, with Norway's sabotage and escape 1c in the German round),
combat (4.2, the 8-step sequence), reinforcement (4.3) and new cards (4.4). Norway and the
Allies are one side for victory (1.2, 1.3): ``result().winner`` is ``germans`` or ``allies``.

Everything runs on the board interface: land locations are the board's locations that are
not sea, unusable or boxes, a fjord or lake border halves attack dice, a location's coasts
are its map ``sea`` entries (area map) or its sea neighbours (hex map). So the same code
plays on the Norway area board, an area board aggregated from hexes, or a hex board.

State lives in ``GameState.extra`` as plain numbers and lists (battalions are identical,
2.2, so an area holds a count per faction); ``apply`` changes it in place, so the fast
simulator can drive the ruleset without copies (``PlayState`` copies for undo and safety).
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass
from typing import Any, Iterable

from hexwar.board.base import Board
from hexwar.board.build_areas import haversine_km
from hexwar.core.dice import Dice
from hexwar.core.engine import PlayState, Result, new_play_state
from hexwar.core.orders import IllegalOrder, Order, Pass
from hexwar.core.state import GameState
from hexwar.data.loader import DataError, Library, Problem, _rel, default_library
from hexwar.data.schemas import CardUse, KampenCardsSpec, KampenScenarioSpec
from hexwar.games.kampen.orders import Cash, Discard, Fight, KMove, PlaceBn, PlayCard, Split, Withdraw
from hexwar.rules.dicecombat import battalion_dice

GERMANS, NORWAY, ALLIES = "germans", "norwegians", "allies"
FACTIONS = (GERMANS, NORWAY, ALLIES)
COALITION = (NORWAY, ALLIES)
NOT_LAND = {"sea", "unusable", "box"}


def enemies(f: str) -> tuple[str, ...]:
    return COALITION if f == GERMANS else (GERMANS,)


@dataclass(frozen=True)
class Copy:
    """One physical card: its id in the game, its card, symbols and per-copy dice."""

    id: int
    card: str
    type: str
    name: str
    symbols: int
    dice: int | None
    uses: tuple[CardUse, ...]

    def use(self, slot: str) -> CardUse | None:
        for u in self.uses:
            if u.slot == slot:
                return u
        return None

    def dice_for(self, u: CardUse) -> int:
        return self.dice if (self.dice is not None and u.dice) else u.dice


class KampenGame:
    """The ruleset: board, cards and scenario (frozen); states are ``GameState``."""

    name = "kampen"

    def __init__(self, scenario: str = "intro-narvik", board: Board | None = None, library: Library | None = None):
        lib = library or default_library()
        self.library = lib
        self.spec: KampenScenarioSpec = lib.load("oob", f"kampen/{scenario}", "kampen_scenario")
        self.scenario = scenario
        self.cards: KampenCardsSpec = lib.load("oob", "kampen-cards", "kampen_cards")
        if board is None:
            from hexwar.board.areaboard import AreaBoard

            board = AreaBoard.load(self.spec.board, lib)
        self.board = board
        self._index_board()
        self._build_copies()
        self._check()
        self._moves: dict[tuple[str, str, str, int], KMove] = {}
        self._local = threading.local()
        self._pass = {f: Pass(f) for f in FACTIONS}

    # --- board facts the rules read ---------------------------------------------------

    def _index_board(self) -> None:
        b = self.board
        self.land = [a for a in b.locations() if b.terrain(a) not in NOT_LAND and not b.is_a(a, "sweden")
                     and not b.is_a(a, "unusable")]
        if self.spec.region and all(n in self.land for n in self.spec.region):
            # S1: only the top third of the board is used (on a board cut to that region, all of it)
            keep = set(self.spec.region)
            self.land = [a for a in self.land if a in keep]
        land = set(self.land)
        self.nbrs: dict[str, tuple[str, ...]] = {a: tuple(n for n in b.neighbours(a) if n in land) for a in self.land}
        self.water: set[tuple[str, str]] = set()
        for a in self.land:
            for n in self.nbrs[a]:
                if b.border(a, n).features & {"fjord", "lake"}:
                    self.water.add((a, n))
        self.coasts: dict[str, frozenset[str]] = {}
        for a in self.land:
            p = b.place(a)
            seas: tuple[str, ...] = tuple(p.data.get("sea") or ()) if p else ()  # type: ignore[arg-type]
            if not seas:
                seas = tuple(n for n in b.neighbours(a) if b.terrain(n) == "sea")
            self.coasts[a] = frozenset(seas)
        mined = {a for a in b.locations() if b.terrain(a) == "sea" and b.is_a(a, "mined")}
        # 2.3: the reinforcement coasts are III-VII: not the mined I/II, not the open sea VIII
        open_sea = {s for s in b.locations() if b.terrain(s) == "sea" and not any(n in land for n in b.neighbours(s))}
        self.mined_coast = {a: bool(self.coasts[a] & mined) for a in self.land}
        self.allied_coast = {a: bool(self.coasts[a] - mined - open_sea) and not self.mined_coast[a] for a in self.land}
        self.german_coast = {a: self.mined_coast[a] for a in self.land}  # 4.3: coast on I or II
        self.point_cities = [a for a in self.land if b.is_a(a, "point_city")]
        self.mobilisation = [a for a in self.land if b.is_a(a, "mobilisation")]
        self.airfields = [a for a in self.land if b.is_a(a, "airfield")]
        # 2.3: air range: the "Fra Tyskland" line needs no airfield; each airfield reaches its range
        ll = {a: self._lonlat(a) for a in self.land}
        origins = getattr(b, "air_origins", {}) or {}
        self.from_germany = frozenset(a for a in self.land for (o, km) in origins.values()
                                      if ll[a] is not None and haversine_km(o, ll[a]) <= km)  # type: ignore[arg-type]
        self.reach: dict[str, frozenset[str]] = {}
        for f in self.airfields:
            p = b.place(f)
            km = float(p.data.get("air_range_km") or 0) if p else 0.0  # type: ignore[arg-type]
            self.reach[f] = frozenset(a for a in self.land if ll[f] is not None and ll[a] is not None
                                      and haversine_km(ll[f], ll[a]) <= km)  # type: ignore[arg-type]

    def _lonlat(self, a: str) -> tuple[float, float] | None:
        b = self.board
        centers = getattr(b, "centers", {}) or {}
        if a in centers:
            return tuple(centers[a])
        proj = getattr(b, "projection", None)
        if proj is None:
            return None
        try:
            c = b.geometry(a).centroid
        except Exception:
            return None
        lon, lat = proj.to_lonlat(c.x, c.y)
        return float(lon), float(lat)

    def loc(self, name: str) -> str:
        """Resolve a scenario's place name on this board: an area id, or a place so named."""
        if name in self.nbrs:
            return name
        for p in self.board.places():
            if p.name == name and p.location in self.nbrs:
                return p.location
        raise KeyError(name)

    def air_range(self, d: dict[str, Any]) -> frozenset[str]:
        """2.3: land areas German air cards reach: south of the "Fra Tyskland" line, or in
        range of an airfield held by German battalions."""
        out = set(self.from_germany)
        de = d["bn"][GERMANS]
        for f in self.airfields:
            if de.get(f, 0) > 0:
                out |= self.reach[f]
        return frozenset(out)

    # --- cards --------------------------------------------------------------------------

    def _build_copies(self) -> None:
        cards = self.cards
        self.copies: list[Copy] = []
        self.decks: dict[str, list[int]] = {}
        full = {f: [(c.card, c.count, c.symbols, c.dice) for c in cards.decks[f].copies] for f in FACTIONS}
        for f in FACTIONS:
            if self.spec.decks == "full":
                wanted = full[f]
            else:
                wanted = []
                for card, count in self.spec.decks.get(f, {}).items():
                    if card not in cards.cards:
                        raise DataError([Problem(_rel(self.library.path("oob", f"kampen/{self.scenario}")), f"decks.{f}.{card}",
                                                 "not a card of oob/kampen-cards.yaml (S1)")])
                    proto = next(((s, dv) for deck in full.values() for (c, _, s, dv) in deck if c == card), (1, None))
                    wanted.append((card, count, proto[0], proto[1]))
            ids = []
            for card, count, symbols, dice in wanted:
                spec = cards.cards[card]
                for _ in range(count):
                    cid = len(self.copies)
                    self.copies.append(Copy(cid, card, spec.type, spec.name, symbols, dice, tuple(spec.uses)))
                    ids.append(cid)
            self.decks[f] = ids

    def _check(self) -> None:
        probs = []
        file = _rel(self.library.path("oob", f"kampen/{self.scenario}"))
        for f, where in self.spec.start.items():
            for name in where:
                try:
                    self.loc(name)
                except KeyError:
                    probs.append(Problem(file, f"start.{f}.{name}", f"not a land area of board {self.board.name} (S1 / rules 3)"))
        if isinstance(self.spec.victory, dict):
            for name in self.spec.victory["objectives"]:
                try:
                    self.loc(name)
                except KeyError:
                    probs.append(Problem(file, f"victory.objectives.{name}", f"not a land area of board {self.board.name} (S1)"))
        if probs:
            raise DataError(probs)

    def objectives(self) -> list[str]:
        """The areas victory is about: S1's three objectives, or the point cities (1.3)."""
        cached = self.__dict__.get("_objectives")
        if cached is None:
            if isinstance(self.spec.victory, dict):
                cached = [self.loc(n) for n in self.spec.victory["objectives"]]
            else:
                cached = list(self.point_cities)
            self._objectives = cached
        return cached

    # --- set-up (3) ------------------------------------------------------------------------

    def new_state(self, seed: int) -> PlayState:
        return new_play_state(self, seed, {"game": "kampen", "scenario": self.scenario, "board": self.board.name})

    def initial_state(self, seed: int, dice: Dice) -> GameState:
        data = GameState(game="kampen", scenario=self.scenario, seed=seed)
        bn: dict[str, dict[str, int]] = {f: {} for f in FACTIONS}
        for f, where in self.spec.start.items():
            for name, n in where.items():
                a = self.loc(name)
                bn[f][a] = bn[f].get(a, 0) + n
        rng = random.Random(f"kampen-decks:{seed}")  # 3.1: shuffle; derived from the seed, so replays agree
        deck: dict[str, list[int]] = {}
        for f in FACTIONS:
            d = list(self.decks[f])
            rng.shuffle(d)
            deck[f] = d
        x = data.extra
        x.update({
            "bn": bn, "fresh": {f: {} for f in FACTIONS}, "deck": deck, "down": {f: len(deck[f]) for f in FACTIONS},
            "hand": {f: [] for f in FACTIONS}, "used": 0, "f": GERMANS, "round": 1, "step": "move",
            "attacks": {}, "from": [], "combat": None, "sab": None, "rein": None,
            "landing": (self.spec.allied_landing or {}).get("battalions", 0) if self.spec.allied_landing else 0,
            "losses": {f: 0 for f in FACTIONS}, "cards_used": {f: 0 for f in FACTIONS}, "ended": "",
        })
        for f in FACTIONS:  # digest ambiguity 8: hands are drawn at set-up
            self._draw(data, f, self.spec.hands[f], [])
        data.side = GERMANS
        data.phase = "move"
        data.turn = 1
        return data

    # --- engine protocol --------------------------------------------------------------------

    def current_side(self, data: GameState) -> str:
        return data.side

    def result(self, data: GameState) -> Result:
        x = data.extra
        winner, level = self._standing(x)
        return Result(data.over, winner if data.over else None, level if data.over else f"in progress ({level})",
                      {f: sum(x["bn"][f].values()) for f in FACTIONS})

    # --- queries -------------------------------------------------------------------------

    def hostile(self, x: dict[str, Any], f: str, a: str) -> bool:
        return any(x["bn"][e].get(a, 0) for e in enemies(f))

    def movable(self, x: dict[str, Any], f: str, a: str) -> int:
        return x["bn"][f].get(a, 0) - x["fresh"][f].get(a, 0)

    def hand_uses(self, x: dict[str, Any], f: str, slot: str) -> list[tuple[Copy, CardUse]]:
        out = []
        for cid in x["hand"][f]:
            c = self.copies[cid]
            u = c.use(slot)
            if u is not None:
                out.append((c, u))
        return out

    # --- legal orders -------------------------------------------------------------------

    def legal_orders(self, data: GameState) -> list[Order]:
        if data.over:
            return []
        x = data.extra
        step, side = x["step"], data.side
        fn = getattr(self, f"_legal_{step}")
        return fn(data, x, side)

    def _legal_move(self, data: GameState, x: dict[str, Any], f: str) -> list[Order]:
        out: list[Order] = [self._pass[f]]
        fresh = x["fresh"][f]
        cache = self._moves
        for a, n in sorted(x["bn"][f].items()):
            m = n - fresh.get(a, 0)
            if m <= 0:
                continue
            for b in self.nbrs[a]:
                for k in range(1, m + 1):
                    key = (f, a, b, k)
                    o = cache.get(key)
                    if o is None:  # orders are immutable: build each once per game object
                        o = cache[key] = KMove(f, a, b, k)
                    out.append(o)
        if x["hand"][f]:
            out += self._card_moves(x, f)
        return out

    def _card_moves(self, x: dict[str, Any], f: str) -> list[Order]:
        out: list[Order] = []
        seen: set[str] = set()
        for c, u in self.hand_uses(x, f, "move"):
            if c.card in seen:
                continue  # identical copies give identical orders
            seen.add(c.card)
            if u.rapid or u.rail:
                n_max, steps = (u.rapid or u.rail)  # type: ignore[misc]
                for a in sorted(x["bn"][f]):
                    m = self.movable(x, f, a)
                    if m <= 0:
                        continue
                    for path in self._paths(x, f, a, steps, attack=bool(u.rapid)):
                        for k in range(1, min(m, n_max) + 1):
                            out.append(PlayCard(f, c.id, c.card, "move", src=a, path=path, n=k))
            elif u.paradrop:
                for a in sorted(self.air_range(x)):
                    out.append(PlayCard(f, c.id, c.card, "move", target=a, n=u.paradrop))
            elif u.airlift:
                held = [a for a in self.airfields if x["bn"][f].get(a, 0) and not self.hostile(x, f, a)]
                for a in held:
                    m = self.movable(x, f, a)
                    for b in held:
                        if b != a and m > 0:
                            for k in range(1, min(m, u.airlift) + 1):
                                out.append(PlayCard(f, c.id, c.card, "move", src=a, target=b, n=k))
            elif u.invasion:
                others = [o for o in x["hand"][f] if o != c.id]
                sym = sum(self.copies[o].symbols for o in others)
                if sym >= 3:
                    cash = tuple(sorted(others, key=lambda o: -self.copies[o].symbols))
                    # cash the fewest cards that buy the most battalions
                    best: list[int] = []
                    tot = 0
                    for o in cash:
                        if tot // 3 == sym // 3:
                            break
                        best.append(o)
                        tot += self.copies[o].symbols
                    for a in self.land:
                        if self.allied_coast[a]:
                            out.append(PlayCard(f, c.id, c.card, "move", target=a, cash=tuple(sorted(best))))
        return out

    def _paths(self, x: dict[str, Any], f: str, a: str, steps: int, attack: bool) -> list[tuple[str, ...]]:
        """Paths of 2..steps areas through friendly or empty areas; the last may be hostile
        when the card may attack (Rask forflytning, Ex 3), never for rail."""
        out: list[tuple[str, ...]] = []
        frontier: list[tuple[str, ...]] = [(a,)]
        for depth in range(steps):
            nxt = []
            for p in frontier:
                for b in self.nbrs[p[-1]]:
                    if b in p:
                        continue
                    q = p + (b,)
                    if self.hostile(x, f, b):
                        if attack and depth >= 1:
                            out.append(q[1:])
                        continue
                    if depth >= 1:
                        out.append(q[1:])
                    nxt.append(q)
            frontier = nxt
        return sorted(set(out))

    def _legal_sabotage(self, data: GameState, x: dict[str, Any], f: str) -> list[Order]:
        out: list[Order] = [Pass(f)]
        for c, u in self.hand_uses(x, f, "sabotage"):
            for tgt, groups in sorted(x["attacks"].items()):
                for g in groups:
                    if not g[0] or (u.land_only and g[2]):
                        continue
                    out.append(PlayCard(f, c.id, c.card, "sabotage", target=tgt, src=g[0]))
        for c, _u in self.hand_uses(x, f, "escape"):
            for tgt in sorted(x["attacks"]):
                if x["bn"][NORWAY].get(tgt, 0):
                    for b in self.nbrs[tgt]:
                        # not into an area the Germans attack or attacked from (their
                        # repulsed battalions go back there), as for a withdrawal (4.2 step 8)
                        if not self.hostile(x, NORWAY, b) and b not in x["attacks"] and b not in x["from"]:
                            out.append(PlayCard(f, c.id, c.card, "escape", src=tgt, target=b))
        return list(dict.fromkeys(out))

    def _legal_divert(self, data: GameState, x: dict[str, Any], f: str) -> list[Order]:
        out: list[Order] = [Pass(f)]
        for c, _ in self.hand_uses(x, f, "divert"):
            for b in self.nbrs[x["para"]["target"]]:
                out.append(PlayCard(f, c.id, c.card, "divert", target=b))
            break
        return out

    def _legal_counter(self, data: GameState, x: dict[str, Any], f: str) -> list[Order]:
        sab = self.copies[x["sab"]["copy"]]
        out: list[Order] = [Pass(f)]
        for c, u in self.hand_uses(x, f, "counter"):
            if sab.type in u.cancels:
                out.append(PlayCard(f, c.id, c.card, "counter"))
                break
        return out

    def _legal_pick(self, data: GameState, x: dict[str, Any], f: str) -> list[Order]:
        return [Fight(f, a) for a in sorted(x["attacks"])]

    def _combat_cards(self, x: dict[str, Any], f: str, slot: str) -> list[Order]:
        c = x["combat"]
        played = c["types"][c["att"] if f == c["att"] else "def"]
        out: list[Order] = [Pass(f)]
        air = None
        seen: set[str] = set()
        present = f == c["att"] or c["dn"].get(f, 0) > 0
        for cp, u in self.hand_uses(x, f, slot):
            if cp.type in played or cp.card + str(cp.dice) in seen:
                continue
            if not present and not u.anywhere:
                continue  # 4.2: only Jagerfly works where its player has no battalions
            if u.needs == "air":
                air = self.air_range(x) if air is None else air
                if c["area"] not in air:
                    continue
            if u.needs == "coast" and not self.allied_coast[c["area"]]:
                continue
            if u.cancels and not u.dice:
                live = {self.copies[k].type for k, *_ in c["cards"] if k not in c["cancelled"]}
                if not (live & set(u.cancels)):
                    continue  # nothing of the kind to counter
            seen.add(cp.card + str(cp.dice))
            out.append(PlayCard(f, cp.id, cp.card, slot, target=c["area"]))
        return out

    def _legal_attack(self, data: GameState, x: dict[str, Any], f: str) -> list[Order]:
        return self._combat_cards(x, f, "attack")

    def _legal_defend(self, data: GameState, x: dict[str, Any], f: str) -> list[Order]:
        return self._combat_cards(x, f, "defend")

    def _legal_react(self, data: GameState, x: dict[str, Any], f: str) -> list[Order]:
        return self._combat_cards(x, f, "react")

    def _legal_split(self, data: GameState, x: dict[str, Any], f: str) -> list[Order]:
        c = x["combat"]
        k = c["dkill"]
        no, al = c["dn"].get(NORWAY, 0), c["dn"].get(ALLIES, 0)
        return [Split(f, i, k - i) for i in range(0, k + 1) if i <= no and k - i <= al]

    def _legal_evac(self, data: GameState, x: dict[str, Any], f: str) -> list[Order]:
        c = x["combat"]
        out: list[Order] = [Pass(f)]
        for cp, _u in self.hand_uses(x, f, "evacuate"):
            if self.mined_coast[c["area"]]:
                break  # 2.3: not in areas on the coasts of I/II
            for a in self.land:
                if a != c["area"] and self.allied_coast[a] and not self.hostile(x, ALLIES, a) and a not in x["attacks"]:
                    out.append(PlayCard(f, cp.id, cp.card, "evacuate", target=a))
            break
        return out

    def _legal_withdraw(self, data: GameState, x: dict[str, Any], f: str) -> list[Order]:
        return [Withdraw(f, a) for a in x["combat"]["retreat_to"]]

    def _legal_reinforce(self, data: GameState, x: dict[str, Any], f: str) -> list[Order]:
        out: list[Order] = [Pass(f)]
        seen = set()
        for cid in x["hand"][f]:
            cp = self.copies[cid]
            if (cp.card, cp.symbols) in seen:
                continue
            seen.add((cp.card, cp.symbols))
            out.append(Cash(f, cid, cp.card))
        if f == GERMANS and not x["rein"]["airlift"]:
            for cp, _u in self.hand_uses(x, f, "reinforce"):
                if any(x["bn"][GERMANS].get(a, 0) for a in self.airfields):
                    out.append(PlayCard(f, cp.id, cp.card, "reinforce"))
                break
        return out

    def _legal_submarine(self, data: GameState, x: dict[str, Any], f: str) -> list[Order]:
        out: list[Order] = [Pass(f)]
        for cp, _ in self.hand_uses(x, f, "submarine"):
            out.append(PlayCard(f, cp.id, cp.card, "submarine"))
            break
        return out

    def _legal_place(self, data: GameState, x: dict[str, Any], f: str) -> list[Order]:
        r = x["rein"]
        if r.get("groups"):
            return [PlaceBn(f, a, 3) for a in self._landing_areas(x)]
        return [PlaceBn(f, a, 1) for a in self._placement_areas(x, f)]

    def _legal_discard(self, data: GameState, x: dict[str, Any], f: str) -> list[Order]:
        seen = set()
        out: list[Order] = []
        for cid in x["hand"][f]:
            cp = self.copies[cid]
            if cp.card not in seen:
                seen.add(cp.card)
                out.append(Discard(f, cid, cp.card))
        return out

    def _placement_areas(self, x: dict[str, Any], f: str) -> list[str]:
        r = x["rein"]
        if f == NORWAY:  # 4.3: friendly mobilisation points and point cities, 1 each per round
            return [a for a in self.land if (a in self.mobilisation or a in self.point_cities)
                    and not self.hostile(x, f, a) and a not in r["placed"]]
        if f == ALLIES:  # 4.3: coasts of III-VII, not I/II
            return [a for a in self.land if self.allied_coast[a] and not self.hostile(x, f, a)]
        out = [a for a in self.land if self.german_coast[a] and not self.hostile(x, f, a)]
        if r["airlift"] and r["free"]:
            out += [a for a in self.airfields if x["bn"][GERMANS].get(a, 0) and a not in out]
        return out

    def _landing_areas(self, x: dict[str, Any]) -> list[str]:
        """3.5: the Allies' first battalions: 2 groups of 3 on III-VII coasts, not adjacent."""
        r = x["rein"]
        return [a for a in self.land if self.allied_coast[a] and not self.hostile(x, ALLIES, a)
                and not any(p in self.nbrs[a] or p == a for p in r["placed"])]

    # --- apply -----------------------------------------------------------------------------

    def apply(self, data: GameState, order: Order, dice: Dice) -> list[dict[str, Any]]:
        if data.over:
            raise IllegalOrder("the game is over", "1.3")
        if order.side != data.side:
            raise IllegalOrder(f"it is {data.side}'s decision, not {order.side}'s", "4")
        legal = self.legal_orders(data)
        if order not in legal:
            raise IllegalOrder(f"{order.text()} is not legal now ({data.extra['step']} step of {data.extra['f']}'s round)", "4")
        events: list[dict[str, Any]] = []
        self.apply_unchecked(data, order, dice, events)
        return events

    def apply_unchecked(self, data: GameState, order: Order, dice: Dice, events: list[dict[str, Any]]) -> None:
        """Apply an order already known to be legal (bots and the simulator)."""
        x = data.extra
        # the combat roll may come at the end of a chain of automatic steps; the dice travel
        # there per thread, since one game object serves many games (Dask threads, the sim)
        self._local.dice = dice
        getattr(self, f"_do_{x['step']}")(data, x, order, dice, events)

    def _use_card(self, x: dict[str, Any], f: str, cid: int, events: list, how: str = "played") -> None:
        """2.4: a used card goes to the bottom of its own deck, face up."""
        x["hand"][f].remove(cid)
        x["deck"][f].append(cid)
        x["used"] += 1
        x["cards_used"][f] += 1
        events.append({"type": "card", "faction": f, "card": self.copies[cid].card, "copy": cid, "how": how, "rule": "2.4"})

    def _add(self, x: dict[str, Any], f: str, a: str, n: int) -> None:
        d = x["bn"][f]
        d[a] = d.get(a, 0) + n
        if d[a] <= 0:
            del d[a]

    # movement (4.1)

    def _do_move(self, data: GameState, x: dict[str, Any], o: Order, dice: Dice, events: list) -> None:
        f = x["f"]
        if isinstance(o, Pass):
            events.append({"type": "phase_end", "faction": f, "phase": "movement", "rule": "4.1"})
            self._after_movement(data, x, events)
            return
        if isinstance(o, KMove):
            self._move(x, f, o.src, o.dst, o.n, events, "4.1")
            return
        assert isinstance(o, PlayCard)
        cp = self.copies[o.copy]
        u = cp.use("move")
        assert u is not None
        self._use_card(x, f, o.copy, events)
        if u.rapid or u.rail:
            self._move(x, f, o.src, o.path[-1], o.n, events, "4.1 " + cp.card, via=o.path[:-1])
        elif u.paradrop:  # Ex 3: a new battalion anywhere within air range
            x["para"] = {"target": o.target, "n": u.paradrop, "card": cp.card}
            for g in enemies(f):  # 4.1: a red-square Jagerfly may divert the landing (Ex 4)
                if len(self._legal_divert(data, x, g)) > 1:
                    self._ask(data, x, "divert", g)
                    return
            self._land_paratroops(data, x, o.target, events)
        elif u.airlift:
            self._move(x, f, o.src, o.target, o.n, events, "2.3 " + cp.card, air=True)
        elif u.invasion:  # Ex 2: cash cards now, land from the sea (attacking if hostile)
            sym = 0
            for k in o.cash:
                sym += self.copies[k].symbols
                self._use_card(x, f, k, events, "cashed")
            n = sym // 3
            if n:
                self._arrive(x, f, o.target, n, events, "Ex 2 " + cp.card)

    def _do_divert(self, data: GameState, x: dict[str, Any], o: Order, dice: Dice, events: list) -> None:
        where = x["para"]["target"]
        if isinstance(o, PlayCard):
            self._use_card(x, data.side, o.copy, events)
            events.append({"type": "diverted", "by": o.card, "from": where, "to": o.target, "rule": "4.1, Ex 4"})
            where = o.target
        self._land_paratroops(data, x, where, events)
        self._ask(data, x, "move", x["f"])

    def _land_paratroops(self, data: GameState, x: dict[str, Any], where: str, events: list) -> None:
        p = x.pop("para")
        self._arrive(x, x["f"], where, p["n"], events, "Ex 3 " + p["card"])

    def _move(self, x: dict[str, Any], f: str, a: str, b: str, n: int, events: list, rule: str,
              via: tuple[str, ...] = (), air: bool = False) -> None:
        self._add(x, f, a, -n)
        last = via[-1] if via else a
        if self.hostile(x, f, b):
            crossing = (last, b) in self.water and not air
            x["attacks"].setdefault(b, []).append([a if not via else last, n, crossing, False, a])
            if last not in x["from"]:
                x["from"].append(last)
            events.append({"type": "attack", "faction": f, "from": a, "via": list(via), "to": b, "n": n, "fjord": crossing, "rule": rule})
        else:
            self._add(x, f, b, n)
            x["fresh"][f][b] = x["fresh"][f].get(b, 0) + n
            events.append({"type": "move", "faction": f, "from": a, "via": list(via), "to": b, "n": n, "rule": rule})

    def _arrive(self, x: dict[str, Any], f: str, a: str, n: int, events: list, rule: str) -> None:
        """Battalions arriving by sea or air: they attack if the area is hostile and, losing,
        withdraw like defenders (4.2 step 8); they are never halved (digest ambiguity 5)."""
        if self.hostile(x, f, a):
            x["attacks"].setdefault(a, []).append(["", n, False, True, ""])
            events.append({"type": "attack", "faction": f, "from": "sea/air", "to": a, "n": n, "fjord": False, "rule": rule})
        else:
            self._add(x, f, a, n)
            x["fresh"][f][a] = x["fresh"][f].get(a, 0) + n
            events.append({"type": "arrive", "faction": f, "to": a, "n": n, "rule": rule})

    def _after_movement(self, data: GameState, x: dict[str, Any], events: list) -> None:
        if x["f"] == GERMANS and x["attacks"] and (self._legal_sabotage(data, x, NORWAY)[1:]):
            self._ask(data, x, "sabotage", NORWAY)  # 4.1 1c
            return
        self._start_combats(data, x, events)

    # 1c: sabotage and escape

    def _do_sabotage(self, data: GameState, x: dict[str, Any], o: Order, dice: Dice, events: list) -> None:
        if isinstance(o, Pass):
            self._start_combats(data, x, events)
            return
        assert isinstance(o, PlayCard)
        self._use_card(x, NORWAY, o.copy, events)
        if o.slot == "escape":  # 4.1 1c: flee out of an area under attack
            n = x["bn"][NORWAY].get(o.src, 0)
            self._add(x, NORWAY, o.src, -n)
            self._add(x, NORWAY, o.target, n)
            events.append({"type": "escape", "faction": NORWAY, "from": o.src, "to": o.target, "n": n, "rule": "4.1 1c"})
            self._drop_empty_attacks(x, events)
            self._next_sabotage(data, x, events)
            return
        x["sab"] = {"copy": o.copy, "target": o.target, "src": o.src}
        if len(self._legal_counter(data, x, GERMANS)) > 1:
            self._ask(data, x, "counter", GERMANS)
            return
        self._resolve_sabotage(data, x, events, cancelled=False)

    def _do_counter(self, data: GameState, x: dict[str, Any], o: Order, dice: Dice, events: list) -> None:
        if isinstance(o, PlayCard):
            self._use_card(x, GERMANS, o.copy, events)
        self._resolve_sabotage(data, x, events, cancelled=isinstance(o, PlayCard))

    def _resolve_sabotage(self, data: GameState, x: dict[str, Any], events: list, cancelled: bool) -> None:
        s = x["sab"]
        x["sab"] = None
        card = self.copies[s["copy"]].card
        if cancelled:
            events.append({"type": "sabotage_cancelled", "card": card, "rule": "4.1 1c"})
        else:  # Ex 1: the battalions from that area go back where they came from
            groups = x["attacks"].get(s["target"], [])
            back = [g for g in groups if g[0] == s["src"]]
            for g in back:
                groups.remove(g)
                self._add(x, GERMANS, g[0], g[1])
                events.append({"type": "sent_back", "card": card, "from": g[0], "to": g[0], "n": g[1], "target": s["target"], "rule": "4.1 1c"})
            if not groups:
                x["attacks"].pop(s["target"], None)
        self._next_sabotage(data, x, events)

    def _next_sabotage(self, data: GameState, x: dict[str, Any], events: list) -> None:
        if x["attacks"] and len(self._legal_sabotage(data, x, NORWAY)) > 1:
            self._ask(data, x, "sabotage", NORWAY)
        else:
            self._start_combats(data, x, events)

    def _drop_empty_attacks(self, x: dict[str, Any], events: list) -> None:
        """An attacked area left empty (by escape) is simply entered: no combat."""
        f = x["f"]
        for a in list(x["attacks"]):
            if not self.hostile(x, f, a):
                for g in x["attacks"].pop(a):
                    self._add(x, f, a, g[1])
                    x["fresh"][f][a] = x["fresh"][f].get(a, 0) + g[1]
                events.append({"type": "entered", "faction": f, "area": a, "rule": "4.1"})

    # combat (4.2)

    def _start_combats(self, data: GameState, x: dict[str, Any], events: list) -> None:
        self._drop_empty_attacks(x, events)
        self._next_combat(data, x, events)

    def _next_combat(self, data: GameState, x: dict[str, Any], events: list) -> None:
        if data.over:
            return
        if not x["attacks"]:
            self._reinforcement_phase(data, x, events)
            return
        if len(x["attacks"]) == 1:
            self._begin_combat(data, x, next(iter(x["attacks"])), events)
            return
        self._ask(data, x, "pick", x["f"])

    def _do_pick(self, data: GameState, x: dict[str, Any], o: Order, dice: Dice, events: list) -> None:
        assert isinstance(o, Fight)
        self._begin_combat(data, x, o.area, events)

    def _begin_combat(self, data: GameState, x: dict[str, Any], area: str, events: list) -> None:
        f = x["f"]
        groups = x["attacks"].pop(area)
        dn = {e: x["bn"][e].get(area, 0) for e in enemies(f) if x["bn"][e].get(area, 0)}
        x["combat"] = {"area": area, "att": f, "groups": groups, "dn": dn, "cards": [], "cancelled": [],
                       "types": {f: [], "def": []}, "defq": list(enemies(f))}
        events.append({"type": "combat", "area": area, "attacker": f, "attackers": sum(g[1] for g in groups),  # a copy: events never change
                       "defenders": dict(dn), "rule": "4.2"})
        self._combat_step(data, x, "attack", f, events)

    def _combat_step(self, data: GameState, x: dict[str, Any], step: str, f: str, events: list) -> None:
        """Ask ``f`` for cards at ``step`` unless it has none to play."""
        if step == "defend":
            c = x["combat"]
            while c["defq"]:
                g = c["defq"].pop(0)
                if len(self._combat_cards(x, g, "defend")) > 1:
                    self._ask(data, x, "defend", g)
                    return
            self._combat_step(data, x, "react", c["att"], events)
            return
        if len(self._combat_cards(x, f, step)) > 1:
            self._ask(data, x, step, f)
            return
        if step == "attack":
            self._combat_step(data, x, "defend", f, events)
        else:
            self._roll(data, x, events)

    def _play_combat_card(self, x: dict[str, Any], f: str, o: PlayCard, events: list) -> None:
        c = x["combat"]
        cp = self.copies[o.copy]
        u = cp.use(o.slot)
        assert u is not None
        self._use_card(x, f, o.copy, events)
        c["cards"].append([o.copy, f, o.slot])
        c["types"][c["att"] if f == c["att"] else "def"].append(cp.type)
        for k, owner, _ in c["cards"]:
            if k not in c["cancelled"] and owner != f and self.copies[k].type in u.cancels:
                c["cancelled"].append(k)
                events.append({"type": "cancelled", "card": self.copies[k].card, "by": cp.card, "rule": "4.2"})

    def _do_attack(self, data: GameState, x: dict[str, Any], o: Order, dice: Dice, events: list) -> None:
        f = x["f"]
        if isinstance(o, Pass):
            self._combat_step(data, x, "defend", f, events)
            return
        assert isinstance(o, PlayCard)
        self._play_combat_card(x, f, o, events)
        self._combat_step(data, x, "attack", f, events)

    def _do_defend(self, data: GameState, x: dict[str, Any], o: Order, dice: Dice, events: list) -> None:
        g = data.side
        if isinstance(o, PlayCard):
            self._play_combat_card(x, g, o, events)
            if len(self._combat_cards(x, g, "defend")) > 1:
                return  # the same defender may add another card
        self._combat_step(data, x, "defend", g, events)

    def _do_react(self, data: GameState, x: dict[str, Any], o: Order, dice: Dice, events: list) -> None:
        f = x["f"]
        if isinstance(o, Pass):
            self._roll(data, x, events)
            return
        assert isinstance(o, PlayCard)
        self._play_combat_card(x, f, o, events)
        self._combat_step(data, x, "react", f, events)

    def combat_dice(self, x: dict[str, Any]) -> tuple[int, int, list[dict[str, Any]]]:
        """Return (attacker dice, defender dice, ledger) of the current combat (4.2)."""
        c = x["combat"]
        ledger: list[dict[str, Any]] = []
        groups = [(g[1], bool(g[2])) for g in c["groups"]]
        a_bn = battalion_dice(groups)
        ledger.append({"side": "attacker", "what": f"battalions {sum(n for n, _ in groups)}"
                       + (" (across fjord/lake: halved)" if any(h for _, h in groups) else "") + ", at most 5", "dice": a_bn, "rule": "4.2"})
        d_bn = battalion_dice([(sum(c["dn"].values()), False)])
        joint = " (Norway and Allies together)" if len(c["dn"]) > 1 else ""
        ledger.append({"side": "defender", "what": f"battalions {sum(c['dn'].values())}, at most 5{joint}", "dice": d_bn, "rule": "4.2"})
        a, d = a_bn, d_bn
        for k, owner, slot in c["cards"]:
            cp = self.copies[k]
            slot_side = "attacker" if owner == c["att"] else "defender"
            u = cp.use(slot)
            n = cp.dice_for(u) if u else 0
            if k in c["cancelled"]:
                ledger.append({"side": slot_side, "what": f"{cp.name} (cancelled)", "dice": 0, "rule": "4.2"})
                continue
            if n:
                ledger.append({"side": slot_side, "what": cp.name, "dice": n, "rule": "4.2 (card dice are not capped or halved)"})
                if slot_side == "attacker":
                    a += n
                else:
                    d += n
        return a, d, ledger

    def _roll(self, data: GameState, x: dict[str, Any], events: list) -> None:
        c = x["combat"]
        a, d, ledger = self.combat_dice(x)
        dice = self._local.dice
        ra = dice.roll(a, "attack") if a else None
        rd = dice.roll(d, "defence") if d else None
        fa = ra.faces if ra else ()
        fd = rd.faces if rd else ()
        ta, td = sum(fa), sum(fd)
        att_n = sum(g[1] for g in c["groups"])
        def_n = sum(c["dn"].values())
        dkill = min(fa.count(6), def_n)  # 4.2 step 4: each 6 kills a defending battalion
        akill = min(fd.count(6), att_n)  # step 5: the defender rolls for all, the killed too
        c.update({"a_dice": a, "d_dice": d, "a_faces": list(fa), "d_faces": list(fd), "a_total": ta, "d_total": td,
                  "dkill": dkill, "akill": akill, "win": ta > td, "ledger": ledger})
        events.append({"type": "combat_roll", "area": c["area"], "attacker": list(fa), "defender": list(fd),
                       "totals": [ta, td], "kills": [dkill, akill], "ledger": ledger, "rule": "4.2 steps 4-5"})
        # step 6: remove the killed; the attacker takes them from its largest groups
        left = akill
        for g in sorted(c["groups"], key=lambda g: -g[1]):
            k = min(left, g[1])
            g[1] -= k
            left -= k
        c["groups"] = [g for g in c["groups"] if g[1] > 0]
        x["losses"][c["att"]] += akill
        if dkill and len(c["dn"]) == 2:
            self._ask(data, x, "split", NORWAY)  # 4.2 step 6: NO and AL agree who is lost
            return
        if dkill:
            (g,) = c["dn"]
            self._kill_defenders(x, {g: dkill}, events)
        self._after_removal(data, x, events)

    def _kill_defenders(self, x: dict[str, Any], kills: dict[str, int], events: list) -> None:
        c = x["combat"]
        for g, k in kills.items():
            if not k:
                continue
            c["dn"][g] -= k
            self._add(x, g, c["area"], -k)
            x["losses"][g] += k
            if c["dn"][g] <= 0:
                del c["dn"][g]
            if g == ALLIES:
                c["al_lost"] = c.get("al_lost", 0) + k
        events.append({"type": "eliminated", "area": c["area"], "defenders": kills, "attackers": c["akill"], "rule": "4.2 step 6"})

    def _do_split(self, data: GameState, x: dict[str, Any], o: Order, dice: Dice, events: list) -> None:
        assert isinstance(o, Split)
        self._kill_defenders(x, {NORWAY: o.norwegians, ALLIES: o.allies}, events)
        self._after_removal(data, x, events)

    def _after_removal(self, data: GameState, x: dict[str, Any], events: list) -> None:
        c = x["combat"]
        if c.get("al_lost") and len(self._legal_evac(data, x, ALLIES)) > 1:
            self._ask(data, x, "evac", ALLIES)
            return
        self._decide(data, x, events)

    def _do_evac(self, data: GameState, x: dict[str, Any], o: Order, dice: Dice, events: list) -> None:
        if isinstance(o, PlayCard):  # Ex 3: one lost battalion is saved to another coastal area
            self._use_card(x, ALLIES, o.copy, events)
            self._add(x, ALLIES, o.target, 1)
            x["losses"][ALLIES] -= 1
            x["combat"]["al_lost"] -= 1
            events.append({"type": "evacuated", "faction": ALLIES, "to": o.target, "rule": "Ex 3"})
        self._decide(data, x, events)

    def _decide(self, data: GameState, x: dict[str, Any], events: list) -> None:
        """Steps 7-8: the higher total wins; ties to the defender; the loser withdraws."""
        c = x["combat"]
        f, area = c["att"], c["area"]
        events.append({"type": "combat_result", "area": area, "winner": "attacker" if c["win"] else "defender",
                       "totals": [c["a_total"], c["d_total"]], "rule": "4.2 step 7"})
        if c["win"]:
            for g in c["groups"]:  # the winner takes the area
                self._add(x, f, area, g[1])
                x["fresh"][f][area] = x["fresh"][f].get(area, 0) + g[1]
            c["groups"] = []  # they are on the board now
            survivors = {g: n for g, n in c["dn"].items() if n > 0}
            if survivors:
                self._withdraw_defenders(data, x, survivors, events)
                return
        else:
            sea_air = sum(g[1] for g in c["groups"] if g[3])
            for g in c["groups"]:
                if not g[3]:
                    self._add(x, f, g[0], g[1])  # back to the area attacked from
            if c["groups"]:
                events.append({"type": "attack_repulsed", "area": area, "rule": "4.2 step 8"})
            c["groups"] = []
            if sea_air:
                self._withdraw_arrivals(data, x, sea_air, events)
                return
        self._end_combat(data, x, events)

    def _retreat_areas(self, x: dict[str, Any], factions: Iterable[str], area: str) -> list[str]:
        """4.2 step 8: one adjacent land area, not enemy-held, not an unresolved combat, not
        attacked from this round; Germans and Allies never across a fjord or lake (Norway may, S1)."""
        fs = list(factions)
        no_water = any(g in (GERMANS, ALLIES) for g in fs)
        me = fs[0]
        out = []
        for b in self.nbrs[area]:
            if no_water and (area, b) in self.water:
                continue
            if self.hostile(x, me, b) or b in x["attacks"] or (me != x["f"] and b in x["from"]):
                continue
            out.append(b)
        return out

    def _withdraw_defenders(self, data: GameState, x: dict[str, Any], survivors: dict[str, int], events: list) -> None:
        c = x["combat"]
        opts = self._retreat_areas(x, survivors, c["area"])
        c["retreat_to"], c["retreating"] = opts, survivors
        if not opts:  # surrounded: all are lost
            for g, n in survivors.items():
                self._add(x, g, c["area"], -n)
                x["losses"][g] += n
            events.append({"type": "surrounded", "area": c["area"], "lost": survivors, "rule": "4.2 step 8"})
            self._end_combat(data, x, events)
            return
        self._ask(data, x, "withdraw", NORWAY if NORWAY in survivors else next(iter(survivors)))

    def _withdraw_arrivals(self, data: GameState, x: dict[str, Any], n: int, events: list) -> None:
        c = x["combat"]
        f = c["att"]
        opts = self._retreat_areas(x, [f], c["area"])
        c["retreat_to"], c["retreating"] = opts, {f: n}
        c["arrivals"] = True
        if not opts:
            x["losses"][f] += n
            events.append({"type": "surrounded", "area": c["area"], "lost": {f: n}, "rule": "4.2 step 8"})
            self._end_combat(data, x, events)
            return
        self._ask(data, x, "withdraw", f)

    def _do_withdraw(self, data: GameState, x: dict[str, Any], o: Order, dice: Dice, events: list) -> None:
        assert isinstance(o, Withdraw)
        c = x["combat"]
        for g, n in c["retreating"].items():
            if not c.get("arrivals"):
                self._add(x, g, c["area"], -n)
            self._add(x, g, o.area, n)
        events.append({"type": "withdraw", "from": c["area"], "to": o.area, "battalions": c["retreating"], "rule": "4.2 step 8"})
        self._end_combat(data, x, events)

    def _end_combat(self, data: GameState, x: dict[str, Any], events: list) -> None:
        x["combat"] = None
        if self._wiped_out(data, x, events):
            return
        self._next_combat(data, x, events)

    def _wiped_out(self, data: GameState, x: dict[str, Any], events: list) -> bool:
        """1.3: the game ends the moment one side has no battalions on the board."""
        de = sum(x["bn"][GERMANS].values())
        co = sum(x["bn"][NORWAY].values()) + sum(x["bn"][ALLIES].values())
        pending = sum(g[1] for gs in x["attacks"].values() for g in gs)
        combat = x["combat"]
        if combat:
            pending += sum(g[1] for g in combat["groups"])
        if de + (pending if x["f"] == GERMANS else 0) == 0:
            self._end(data, x, "all German battalions eliminated", events)
            return True
        if co + (pending if x["f"] != GERMANS else 0) == 0 and (x["landing"] == 0):
            self._end(data, x, "all Norwegian and Allied battalions eliminated", events)
            return True
        return False

    # reinforcement (4.3)

    def _reinforcement_phase(self, data: GameState, x: dict[str, Any], events: list) -> None:
        f = x["f"]
        x["rein"] = {"symbols": 0, "free": 1 if f == GERMANS else 0, "airlift": False, "placed": [], "n": 0, "groups": 0}
        if f == ALLIES and x["landing"]:  # 3.5: the 6 Allied battalions of the first phase 3
            x["rein"]["groups"] = (self.spec.allied_landing or {}).get("groups", 2)
            x["landing"] = 0
            self._ask(data, x, "place", ALLIES)
            return
        if not self.spec.reinforcements:
            self._new_cards(data, x, events)  # S1: no phase 3
            return
        self._ask(data, x, "reinforce", f)

    def _do_reinforce(self, data: GameState, x: dict[str, Any], o: Order, dice: Dice, events: list) -> None:
        f = x["f"]
        r = x["rein"]
        if isinstance(o, Cash):
            r["symbols"] += self.copies[o.copy].symbols
            self._use_card(x, f, o.copy, events, "cashed")
            return
        if isinstance(o, PlayCard):
            self._use_card(x, f, o.copy, events)
            r["airlift"] = True
            return
        bought = r["symbols"] // 3  # 4.3: 3 symbols buy 1 battalion, leftovers are lost
        r["n"] = bought + r["free"]
        events.append({"type": "reinforcements", "faction": f, "symbols": r["symbols"], "bought": bought, "free": r["free"], "rule": "4.3"})
        opp = ALLIES if f == GERMANS else GERMANS
        if bought and len(self._legal_submarine(data, x, opp)) > 1:
            self._ask(data, x, "submarine", opp)
            return
        self._placing(data, x, events)

    def _do_submarine(self, data: GameState, x: dict[str, Any], o: Order, dice: Dice, events: list) -> None:
        if isinstance(o, PlayCard):
            self._use_card(x, data.side, o.copy, events)
            x["rein"]["n"] -= 1
            events.append({"type": "sunk_reinforcement", "faction": x["f"], "rule": "4.3 (Ubåt, authored)"})
        self._placing(data, x, events)

    def _placing(self, data: GameState, x: dict[str, Any], events: list) -> None:
        f = x["f"]
        if x["rein"]["n"] > 0 and self._placement_areas(x, f):
            self._ask(data, x, "place", f)
        else:
            self._new_cards(data, x, events)

    def _do_place(self, data: GameState, x: dict[str, Any], o: Order, dice: Dice, events: list) -> None:
        assert isinstance(o, PlaceBn)
        f = x["f"]
        r = x["rein"]
        self._add(x, f, o.area, o.n)
        r["placed"].append(o.area)
        events.append({"type": "placed", "faction": f, "area": o.area, "n": o.n, "rule": "3.5" if r["groups"] else "4.3"})
        if r["groups"]:
            r["groups"] -= 1
            if r["groups"] and self._landing_areas(x):
                return
            r["groups"] = 0
            if self.spec.reinforcements:
                self._ask(data, x, "reinforce", f)
            else:
                self._new_cards(data, x, events)
            return
        r["n"] -= 1
        if f == GERMANS and r["free"]:
            r["free"] = 0
        if r["n"] > 0 and self._placement_areas(x, f):
            return
        self._new_cards(data, x, events)

    # new cards (4.4) and the round

    def _new_cards(self, data: GameState, x: dict[str, Any], events: list) -> None:
        f = x["f"]
        if f in self.spec.must_play and x["used"] == 0 and x["hand"][f] and x["down"][f] > 0:
            self._ask(data, x, "discard", f)  # 4.4: no card used: discard one, draw one
            return
        self._finish_round(data, x, events)

    def _do_discard(self, data: GameState, x: dict[str, Any], o: Order, dice: Dice, events: list) -> None:
        assert isinstance(o, Discard)
        f = x["f"]
        x["hand"][f].remove(o.copy)
        x["deck"][f].append(o.copy)  # digest ambiguity 9: to the bottom, face up
        events.append({"type": "discard", "faction": f, "card": o.card, "rule": "4.4"})
        self._finish_round(data, x, events)

    def _draw(self, data: GameState, f: str, n: int, events: list) -> None:
        x = data.extra
        for _ in range(n):
            if x["down"][f] <= 0:
                break
            cid = x["deck"][f].pop(0)
            x["down"][f] -= 1
            x["hand"][f].append(cid)
            if x["down"][f] == 0:
                self._exhausted(data, f, events)
                if data.over:
                    return

    def _exhausted(self, data: GameState, f: str, events: list) -> None:
        """2.4: what happens when the first face-up card shows on top of a deck."""
        x = data.extra
        events.append({"type": "deck_exhausted", "faction": f, "rule": "2.4"})
        if self.spec.end == "allied_deck":
            if f == ALLIES:
                self._end(data, x, "the Allies drew their last unused card (S1)", events)
            return  # S1: no new cards once a deck is used up
        if f == GERMANS:
            self._end(data, x, "the German deck is exhausted (1.3)", events)
        elif f == NORWAY:  # reshuffle the used cards face down
            rng = random.Random(f"kampen-reshuffle:{data.seed}:{data.turn}")
            used = x["deck"][f]
            rng.shuffle(used)
            x["down"][f] = len(used)
            events.append({"type": "reshuffle", "faction": f, "cards": len(used), "rule": "2.4"})
        else:  # Allies: no more cards; remove 4 battalions (the largest stacks first)
            left = 4
            for a, n in sorted(x["bn"][ALLIES].items(), key=lambda kv: (-kv[1], kv[0])):
                k = min(left, n)
                self._add(x, ALLIES, a, -k)
                left -= k
                if not left:
                    break
            x["down"][f] = -1  # never draws again
            events.append({"type": "allied_withdrawal", "battalions": 4 - left, "rule": "2.4"})

    def _finish_round(self, data: GameState, x: dict[str, Any], events: list) -> None:
        f = x["f"]
        need = self.spec.hands[f] - len(x["hand"][f])
        if need > 0:
            self._draw(data, f, need, events)
            events.append({"type": "draw", "faction": f, "hand": len(x["hand"][f]), "rule": "4.4"})
        if data.over:
            return
        if self._wiped_out(data, x, events):
            return
        nxt = FACTIONS[(FACTIONS.index(f) + 1) % 3]
        if nxt == GERMANS:
            data.turn += 1
        x.update({"f": nxt, "used": 0, "attacks": {}, "from": [], "rein": None})
        x["fresh"] = {g: {} for g in FACTIONS}
        events.append({"type": "round", "faction": nxt, "game_round": data.turn, "rule": "4"})
        self._ask(data, x, "move", nxt)

    def _end(self, data: GameState, x: dict[str, Any], why: str, events: list) -> None:
        data.over = True
        x["ended"] = why
        winner, level = self._standing(x)
        data.winner = winner
        events.append({"type": "game_over", "why": why, "winner": winner, "level": level, "rule": "1.3" if self.spec.end == "german_deck" else "S1"})

    def _standing(self, x: dict[str, Any]) -> tuple[str | None, str]:
        """1.3 / S1: who wins if the game ended now."""
        de = x["bn"][GERMANS]
        co = {a: x["bn"][NORWAY].get(a, 0) + x["bn"][ALLIES].get(a, 0) for a in self.land}
        if not sum(de.values()):
            return ALLIES, "Norway and Allies: clear victory (all German battalions eliminated)"
        if not sum(co.values()) and not x["landing"]:
            return GERMANS, "Germany: clear victory (all Norwegian and Allied battalions eliminated)"
        if isinstance(self.spec.victory, dict):  # S1
            objs = self.objectives()
            if any(de.get(a, 0) for a in objs):
                return GERMANS, "Germany wins: it still occupies " + ", ".join(a for a in objs if de.get(a, 0))
            if all(co.get(a, 0) for a in objs):
                return ALLIES, "Norway and Allies win: they control Narvik, Bjørnfjell and Bardufoss"
            return None, "no winner: an objective is empty (digest ambiguity 28)"
        held = [a for a in self.point_cities if not de.get(a, 0)]  # 1.3: empty cities count as Norwegian
        if not held:
            bns = sum(co.values())
            return GERMANS, ("Germany: clear victory (all point cities, 3 or fewer NO+AL battalions)" if bns <= 3
                             else "Germany: narrow victory (all point cities)")
        if len(held) >= 2:
            return ALLIES, f"Norway and Allies: clear victory ({len(held)} point cities)"
        return ALLIES, "Norway and Allies: narrow victory (1 point city)"

    def _ask(self, data: GameState, x: dict[str, Any], step: str, side: str) -> None:
        x["step"] = step
        data.side = side
        data.phase = step


def kampen_game(scenario: str = "intro-narvik", board: Board | None = None) -> KampenGame:
    """Return the Kampen om Norge ruleset for a scenario (``intro-narvik`` or ``basic``)."""
    return KampenGame(scenario, board)


def combat_odds(game: KampenGame, attack: int, defend: int, fjord: bool = False,
                attack_cards: Iterable[str] = (), defend_cards: Iterable[str] = ()) -> dict[str, Any]:
    """Exact odds of one land combat (4.2) by enumeration: dice, cancellations, P(win), losses.

    Cards are card ids, ``panzer=2`` for a copy with 2 dice. Cancels apply both ways as the
    8-step sequence allows (Speidertropp cancels Bakhold, Panservernkanon Panzer, ...).
    """
    from hexwar.rules.dicecombat import outcomes

    def parse(names: Iterable[str], slots: tuple[str, ...], against: set[str]) -> list[tuple[str, int, CardUse | None]]:
        out = []
        for raw in names:
            name, _, val = raw.partition("=")
            name, _, slot = name.strip().partition("@")
            if name not in game.cards.cards:
                raise ValueError(f"unknown card {name!r}; cards: {', '.join(sorted(game.cards.cards))}")
            spec = game.cards.cards[name]
            uses = [u for u in spec.uses if u.slot in ((slot,) if slot else slots)]
            # a card that can counter one of the other side's cards is played to counter it
            use = next((u for u in uses if set(u.cancels) & against), None) or next(iter(uses), None)
            dice = int(val) if val else (use.dice if use else 0)
            out.append((spec.type, dice if use and use.dice else 0, use))
        return out

    def types(names: Iterable[str]) -> set[str]:
        out = set()
        for raw in names:
            n = raw.partition("=")[0].partition("@")[0].strip()
            if n in game.cards.cards:
                out.add(game.cards.cards[n].type)
        return out

    attack_cards, defend_cards = list(attack_cards), list(defend_cards)
    att = parse(attack_cards, ("attack", "react"), types(defend_cards))
    dfn = parse(defend_cards, ("defend",), types(attack_cards))
    cancelled_att = {t for _, _, u in dfn if u for t in u.cancels}
    cancelled_def = {t for _, _, u in att if u for t in u.cancels}
    ledger: list[str] = []

    def card_dice(who: str, cards: list[tuple[str, int, CardUse | None]], cancelled: set[str]) -> int:
        total = 0
        for t, n, _ in cards:
            if n:
                live = t not in cancelled
                total += n if live else 0
                ledger.append(f"{who}: {t} +{n}{'' if live else ' (cancelled)'} [4.2]")
        return total

    a = battalion_dice([(attack, fjord)])
    ledger.append(f"attacker: {attack} battalions{' across a fjord/lake (halved)' if fjord else ''}, at most 5: {a} dice [4.2]")
    a += card_dice("attacker", att, cancelled_att)
    d = battalion_dice([(defend, False)])
    ledger.append(f"defender: {defend} battalions, at most 5: {d} dice [4.2]")
    d += card_dice("defender", dfn, cancelled_def)
    dist = outcomes(a, d)
    from fractions import Fraction

    win = sum((p for (w, _, _), p in dist.items() if w), Fraction(0))
    def_loss: dict[int, Fraction] = {}
    att_loss: dict[int, Fraction] = {}
    for (_, kd, ka), p in dist.items():
        def_loss[min(kd, defend)] = def_loss.get(min(kd, defend), Fraction(0)) + p
        att_loss[min(ka, attack)] = att_loss.get(min(ka, attack), Fraction(0)) + p
    return {"attacker_dice": a, "defender_dice": d, "attacker_wins": win, "defender_wins": 1 - win,
            "defender_losses": dict(sorted(def_loss.items())), "attacker_losses": dict(sorted(att_loss.items())),
            "ledger": ledger}
