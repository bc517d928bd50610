"""Combat results tables: the differential CRT (Assault on Narvik 15.1) and the odds CRT (Europa, E1).

Both read one die plus modifiers; a modified roll off the table uses its first or last
row, and a column shifted or computed past either edge uses the edge column. The
``*_outcomes`` functions give the exact distribution as Fractions (for tests, the odds
tool and reports); the ``resolve_*`` functions roll through :class:`~hexwar.core.dice.Dice`
and return a ledger of how the result was reached.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from hexwar.rules.cites import CombatCites
from hexwar.rules.ledger import Ledger, Line

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.core.dice import Dice
    from hexwar.data.tables import DifferentialCrt, OddsCrt

SIXTH = Fraction(1, 6)


def _row(die: int, drm: int) -> int:
    # table edges: a modified roll below 1 reads row 1, above 6 reads row 6
    return min(6, max(1, die + drm))


def _distribution(results: Sequence[Any], drm: int) -> list[tuple[Any, Fraction]]:
    """Return the exact distribution of one column's results under one die plus ``drm``."""
    dist: dict[Any, Fraction] = defaultdict(Fraction)
    for die in range(1, 7):
        dist[results[_row(die, drm) - 1]] += SIXTH
    return sorted(dist.items())


# --- differential CRT -------------------------------------------------------------------


def diff_column_index(crt: "DifferentialCrt", ad: int, shift: int = 0) -> int:
    """Return the column index for an attack differential, shifted and clamped to the table.

    >>> from hexwar.data.tables import DifferentialCrt
    >>> from hexwar.data.loader import default_library
    >>> crt = DifferentialCrt.from_spec(default_library().load("tables", "fixtures/crt"))
    >>> [crt.columns[diff_column_index(crt, ad)].label for ad in (-9, 0, 2, 4, 99)]
    ['<=-3', '-2..0', '1..2', '3..5', '>=6']
    """
    i = 0
    for i, c in enumerate(crt.columns):
        if (c.lo is None or ad >= c.lo) and (c.hi is None or ad <= c.hi):
            break
    return min(len(crt.columns) - 1, max(0, i + shift))


def diff_outcomes(crt: "DifferentialCrt", ad: int, drm: int = 0, shift: int = 0) -> list[tuple[tuple[int, int], Fraction]]:
    """Return the exact distribution of (attacker, defender) results for one column and DRM.

    >>> from hexwar.data.tables import DifferentialCrt
    >>> from hexwar.data.loader import default_library
    >>> crt = DifferentialCrt.from_spec(default_library().load("tables", "fixtures/crt"))
    >>> diff_outcomes(crt, 6, drm=+3)   # rows 4, 5, 6, 6, 6, 6
    [((0, 3), Fraction(1, 3)), ((0, 4), Fraction(2, 3))]
    """
    return _distribution(crt.columns[diff_column_index(crt, ad, shift)].results, drm)


@dataclass(frozen=True)
class DiffResolution:
    """A resolved assault on the differential CRT."""

    attacker: int
    defender: int
    die: int
    row: int
    column: str
    ledger: Ledger


def resolve_differential(
    crt: "DifferentialCrt",
    attack: Sequence[Line],
    defence: Sequence[Line],
    drms: Sequence[Line],
    dice: "Dice",
    cites: CombatCites,
    shift: int = 0,
) -> DiffResolution:
    """Resolve an assault: strengths (lines summed), AD, column, one die + DRMs, result (15.1).

    Each input is a list of ledger lines whose ``value`` is an int; the lines show up in
    the returned ledger so a player can check every figure, with the game's sections
    (``cites``).
    """
    led = Ledger(f"land assault ({cites.crt})")
    att = _sum(led, "attack", attack)
    dfn = _sum(led, "defence", defence)
    ad = att - dfn
    led.add("attack differential (AD)", ad, cites.crt)
    ci = diff_column_index(crt, ad, shift)
    col = crt.columns[ci]
    if shift:
        led.add("column shift", shift)
    led.add(f"CRT column ({crt.name})", col.label, cites.crt)
    drm = _sum(led, "DRM", drms) if drms else 0
    roll = dice.roll(1, "CRT")
    die = roll.faces[0]
    row = _row(die, drm)
    led.add("die", die, cites.crt)
    if row != die + drm:
        led.add(f"modified roll {die + drm} read as row {row} (table edge)", row)
    a, d = col.results[row - 1]
    led.add(f"exact odds in this column with DRM {drm:+d}", _odds_text(diff_outcomes(crt, ad, drm, shift)))
    led.total = f"{a}/{d}"
    return DiffResolution(a, d, die, row, col.label, led)


def _sum(led: Ledger, what: str, lines: Iterable[Line]) -> int:
    total = 0
    for ln in lines:
        led.lines.append(Line(f"{what}: {ln.text}", ln.value, ln.rule))
        total += int(ln.value or 0)
    led.add(f"{what} total", total)
    return total


