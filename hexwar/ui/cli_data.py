"""The ``hexwar`` commands over data and rules: validate, maps, reach, supply, fatigue, odds."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any, List, Optional

import typer
from rich.table import Table

from hexwar import native
from hexwar.board import load_board
from hexwar.board.base import place_name
from hexwar.data.loader import default_library
from hexwar.ui.cli_common import (
    JSON,
    UserError,
    app,
    emit,
    err,
    in_range,
    map_app,
    native_app,
    out,
    output_file,
    read_save,
    registry_game,
    write_text,
)


def _game(scenario: str) -> Any:
    from hexwar.games.registry import UnknownGame, for_scenario_file

    try:
        return for_scenario_file(scenario)
    except UnknownGame as e:
        raise UserError(str(e)) from None


#: a scenario argument that names a saved game instead (``hexwar supply my.hexwar 6-I/12``)
SAVED = ".hexwar"


def _position(scenario: str) -> tuple[Any, Any, frozenset[str] | None, str]:
    """The game and the position a rule query reads, the sides whose units it may name (None:
    all), and what it is: a scenario's start, or a saved Assault on Narvik game as it stands,
    seen by the side that played it while it is unfinished (11.0: the other side's face-down
    counters stay anonymous), by everyone once it is over."""
    if not scenario.endswith(SAVED):
        g = _game(scenario)
        return g, g.new_state(0).data, None, f"the start of {scenario}"
    from hexwar.core.engine import ReplayError, replay, seen_by
    from hexwar.games.registry import UnknownGame, from_meta

    log = read_save(Path(scenario))
    try:
        info, g = from_meta(log.meta)
        if not (hasattr(g, "query") and hasattr(g, "supply")):
            raise UserError(f"{scenario}: a {info.title} game; reach, supply, fatigue and odds read Assault on Narvik positions")
        state = replay(g, log)
        seat = info.reader_seat(log.meta, state.is_over())  # as hexwar replay reads a save
        if seat != "all":
            info.check(seat=seat)
    except (UnknownGame, ReplayError) as e:
        raise UserError(f"{scenario}: {e}") from None
    sides = info.sees(seat)
    data = state.data if sides is None else seen_by(g, state.data, sides)
    when = f"turn {data.turn}, {data.phase}" + ("" if sides is None else f", as the {', '.join(sorted(sides))} see it")
    return g, data, sides, f"{scenario} at {when}"


def _unit(game: Any, data: Any, uid: str, sides: frozenset[str] | None = None) -> Any:
    if uid not in data.units or sides is not None and data.units[uid].side not in sides and data.units[uid].concealed:
        known = sorted(u for u, x in data.units.items() if sides is None or x.side in sides or not x.concealed)
        raise UserError(f"no unit {uid!r} in scenario {game.spec.name}; units: {', '.join(known)}")
    u = data.units[uid]
    if u.loc is None:
        raise UserError(f"{uid} is not on the map ({u.pool})")
    return u


# --- validate ---------------------------------------------------------------------------


@app.command()
def validate(path: Optional[Path] = typer.Argument(None, help="A data root holding maps/, oob/, tables/ (default: bundled), or one YAML file."),
             json_: bool = JSON) -> None:
    """Validate every map, order of battle, scenario and table (or one file); report every problem."""
    from hexwar.games.registry import validate_file, validate_tree

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
def map_show(name: str = typer.Argument(..., help="Map name, e.g. fixtures/skirmish"), json_: bool = JSON) -> None:
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
               json_: bool = JSON) -> None:
    """Render a map to SVG: terrain, hexside features, places and labels."""
    from hexwar.ui.render import render_svg

    in_range("--scale", scale, 0.01, 100)
    output_file(output)
    b = load_board(name)
    svg = render_svg(b, px_per_km=scale)
    write_text(output, svg)
    if json_:
        emit({"map": b.name, "svg": str(output), "bytes": len(svg)})
    else:
        out.print(f"wrote {output} ({len(svg):,} bytes)")


def _build_area_map(lib: Any, name: str, geo: Any, output: Optional[Path], json_: bool) -> None:
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
    dest = output or (lib.root / "maps" / f"{name}.yaml")
    write_text(dest, text)
    kinds = {t: sum(a["terrain"] == t for a in doc["areas"].values()) for t in ("land", "sea", "unusable")}
    if json_:
        emit({"map": doc["name"], "file": str(dest), "areas": kinds, "borders": len(doc["borders"]), "bytes": len(text)})
    else:
        out.print(f"wrote {dest}: {kinds['land']} land areas, {kinds['sea']} sea areas, {kinds['unusable']} unusable, {len(doc['borders'])} borders")


@map_app.command("build")
def map_build(name: str = typer.Argument("narvik", help="Geography to build: maps/NAME/geography.yaml"),
              output: Optional[Path] = typer.Option(None, "-o", "--output", help="Map YAML to write (default maps/NAME.yaml)"),
              json_: bool = JSON) -> None:
    """Build a hex map from geography (deterministic; needs pip install '.[mapbuild]')."""
    from hexwar.board.build import build_hex_map, dump_map, land_mask
    from hexwar.board.hexboard import HexBoard
    from hexwar.data.loader import parse, read_yaml
    from hexwar.data.schemas import HexMapSpec

    lib = default_library()
    src = lib.path("maps", f"{name}/geography")  # a geography inside the data root, never elsewhere
    if output is not None:
        output_file(output)
    geo = read_yaml(src)
    parse(geo, str(src))  # validate the geography first
    if geo.get("kind") == "area_geography":
        _build_area_map(lib, name, geo, output, json_)
        return
    try:
        mask = land_mask()
    except RuntimeError as e:
        raise UserError(str(e)) from None
    doc = build_hex_map(geo, mask, f"maps/{name}/geography.yaml")
    text = dump_map(doc)
    HexBoard(HexMapSpec.model_validate(doc))  # the result must load
    dest = output or (lib.root / "maps" / f"{name}.yaml")
    write_text(dest, text)
    from collections import Counter

    counts = Counter(doc["terrain"].values())
    n = (doc["grid"]["columns"][1] - doc["grid"]["columns"][0] + 1) * (doc["grid"]["rows"][1] - doc["grid"]["rows"][0] + 1)
    counts[doc["default_terrain"]] = n - sum(counts.values())
    if json_:
        emit({"map": doc["name"], "file": str(dest), "hexes": n, "terrain": dict(counts), "bytes": len(text)})
    else:
        out.print(f"wrote {dest}: {n} hexes, " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))


# --- rule queries over a scenario -------------------------------------------------------


@app.command()
def reach(scenario: str = typer.Argument(..., help="Scenario name, e.g. fixtures/skirmish, or a saved game (.hexwar) as it stands"),
          unit: str = typer.Argument(..., help="Unit id"),
          to: Optional[str] = typer.Option(None, "--to", help="Explain the path to this location"),
          weather: Optional[str] = typer.Option(None, help="Weather section of the terrain chart"),
          mp: Optional[str] = typer.Option(None, help="Override MP (e.g. 3/2 for halved; 0 to 100)"),
          json_: bool = JSON) -> None:
    """List where a unit can move in one action (14.0), with MP left; explain one path."""
    from hexwar.rules.movement import explain_path
    from hexwar.rules.movement import reach as reach_fn

    new_mp = None
    if mp is not None:
        try:
            new_mp = Fraction(mp)
        except (ValueError, ZeroDivisionError):
            raise UserError(f"--mp {mp!r} is not a number of MP (3, or 3/2 for halved)") from None
        in_range("--mp", new_mp, 0, 100)
    g, data, sides, _what = _position(scenario)
    u = _unit(g, data, unit, sides)
    t = g.tables.types[u.type]
    q = g.query(data, u)
    if new_mp is not None:
        from dataclasses import replace

        q = replace(q, mp=new_mp)
    if weather is not None and weather not in g.tables.terrain.weather:
        raise UserError(f"--weather {weather!r} is not a section of the terrain chart; sections: {', '.join(g.tables.terrain.weather)}")
    w = weather or data.weather
    r = reach_fn(g.board, g.tables.terrain, w, t.movement_class, u.loc, q)
    rows: list[dict[str, Any]] = [{"to": d, "mp_left": r.mp_left[d], "path": r.path(d), "minimum_move": d in r.min_move} for d in r.destinations()]
    led = None
    if to is not None:
        if to not in r:
            raise UserError(f"{unit} cannot reach {to} in one movement action (14.1)")
        led = explain_path(g.board, g.tables.terrain, w, t.movement_class, r.path(to), q, g.cites.move)
    if json_:
        emit({"unit": unit, "from": u.loc, "mp": q.mp, "weather": w, "reach": rows, "explain": led.to_dict() if led else None})
        return
    tab = Table("to", "MP left", "path", title=f"{unit} from {u.loc}: MP {q.mp}, {w}")
    for row in rows:
        tab.add_row(g.board.label(row["to"]), str(row["mp_left"]) + (" (14.1 min)" if row["minimum_move"] else ""), ">".join(row["path"]))
    out.print(tab)
    if led:
        out.print(led.render(), markup=False)


@app.command()
def supply(scenario: str = typer.Argument(..., help="Scenario name, or a saved game (.hexwar) as it stands"),
           units: Optional[List[str]] = typer.Argument(None, help="Unit ids (default: every unit of the supply side)"),
           json_: bool = JSON) -> None:
    """Check lines of supply (19.3) at a scenario's start or in a saved game: the path found, or the nearest base and what blocked it."""
    from hexwar.games.common.narvik_rules import ALWAYS_SUPPLIED

    g, data, sides, what = _position(scenario)
    side = g.spec.supply_side

    def ship(u: Any) -> bool:  # by its type: any game with supply (the fixture skirmish too), not Narvik's is_ship
        return g.tables.types[u.type].kind == "ship"

    def checked(u: Any) -> bool:  # 19.2: a land unit on the map (ships are unaffected; a box is out of reach)
        return not ship(u) and not g.board.is_a(u.loc, "box")

    uids = units or sorted(u.id for u in data.on_map(side) if checked(u) and (sides is None or side in sides or not u.concealed))
    rows = []
    for uid in uids:
        u = _unit(g, data, uid, sides)
        if u.nation in ALWAYS_SUPPLIED or not checked(u):
            why = ("Norwegians are always supplied (19.2)" if u.nation in ALWAYS_SUPPLIED
                   else "ships are unaffected by supply (19.2)" if ship(u)
                   else f"in the {place_name(g.board, u.loc)} box, out of the Germans' reach (22.1): never checked (19.2)")
            rows.append({"unit": uid, "at": u.loc, "supplied": True, "reason": why, "path": []})
            continue
        res = g.supply(data, u)
        rows.append({"unit": uid, "at": u.loc, "supplied": res.supplied, "reason": res.reason, "path": list(res.path),
                     "blocked_at": res.blocked_at, "base": res.base})
    if json_:
        emit({"position": what, "bases": data.bases, "units": rows})
        return
    tab = Table("unit", "at", "supplied", "why", "path", title=f"supply (19.3) at {what}; bases (19.4): {', '.join(data.bases) or 'none yet'}")
    for r in rows:
        tab.add_row(r["unit"], r["at"], "yes" if r["supplied"] else "[red]no[/]", r["reason"], ">".join(r["path"]))
    out.print(tab)


