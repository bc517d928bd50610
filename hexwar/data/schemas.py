"""Schemas of every YAML file under ``maps/``, ``oob/`` and ``tables/`` (pydantic v2).

Every file names its ``kind``; the loader picks the schema by it. Fields are required
unless the schema says otherwise: a missing key is an error, never a silent default.
Table entries may carry ``source:`` provenance (``rules 15.2`` for a number the rules
state, ``authored`` for ours).
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

SOURCE_RE = re.compile(r"^(rules [A-Z]?\d+(\.\d+)*( ?[,;/] ?[A-Z]?\d+(\.\d+)*)*|authored|fixture|checked|geography .+|scenario .+)(\b.*)?$")


class Strict(BaseModel):
    """Base model: unknown keys are errors (a typo must not pass silently)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def _check_source(v: str) -> str:
    if not SOURCE_RE.match(v):
        raise ValueError(
            f"source {v!r} must be 'rules N.N', 'authored', 'fixture', 'checked ...', 'geography ...' or 'scenario ...'"
        )
    return v


Source = Annotated[str, Field(description="provenance: 'rules 15.2', 'authored', 'fixture'")]


class Sourced(Strict):
    """An entry with provenance."""

    source: Source

    @field_validator("source")
    @classmethod
    def _source_ok(cls, v: str) -> str:
        return _check_source(v)


# --- maps -------------------------------------------------------------------------------

HEXSIDE_KEY = re.compile(r"^\d+/\d+$")


class Projection(Strict):
    """Local equirectangular projection: lon/lat of the plane origin (hex 0000's centre)."""

    lon0: float
    lat0: float


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


class OobSpec(Strict):
    kind: Literal["order_of_battle"]
    name: str
    unit_types: str
    sides: list[str]
    units: list[UnitSpec]


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


# --- tables -----------------------------------------------------------------------------

CostValue = Union[int, str]  # integer MP, a fraction "1/2", or "P" (prohibited)
COST_RE = re.compile(r"^(P|\d+(/\d+)?)$")


class CostRow(Strict):
    """One terrain class (or hexside feature) row: MP per movement class, with provenance."""

    model_config = ConfigDict(extra="allow", frozen=True)
    source: Source

    @model_validator(mode="after")
    def _costs(self) -> "CostRow":
        _check_source(self.source)
        for k, v in (self.model_extra or {}).items():
            if not (isinstance(v, int) and v >= 0) and not (isinstance(v, str) and COST_RE.match(v)):
                raise ValueError(f"{k}: cost {v!r} must be a whole number, a fraction like 1/2, or P")
        return self

    def costs(self) -> dict[str, CostValue]:
        """Return movement class -> cost."""
        return dict(self.model_extra or {})


class WeatherSection(Strict):
    terrain: dict[str, CostRow]
    hexsides: dict[str, CostRow]
    road: CostRow


class TerrainEffectsSpec(Strict):
    kind: Literal["terrain_effects"]
    name: str
    terrain_classes: dict[str, str] = Field(description="terrain code -> terrain class")
    movement_classes: list[str]
    weather: dict[str, WeatherSection]


class FatigueCause(Sourced):
    fp: int
    note: str = ""


class FatigueTableSpec(Strict):
    kind: Literal["fatigue_table"]
    name: str
    causes: dict[str, FatigueCause]
    recovery_at_limit: FatigueCause
    recovery_other: FatigueCause


class StackingSpec(Sourced):
    kind: Literal["stacking"]
    name: str
    limit: int
    points: dict[str, int]
    free_kinds: list[str]
    unlimited_places: list[str]


class DiffColumn(Sourced):
    min: Optional[int]
    max: Optional[int]
    results: list[str]

    @field_validator("results")
    @classmethod
    def _results(cls, v: list[str]) -> list[str]:
        for r in v:
            if not re.match(r"^\d+/\d+$", r):
                raise ValueError(f"result {r!r} must be 'attacker/defender', e.g. '1/2'")
        return v


class DifferentialCrtSpec(Strict):
    kind: Literal["crt_differential"]
    name: str
    dice: Literal["1D6"]
    columns: list[DiffColumn]

    @model_validator(mode="after")
    def _cover(self) -> "DifferentialCrtSpec":
        cols = self.columns
        if not cols:
            raise ValueError("a CRT needs columns")
        if cols[0].min is not None or cols[-1].max is not None:
            raise ValueError("the first column needs min: null and the last max: null (open ends)")
        for i, c in enumerate(cols):
            if len(c.results) != 6:
                raise ValueError(f"columns.{i}: 1D6 needs 6 results, found {len(c.results)}")
            prev_max = cols[i - 1].max if i else None
            if i and (prev_max is None or c.min != prev_max + 1):
                raise ValueError(f"columns.{i}: min must follow the previous column's max + 1")
        return self


class OddsColumn(Sourced):
    ratio: str
    results: list[str]

    @field_validator("ratio")
    @classmethod
    def _ratio(cls, v: str) -> str:
        if not re.match(r"^\d+:\d+$", v):
            raise ValueError(f"ratio {v!r} must look like '3:1' or '1:2'")
        return v


class OddsCrtSpec(Strict):
    kind: Literal["crt_odds"]
    name: str
    dice: Literal["1D6"]
    codes: dict[str, str]
    columns: list[OddsColumn]

    @model_validator(mode="after")
    def _results(self) -> "OddsCrtSpec":
        for i, c in enumerate(self.columns):
            if len(c.results) != 6:
                raise ValueError(f"columns.{i}: 1D6 needs 6 results")
            for r in c.results:
                if r not in self.codes:
                    raise ValueError(f"columns.{i}: result {r!r} is not among codes {sorted(self.codes)}")
        return self


class DieEntry(Sourced):
    roll: Union[int, tuple[int, int], str]
    result: Any


class DieTableSpec(Strict):
    kind: Literal["die_table"]
    name: str
    dice: str
    read: Literal["sum", "first_second"]
    entries: list[DieEntry]


LonLat = tuple[float, float]


class GeoPlace(Sourced):
    lonlat: LonLat
    kinds: list[str] = []
    name: str = ""
    value: int = 0


class GeoLine(Sourced):
    line: list[LonLat]


class GeoPolygon(Sourced):
    polygon: list[LonLat]


class GeoAnchor(Strict):
    place: str
    hex: str


class GeoGrid(Strict):
    columns: tuple[int, int]
    rows: tuple[int, int]
    hex_km: float
    anchor: GeoAnchor


class GeoBorder(Sourced):
    border: list[LonLat]


class GeoRailway(Sourced):
    line: list[LonLat]


class GeoPoint(Sourced):
    lonlat: LonLat


class GeographySpec(Strict):
    """Real-world sources of a hex map: places, fjords, roads, railway, borders (lon/lat)."""

    kind: Literal["geography"]
    name: str
    grid: GeoGrid
    places: dict[str, GeoPlace]
    harstad: Optional[GeoPoint] = None
    fjords: dict[str, GeoLine] = {}
    lakes: dict[str, GeoPolygon] = {}
    glaciers: dict[str, GeoPolygon] = {}
    sweden: Optional[GeoBorder] = None
    railway: Optional[GeoRailway] = None
    roads: dict[str, GeoLine] = {}
    rivers: dict[str, GeoLine] = {}
    ridges: dict[str, GeoLine] = {}

    @model_validator(mode="after")
    def _anchor(self) -> "GeographySpec":
        if self.grid.anchor.place not in self.places:
            raise ValueError(f"grid.anchor.place: {self.grid.anchor.place!r} is not among places")
        return self


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
}
