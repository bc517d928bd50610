"""A sweep over a board's conversion (issue 72): the same scenario on hexes at each value of a
parameter (hex steps an area step becomes, or the hex size), with each pairing of bots, drawn
against the baseline board's result, and the report that says where they meet and where
they part.

A point of the sweep is an ordinary batch (``simulate``): game *i* of a setup is the same
game in every report of the batch seed, so the sweep's rows share the presets' folder, and
a point the boards report plays too is played once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

from hexwar.board.conversion import variant, variant_name
from hexwar.core.files import check_group, claim, write_text
from hexwar.sim import html
from hexwar.sim.report import LATE, REPORT, opening, with_bots
from hexwar.sim.runner import simulate
from hexwar.sim.setups import Setup, build_game, parse_setup
from hexwar.sim.stats import two_proportions, wilson

PARAMS = {"step": ("area_step", "hex steps an area step becomes (a round's move)", "an area step of {} hexes"),
          "km": ("hex_km", "km a hex", "hexes of {} km")}
FIGURE = "sweep.png"


@dataclass(frozen=True)
class Point:
    """One batch of the sweep: a pairing of bots at one value (None: the baseline)."""

    bots: str
    value: float | None
    setup: Setup
    games: int


def point_setup(swept: str, over: str, value: float) -> str:
    """The swept setup's text with its board's parameter set to ``value``.

    >>> point_setup("game/scenario@cut-hex:priority", "step", 3)
    'game/scenario@cut-hex-step3:priority'
    >>> point_setup("game@cut-hex-km20:search:8", "step", 2)
    'game@cut-hex-km20-step2:search:8'
    """
    head, _, bots = swept.partition(":")
    rest, _, board = head.partition("@")
    base, over_now = variant(board)
    km = over_now.get("hex_km")
    step = over_now.get("area_step")
    if over == "step":
        step = value
    else:
        km = value
    name = variant_name(base, km, int(step) if step is not None else None)
    return f"{rest}@{name}" + (f":{bots}" if bots else "")


def points(baseline: str, swept: str, over: str, values: Sequence[float],
           pairings: Sequence[tuple[str, int]]) -> list[Point]:
    """Every batch of a sweep: for each pairing (bots, games), the baseline, then each value."""
    out = []
    for bots, n in pairings:
        out.append(Point(bots, None, parse_setup(with_bots(baseline, bots)), n))
        for v in values:
            out.append(Point(bots, v, parse_setup(with_bots(point_setup(swept, over, v), bots)), n))
    return out


def _first_when(label: str, rows: list[dict[str, Any]]) -> tuple[str, int]:
    """The first "when" metric the game declares (the fall of a place), with the games in
    which it happened (``hexwar.core.metrics``)."""
    from hexwar.core.metrics import When
    from hexwar.sim.report import metrics_of
    from hexwar.sim.runner import summary

    ms = metrics_of({label: rows})
    whens = [m for m in ms if isinstance(m, When)]
    if not whens or not rows:
        return "", 0
    w = whens[0]
    return w.label, round(summary(rows, ms)[w.key] * len(rows))


def run(baseline: str, swept: str, over: str, values: Sequence[float], pairings: Sequence[tuple[str, int]],
        seed: int, out: Path, title: str, intro: str = "", workers: int | None = None,
        progress: Callable[[str, int, int], None] | None = None, rows: Path | None = None,
        force: bool = False) -> Path:
    """Play every point of the sweep and write ``out/report.md`` with its figure."""
    if over not in PARAMS:
        raise ValueError(f"a sweep is over {' or '.join(PARAMS)}, not {over!r}")
    pts = points(baseline, swept, over, values, pairings)
    out.mkdir(parents=True, exist_ok=True)
    how = check_group(out / "report.md", [out / FIGURE, out / "report.html", out / "summary.json"], REPORT, force)
    claim(out / "report.md", REPORT, how, f"# {title}\n\nBeing written by hexwar compare: run the same command again to finish it.\n")
    cache = out / "rows" if rows is None else rows
    cache.mkdir(parents=True, exist_ok=True)
    played: dict[Point, list[dict[str, Any]]] = {}
    for p in pts:
        cb = (lambda d, t, _l=p.setup.label: progress(_l, d, t)) if progress else None
        played[p] = simulate(p.setup, p.games, seed, cache / f"{p.setup.slug}-seed{seed}.csv", workers, None, cb, stale="replace")
    table = _table(played)
    first = [p.setup for p in pts if p.bots == pts[0].bots]
    opened = opening(first)
    late_boards = {hit.group(1) for x in opened if (hit := LATE.match(x))}
    late = sorted(p.value for p in pts if p.value is not None and p.setup.board in late_boards)
    conv = build_game(parse_setup(swept)).board.conversion
    default = None if conv is None else (conv.area_step if over == "step" else conv.hex_km)
    _figure(table, over, out / FIGURE, default, late)
    text = _markdown(table, over, seed, title, intro, opened, default)
    path = out / "report.md"
    write_text(path, text, REPORT, checked="replace" if how == "new" else how)
    html.write(path, title)
    write_text(out / "summary.json", json.dumps(table, indent=2, sort_keys=True) + "\n")
    return path


def _table(played: dict[Point, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    out = []
    for p, rows in played.items():
        n = len(rows)
        k = sum(int(r["allied_win"]) for r in rows)
        what, f = _first_when(p.setup.label, rows)
        out.append({"when": what, "bots": p.bots, "value": p.value, "setup": p.setup.label, "board": p.setup.board, "games": n,
                    "allied_wins": k, "allied_rate": k / n, "allied_95ci": list(wilson(k, n)),
                    "when_n": f, "falls_rate": f / n, "falls_95ci": list(wilson(f, n)),
                    "length": sum(float(r["end_turn"]) for r in rows) / n})
    return out


def _figure(table: list[dict[str, Any]], over: str, path: Path, default: float | None = None,
            late: Sequence[float] = ()) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharex=True)
    colours = ["#1f5fa8", "#c0392b", "#2e8b57", "#8e44ad"]
    pairings = list(dict.fromkeys(r["bots"] for r in table))
    when = next((r["when"] for r in table if r["when"]), "") or "the game's first event"
    for ax, key, label in ((axes[0], "allied", "Allied win rate"), (axes[1], "falls", when)):
        for i, bots in enumerate(pairings):
            c = colours[i % len(colours)]
            pts = sorted((r for r in table if r["bots"] == bots and r["value"] is not None), key=lambda r: r["value"])
            xs = [r["value"] for r in pts]
            ys = [r[f"{key}_rate"] for r in pts]
            lo = [max(0.0, r[f"{key}_rate"] - r[f"{key}_95ci"][0]) for r in pts]
            hi = [max(0.0, r[f"{key}_95ci"][1] - r[f"{key}_rate"]) for r in pts]
            ax.errorbar(xs, ys, yerr=[lo, hi], color=c, marker="o", capsize=3, label=f"hexes, {bots} bots")
            base = next(r for r in table if r["bots"] == bots and r["value"] is None)
            ax.axhline(base[f"{key}_rate"], color=c, linestyle="--", linewidth=1.2,
                       label=f"{base['board']} (area map), {bots} bots")
            ax.axhspan(base[f"{key}_95ci"][0], base[f"{key}_95ci"][1], color=c, alpha=0.08)
        if default is not None:
            ax.axvline(default, color="#555555", linestyle=":", linewidth=1.2, label=f"the default ({default:g}, derived)")
        for j, x in enumerate(late):
            ax.axvspan(x - 0.25, x + 0.25, color="#999999", alpha=0.25,
                       label="a force cannot arrive in time (reach)" if j == 0 else None)
        ax.set_xticks(sorted({r["value"] for r in table if r["value"] is not None}))
        ax.set_xlabel(PARAMS[over][1])
        ax.set_ylabel(label)
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=7.5, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def meets(table: list[dict[str, Any]], key: str = "allied") -> dict[str, tuple[list[float], list[float]]]:
    """Per pairing, the values where the hexes' rate is not told apart from the baseline's
    (two proportions, 5%, each value on its own) and the values where it is."""
    out: dict[str, tuple[list[float], list[float]]] = {}
    for bots in dict.fromkeys(r["bots"] for r in table):
        base = next(r for r in table if r["bots"] == bots and r["value"] is None)
        same: list[float] = []
        apart: list[float] = []
        for r in sorted((r for r in table if r["bots"] == bots and r["value"] is not None), key=lambda r: r["value"]):
            kb, nb = (base["allied_wins"], base["games"]) if key == "allied" else (base["when_n"], base["games"])
            k, n = (r["allied_wins"], r["games"]) if key == "allied" else (r["when_n"], r["games"])
            (same if two_proportions(k, n, kb, nb) >= 0.05 else apart).append(r["value"])
        out[bots] = (same, apart)
    return out


def _said(said: str, xs: list[float]) -> str:
    """A parameter's words at some values (an area step of 1 hex; of 2, 3 hexes)."""
    text = said.format(_values(xs))
    return text.replace("1 hexes", "1 hex") if xs == [1] else text


