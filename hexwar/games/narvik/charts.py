"""The Assault on Narvik die tables the phases read by name, checked for what the phases can do
with each result: a table a player edits may change odds and results, but a result word the
rules do not know (a typo, a weather that does not exist) is refused on load with the file and
entry, instead of being silently read as "nothing happens"."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from hexwar.data.loader import DataError, Library, Problem, _rel
from hexwar.data.tables import DieTable, UnitType

MAX_COUNT = 20  # companies, guns or ships one result can bring or take (the counter mix is smaller)

Check = Callable[[Any, "_Ctx"], list[tuple[str, str]]]

#: what a face-down counter of the other side is, as far as the viewer knows
HIDDEN = UnitType(key="hidden", kind="hidden", size="company", movement_class="leg", strength=0, mp=0,  # type: ignore[arg-type]
                  fatigue_limit=0, zoc_exit_mp=0, infantry=False)


class _Ctx:
    def __init__(self, ship_types: set[str], formations: set[str]):
        self.ship_types = ship_types
        self.formations = formations


def _words(*words: str, pattern: str | None = None) -> Check:
    def check(result: Any, ctx: _Ctx) -> list[tuple[str, str]]:
        if isinstance(result, str) and (result in words or (pattern and re.fullmatch(pattern, result))):
            return []
        extra = f" or {pattern}" if pattern else ""
        return [("", f"{result!r} is not a result this table can have: {', '.join(words)}{extra}")]
    return check


def _count(key: str, v: Any) -> list[tuple[str, str]]:
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_COUNT:
        return [(f".{key}", f"{v!r} must be a whole number from 0 to {MAX_COUNT}")]
    return []


def _reinforcements(result: Any, ctx: _Ctx) -> list[tuple[str, str]]:  # 30.0
    if not isinstance(result, dict) or not result:
        return [("", "must map replacement / infantry_coy / paratroop_coy to a number (30.0)")]
    out: list[tuple[str, str]] = []
    for k, v in result.items():
        if k not in ("replacement", "infantry_coy", "paratroop_coy"):
            out.append((f".{k}", "unknown key; expected replacement, infantry_coy or paratroop_coy (30.0)"))
        else:
            out += _count(k, v)
    return out


def _redeployment(result: Any, ctx: _Ctx) -> list[tuple[str, str]]:  # 31.0
    if not isinstance(result, dict):
        return [("", "must be a mapping of formation / artillery / tank / ships / once / returns (31.0)")]
    out: list[tuple[str, str]] = []
    for k, v in result.items():
        if k in ("artillery", "tank"):
            out += _count(k, v)
        elif k in ("once", "returns"):
            if not isinstance(v, bool):
                out.append((f".{k}", f"{v!r} must be true or false"))
        elif k == "formation":
            if v not in ctx.formations:
                out.append((".formation", f"{v!r} is no formation of the order of battle"))
        elif k == "ships":
            if not isinstance(v, dict):
                out.append((".ships", "must map ship types to a number or 'all'"))
                continue
            for t, n in v.items():
                if t not in ctx.ship_types:
                    out.append((f".ships.{t}", "is not a ship type of the scenario"))
                elif n != "all":
                    out += _count(f"ships.{t}", n)
        else:
            out.append((f".{k}", "unknown key; expected formation, artillery, tank, ships, once or returns (31.0)"))
    return out


#: name -> (dice the phase rolls, how it reads them, what a result may be)
TABLES: dict[str, tuple[int, str, Check]] = {
    "weather": (2, "sum", _words("none", "bad_both", "bad_trondheim", "bad_narvik", "thaw")),  # 7.0
    "event-type": (1, "sum", _words("allied_secret", "open", "german_secret")),  # 8.0
    "allied-secret": (1, "sum", _words("none", "evacuation_next_turn")),  # 8.1
    "german-secret": (1, "sum", _words("none", "fuhrer_orders")),  # 8.2
    "random-events": (2, "first_second", _words("none", "german_reinforcements", "allied_redeployment", "both",
                                               pattern=r"game_end_[a-z_]+")),  # 8.3, 24.0
    "german-reinforcements": (1, "sum", _reinforcements),  # 30.0
    "british-redeployments": (1, "sum", _redeployment),  # 31.0
}


def die_tables(lib: Library, ship_types: set[str], formations: set[str]) -> dict[str, DieTable]:
    """Load every die table of the game; refuse results and dice the phases cannot use."""
    ctx = _Ctx(ship_types, formations)
    problems: list[Problem] = []
    out: dict[str, DieTable] = {}
    for name, (dice, read, check) in TABLES.items():
        file = _rel(lib.path("tables", f"narvik/{name}"))
        spec = lib.load("tables", f"narvik/{name}", "die_table")
        if spec.dice != f"{dice}D6" or spec.read != read:
            problems.append(Problem(file, "dice", f"the game rolls {dice}D6 read as {read} here, not {spec.dice} read as {spec.read}"))
            continue
        for i, e in enumerate(spec.entries):
            problems += [Problem(file, f"entries[{i}].result{k}", msg) for k, msg in check(e.result, ctx)]
        out[name] = DieTable.from_spec(spec)
    if problems:
        raise DataError(problems)
    return out


def check_sides(lib: Library, sides: list[str]) -> None:
    """The victory charts name sides of the scenario (29.0, 25.1): a VP award to no side would
    be counted for nobody, without a word."""
    problems: list[Problem] = []
    vp_file, lv_file = _rel(lib.path("tables", "narvik/victory-points")), _rel(lib.path("tables", "narvik/victory-levels"))
    vp = lib.load("tables", "narvik/victory-points", "victory_points")
    for key, award in vp.awards.items():
        if award.to not in sides:
            problems.append(Problem(vp_file, f"awards.{key}.to", f"{award.to!r} is not a side ({', '.join(sides)})"))
    lv = lib.load("tables", "narvik/victory-levels", "victory_levels")
    for key in ("plus", "minus"):
        if getattr(lv, key) not in sides:
            problems.append(Problem(lv_file, key, f"{getattr(lv, key)!r} is not a side ({', '.join(sides)})"))
    if problems:
        raise DataError(problems)
