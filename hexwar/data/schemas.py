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

SOURCE_RE = re.compile(r"^(rules [A-Z]?\d+(\.\d+)*( ?[,;/] ?[A-Z]?\d+(\.\d+)*)*|authored|fixture|checked|geography .+|scenario .+|Ex \d.*|S1.*)(\b.*)?$")


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
    air_origins: dict[str, "AirOriginSpec"] = {}


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


class DrmSpec(Sourced):
    value: int
    note: str = ""


class DifferentialCrtSpec(Strict):
    kind: Literal["crt_differential"]
    name: str
    dice: Literal["1D6"]
    columns: list[DiffColumn]
    drms: dict[str, DrmSpec] = {}

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


def roll_keys(roll: int | tuple[int, int] | str, read: str) -> list[int]:
    """Expand a table entry's ``roll`` (5, [3, 4], "21-23") into roll keys (sums or 10*first+second)."""
    if isinstance(roll, int):
        return [roll]
    if isinstance(roll, tuple):
        return list(range(roll[0], roll[1] + 1))
    if "-" in roll:
        lo, hi = (int(x) for x in roll.split("-"))
        return [k for k in range(lo, hi + 1) if read == "sum" or 1 <= k % 10 <= 6]
    return [int(roll)]


class DieTableSpec(Strict):
    kind: Literal["die_table"]
    name: str
    dice: str
    read: Literal["sum", "first_second"]
    entries: list[DieEntry]

    @model_validator(mode="after")
    def _cover(self) -> "DieTableSpec":
        m = re.match(r"^(\d+)D6$", self.dice)
        if not m:
            raise ValueError(f"dice: {self.dice!r} must look like '2D6'")
        n = int(m.group(1))
        if self.read == "first_second":
            if n != 2:
                raise ValueError("read: first_second needs 2D6 (8.3)")
            want = {10 * a + b for a in range(1, 7) for b in range(1, 7)}
        else:
            want = set(range(n, 6 * n + 1))
        seen: dict[int, int] = {}
        for i, e in enumerate(self.entries):
            for k in roll_keys(e.roll, self.read):
                if k not in want:
                    raise ValueError(f"entries.{i}: roll {k} cannot come up on {self.dice}")
                if k in seen:
                    raise ValueError(f"entries.{i}: roll {k} is already in entries.{seen[k]}")
                seen[k] = i
        missing = sorted(want - set(seen))
        if missing:
            raise ValueError(f"entries: no result for rolls {missing}")
        return self


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


class AirOriginSpec(Sourced):
    """An off-board air base and its reach, e.g. Kampen om Norge's "Fra Tyskland" line."""

    name: str
    lonlat: LonLat
    air_range_km: float = Field(gt=0)


class AreaGeoSpec(Sourced):
    name: str
    lonlat: LonLat
    kinds: list[str] = []
    sea: list[str] = []
    air_range_km: Optional[float] = Field(default=None, gt=0)
    named: bool = True


class SeaGeoSpec(Sourced):
    name: str
    lonlat: LonLat
    mined: bool = False


class AreaGeographySpec(Strict):
    """Real-world sources of an area map: area towns, seas, borders (lon/lat)."""

    kind: Literal["area_geography"]
    name: str
    description: str
    projection: Projection
    areas: dict[str, AreaGeoSpec]
    unusable: dict[str, AreaGeoSpec] = {}
    seas: dict[str, SeaGeoSpec] = {}
    sea_borders: list[tuple[str, str]] = []
    air_origins: dict[str, AirOriginSpec] = {}
    sweden_border: list[LonLat] = []
    borders: list[list[str]]

    @model_validator(mode="after")
    def _refs(self) -> "AreaGeographySpec":
        names = set(self.areas) | set(self.seas)
        for i, pair in enumerate(self.borders):
            if len(pair) < 2 or any(x not in self.areas for x in pair[:2]):
                raise ValueError(f"borders.{i}: {pair} must start with two land areas")
        for i, (s1, s2) in enumerate(self.sea_borders):
            if s1 not in self.seas or s2 not in self.seas:
                raise ValueError(f"sea_borders.{i}: {s1}-{s2} must name sea areas")
        for k, area in self.areas.items():
            for x in area.sea:
                if x not in names:
                    raise ValueError(f"areas.{k}.sea: {x!r} is not a sea area")
        return self


class AirColumn(Sourced):
    ap_min: int = Field(ge=1)
    ap_max: int
    infantry: list[int]
    naval: list[int]

    @model_validator(mode="after")
    def _rows(self) -> "AirColumn":
        for name in ("infantry", "naval"):
            v = getattr(self, name)
            if len(v) != 11:
                raise ValueError(f"{name}: 2D6 needs 11 results (rolls 2..12), found {len(v)}")
        if any(x not in (0, 1, 2) for x in self.naval):
            raise ValueError("naval: results are 0 (none), 1 (damaged; sunk if damaged) or 2 (sunk) (18.1.3)")
        return self


