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
    sea_used: dict[str, int] = field(default_factory=dict)  # 8.3: battalions placed by a sea's German ships


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


#: where a ship is when it is not in a sea area (the raid field of 2.3/7.2, the Home Fleet set
#: aside in 7.0, not yet placed in 7.0, sunk, removed by the 5.2 exhaustion, a dummy taken out)
RAID, RESERVE, TO_PLACE, SUNK, REMOVED = "raid", "reserve", "to place", "sunk", "removed"


@dataclass
class Ship:
    """One ship card (6.1) or dummy ship: where it is, face up or down, and this round's marks."""

    id: int  # index in the game's fleet list (-1 in another faction's view of a face-down ship)
    owner: str
    at: str  # a sea area, or RAID, RESERVE, TO_PLACE, SUNK, REMOVED
    up: bool = False  # face up (6.1: turned up when intercepted; Eidsvoll & Norge always)
    moved: int = 0  # sea areas moved this round (8.1)
    caught: bool = False  # intercepted: fights in the sea-combat phase (8.1)
    tried: bool = False  # tried to intercept this round: moves no further (8.1 step 3)
    fought: bool = False  # has fought a sea combat this round (7.2: Eidsvoll & Norge before landings)
    landing: str = ""  # 7.2: the land area it lands its battalion in (declared)

    def copy(self) -> "Ship":
        """A copy of its own (every field; a third of ``copy.copy``'s time, and a view copies
        every ship it shows)."""
        new = object.__new__(Ship)
        new.__dict__.update(self.__dict__)
        return new


@dataclass
class SeaMove:
    """A ship or group moving (8.1): its ships, the sea areas still ahead, the interception
    decisions still to make where it stands (9 April: no ship moves, 7.1)."""

    ships: list[int]
    ahead: list[str]
    at: str
    ask: list[str] = field(default_factory=list)  # factions still to decide on interception here
    trying: str = ""  # a faction whose interception waits for a German Røykdekke (7.1)


@dataclass
class SeaCombat:
    """One sea combat (8.2) from its first card to the last chased ship."""

    area: str
    att: str  # the side with the initiative: germans, or the coalition (norwegians / allies)
    a: list[int]  # the attacking side's ships in the combat
    d: list[int]
    cards: list[CardPlay] = field(default_factory=list)
    cancelled: list[int] = field(default_factory=list)
    att_types: list[str] = field(default_factory=list)
    def_types: list[str] = field(default_factory=list)
    ask: list[str] = field(default_factory=list)  # factions still to be asked at this step
    step: str = "sea_attack"
    hits: dict[int, str] = field(default_factory=dict)  # ship -> "sink" / "chase"
    pending_dice: list[int] = field(default_factory=list)  # attacker card copies rolled in step 4
    chased: list[int] = field(default_factory=list)  # ships the opponent must still send away (step 7)
    sunk_de: int = 0  # German ships sunk here (Evakuerte matroser, 7.2a)


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
    # --- the advanced game (rules 5-8) ---
    stage: str = ""  # "april9" in the 9 April round (7), "" in an ordinary round
    ships: list[Ship] = field(default_factory=list)
    box: dict[str, list[int]] = field(default_factory=dict)  # cards out of play (9 April cards, 6.2, 7.4)
    pool: dict[str, list[int]] = field(default_factory=dict)  # 7.0: 9 April cards still to choose from
    todo: list[str] = field(default_factory=list)  # the 9 April round's placements and steps still to come
    sea_move: SeaMove | None = None
    sea: SeaCombat | None = None
    intercepts: dict[str, list[str]] = field(default_factory=dict)  # sea area -> factions that intercepted there
    seen: dict[str, list[int]] = field(default_factory=dict)  # faction -> enemy ships it has been shown (7.0)
    mobilised: list[str] = field(default_factory=list)  # 7.2: point cities whose resistance roll gave a battalion
    ship_recall: int = 0  # 5.2: ships the Allies must still remove
    raid_open: bool = False  # 7.2: the raiders were recalled this round and may sail
    no_landing: list[str] = field(default_factory=list)  # 7.2: sea areas Germany lands nothing from

    def add(self, faction: str, area: str, n: int) -> None:
        """Add (or with ``n`` < 0 take away) battalions of a faction in an area."""
        bn = self.bn[faction]
        bn[area] = bn.get(area, 0) + n
        if bn[area] <= 0:
            del bn[area]

    def battalions(self, faction: str) -> int:
        """Return a faction's battalions on the board."""
        return sum(self.bn[faction].values())
