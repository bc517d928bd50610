"""The rule queries of the land games on Assault on Narvik's rules (Assault on Narvik, the
skirmish ruleset, Konflikt '47 on it): where a unit can move (14.0), its line of supply
(19.3), fatigue and the AFL (10.0, 15.1, 21.0), and exact assault odds (15.1), over a
scenario's start or a saved game as it stands (``hexwar reach|supply|fatigue|odds``).

Bad input is a one-line ``ValueError``; the command line says it and exits 2.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any, Optional, Sequence, cast

import typer
from rich.table import Table

from hexwar.core.orders import Move
from hexwar.games.common import asked
from hexwar.registry import Answer, Position, Queries
from hexwar.rules import fatigue as fat
from hexwar.ui.words import render_ledger


def unit_of(pos: Position[Any, Any], uid: str) -> Any:
    """A unit the position's eyes may name, on the map; else a one-line ``ValueError``."""
    data, sides = pos.data, pos.sides
    if uid not in data.units or sides is not None and data.units[uid].side not in sides and data.units[uid].concealed:
        known = sorted(u for u, x in data.units.items() if sides is None or x.side in sides or not x.concealed)
        raise ValueError(f"no unit {uid!r} in scenario {pos.game.spec.name}; units: {', '.join(known)}")
    u = data.units[uid]
    if u.loc is None:
        raise ValueError(f"{uid} is not on the map ({u.pool})")
    return u


class Refused(ValueError):
    """``reach --to`` a place the unit could walk to but the game refuses it (its rule said)."""



def json_of(ans: Answer) -> dict[str, Any]:
    """What a query of these games answered, as its JSON (``--json``): the shape this module
    writes, read back by the analysis board and the explanations."""
    return cast("dict[str, Any]", ans.data)

class OutOfReach(ValueError):
    """``reach --to`` a place the unit cannot get to in one movement action."""


