"""The ``hexwar`` commands over data and rules: validate, maps, reach, supply, fatigue, odds."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any, List, Optional

import typer
from rich.table import Table

from hexwar import native
from hexwar.board import load_board
from hexwar.data.loader import default_library
from hexwar.core.files import Job
from hexwar.ui.words import said_text
from hexwar.ui.cli_common import (
    JSON,
    UserError,
    app,
    emit,
    err,
    in_range,
    map_app,
    native_app,
    may_write,
    out,
    read_position,
    read_seen,
    write_text,
)


#: a scenario argument that names a saved game instead (``hexwar supply my.hexwar 6-I/12``)
SAVED = ".hexwar"


def _position(scenario: str) -> tuple[Any, Any]:
    """The game's registry record and the position a rule query reads: a scenario's start, a
    game's own start (its name alone), or a saved game as it stands, seen by the side that
    played it while it is unfinished (the other side's face-down counters stay anonymous),
    by everyone once it is over."""
    from hexwar.registry import Position, UnknownGame, for_scenario_file, get, known

    if known(scenario):
        info = get(scenario)
        g = info.build()
        return info, Position(g, g.new_state(0).data, None, f"the start of {scenario}")
    game, _, named = scenario.partition("/")
    if known(game) and not scenario.endswith((".yaml", ".yml", SAVED)):
        info = get(game)
        if named in info.scenarios:  # a game's scenario by its name (kampen/basic), as compare and play --scenario name it
            g = info.build(named)
            return info, Position(g, g.new_state(0).data, None, f"the start of {scenario}")
        if scenario not in default_library().names("oob"):  # not a scenario file of one's own either
            raise UserError(f"{game} has no scenario {named!r}; scenarios: {', '.join(info.scenarios)}")
    if scenario.endswith((".yaml", ".yml")):  # a position file (issue 54): as the person set it up
        head, data, g = read_position(Path(scenario), None, "play")  # read as play and analyse read it
        if head["twice"]:  # which of the two would the answer be about? (the analysis board flags it)
            raise UserError(f"{scenario}: {head['twice'][0]}; give each value once to ask the rules of it")
        info = get(g.name)
        sides = None if head["seen_by"] == "all" else info.sees(head["seen_by"])
        eyes = "" if head["seen_by"] == "all" else f", as the {head['seen_by']} see it"
        return info, Position(g, data, sides, f"the position {scenario}{eyes}")
    if not scenario.endswith(SAVED):
        try:
            g = for_scenario_file(scenario)
            info = get(g.name)
        except UnknownGame as e:
            raise UserError(str(e)) from None
        return info, Position(g, g.new_state(0).data, None, f"the start of {scenario}")
    _, info, g, data, _, sides = read_seen(Path(scenario))  # as hexwar replay reads a save
    when = f"turn {data.turn}, {data.phase}" + ("" if sides is None else f", as the {', '.join(sorted(sides))} see it")
    return info, Position(g, data, sides, f"{scenario} at {when}")


def _queries(scenario: str, what: str) -> tuple[Any, Any]:
    """The game's queries and the position, or one line saying the game has none."""
    info, pos = _position(scenario)
    if info.queries is None:
        raise UserError(f"{scenario}: a {info.title} game answers no {what} query")
    return info.queries, pos


def _show(answer: Any, json_: bool) -> None:
    """Print a query's answer: its JSON, or its tables and lines."""
    if json_:
        emit(answer.data)
        return
    for part in answer.shown:
        if isinstance(part, str):
            out.print(part, markup=False, soft_wrap=True)
        else:
            out.print(part)


# --- validate ---------------------------------------------------------------------------


@app.command()
def validate(path: Optional[Path] = typer.Argument(None, help="A data root holding maps/, oob/, tables/ (default: bundled), or one YAML file."),
             json_: bool = JSON) -> None:
    """Validate every map, order of battle, scenario and table (or one file); report every problem."""
    from hexwar.registry import validate_file, validate_tree

    if path is not None and not path.exists():
        raise UserError(f"{path}: no such folder or file")
    if path is not None and path.is_file():
        probs, n = validate_file(path), 1
    elif path is not None and not any((path / d).is_dir() for d in ("maps", "oob", "tables")):
        raise UserError(f"{path}: not a data root (it holds no maps/, oob/ or tables/) and not a YAML file")
    else:
        probs, n = validate_tree(path)
    if json_:
        emit({"files": n, "problems": [str(p) for p in probs], "ok": not probs})
    else:
        for p in probs:
            print(str(p))
        if not probs:
            out.print(f"ok: {n} files valid")
        else:
            err.print(f"{len(probs)} problem(s) in {n} files")
    raise typer.Exit(1 if probs else 0)


# --- maps -------------------------------------------------------------------------------


@map_app.command("show")
def map_show(name: str = typer.Argument(..., help="Map name: its file under maps/ without .yaml"), json_: bool = JSON) -> None:
    """Summarise a map: size, terrain counts, border features, places."""
    b = load_board(name)
    from collections import Counter

    terrain = Counter(b.terrain(x) for x in b.locations())
    feats: Counter[str] = Counter()
    seen = set()
    for a in b.locations():
        for c in b.neighbours(a):
            key = (a, c) if a < c else (c, a)
            if key not in seen:
                seen.add(key)
                feats.update(b.border(a, c).features)
    places: list[dict[str, Any]] = [{"at": p.location, "name": p.name, "kinds": sorted(p.kinds), "value": p.value}
              for p in b.places() if p.name or p.value or p.kinds - {"edge_north", "edge_south", "edge_east", "edge_west"}]
    info = {"name": b.name, "kind": b.kind, "locations": len(b.locations()), "borders": len(seen),
            "terrain": dict(terrain), "features": dict(feats), "places": places}
    if json_:
        emit(info)
        return
    out.print(f"[bold]{b.name}[/] ({b.kind}): {info['locations']} locations, {info['borders']} borders")
    t_tab = Table("terrain", "count", title="terrain")
    for k, v in sorted(terrain.items()):
        t_tab.add_row(k, str(v))
    out.print(t_tab)
    f_tab = Table("border feature", "count", title="border features")
    for fk, fv in sorted(feats.items()):
        f_tab.add_row(fk, str(fv))
    out.print(f_tab)
    p_tab = Table("place", "at", "kinds", "VP", title="places")
    for pl in places:
        p_tab.add_row(pl["name"], pl["at"], ", ".join(pl["kinds"]), str(pl["value"] or ""))
    out.print(p_tab)


@map_app.command("render")
def map_render(name: str = typer.Argument(..., help="Map name"),
               output: Path = typer.Option(..., "-o", "--output", help="SVG file to write"),
               scale: Optional[float] = typer.Option(None, help="Pixels per km (0.01 to 100)"),
               force: bool = typer.Option(False, "--force", help="Replace the file even if hexwar did not write it"),
               json_: bool = JSON) -> None:
    """Render a map to SVG: terrain, hexside features, places and labels."""
    from hexwar.ui.render import render_svg

    in_range("--scale", scale, 0.01, 100)
    how = may_write(output, DRAWING, force)
    b = load_board(name)
    svg = render_svg(b, px_per_km=scale)
    did = write_text(output, svg, DRAWING, checked=how)
    size = output.stat().st_size
    if json_:
        emit({"map": b.name, "svg": str(output), "bytes": size, "wrote": did})
    else:
        out.print(f"{did} ({size:,} bytes)")


#: ``map render``'s drawings and ``map build``'s maps: each replaces only its own (issue 70)
DRAWING = Job("map drawing")
MAP = Job("map build")


def _build_area_map(lib: Any, name: str, geo: Any, dest: Path, how: str, json_: bool) -> None:
    """Build an area map (Kampen om Norge's board) from area geography."""
    import yaml

    from hexwar.board.areaboard import AreaBoard
    from hexwar.board.build_areas import area_map_from_geography
    from hexwar.data.schemas import AreaMapSpec

    try:
        doc = area_map_from_geography(geo, f"maps/{name}/geography.yaml")
    except ImportError:
        raise UserError("building a map needs the land mask: pip install 'hexwar[mapbuild]'") from None
    AreaBoard.from_spec(AreaMapSpec.model_validate(doc))  # the result must load
    head = f"# GENERATED by `hexwar map build {name}` from maps/{name}/geography.yaml: do not edit by hand.\n"
    text = head + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True, width=200)
    did = write_text(dest, text, MAP, checked=how)
    kinds = {t: sum(a["terrain"] == t for a in doc["areas"].values()) for t in ("land", "sea", "unusable")}
    if json_:
        emit({"map": doc["name"], "file": str(dest), "areas": kinds, "borders": len(doc["borders"]), "bytes": len(text),
              "wrote": did})
    else:
        out.print(f"{did}: {kinds['land']} land areas, {kinds['sea']} sea areas, {kinds['unusable']} unusable, {len(doc['borders'])} borders")


