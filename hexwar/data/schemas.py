"""Schemas of every YAML file under ``maps/``, ``oob/`` and ``tables/`` (pydantic v2).

Every file names its ``kind``; the loader picks the schema by it. Fields are required
unless the schema says otherwise: a missing key is an error, never a silent default.
Table entries may carry ``source:`` provenance (``rules 15.2`` for a number the rules
state, ``authored`` for ours).
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Annotated, Any, Literal, Optional, Union

from pydantic import BaseModel, Field, field_validator, model_validator

from hexwar.data.chart_schemas import (  # noqa: F401 (re-exported: schemas.X names every schema)
    AirTableSpec as AirTableSpec,
    CostRow as CostRow,
    DieTableSpec as DieTableSpec,
    DifferentialCrtSpec as DifferentialCrtSpec,
    FatigueTableSpec as FatigueTableSpec,
    OddsCrtSpec as OddsCrtSpec,
    ReferenceTableSpec as ReferenceTableSpec,
    StackingSpec as StackingSpec,
    TerrainEffectsSpec as TerrainEffectsSpec,
    VictoryLevelsSpec as VictoryLevelsSpec,
    VictoryPointsSpec as VictoryPointsSpec,
    roll_keys as roll_keys,
)
from hexwar.data.geo_schemas import AirOriginSpec, GeographySpec
from hexwar.data.geo_schemas import AreaGeographySpec as AreaGeographySpec  # re-exported
from hexwar.data.spec_base import (  # noqa: F401 (re-export)
    COUNT as COUNT,
    SMALL as SMALL,
    SOURCE_RE as SOURCE_RE,
    Projection as Projection,
    Source as Source,
    Sourced as Sourced,
    Strict as Strict,
    _check_source as _check_source,
)

# --- maps -------------------------------------------------------------------------------

HEXSIDE_KEY = re.compile(r"^\d+/\d+$")


class GridSpec(Strict):
    digits: int = Field(ge=1, le=3, description="digits of a column and of a row in a hex id (2: CCRR)")
    columns: tuple[int, int]
    rows: tuple[int, int]
    hex_km: float = Field(gt=0, le=1000)
    parity: Literal["odd-q"]

    @model_validator(mode="after")
    def _ranges(self) -> "GridSpec":
        if self.columns[0] > self.columns[1] or self.rows[0] > self.rows[1]:
            raise ValueError("columns and rows are [first, last] with first <= last")
        top = 10 ** self.digits - 1
        if min(*self.columns, *self.rows) < 0 or max(*self.columns, *self.rows) > top:
            raise ValueError(f"columns and rows run from 0 to {top} with {self.digits} digits")
        if (self.columns[1] - self.columns[0] + 1) * (self.rows[1] - self.rows[0] + 1) > 250_000:
            raise ValueError("a hex map holds at most 250,000 hexes")
        return self


class PlaceSpec(Strict):
    at: str
    kinds: list[str]
    name: str = ""
    value: int = 0


class BoxSpec(Strict):
    name: str
    links: list[str] = Field(description="map locations ships reach directly from the box")
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
    regions: dict[str, list[str]] = Field(default={}, description="named sets of hexes a game reads: set-up bands, a neutral country, a railway")
    geography: dict[str, Any] = {}

    @field_validator("hexsides")
    @classmethod
    def _side_keys(cls, v: dict[str, list[str]]) -> dict[str, list[str]]:
        for k in v:
            if not HEXSIDE_KEY.match(k):
                raise ValueError(f"hexside key {k!r} must be 'CCRR/CCRR'")
        return v


class HexKmSpec(Sourced):
    value: float = Field(gt=0, le=200, description="the width of a hex, in km")
    note: str = ""


class AreaStepSpec(Sourced):
    value: Union[Annotated[int, Field(ge=1, le=50)], Literal["derived"]] = Field(
        description="hex steps one step of the area map becomes; 'derived': the median of the fewest land-hex "
                    "steps between the towns of neighbouring areas (hexwar.board.conversion)")
    note: str = ""


class HexConversionSpec(Strict):
    """An area map cut into hexes, with the conversion's parameters declared (issue 72): the
    hex size, and how many hex steps one area step becomes (a game reads it wherever its rules
    say "an adjacent area": a move, a retreat, a card's range)."""

    kind: Literal["hex_conversion"]
    name: str
    description: str
    from_map: str = Field(description="the area map (maps/NAME.yaml) cut into hexes")
    areas: list[str] = Field(description="the land areas cut; empty: every land area")
    hex_km: HexKmSpec
    area_step: AreaStepSpec
    aggregated: str = Field(description="the name of the area board merged back from these hexes")


class AreaSpec(Strict):
    name: str
    terrain: str
    center: Optional[tuple[float, float]] = None  # lon, lat
    polygon: Optional[list[tuple[float, float]]] = None  # lon, lat ring
    kinds: list[str] = []
    value: int = 0
    sea: Optional[list[str]] = None  # coasts: sea areas it borders
    air_range_km: Optional[float] = Field(default=None, gt=0, description="an airfield's air range in km")
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
    strength: int = Field(ge=0, le=SMALL)
    mp: Union[int, str]
    fatigue_limit: int = Field(ge=0, le=SMALL)
    zoc_exit_mp: int = Field(ge=0, le=SMALL, description="MP to leave a hex in an enemy zone of control")
    infantry: bool
    bombard: int = Field(default=0, ge=0, le=SMALL)
    bombard_range: int = Field(default=0, ge=0, le=SMALL)
    transport: int = Field(default=0, ge=0, le=SMALL)

    @field_validator("mp")
    @classmethod
    def _mp(cls, v: Union[int, str]) -> Union[int, str]:
        ok = (type(v) is int and 0 <= v <= SMALL) or (isinstance(v, str) and re.fullmatch(r"\d{1,3}(/[1-9]\d{0,2})?", v)
                                                       and Fraction(v) <= SMALL)
        if not ok:
            raise ValueError(f"MP {v!r} must be 0 to {SMALL}, whole or a fraction like 3/2")
        return v


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
    turn: int = Field(default=1, ge=1, le=COUNT, description="arrival turn (1: the initial deployment; later: a reinforcement)")
    pool: Optional[str] = Field(default=None, description="off-map pool the counter waits in, e.g. german_reinforcements")
    source: str = ""


class OobSpec(Strict):
    kind: Literal["order_of_battle"]
    name: str
    unit_types: str

    @field_validator("unit_types")
    @classmethod
    def _plain_name(cls, v: str) -> str:
        return data_name(v)
    sides: list[str]
    units: list[UnitSpec]
    dummies: dict[str, Annotated[int, Field(ge=0, le=SMALL)]] = Field(default={}, description="dummy counters per side")
    notes: dict[str, str] = {}


class SetupSpec(Strict):
    unit: str
    at: str
    fatigue: int = Field(default=0, ge=0, le=SMALL)
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
    turns: int = Field(ge=1, le=COUNT)
    setup: list[SetupSpec]
    bases: list[str] = []
    supply_side: Optional[str] = None
    enemy_of: dict[str, str] = {}

    @field_validator("map", "oob")
    @classmethod
    def _plain_name(cls, v: str) -> str:
        return data_name(v)

    @field_validator("tables")
    @classmethod
    def _plain_names(cls, v: dict[str, str]) -> dict[str, str]:
        for role, name in v.items():
            try:
                data_name(name)
            except ValueError as e:
                raise ValueError(f"{role}: {e}") from None
        return v


def data_name(v: str) -> str:
    """A file named by another file: relative, inside the data folders (no ``..``, not absolute)."""
    if not v or v.startswith(("/", "\\")) or ".." in re.split(r"[/\\]", v) or "\x00" in v or re.match(r"^[A-Za-z]:", v):
        raise ValueError(f"{v!r} must be a name inside the data folder, like FOLDER/NAME (no '..', not absolute)")
    return v


#: kind -> schema; games add their own kinds with :func:`register_spec`.
class ComparePresetSpec(Strict):
    """A shipped comparison (``hexwar compare --preset NAME``): its setups and games each."""

    title: str = Field(min_length=1, max_length=300)
    setups: list[str] = Field(min_length=2, max_length=12)
    games: list[int]
    out: str = Field(pattern=r"^docs/[a-z0-9-]+$", description="the report's folder, under docs/")
    intro: str = ""
    #: more bot pairings for every setup (issue 58): the setups' own bots are the first;
    #: each other pairing's bots (``search:8``) and the games each setup plays with them
    pairings: list["PairingSpec"] = Field(default_factory=list, max_length=4)
    #: a sweep over a board's conversion (issue 72): the first setup is the baseline (drawn as
    #: a line), the second is played at each value of the parameter
    sweep: Optional["SweepSpec"] = None

    @model_validator(mode="after")
    def _games_per_setup(self) -> "ComparePresetSpec":
        if self.sweep is not None and len(self.setups) != 2:
            raise ValueError("sweep: give two setups, the baseline and the setup swept")
        if len(self.games) != len(self.setups):
            raise ValueError(f"games: {len(self.games)} counts for {len(self.setups)} setups; give one per setup")
        if any(not 1 <= n <= 1_000_000 for n in self.games):
            raise ValueError("games: each count is from 1 to 1000000")
        return self


class PairingSpec(Strict):
    """Another pairing of bots for a preset's setups: their bots, and games per setup."""

    bots: str = Field(min_length=1, max_length=100, pattern=r"^[a-z0-9_:=,]+$")
    games: int = Field(ge=1, le=1_000_000)


class SweepSpec(Strict):
    """A parameter of a board's conversion and the values a sweep plays it at."""

    over: Literal["step", "km"] = Field(description="step: hex steps an area step becomes; km: the hex size")
    values: list[Annotated[float, Field(gt=0, le=200)]] = Field(min_length=2, max_length=20)


ComparePresetSpec.model_rebuild()


class ComparePresetsSpec(Strict):
    kind: Literal["compare_presets"]
    name: str
    presets: dict[str, ComparePresetSpec]


SPECS: dict[str, type[BaseModel]] = {
    "hex_map": HexMapSpec,
    "area_map": AreaMapSpec,
    "hex_conversion": HexConversionSpec,
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
    "compare_presets": ComparePresetsSpec,
}


def register_spec(kind: str, model: type[BaseModel]) -> None:
    """Make a game's own file kind known to the loader (a game's schemas live in its package)."""
    if kind in SPECS and SPECS[kind] is not model:
        raise ValueError(f"two schemas for the data kind {kind!r}")
    SPECS[kind] = model


AreaMapSpec.model_rebuild()