@app.command()
def fatigue(scenario: str = typer.Argument(..., help="Scenario name, or a saved game (.hexwar) as it stands"),
            units: Optional[List[str]] = typer.Argument(None, help="Unit ids (default: all on the map; in a save, all you may see)"),
            recover: bool = typer.Option(False, help="Show the end-of-turn recovery (21.0) too"),
            json_: bool = JSON) -> None:
    """Show fatigue, limits, the AFL of the units named (15.1), and end-of-turn recovery (21.0), at a scenario's start or in a saved game."""
    from hexwar.rules import fatigue as fat

    g, data, sides, what = _position(scenario)
    uids = units or sorted(u.id for u in data.on_map() if sides is None or u.side in sides or not u.concealed)
    for uid in uids:
        _unit(g, data, uid, sides)
    afl, led = fat.average_fatigue_level(data, g.tables, uids, g.cites.assault.afl)
    rows = [{"unit": x, "fp": data.units[x].fatigue, "fl": fat.fatigue_limit(g.tables, data.units[x]),
             "at_limit": fat.at_limit(g.tables, data.units[x]), "infantry": fat.takes_fatigue(g.tables, data.units[x])} for x in uids]
    after = None
    if recover:
        fat.end_of_turn_recovery(data, g.tables)
        after = {x: data.units[x].fatigue for x in uids}
    if json_:
        emit({"position": what, "units": rows, "afl": afl, "afl_ledger": led.to_dict(), "after_recovery": after})
        return
    tab = Table("unit", "FP", "FL", "at limit", *(["after 21.0"] if after else []), title=f"fatigue at {what}")
    for r in rows:
        extra = [str(after[r["unit"]])] if after else []
        tab.add_row(r["unit"], str(r["fp"]) if r["infantry"] else "-", str(r["fl"]) if r["infantry"] else "-", "yes" if r["at_limit"] else "", *extra)
    out.print(tab)
    out.print(led.render(), markup=False)


