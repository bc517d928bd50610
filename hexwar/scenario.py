"""Scenarios: a map, an order of battle and tables, cross-checked, and the validator over a tree."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from hexwar.data import schemas as S
from hexwar.data.loader import (
    DataError,
    Library,
    Problem,
    _rel,
    default_library,
    parse,
    read_yaml,
)
from hexwar.data.spec_base import cite
from hexwar.data.tables import (
    DifferentialCrt,
    FatigueTable,
    OddsCrt,
    StackingRules,
    TerrainChart,
    UnitType,
    unit_types_from_spec,
)

#: table role -> the kind of file it must be
TABLE_ROLES: dict[str, str] = {
    "terrain": "terrain_effects",
    "fatigue": "fatigue_table",
    "stacking": "stacking",
    "crt": "crt_differential",
    "odds": "crt_odds",
}


@dataclass(frozen=True)
class Tables:
    """The charts a ruleset reads: unit types, terrain effects, fatigue, stacking, CRTs."""

    types: Mapping[str, UnitType]
    terrain: TerrainChart
    fatigue: FatigueTable | None = None
    stacking: StackingRules | None = None
    crt: DifferentialCrt | None = None
    odds: OddsCrt | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


_BUILDERS: dict[str, Any] = {
    "terrain": TerrainChart.from_spec,
    "fatigue": FatigueTable.from_spec,
    "stacking": StackingRules.from_spec,
    "crt": DifferentialCrt.from_spec,
    "odds": OddsCrt.from_spec,
}


def load_tables(names: Mapping[str, str], unit_types: str, library: Library | None = None) -> Tables:
    """Load the tables a scenario names by role (terrain, fatigue, stacking, crt, odds).

    Every broken table is reported, not just the first.
    """
    lib = library or default_library()
    probs = _check_roles(names, "<scenario>")
    kw: dict[str, Any] = {}
    try:
        ut = lib.load("oob", unit_types, "unit_types")
        kw["types"] = unit_types_from_spec(ut.types)
    except DataError as e:
        probs += e.problems
    for role, name in names.items():
        if role not in _BUILDERS:
            continue
        try:
            kw[role] = _BUILDERS[role](lib.load("tables", name, TABLE_ROLES[role]))
        except DataError as e:
            probs += e.problems
    if probs:
        raise DataError(probs)
    return Tables(**kw)


def _check_roles(names: Mapping[str, str], file: str) -> list[Problem]:
    probs = []
    for role in names:
        if role not in TABLE_ROLES:
            probs.append(Problem(file, f"tables.{role}", f"unknown table role; known: {sorted(TABLE_ROLES)}"))
    if "terrain" not in names:
        probs.append(Problem(file, "tables.terrain", "required key is missing (the terrain effects chart)"))
    return probs


@dataclass(frozen=True)
class Scenario:
    """A validated scenario with its board, tables and order of battle."""

    spec: S.ScenarioSpec
    oob: S.OobSpec
    board: Any
    tables: Tables
    file: str


def load_scenario(name: str, library: Library | None = None) -> Scenario:
    """Load a scenario by name and cross-check it; raises one :class:`DataError` with every problem."""
    from hexwar.board import load_board

    lib = library or default_library()
    path = lib.path("oob", name)
    spec = lib.load("oob", name, "scenario")
    file = _rel(path)
    probs = _check_roles(spec.tables, file)
    board = oob = tables = None
    try:
        board = load_board(spec.map, lib)
    except DataError as e:
        probs += [Problem(file, "map", str(p)) for p in e.problems]
    try:
        oob = lib.load("oob", spec.oob, "order_of_battle")
        tables = load_tables(spec.tables, oob.unit_types, lib)
    except DataError as e:
        probs += e.problems
    if tables is None and oob is not None:
        # some table is broken: still cross-check what did load (unit types vs the chart)
        try:
            chart = TerrainChart.from_spec(lib.load("tables", spec.tables["terrain"], "terrain_effects"))
            types = unit_types_from_spec(lib.load("oob", oob.unit_types, "unit_types").types)
            probs += check_types(types, chart, file)
        except (DataError, KeyError):
            pass
    if board is None and oob is not None and tables is not None:
        probs += check_types(tables.types, tables.terrain, file)
    if board is not None and oob is not None and tables is not None:
        probs += check_scenario(spec, oob, board, tables, file, _files(lib, spec, oob))
    if probs:
        raise DataError(probs)
    assert oob is not None and tables is not None
    return Scenario(spec, oob, board, tables, file)


def _files(lib: Library, spec: S.ScenarioSpec, oob: S.OobSpec) -> dict[str, str]:
    """The files a scenario's cross-checks point into (a problem names the file to fix)."""
    return {"map": _rel(lib.path("maps", spec.map)), "oob": _rel(lib.path("oob", spec.oob)),
            "unit_types": _rel(lib.path("oob", oob.unit_types)), "terrain": _rel(lib.path("tables", spec.tables["terrain"]))}


