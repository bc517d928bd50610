"""The Konflikt '47 scenario templates as data (seed 002): scale, game length, reserves,
hidden set-up, control, bombardment, unit costs and morale, and the six scenarios. Registered
with the data layer as ``konflikt_templates``."""

from __future__ import annotations

from typing import Any, Literal, Optional

from pydantic import Field, model_validator

from hexwar.data.schemas import register_spec
from hexwar.data.spec_base import Sourced, Strict


class Val(Sourced):
    """One number (or list, or small table) with its provenance."""

    value: Any


class UnitSpec(Sourced):
    cost: int = Field(ge=0, le=10_000)  # 3.6: requisition points
    morale: int = Field(ge=2, le=12)  # 3.4: the order test is 2D6 <= morale + modifiers
    damage: Optional[int] = Field(default=None, ge=2, le=12)  # a vehicle's Damage value (2.4); none for soldiers


class Allot(Strict):
    """How many of a side's units go somewhere at set-up."""

    fraction: Optional[float] = Field(default=None, ge=0, le=1)  # at least this share
    fraction_floor: Optional[float] = Field(default=None, ge=0, le=1)  # exactly floor(share)
    fraction_of_rest: Optional[float] = Field(default=None, ge=0, le=1)  # exactly floor(share of the rest)
    where: Optional[Literal["own_zone"]] = None
    hidden: bool = False
    units: list[Literal["infantry", "any"]] = []  # exactly these, in order
    near_centre_inches: Optional[int] = None
    max_damage: Optional[int] = Field(default=None, ge=2, le=12)  # 2.4: the "any" unit has a Damage value this or less
    only: Optional[Literal["infantry"]] = None
    away_inches: Optional[int] = None
    optional: bool = False


class ScenarioSpec(Sourced):
    d6: int = Field(ge=1, le=6)
    title: str
    roles: bool  # the high roller chooses attacker or defender (else a table side)
    deploy: dict[Literal["attacker", "defender", "both"], Allot] = {}
    first_wave: dict[Literal["attacker", "defender", "both"], Allot] = {}
    bombardment: Optional[Literal["attacker"]] = None
    objectives: Optional[dict[str, Any]] = None
    centre: bool = False
    bases: Optional[dict[str, Any]] = None
    reserves_turn_one: bool = False
    exit: Optional[Literal["attacker"]] = None
    points: dict[Literal["attacker", "defender", "both"], dict[Literal["destroyed", "in_enemy_zone", "exited"], int]] = {}
    victory: dict[str, Any]

    @model_validator(mode="after")
    def _kind(self) -> "ScenarioSpec":
        kinds = ("points", "objectives", "control", "marker", "bases")
        if self.victory.get("kind") not in kinds:
            raise ValueError(f"victory.kind must be one of {kinds} (rules 2.1-2.6)")
        return self


class KonfliktTemplatesSpec(Strict):
    kind: Literal["konflikt_templates"]
    scale: dict[Literal["inches_per_hex", "area_steps", "zone_inches"], Val]
    game_length: dict[Literal["die_after_turn", "ends_on", "max_turns"], Val]
    reserves: dict[str, Val]
    hidden: dict[str, Val]
    control: dict[str, Val]
    bombardment: dict[str, Val]
    attrition: dict[Literal["winner_kill_factor", "loser_gap", "outright_share"], Val]
    units: dict[str, UnitSpec]
    scenarios: dict[str, ScenarioSpec]

    @model_validator(mode="after")
    def _chart(self) -> "KonfliktTemplatesSpec":
        d6 = sorted(s.d6 for s in self.scenarios.values())
        if d6 != [1, 2, 3, 4, 5, 6]:
            raise ValueError(f"scenarios: the d6 chart needs one scenario for each face 1-6, not {d6} (rules 1)")
        return self


register_spec("konflikt_templates", KonfliktTemplatesSpec)
