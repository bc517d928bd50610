"""The rule sections the shared rules cite, in the numbering of the game that plays them.

A rule function explains each figure it works out with the section of the rules it comes
from (``Ledger`` lines, reasons). The functions are shared by games with different
rulebooks, so none of them holds a section number: the game passes its own, one record
per concern (movement, ZoC, stacking, supply, fire, assault, combat, fatigue averages).
Every field is required: a game that cites nothing for a concern says so with "".
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MoveCites:
    """What a movement ledger cites."""

    terrain: str  # the chart's cost to enter a location or cross a border
    road: str  # the road rate along a road or railway
    box: str  # off-map boxes are never entered by land
    zoc_exit: str  # the extra MP to leave an enemy ZoC (and artillery that may not)
    blocked: str  # never into (or through) a location holding enemy units
    min_move: str  # one location always, whatever it costs


@dataclass(frozen=True)
class ZocCites:
    """What a ZoC ledger and the reasons a unit has no ZoC cite."""

    zoc: str  # who exerts a ZoC, and where
    concealed: str  # a face-down unit
    fatigue_limit: str  # a unit at its fatigue limit
    amphibious: str  # an amphibious-assault attacker
    aboard: str  # a unit aboard a ship


@dataclass(frozen=True)
class StackCites:
    """What a stacking ledger cites."""

    limit: str  # points per unit and the limit of a location
    unlimited: str  # places without a limit


@dataclass(frozen=True)
class SupplyCites:
    """What a line of supply cites."""

    line: str  # the line's length and what it may cross
    base: str  # the bases it runs to
    zoc: str  # enemy ZoC blocks it, unless friendly infantry holds the location


@dataclass(frozen=True)
class FireCites:
    """What a line of fire cites."""

    fire: str  # range, and the ridges that block a line


@dataclass(frozen=True)
class AssaultCites:
    """What an assault's strengths and DRMs cite."""

    strength: str  # each unit's combat strength
    halved: str  # halved strength (an amphibious assault)
    afl: str  # the average fatigue level subtracted from a side's strength
    tanks: str  # the tanks' DRM
    formation: str  # a formation attacking with two or more units
    artillery_alone: str  # artillery defending alone


@dataclass(frozen=True)
class CombatCites:
    """What a resolution on the differential CRT cites."""

    crt: str  # the differential, the column and the die