class AirTableSpec(Strict):
    """The air table (18.1): AP committed x 2D6, 'Infantry' and 'Naval' columns, with DRMs."""

    kind: Literal["air_table"]
    name: str
    dice: Literal["2D6"]
    columns: list[AirColumn]
    drms: dict[str, DrmSpec]

    @model_validator(mode="after")
    def _cover(self) -> "AirTableSpec":
        lo = 1
        for i, c in enumerate(self.columns):
            if c.ap_min != lo:
                raise ValueError(f"columns.{i}: ap_min must be {lo} (columns cover 1..30 AP without gaps, 18.1)")
            lo = c.ap_max + 1
        if lo != 31:
            raise ValueError("the last column must end at 30 AP (18.1: max 30)")
        return self


class RefRow(Strict):
    """A row of a reference chart: any named values plus provenance."""

    model_config = ConfigDict(extra="allow", frozen=True)
    source: Source

    @model_validator(mode="after")
    def _src(self) -> "RefRow":
        _check_source(self.source)
        return self


class ReferenceTableSpec(Strict):
    """A chart without dice (naval capabilities, amphibious transport): rows of named values."""

    kind: Literal["reference_table"]
    name: str
    columns: list[str]
    rows: dict[str, RefRow]

    @model_validator(mode="after")
    def _cols(self) -> "ReferenceTableSpec":
        for k, r in self.rows.items():
            missing = [c for c in self.columns if c not in (r.model_extra or {})]
            if missing:
                raise ValueError(f"rows.{k}: missing columns {missing}")
        return self


# --- Kampen om Norge: cards and scenarios ----------------------------------------------

KAMPEN_FACTIONS = ("germans", "norwegians", "allies")


def _factions(key: str, d: dict[str, Any]) -> None:
    bad = [k for k in d if k not in KAMPEN_FACTIONS]
    if bad:
        raise ValueError(f"{key}: {bad[0]!r} is not a faction (germans, norwegians, allies)")


CARD_SLOTS = ("attack", "defend", "react", "move", "sabotage", "counter", "escape", "evacuate", "reinforce", "submarine", "divert")


class CardUse(Sourced):
    """One function of a card: when it is played (slot) and what it does."""

    slot: Literal["attack", "defend", "react", "move", "sabotage", "counter", "escape", "evacuate", "reinforce", "submarine", "divert"]
    dice: int = Field(default=0, ge=0)
    cancels: list[str] = []
    needs: Optional[Literal["air", "coast"]] = None
    rapid: Optional[tuple[int, int]] = None
    rail: Optional[tuple[int, int]] = None
    paradrop: int = 0
    airlift: int = 0
    invasion: int = 0
    returns_group: int = 0
    land_only: bool = False
    flee: int = 0
    saves: int = 0
    anywhere: bool = False


class CardSpec(Strict):
    name: str
    gloss: str
    faction: Literal["germans", "norwegians", "allies", "any"]
    type: str
    uses: list[CardUse]


class CopySpec(Sourced):
    card: str
    count: int = Field(ge=1)
    symbols: int = Field(ge=0)
    dice: Optional[int] = Field(default=None, ge=0)


class DeckSpec(Strict):
    size: int = Field(ge=1)
    copies: list[CopySpec]

    @model_validator(mode="after")
    def _size(self) -> "DeckSpec":
        n = sum(c.count for c in self.copies)
        if n != self.size:
            raise ValueError(f"copies add up to {n} cards, the deck has {self.size} (rules 2.4)")
        return self


class KampenCardsSpec(Strict):
    kind: Literal["kampen_cards"]
    cards: dict[str, CardSpec]
    decks: dict[str, DeckSpec]

    @model_validator(mode="after")
    def _refs(self) -> "KampenCardsSpec":
        _factions("decks", self.decks)
        for side, d in self.decks.items():
            for i, c in enumerate(d.copies):
                if c.card not in self.cards:
                    raise ValueError(f"decks.{side}.copies.{i}.card: {c.card!r} is not a card")
        types = {c.type for c in self.cards.values()}
        for k, card in self.cards.items():
            for j, u in enumerate(card.uses):
                for t in u.cancels:
                    if t not in types:
                        raise ValueError(f"cards.{k}.uses.{j}.cancels: {t!r} is not a card type")
        return self


class KampenScenarioSpec(Strict):
    kind: Literal["kampen_scenario"]
    name: str
    title: str
    board: str
    source: str
    decks: Union[Literal["full"], dict[str, dict[str, int]]]
    hands: dict[str, int]
    must_play: list[str]
    start: dict[str, dict[str, int]]
    allied_landing: Optional[dict[str, int]] = None
    reinforcements: bool
    end: Literal["german_deck", "allied_deck"]
    victory: Union[Literal["point_cities"], dict[Literal["objectives"], list[str]]]
    region: list[str] = []

    @model_validator(mode="after")
    def _sides(self) -> "KampenScenarioSpec":
        if isinstance(self.decks, dict):
            _factions("decks", self.decks)
        _factions("hands", self.hands)
        _factions("start", self.start)
        _factions("must_play", {k: 0 for k in self.must_play})
        missing = [f for f in KAMPEN_FACTIONS if f not in self.hands]
        if missing:
            raise ValueError(f"hands: no hand size for {missing} (rules 2.4)")
        return self


SPECS: dict[str, type[BaseModel]] = {
    "kampen_cards": KampenCardsSpec,
    "kampen_scenario": KampenScenarioSpec,
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
}

AreaMapSpec.model_rebuild()
