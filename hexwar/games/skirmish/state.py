"""The skirmish ruleset's state: the counters, VP and weather every unit game has, and what
its simplified action phase adds (the supply bases, the passes in a row, the fatigue log)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping

from hexwar.core.state import UnitState
from hexwar.rules.fatigue import FatigueRecord


@dataclass
class SkirmishData(UnitState, game="skirmish"):
    """Everything that changes in a skirmish game (and, with its own fields, in a Konflikt
    '47 scenario, which the skirmish ruleset hosts)."""

    COPIERS: ClassVar[Mapping[str, Any]] = {**UnitState.COPIERS, "fatigue_log": list}

    bases: list[str] = field(default_factory=list)  # supply sources (as 19.4)
    passes: int = 0  # passes in a row: two end the turn (as 9.2)
    fatigue_log: list[FatigueRecord] = field(default_factory=list)  # every FP change, with its cause (10.0)
