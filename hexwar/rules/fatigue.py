"""Fatigue (Assault on Narvik 10.0, 10.1, 15.1 AFL, 21.0 recovery).

Only infantry takes fatigue points (FP); tanks and artillery never do (16.1, 16.2). FP stay
within 0..FL: a unit may act past its limit but stops at it (10.1), and extra non-CRT FP on
a unit at its limit have no effect. Every change is logged per unit with its cause and
section, so a player can check each figure against the rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Protocol

from hexwar.rules.ledger import Ledger

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.core.state import UnitState, Unit
    from hexwar.scenario import Tables

@dataclass(frozen=True)
class FatigueRecord:
    """One change of a unit's fatigue points, with its cause and rule (10.0)."""

    turn: int
    unit: str
    cause: str
    fp: int
    applied: int
    after: int
    rule: str


class FatigueState(Protocol):
    """What the fatigue rules need of a game's state: its units, the turn, and the log of
    every fatigue change (a game using these rules keeps ``fatigue_log: list[FatigueRecord]``)."""

    turn: int
    units: dict[str, "Unit"]
    fatigue_log: list[FatigueRecord]


@dataclass(frozen=True)
class FatigueChange:
    """One applied fatigue change."""

    unit: str
    cause: str
    asked: int
    applied: int
    before: int
    after: int
    rule: str


def takes_fatigue(tables: "Tables", unit: "Unit") -> bool:
    """Return whether a unit takes FP at all (10.0: infantry only)."""
    return tables.types[unit.type].infantry


def fatigue_limit(tables: "Tables", unit: "Unit") -> int:
    """Return the unit's printed fatigue limit (FL)."""
    return tables.types[unit.type].fatigue_limit


def at_limit(tables: "Tables", unit: "Unit") -> bool:
    """Return whether an infantry unit is at its fatigue limit (10.1): ``takes_fatigue`` and
    fatigue at ``fatigue_limit``, read from the unit's type once (asked of every unit at
    every decision)."""
    t = tables.types[unit.type]
    return t.infantry and unit.fatigue >= t.fatigue_limit


def add_fatigue(
    state: FatigueState, tables: "Tables", uid: str, cause: str, fp: int | None = None, times: int = 1,
    rule: str | None = None,
) -> FatigueChange:
    """Add FP to a unit for a cause on the fatigue table (or an explicit ``fp``), clamped to 0..FL.

    ``times`` multiplies the table value (e.g. 2 FP per strength point, 16.1.1).

    >>> from hexwar.games.skirmish import SkirmishGame
    >>> g = SkirmishGame.from_scenario("fixtures/skirmish"); st = g.new_state(1).data
    >>> add_fatigue(st, g.tables, "1SG", "crt_point", times=3).after   # 18 FP, FL 12 (10.1)
    12
    """
    u = state.units[uid]
    assert tables.fatigue is not None, "this ruleset has no fatigue table"
    section = rule or tables.fatigue.rule(cause)  # the table says which rule each cause is
    if fp is None:
        fp = tables.fatigue.fp(cause)
    asked = fp * times
    before = u.fatigue
    if not takes_fatigue(tables, u):
        after = before
    else:
        fl = fatigue_limit(tables, u)
        after = max(0, min(fl, before + asked))
    u.fatigue = after
    change = FatigueChange(uid, cause, asked, after - before, before, after, section)
    state.fatigue_log.append(FatigueRecord(state.turn, uid, cause, asked, after - before, after, section))
    return change


def average_fatigue_level(state: "UnitState", tables: "Tables", uids: Iterable[str], rule: str) -> tuple[int, Ledger]:
    """Return the AFL of participating units: sum of infantry FP / their count, rounded down
    (15.1); every line of its ledger cites ``rule``, the game's section for the AFL.

    No infantry gives 0.

    >>> from hexwar.games.skirmish import SkirmishGame
    >>> g = SkirmishGame.from_scenario("fixtures/skirmish"); st = g.new_state(1).data
    >>> st.units["1SG"].fatigue, st.units["1IG"].fatigue = 5, 2
    >>> average_fatigue_level(st, g.tables, ["1SG", "1IG", "RA1"], g.cites.assault.afl)[0]   # (5 + 2) / 2 = 3.5 -> 3
    3
    """
    led = Ledger("average fatigue level (AFL)")
    inf = []
    for uid in uids:
        u = state.units[uid]
        if takes_fatigue(tables, u):
            inf.append(u)
            led.add(f"{uid} FP", u.fatigue, rule)
        else:
            led.add(f"{uid}: not infantry, not counted", None, rule)
    if not inf:
        led.add("no infantry participates", 0, rule)
        led.total = 0
        return 0, led
    total = sum(u.fatigue for u in inf)
    afl = total // len(inf)
    led.add(f"{total} / {len(inf)} rounded down", afl, rule)
    led.total = afl
    return afl, led


def end_of_turn_recovery(state: FatigueState, tables: "Tables") -> list[FatigueChange]:
    """Remove FP at the end of the turn: 4 from units at their limit, 8 from the others (21.0)."""
    assert tables.fatigue is not None, "this ruleset has no fatigue table"
    out = []
    at, other = tables.fatigue.recovery_at_limit[0], tables.fatigue.recovery_other[0]
    for u in sorted(state.units.values(), key=lambda u: u.id):
        if not takes_fatigue(tables, u) or u.fatigue == 0:
            continue
        fp = -(at if at_limit(tables, u) else other)
        out.append(add_fatigue(state, tables, u.id, "recovery", fp=fp))
    return out


def explain_fatigue(state: FatigueState, tables: "Tables", uid: str, turn: int | None = None) -> Ledger:
    """Return a unit's fatigue ledger: every logged change with its cause and section."""
    u = state.units[uid]
    led = Ledger(f"fatigue of {uid} (FL {fatigue_limit(tables, u)})")
    for e in state.fatigue_log:
        if e.unit == uid and (turn is None or e.turn == turn):
            note = "" if e.applied == e.fp else f" (applied {e.applied:+d}: clamped to 0..FL)"
            led.add(f"turn {e.turn} {e.cause}{note}", f"{e.fp:+d}", e.rule)
    hand = set_by_hand(state, uid)
    if hand and turn is None:
        led.add("set by hand (a position file or the analysis board), not by the rules", f"{hand:+d}", "")
    led.total = u.fatigue
    return led


def set_fatigue(state: FatigueState, uid: str, fp: int, cause: str, rule: str) -> None:
    """Set a unit's FP to ``fp`` for a cause that is no fatigue table's (a scenario's set-up,
    a unit arriving fresh), logged like every other change, so that the log always accounts
    for the FP the rules gave (``set_by_hand``)."""
    u = state.units[uid]
    before = u.fatigue
    u.fatigue = fp
    if fp != before:
        state.fatigue_log.append(FatigueRecord(state.turn, uid, cause, fp - before, fp - before, fp, rule))


def set_by_hand(state: FatigueState, uid: str) -> int:
    """The FP of a unit that its fatigue log does not account for: set by a person (a position
    file edited, the analysis board), not by the rules: its FP less what the log's last
    change left (0 with no change logged)."""
    last = next((e.after for e in reversed(state.fatigue_log) if e.unit == uid), 0)
    return state.units[uid].fatigue - last


def fatigue_log(state: FatigueState) -> list[FatigueRecord]:
    """Return the fatigue log: every change, with its cause and rule."""
    return list(state.fatigue_log)
