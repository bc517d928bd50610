"""Schemas of the charts under ``tables/``: terrain effects, fatigue, stacking, the CRTs, die
tables, the air table, reference charts and victory points (pydantic v2)."""

from __future__ import annotations

import re
from typing import Any, Literal, Optional, Union

from pydantic import ConfigDict, Field, field_validator, model_validator

from hexwar.data.spec_base import DICE, SMALL, Rule, Source, Sourced, Strict, _check_source, cite

# --- tables -----------------------------------------------------------------------------

CostValue = Union[int, str]  # integer MP, a fraction "1/2", or "P" (prohibited)
COST_RE = re.compile(r"^(P|\d{1,3}(/[1-9]\d{0,2})?)$")  # whole MP, or a fraction with a non-zero denominator


class CostRow(Strict):
    """One terrain class (or hexside feature) row: MP per movement class, with provenance."""

    model_config = ConfigDict(extra="allow", frozen=True)
    source: Source

    @model_validator(mode="after")
    def _costs(self) -> "CostRow":
        _check_source(self.source)
        for k, v in (self.model_extra or {}).items():
            if not (type(v) is int and 0 <= v <= SMALL) and not (isinstance(v, str) and COST_RE.match(v)):
                raise ValueError(f"{k}: cost {v!r} must be a whole number 0-{SMALL}, a fraction like 1/2, or P (prohibited)")
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
    rule: Rule = ""
    terrain_classes: dict[str, str] = Field(description="terrain code -> terrain class")
    movement_classes: list[str]
    weather: dict[str, WeatherSection]

    @model_validator(mode="after")
    def _hexes_cost_something(self) -> "TerrainEffectsSpec":
        # entering a hex costs MP; a hexside or road may add nothing, a hex may not
        for w, sec in self.weather.items():
            for cls_name, row in sec.terrain.items():
                for mc, v in row.costs().items():
                    if v == 0 or (isinstance(v, str) and v != "P" and v.split("/")[0].strip("0") == ""):
                        raise ValueError(f"weather.{w}.terrain.{cls_name}.{mc}: entering a hex costs more than 0 MP{cite(self.rule)}")
        return self


class FatigueCause(Sourced):
    fp: int = Field(ge=-SMALL, le=SMALL)
    rule: str = Field(min_length=1, max_length=40, description="the section a change of this cause cites")
    note: str = ""


class FatigueTableSpec(Strict):
    kind: Literal["fatigue_table"]
    name: str
    rule: Rule = ""
    causes: dict[str, FatigueCause]
    recovery_at_limit: FatigueCause
    recovery_other: FatigueCause

    @model_validator(mode="after")
    def _recovery_removes(self) -> "FatigueTableSpec":
        for key in ("recovery_at_limit", "recovery_other"):  # recovery removes FP: a count
            if getattr(self, key).fp < 0:
                raise ValueError(f"{key}.fp: recovery removes FP; {getattr(self, key).fp} is below 0{cite(self.rule)}")
        return self


class StackingSpec(Sourced):
    """Stacking: the limit per location, the points per unit size."""

    kind: Literal["stacking"]
    name: str
    rule: Rule = ""
    limit: int = Field(ge=0, le=SMALL, description="stacking points a location holds")
    points: dict[str, int]
    free_kinds: list[str]
    unlimited_places: list[str]

    @model_validator(mode="after")
    def _points(self) -> "StackingSpec":
        for k, n in self.points.items():
            if not 0 <= n <= SMALL:
                raise ValueError(f"points.{k}: {n} is outside 0-{SMALL}{cite(self.rule)}")
        return self


class DiffColumn(Sourced):
    min: Optional[int] = Field(ge=-SMALL, le=SMALL)
    max: Optional[int] = Field(ge=-SMALL, le=SMALL)
    results: list[str]

    @field_validator("results")
    @classmethod
    def _results(cls, v: list[str]) -> list[str]:
        for r in v:
            if not re.match(r"^\d{1,2}/\d{1,2}$", r):
                raise ValueError(f"result {r!r} must be 'attacker/defender', e.g. '1/2'")
        return v


class DrmSpec(Sourced):
    value: int = Field(ge=-SMALL, le=SMALL)
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
        if not re.match(r"^[1-9]\d{0,2}:[1-9]\d{0,2}$", v):
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


MAX_ROLL = 6 * DICE  # no sum or first/second reading of a die table goes past it


def roll_keys(roll: int | tuple[int, int] | str, read: str) -> list[int]:
    """Expand a table entry's ``roll`` (5, [3, 4], "21-23") into roll keys (sums or 10*first+second).

    A roll past any die table (or not a number) raises ``ValueError``, so a typo can never
    ask for a range of 10^12 keys.
    """
    if isinstance(roll, int):
        lo, hi = roll, roll
    elif isinstance(roll, tuple):
        lo, hi = roll
    else:
        m = re.fullmatch(r"\s*(\d{1,3})\s*(?:-\s*(\d{1,3})\s*)?", roll)
        if not m:
            raise ValueError(f"roll {roll!r} must be a number, [low, high] or 'low-high'")
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
    if not (0 < lo <= hi <= MAX_ROLL):
        raise ValueError(f"roll {roll!r} must run from 1 to {MAX_ROLL}, low to high")
    return [k for k in range(lo, hi + 1) if read == "sum" or 1 <= k % 10 <= 6]


