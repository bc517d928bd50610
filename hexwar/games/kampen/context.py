"""Kampen om Norge's rules as its phases read them: the board's facts (land, seas, coasts,
the places that score), the card decks and the fleet of the scenario, and the typed queries
(hostile areas, moves, the cards a hand may play) the phases, bots and the play loop ask.

``KampenRules`` knows no phase: ``game.KampenGame`` adds the sequence of play (``sequence``),
the views and the set-up, so the phases import this module and never the game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from hexwar.board.base import Board
from hexwar.core.dice import Dice
from hexwar.core.game import Caches, Game
from hexwar.core.orders import Pass
from hexwar.data.loader import DataError, Library, Problem, _rel, default_library
from hexwar.games.kampen.board_facts import board_facts
from hexwar.games.kampen.cards import Copy, build_copies
from hexwar.games.kampen.fleet import ShipCard, build_fleet
from hexwar.games.kampen.orders import KMove, PlayCard
from hexwar.games.kampen.schemas import CardUse, KampenCardsSpec, KampenFleetSpec, KampenScenarioSpec
from hexwar.games.kampen.state import (
    FACTIONS,
    GERMANS,
    KampenData,
    enemies,
)

#: card-play orders kept at most (a long batch of the basic game holds about 26,000: the
#: paths and cashes of card moves are many)
PLAYS_KEPT = 50_000


@dataclass
class KampenCaches(Caches):
    """What Kampen om Norge's rules work out as they go (``Caches``: the rules object's
    lifetime). Orders are immutable, so each is built once and shared; the bounded ones are
    emptied when they reach ``PLAYS_KEPT``."""

    #: (faction, from, to, battalions, via) -> the land move (4.1)
    moves: dict[tuple[str, str, str, int, tuple[str, ...]], KMove] = field(default_factory=dict)
    #: a card play's fields -> the order (2.4)
    plays: dict[tuple[Any, ...], PlayCard] = field(default_factory=dict)
    #: (faction, area, movable) -> the area's land moves (4.1)
    move_blocks: dict[tuple[str, str, int], tuple[KMove, ...]] = field(default_factory=dict)
    #: card moves' and hex moves' paths (movement.paths, steps.paths)
    paths: dict[tuple[Any, ...], list[tuple[str, ...]]] = field(default_factory=dict)
    #: (area, steps) -> the areas within that many borders (``within``)
    within: dict[tuple[str, int], frozenset[str]] = field(default_factory=dict)
    #: the areas victory is about (``objectives``), worked out when first asked
    objectives: list[str] | None = None
    #: area -> area -> the fewest borders between them (``steps``)
    all_dist: dict[str, dict[str, int]] | None = None
    #: area -> borders to the nearest objective, at most 20: the priority bot's table
    goal_dist: dict[str, int] | None = None


class KampenRules(Game[KampenData]):
    """Kampen om Norge bound to a scenario, its board, cards and fleet (frozen); what the phases
    read (``game.KampenGame`` composes the phases on it). States are ``KampenData``."""

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
        conv = board.conversion
        #: hex steps one area step of the rules is (1 on an area map; issue 72, ``steps.py``)
        self.step: int = conv.area_step if conv is not None else 1
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
        self.caches = KampenCaches()
        self.passes = {f: Pass(f) for f in FACTIONS}

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
        if self.caches.objectives is None:
            if isinstance(self.spec.victory, dict):
                self.caches.objectives = [self.loc(n) for n in self.spec.victory["objectives"]]
            else:
                self.caches.objectives = list(self.point_cities)
        return self.caches.objectives

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
        if self.caches.all_dist is None:
            graph = nx.Graph([(u, v) for u, ns in self.nbrs.items() for v in ns])
            graph.add_nodes_from(self.land)
            self.caches.all_dist = {a: dict(nx.single_source_shortest_path_length(graph, a)) for a in self.land}
        return self.caches.all_dist

    def within(self, a: str, steps: int) -> frozenset[str]:
        """The areas at most ``steps`` borders from ``a`` (``a`` too), once per game object:
        as far as a card move (4.1, Rask forflytning, Jernbane) can look."""
        key = (a, steps)
        hit = self.caches.within.get(key)
        if hit is None:
            hit = self.caches.within[key] = frozenset(b for b, k in self.steps()[a].items() if k <= steps)
        return hit

    def hostile_areas(self, d: KampenData, f: str) -> frozenset[str]:
        """The areas that hold battalions of ``f``'s enemies (``hostile`` of each; 4.1: a move
        into one is an attack)."""
        return frozenset(a for e in enemies(f) for a, n in d.bn[e].items() if n)

    def kmove(self, f: str, a: str, b: str, n: int, via: tuple[str, ...] = ()) -> KMove:
        """The order to move ``n`` battalions of ``f`` from ``a`` to ``b`` (4.1; through ``via``
        on hexes), built once per game object."""
        key = (f, a, b, n, via)
        o = self.caches.moves.get(key)
        if o is None:
            if len(self.caches.moves) >= PLAYS_KEPT:
                self.caches.moves.clear()
            o = self.caches.moves[key] = KMove(f, a, b, n, via)
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
        o = self.caches.plays.get(key)
        if o is None:
            if len(self.caches.plays) >= PLAYS_KEPT:
                self.caches.plays.clear()
            o = self.caches.plays[key] = PlayCard(f, c.id, c.card, slot, target, src, path, n, cash)
        return o


    def ask(self, d: KampenData, step: str, side: str) -> None:
        """Stop for a decision of ``side``."""
        d.step = step
        d.side = side
        d.phase = step

    # --- the sequence of play: a phase hands over to the next through these (4, 7, 8); the game
    # composes the phases (``game.KampenGame``), so no phase imports one that comes after it ---

    def april_advance(self, d: KampenData, dice: Dice, events: list[dict[str, Any]]) -> None:
        """The 9 April round goes on to its next stage (7)."""
        raise NotImplementedError

    def movement_begin(self, d: KampenData, dice: Dice, events: list[dict[str, Any]]) -> None:
        """A faction's round begins with its movement phase (4.1; sea movement first, 8.1)."""
        raise NotImplementedError

    def land_movement(self, d: KampenData, dice: Dice, events: list[dict[str, Any]]) -> None:
        """Land movement, after sea movement (4.1, 8.1 1b)."""
        raise NotImplementedError

    def combat_start(self, d: KampenData, dice: Dice, events: list[dict[str, Any]]) -> None:
        """The combat phase, after movement (4.2; sea combat first, 8.2)."""
        raise NotImplementedError

    def sea_start(self, d: KampenData, dice: Dice, events: list[dict[str, Any]]) -> None:
        """Sea combat (8.2 2a)."""
        raise NotImplementedError

    def combat_after_sea(self, d: KampenData, dice: Dice, events: list[dict[str, Any]]) -> None:
        """What follows the sea combats (8.2, 7.2)."""
        raise NotImplementedError

    def reinforcement_begin(self, d: KampenData, dice: Dice, events: list[dict[str, Any]]) -> None:
        """The reinforcement phase, after combat (4.3)."""
        raise NotImplementedError


def slug(name: str) -> str:
    """A place name as an area id: 'Mo i Rana' -> 'mo_i_rana', 'Bjørnfjell' -> 'bjornfjell'.

    >>> slug("Tromsø"), slug("Åndalsnes"), slug("Mo i Rana")
    ('tromso', 'andalsnes', 'mo_i_rana')
    """
    import unicodedata

    s = name.lower().replace("æ", "ae").replace("ø", "o").replace(" ", "_")
    return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))