def reach(pos: Position[Any, Any], unit: str, to: str | None = None, weather: str | None = None,
          mp: Fraction | None = None) -> Answer:
    """Where a unit can move in one action (14.0), as the game lists its moves at the unit's
    side's decision (``asked.unit_moves``: stacking 13.2, the fatigue limit 10.1, Sweden
    22.2, ferries 20.6 ... all the game's), with the MP left after what the game charges;
    each place the movement chart reaches but the game refuses, with the refusal's rule; the
    path to ``to`` explained. ``weather`` asks the game at another weather of its chart;
    ``mp`` lowers the unit's MP (a halved unit): the moves that spend no more, and the
    one-hex minimum move (14.1)."""
    from hexwar.rules.movement import explain_path
    from hexwar.rules.movement import reach as chart_reach

    g, data = pos.game, pos.data
    u = unit_of(pos, unit)
    if weather is not None and weather not in g.tables.terrain.weather:
        raise ValueError(f"--weather {weather!r} is not a section of the terrain chart; sections: {', '.join(g.tables.terrain.weather)}")
    if weather is not None and weather != data.weather:
        data = data.clone()  # a what-if the game itself answers: the same position at another weather
        data.weather = weather
        u = data.units[unit]
    w = data.weather
    t = g.tables.types[u.type]
    q = g.query(data, u)
    chart = chart_reach(g.board, g.tables.terrain, w, t.movement_class, u.loc, q)
    moves = asked.unit_moves(g, data, unit, chart)
    if mp is not None and mp > moves.mp:
        raise ValueError(f"--mp {mp}: {unit} has {moves.mp} MP, and the game lists no move beyond them (14.0); "
                         "--mp lowers a unit's MP, never raises it")
    have = moves.mp if mp is None else mp
    rows: list[dict[str, Any]] = []
    for dest, (order, spent) in sorted(moves.listed.items(), key=lambda kv: (kv[1][1], kv[0])):
        path = list(getattr(order, "path", ()))
        minimum = dest in chart.min_move or (len(path) == 2 and spent > have)
        if mp is not None and spent > mp and len(path) != 2:
            continue
        rows.append({"to": dest, "mp_left": max(have - spent, Fraction(0)) if minimum else have - spent, "path": path,
                     "minimum_move": minimum})
    refused: list[dict[str, Any]] = [{"to": dest, "refused": why, "rule": rule, "path": list(chart.path(dest))}
                                     for dest, (why, rule) in sorted(moves.refused.items())]
    led = None
    if to is not None:
        no = next((r for r in refused if r["to"] == to), None)
        if no is not None:
            raise Refused(f"{unit} may not end a move at {to}: {refusal(no)}")
        row = next((r for r in rows if r["to"] == to), None)
        if row is None and not moves.listed:  # the game may refuse the unit any move (22.1 in a box, 8.2.1 ...)
            why = asked.refusal_of(g, data, Move(u.side, unit, (u.loc, to)))
            if why is not None and why[1] not in ("14.0", "14.1"):
                raise Refused(f"{unit} may not move to {to}: {_said(*why)}")
        if row is None:
            raise OutOfReach(f"{unit} cannot reach {to} in one movement action ({g.cites.move.blocked})")
        led = explain_path(g.board, g.tables.terrain, w, t.movement_class, tuple(row["path"]),
                           replace(q, mp=have), g.cites.move)
    tab = Table("to", "MP left", "path", title=f"{unit} from {u.loc}: MP {have}, {w}")
    for row in rows:
        tab.add_row(g.board.label(row["to"]), str(row["mp_left"]) + (f" ({g.cites.move.min_move} min)" if row["minimum_move"] else ""),
                    ">".join(row["path"]))
    shown: list[Any] = [tab]
    reasons: set[tuple[str, str]] = {(str(r["refused"]), str(r["rule"])) for r in refused}
    if refused and not rows and len(reasons) == 1:  # one reason for every place: the unit may not move now
        shown.append(f"{unit} may not move now: {_said(*reasons.pop())}")
    elif refused:
        shown.append("reached on the movement chart, but the game refuses a move there:")
        shown += [f"  {g.board.label(r['to'])}: {refusal(r)}" for r in refused]
    return Answer({"unit": unit, "from": u.loc, "mp": have, "weather": w, "reach": rows, "refused": refused,
                   "explain": led.to_dict() if led else None},
                  shown + ([led.render()] if led else []))


def _said(why: str, rule: str) -> str:
    """A refusal's words with its section, once."""
    return why if not rule or why.endswith(f"({rule})") else f"{why} ({rule})"


def refusal(row: dict[str, Any]) -> str:
    """A refused place of ``reach`` (its ``refused`` rows) in words: the game's refusal with
    its section."""
    return _said(row["refused"].removeprefix(row["to"] + ": "), row["rule"])


def supply(pos: Position[Any, Any], units: list[str] | None = None) -> Answer:
    """Each unit's supply by its side's own rules (``supply_answer``): its line (19.3) or what
    blocked it, whether it takes the 19.2 penalty if attacked now; a side that traces no
    line says what its rules say instead (19.1)."""
    g, data, sides = pos.game, pos.data, pos.sides
    side = g.spec.supply_side

    def shown(u: Any) -> bool:  # the default list: the supply side's land units on the map that the eyes see
        return (g.tables.types[u.type].kind != "ship" and not g.board.is_a(u.loc, "box")
                and (sides is None or side in sides or not u.concealed))

    uids = units or ([] if side is None else sorted(u.id for u in data.on_map(side) if shown(u)))
    rows = []
    for uid in uids:
        u = unit_of(pos, uid)
        a = g.supply_answer(data, u)
        rows.append({"unit": uid, "at": u.loc, "supplied": a.supplied, "penalised": a.penalised, "reason": a.reason,
                     "path": list(a.path), "blocked_at": a.blocked_at, "base": a.base})
    tab = Table("unit", "at", "supplied", "why", "path",
                title=f"supply ({g.cites.supply.line}) at {pos.what}; bases ({g.cites.supply.base}): {', '.join(data.bases) or 'none yet'}")
    for r in rows:
        yes = "-" if r["supplied"] is None else "yes" if r["supplied"] else "[red]no[/]"
        tab.add_row(r["unit"], r["at"], yes, r["reason"], ">".join(r["path"]))
    said = [] if rows or side is not None else ["no side traces a line of supply in this game"]
    return Answer({"position": pos.what, "bases": data.bases, "units": rows}, [tab, *said])


