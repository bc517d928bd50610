"""A Konflikt '47 scenario's state: everything that changes in a game, and the pools a unit
waits in off the table (3.4 reserves, the first wave, 3.5 outflankers)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from hexwar.games.skirmish.state import SkirmishData

SIDES = ("allies", "germans")
RESERVE, FIRST_WAVE, FLANK, UNSET, EXITED = "reserve", "first wave", "outflank", "to set up", "exited"


@dataclass
class KonfliktData(SkirmishData, game="konflikt"):
    """Everything that changes in a Konflikt '47 scenario."""

    POOLS: ClassVar[frozenset[str]] = frozenset({"eliminated", "removed", "reinforcements", RESERVE, FIRST_WAVE, FLANK,
                                                 UNSET, EXITED})

    template: str = ""
    attacker: str = ""  # "" in the scenarios without roles
    edge: dict[str, str] = field(default_factory=dict)  # side -> its own table edge (north / south)
    chooser: str = ""  # the high roller (2.x: "both roll a die")
    todo: list[str] = field(default_factory=list)  # set-up steps still to come
    bag: list[str] = field(default_factory=list)  # this turn's order dice, by side (digest 4.3)
    acted: list[str] = field(default_factory=list)  # units that have had their order this turn
    drawn: str = ""  # the side whose die was drawn
    last_turn: int = 0  # 6, or 7 after the die (1)
    objectives: dict[str, str] = field(default_factory=dict)  # location -> side holding it (2.3, 2.4)
    marker: str = ""  # Top Secret: where the marker lies (2.5)
    carrier: str = ""  # the unit carrying it
    base_at: dict[str, str] = field(default_factory=dict)  # Demolition: side -> its base (2.6)
    razed: list[str] = field(default_factory=list)  # sides whose base was destroyed
    flank: dict[str, str] = field(default_factory=dict)  # outflanking unit -> left / right (secret, 3.5)
    shown: list[str] = field(default_factory=list)  # sides whose outflank note is revealed
    ended: str = ""
