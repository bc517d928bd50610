"""Kampen om Norge, the basic game and Scenario 1, on any ``Board`` (rules 1-4, S1).

Three factions play rounds in a fixed order, Germany, Norway, the Allies (4); each round
has four phases: movement (4.1, with Norway's sabotage and escape 1c in the German round),
combat (4.2, the 8-step sequence), reinforcement (4.3) and new cards (4.4). Norway and the
Allies are one side for victory (1.2, 1.3): ``result().winner`` is ``germans`` or ``allies``.
The sequence and its decisions are listed in ``sequence``; each phase is a module of
``phases``. ``apply`` changes the state in place, so the fast simulator drives the ruleset
without copies (``PlayState`` copies for undo and safety).
"""

# hexwar: native (compiled by mypyc for batches: see hexwar/native.py)
from __future__ import annotations

import copy
from typing import Any, Collection

import networkx as nx

from hexwar.board.base import Board
from hexwar.core.events import strip_hidden
from hexwar.core.dice import Dice
from hexwar.core.engine import Game, Refusals, Result
from hexwar.core.orders import IllegalOrder, Order, Pass
from hexwar.data.loader import DataError, Library, Problem, _rel, default_library
from hexwar.games.kampen import events as E
from hexwar.games.kampen.board_facts import board_facts
from hexwar.games.kampen.cards import Copy, build_copies
from hexwar.games.kampen.ships import ShipCard, build_fleet
from hexwar.games.kampen.orders import ORDERS, KMove, PlayCard
from hexwar.games.kampen.phases import april, cards, combat, victory
from hexwar.games.kampen.schemas import CardUse, KampenCardsSpec, KampenFleetSpec, KampenScenarioSpec
from hexwar.games.kampen.sequence import DECISIONS
from hexwar.games.kampen.state import (
    ALLIES,
    COALITION,
    FACTIONS,
    GERMANS,
    NORWAY,
    KampenData,
    Ship,
    enemies,
)

#: a card face down: in another faction's hand, or unused in a deck
HIDDEN_CARD = -1

#: card-play orders kept at most (a long batch of the basic game holds about 26,000: the
#: paths and cashes of card moves are many)
PLAYS_KEPT = 50_000

__all__ = ["ALLIES", "FACTIONS", "GERMANS", "NORWAY", "KampenGame", "enemies", "kampen_game"]


def _face_down(cards: list[int], down: int) -> list[int]:
    """A deck as a table sees it (2.4): its top ``down`` cards face down, the rest face up."""
    if down <= 0:
        return list(cards)
    return [HIDDEN_CARD] * down + cards[down:]


