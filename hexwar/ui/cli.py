"""The ``hexwar`` command line (typer + rich). Every command takes ``--json``.

Data problems print one line each (``file:key: message``) and exit 1; bad arguments
print one line and exit 2. No command shows a traceback for a user's mistake.
"""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any, List, Optional

import typer
from rich.console import Console
from rich.table import Table

from hexwar.board import BoardError, load_board
from hexwar.data.loader import DataError, default_library
from hexwar.data.scenario import validate_tree

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False, help="hexwar: rules engine for the 1940 Narvik wargames.")
map_app = typer.Typer(no_args_is_help=True, help="Show, render and build maps.")
app.add_typer(map_app, name="map")
out = Console()
err = Console(stderr=True)

JSON = typer.Option(False, "--json", help="Print machine-readable JSON instead of tables.")


class UserError(Exception):
    """A mistake in what the user asked for: one line, exit 2."""


def _emit(obj: Any) -> None:
    out.print_json(json.dumps(obj, default=_default, sort_keys=True))


def _default(v: Any) -> Any:
    if isinstance(v, Fraction):
        return str(v) if v.denominator != 1 else int(v)
    if isinstance(v, (set, frozenset)):
        return sorted(v)
    if hasattr(v, "to_dict"):
        return v.to_dict()
    raise TypeError(f"cannot serialise {type(v).__name__}")


def _game(scenario: str) -> Any:
    from hexwar.games import game_for

    return game_for(scenario)


def _unit(game: Any, data: Any, uid: str) -> Any:
    if uid not in data.units:
        raise UserError(f"no unit {uid!r} in scenario {game.spec.name}; units: {', '.join(sorted(data.units))}")
    u = data.units[uid]
    if u.loc is None:
        raise UserError(f"{uid} is not on the map ({u.pool})")
    return u


# --- validate ---------------------------------------------------------------------------