def check_types(types: Mapping[str, UnitType], chart: TerrainChart, file: str) -> list[Problem]:
    """Return unit types whose movement class the terrain chart lacks (cited by the chart's rule)."""
    return [
        Problem(file, f"unit_types.{key}.movement_class", f"{t.movement_class!r} is not a movement class of {chart.name}{cite(chart.rule)}")
        for key, t in types.items()
        if t.movement_class not in chart.movement_classes and t.kind not in ("ship", "dummy")  # ships: no land movement
    ]


def check_scenario(spec: S.ScenarioSpec, oob: S.OobSpec, board: Any, tables: Tables, file: str,
                   files: Mapping[str, str] | None = None) -> list[Problem]:
    """Return the cross-reference problems between a scenario, its OOB, map and tables; each
    problem names the file to fix (``files``: map, oob, unit_types, terrain; default the scenario)."""
    at = {k: (files or {}).get(k, file) for k in ("map", "oob", "unit_types", "terrain")}
    chart = tables.terrain
    probs = check_types(tables.types, chart, at["unit_types"])
    codes = {board.terrain(loc) for loc in board.locations()} - {"box"}
    for code in sorted(codes):
        if code not in chart.terrain_classes:
            probs.append(Problem(at["map"], "terrain", f"terrain code {code!r} is not in chart {chart.name}'s terrain_classes"))
    for w in (spec.weather,):
        if w not in chart.weather:
            probs.append(Problem(file, "weather", f"{w!r} is not a section of chart {chart.name}; has {sorted(chart.weather)}"))
    classes = sorted(set(chart.terrain_classes.values()))
    for wname, sec in chart.weather.items():
        for cls_name in classes:
            if cls_name not in sec.terrain:
                probs.append(Problem(at["terrain"], f"weather.{wname}.terrain.{cls_name}", f"no costs for this terrain class{cite(chart.rule)}"))
        for cls_name, row in sec.terrain.items():
            for mc in chart.movement_classes:
                if mc not in row.costs:
                    probs.append(Problem(at["terrain"], f"weather.{wname}.terrain.{cls_name}", f"no cost for movement class {mc!r}"))
    units: dict[str, S.UnitSpec] = {}
    for i, u in enumerate(oob.units):
        if u.id in units:
            probs.append(Problem(at["oob"], f"units.{i}.id", f"unit id {u.id!r} is used twice"))
        units[u.id] = u
        if u.type not in tables.types:
            probs.append(Problem(at["oob"], f"units.{i}.type", f"unknown unit type {u.type!r}"))
        if u.side not in oob.sides:
            probs.append(Problem(at["oob"], f"units.{i}.side", f"{u.side!r} is not a side of the OOB {oob.sides}"))
    placed: dict[str, int] = {}
    stack: dict[tuple[str, str], int] = {}
    st = tables.stacking
    for i, s in enumerate(spec.setup):
        if s.unit not in units:
            probs.append(Problem(file, f"setup.{i}.unit", f"no unit {s.unit!r} in OOB {oob.name}"))
        elif s.unit in placed:
            probs.append(Problem(file, f"setup.{i}.unit", f"{s.unit} is already set up (setup.{placed[s.unit]})"))
        else:
            placed[s.unit] = i
        if s.at not in board:
            probs.append(Problem(file, f"setup.{i}.at", f"{s.at!r} is not a location of map {board.name}"))
        t = tables.types.get(units[s.unit].type) if s.unit in units else None
        if t is not None and not 0 <= s.fatigue <= t.fatigue_limit:
            probs.append(Problem(file, f"setup.{i}.fatigue", f"{s.fatigue} is outside 0..{t.fatigue_limit}, the unit type's fatigue limit"))
        if t is not None and s.at in board and t.kind != "ship" and board.terrain(s.at) == "sea":
            probs.append(Problem(file, f"setup.{i}.at", f"{s.unit} is a land unit and {s.at} is all sea"))
        if t is not None and s.at in board and st is not None and t.kind not in st.free_kinds:
            key = (s.at, units[s.unit].side)
            stack[key] = stack.get(key, 0) + st.points.get(t.size, 0)
            unlimited = any(board.is_a(s.at, k) for k in st.unlimited_places)
            if not unlimited and stack[key] > st.limit and stack[key] - st.points.get(t.size, 0) <= st.limit:
                probs.append(Problem(file, f"setup.{i}.at", f"{s.at} holds {stack[key]} stacking points of "
                                     f"{units[s.unit].side}, more than {st.limit}{cite(st.rule)}"))
    for i, b in enumerate(spec.bases):
        if b not in board:
            probs.append(Problem(file, f"bases.{i}", f"{b!r} is not a location of map {board.name}"))
        elif not board.is_a(b, "port"):
            probs.append(Problem(file, f"bases.{i}", f"{b} is not a port (a supply base is a port)"))
    if spec.first_side not in spec.sides:
        probs.append(Problem(file, "first_side", f"{spec.first_side!r} is not one of sides {spec.sides}"))
    return probs


