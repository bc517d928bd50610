"""Schemas of every YAML file under ``maps/``, ``oob/`` and ``tables/`` (pydantic v2).

Every file names its ``kind``; the loader picks the schema by it. Fields are required
unless the schema says otherwise: a missing key is an error, never a silent default.
Table entries may carry ``source:`` provenance (``rules 15.2`` for a number the rules
state, ``authored`` for ours).
"""

from __future__ import annotations

import re
from typing import Any, Literal, Optional, Union

from pydantic import BaseModel, Field, field_validator, model_validator

from hexwar.data.chart_schemas import (  # noqa: F401 (re-exported: schemas.X names every schema)
    AirTableSpec,
    CostRow,
    DieTableSpec,
    DifferentialCrtSpec,
    FatigueTableSpec,
    OddsCrtSpec,
    ReferenceTableSpec,
    StackingSpec,
    TerrainEffectsSpec,
    VictoryLevelsSpec,
    VictoryPointsSpec,
    roll_keys,
)
from hexwar.data.geo_schemas import AirOriginSpec, AreaGeographySpec, GeographySpec
from hexwar.data.spec_base import (  # noqa: F401 (re-export)
    SOURCE_RE,
    Projection,
    Source,
    Sourced,
    Strict,
    _check_source,
)

# --- maps -------------------------------------------------------------------------------

HEXSIDE_KEY = re.compile(r"^\d+/\d+$")


class GridSpec(Strict):
    digits: int = Field(ge=1, le=4)
    columns: tuple[int, int]
    rows: tuple[int, int]
    hex_km: float = Field(gt=0)
    parity: Literal["odd-q"]

    @model_validator(mode="after")
    def _ranges(self) -> "GridSpec":
        if self.columns[0] > self.columns[1] or self.rows[0] > self.rows[1]:
            raise ValueError("columns and rows are [first, last] with first <= last")
        return self


class PlaceSpec(Strict):
    at: str
    kinds: list[str]
    name: str = ""
    value: int = 0


class BoxSpec(Strict):
    name: str
    links: list[str] = Field(description="map locations ships reach directly from the box (22.1)")
    kinds: list[str] = ["box"]


class HexMapSpec(Strict):
    kind: Literal["hex_map"]
    name: str
    description: str
    source: str
    grid: GridSpec
    projection: Optional[Projection] = None
    default_terrain: str
    terrain: dict[str, str] = {}
    missing: list[str] = []
    hexsides: dict[str, list[str]] = {}
    places: list[PlaceSpec] = []
    boxes: dict[str, BoxSpec] = {}
    regions: dict[str, list[str]] = Field(default={}, description="named sets of hexes: set-up bands (5.1), Sweden (22.2), railway (19.1)")
    geography: dict[str, Any] = {}

    @field_validator("hexsides")
    @classmethod
    def _side_keys(cls, v: dict[str, list[str]]) -> dict[str, list[str]]:
        for k in v:
            if not HEXSIDE_KEY.match(k):
                raise ValueError(f"hexside key {k!r} must be 'CCRR/CCRR'")
        return v


class AreaSpec(Strict):
    name: str
    terrain: str
    center: Optional[tuple[float, float]] = None  # lon, lat
    polygon: Optional[list[tuple[float, float]]] = None  # lon, lat ring
    kinds: list[str] = []
    value: int = 0
    sea: Optional[list[str]] = None  # coasts: sea areas it borders
    air_range_km: Optional[float] = Field(default=None, gt=0, description="an airfield's reach (Kampen 2.3)")
    source: Optional[str] = None


class AreaBorderSpec(Strict):
    a: str
    b: str
    features: list[str] = []


class AreaMapSpec(Strict):
    kind: Literal["area_map"]
    name: str
    description: str
    source: str
    projection: Optional[Projection] = None
    areas: dict[str, AreaSpec]
    borders: list[AreaBorderSpec]
    boxes: dict[str, BoxSpec] = {}
    air_origins: dict[str, AirOriginSpec] = {}


# --- unit types, orders of battle, scenarios -------------------------------------------


class UnitTypeSpec(Sourced):
    kind: Literal[
        "infantry", "naval_infantry", "mountain", "paratroop", "artillery", "tank", "ship", "dummy", "battalion"
    ]
    size: Literal["company", "battalion", "battery", "ship", "flotilla", "none"]
    movement_class: str
    strength: int = Field(ge=0)
    mp: Union[int, str]
    fatigue_limit: int = Field(ge=0)
    zoc_exit_mp: int = Field(ge=0, description="rules 12.1: MP to leave an enemy ZoC hex")
    infantry: bool
    bombard: int = 0
    bombard_range: int = 0
    transport: int = 0


class UnitTypesSpec(Strict):
    kind: Literal["unit_types"]
    name: str
    movement_classes: list[str]
    types: dict[str, UnitTypeSpec]


class UnitSpec(Strict):
    id: str
    type: str
    side: str
    nation: str
    formation: str = ""
    name: str = ""
    turn: int = Field(default=1, ge=1, description="arrival turn (1: initial deployment, 27.0; later: 28.0)")
    pool: Optional[str] = Field(default=None, description="off-map pool the counter waits in, e.g. german_reinforcements (30.0)")
    source: str = ""


class OobSpec(Strict):
    kind: Literal["order_of_battle"]
    name: str
    unit_types: str
    sides: list[str]
    units: list[UnitSpec]
    dummies: dict[str, int] = Field(default={}, description="dummy counters per side (11.1: at most 5)")
    notes: dict[str, str] = {}


class SetupSpec(Strict):
    unit: str
    at: str
    fatigue: int = 0
    concealed: bool = False


class ScenarioSpec(Strict):
    kind: Literal["scenario"]
    name: str
    description: str
    game: str
    map: str
    oob: str
    tables: dict[str, str]
    weather: str
    sides: list[str]
    first_side: str
    turns: int = Field(ge=1)
    setup: list[SetupSpec]
    bases: list[str] = []
    supply_side: Optional[str] = None
    enemy_of: dict[str, str] = {}


#: kind -> schema; games add their own kinds with :func:`register_spec`.
SPECS: dict[str, type[BaseModel]] = {
    "hex_map": HexMapSpec,
    "area_map": AreaMapSpec,
    "unit_types": UnitTypesSpec,
    "order_of_battle": OobSpec,
    "scenario": ScenarioSpec,
    "terrain_effects": TerrainEffectsSpec,
    "fatigue_table": FatigueTableSpec,
    "stacking": StackingSpec,
    "crt_differential": DifferentialCrtSpec,
    "crt_odds": OddsCrtSpec,
    "die_table": DieTableSpec,
    "geography": GeographySpec,
    "area_geography": AreaGeographySpec,
    "air_table": AirTableSpec,
    "reference_table": ReferenceTableSpec,
    "victory_points": VictoryPointsSpec,
    "victory_levels": VictoryLevelsSpec,
}


def register_spec(kind: str, model: type[BaseModel]) -> None:
    """Make a game's own file kind known to the loader (a game's schemas live in its package)."""
    if kind in SPECS and SPECS[kind] is not model:
        raise ValueError(f"two schemas for the data kind {kind!r}")
    SPECS[kind] = model


AreaMapSpec.model_rebuild()
