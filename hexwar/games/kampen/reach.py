"""Reach before results (issue 72): in how many rounds each faction's battalions can reach
each objective on a board, asked of the game's own movement, against how long the scenario
can last.

A comparison of boards means nothing where a force cannot arrive before the game ends: on
15 km hexes with one hex a round, the Allies of S1 could not attack Narvik before their deck
ran out. ``fewest_rounds`` asks the game: from the scenario's set-up, one battalion of the
faction at each place it could be, at the faction's movement phase with no card in hand
(4.1, an ordinary move), the enemy standing as at the start; each round it goes wherever the
game lists a move to, and an objective is reached when a listed move enters it (a move into
an enemy-held place is an attack, 4.1). ``longest`` reads the scenario's clock off the set-up
state: S1 ends when the Allies draw their last card, and each round they draw at least one
(4.4), so the game lasts at most as many game rounds as they have cards face down.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from hexwar.board.base import place_name
from hexwar.core.dice import Dice
from hexwar.games.kampen.orders import KMove
from hexwar.games.kampen.state import ALLIES, FACTIONS, GERMANS, KampenData

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.games.kampen.game import KampenGame

NAMES = {GERMANS: "Germans", "norwegians": "Norwegians", ALLIES: "Allies"}


def start(g: "KampenGame") -> KampenData:
    """The scenario's set-up state (the decks' order does not matter here)."""
    return g.initial_state(0, Dice(0))


def longest(g: "KampenGame", d: KampenData | None = None) -> int:
    """The most game rounds the scenario can last: S1 ends at the Allies' last draw and the
    basic game at the Germans' (1.3, 2.4); the faction draws at least one card a round (it
    must play one, or discards one and draws, 4.4), so at most its face-down cards."""
    d = start(g) if d is None else d
    ender = ALLIES if g.spec.end == "allied_deck" else GERMANS
    return max(1, d.down[ender])


def moves_from(g: "KampenGame", d0: KampenData, f: str, here: str) -> dict[str, list[KMove]]:
    """Where the game lets one battalion of ``f`` at ``here`` move in one round (4.1), the
    enemy as it stands in ``d0``, with the listed moves there (on hexes one for each hex it may
    enter from: the analysis board reads a fjord crossing off them, 4.2)."""
    d = copy.deepcopy(d0)
    d.bn[f] = {here: 1}
    d.fresh = {x: {} for x in FACTIONS}
    d.hand[f] = []  # an ordinary move: no card (Rask forflytning goes further)
    d.faction, d.side, d.step, d.phase, d.stage = f, f, "move", "move", ""
    out: dict[str, list[KMove]] = {}
    for o in g.legal_orders(d):
        if isinstance(o, KMove) and o.src == here:
            out.setdefault(o.dst, []).append(o)
    return out


def across_water(g: "KampenGame", moves: list[KMove]) -> bool:
    """Whether an attack by these listed moves must cross a fjord or lake (4.2: dice halved):
    only if every way in does."""
    return bool(moves) and all(((o.via[-1] if o.via else o.src), o.dst) in g.water for o in moves)


def fewest_rounds(g: "KampenGame", f: str, target: str, rounds: int, d0: KampenData | None = None,
                  here: str | None = None) -> int | None:
    """The fewest of ``f``'s movement phases in which a battalion of ``f`` at the set-up (the
    one at ``here``, else any) can enter ``target`` (0: it stands there at the start; None: not
    within ``rounds``)."""
    d0 = start(g) if d0 is None else d0
    front = {here} if here is not None else {a for a, n in d0.bn[f].items() if n}
    if target in front:
        return 0
    seen = set(front)
    for r in range(1, rounds + 1):
        nxt: set[str] = set()
        for a in sorted(front):
            for b in moves_from(g, d0, f, a):
                if b == target:
                    return r
                if b not in seen and not g.hostile(d0, f, b):
                    seen.add(b)
                    nxt.add(b)
        front = nxt
        if not front:
            return None
    return None


@dataclass(frozen=True)
class Reach:
    """One board's answer: the scenario's length and, per faction and objective, the fewest
    rounds (None: not within the length)."""

    board: str
    length: int
    rounds: dict[str, dict[str, int | None]]  # faction -> objective's name -> rounds (its nearest battalion)
    held: dict[str, str]  # objective's name -> who holds it at the start
    arrive: dict[str, dict[str, tuple[int, int]]]  # faction -> objective -> (battalions in time, battalions)

    def late(self) -> list[tuple[str, str]]:
        """(faction, objective) an attacker of it cannot reach before the game ends."""
        return [(f, o) for f, row in self.rounds.items() for o, r in row.items()
                if r is None and self.held.get(o) != f and _enemy(f, self.held.get(o, ""))]


    def few(self) -> list[tuple[str, str, int, int]]:
        """(faction, objective, battalions in time, battalions) where fewer than half of the
        attackers of an enemy-held objective can arrive before the game ends."""
        return [(f, o, came, of) for f, row in self.arrive.items() for o, (came, of) in row.items()
                if 0 < came and 2 * came < of and _enemy(f, self.held.get(o, ""))]


def _enemy(f: str, holder: str) -> bool:
    """Whether ``holder`` (a faction's name) is ``f``'s enemy (Norway and the Allies are one side, 1.2)."""
    de = NAMES[GERMANS]
    return holder != "" and (holder == de) != (f == de)


def reach(g: "KampenGame", board: str = "") -> Reach:
    """Every faction's fewest rounds to every objective, within the scenario's length."""
    d0 = start(g)
    n = longest(g, d0)
    rounds: dict[str, dict[str, int | None]] = {}
    arrive: dict[str, dict[str, tuple[int, int]]] = {}
    held: dict[str, str] = {}
    for a in g.objectives():
        name = place_name(g.board, a)
        held[name] = next((f for f in FACTIONS if d0.bn[f].get(a)), "")
    for f in FACTIONS:
        if not any(d0.bn[f].values()):
            continue
        stacks = {a: k for a, k in d0.bn[f].items() if k}
        row: dict[str, int | None] = {}
        come: dict[str, tuple[int, int]] = {}
        for a in g.objectives():
            each = {h: fewest_rounds(g, f, a, n, d0, h) for h in stacks}
            known = [r for r in each.values() if r is not None]
            row[place_name(g.board, a)] = min(known) if known else None
            come[place_name(g.board, a)] = (sum(stacks[h] for h, r in each.items() if r is not None), sum(stacks.values()))
        rounds[NAMES[f]] = row
        arrive[NAMES[f]] = come
    return Reach(board or g.board.name, n, rounds, {k: NAMES.get(v, v) for k, v in held.items()}, arrive)


def lines(reaches: Sequence[Reach]) -> list[str]:
    """The report's table: a row per board and faction, a column per objective: the fewest
    rounds for its nearest battalion, and how many of its battalions can arrive in time."""
    if not reaches:
        return []
    objs = list(next(iter(reaches[0].rounds.values())))
    out = [f"| board | faction | {' | '.join(objs)} |", "|---|---|" + "---|" * len(objs)]
    for r in reaches:
        for f, row in r.rounds.items():
            cells = []
            for o in objs:
                k = row.get(o)
                if r.held.get(o) == f:
                    cells.append("holds it")
                elif k is None:
                    cells.append(f"**not in {r.length}**")
                else:
                    came, of = r.arrive[f][o]
                    cells.append(f"{k} ({came} of {of} bn in time)" if came < of else f"{k} (all {of} bn in time)")
            out.append(f"| {r.board} | {f} | " + " | ".join(cells) + " |")
    return out