def _values(xs: list[float]) -> str:
    return ", ".join(f"{x:g}" for x in xs) or "none"


def _markdown(table: list[dict[str, Any]], over: str, seed: int, title: str, intro: str, opened: list[str],
              default: float | None) -> str:
    lines = [f"# {title}", "", "<!-- GENERATED by `hexwar compare` (make reports): do not edit by hand. -->", ""]
    if intro:
        lines += [intro, ""]
    lines += opened
    lines += ["## In short", ""]
    if default is not None:
        lines.append(f"- The conversion's default is {PARAMS[over][2].format(f'{default:g}')} (the dotted line).")
    when = next((r["when"] for r in table if r["when"]), "")
    for what, key in (("Allied win rate", "allied"), (when, "falls")):
        if not what:
            continue
        for bots, (same, apart) in meets(table, key).items():
            said = PARAMS[over][2]
            meet = f"with {_said(said, same)}" if same else "at no value swept"
            part = f"with {_said(said, apart)}" if apart else "at no value swept"
            lines.append(f"- {what}, {bots} bots: the hexes meet the area map {meet}, and part from it {part}.")
    lines += ["- They meet where the two rates are not told apart (two proportions at 5%, each value tested against "
              "the baseline on its own).", "", f"![the sweep]({FIGURE})", "",
              f"Batch seed {seed}; game *i* of a setup has seed `game_seed({seed}, i)`. A point is an ordinary batch "
              f"(`hexwar simulate SETUP`).", "",
              f"| bots | {over} | board | games | Allied wins (95% CI) | {when or '-'} (95% CI) | length |",
              "|---|---|---|---|---|---|---|"]
    for r in table:
        v = "area map" if r["value"] is None else f"{r['value']:g}"
        lines.append(f"| {r['bots']} | {v} | {r['board']} | {r['games']} | {r['allied_rate']:.3f} "
                     f"({r['allied_95ci'][0]:.3f}-{r['allied_95ci'][1]:.3f}) | {r['falls_rate']:.3f} "
                     f"({r['falls_95ci'][0]:.3f}-{r['falls_95ci'][1]:.3f}) | {r['length']:.2f} |")
    return "\n".join(lines) + "\n"