@app.command()
def validate(path: Optional[Path] = typer.Argument(None, help="Data root holding maps/, oob/, tables/ (default: bundled)."),
             json_: bool = JSON) -> None:
    """Validate every map, order of battle, scenario and table; report every problem."""
    probs, n = validate_tree(path)
    if json_:
        _emit({"files": n, "problems": [str(p) for p in probs], "ok": not probs})
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
        _emit(info)
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
               scale: Optional[float] = typer.Option(None, help="Pixels per km"),
               json_: bool = JSON) -> None:
    """Render a map to SVG: terrain, hexside features, places and labels."""
    from hexwar.ui.render import render_svg

    b = load_board(name)
    svg = render_svg(b, px_per_km=scale)
    output.write_text(svg, encoding="utf-8")
    if json_:
        _emit({"map": b.name, "svg": str(output), "bytes": len(svg)})
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
    tmp = Path(str(dest) + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(dest)
    kinds = {t: sum(a["terrain"] == t for a in doc["areas"].values()) for t in ("land", "sea", "unusable")}
    if json_:
        _emit({"map": doc["name"], "file": str(dest), "areas": kinds, "borders": len(doc["borders"]), "bytes": len(text)})
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
    src = lib.root / "maps" / name / "geography.yaml"
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
    tmp = Path(str(dest) + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(dest)
    from collections import Counter

    counts = Counter(doc["terrain"].values())
    n = (doc["grid"]["columns"][1] - doc["grid"]["columns"][0] + 1) * (doc["grid"]["rows"][1] - doc["grid"]["rows"][0] + 1)
    counts[doc["default_terrain"]] = n - sum(counts.values())
    if json_:
        _emit({"map": doc["name"], "file": str(dest), "hexes": n, "terrain": dict(counts), "bytes": len(text)})
    else:
        out.print(f"wrote {dest}: {n} hexes, " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))


# --- rule queries over a scenario -------------------------------------------------------


@app.command()
def reach(scenario: str = typer.Argument(..., help="Scenario name, e.g. fixtures/skirmish"),
          unit: str = typer.Argument(..., help="Unit id"),
          to: Optional[str] = typer.Option(None, "--to", help="Explain the path to this location"),
          weather: Optional[str] = typer.Option(None, help="Weather section of the terrain chart"),
          mp: Optional[str] = typer.Option(None, help="Override MP (e.g. 3/2 for halved)"),
          json_: bool = JSON) -> None:
    """List where a unit can move in one action (14.0), with MP left; explain one path."""
    from hexwar.rules.movement import explain_path
    from hexwar.rules.movement import reach as reach_fn

    g = _game(scenario)
    data = g.new_state(0).data
    u = _unit(g, data, unit)
    t = g.tables.types[u.type]
    q = g.query(data, u)
    if mp is not None:
        from dataclasses import replace

        q = replace(q, mp=Fraction(mp))
    w = weather or data.weather
    r = reach_fn(g.board, g.tables.terrain, w, t.movement_class, u.loc, q)
    rows: list[dict[str, Any]] = [{"to": d, "mp_left": r.mp_left[d], "path": r.path(d), "minimum_move": d in r.min_move} for d in r.destinations()]
    led = None
    if to is not None:
        if to not in r:
            raise UserError(f"{unit} cannot reach {to} in one movement action (14.1)")
        led = explain_path(g.board, g.tables.terrain, w, t.movement_class, r.path(to), q)
    if json_:
        _emit({"unit": unit, "from": u.loc, "mp": q.mp, "weather": w, "reach": rows, "explain": led.to_dict() if led else None})
        return
    tab = Table("to", "MP left", "path", title=f"{unit} from {u.loc}: MP {q.mp}, {w}")
    for row in rows:
        tab.add_row(g.board.label(row["to"]), str(row["mp_left"]) + (" (14.1 min)" if row["minimum_move"] else ""), ">".join(row["path"]))
    out.print(tab)
    if led:
        out.print(led.render(), markup=False)


@app.command()
def supply(scenario: str = typer.Argument(..., help="Scenario name"),
           units: Optional[List[str]] = typer.Argument(None, help="Unit ids (default: every unit of the supply side)"),
           json_: bool = JSON) -> None:
    """Check lines of supply (19.3): the path found, or the nearest base and what blocked it."""
    from hexwar.rules.supply import ALWAYS_SUPPLIED

    g = _game(scenario)
    data = g.new_state(0).data
    side = g.spec.supply_side
    uids = units or sorted(u.id for u in data.on_map(side))
    rows = []
    for uid in uids:
        u = _unit(g, data, uid)
        if u.nation in ALWAYS_SUPPLIED:
            rows.append({"unit": uid, "at": u.loc, "supplied": True, "reason": "Norwegians are always supplied (19.2)", "path": []})
            continue
        res = g.supply(data, u)
        rows.append({"unit": uid, "at": u.loc, "supplied": res.supplied, "reason": res.reason, "path": list(res.path),
                     "blocked_at": res.blocked_at, "base": res.base})
    if json_:
        _emit({"bases": data.bases, "units": rows})
        return
    tab = Table("unit", "at", "supplied", "why", "path", title=f"supply to bases {', '.join(data.bases) or 'none'}")
    for r in rows:
        tab.add_row(r["unit"], r["at"], "yes" if r["supplied"] else "[red]no[/]", r["reason"], ">".join(r["path"]))
    out.print(tab)


@app.command()
def fatigue(scenario: str = typer.Argument(..., help="Scenario name"),
            units: Optional[List[str]] = typer.Argument(None, help="Unit ids (default: all on the map)"),
            recover: bool = typer.Option(False, help="Show the end-of-turn recovery (21.0) too"),
            json_: bool = JSON) -> None:
    """Show fatigue, limits, the AFL of the units named (15.1), and end-of-turn recovery (21.0)."""
    from hexwar.rules import fatigue as fat

    g = _game(scenario)
    data = g.new_state(0).data
    uids = units or sorted(u.id for u in data.on_map())
    for uid in uids:
        _unit(g, data, uid)
    afl, led = fat.average_fatigue_level(data, g.tables, uids)
    rows = [{"unit": x, "fp": data.units[x].fatigue, "fl": fat.fatigue_limit(g.tables, data.units[x]),
             "at_limit": fat.at_limit(g.tables, data.units[x]), "infantry": fat.takes_fatigue(g.tables, data.units[x])} for x in uids]
    after = None
    if recover:
        fat.end_of_turn_recovery(data, g.tables)
        after = {x: data.units[x].fatigue for x in uids}
    if json_:
        _emit({"units": rows, "afl": afl, "afl_ledger": led.to_dict(), "after_recovery": after})
        return
    tab = Table("unit", "FP", "FL", "at limit", *(["after 21.0"] if after else []), title="fatigue")
    for r in rows:
        extra = [str(after[r["unit"]])] if after else []
        tab.add_row(r["unit"], str(r["fp"]) if r["infantry"] else "-", str(r["fl"]) if r["infantry"] else "-", "yes" if r["at_limit"] else "", *extra)
    out.print(tab)
    out.print(led.render(), markup=False)


@app.command()
def odds(scenario: str = typer.Argument(..., help="Scenario name, or kampen for a Kampen om Norge land combat"),
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
    if scenario == "kampen":
        _kampen_odds(attack, defend, fjord, cards, defend_cards, json_)
        return
    from hexwar.rules.assault import assault_sums
    from hexwar.rules.combat import diff_column_index, diff_outcomes, odds_column_index, odds_outcomes

    if table:
        from hexwar.data.scenario import load_scenario
        from hexwar.rules.combat import column_table, column_table_markdown

        sc = load_scenario(scenario)
        if sc.tables.crt is None:
            raise UserError(f"scenario {scenario} has no differential CRT")
        if json_:
            _emit({"crt": sc.tables.crt.name, "drm": drm, "columns": column_table(sc.tables.crt, drm)})
        else:
            print(column_table_markdown(sc.tables.crt, drm))
        return
    g = _game(scenario)
    data = g.new_state(0).data
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
                _unit(g, data, x)
            defenders = [u.id for u in data.at(target) if u.side != data.units[ids[0]].side]
            if not defenders:
                raise UserError(f"{target} holds no enemy of {ids[0]}")
            s = assault_sums(data, g.tables, ids, defenders)
            ad, drm = s.differential, s.drm
            from hexwar.rules.ledger import Ledger

            ledger = Ledger(f"assault on {target}")
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
        _emit(res)
        return
    tab = Table("result", "probability", "%", title=f"{res['crt']}: column {res['column']}, DRM {res['drm']:+d}")
    for o in res["outcomes"]:
        tab.add_row(o["result"], o["p"], f"{o['percent']:.1f}")
    out.print(tab)
    if ledger is not None:
        out.print(ledger.render(), markup=False)


def _kampen_odds(attack: Optional[int], defend: Optional[int], fjord: bool, cards: Optional[str],
                 defend_cards: Optional[str], json_: bool) -> None:
    """Kampen om Norge 4.2: exact odds by enumerating every die."""
    from hexwar.games.kampen import kampen_game
    from hexwar.games.kampen.game import combat_odds

    if attack is None or defend is None:
        raise UserError("hexwar odds kampen needs --attack N and --defend M (battalions)")
    if attack < 1 or defend < 1:
        raise UserError("--attack and --defend count battalions: at least 1 each")
    split = lambda v: [c for c in (v or "").split(",") if c.strip()]  # noqa: E731
    try:
        r = combat_odds(kampen_game("basic"), attack, defend, fjord, split(cards), split(defend_cards))
    except ValueError as e:
        raise UserError(str(e)) from None
    if json_:
        _emit({k: ({str(a): str(b) for a, b in v.items()} if isinstance(v, dict) else str(v) if not isinstance(v, (int, list)) else v)
               for k, v in r.items()})
        return
    for line in r["ledger"]:
        out.print(line, markup=False)
    out.print(f"dice: attacker {r['attacker_dice']}, defender {r['defender_dice']}")
    out.print(f"attacker wins the area: {r['attacker_wins']} = {float(r['attacker_wins']) * 100:.1f}%  (ties go to the defender)", markup=False)
    tab = Table("battalions lost", "defender", "attacker", title="losses (each 6 kills one) [4.2]")
    for k in sorted(set(r["defender_losses"]) | set(r["attacker_losses"])):
        d, a = r["defender_losses"].get(k), r["attacker_losses"].get(k)
        tab.add_row(str(k), f"{float(d) * 100:.1f}%" if d else "-", f"{float(a) * 100:.1f}%" if a else "-")
    out.print(tab)


SWITCHES = ("random_setup", "allied_concealment", "ap_bonus_per_action")


def _narvik(switch: list[str] | None) -> Any:
    from hexwar.games.narvik import Switches, narvik_game

    bad = [x for x in switch or [] if x not in SWITCHES]
    if bad:
        raise UserError(f"unknown switch {bad[0]!r}; switches: {', '.join(SWITCHES)}")
    return narvik_game(Switches(**{k: True for k in switch or []}))


def _run_player(cls: Any, state: Any, humans: set[str], bots: dict[str, Any], path: Path, json_: bool) -> None:
    """Run the terminal play loop (the Narvik or the Kampen flavour); end of input quits."""

    def read(prompt: str) -> str:
        try:
            return out.input(prompt)
        except EOFError:
            return "quit"

    if json_:
        _emit({"save": str(path), "humans": sorted(humans), "bots": {k: v.name for k, v in bots.items()}})
    cls(state, humans, bots, out, path, read).run()


KAMPEN_SIDES = {"germans": {"germans"}, "norwegians": {"norwegians"}, "allies": {"allies"},
                "coalition": {"norwegians", "allies"}, "both": {"norwegians", "allies"},
                "all": {"germans", "norwegians", "allies"}, "none": set()}


def _play_kampen(scenario: str, board: str, side: str, opponent: str, seed: int, load: Optional[Path],
                 save: Optional[Path], json_: bool) -> None:
    from hexwar.ai.kampen_bot import make_kampen_bot
    from hexwar.core.engine import load_game
    from hexwar.core.log import SaveFile
    from hexwar.games.kampen import FACTIONS, KampenGame
    from hexwar.games.kampen.boards import BOARDS, kampen_board
    from hexwar.ui.kampen_play import KampenPlayer

    if side not in KAMPEN_SIDES:
        raise UserError(f"--side is one of {', '.join(KAMPEN_SIDES)}")
    if load is not None:
        try:
            meta = SaveFile(load).load().meta
        except (ValueError, OSError) as e:
            raise UserError(f"{load}: {e}") from None
        scenario, board = meta.get("scenario", scenario), meta.get("board", board)
    if board not in BOARDS:
        raise UserError(f"unknown board {board!r}; boards: {', '.join(BOARDS)}")
    try:
        g = KampenGame(scenario, kampen_board(board))
    except DataError:
        raise
    except Exception as e:  # an unknown scenario file
        raise UserError(f"scenario {scenario!r}: {e}") from None
    if load is not None:
        state = load_game(g, load)
        path = load
    else:
        path = save or Path(f"kampen-{scenario}-seed{seed}.hexwar")
        state = g.new_state(seed)
        state.attach_save(path)
    humans = KAMPEN_SIDES[side]
    bots = {f: make_kampen_bot(opponent, f, seed) for f in FACTIONS if f not in humans}

    _run_player(KampenPlayer, state, humans, bots, path, json_)


@app.command()
def play(game: str = typer.Argument("narvik", help="Game to play: narvik (Assault on Narvik) or kampen (Kampen om Norge)"),
         side: str = typer.Option("allies", help="Side you command: allies, germans, both or none (kampen: also norwegians, coalition, all)"),
         scenario: str = typer.Option("intro-narvik", help="kampen: scenario (intro-narvik or basic)"),
         board: str = typer.Option("norway", help="kampen: board (norway, nordland-hex, nordland-areas)"),
         opponent: str = typer.Option("priority", help="Bot for the other side: priority, search or random"),
         seed: int = typer.Option(1, help="Seed of the dice (each game's dice are reproducible)"),
         load: Optional[Path] = typer.Option(None, help="Resume a saved game"),
         save: Optional[Path] = typer.Option(None, help="Save file (default narvik-seed<SEED>.hexwar); every order is saved"),
         switch: Optional[List[str]] = typer.Option(None, help=f"Rules switches: {', '.join(SWITCHES)}"),
         think: float = typer.Option(1.0, help="Seconds the search bot may think per decision"),
         json_: bool = JSON) -> None:
    """Play Assault on Narvik solitaire in the terminal against a bot."""
    from hexwar.ai.priority import make_bot
    from hexwar.core.engine import load_game
    from hexwar.ui.play import Player

    if game == "kampen":
        _play_kampen(scenario, board, side, opponent, seed, load, save, json_)
        return
    if game != "narvik":
        raise UserError(f"unknown game {game!r}; try: hexwar play narvik, or hexwar play kampen")
    sides = {"allies": {"allies"}, "germans": {"germans"}, "both": {"allies", "germans"}, "none": set()}
    if side not in sides:
        raise UserError("--side is allies, germans, both or none")
    g = _narvik(switch)
    if load is not None:
        try:
            state = load_game(g, load)
        except ValueError as e:
            raise UserError(str(e)) from None
        path = load
    else:
        path = save or Path(f"narvik-seed{seed}.hexwar")
        state = g.new_state(seed)
        state.attach_save(path)
    humans = sides[side]
    bots = {s: make_bot(opponent, s, seed, think) for s in ("allies", "germans") if s not in humans}

    _run_player(Player, state, humans, bots, path, json_)


@app.command()
def simulate(game: str = typer.Argument(..., help="GAME[/SCENARIO][@BOARD][:BOTS], e.g. kampen/intro-narvik@nordland-hex:priority or narvik"),
             games: int = typer.Option(1000, help="Number of games"),
             seed: int = typer.Option(1, help="Batch seed: game i's seed is derived from it, so any game can be re-run"),
             out_path: Optional[Path] = typer.Option(None, "--out", help="CSV of rows (default sim/<setup>-seed<K>.csv); re-running resumes it"),
             workers: Optional[int] = typer.Option(None, help="Local processes (default: every core)"),
             scheduler: Optional[str] = typer.Option(None, help="Dask scheduler address tcp://host:port"),
             dask: bool = typer.Option(False, "--dask", help="Run on a local Dask cluster"),
             json_: bool = JSON) -> None:
    """Run N seeded bot-vs-bot games; one CSV row per game and a JSON summary beside it."""
    import time

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from hexwar.sim import parse_setup
    from hexwar.sim import simulate as run
    from hexwar.sim import summary

    try:
        setup = parse_setup(game)
    except ValueError as e:
        raise UserError(str(e)) from None
    if games < 1:
        raise UserError("--games must be at least 1")
    path = out_path or Path("sim") / f"{setup.slug}-seed{seed}.csv"
    sched = scheduler or ("local-dask" if dask else None)
    t0 = time.perf_counter()
    with Progress(TextColumn(setup.label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=err, disable=json_) as bar:
        task = bar.add_task("games", total=games)
        rows = run(setup, games, seed, path, workers, sched, progress=lambda done, n: bar.update(task, completed=done))
    dt = time.perf_counter() - t0
    summ = summary(rows)
    summ.update({"seed": seed, "file": str(path), "seconds": round(dt, 2)})
    path.with_suffix(".json").write_text(json.dumps(summ, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    if json_:
        _emit(summ)
        return
    lo, hi = summ["allied_win_95ci"]
    out.print(f"{summ['games']} games of {setup.label} in {dt:.1f} s -> {path}", markup=False)
    out.print(f"winners {summ['winners']}; Allied win rate {summ['allied_win_rate']:.3f} (95% CI {lo:.3f}-{hi:.3f}); "
              f"game length {summ['end_turn']['mean']:.2f} turns/rounds", markup=False)


@app.command()
def compare(setups: Optional[List[str]] = typer.Argument(None, help="Two or more setups (GAME[/SCENARIO][@BOARD][:BOTS])"),
            preset: Optional[str] = typer.Option(None, help="A shipped comparison: boards or games (writes into docs/)"),
            games: int = typer.Option(1000, help="Games per setup (presets set their own)"),
            seed: int = typer.Option(1, help="Batch seed"),
            out_dir: Optional[Path] = typer.Option(None, "--out", help="Report folder (default compare/)"),
            title: str = typer.Option("Comparison", help="Report title"),
            workers: Optional[int] = typer.Option(None, help="Local processes (default: every core)"),
            scheduler: Optional[str] = typer.Option(None, help="Dask scheduler address tcp://host:port"),
            dask: bool = typer.Option(False, "--dask", help="Run on a local Dask cluster")) -> None:
    """Compare setups over seeded batches: a Markdown report with figures and significance."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from hexwar.sim.report import PRESETS
    from hexwar.sim.report import compare as run
    from hexwar.sim.setups import parse_setup

    intro = ""
    if preset:
        if preset not in PRESETS:
            raise UserError(f"unknown preset {preset!r}; presets: {', '.join(PRESETS)}")
        p = PRESETS[preset]
        specs, counts, title, intro = list(p.setups), list(p.games), p.title, p.intro
        folder = out_dir or default_library().root / p.out
    else:
        specs = list(setups or [])
        if len(specs) < 2:
            raise UserError("compare needs two or more setups, or --preset boards|games")
        counts = [games] * len(specs)
        folder = out_dir or Path("compare")
    try:
        parsed = [parse_setup(x) for x in specs]
    except ValueError as e:
        raise UserError(str(e)) from None
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), console=err) as bar:
        tasks: dict[str, Any] = {}

        def tick(label: str, done: int, total: int) -> None:
            if label not in tasks:
                tasks[label] = bar.add_task(label, total=total)
            bar.update(tasks[label], completed=done)

        path = run(parsed, counts, seed, Path(folder), title, intro, workers, scheduler or ("local-dask" if dask else None), tick)
    out.print(f"wrote {path}", markup=False)


@app.command()
def replay(file: Path = typer.Argument(..., help="A saved game (.hexwar)"),
           svg: Optional[Path] = typer.Option(None, help="Folder for one SVG map per action (or per turn with --per-turn)"),
           per_turn: bool = typer.Option(False, "--per-turn", help="One SVG per turn instead of per action"),
           switch: Optional[List[str]] = typer.Option(None, help="The rules switches the game was played with"),
           json_: bool = JSON) -> None:
    """Step through a saved game from its log, optionally writing SVG snapshots."""
    from hexwar.core.engine import replay as replay_log
    from hexwar.core.log import SaveFile
    from hexwar.ui.play import describe
    from hexwar.ui.render import render_svg

    try:
        log = SaveFile(file).load()
    except (ValueError, OSError) as e:
        raise UserError(f"{file}: {e}") from None
    kampen = log.meta.get("game") == "kampen"
    stacks_of: Any = None
    if kampen:  # Kampen om Norge saves name their scenario and board
        from hexwar.games.kampen import KampenGame
        from hexwar.games.kampen.boards import kampen_board
        from hexwar.ui.kampen_play import COLOURS, SHORT, say

        g = KampenGame(log.meta.get("scenario", "intro-narvik"), kampen_board(log.meta.get("board", "norway")))
        describe = say  # noqa: F811

        def stacks_of(d: Any) -> dict[str, list[tuple[str, int, str]]]:
            x = d.extra
            return {a: [(SHORT[f], n, COLOURS[f]) for f in ("germans", "norwegians", "allies") if (n := x["bn"][f].get(a, 0))]
                    for a in g.land if any(x["bn"][f].get(a, 0) for f in x["bn"])}
    else:
        g = _narvik(switch)
    try:
        st = replay_log(g, type(log)(log.meta))  # the start, then entry by entry
    except ValueError as e:
        raise UserError(str(e)) from None
    rows = []
    if svg is not None:
        svg.mkdir(parents=True, exist_ok=True)
    last_turn = st.data.turn
    from hexwar.core.dice import Dice
    from hexwar.core.orders import order_from_dict

    for entry in log.entries:
        order = order_from_dict(entry.order)
        events = st._apply(order, Dice.replaying(entry.rolls), entry.seq)
        rows.append({"seq": entry.seq, "turn": st.data.turn, "order": order.text(), "side": order.side, "events": events})
        if not json_:
            out.print(f"{entry.seq:>5} t{st.data.turn} {order.side:>8}: {order.text()}", markup=False, highlight=False)
            for ev in events:
                out.print("        " + describe(ev), markup=False, highlight=False)
        if svg is not None and (not per_turn or st.data.turn != last_turn or entry is log.entries[-1]):
            title = f"turn {st.data.turn}, order {entry.seq}: {order.text()}"
            drawing = (render_svg(g.board, None, title=title, stacks=stacks_of(st.data)) if kampen
                       else render_svg(g.board, st.data, title=title))
            (svg / f"{entry.seq:05d}-turn{st.data.turn:02d}.svg").write_text(drawing, encoding="utf-8")
        last_turn = st.data.turn
    res = st.result()
    if json_:
        _emit({"orders": len(rows), "result": {"level": res.level, "vp": res.vp, "over": res.over}, "log": rows})
    else:
        out.print(f"{len(rows)} orders; {res.level}; " + (f"battalions {res.vp}" if kampen else f"VP {res.vp}"), markup=False)


def main() -> None:
    """Run the CLI, turning data and user errors into one-line messages."""
    try:
        app()
    except DataError as e:
        for p in e.problems:
            print(str(p), file=sys.stderr)
        sys.exit(1)
    except (UserError, BoardError, KeyError, ValueError) as e:
        msg = e.args[0] if e.args else str(e)
        print(f"error: {msg}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":  # pragma: no cover
    main()