@map_app.command("build")
def map_build(name: str = typer.Argument(..., help="Geography to build: maps/NAME/geography.yaml"),
              output: Optional[Path] = typer.Option(None, "-o", "--output", help="Map YAML to write (default maps/NAME.yaml)"),
              force: bool = typer.Option(False, "--force", help="Replace the file even if hexwar did not build it"),
              json_: bool = JSON) -> None:
    """Build a hex map from geography (deterministic; needs pip install '.[mapbuild]')."""
    from hexwar.board.build import build_hex_map, dump_map, land_mask
    from hexwar.board.hexboard import HexBoard
    from hexwar.data.loader import parse, read_yaml
    from hexwar.data.schemas import HexMapSpec

    lib = default_library()
    src = lib.path("maps", f"{name}/geography")  # a geography inside the data root, never elsewhere
    dest = output or (lib.root / "maps" / f"{name}.yaml")
    how = may_write(dest, MAP, force)
    geo = read_yaml(src)
    parse(geo, str(src))  # validate the geography first
    if geo.get("kind") == "area_geography":
        _build_area_map(lib, name, geo, dest, how, json_)
        return
    try:
        mask = land_mask()
    except RuntimeError as e:
        raise UserError(str(e)) from None
    doc = build_hex_map(geo, mask, f"maps/{name}/geography.yaml")
    text = dump_map(doc)
    HexBoard(HexMapSpec.model_validate(doc))  # the result must load
    did = write_text(dest, text, MAP, checked=how)
    from collections import Counter

    counts = Counter(doc["terrain"].values())
    n = (doc["grid"]["columns"][1] - doc["grid"]["columns"][0] + 1) * (doc["grid"]["rows"][1] - doc["grid"]["rows"][0] + 1)
    counts[doc["default_terrain"]] = n - sum(counts.values())
    if json_:
        emit({"map": doc["name"], "file": str(dest), "hexes": n, "terrain": dict(counts), "bytes": len(text), "wrote": did})
    else:
        out.print(f"{did}: {n} hexes, " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))


