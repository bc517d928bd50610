"""Comparison reports: the same rules on different boards, or the same fight in two games.

``compare`` runs (or resumes) one batch per setup, then writes ``report.md`` (and the same as
one self-contained page, ``report.html``) with figures
(matplotlib PNG) of the metrics the games declare (``hexwar.core.metrics``): their headline
rate with 95% intervals, game length, when things first happened, the figures per game;
which differences are significant (two-sided tests, Holm-corrected over the report); and
the exact odds of the combats the games fought next to the simulator's sampled figures.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence, cast

from hexwar.core.files import Job, check_group, claim, write_text
from hexwar.core.metrics import Mean, Metric, Rate, When, headline, shared, values
from hexwar.sim import drivers, html, robust
from hexwar.sim.runner import simulate, summary
from hexwar.sim.setups import Setup, build_game, parse_setup
from hexwar.sim.stats import holm, two_proportions, welch


@dataclass(frozen=True)
class Preset:
    title: str
    setups: tuple[str, ...]
    games: tuple[int, ...]
    out: str
    intro: str
    #: more bot pairings: (bots, games per setup), each played for every setup (issue 58)
    pairings: tuple[tuple[str, int], ...] = ()
    #: a sweep (issue 72): (parameter, values); the first setup is the baseline, the second swept
    sweep: tuple[str, tuple[float, ...]] | None = None

    def arms(self) -> tuple[list[str], list[int]]:
        """Every setup with its own bots, then with each other pairing's, and games each."""
        specs, counts = list(self.setups), list(self.games)
        for bots, n in self.pairings:
            specs += [with_bots(x, bots) for x in self.setups]
            counts += [n] * len(self.setups)
        return specs, counts


def with_bots(setup: str, bots: str) -> str:
    """A setup's text with its bots replaced (``kampen@norway:priority`` -> ``...:search:8``)."""
    return f"{setup.partition(':')[0]}:{bots}"


def presets() -> dict[str, Preset]:
    """The comparisons hexwar ships, read from the data root (``tables/compare-presets.yaml``)."""
    from hexwar.data.loader import default_library

    spec = default_library().load("tables", "compare-presets", "compare_presets")
    return {k: Preset(p.title, tuple(p.setups), tuple(p.games), p.out, p.intro, tuple((q.bots, q.games) for q in p.pairings),
                      (p.sweep.over, tuple(p.sweep.values)) if p.sweep is not None else None)
            for k, p in spec.presets.items()}


def preset_folder(preset: Preset, root: Path | None = None, cwd: Path | None = None) -> Path:
    """Where a preset writes its report: into the checkout's ``docs/`` when hexwar runs from a
    checkout (what ``make reports`` regenerates), and into the current folder's ``docs/`` when
    it runs from an installed wheel, whose bundled data are no place for a report."""
    from hexwar.data.loader import data_root

    root = data_root() if root is None else root
    if root.resolve() == (Path(__file__).resolve().parents[1] / "_bundled").resolve():
        return (Path.cwd() if cwd is None else cwd) / preset.out
    return root / preset.out


def require_matplotlib() -> None:
    """Refuse, in one line, to draw a report without the optional ``report`` extra."""
    import importlib.util

    from hexwar.sim.runner import BatchError

    if importlib.util.find_spec("matplotlib") is None:
        raise BatchError("compare draws its figures with matplotlib: pip install 'hexwar[report]'")


#: what writes a report: it replaces only a report it wrote, unchanged since (issue 70)
REPORT = Job("compare report")
#: the figures a report may draw besides one for each "when" metric (``_when_figure``)
FIGURES = ("win-rates.png", "game-length.png", "per-game.png", "combats-map.png", "move-lengths.png",
           "changed-hands.png", "losses-by-cause.png")


def _when_figure(m: Metric) -> str:
    return f"{m.key.replace('_', '-')}.png"


