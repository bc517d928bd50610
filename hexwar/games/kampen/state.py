"""Kampen om Norge's state, typed: battalions are identical (2.2), so an area holds a count
per faction; cards are copy ids into the game's card list; the round's attacks, combat and
reinforcement are records while they last."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hexwar.core.state import GameState

GERMANS, NORWAY, ALLIES = "germans", "norwegians", "allies"
FACTIONS = (GERMANS, NORWAY, ALLIES)
COALITION = (NORWAY, ALLIES)


def enemies(f: str) -> tuple[str, ...]:
    """Return the factions ``f`` fights (Norway and the Allies are one side, 1.2)."""
    return COALITION if f == GERMANS else (GERMANS,)


@dataclass
class AttackGroup:
    """Battalions moving into an enemy area this round (4.1): they fight there (4.2)."""

    src: str  # the area it attacks from (next to the target); a repulsed group goes back there
    n: int  # battalions (the attacker chooses which groups take its losses, 4.2 step 6)
    crossing: bool = False  # across a fjord or lake: its battalion dice are halved (4.2)
    sea_air: bool = False  # arrived by sea or air: withdraws like a defender if it loses (4.2 step 8)
    origin: str = ""  # the area the battalions started from (a card may move them further)


@dataclass(frozen=True)
class CardPlay:
    """A card played in a combat: which copy, by whom, for which function."""

    copy: int
    owner: str
    slot: str


@dataclass
class Combat:
    """One land combat (4.2) from its first card to its last withdrawal."""

    area: str
    att: str  # the attacking faction
    groups: list[AttackGroup]
    dn: dict[str, int]  # defending battalions per faction
    cards: list[CardPlay] = field(default_factory=list)
    cancelled: list[int] = field(default_factory=list)  # copies cancelled by the other side's cards
    att_types: list[str] = field(default_factory=list)  # card types played by the attacker (one per type)
    def_types: list[str] = field(default_factory=list)  # card types played by the defenders
    defq: list[str] = field(default_factory=list)  # defending factions still to be asked for cards
    a_dice: int = 0
    d_dice: int = 0
    a_faces: list[int] = field(default_factory=list)
    d_faces: list[int] = field(default_factory=list)
    a_total: int = 0
    d_total: int = 0
    dkill: int = 0  # defending battalions killed by the attacker's sixes (step 4)
    akill: int = 0  # attacking battalions killed by the defender's sixes (step 5)
    win: bool = False  # the attacker's total beat the defender's (step 7)
    ledger: list[dict[str, Any]] = field(default_factory=list)
    al_lost: int = 0  # Allied battalions lost (Kystevakuering may save one)
    retreat_to: list[str] = field(default_factory=list)
    retreating: dict[str, int] = field(default_factory=dict)
    arrivals: bool = False  # the withdrawing battalions are sea/air arrivals, not in the area


@dataclass
class Reinforcement:
    """The reinforcement phase of one round (4.3; the Allied landing of 3.5)."""

    symbols: int = 0
    free: int = 0  # the German free battalion
    airlift: bool = False  # Transportfly played: the free battalion may come by air
    placed: list[str] = field(default_factory=list)
    n: int = 0  # battalions still to place
    groups: int = 0  # 3.5: groups of 3 Allied battalions still to land


@dataclass(frozen=True)
class Sabotage:
    """A Norwegian sabotage card waiting for a German counter-card (4.1 1c)."""

    copy: int
    target: str
    src: str


@dataclass(frozen=True)
class Paradrop:
    """Paratroopers about to land; a Jagerfly may divert them (4.1, Ex 4)."""

    target: str
    n: int
    card: str


@dataclass
class KampenData(GameState, game="kampen"):
    """Everything that changes in a game of Kampen om Norge."""

    bn: dict[str, dict[str, int]] = field(default_factory=dict)  # faction -> area -> battalions
    fresh: dict[str, dict[str, int]] = field(default_factory=dict)  # moved in this round: may not move again
    deck: dict[str, list[int]] = field(default_factory=dict)  # faction -> copies, top first (used ones at the bottom)
    down: dict[str, int] = field(default_factory=dict)  # faction -> unused cards left face down (-1: never draws again)
    hand: dict[str, list[int]] = field(default_factory=dict)
    used: int = 0  # cards the round's faction used this round (4.4)
    faction: str = GERMANS  # whose round it is (4)
    step: str = "move"  # the decision the game waits for
    attacks: dict[str, list[AttackGroup]] = field(default_factory=dict)  # area -> groups attacking it
    attacked_from: list[str] = field(default_factory=list)  # areas attacks came from this round
    combat: Combat | None = None
    sabotage: Sabotage | None = None
    paradrop: Paradrop | None = None
    rein: Reinforcement | None = None
    landing: int = 0  # 3.5: Allied battalions still to land in their first reinforcement phase
    recall: int = 0  # 2.4: battalions the Allies must still remove after their deck ran out
    recalled: int = 0  # 2.4: battalions the Allies have removed so far (not combat losses)
    losses: dict[str, int] = field(default_factory=dict)
    cards_used: dict[str, int] = field(default_factory=dict)
    ended: str = ""  # why the game ended

    def add(self, faction: str, area: str, n: int) -> None:
        """Add (or with ``n`` < 0 take away) battalions of a faction in an area."""
        bn = self.bn[faction]
        bn[area] = bn.get(area, 0) + n
        if bn[area] <= 0:
            del bn[area]

    def battalions(self, faction: str) -> int:
        """Return a faction's battalions on the board."""
        return sum(self.bn[faction].values())