def fatigue(pos: Position[Any, Any], units: list[str] | None = None, recover: bool = False) -> Answer:
    """FP, limits, the AFL of the units named (15.1), and the end-of-turn recovery (21.0), by
    the rule functions the game plays with; FP that the fatigue log does not account for
    (set in a position file or on the analysis board) shown as set by hand."""
    g, data, sides = pos.game, pos.data, pos.sides
    if g.tables.fatigue is None:
        raise ValueError(f"{pos.game.spec.name}: this game keeps no fatigue points")
    uids = units or sorted(u.id for u in data.on_map() if sides is None or u.side in sides or not u.concealed)
    for uid in uids:
        unit_of(pos, uid)
    afl, led = fat.average_fatigue_level(data, g.tables, uids, g.cites.assault.afl)
    rows = [{"unit": x, "fp": data.units[x].fatigue, "fl": fat.fatigue_limit(g.tables, data.units[x]),
             "at_limit": fat.at_limit(g.tables, data.units[x]), "infantry": fat.takes_fatigue(g.tables, data.units[x]),
             "by_hand": fat.set_by_hand(data, x)} for x in uids]
    after = None
    if recover:
        work = data.clone()  # the recovery, on a copy: the position stays as it is
        fat.end_of_turn_recovery(work, g.tables)
        after = {x: work.units[x].fatigue for x in uids}
    rule = g.tables.fatigue.rule("recovery")
    tab = Table("unit", "FP", "FL", "at limit", "set by hand", *([f"after {rule}"] if after else []), title=f"fatigue at {pos.what}")
    for r in rows:
        extra = [str(after[r["unit"]])] if after else []
        tab.add_row(r["unit"], str(r["fp"]) if r["infantry"] else "-", str(r["fl"]) if r["infantry"] else "-",
                    "yes" if r["at_limit"] else "", f"{r['by_hand']:+d}" if r["by_hand"] else "", *extra)
    return Answer({"position": pos.what, "units": rows, "afl": afl, "afl_ledger": led.to_dict(), "after_recovery": after},
                  [tab, led.render()])


QUERIES = Queries(reach=reach, supply=supply, fatigue=fatigue)

#: ``hexwar odds POSITION [OPTIONS]`` for the land games
odds = typer.Typer(add_completion=False, rich_markup_mode=None, pretty_exceptions_enable=False)


def assault_odds(pos: Position[Any, Any], target: str, ids: list[str], support: Sequence[str] = (), ap: int = 0) -> dict[str, Any]:
    """The assault of ``ids`` on ``target`` (with ``support`` and ``ap``) as the game fights
    it (``asked.fights``): on a copy at the attackers' side's decision, once for every die
    it rolls, so every step the game takes before its die is in it (19.2's +6 FP for an
    unsupplied defender, defending artillery 16.1, the weather 7.0, air support 18.1.1,
    formations 17.0, tanks 16.2). Its columns, each result's exact chance, and the ledger of
    the fight at its first column (before the die). The game's refusal is a one-line
    ``ValueError`` with its rule."""
    g, data, sides = pos.game, pos.data, pos.sides
    if not ids:
        raise ValueError("no attackers named")
    for x in [*ids, *support]:
        unit_of(pos, x)
    side = data.units[ids[0]].side
    if target not in g.board:
        raise ValueError(f"{target!r} is no location of the board")
    defenders = [u.id for u in data.at(target) if u.side != side]
    if not defenders:
        raise ValueError(f"{target} holds no enemy of {ids[0]}")
    if sides is not None and any(data.units[x].concealed and data.units[x].side not in sides for x in defenders):
        raise ValueError(f"{target}: defenders face down: their strength shows when attacked (11.2)")
    ans = asked.fight_answer(g, data, g.assault_order(data, side, target, ids, tuple(support), ap))
    first = ans.pop("first")
    return {"position": pos.what, "crt": g.tables.crt.name, **ans,
            "ad": first.get("ad"), "column": first.get("column"), "drm": first.get("drm")}


