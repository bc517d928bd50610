"""Comparison reports: the same rules on different boards, or the same fight in two games.

``compare`` runs (or resumes) one batch per setup, then writes ``report.md`` with figures
(matplotlib PNG): win rates with 95% intervals, game length, when Narvik falls, losses,
which differences are significant (two-sided tests, Holm-corrected over the report), and
the exact odds of the combats the games fought next to the simulator's sampled figures.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from pathlib import Path
from typing import Any, Callable, Sequence

from hexwar.sim.runner import simulate
from hexwar.sim.setups import Setup, build_game, parse_setup
from hexwar.sim.stats import holm, mean_sd, two_proportions, welch, wilson


@dataclass(frozen=True)
class Preset:
    title: str
    setups: tuple[str, ...]
    games: tuple[int, ...]
    out: str
    intro: str


PRESETS = {
    "boards": Preset(
        "The same rules on different boards: Kampen om Norge Scenario 1",
        ("kampen/intro-narvik@norway:priority", "kampen/intro-narvik@nordland-areas:priority",
         "kampen/intro-narvik@nordland-hex:priority"),
        (2000, 2000, 2000), "docs/compare-boards",
        "Scenario 1 (S1) with priority bots for all three factions, on the Norway area map, on the areas "
        "rebuilt from 15 km hexes of the same geography (`AreaBoard.from_hexes`), and directly on those hexes. "
        "The rules code is the same (`hexwar/games/kampen/game.py`); only the board differs.",
    ),
    "games": Preset(
        "The Narvik front in three games: Kampen om Norge Scenario 1, Assault on Narvik and the Europa variant",
        ("kampen/intro-narvik@norway:priority", "narvik/scenario@narvik:priority", "europa/campaign@europa:priority"),
        (2000, 2000, 100), "docs/compare-games",
        "All three games bot against bot (priority bots): Kampen om Norge's introductory Narvik scenario (areas), "
        "Assault on Narvik's 15 April scenario (3 km hexes, weekly turns) and the Europa variant's campaign from "
        "9 April (26 km hexes, 4-day turns, the whole of Norway). Each side counts as 'Allies' when Norway and the "
        "Allies win (Kampen) or the Allies win (Narvik, Europa); a draw or an undecided S1 ending counts as no "
        "winner. 'Narvik falls' means the Allies take (Narvik) or retake (Europa, where the Germans land there on "
        "9 April) the town. In the Europa game the winner is decided by all seven ports of E2, not by Narvik, and "
        "its losses count battalions and regiments across Norway, not companies around one fjord.",
    ),
}


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


def compare(setups: Sequence[Setup], games: Sequence[int], seed: int, out: Path, title: str, intro: str = "",
            workers: int | None = None, scheduler: str | None = None,
            progress: Callable[[str, int, int], None] | None = None) -> Path:
    """Run the batches and write ``out/report.md`` with its figures; return the report path."""
    out.mkdir(parents=True, exist_ok=True)
    cache = out / "rows"
    cache.mkdir(exist_ok=True)
    batches: dict[str, list[dict[str, Any]]] = {}
    for s, n in zip(setups, games):
        cb = (lambda d, t, _l=s.label: progress(_l, d, t)) if progress else None
        batches[s.label] = simulate(s, n, seed, cache / f"{s.slug}-seed{seed}.csv", workers, scheduler, cb, stale="replace")
    figs = _figures(batches, out)
    text = _markdown(setups, batches, seed, title, intro, figs)
    path = out / "report.md"
    path.write_text(text, encoding="utf-8")
    (out / "summary.json").write_text(json.dumps(_summaries(batches), indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return path


# --- numbers ------------------------------------------------------------------------------


def _fell(rows: list[dict[str, Any]], name: str = "narvik") -> list[int | None]:
    return [json.loads(r["fell"]).get(name) for r in rows]


def _summaries(batches: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    out = {}
    for label, rows in batches.items():
        n = len(rows)
        k = sum(int(r["allied_win"]) for r in rows)
        fell = [t for t in _fell(rows) if t is not None]
        out[label] = {
            "games": n, "allied_wins": k, "allied_win_rate": k / n if n else None, "allied_win_95ci": wilson(k, n),
            "german_wins": sum(r["winner"] == "germans" for r in rows),
            "no_winner": sum(r["winner"] == "" for r in rows),
            "end_turn": mean_sd([int(r["end_turn"]) for r in rows]),
            "narvik_falls": len(fell) / n if n else None, "narvik_falls_turn": mean_sd(fell),
            "loss_germans": mean_sd([float(r["loss_germans"]) for r in rows]),
            "loss_allies": mean_sd([float(r["loss_allies"]) for r in rows]),
        }
    return out


def _tracks_narvik(batches: dict[str, list[dict[str, Any]]]) -> bool:
    """Whether the games follow the Narvik front (their rows note when objectives fell); a game
    without such objectives (Konflikt '47's vary by scenario) leaves the Narvik parts out."""
    return any(json.loads(r["fell"]) for rows in batches.values() for r in rows) or not any(batches.values())


def _tests(batches: dict[str, list[dict[str, Any]]]) -> list[tuple[str, str, str, float]]:
    """Pairwise tests: (a, b, quantity, p-value)."""
    out = []
    narvik = _tracks_narvik(batches)
    for a, b in combinations(batches, 2):
        ra, rb = batches[a], batches[b]
        out.append((a, b, "Allied win rate", two_proportions(sum(int(r["allied_win"]) for r in ra), len(ra),
                                                             sum(int(r["allied_win"]) for r in rb), len(rb))))
        if narvik:
            fa = [t is not None for t in _fell(ra)]
            fb = [t is not None for t in _fell(rb)]
            out.append((a, b, "Narvik falls", two_proportions(sum(fa), len(fa), sum(fb), len(fb))))
        out.append((a, b, "game length", welch([int(r["end_turn"]) for r in ra], [int(r["end_turn"]) for r in rb])))
        # relative losses: battalions (Kampen) and land units (Narvik) are different things,
        # so compare the German share of all losses, which is scale-free
        out.append((a, b, "German share of losses", welch(_share(ra), _share(rb))))
    return out


def _share(rows: list[dict[str, Any]]) -> list[float]:
    out = []
    for r in rows:
        g, a = float(r["loss_germans"]), float(r["loss_allies"])
        if g + a:
            out.append(g / (g + a))
    return out


def exact_vs_sampled(label: str, rows: list[dict[str, Any]], min_n: int = 50) -> list[dict[str, Any]]:
    """Combats the games fought, pooled: the exact chance next to the sampled frequency.

    The game says what it compares (its batch hook ``exact``): Kampen om Norge the chance the
    attacker wins for each (attack dice, defence dice) pair (4.2, by enumeration), Assault
    on Narvik the chance the attacker loses a point for each (AD, DRM) of the CRT (15.1).
    """
    from hexwar.games.registry import get

    setup = parse_setup(label)
    out = []
    for e in get(setup.game).batch.exact(build_game(setup), rows, min_n):  # type: ignore[union-attr]
        out.append(dict(e, sampled=e["hits"] / e["n"], z=_z(e["hits"], e["n"], e["exact"])))
    return sorted(out, key=lambda e: -e["n"])


def _board_lines(setups: Sequence[Setup]) -> list[str]:
    """What each board gives the rules, in the game's own words (its batch hook)."""
    from hexwar.games.registry import get

    hook = get(setups[0].game).batch.board_lines  # type: ignore[union-attr]
    return hook([(s.board, build_game(s)) for s in setups]) if hook else []


