"""Typed, frozen records built from table specs: terrain chart, fatigue, stacking, CRTs, dice tables.

These are look-ups only; the rules that use them live in :mod:`hexwar.rules`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping

from hexwar.data import schemas as S

PROHIBITED = None  # a cost of None means "P" on the chart


def _cost(v: int | str) -> Fraction | None:
    if v == "P":
        return PROHIBITED
    return Fraction(v)


@dataclass(frozen=True)
class ChartRow:
    """MP per movement class for one terrain class, hexside feature or the road."""

    costs: Mapping[str, Fraction | None]
    source: str

    def cost(self, mclass: str) -> Fraction | None:
        return self.costs[mclass]


@dataclass(frozen=True)
class WeatherChart:
    terrain: Mapping[str, ChartRow]
    hexsides: Mapping[str, ChartRow]
    road: ChartRow


@dataclass(frozen=True)
class TerrainChart:
    """Terrain effects: terrain code -> class; per weather, MP by movement class (14.1)."""

    name: str
    terrain_classes: Mapping[str, str]
    movement_classes: tuple[str, ...]
    weather: Mapping[str, WeatherChart]
    rule: str = ""  # the section the chart serves in its game (its YAML's ``rule``)

    @classmethod
    def from_spec(cls, spec: S.TerrainEffectsSpec) -> "TerrainChart":
        def row(r: S.CostRow) -> ChartRow:
            return ChartRow({k: _cost(v) for k, v in r.costs().items()}, r.source)

        weather = {
            w: WeatherChart(
                {k: row(r) for k, r in sec.terrain.items()},
                {k: row(r) for k, r in sec.hexsides.items()},
                row(sec.road),
            )
            for w, sec in spec.weather.items()
        }
        return cls(spec.name, dict(spec.terrain_classes), tuple(spec.movement_classes), weather, spec.rule)

    def section(self, weather: str) -> WeatherChart:
        try:
            return self.weather[weather]
        except KeyError:
            raise KeyError(f"terrain chart {self.name!r} has no {weather!r} section; has {sorted(self.weather)}") from None

    def terrain_class(self, code: str) -> str | None:
        """Return the terrain class of a terrain code (None for boxes and unknown codes)."""
        return self.terrain_classes.get(code)

    def denominators(self) -> set[int]:
        """Return every denominator used by the chart's costs (to scale to integers)."""
        out = {1}
        for w in self.weather.values():
            for r in [*w.terrain.values(), *w.hexsides.values(), w.road]:
                out |= {c.denominator for c in r.costs.values() if c is not None}
        return out


@dataclass(frozen=True)
class FatigueTable:
    """Fatigue points per cause (10.0), with provenance."""

    name: str
    causes: Mapping[str, tuple[int, str]]
    recovery_at_limit: tuple[int, str]
    recovery_other: tuple[int, str]
    #: cause -> the section a change of it cites ("recovery": the end-of-turn recovery's)
    rules: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_spec(cls, spec: S.FatigueTableSpec) -> "FatigueTable":
        return cls(
            spec.name,
            {k: (c.fp, c.source) for k, c in spec.causes.items()},
            (spec.recovery_at_limit.fp, spec.recovery_at_limit.source),
            (spec.recovery_other.fp, spec.recovery_other.source),
            {**{k: c.rule for k, c in spec.causes.items()}, "recovery": spec.recovery_at_limit.rule},
        )

    def rule(self, cause: str) -> str:
        """The section a fatigue change of ``cause`` cites; ``KeyError`` names a cause the table lacks."""
        try:
            return self.rules[cause]
        except KeyError:
            raise KeyError(f"fatigue table {self.name!r} has no cause {cause!r}; has {sorted(self.causes)}") from None

    def fp(self, cause: str) -> int:
        """Return the FP of a cause; ``KeyError`` names the missing cause."""
        try:
            return self.causes[cause][0]
        except KeyError:
            raise KeyError(f"fatigue table {self.name!r} has no cause {cause!r}; has {sorted(self.causes)}") from None

    def source(self, cause: str) -> str:
        return self.causes[cause][1]


@dataclass(frozen=True)
class StackingRules:
    """Stacking points per size, the limit, and who stacks free (13.2)."""

    name: str
    limit: int
    points: Mapping[str, int]
    free_kinds: frozenset[str]
    unlimited_places: frozenset[str]
    source: str
    rule: str = ""  # the section the chart serves in its game (its YAML's ``rule``)

    @classmethod
    def from_spec(cls, spec: S.StackingSpec) -> "StackingRules":
        return cls(spec.name, spec.limit, dict(spec.points), frozenset(spec.free_kinds), frozenset(spec.unlimited_places),
                   spec.source, spec.rule)