def _in(option: str, v: int | None, lo: int, hi: int) -> None:
    if v is not None and not lo <= v <= hi:
        raise ValueError(f"{option} is {v}; it must be from {lo} to {hi}")


@odds.command()
def land_odds(ctx: typer.Context,
              target: Optional[str] = typer.Option(None, help="Location assaulted (with --attackers): fought by the game on a copy, every die"),
              attackers: Optional[str] = typer.Option(None, help="Comma-separated attacking unit ids"),
              support: Optional[str] = typer.Option(None, help="Comma-separated supporting artillery and ships (16.1, 20.5)"),
              ap: int = typer.Option(0, help="German air points given to the assault (18.1.1)"),
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
                           ("--drm", drm, -20, 20), ("--shift", shift, -20, 20), ("--ap", ap, 0, 99)):
        _in(opt, v, lo, hi)
    pos: Position[Any, Any] = ctx.obj
    g, what = pos.game, pos.what
    crt = g.tables.crt
    if table:
        if crt is None:
            raise ValueError(f"{what}: no differential CRT")
        return Answer({"crt": crt.name, "drm": drm, "columns": column_table(crt, drm)}, [column_table_markdown(crt, drm)])
    if target is not None or attackers:
        if not (target and attackers):
            raise ValueError("--target and --attackers go together")

        def names(text: str | None) -> list[str]:
            return [x.strip() for x in (text or "").split(",") if x.strip()]

        fight = assault_odds(pos, target, names(attackers), names(support), ap)
        tab = Table("result", "probability", "%", title=f"{fight['order']}: {fight['crt']}, {fight['fights']} dice fought")
        for o in fight["outcomes"]:
            tab.add_row(o["result"], o["p"], f"{o['percent']:.1f}")
        cols = [f"column {c['column']} (AD {c['ad']}, DRM {c['drm']:+d}): {c['p']}" for c in fight["columns"]]
        return Answer(fight, [tab, *(["columns, by the air-support roll:", *cols] if len(cols) > 1 else []),
                              render_ledger(fight["ledger"])])
    if support or ap:
        raise ValueError("--support and --ap go with --target and --attackers")
    if attack is not None or defence is not None:
        if g.tables.odds is None or attack is None or defence is None:
            raise ValueError("--attack and --defence need both values and a scenario with an odds CRT")
        col = g.tables.odds.columns[odds_column_index(g.tables.odds, attack, defence, shift)].label
        dist = odds_outcomes(g.tables.odds, attack, defence, drm, shift)
        res: dict[str, Any] = {"crt": g.tables.odds.name, "column": col, "drm": drm,
                               "outcomes": [{"result": r, "p": str(p), "percent": float(p) * 100} for r, p in dist]}
    else:
        if ad is None:
            raise ValueError("give --target with --attackers, or --ad, or --attack with --defence")
        if crt is None:
            raise ValueError(f"{what}: no differential CRT")
        col = crt.columns[diff_column_index(crt, ad, shift)].label
        ddist = diff_outcomes(crt, ad, drm, shift)
        res = {"crt": crt.name, "ad": ad, "column": col, "drm": drm,
               "outcomes": [{"result": f"{a}/{d}", "p": str(p), "percent": float(p) * 100} for (a, d), p in ddist]}
    tab = Table("result", "probability", "%", title=f"{res['crt']}: column {res['column']}, DRM {res['drm']:+d}")
    for o in res["outcomes"]:
        tab.add_row(o["result"], o["p"], f"{o['percent']:.1f}")
    return Answer(res, [tab])
