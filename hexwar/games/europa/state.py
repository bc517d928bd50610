"""The Europa "Narvik" variant's state: the common ``GameState`` plus ownership, supply,
disruption, headquarters and the decision the game waits for (typed fields, no dicts of
anything)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from hexwar.core.state import UnitState

GERMANS, ALLIES = "germans", "allies"
SIDES = (GERMANS, ALLIES)  # E3: the German player turn comes first
DISRUPTED = "disrupted"  # E1: AD/DD, until the side's next player turn
OVERSTACKED = "overstacked"  # E5 B: flipped, adds nothing to the defence


def other(side: str) -> str:
    """Return the other side."""
    return ALLIES if side == GERMANS else GERMANS


@dataclass(frozen=True)
class Ask:
    """A decision the game waits for.

    ``what``: move (E3 B), air (E3 C), combat (E3 D), exploit (E3 E), evade (E1 retreat before
    combat), retreat (a unit's retreat after combat), advance (into a vacated hex), land (an
    Allied arrival whose port is lost), store (E1: where an artillery-formed battalion forms).
    """

    side: str
    what: str
    unit: str = ""
    hex: str = ""
    options: tuple[str, ...] = ()


@dataclass
class Combat:
    """One combat between its declaration and its last decision (E3 D)."""

    side: str
    target: str
    attackers: list[str]
    defenders: list[str]
    shift: int = 0  # column shift from an evasion caught (E1) before the odds are read
    evaded: bool = False  # the defenders retreated before combat (E1)
    result: str = ""
    retreating: list[str] = field(default_factory=list)  # units still to retreat, in order
    advance: list[str] = field(default_factory=list)  # attackers that may advance


@dataclass
class EuropaData(UnitState, game="europa"):
    """Everything that changes in a game of the Europa "Narvik" variant."""

    POOLS: ClassVar[frozenset[str]] = frozenset(
        {"eliminated", "removed", "reinforcements", "broken_down", "assembled", "lost", "sailors"})

    step: int = 0
    ask: Ask | None = None
    owner: dict[str, str] = field(default_factory=dict)  # E4: key hex -> the side owning it
    moved: list[str] = field(default_factory=list)  # units that moved this phase
    attacked: list[str] = field(default_factory=list)  # hexes attacked this combat phase
    fought: list[str] = field(default_factory=list)  # units that attacked this combat phase
    absorbed: dict[str, str] = field(default_factory=dict)  # E5 C: unit -> its headquarters
    #: E5 C, E1: units detached from their HQ and regiments broken down or reassembled this
    #: phase, each once a phase (a detached unit is absorbed again at the phase's end, E5 C)
    reorganised: list[str] = field(default_factory=list)
    carried: dict[str, str] = field(default_factory=dict)  # E1 trucks: infantry -> truck, this phase
    out_of_supply: list[str] = field(default_factory=list)  # E1: units out of general supply this player turn
    support: dict[str, int] = field(default_factory=dict)  # E3 C: hex -> air missions (+ phasing, - defending)
    flown: list[str] = field(default_factory=list)  # air units that flew this turn
    air_side: str = ""  # E3 C: whose missions are being flown
    blockaded: dict[str, int] = field(default_factory=dict)  # E1: port hex -> last turn it is blockaded
    interdicted: int = 0  # interdictions made this player turn
    sailors_turn: int | None = None  # E1: the turn the stranded sailors come ashore
    stores_taken: list[str] = field(default_factory=list)  # E1: artillery stores captured
    landing: list[str] = field(default_factory=list)  # Allied arrivals waiting for a port
    forming: list[str] = field(default_factory=list)  # E1: stores whose formed battalion is to place
    combat: Combat | None = None
    last_combat: dict[str, Any] | None = None
    setup_events: list[dict[str, Any]] = field(default_factory=list)