def may_write(setups: Sequence[Setup], out: Path, force: bool = False) -> str:
    """Check, before any game is played, that a report may be written in ``out``: its
    ``report.md`` is new or one hexwar compare wrote and nobody changed, and no other file
    the report writes (its page, summary and figures) is in the way otherwise
    (:class:`~hexwar.core.files.Refused` in one line; ``force``: replace them anyway).
    Returns how ``report.md`` is written (``hexwar.core.files.check``)."""
    whens = [m for m in metrics_of({s.label: [] for s in setups}) if isinstance(m, When)]
    names = [*FIGURES, *(_when_figure(m) for m in whens), "report.html", "summary.json"]
    return check_group(out / "report.md", [out / n for n in names], REPORT, force)


def compare(setups: Sequence[Setup], games: Sequence[int], seed: int, out: Path, title: str, intro: str = "",
            workers: int | None = None, scheduler: str | None = None,
            progress: Callable[[str, int, int], None] | None = None, rows: Path | None = None,
            force: bool = False) -> Path:
    """Run the batches and write ``out/report.md`` with its figures; return the report path.

    ``rows``: the folder of the rows cached for each setup and seed (default ``out/rows``). A
    setup's game *i* is the same game in every report of the same batch seed, so reports
    that share the folder (the presets: ``docs/rows/``) play each such game once: Kampen's
    S1 and Assault on Narvik's scenario in two reports each, the Europa campaign in two.

    Nothing is played or written when the folder holds files the report would replace and
    did not write (:func:`may_write`; ``force`` replaces them); a new report's ``report.md``
    is claimed first, so a run cut short leaves a folder the next run finishes."""
    out.mkdir(parents=True, exist_ok=True)
    how = may_write(setups, out, force)
    claim(out / "report.md", REPORT, how, f"# {title}\n\nBeing written by hexwar compare: run the same command again "
                                          "to finish it.\n")
    cache = out / "rows" if rows is None else rows
    cache.mkdir(parents=True, exist_ok=True)
    batches: dict[str, list[dict[str, Any]]] = {}
    for s, n in zip(setups, games):
        cb = (lambda d, t, _l=s.label: progress(_l, d, t)) if progress else None
        batches[s.label] = simulate(s, n, seed, cache / f"{s.slug}-seed{seed}.csv", workers, scheduler, cb, stale="replace")
    figs = _figures(batches, out)
    text = _markdown(setups, batches, seed, title, intro, figs, Path(os.path.relpath(cache, out)).as_posix())
    path = out / "report.md"
    write_text(path, text, REPORT, checked="replace" if how == "new" else how)  # claimed above
    html.write(path, title)  # report.html beside it: one page, its figures inline
    write_text(out / "summary.json", json.dumps(_summaries(batches), indent=2, sort_keys=True) + "\n")
    return path


# --- numbers ------------------------------------------------------------------------------


def metrics_of(batches: Mapping[str, list[dict[str, Any]]]) -> list[Metric]:
    """The metrics every game of the report declares, in the first game's order."""
    from hexwar.registry import get

    declared = []
    for label in batches:
        declared.append(list(get(parse_setup(label).game).batches.metrics))
    return shared(declared)


def _summaries(batches: Mapping[str, list[dict[str, Any]]]) -> dict[str, Any]:
    ms = metrics_of(batches)
    return {label: summary(rows, ms) for label, rows in batches.items()}


def _tests(batches: Mapping[str, list[dict[str, Any]]]) -> list[tuple[str, str, Metric | None, float]]:
    """Pairwise tests: (a, b, the metric or None for the game length, p-value): the rates and
    first times, then the length, then the means."""
    ms = metrics_of(batches)
    out: list[tuple[str, str, Metric | None, float]] = []
    for a, b in _pairs(list(batches)):
        ra, rb = batches[a], batches[b]
        for m in ms:
            if isinstance(m, Rate) and m.test:
                ka, kb = sum(map(bool, values(m, ra))), sum(map(bool, values(m, rb)))
                out.append((a, b, m, two_proportions(ka, len(ra), kb, len(rb))))
            elif isinstance(m, When) and m.test:
                fa, fb = [t is not None for t in values(m, ra)], [t is not None for t in values(m, rb)]
                out.append((a, b, m, two_proportions(sum(fa), len(fa), sum(fb), len(fb))))
        out.append((a, b, None, welch([int(r["end_turn"]) for r in ra], [int(r["end_turn"]) for r in rb])))
        for m in ms:
            if isinstance(m, Mean) and m.test:
                out.append((a, b, m, welch(values(m, ra), values(m, rb))))
    return out