# --- rule queries over a scenario -------------------------------------------------------


@app.command()
def reach(scenario: str = typer.Argument(..., help="Scenario name (its file under oob/ without .yaml), or a saved game (.hexwar) as it stands"),
          unit: str = typer.Argument(..., help="Unit id"),
          to: Optional[str] = typer.Option(None, "--to", help="Explain the path to this location"),
          weather: Optional[str] = typer.Option(None, help="Weather section of the terrain chart"),
          mp: Optional[str] = typer.Option(None, help="Override MP (e.g. 3/2 for halved; 0 to 100)"),
          json_: bool = JSON) -> None:
    """List where a unit can move in one action, with MP left; explain one path."""
    new_mp = None
    if mp is not None:
        try:
            new_mp = Fraction(mp)
        except (ValueError, ZeroDivisionError):
            raise UserError(f"--mp {mp!r} is not a number of MP (3, or 3/2 for halved)") from None
        in_range("--mp", new_mp, 0, 100)
    queries, pos = _queries(scenario, "reach")
    try:
        _show(queries.reach(pos, unit, to, weather, new_mp), json_)
    except ValueError as e:
        raise UserError(str(e)) from None


@app.command()
def supply(scenario: str = typer.Argument(..., help="Scenario name, or a saved game (.hexwar) as it stands"),
           units: Optional[List[str]] = typer.Argument(None, help="Unit ids (default: every unit of the supply side)"),
           json_: bool = JSON) -> None:
    """Check lines of supply at a scenario's start or in a saved game: the path found, or the nearest base and what blocked it."""
    queries, pos = _queries(scenario, "supply")
    try:
        _show(queries.supply(pos, list(units or [])), json_)
    except ValueError as e:
        raise UserError(str(e)) from None


@app.command()
def fatigue(scenario: str = typer.Argument(..., help="Scenario name, or a saved game (.hexwar) as it stands"),
            units: Optional[List[str]] = typer.Argument(None, help="Unit ids (default: all on the map; in a save, all you may see)"),
            recover: bool = typer.Option(False, help="Show the end-of-turn recovery too"),
            json_: bool = JSON) -> None:
    """Show fatigue, limits, the average fatigue of the units named, and end-of-turn recovery, at a scenario's start or in a saved game."""
    queries, pos = _queries(scenario, "fatigue")
    try:
        _show(queries.fatigue(pos, list(units or []), recover), json_)
    except ValueError as e:
        raise UserError(str(e)) from None