def _z(k: int, n: int, p: Fraction) -> float:
    pf = float(p)
    se = (pf * (1 - pf) / n) ** 0.5
    return (k / n - pf) / se if se else 0.0


# --- figures -------------------------------------------------------------------------------


def _figures(batches: dict[str, list[dict[str, Any]]], out: Path) -> dict[str, str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = list(batches)
    short = [_short(x) for x in labels]
    figs: dict[str, str] = {}
    s = _summaries(batches)

    fig, ax = plt.subplots(figsize=(7, 3.2))
    rates = [s[x]["allied_win_rate"] for x in labels]
    lo = [rates[i] - s[x]["allied_win_95ci"][0] for i, x in enumerate(labels)]
    hi = [s[x]["allied_win_95ci"][1] - rates[i] for i, x in enumerate(labels)]
    ax.barh(short, rates, xerr=[lo, hi], color="#b59b5b", capsize=4)
    ax.set_xlim(0, 1)
    ax.set_xlabel("Allied (Norway + Allies) win rate, 95% Wilson interval")
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

    if _tracks_narvik(batches):  # (Konflikt's games have no Narvik: no figure, no empty legend)
        fig, ax = plt.subplots(figsize=(7, 3.2))
        for i, (x, lab) in enumerate(zip(labels, short)):
            turns = _fell(batches[x])
            n = len(turns)
            cats = sorted({t for t in turns if t is not None})
            shares = [sum(t == c for t in turns) / n for c in cats] + [sum(t is None for t in turns) / n]
            pos = [c + (i - len(labels) / 2) * 0.25 for c in cats] + [top + 1.5 + (i - len(labels) / 2) * 0.25]
            ax.bar(pos, shares, width=0.25, label=f"{lab} ({unit[x]})" if mixed else lab)
        never = f"right: never, at {top + 1.5:g}"
        ax.set_xlabel(f"when Narvik first fell to the Allies (each game's unit in the legend; {never})" if mixed
                      else f"{unit[labels[0]][:-1]} when Narvik first fell to the Allies ({never})")
        ax.set_ylabel("share of games")
        ax.legend(fontsize=7)
        fig.tight_layout()
        figs["narvik"] = _save(fig, out / "narvik-falls.png")

    fig, axes = plt.subplots(1, 2, figsize=(8, 3.2))
    for ax, key, name in ((axes[0], "loss_germans", "German losses"), (axes[1], "loss_allies", "Allied losses")):
        ax.boxplot([[float(r[key]) for r in batches[x]] for x in labels], tick_labels=[str(i + 1) for i in range(len(labels))])
        ax.set_title(name + " per game", fontsize=9)
        ax.set_xlabel("setup (numbered as in the table)")
    fig.tight_layout()
    figs["losses"] = _save(fig, out / "losses.png")
    plt.close("all")
    return figs


def _save(fig: Any, path: Path) -> str:
    fig.savefig(path, dpi=110, metadata={"Software": None})
    return path.name


def _short(label: str) -> str:
    s = parse_setup(label)
    return f"{s.game} {s.scenario} on {s.board}"


def _units(label: str) -> str:
    """What a setup's game counts its length in, plural: 'turns', 'game rounds'."""
    from hexwar.games.registry import get

    return get(parse_setup(label).game).length_unit + "s"


def _turns(label: str, n: float, sd: float | None = None) -> str:
    """A setup's game length with what it counts: '1.54 ± 0.70 game rounds', '9.00 turns'."""
    return f"{n:.2f}" + (f" ± {sd:.2f}" if sd is not None else "") + f" {_units(label)}"


# --- text -----------------------------------------------------------------------------------


def _markdown(setups: Sequence[Setup], batches: dict[str, list[dict[str, Any]]], seed: int, title: str, intro: str,
              figs: dict[str, str]) -> str:
    from hexwar.games.registry import get

    s = _summaries(batches)
    labels = list(batches)
    lines = [f"# {title}", "", "<!-- GENERATED by `hexwar compare` (make reports): do not edit by hand. -->", ""]
    if intro:
        lines += [intro, ""]
    lines += [f"Batch seed {seed}; game *i* of a setup has seed `game_seed({seed}, i)` and can be re-run alone "
              "(`hexwar.sim.play_one`). Rows per game are cached under `rows/` (not committed), each with the build that played it: a changed rule, chart or map plays them again.", ""]
    narvik = _tracks_narvik(batches)
    fall_head = " Narvik falls | when it falls |" if narvik else ""
    lines += ["| # | setup | games | Allied wins (95% CI) | German wins | no winner | length (mean ± sd) |" + fall_head
              + " German losses | Allied losses |", "|---|---|---|---|---|---|---|" + ("---|---|" if narvik else "") + "---|---|"]
    for i, x in enumerate(labels, 1):
        v = s[x]
        lo, hi = v["allied_win_95ci"]
        nf = v["narvik_falls_turn"]
        falls = (f" {v['narvik_falls']:.3f} | {_turns(x, nf['mean'], nf['sd'] if nf['n'] > 1 else None)} |") if narvik else ""
        lines.append(f"| {i} | `{x}` | {v['games']} | {v['allied_win_rate']:.3f} ({lo:.3f}-{hi:.3f}) | "
                     f"{v['german_wins'] / v['games']:.3f} | {v['no_winner'] / v['games']:.3f} | "
                     f"{_turns(x, v['end_turn']['mean'], v['end_turn']['sd'])} |" + falls + " "
                     f"{v['loss_germans']['mean']:.2f} | {v['loss_allies']['mean']:.2f} |")
    lines += ["", f"![win rates]({figs['wins']})", "", f"![game length]({figs['length']})", ""]
    if narvik:
        lines += [f"![when Narvik falls]({figs['narvik']})", ""]
    lines += [f"![losses]({figs['losses']})", ""]
    tests = _tests(batches)
    sig = holm([p for *_, p in tests])
    lines += ["## Which differences are significant", "",
              f"Two-sided tests (two proportions; Welch for means), Holm-corrected over all {len(tests)} tests of "
              "this report at 5%.", "", "| setups | quantity | p-value | significant |", "|---|---|---|---|"]
    for (a, b, q, p), ok in zip(tests, sig):
        lines.append(f"| {labels.index(a) + 1} vs {labels.index(b) + 1} | {q} | {p:.2g} | {'yes' if ok else 'no'} |")
    lines += [""]
    for (a, b, q, _p), ok in zip(tests, sig):
        if ok:
            va, vb = s[a], s[b]
            if q == "Allied win rate":
                lines.append(f"- {q}: {_short(a)} {va['allied_win_rate']:.3f} against {_short(b)} {vb['allied_win_rate']:.3f}.")
            elif q == "Narvik falls":
                lines.append(f"- Narvik falls in {va['narvik_falls']:.3f} of the games of {_short(a)}, {vb['narvik_falls']:.3f} of {_short(b)}.")
            elif q == "game length":
                lines.append(f"- Game length: {_short(a)} {_turns(a, va['end_turn']['mean'])} against {_short(b)} "
                             f"{_turns(b, vb['end_turn']['mean'])}.")
            else:
                lines.append(f"- The German share of all losses differs between {_short(a)} and {_short(b)}.")
    if not any(sig):
        lines.append("- No difference is significant.")
    lines += ["", "## Exact where possible", "",
              "Each combat the games fought, pooled over the batch, with its exact probability (enumeration over the "
              "dice) beside the sampled frequency; |z| above 3 would point to a bug in the rules code or the dice. "
              "The simulator's tests check the same agreement.", "",
              "| setup | combat | quantity | fought | sampled | exact | z |", "|---|---|---|---|---|---|---|"]
    for i, x in enumerate(labels, 1):
        for e in exact_vs_sampled(x, batches[x])[:8]:
            lines.append(f"| {i} | {e['combat']} | {e['quantity']} | {e['n']} | {e['sampled']:.3f} | "
                         f"{e['exact']} = {float(e['exact']):.3f} | {e['z']:+.2f} |")
    infos = {st.game: get(st.game) for st in setups}
    if len({st.board for st in setups}) > 1 and len(infos) == 1 and _board_lines(setups):
        lines += ["", "## The boards", ""] + _board_lines(setups)
    games = sorted(infos)
    lines += ["", "## Scale", ""] + [f"- {infos[g].batch.scale}" for g in games]  # type: ignore[union-attr]
    if len(games) > 1:
        lines += ["- So compare outcomes (who wins, whether and how early in the game Narvik falls, the German share "
                  "of losses), not raw turn numbers or loss counts: a Kampen battalion is not a Narvik counter, and "
                  "a card round is not a week."]
    for st in sorted({(st.game, st.board) for st in setups}):
        note = infos[st[0]].batch.board_notes.get(st[1])  # type: ignore[union-attr]
        if note:
            lines += [f"- {note}"]
    return "\n".join(lines) + "\n"