def _pairs(labels: Sequence[str]) -> list[tuple[str, str]]:
    """The setups a report tests against each other: those with the same bots; in a rule
    switches experiment (the same game, scenario, board and bots, the first setup with no
    switch), each setup against the first only: what each switch changes."""
    setups = [parse_setup(x) for x in labels]
    base = setups[0]
    if not base.switches and all((s.game, s.scenario, s.board, s.bots) == (base.game, base.scenario, base.board, base.bots)
                                 for s in setups):
        return [(labels[0], x) for x in labels[1:]]
    return [(a, b) for a, b in combinations(labels, 2) if robust.pairing(a) == robust.pairing(b)]


def _test_name(m: Metric | None) -> str:
    if m is None:
        return "game length"
    return m.label if isinstance(m, When) else m.test


def exact_vs_sampled(label: str, rows: list[dict[str, Any]], min_n: int = 50) -> list[dict[str, Any]]:
    """Combats the games fought, pooled: the exact chance next to the sampled frequency.

    The game says what it compares (its batch hook ``exact``): Kampen om Norge the chance the
    attacker wins for each (attack dice, defence dice) pair (4.2, by enumeration), Assault
    on Narvik the chance the attacker loses a point for each (AD, DRM) of the CRT (15.1).
    """
    from hexwar.registry import get

    setup = parse_setup(label)
    exact = get(setup.game).batches.exact
    out = []
    for found in exact(build_game(setup), rows, min_n) if exact is not None else []:
        e = cast("dict[str, Any]", found)  # the game's enumeration: hits, n, exact (its JSON)
        out.append(dict(e, sampled=e["hits"] / e["n"], z=_z(e["hits"], e["n"], e["exact"])))
    return sorted(out, key=lambda e: -e["n"])


def _board_lines(setups: Sequence[Setup]) -> list[str]:
    """What each board gives the rules, in the game's own words (its batch hook)."""
    from hexwar.registry import get

    hook = get(setups[0].game).batches.board_lines
    return hook([(s.board, build_game(s)) for s in setups]) if hook else []


def _z(k: int, n: int, p: Fraction) -> float:
    pf = float(p)
    se = (pf * (1 - pf) / n) ** 0.5
    return (k / n - pf) / se if se else 0.0


# --- figures -------------------------------------------------------------------------------