@dataclass(frozen=True)
class DiffColumn:
    lo: int | None
    hi: int | None
    results: tuple[tuple[int, int], ...]  # (attacker, defender) per die face 1..6
    source: str

    @property
    def label(self) -> str:
        if self.lo is None:
            return f"<={self.hi}"
        if self.hi is None:
            return f">={self.lo}"
        return str(self.lo) if self.lo == self.hi else f"{self.lo}..{self.hi}"


@dataclass(frozen=True)
class DifferentialCrt:
    """Differential CRT: columns by attack differential, 1D6 rows, results ``A/D`` (15.1)."""

    name: str
    columns: tuple[DiffColumn, ...]
    drms: Mapping[str, tuple[int, str]] = field(default_factory=dict)  # name -> (value, source)

    @classmethod
    def from_spec(cls, spec: S.DifferentialCrtSpec) -> "DifferentialCrt":
        cols = []
        for c in spec.columns:
            res = tuple((int(a), int(d)) for a, d in (r.split("/") for r in c.results))
            cols.append(DiffColumn(c.min, c.max, res, c.source))
        return cls(spec.name, tuple(cols), {k: (d.value, d.source) for k, d in spec.drms.items()})

    def drm(self, name: str) -> int:
        """Return a named DRM's value; ``KeyError`` names the missing DRM."""
        try:
            return self.drms[name][0]
        except KeyError:
            raise KeyError(f"CRT {self.name!r} has no DRM {name!r}; has {sorted(self.drms)}") from None


@dataclass(frozen=True)
class OddsColumn:
    attack: int
    defence: int
    results: tuple[str, ...]
    source: str

    @property
    def label(self) -> str:
        return f"{self.attack}:{self.defence}"


@dataclass(frozen=True)
class OddsCrt:
    """Odds CRT: ratio columns, 1D6 rows, named results (Europa variant, E1)."""

    name: str
    codes: Mapping[str, str]
    columns: tuple[OddsColumn, ...]

    @classmethod
    def from_spec(cls, spec: S.OddsCrtSpec) -> "OddsCrt":
        cols = []
        for c in spec.columns:
            a, d = (int(x) for x in c.ratio.split(":"))
            cols.append(OddsColumn(a, d, tuple(c.results), c.source))
        cols.sort(key=lambda c: Fraction(c.attack, c.defence))
        return cls(spec.name, dict(spec.codes), tuple(cols))


DICE_RE = re.compile(r"^(\d+)D6$")


@dataclass(frozen=True)
class DieTable:
    """A die-roll table: ``nD6`` summed, or two dice read first/second (8.3)."""

    name: str
    dice: int
    read: str
    entries: Mapping[int, tuple[Any, str]] = field(default_factory=dict)

    @classmethod
    def from_spec(cls, spec: S.DieTableSpec) -> "DieTable":
        m = DICE_RE.match(spec.dice)
        if not m:
            raise ValueError(f"dice {spec.dice!r} must look like '2D6'")
        n = int(m.group(1))
        entries: dict[int, tuple[Any, str]] = {}
        for e in spec.entries:
            for key in S.roll_keys(e.roll, spec.read):
                entries[key] = (e.result, e.source)
        return cls(spec.name, n, spec.read, entries)

    def lookup(self, dice: tuple[int, ...]) -> Any:
        """Return the result for the rolled dice."""
        key = sum(dice) if self.read == "sum" else dice[0] * 10 + dice[1]
        return self.entries[key][0]


@dataclass(frozen=True)
class UnitType:
    """What a counter prints: strength, movement, fatigue limit (from ``unit_types`` YAML)."""

    key: str
    kind: str
    size: str
    movement_class: str
    strength: int
    mp: Fraction
    fatigue_limit: int
    zoc_exit_mp: int
    infantry: bool
    bombard: int = 0
    bombard_range: int = 0
    transport: int = 0

    @property
    def is_artillery(self) -> bool:
        return self.kind == "artillery"

    @property
    def is_tank(self) -> bool:
        return self.kind == "tank"