def _odds_text(dist: Sequence[tuple[object, Fraction]]) -> str:
    def name(r: object) -> str:
        return f"{r[0]}/{r[1]}" if isinstance(r, tuple) else str(r)

    return ", ".join(f"{name(r)} {p}" for r, p in dist)


def column_table(crt: "DifferentialCrt", drm: int = 0) -> list[dict[str, object]]:
    """Return, per column, the exact chance of each side's loss (for the provenance doc)."""
    rows: list[dict[str, object]] = []
    for c in crt.columns:
        ad = c.lo if c.lo is not None else c.hi
        assert ad is not None
        dist = diff_outcomes(crt, ad, drm)
        exp_a = sum(p * a for (a, _), p in dist)
        exp_d = sum(p * d for (_, d), p in dist)
        rows.append({
            "column": c.label,
            "attacker_hit": sum(p for (a, _), p in dist if a >= 1),
            "defender_hit": sum(p for (_, d), p in dist if d >= 1),
            "defender_2plus": sum(p for (_, d), p in dist if d >= 2),
            "expected_attacker": exp_a,
            "expected_defender": exp_d,
        })
    return rows


def column_table_markdown(crt: "DifferentialCrt", drm: int = 0) -> str:
    """Return :func:`column_table` as a Markdown table with exact fractions."""
    lines = [
        "| column | attacker loses >= 1 | defender loses >= 1 | defender loses >= 2 | expected points attacker / defender |",
        "|---|---|---|---|---|",
    ]
    for r in column_table(crt, drm):
        lines.append(f"| {r['column']} | {r['attacker_hit']} | {r['defender_hit']} | {r['defender_2plus']} | "
                     f"{r['expected_attacker']} / {r['expected_defender']} |")
    return "\n".join(lines)


# --- odds CRT ---------------------------------------------------------------------------


def odds_column_index(crt: "OddsCrt", attack: int | Fraction, defence: int | Fraction, shift: int = 0) -> int:
    """Return the odds column: the best ratio the attack reaches, rounded for the defender.

    Ratios below the first column use the first; a defence of 0 uses the last.

    >>> from hexwar.data.tables import OddsCrt
    >>> from hexwar.data.loader import default_library
    >>> crt = OddsCrt.from_spec(default_library().load("tables", "fixtures/crt-odds"))
    >>> [crt.columns[odds_column_index(crt, a, d)].label for a, d in ((5, 2), (11, 4), (1, 5), (9, 0))]
    ['2:1', '2:1', '1:2', '6:1']
    """
    if defence <= 0:
        i = len(crt.columns) - 1
    else:
        i = 0
        for j, c in enumerate(crt.columns):
            if attack * c.defence >= defence * c.attack:
                i = j
    return min(len(crt.columns) - 1, max(0, i + shift))


def odds_outcomes(crt: "OddsCrt", attack: int | Fraction, defence: int | Fraction, drm: int = 0, shift: int = 0) -> list[tuple[str, Fraction]]:
    """Return the exact distribution of named results for one combat."""
    return _distribution(crt.columns[odds_column_index(crt, attack, defence, shift)].results, drm)


def odds_table_markdown(crt: "OddsCrt", drm: int = 0) -> str:
    """Return, per odds column, the exact chance of every named result, as a Markdown table
    with exact fractions (for the provenance doc)."""
    codes = list(crt.codes)
    lines = ["| column | " + " | ".join(codes) + " |", "|---|" + "---|" * len(codes)]
    for c in crt.columns:
        dist = dict(odds_outcomes(crt, c.attack, c.defence, drm))
        lines.append(f"| {c.label} | " + " | ".join(str(dist.get(r, 0)) for r in codes) + " |")
    return "\n".join(lines)


@dataclass(frozen=True)
class OddsResolution:
    result: str
    die: int
    row: int
    column: str
    ledger: Ledger


def resolve_odds(
    crt: "OddsCrt", attack: Sequence[Line], defence: Sequence[Line], drms: Sequence[Line], dice: "Dice", shift: int = 0
) -> OddsResolution:
    """Resolve a combat on the odds CRT and explain it."""
    led = Ledger("combat (odds CRT)")
    att = _sum(led, "attack", attack)
    dfn = _sum(led, "defence", defence)
    ci = odds_column_index(crt, att, dfn, shift)
    col = crt.columns[ci]
    led.add(f"odds {att}:{dfn} rounded for the defender", col.label)
    if shift:
        led.add("column shift", shift)
    drm = _sum(led, "DRM", drms) if drms else 0
    die = dice.roll(1, "CRT").faces[0]
    row = _row(die, drm)
    led.add("die", die)
    res = col.results[row - 1]
    led.add("exact odds in this column", _odds_text(odds_outcomes(crt, att, dfn, drm, shift)))
    led.total = f"{res} ({crt.codes[res]})"
    return OddsResolution(res, die, row, col.label, led)
