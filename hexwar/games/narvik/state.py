"""Assault on Narvik's state: the common ``GameState`` plus the game's own tracks, markers and
pending decisions, typed (every field below used to be a key of an untyped dict).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping

from hexwar.core.state import UnitState
from hexwar.rules.fatigue import FatigueRecord

ALLIES, GERMANS = "allies", "germans"
SIDES = (ALLIES, GERMANS)
HARSTAD = "harstad"  # the off-map box (13.2.1, 22.1); the map names it, this is its id
#: the kinds of counter that are not land units (``NarvikGame.is_land``)
NOT_LAND = ("ship", "dummy")
#: a German arrival the German turns into any eliminated company (23.4)
REPLACEMENT = "@replacement"


def other(side: str) -> str:
    """Return the other side."""
    return GERMANS if side == ALLIES else ALLIES


@dataclass(frozen=True)
class Ask:
    """A decision the game waits for: which side, what kind, and what it is about.

    ``what`` is one of: base (19.4), mas (18.2), place (23.4), redeploy (31.0), action and
    reaction (9.0), take (15.2), retreat (15.3.1), advance (15.3), target (16.1.1).
    """

    side: str
    what: str
    unit: str = ""  # place: the arriving unit; retreat: the unit retreating
    options: tuple[str, ...] = ()  # redeploy, target: the units to choose from
    count: int = 0  # redeploy: how many to choose
    points: int = 0  # take: CRT points still to take
    units: tuple[str, ...] = ()  # advance: the units that may advance
    length: int = 0  # retreat: hexes to retreat
    fp: int = 0  # target: the FP the chosen unit takes


@dataclass
class Combat:
    """An assault (15.1) or contested landing (20.3.1) between its roll and its last decision."""

    side: str  # the attacker
    target: str
    attackers: list[str]
    defenders: list[str]
    amphibious: bool = False
    from_hex: str | None = None  # 20.3.1: the hex the landing force comes from
    ships: list[str] = field(default_factory=list)  # 20.3.1: the landing ships
    support: list[str] = field(default_factory=list)  # 16.1: the supporting artillery (15.3.1 counts it when adjacent)
    points: dict[str, int] = field(default_factory=dict)  # CRT points still to take, per side (15.2)
    retreat: dict[str, int] = field(default_factory=dict)  # hexes of retreat chosen, per side (15.3)
    stage: str = ""  # the side taking results now, then "advance" and "advance_asked"
    retreat_queue: list[str] = field(default_factory=list)
    retreated: list[str] = field(default_factory=list)
    fatigued: bool = False


@dataclass(frozen=True)
class RedeployPick:
    """31.0 (A41): the Allies choose ``count`` of ``options`` to leave."""

    options: tuple[str, ...]
    count: int


@dataclass
class NarvikData(UnitState, game="narvik"):
    """Everything that changes in a game of Assault on Narvik."""

    POOLS: ClassVar[frozenset[str]] = frozenset(
        {"eliminated", "interned", "exited", "redeployed", "reinforcements", "removed", "german_reinforcements"})
    COPIERS: ClassVar[Mapping[str, Any]] = {**UnitState.COPIERS, "fatigue_log": list}

    tracks: dict[str, int] = field(default_factory=dict)  # German AP (18.1), recon hexes left (11.3)
    bases: list[str] = field(default_factory=list)  # Allied supply bases (19.4)
    passes: int = 0  # consecutive passes in the action phase (9.2)
    fatigue_log: list[FatigueRecord] = field(default_factory=list)  # every FP change, with its cause (10.0)

    step: int = 0  # the step within the current phase (6.0)
    initiative: str = ALLIES  # who acts next in the action phase (9.0)
    ask: Ask | None = None  # the decision the game waits for
    cargo: dict[str, str] = field(default_factory=dict)  # ship -> the land unit aboard (20.2)
    landed: list[str] = field(default_factory=list)  # landed this turn: no supply penalty (19.2)
    ap_bonus: bool = False  # the +1 AP of an Allied action given this turn (18.1)
    mas_used: bool = False  # 18.2: once a game
    mas: bool = False  # 18.2: declared this turn
    fuhrer: bool = False  # 8.2.1: Führer orders this turn
    game_end_turn: int | None = None  # 8.1, 24.0: the game ends after this turn
    end_secret: bool = False  # 8.1: the end was set by the Allies' secret event (the German does not know)
    exits_banned: bool = False  # 8.4: no exit VP after an early end is declared
    thaw_turn: int | None = None  # 7.0 (A8): good-weather movement from this turn
    bad: list[str] = field(default_factory=list)  # 7.0: bad weather at trondheim / narvik this turn
    base_occasions: int = 0  # 19.4: designation occasions used (at most 2)
    base_turn: int | None = None
    bases_lost: list[str] = field(default_factory=list)  # 19.4: captured bases (never again)
    redeploy_used: list[int] = field(default_factory=list)  # 31.0 (A41): once-only results rolled
    returning: dict[int, list[str]] = field(default_factory=dict)  # turn -> redeployed units back (31.0)
    ships_lost_for_good: list[str] = field(default_factory=list)  # A40: redeployed ships never replaced
    ship_damage_vp: dict[str, int] = field(default_factory=dict)  # 29.0: VP a damaged ship already gave
    arrivals: list[str] = field(default_factory=list)  # German arrivals still to place (23.4, 30.0)
    redeploy_pick: RedeployPick | None = None
    combat: Combat | None = None
    last_combat: dict[str, Any] | None = None  # the last assault event, for explain
    reacting: bool = False  # 9.1: a reaction is pending
    pending_pass: bool = False  # 9.2: the action was an attack: the initiative passes after the reaction
    completed: bool = False  # an action's own decisions are done (transient, within one order)
    setup_events: list[dict[str, Any]] = field(default_factory=list)  # what happened before the first order
    hidden_pool: list[str] = field(default_factory=list)  # a side's view: the types of the face-down counters