def fraction(v: int | str | Fraction) -> Fraction:
    """Parse a whole number or ``"a/b"`` into a Fraction."""
    return Fraction(v) if not isinstance(v, Fraction) else v


def unit_types_from_spec(types: Mapping[str, Any]) -> dict[str, UnitType]:
    """Build frozen unit types from a ``unit_types`` spec's ``types`` mapping."""
    out = {}
    for key, t in types.items():
        out[key] = UnitType(
            key=key,
            kind=t.kind,
            size=t.size,
            movement_class=t.movement_class,
            strength=t.strength,
            mp=fraction(t.mp),
            fatigue_limit=t.fatigue_limit,
            zoc_exit_mp=t.zoc_exit_mp,
            infantry=t.infantry,
            bombard=t.bombard,
            bombard_range=t.bombard_range,
            transport=t.transport,
        )
    return out


@dataclass(frozen=True)
class AirTable:
    """The air table (18.1): AP columns x 2D6 rows, 'Infantry' and 'Naval' results, DRMs."""

    name: str
    columns: tuple[tuple[int, int, tuple[int, ...], tuple[int, ...], str], ...]
    drms: Mapping[str, tuple[int, str]]
    rule: str = ""  # the section the chart serves in its game (its YAML's ``rule``)

    @classmethod
    def from_spec(cls, spec: S.AirTableSpec) -> "AirTable":
        cols = tuple((c.ap_min, c.ap_max, tuple(c.infantry), tuple(c.naval), c.source) for c in spec.columns)
        return cls(spec.name, cols, {k: (d.value, d.source) for k, d in spec.drms.items()}, spec.rule)

    def column(self, ap: int) -> tuple[int, int, tuple[int, ...], tuple[int, ...], str]:
        for c in self.columns:
            if c[0] <= ap <= c[1]:
                return c
        lo, hi = self.columns[0][0], self.columns[-1][1]
        raise ValueError(f"{ap} AP is outside the air table ({lo}-{hi}{', ' + self.rule if self.rule else ''})")

    def result(self, ap: int, roll: int, drm: int = 0) -> tuple[int, int]:
        """Return (infantry, naval) for AP committed and a 2D6 roll plus DRM (edges: 2 and 12)."""
        row = min(12, max(2, roll + drm)) - 2
        c = self.column(ap)
        return c[2][row], c[3][row]


@dataclass(frozen=True)
class VpAward:
    """One cause of victory points (from a ``victory_points`` chart)."""

    key: str
    to: str
    vp: int
    by_type: Mapping[str, int]
    last_turn: int | None
    text: str
    source: str

    def points(self, unit_type: UnitType | None = None) -> int:
        """Return the VP for a unit of this type (its type key first, then its kind)."""
        if unit_type is not None:
            if unit_type.key in self.by_type:
                return self.by_type[unit_type.key]
            if unit_type.kind in self.by_type:
                return self.by_type[unit_type.kind]
        return self.vp


@dataclass(frozen=True)
class VictoryPoints:
    """A game's VP awards by cause (Assault on Narvik 29.0)."""

    name: str
    awards: Mapping[str, VpAward]

    @classmethod
    def from_spec(cls, spec: S.VictoryPointsSpec) -> "VictoryPoints":
        return cls(spec.name, {k: VpAward(k, a.to, a.vp, dict(a.by_type), a.last_turn, a.text, a.source)
                               for k, a in spec.awards.items()})

    def __getitem__(self, key: str) -> VpAward:
        return self.awards[key]


@dataclass(frozen=True)
class VictoryLevels:
    """Victory levels by bands of the VP differential (Assault on Narvik 25.1)."""

    name: str
    plus: str
    minus: str
    bands: tuple[tuple[int | None, int | None, str, str | None], ...]

    @classmethod
    def from_spec(cls, spec: S.VictoryLevelsSpec) -> "VictoryLevels":
        return cls(spec.name, spec.plus, spec.minus, tuple((b.min, b.max, b.level, b.winner) for b in spec.levels))

    def level(self, vp: Mapping[str, int]) -> tuple[int, str, str | None]:
        """Return the differential, the level and the side it favours for a VP track."""
        diff = vp.get(self.plus, 0) - vp.get(self.minus, 0)
        for lo, hi, name, winner in self.bands:
            if (lo is None or lo <= diff) and (hi is None or diff <= hi):
                return diff, name, winner
        raise AssertionError(diff)  # pragma: no cover - the schema makes the bands cover every integer
