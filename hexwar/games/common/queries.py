"""The rule queries of the land games on Assault on Narvik's rules (Assault on Narvik, the
skirmish ruleset, Konflikt '47 on it): where a unit can move (14.0), its line of supply
(19.3), fatigue and the AFL (10.0, 15.1, 21.0), and exact assault odds (15.1), over a
scenario's start or a saved game as it stands (``hexwar reach|supply|fatigue|odds``).

Bad input is a one-line ``ValueError``; the command line says it and exits 2.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any, Optional

import typer
from rich.table import Table

from hexwar.board.base import place_name
from hexwar.games.common.narvik_rules import ALWAYS_SUPPLIED
from hexwar.games.registry import Answer, Position, Queries
from hexwar.rules import fatigue as fat
from hexwar.rules.ledger import Ledger


def unit_of(pos: Position, uid: str) -> Any:
    """A unit the position's eyes may name, on the map; else a one-line ``ValueError``."""
    data, sides = pos.data, pos.sides
    if uid not in data.units or sides is not None and data.units[uid].side not in sides and data.units[uid].concealed:
        known = sorted(u for u, x in data.units.items() if sides is None or x.side in sides or not x.concealed)
        raise ValueError(f"no unit {uid!r} in scenario {pos.game.spec.name}; units: {', '.join(known)}")
    u = data.units[uid]
    if u.loc is None:
        raise ValueError(f"{uid} is not on the map ({u.pool})")
    return u


def reach(pos: Position, unit: str, to: str | None = None, weather: str | None = None,
          mp: Fraction | None = None) -> Answer:
    """Where a unit can move in one action (14.0), with the MP left; the path to ``to`` explained."""
    from hexwar.rules.movement import explain_path
    from hexwar.rules.movement import reach as reach_fn

    g, data = pos.game, pos.data
    u = unit_of(pos, unit)
    t = g.tables.types[u.type]
    q = g.query(data, u)
    if mp is not None:
        q = replace(q, mp=mp)
    if weather is not None and weather not in g.tables.terrain.weather:
        raise ValueError(f"--weather {weather!r} is not a section of the terrain chart; sections: {', '.join(g.tables.terrain.weather)}")
    w = weather or data.weather
    r = reach_fn(g.board, g.tables.terrain, w, t.movement_class, u.loc, q)
    rows: list[dict[str, Any]] = [{"to": d, "mp_left": r.mp_left[d], "path": r.path(d), "minimum_move": d in r.min_move}
                                  for d in r.destinations()]
    led = None
    if to is not None:
        if to not in r:
            raise ValueError(f"{unit} cannot reach {to} in one movement action ({g.cites.move.blocked})")
        led = explain_path(g.board, g.tables.terrain, w, t.movement_class, r.path(to), q, g.cites.move)
    tab = Table("to", "MP left", "path", title=f"{unit} from {u.loc}: MP {q.mp}, {w}")
    for row in rows:
        tab.add_row(g.board.label(row["to"]), str(row["mp_left"]) + (f" ({g.cites.move.min_move} min)" if row["minimum_move"] else ""),
                    ">".join(row["path"]))
    return Answer({"unit": unit, "from": u.loc, "mp": q.mp, "weather": w, "reach": rows, "explain": led.to_dict() if led else None},
                  [tab] + ([led.render()] if led else []))