@app.command()
def explain(position: str = typer.Argument(..., help="A game, a game's scenario (kampen/basic), a scenario file's name, a saved game (.hexwar) or a position file (.yaml)"),
            what: List[str] = typer.Argument(..., help="What to explain, as in play: a unit, a place, a unit and a place (its way there), last"),
            json_: bool = JSON) -> None:
    """Explain a number of a position with its rules, as explain does in play: a unit, a place, a unit's way to a place."""
    from hexwar.core.play import PlayState
    from hexwar.core.log import EventLog
    from hexwar.ui.presenter import NOT_EXPLAINED
    from hexwar.ui.session import Session

    info, pos = _position(position)
    g = pos.game
    sides = set(pos.sides) if pos.sides is not None else set(info.sides)  # a save in progress: its seat's eyes
    presenter = info.presenter(Session(PlayState(g, pos.data, EventLog({"game": g.name})), sides, {}))
    asked = " ".join(what)
    lines = said_text(presenter.explain(asked)).splitlines()
    if lines and lines[0].startswith(NOT_EXPLAINED):  # nothing of that name: an error, not an answer
        raise UserError(" ".join(lines))
    if json_:
        emit({"position": pos.what, "explain": asked, "lines": lines})
        return
    for line in lines:
        out.print(line, markup=False, soft_wrap=True)


#: what the game's odds command raises for options it cannot read (click's UsageError, of
#: whichever click typer runs on)
_USAGE: type[Exception] = typer.BadParameter.__bases__[0]


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []})
def odds(ctx: typer.Context,
         what: Optional[str] = typer.Argument(None, help="A game, a scenario name or a saved game (.hexwar) as it stands"),
         json_: bool = JSON) -> None:
    """Exact combat odds, worked out by the game with its own options: hexwar odds GAME|SCENARIO|SAVE --help lists them."""
    import typer.main

    if what is None or what in ("--help", "-h"):
        from hexwar.registry import games

        out.print("Usage: hexwar odds GAME|SCENARIO|SAVE [OPTIONS]\n\nExact combat odds, worked out by the game with its "
                  "own options; hexwar odds GAME --help lists them. Games with odds: "
                  + ", ".join(g.name for g in games() if g.odds is not None), markup=False)
        return
    info, pos = _position(what)
    if info.odds is None:
        raise UserError(f"{what}: {info.title} works out no odds here")
    cmd = typer.main.get_command(info.odds)
    try:
        with cmd.make_context(f"hexwar odds {what}", list(ctx.args), obj=pos) as sub:
            answer = cmd.invoke(sub)
    except typer.Exit:  # its --help, printed
        return
    except _USAGE as e:
        raise UserError(f"{e} (hexwar odds {what} --help lists the options)") from None
    except ValueError as e:
        raise UserError(str(e)) from None
    _show(answer, json_)


# --- the compiled engine -----------------------------------------------------------------


@native_app.command("build")
def native_build(json_: bool = JSON) -> None:
    """Compile the modules the build lists name (native.txt) with mypyc, for these sources (once)."""
    had = native.built() is not None
    if not had and not json_:
        err.print(f"compiling {len(native.marked())} modules with mypyc (about a minute) ...")
    try:
        folder = native.build()
    except native.NativeError as e:
        raise UserError(str(e)) from None
    _native_report(folder, json_, "already built" if had else "built", status=False)


@native_app.command("status")
def native_status(json_: bool = JSON) -> None:
    """Say whether a compiled build for these sources exists, and what this process plays with."""
    _native_report(native.build_dir(), json_, "built" if native.built() else "not built", status=True)


def _native_report(folder: Path, json_: bool, what: str, status: bool) -> None:
    m = native.built()
    modules = m["modules"] if m else native.marked()
    if json_:
        emit({"build": what, "folder": str(folder), "modules": modules, "engine": native.engine(),
              "mypyc": (m or {}).get("mypyc"), "seconds": (m or {}).get("seconds")})
        return
    took = f", in {m['seconds']} s" if m and m.get("seconds") is not None else ""
    out.print(f"compiled engine for these sources: {what} ({folder}){took}")
    out.print(f"{len(modules)} modules: {', '.join(modules)}")
    if status:  # what this process plays: HEXWAR_NATIVE=1 or not
        out.print(f"this process plays: {native.engine()}")
    if m:
        out.print("play or batch with it: HEXWAR_NATIVE=1 hexwar simulate ... (the same games as pure Python)")
    else:
        out.print("compile it with: hexwar native build (needs mypyc, from pip install 'hexwar[native]', and a C compiler)",
                  markup=False)