class KampenGame(Game[KampenData]):
    """The ruleset: board, cards and scenario (frozen); states are ``KampenData``."""

    name = "kampen"
    orders = ORDERS
    events = E.EVENTS
    state_type = KampenData
    #: over: how to win (1.3); not an order, not now: the sequence of play (4)
    refusals = Refusals(over="1.3", foreign=ORDERS.rule, not_now="4")

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
        facts = board_facts(board, self.spec.region)
        self.land, self.nbrs, self.water, self.coasts = facts.land, facts.nbrs, facts.water, facts.coasts
        self.mined_coast, self.allied_coast, self.german_coast = facts.mined_coast, facts.allied_coast, facts.german_coast
        self.point_cities, self.mobilisation, self.airfields = facts.point_cities, facts.mobilisation, facts.airfields
        self.from_germany, self.reach = facts.from_germany, facts.reach
        self.copies, self.decks = build_copies(self.cards, self.spec, lib, scenario)
        self.april_decks = {f: self.decks.pop(f"april9:{f}", []) for f in FACTIONS}
        # the advanced game (rules 5-8): the fleets and the sea areas
        self.advanced = self.spec.advanced
        self.fleet: list[ShipCard] = []
        self.fleet_spec: KampenFleetSpec | None = None
        self.seas, self.sea_nbrs, self.sea_coast = facts.seas, facts.sea_nbrs or {}, facts.sea_coast or {}
        self.mined, self.open_sea = facts.mined, facts.open_sea
        self.raid_exits: tuple[str, ...] = ()
        self.bardufoss_sea: tuple[str, str] | None = None
        if self.advanced is not None:
            self.fleet_spec = lib.load("oob", "kampen-fleet", "kampen_fleet")
            self.fleet = build_fleet(self.fleet_spec)
            self._check_sea()
        self._check()
        self._moves: dict[tuple[str, str, str, int], KMove] = {}
        self._plays: dict[tuple[Any, ...], PlayCard] = {}
        self._move_blocks: dict[tuple[str, str, int], tuple[KMove, ...]] = {}  # (faction, area, movable)
        self._paths: dict[tuple[Any, ...], list[tuple[str, ...]]] = {}  # card moves' paths (movement.paths)
        self._within: dict[tuple[str, int], frozenset[str]] = {}
        self.passes = {f: Pass(f) for f in FACTIONS}
        self._objectives: list[str] | None = None
        self._goal_dist: dict[str, int] | None = None  # the priority bot's distance table, per game object
        self._all_dist: dict[str, dict[str, int]] | None = None  # area-to-area steps (``steps``)

    def sea_faces(self, kind: str) -> list[int]:
        """The die faces that intercept (8.1) or mobilise a city's resistance (7.2)."""
        assert self.fleet_spec is not None
        return self.fleet_spec.dice[kind].faces  # type: ignore[index]

    def _check_sea(self) -> None:
        """The advanced game needs the board's sea areas I-VIII (2.3, 5.1)."""
        adv = self.advanced
        assert adv is not None
        file = _rel(self.library.path("oob", f"kampen/{self.scenario}"))
        if len(self.seas) < 8 or not self.mined or not self.open_sea:
            raise DataError([Problem(file, "board", f"board {self.board.name} has no sea areas I-VIII with the mined "
                                                   "I and II and the open VIII: the advanced game needs them (rules 2.3, 5.1)")])
        # 7.2: the raid field lies next to the seas German raiders leave from (VI, VII, VIII)
        bad = [s for s in adv.raid_seas if s not in self.seas]
        if bad:
            raise DataError([Problem(file, "advanced.raid_seas", f"{bad[0]!r} is not a sea area of board {self.board.name} (rules 7.2)")])
        self.raid_exits = tuple(adv.raid_seas)
        af, sea = adv.bardufoss_sea["airfield"], adv.bardufoss_sea["sea"]
        if sea not in self.seas:
            raise DataError([Problem(file, "advanced.bardufoss_sea.sea", f"{sea!r} is not a sea area of board {self.board.name} (rules 5.1)")])
        self.bardufoss_sea = (self.loc(af), sea)

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

    # --- typed queries (phases, bots and the play loop read the state through these) ---------

    def loc(self, name: str) -> str:
        """Resolve a scenario's place name on this board: an area id, or a place so named."""
        if name in self.nbrs:
            return name
        for p in self.board.places():
            if name in (p.name, slug(p.name)) and p.location in self.nbrs:
                return p.location
        raise KeyError(name)

    def objectives(self) -> list[str]:
        """The areas victory is about: S1's three objectives, or the point cities (1.3)."""
        if self._objectives is None:
            if isinstance(self.spec.victory, dict):
                self._objectives = [self.loc(n) for n in self.spec.victory["objectives"]]
            else:
                self._objectives = list(self.point_cities)
        return self._objectives

    def objective_names(self) -> dict[str, str]:
        """Objective area -> the name the scenario gives it (S1) or its own id."""
        if isinstance(self.spec.victory, dict):
            return dict(zip(self.objectives(), self.spec.victory["objectives"]))
        return {a: a for a in self.objectives()}

    def air_range(self, d: KampenData) -> frozenset[str]:
        """2.3: land areas German air cards reach: south of the "Fra Tyskland" line, or in
        range of an airfield held by German battalions."""
        out = set(self.from_germany)
        de = d.bn[GERMANS]
        for f in self.airfields:
            if de.get(f, 0) > 0:
                out |= self.reach[f]
        return frozenset(out)

    def hostile(self, d: KampenData, f: str, a: str) -> bool:
        """Whether an area holds battalions of ``f``'s enemies."""
        bn = d.bn
        for e in enemies(f):
            if bn[e].get(a, 0):
                return True
        return False

    def steps(self) -> dict[str, dict[str, int]]:
        """Land area -> area -> the fewest borders between them (4.1), built once per game
        object (the priority bot's plan and ``within`` read it)."""
        if self._all_dist is None:
            graph = nx.Graph([(u, v) for u, ns in self.nbrs.items() for v in ns])
            graph.add_nodes_from(self.land)
            self._all_dist = {a: dict(nx.single_source_shortest_path_length(graph, a)) for a in self.land}
        return self._all_dist

    def within(self, a: str, steps: int) -> frozenset[str]:
        """The areas at most ``steps`` borders from ``a`` (``a`` too), once per game object:
        as far as a card move (4.1, Rask forflytning, Jernbane) can look."""
        key = (a, steps)
        hit = self._within.get(key)
        if hit is None:
            hit = self._within[key] = frozenset(b for b, k in self.steps()[a].items() if k <= steps)
        return hit

    def hostile_areas(self, d: KampenData, f: str) -> frozenset[str]:
        """The areas that hold battalions of ``f``'s enemies (``hostile`` of each; 4.1: a move
        into one is an attack)."""
        return frozenset(a for e in enemies(f) for a, n in d.bn[e].items() if n)

    def kmove(self, f: str, a: str, b: str, n: int) -> KMove:
        """The order to move ``n`` battalions of ``f`` from ``a`` to ``b`` (4.1), built once per game object."""
        key = (f, a, b, n)
        o = self._moves.get(key)
        if o is None:
            o = self._moves[key] = KMove(f, a, b, n)
        return o

    def movable(self, d: KampenData, f: str, a: str) -> int:
        """Battalions of ``f`` in ``a`` that have not moved this round (4.1)."""
        return d.bn[f].get(a, 0) - d.fresh[f].get(a, 0)

    def hand_uses(self, d: KampenData, f: str, slot: str) -> list[tuple[Copy, CardUse]]:
        """The cards in ``f``'s hand that can be played in ``slot``, with what they do there."""
        copies = self.copies
        out = []
        for cid in d.hand[f]:
            c = copies[cid]
            u = c.slots.get(slot)
            if u is not None:
                out.append((c, u))
        return out

    def play(self, f: str, c: Copy, slot: str, target: str = "", src: str = "", path: tuple[str, ...] = (),
             n: int = 0, cash: tuple[int, ...] = ()) -> PlayCard:
        """The order to play copy ``c`` for its function in ``slot`` (2.4); orders are
        immutable, so each is built once per game object, as the land moves are."""
        key = (f, c.id, slot, target, src, path, n, cash)
        o = self._plays.get(key)
        if o is None:
            if len(self._plays) >= PLAYS_KEPT:
                self._plays.clear()
            o = self._plays[key] = PlayCard(f, c.id, c.card, slot, target, src, path, n, cash)
        return o

    def view(self, d: KampenData, sides: Collection[str]) -> KampenData:
        """What the player(s) of ``sides`` may see (2.4): the other factions' hands are so many
        cards face down, and every deck's unused cards are face down (the used ones, at the
        bottom face up, are public). In the advanced game another faction's face-down ship is a
        card back in its sea area (6.1: which ship, or a dummy, is hidden), its 9 April cards
        to choose from and out of play are face down, and what its reconnaissance saw is its own."""
        v = d.shallow()
        v.hand = {f: (cards if f in sides else [HIDDEN_CARD] * len(cards)) for f, cards in d.hand.items()}
        down = d.down
        v.deck = {f: _face_down(cards, down[f]) for f, cards in d.deck.items()}
        v.seed = 0  # nothing can foresee a roll or a reshuffle
        if d.ships:
            hidden = [f for f in FACTIONS if f not in sides]
            seen = {i for f in sides for i in d.seen.get(f, [])}
            mine = [s for s in d.ships if s.owner not in hidden or s.up or s.id in seen]
            backs = sorted((Ship(-1, s.owner, s.at, False, s.moved, s.caught, s.tried, s.fought, s.landing)
                            for s in d.ships if not (s.owner not in hidden or s.up or s.id in seen)),
                           key=lambda s: (s.owner, s.at, s.moved, s.tried, s.fought, s.landing))
            v.ships = [copy.copy(s) for s in mine] + backs
            v.pool = {f: ([HIDDEN_CARD] * len(c) if f in hidden else c) for f, c in d.pool.items()}
            v.box = {f: ([HIDDEN_CARD] * len(c) if f in hidden else c) for f, c in d.box.items()}
            v.seen = {f: (c if f in sides else []) for f, c in d.seen.items()}
            if d.sea_move is not None:
                v.sea_move = copy.copy(d.sea_move)
                v.sea_move.ships = [i if d.ships[i].owner not in hidden or d.ships[i].up else -1 for i in d.sea_move.ships]
        return v

    def visible_events(self, d: KampenData, events: list[dict[str, Any]], sides: Collection[str]) -> list[dict[str, Any]]:
        """Cards are played and discarded face up; what an event ``hide``s (a face-down ship's
        name, a 9 April card kept) reaches only the factions it names in ``see``."""
        return strip_hidden(events, sides)

    def visible_order(self, d: KampenData, order: Order, sides: Collection[str]) -> str:
        """An order as the player(s) of ``sides`` see it (``d``: the state after it): another
        faction's 9 April card kept and its face-down ships are not named (6.1, 7.0)."""
        from hexwar.games.kampen.orders import Choose, PlaceShip, Sail

        if order.side in sides:
            return order.text()
        if isinstance(order, Choose):
            return "choose a 9 April card"
        seen = {i for f in sides for i in d.seen.get(f, [])}

        def shown(i: int) -> bool:
            return d.ships[i].up or i in seen

        if isinstance(order, PlaceShip) and not shown(order.ship):
            return f"ship (a card face down) {order.sea}"
        if isinstance(order, Sail) and not all(shown(i) for i in order.ships):
            return f"sail {len(order.ships)} ship(s) >{'>'.join(order.path)}"
        return order.text()

    def combat_dice(self, d: KampenData, explain: bool = True) -> tuple[int, int, list[dict[str, Any]]]:
        """Return (attacker dice, defender dice, ledger) of the current combat (4.2); the
        ledger is empty without ``explain``."""
        return combat.dice_pool(self, d, explain)

    # --- the engine protocol -----------------------------------------------------------------

    def save_meta(self) -> dict[str, Any]:
        return {"game": self.name, "scenario": self.scenario, "board": self.board.name}

    def initial_state(self, seed: int, dice: Dice) -> KampenData:
        """Set up (3): the scenario's battalions, shuffled decks, hands drawn at once."""
        d = KampenData(game=self.name, scenario=self.scenario, seed=seed)
        bn: dict[str, dict[str, int]] = {f: {} for f in FACTIONS}
        for f, where in self.spec.start.items():
            for name, n in where.items():
                a = self.loc(name)
                bn[f][a] = bn[f].get(a, 0) + n
        # 3.1: shuffle; a stream of its own, seeded by the game's seed, recorded in the log
        shuffler = dice.stream(f"kampen-decks:{seed}")
        deck: dict[str, list[int]] = {}
        for f in FACTIONS:
            cards_f = list(self.decks[f])
            shuffler.shuffle(cards_f, f"{f} deck")
            deck[f] = cards_f
        d.bn, d.fresh, d.deck = bn, {f: {} for f in FACTIONS}, deck
        d.down = {f: len(deck[f]) for f in FACTIONS}
        d.hand = {f: [] for f in FACTIONS}
        d.faction, d.step = GERMANS, "move"
        d.landing = (self.spec.allied_landing or {}).get("battalions", 0) if self.spec.allied_landing else 0
        d.losses = {f: 0 for f in FACTIONS}
        d.cards_used = {f: 0 for f in FACTIONS}
        d.side = GERMANS
        d.phase = "move"
        d.turn = 1
        d.box = {f: [] for f in FACTIONS}
        if self.advanced is not None:  # 7: the 9 April round replaces the set-up (its hands come in 7.4)
            april.setup(self, d, dice)
            april.advance(self, d, dice, [])
            return d
        for f in FACTIONS:  # digest ambiguity 8: hands are drawn at set-up
            cards.draw(self, d, f, self.spec.hands[f], dice, [])
        return d

    def winning_sides(self, winner: str) -> tuple[str, ...]:
        """The factions a result's winner stands for: Norway and the Allies win together (1.2)."""
        return COALITION if winner == ALLIES else (winner,)

    def current_side(self, d: KampenData) -> str:
        return d.side

    def result(self, d: KampenData) -> Result:
        winner, level = victory.standing(self, d)
        return Result(d.over, winner if d.over else None, level if d.over else f"in progress ({level})",
                      {f: d.battalions(f) for f in FACTIONS})

    def legal_orders(self, d: KampenData) -> list[Order]:
        if d.over:
            return []
        return DECISIONS[d.step].legal(self, d, d.side)

    def apply(self, d: KampenData, order: Order, dice: Dice) -> list[dict[str, Any]]:
        if d.over:
            raise IllegalOrder("the game is over", "1.3")
        if order.side != d.side:
            raise IllegalOrder(f"it is the {d.side}' decision, not the {order.side}'", "4")
        if order not in self.legal_orders(d):
            raise IllegalOrder(f"{order.text()} is not legal now ({d.step} step of the {d.faction}' round)", "4")
        events: list[dict[str, Any]] = []
        self.apply_unchecked(d, order, dice, events)
        return events

    def apply_unchecked(self, d: KampenData, order: Order, dice: Dice, events: list[dict[str, Any]]) -> None:
        """Apply an order already known to be legal (bots and the simulator)."""
        DECISIONS[d.step].apply(self, d, order, dice, events)

    def decision_rule(self, d: KampenData) -> str:
        """The rule section of the decision the game waits for."""
        return DECISIONS[d.step].rule

    def ask(self, d: KampenData, step: str, side: str) -> None:
        """Stop for a decision of ``side``."""
        d.step = step
        d.side = side
        d.phase = step


def kampen_game(scenario: str = "intro-narvik", board: Board | None = None) -> KampenGame:
    """Return the Kampen om Norge ruleset for a scenario (``intro-narvik`` or ``basic``)."""
    return KampenGame(scenario, board)


def slug(name: str) -> str:
    """A place name as an area id: 'Mo i Rana' -> 'mo_i_rana', 'Bjørnfjell' -> 'bjornfjell'.

    >>> slug("Tromsø"), slug("Åndalsnes"), slug("Mo i Rana")
    ('tromso', 'andalsnes', 'mo_i_rana')
    """
    import unicodedata

    s = name.lower().replace("æ", "ae").replace("ø", "o").replace(" ", "_")
    return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))