def supply(pos: Position, units: list[str] | None = None) -> Answer:
    """Each unit's line of supply (19.3): the path found, or the nearest base and what blocked it."""
    g, data, sides = pos.game, pos.data, pos.sides
    side = g.spec.supply_side

    def ship(u: Any) -> bool:  # by its type: any game with supply (the fixture skirmish too), not Narvik's is_ship
        return bool(g.tables.types[u.type].kind == "ship")

    def checked(u: Any) -> bool:  # 19.2: a land unit on the map (ships are unaffected; a box is out of reach)
        return not ship(u) and not g.board.is_a(u.loc, "box")

    uids = units or sorted(u.id for u in data.on_map(side) if checked(u) and (sides is None or side in sides or not u.concealed))
    rows = []
    for uid in uids:
        u = unit_of(pos, uid)
        if u.nation in ALWAYS_SUPPLIED or not checked(u):
            why = ("Norwegians are always supplied (19.2)" if u.nation in ALWAYS_SUPPLIED
                   else "ships are unaffected by supply (19.2)" if ship(u)
                   else f"in the {place_name(g.board, u.loc)} box, out of the Germans' reach (22.1): never checked (19.2)")
            rows.append({"unit": uid, "at": u.loc, "supplied": True, "reason": why, "path": []})
            continue
        res = g.supply(data, u)
        rows.append({"unit": uid, "at": u.loc, "supplied": res.supplied, "reason": res.reason, "path": list(res.path),
                     "blocked_at": res.blocked_at, "base": res.base})
    tab = Table("unit", "at", "supplied", "why", "path",
                title=f"supply ({g.cites.supply.line}) at {pos.what}; bases ({g.cites.supply.base}): {', '.join(data.bases) or 'none yet'}")
    for r in rows:
        tab.add_row(r["unit"], r["at"], "yes" if r["supplied"] else "[red]no[/]", r["reason"], ">".join(r["path"]))
    return Answer({"position": pos.what, "bases": data.bases, "units": rows}, [tab])


def fatigue(pos: Position, units: list[str] | None = None, recover: bool = False) -> Answer:
    """FP, limits, the AFL of the units named (15.1), and the end-of-turn recovery (21.0)."""
    g, data, sides = pos.game, pos.data, pos.sides
    uids = units or sorted(u.id for u in data.on_map() if sides is None or u.side in sides or not u.concealed)
    for uid in uids:
        unit_of(pos, uid)
    afl, led = fat.average_fatigue_level(data, g.tables, uids, g.cites.assault.afl)
    rows = [{"unit": x, "fp": data.units[x].fatigue, "fl": fat.fatigue_limit(g.tables, data.units[x]),
             "at_limit": fat.at_limit(g.tables, data.units[x]), "infantry": fat.takes_fatigue(g.tables, data.units[x])} for x in uids]
    after = None
    if recover:
        fat.end_of_turn_recovery(data, g.tables)
        after = {x: data.units[x].fatigue for x in uids}
    rule = g.tables.fatigue.rule("recovery") if g.tables.fatigue is not None else ""
    tab = Table("unit", "FP", "FL", "at limit", *([f"after {rule}"] if after else []), title=f"fatigue at {pos.what}")
    for r in rows:
        extra = [str(after[r["unit"]])] if after else []
        tab.add_row(r["unit"], str(r["fp"]) if r["infantry"] else "-", str(r["fl"]) if r["infantry"] else "-",
                    "yes" if r["at_limit"] else "", *extra)
    return Answer({"position": pos.what, "units": rows, "afl": afl, "afl_ledger": led.to_dict(), "after_recovery": after},
                  [tab, led.render()])


QUERIES = Queries(reach=reach, supply=supply, fatigue=fatigue)

#: ``hexwar odds POSITION [OPTIONS]`` for the land games
odds = typer.Typer(add_completion=False, rich_markup_mode=None, pretty_exceptions_enable=False)


def assault_ledger(pos: Position, target: str, ids: list[str]) -> tuple[Ledger, int, int]:
    """The assault's sums on ``target`` by ``ids`` (15.1): its ledger, differential and DRM; a
    what-if: adjacency is not checked. A one-line ``ValueError`` for what cannot be summed."""
    from hexwar.rules.assault import assault_sums

    g, data, sides = pos.game, pos.data, pos.sides
    if not ids:
        raise ValueError("no attackers named")
    for x in ids:
        unit_of(pos, x)
    defenders = [u.id for u in data.at(target) if u.side != data.units[ids[0]].side]
    if not defenders:
        raise ValueError(f"{target} holds no enemy of {ids[0]}")
    if sides is not None and any(data.units[x].concealed and data.units[x].side not in sides for x in defenders):
        raise ValueError(f"{target}: defenders face down: their strength shows when attacked (11.2)")
    s = assault_sums(data, g.tables, ids, defenders, cites=g.cites.assault)
    ledger = Ledger(f"assault on {target} at {pos.what}")
    ledger.extend(list(s.attack) + list(s.defence) + list(s.drms))
    ledger.total = f"AD {s.differential}, DRM {s.drm:+d}"
    return ledger, s.differential, s.drm