class DieTableSpec(Strict):
    kind: Literal["die_table"]
    name: str
    dice: str
    read: Literal["sum", "first_second"]
    entries: list[DieEntry]

    @model_validator(mode="after")
    def _cover(self) -> "DieTableSpec":
        m = re.match(r"^(\d{1,2})D6$", self.dice)
        if not m or not 1 <= int(m.group(1)) <= DICE:
            raise ValueError(f"dice: {self.dice!r} must look like '2D6' (1 to {DICE} dice)")
        n = int(m.group(1))
        if self.read == "first_second":
            if n != 2:
                raise ValueError("read: first_second needs 2D6 (the first die the tens, the second the units)")
            want = {10 * a + b for a in range(1, 7) for b in range(1, 7)}
        else:
            want = set(range(n, 6 * n + 1))
        seen: dict[int, int] = {}
        for i, e in enumerate(self.entries):
            try:
                keys = roll_keys(e.roll, self.read)
            except ValueError as exc:
                raise ValueError(f"entries.{i}.roll: {exc}") from None
            for k in keys:
                if k not in want:
                    raise ValueError(f"entries.{i}: roll {k} cannot come up on {self.dice}")
                if k in seen:
                    raise ValueError(f"entries.{i}: roll {k} is already in entries.{seen[k]}")
                seen[k] = i
        missing = sorted(want - set(seen))
        if missing:
            raise ValueError(f"entries: no result for rolls {missing}")
        return self


class AirColumn(Sourced):
    ap_min: int = Field(ge=1, le=SMALL)
    ap_max: int = Field(ge=1, le=SMALL)
    infantry: list[int]
    naval: list[int]

    @model_validator(mode="after")
    def _rows(self) -> "AirColumn":
        for name in ("infantry", "naval"):
            v = getattr(self, name)
            if len(v) != 11:
                raise ValueError(f"{name}: 2D6 needs 11 results (rolls 2..12), found {len(v)}")
            if any(not 0 <= x <= SMALL for x in v):
                raise ValueError(f"{name}: results run from 0 to {SMALL}")
        if any(x not in (0, 1, 2) for x in self.naval):
            raise ValueError("naval: results are 0 (none), 1 (damaged; sunk if damaged) or 2 (sunk)")
        return self


class AirTableSpec(Strict):
    """The air table: AP committed x 2D6, 'Infantry' and 'Naval' columns, with DRMs."""

    kind: Literal["air_table"]
    name: str
    rule: Rule = ""
    dice: Literal["2D6"]
    columns: list[AirColumn]
    drms: dict[str, DrmSpec]

    @model_validator(mode="after")
    def _cover(self) -> "AirTableSpec":
        lo = 1
        for i, c in enumerate(self.columns):
            if c.ap_min != lo:
                raise ValueError(f"columns.{i}: ap_min must be {lo} (columns cover 1..30 AP without gaps){cite(self.rule)}")
            lo = c.ap_max + 1
        if lo != 31:
            raise ValueError(f"the last column must end at 30 AP, the most a side commits{cite(self.rule)}")
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


class VpAwardSpec(Sourced):
    """One cause of victory points: who scores, how many, and per unit type or kind if the
    number depends on what was lost (a destroyer sunk 6, a tank eliminated 2)."""

    to: str
    vp: int = Field(ge=-1000, le=1000)
    by_type: dict[str, int] = {}
    last_turn: Optional[int] = Field(default=None, ge=1, description="scores only up to this turn")
    text: str

    @field_validator("by_type")
    @classmethod
    def _small(cls, v: dict[str, int]) -> dict[str, int]:
        for k, n in v.items():
            if not -1000 <= n <= 1000:
                raise ValueError(f"{k}: {n} VP is out of range (-1000..1000)")
        return v


class VictoryPointsSpec(Strict):
    """A game's victory point awards (Assault on Narvik 29.0): cause -> award."""

    kind: Literal["victory_points"]
    name: str
    awards: dict[str, VpAwardSpec]


class VictoryLevelSpec(Sourced):
    """A band of the VP differential and the victory level it gives."""

    min: Optional[int] = Field(description="lowest differential of the band (none: no lower end)")
    max: Optional[int] = Field(description="highest differential of the band (none: no upper end)")
    level: str
    winner: Optional[str] = Field(description="the side this level favours (none: a draw)")


class VictoryLevelsSpec(Strict):
    """Victory levels by VP differential (Assault on Narvik 25.1): ``plus`` VP minus ``minus`` VP."""

    kind: Literal["victory_levels"]
    name: str
    plus: str
    minus: str
    levels: list[VictoryLevelSpec]

    @model_validator(mode="after")
    def _bands(self) -> "VictoryLevelsSpec":
        lv = self.levels
        if not lv:
            raise ValueError("levels: at least one band")
        if lv[0].min is not None or lv[-1].max is not None:
            raise ValueError("levels: the first band has no lower end and the last no upper end (every differential has a level)")
        for i, (a, b) in enumerate(zip(lv, lv[1:])):
            if a.max is None or b.min is None or b.min != a.max + 1:
                raise ValueError(f"levels.{i + 1}.min: bands must follow each other without gap or overlap")
        for i, band in enumerate(lv):
            if band.winner is not None and band.winner not in (self.plus, self.minus):
                raise ValueError(f"levels.{i}.winner: {band.winner!r} is neither {self.plus} nor {self.minus} (or null for a draw)")
            if band.min is not None and band.max is not None and band.min > band.max:
                raise ValueError(f"levels.{i}: min {band.min} is above max {band.max}")
        return self