@app.command()
def odds(scenario: str = typer.Argument(..., help="Scenario name, a saved game (.hexwar) as it stands, or kampen for a Kampen om Norge land combat"),
         defend: Optional[int] = typer.Option(None, help="kampen: defending battalions"),
         fjord: bool = typer.Option(False, "--fjord", help="kampen: the attack crosses a fjord or lake (4.2)"),
         cards: Optional[str] = typer.Option(None, help="kampen: attacker's cards, comma-separated (panzer=2, speidertropp ...)"),
         defend_cards: Optional[str] = typer.Option(None, help="kampen: defender's cards, comma-separated (bakhold ...)"),
         target: Optional[str] = typer.Option(None, help="Location assaulted (with --attackers); a what-if: adjacency is not checked"),
         attackers: Optional[str] = typer.Option(None, help="Comma-separated attacking unit ids"),
         ad: Optional[int] = typer.Option(None, help="Attack differential, for a bare CRT look-up"),
         drm: int = typer.Option(0, help="Die roll modifier (bare look-up)"),
         attack: Optional[int] = typer.Option(None, help="Attack strength, for the odds CRT"),
         defence: Optional[int] = typer.Option(None, help="Defence strength, for the odds CRT"),
         shift: int = typer.Option(0, help="Column shift"),
         table: bool = typer.Option(False, "--table", help="Every column's exact odds (Markdown), with --drm"),
         json_: bool = JSON) -> None:
    """Exact combat odds: a scenario assault (15.1), a differential column, an odds column, or a Kampen om Norge combat."""
    from hexwar.games.registry import names

    for opt, v, lo, hi in (("--attack", attack, 0, 1000), ("--defend", defend, 0, 1000), ("--defence", defence, 0, 1000),
                           ("--ad", ad, -100, 100), ("--drm", drm, -20, 20), ("--shift", shift, -20, 20)):
        in_range(opt, v, lo, hi)
    if scenario in names():  # a game's own odds: hexwar odds kampen --attack 3 --defend 1 ...
        info = registry_game(scenario)
        if info.odds is None:
            raise UserError(f"{scenario} has no odds of its own; give a scenario, e.g. {scenario}/scenario")
        try:
            res_js, lines = info.odds(attack=attack, defend=defend, fjord=fjord, cards=cards, defend_cards=defend_cards)
        except ValueError as e:
            raise UserError(str(e)) from None
        if json_:
            emit(res_js)
        else:
            for line in lines:
                out.print(line, markup=False)
        return
    from hexwar.rules.assault import assault_sums
    from hexwar.rules.combat import (
        diff_column_index,
        diff_outcomes,
        odds_column_index,
        odds_outcomes,
    )

    if table:
        from hexwar.data.scenario import load_scenario
        from hexwar.rules.combat import column_table, column_table_markdown

        sc = _position(scenario)[0] if scenario.endswith(SAVED) else load_scenario(scenario)
        if sc.tables.crt is None:
            raise UserError(f"scenario {scenario} has no differential CRT")
        if json_:
            emit({"crt": sc.tables.crt.name, "drm": drm, "columns": column_table(sc.tables.crt, drm)})
        else:
            print(column_table_markdown(sc.tables.crt, drm))
        return
    g, data, sides, what = _position(scenario)
    crt = g.tables.crt
    ledger = None
    if attack is not None or defence is not None:
        if g.tables.odds is None or attack is None or defence is None:
            raise UserError("--attack and --defence need both values and a scenario with an odds CRT")
        col = g.tables.odds.columns[odds_column_index(g.tables.odds, attack, defence, shift)].label
        dist = odds_outcomes(g.tables.odds, attack, defence, drm, shift)
        res: dict[str, Any] = {"crt": g.tables.odds.name, "column": col, "drm": drm, "outcomes": [{"result": r, "p": str(p), "percent": float(p) * 100} for r, p in dist]}
    else:
        if target is not None:
            if not attackers:
                raise UserError("--target needs --attackers")
            ids = [x.strip() for x in attackers.split(",") if x.strip()]
            for x in ids:
                _unit(g, data, x, sides)
            defenders = [u.id for u in data.at(target) if u.side != data.units[ids[0]].side]
            if not defenders:
                raise UserError(f"{target} holds no enemy of {ids[0]}")
            if sides is not None and any(data.units[x].concealed and data.units[x].side not in sides for x in defenders):
                raise UserError(f"{target}: defenders face down: their strength shows when attacked (11.2)")
            s = assault_sums(data, g.tables, ids, defenders, cites=g.cites.assault)
            ad, drm = s.differential, s.drm
            from hexwar.rules.ledger import Ledger

            ledger = Ledger(f"assault on {target} at {what}")
            ledger.extend(list(s.attack) + list(s.defence) + list(s.drms))
            ledger.total = f"AD {ad}, DRM {drm:+d}"
        if ad is None:
            raise UserError("give --target with --attackers, or --ad, or --attack with --defence")
        col = crt.columns[diff_column_index(crt, ad, shift)].label
        ddist = diff_outcomes(crt, ad, drm, shift)
        res = {"crt": crt.name, "ad": ad, "column": col, "drm": drm,
               "outcomes": [{"result": f"{a}/{d}", "p": str(p), "percent": float(p) * 100} for (a, d), p in ddist]}
    if ledger is not None:
        res["ledger"] = ledger.to_dict()
    if json_:
        emit(res)
        return
    tab = Table("result", "probability", "%", title=f"{res['crt']}: column {res['column']}, DRM {res['drm']:+d}")
    for o in res["outcomes"]:
        tab.add_row(o["result"], o["p"], f"{o['percent']:.1f}")
    out.print(tab)
    if ledger is not None:
        out.print(ledger.render(), markup=False)


# --- the compiled engine -----------------------------------------------------------------


@native_app.command("build")
def native_build(json_: bool = JSON) -> None:
    """Compile the modules marked '# hexwar: native' with mypyc, for these sources (once)."""
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
              "mypyc": (m or {}).get("mypyc")})
        return
    out.print(f"compiled engine for these sources: {what} ({folder})")
    out.print(f"modules: {', '.join(modules)}")
    if status:  # what this process plays: HEXWAR_NATIVE=1 or not
        out.print(f"this process plays: {native.engine()}")
    if m:
        out.print("play or batch with it: HEXWAR_NATIVE=1 hexwar simulate ... (the same games as pure Python)")
    else:
        out.print("compile it with: hexwar native build (needs mypyc, from pip install 'hexwar[native]', and a C compiler)",
                  markup=False)