def _figures(batches: Mapping[str, list[dict[str, Any]]], out: Path) -> dict[str, str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = list(batches)
    short = [_short(x) for x in labels]
    figs: dict[str, str] = {}
    s = _summaries(batches)
    ms = metrics_of(batches)

    lead = headline(ms)
    if lead is not None:
        fig, ax = plt.subplots(figsize=(7, 3.2))
        rates = [s[x][f"{lead.key}_rate"] for x in labels]
        lo = [rates[i] - s[x][f"{lead.key}_95ci"][0] for i, x in enumerate(labels)]
        hi = [s[x][f"{lead.key}_95ci"][1] - rates[i] for i, x in enumerate(labels)]
        ax.barh(short, rates, xerr=[lo, hi], color="#b59b5b", capsize=4)
        ax.set_xlim(0, 1)
        ax.set_xlabel(lead.figure, loc="right")  # under the bars' end: centred, a long one ran off the picture
        ax.invert_yaxis()
        fig.tight_layout()
        figs["wins"] = _save(fig, out / "win-rates.png")

    fig, ax = plt.subplots(figsize=(7, 3.2))
    top = max(int(r["end_turn"]) for rows in batches.values() for r in rows)
    bins = [b - 0.5 for b in range(1, top + 2)]
    unit = {x: _units(x) for x in labels}  # what each game's length counts
    mixed = len(set(unit.values())) > 1
    for x, lab in zip(labels, short):
        ax.hist([int(r["end_turn"]) for r in batches[x]], bins=bins, histtype="step", density=True,
                label=f"{lab} ({unit[x]})" if mixed else lab, linewidth=1.6)
    ax.set_xlabel("when the game ended (each game's unit in the legend)" if mixed
                  else f"{unit[labels[0]][:-1]} when the game ended")
    ax.set_ylabel("share of games")
    ax.legend(fontsize=7)
    fig.tight_layout()
    figs["length"] = _save(fig, out / "game-length.png")

    for m in ms:
        if not isinstance(m, When):
            continue
        fig, ax = plt.subplots(figsize=(7, 3.2))
        for i, (x, lab) in enumerate(zip(labels, short)):
            turns = values(m, batches[x])
            n = len(turns)
            cats = sorted({t for t in turns if t is not None})
            shares = [sum(t == c for t in turns) / n for c in cats] + [sum(t is None for t in turns) / n]
            pos = [c + (i - len(labels) / 2) * 0.25 for c in cats] + [top + 1.5 + (i - len(labels) / 2) * 0.25]
            ax.bar(pos, shares, width=0.25, label=f"{lab} ({unit[x]})" if mixed else lab)
        never = f"right: never, at {top + 1.5:g}"
        ax.set_xlabel(f"when {m.figure} (each game's unit in the legend; {never})" if mixed
                      else f"{unit[labels[0]][:-1]} when {m.figure} ({never})")
        ax.set_ylabel("share of games")
        ax.legend(fontsize=7)
        fig.tight_layout()
        figs[m.key] = _save(fig, out / _when_figure(m))

    boxes = [m for m in ms if isinstance(m, Mean) and m.box]
    if boxes:
        fig, axes = plt.subplots(1, len(boxes), figsize=(4 * len(boxes), 3.2), squeeze=False)
        for ax, m in zip(axes[0], boxes):
            ax.boxplot([values(m, batches[x]) for x in labels], tick_labels=[str(i + 1) for i in range(len(labels))])
            ax.set_title(m.box + " per game", fontsize=9)
            ax.set_xlabel("setup (numbered as in the table)")
        fig.tight_layout()
        figs["boxes"] = _save(fig, out / "per-game.png")
    plt.close("all")
    numbered = {x: f"{i}. {_short(x)}" for i, x in enumerate(labels, 1)}
    if drivers.heat_map(batches, numbered, out / "combats-map.png"):
        figs["combats"] = "combats-map.png"
    if drivers.move_plot(batches, numbered, out / "move-lengths.png"):
        figs["moves"] = "move-lengths.png"
    if drivers.hands_plot(batches, numbered, out / "changed-hands.png"):
        figs["hands"] = "changed-hands.png"
    if drivers.losses_plot(batches, numbered, out / "losses-by-cause.png"):
        figs["losses"] = "losses-by-cause.png"
    return figs


def _save(fig: Any, path: Path) -> str:
    return drivers.save_png(fig, path)


def _arm_short(label: str) -> str:
    s = parse_setup(label)
    return f"{s.game} {s.scenario} on {s.board}" + (f" with {' and '.join(s.switches)}" if s.switches else "")


def _short(label: str) -> str:
    """A setup in words: its game, scenario and board, and its bots unless the game's batch bot."""
    from hexwar.registry import get

    s = parse_setup(label)
    return _arm_short(label) + ("" if s.bots == get(s.game).batch_bot else f", {s.bots} bots")


def _units(label: str) -> str:
    """What a setup's game counts its length in, plural: 'turns', 'game rounds'."""
    from hexwar.registry import get

    return get(parse_setup(label).game).length_unit + "s"


def _turns(label: str, n: float, sd: float | None = None) -> str:
    """A setup's game length with what it counts: '1.54 ± 0.70 game rounds', '9.00 turns'."""
    return f"{n:.2f}" + (f" ± {sd:.2f}" if sd is not None else "") + f" {_units(label)}"


# --- text -----------------------------------------------------------------------------------


def _findings(tests: Sequence[tuple[str, str, Metric | None, float]], sig: Sequence[bool],
              s: Mapping[str, Any]) -> list[str]:
    """Each significant difference in a sentence."""
    out = []
    for (a, b, m, _p), ok in zip(tests, sig):
        if ok:
            va, vb = s[a], s[b]
            if isinstance(m, Rate):
                out.append(f"{m.test}: {_short(a)} {va[f'{m.key}_rate']:.3f} against {_short(b)} {vb[f'{m.key}_rate']:.3f}.")
            elif isinstance(m, When):
                out.append(f"{m.label} in {va[m.key]:.3f} of the games of {_short(a)}, {vb[m.key]:.3f} of {_short(b)}.")
            elif m is None:
                out.append(f"Game length: {_short(a)} {_turns(a, va['end_turn']['mean'])} against {_short(b)} "
                           f"{_turns(b, vb['end_turn']['mean'])}.")
            else:
                out.append(f"{m.said or m.test} differs between {_short(a)} and {_short(b)}.")
    return out


def _markdown(setups: Sequence[Setup], batches: dict[str, list[dict[str, Any]]], seed: int, title: str, intro: str,
              figs: dict[str, str], rows: str = "rows") -> str:
    from hexwar.registry import get

    s = _summaries(batches)
    ms = metrics_of(batches)
    labels = list(batches)
    rates = [m for m in ms if isinstance(m, Rate) and m.label]
    whens = [m for m in ms if isinstance(m, When)]
    means = [m for m in ms if isinstance(m, Mean) and m.label]
    lines = [f"# {title}", "", "<!-- GENERATED by `hexwar compare` (make reports): do not edit by hand. -->", ""]
    if intro:
        lines += [intro, ""]
    opened = opening(setups)
    lines += opened
    tests = _tests(batches)
    sig = holm([p for *_, p in tests])
    found = robust.verdicts(tests, sig, s, _test_name) if len(robust.pairings(labels)) > 1 else []
    findings = _findings(tests, sig, s)
    short_of = {robust.arm(x): _arm_short(x) for x in labels}
    said = robust.headline(found, short_of) if found else (findings[:5] or ["No difference is significant."])
    late = sorted({hit.group(1) for x in opened if (hit := LATE.match(x))})
    if late:  # issue 72: a difference there is one of reach, not of the board
        said = [f"On {', '.join(late)} a force cannot arrive in time (Reach before results, above): read a "
                f"difference involving {'it' if len(late) == 1 else 'them'} as one of reach, not of the board.", *said]
    lines += ["## In short", ""] + [" ".join(said)] + [""]
    lines += [f"Batch seed {seed}; game *i* of a setup has seed `game_seed({seed}, i)` and can be re-run alone "
              f"(`hexwar.sim.play_one`). Rows per game are cached under `{rows}/` (not committed), each with the build that played it: a changed rule, chart or map plays them again.", ""]
    heads = [r.label for r in rates] + ["length (mean ± sd)"] + [h for w in whens for h in (w.label, w.when)] + [n.label for n in means]
    lines += ["| # | setup | games | " + " | ".join(heads) + " |", "|---|---|---|" + "---|" * len(heads)]
    for i, x in enumerate(labels, 1):
        v = s[x]
        cells = []
        for r in rates:
            if r.ci:
                lo, hi = v[f"{r.key}_95ci"]
                cells.append(f"{v[f'{r.key}_rate']:.3f} ({lo:.3f}-{hi:.3f})")
            else:
                cells.append(f"{v[r.key] / v['games']:.3f}")
        cells.append(_turns(x, v["end_turn"]["mean"], v["end_turn"]["sd"]))
        for w in whens:
            t = v[f"{w.key}_turn"]
            cells += [f"{v[w.key]:.3f}", _turns(x, t["mean"], t["sd"] if t["n"] > 1 else None)]
        cells += [f"{v[n.key]['mean']:.2f}" for n in means]
        lines.append(f"| {i} | `{x}` | {v['games']} | " + " | ".join(cells) + " |")
    lines += [""]
    if "wins" in figs:
        lines += [f"![win rates]({figs['wins']})", ""]
    lines += [f"![game length]({figs['length']})", ""]
    for w in whens:
        lines += [f"![when {w.label}]({figs[w.key]})", ""]
    if "boxes" in figs:
        lines += [f"![per game]({figs['boxes']})", ""]
    lines += ["## Which differences are significant", "",
              f"Two-sided tests (two proportions; Welch for means), Holm-corrected over all {len(tests)} tests of "
              "this report at 5%.", "", "| setups | quantity | p-value | significant |", "|---|---|---|---|"]
    for (a, b, m, p), ok in zip(tests, sig):
        lines.append(f"| {labels.index(a) + 1} vs {labels.index(b) + 1} | {_test_name(m)} | {p:.2g} | {'yes' if ok else 'no'} |")
    lines += [""]
    lines += [f"- {x}" for x in findings] or ["- No difference is significant."]
    if found:
        numbers = {robust.arm(x): i for i, x in enumerate(labels, 1) if robust.pairing(x) == robust.pairing(labels[0])}
        lines += [""] + robust.section(found, numbers)
    lines += [""] + drivers.markdown(batches, {x: i for i, x in enumerate(labels, 1)}, figs.get("combats"), figs.get("moves"),
                                    figs.get("hands"), figs.get("losses"))
    exact = [(i, e) for i, x in enumerate(labels, 1) for e in exact_vs_sampled(x, batches[x])[:8]]
    if any(get(st.game).batches.exact is not None for st in setups):  # a game with no combat table has none
        lines += ["", "## Exact where possible", "",
                  "Each combat the games fought, pooled over the batch, with its exact probability (enumeration over "
                  "the dice) beside the sampled frequency; |z| above 3 would point to a bug in the rules code or the "
                  "dice. The simulator's tests check the same agreement.", "",
                  "| setup | combat | quantity | fought | sampled | exact | z |", "|---|---|---|---|---|---|---|"]
    for i, e in exact:
        lines.append(f"| {i} | {e['combat']} | {e['quantity']} | {e['n']} | {e['sampled']:.3f} | "
                     f"{e['exact']} = {float(e['exact']):.3f} | {e['z']:+.2f} |")
    infos = {st.game: get(st.game) for st in setups}
    if len({st.board for st in setups}) > 1 and len(infos) == 1 and _board_lines(setups):
        lines += ["", "## The boards", ""] + _board_lines(setups)
    return "\n".join(lines) + "\n"


#: a reach warning's line (``Batch.reach``): the board it names
LATE = re.compile(r"^- \*\*(?:Cannot|Few) arrive\*\* on ([^:]+):")


def board_scales(setups: Sequence[Setup]) -> list[tuple[str, str, str]]:
    """(game, board, its scale in one sentence) for each board the setups play on, in order:
    the game's own words where it has them (``Batch.board_scale``), else the board's
    (``hexwar.board.conversion.board_scale``)."""
    from hexwar.board.conversion import board_scale
    from hexwar.registry import get

    out: list[tuple[str, str, str]] = []
    for st in setups:
        if any(g == st.game and b == st.board for g, b, _ in out):
            continue
        game = build_game(st)
        hook = get(st.game).batches.board_scale
        out.append((st.game, st.board, hook(st.board, game) if hook is not None else board_scale(game.board)))
    return out


def opening(setups: Sequence[Setup]) -> list[str]:
    """What a report says before any finding (issue 72): what each board's scale and conversion
    is, what a turn and a unit are in each game, and, where the game can say it, whether each
    side's forces can reach each objective before the scenario ends on each board."""
    from hexwar.registry import get

    infos = {st.game: get(st.game) for st in setups}
    lines = ["## What is compared", ""]
    for game, board, scale in board_scales(setups):
        numbers = [str(i) for i, st in enumerate(setups, 1) if (st.game, st.board) == (game, board)]
        lines.append(f"- **{board}**{f' ({game})' if len(infos) > 1 else ''}, setup{'s' if len(numbers) > 1 else ''} "
                     f"{', '.join(numbers)}: {scale}.")
    for g in sorted(infos):
        lines.append(f"- {infos[g].batches.scale}")
    if len(infos) > 1:
        lines += ["- So compare outcomes (who wins, whether and how early in the game it happens, the shares of "
                  "losses), not raw turn numbers or loss counts: each game's turn and counter are its own."]
    for st in sorted({(st.game, st.board) for st in setups}):
        note = infos[st[0]].batches.board_notes.get(st[1])
        if note:
            lines += [f"- {note}"]
    lines.append("")
    for g in sorted(infos):
        hook = infos[g].batches.reach
        if hook is None:
            continue
        seen: dict[str, Any] = {}
        for one in setups:
            if one.game == g and one.board not in seen:
                seen[one.board] = build_game(one)
        lines += ["## Reach before results", ""] + hook(list(seen.items())) + [""]
    return lines