def _in(option: str, v: int | None, lo: int, hi: int) -> None:
    if v is not None and not lo <= v <= hi:
        raise ValueError(f"{option} is {v}; it must be from {lo} to {hi}")


@odds.command()
def land_odds(ctx: typer.Context,
              target: Optional[str] = typer.Option(None, help="Location assaulted (with --attackers); a what-if: adjacency is not checked"),
              attackers: Optional[str] = typer.Option(None, help="Comma-separated attacking unit ids"),
              ad: Optional[int] = typer.Option(None, help="Attack differential, for a bare CRT look-up"),
              drm: int = typer.Option(0, help="Die roll modifier (bare look-up)"),
              attack: Optional[int] = typer.Option(None, help="Attack strength, for the odds CRT"),
              defence: Optional[int] = typer.Option(None, help="Defence strength, for the odds CRT"),
              shift: int = typer.Option(0, help="Column shift"),
              table: bool = typer.Option(False, "--table", help="Every column's exact odds (Markdown), with --drm")) -> Answer:
    """Exact odds of an assault at a position (15.1), of a differential CRT column (--ad), or of an
    odds CRT column (--attack with --defence)."""
    from hexwar.rules.combat import (
        column_table,
        column_table_markdown,
        diff_column_index,
        diff_outcomes,
        odds_column_index,
        odds_outcomes,
    )

    for opt, v, lo, hi in (("--attack", attack, 0, 1000), ("--defence", defence, 0, 1000), ("--ad", ad, -100, 100),
                           ("--drm", drm, -20, 20), ("--shift", shift, -20, 20)):
        _in(opt, v, lo, hi)
    pos: Position = ctx.obj
    g, what = pos.game, pos.what
    crt = g.tables.crt
    if table:
        if crt is None:
            raise ValueError(f"{what}: no differential CRT")
        return Answer({"crt": crt.name, "drm": drm, "columns": column_table(crt, drm)}, [column_table_markdown(crt, drm)])
    ledger = None
    if attack is not None or defence is not None:
        if g.tables.odds is None or attack is None or defence is None:
            raise ValueError("--attack and --defence need both values and a scenario with an odds CRT")
        col = g.tables.odds.columns[odds_column_index(g.tables.odds, attack, defence, shift)].label
        dist = odds_outcomes(g.tables.odds, attack, defence, drm, shift)
        res: dict[str, Any] = {"crt": g.tables.odds.name, "column": col, "drm": drm,
                               "outcomes": [{"result": r, "p": str(p), "percent": float(p) * 100} for r, p in dist]}
    else:
        if target is not None:
            if not attackers:
                raise ValueError("--target needs --attackers")
            ledger, ad, drm = assault_ledger(pos, target, [x.strip() for x in attackers.split(",") if x.strip()])
        if ad is None:
            raise ValueError("give --target with --attackers, or --ad, or --attack with --defence")
        if crt is None:
            raise ValueError(f"{what}: no differential CRT")
        col = crt.columns[diff_column_index(crt, ad, shift)].label
        ddist = diff_outcomes(crt, ad, drm, shift)
        res = {"crt": crt.name, "ad": ad, "column": col, "drm": drm,
               "outcomes": [{"result": f"{a}/{d}", "p": str(p), "percent": float(p) * 100} for (a, d), p in ddist]}
    if ledger is not None:
        res["ledger"] = ledger.to_dict()
    tab = Table("result", "probability", "%", title=f"{res['crt']}: column {res['column']}, DRM {res['drm']:+d}")
    for o in res["outcomes"]:
        tab.add_row(o["result"], o["p"], f"{o['percent']:.1f}")
    return Answer(res, [tab] + ([ledger.render()] if ledger is not None else []))