def validate_tree(root: Path | None = None, checks: Sequence[Callable[[Library], list[Problem]]] = ()) -> tuple[list[Problem], int]:
    """Validate every YAML file under a data root; return (problems, files checked).

    Each file is checked against the schema its ``kind`` names, maps against themselves,
    OOBs against their unit types and generic scenarios against their map, OOB and tables;
    ``checks`` are the games' own cross-checks (the registry passes them).
    """
    from hexwar.board.areaboard import check_area_map
    from hexwar.board.hexboard import check_hex_map

    lib = Library(root) if root is not None else default_library()
    probs: list[Problem] = []
    files = lib.files()
    scenarios = []
    for path in files:
        rel = _rel(path)
        try:
            spec = parse(read_yaml(path), rel)
        except DataError as e:
            probs += e.problems
            continue
        if isinstance(spec, S.HexMapSpec):
            probs += check_hex_map(spec, rel)
        elif isinstance(spec, S.AreaMapSpec):
            probs += check_area_map(spec, rel)
        elif isinstance(spec, S.ScenarioSpec):
            scenarios.append(path)
        elif isinstance(spec, S.OobSpec):
            try:
                lib.load("oob", spec.unit_types, "unit_types")
            except DataError:
                probs.append(Problem(rel, "unit_types", f"no unit_types file {spec.unit_types!r} under oob/"))
    seen = {str(p) for p in probs}
    for path in scenarios:
        name = str(path.relative_to(lib.root / "oob").with_suffix(""))
        try:
            load_scenario(name, lib)
        except DataError as e:
            for p in e.problems:
                if str(p) not in seen:
                    seen.add(str(p))
                    probs.append(p)
    for check in checks:
        for p in check(lib):
            if str(p) not in seen:
                seen.add(str(p))
                probs.append(p)
    return probs, len(files)
