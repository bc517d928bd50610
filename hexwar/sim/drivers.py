"""What drives a difference (issue 58): where the fighting is, who holds what, how far units
move and what removes them, setup by setup, from the columns every game's batch row ends with
(``hexwar.core.observe.Observer``): ``combat_at`` (combats at each location),
``changed_hands`` (how often each objective changed hands), ``move_lengths`` (moves by the
locations they went) and ``losses_by`` (units removed, by the rule that removed them). A heat
map of combats a game on each setup's own board, drawn from the board's geometry, a plot of
the moves' lengths, and the tables beside them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from hexwar.core.files import write_whole
from hexwar.sim.setups import build_game, parse_setup

#: the most places a setup's line of busiest places names
TOP = 4



def save_png(fig: Any, path: Path, **kw: Any) -> str:
    """Save a figure as a PNG whole or not at all (a temporary file renamed into place), with
    no software version in it, so the same figure is the same bytes; return its name."""
    write_whole(path, lambda tmp: fig.savefig(tmp, format="png", dpi=110, metadata={"Software": None}, **kw))
    return path.name

def _mean_counts(rows: Sequence[Mapping[str, Any]], column: str) -> dict[str, float]:
    total: dict[str, float] = {}
    for r in rows:
        for k, n in json.loads(r.get(column) or "{}").items():
            total[k] = total.get(k, 0.0) + n
    return {k: v / max(1, len(rows)) for k, v in total.items()}


def fighting(batches: Mapping[str, Sequence[Mapping[str, Any]]]) -> dict[str, dict[str, float]]:
    """Combats a game at each location, by setup."""
    return {label: _mean_counts(rows, "combat_at") for label, rows in batches.items()}


def hands(batches: Mapping[str, Sequence[Mapping[str, Any]]]) -> dict[str, dict[str, float]]:
    """How often a game each objective changed hands, by setup."""
    return {label: _mean_counts(rows, "changed_hands") for label, rows in batches.items()}


def heat_map(batches: Mapping[str, Sequence[Mapping[str, Any]]], short: Mapping[str, str], path: Path) -> bool:
    """One panel per setup: its board's locations, each coloured by the combats fought there a
    game (none: left blank). False when no setup fought a combat (no figure)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import Polygon

    heat = fighting(batches)
    if not any(heat.values()):
        return False
    labels = list(batches)
    cols = min(3, len(labels))
    rows = (len(labels) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 4.4 * rows), squeeze=False)
    for ax in axes.flat[len(labels):]:
        ax.axis("off")
    for ax, label in zip(axes.flat, labels):
        board = build_game(parse_setup(label)).board
        patches, values = [], []
        box = [float("inf"), float("inf"), float("-inf"), float("-inf")]  # where the fighting was
        for loc in board.locations():
            geom = board.geometry(loc)
            v = heat[label].get(loc, 0.0)
            if v > 0:
                x0, y0, x1, y1 = geom.bounds
                box = [min(box[0], x0), min(box[1], y0), max(box[2], x1), max(box[3], y1)]
            for part in getattr(geom, "geoms", [geom]):
                if part.geom_type == "Polygon":
                    patches.append(Polygon(list(part.exterior.coords), closed=True))
                    values.append(v)
        top = max(values, default=0.0) or 1.0
        base = PatchCollection(patches, facecolor="none", edgecolor="#c9c3b5", linewidth=0.3)
        ax.add_collection(base)
        hot = [(p, v) for p, v in zip(patches, values) if v > 0]
        if hot:
            coll = PatchCollection([p for p, _ in hot], cmap="YlOrRd", edgecolor="#7a6a50", linewidth=0.3)
            coll.set_array([v for _, v in hot])
            coll.set_clim(0, top)
            ax.add_collection(coll)
            bar = fig.colorbar(coll, ax=ax, fraction=0.04, pad=0.02)
            bar.set_label("combats a game", fontsize=7)
            bar.ax.tick_params(labelsize=6)
        for loc, _v in sorted(heat[label].items(), key=lambda kv: (-kv[1], kv[0]))[:3]:  # the busiest, by name
            place = board.place(loc)
            if place is not None and place.name:
                c = board.geometry(loc).representative_point()
                ax.annotate(place.name, (c.x, c.y), fontsize=7, ha="center", va="bottom", xytext=(0, 4),
                            textcoords="offset points", bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.8})
        ax.autoscale_view()
        if box[0] < box[2]:  # zoomed on the fighting, with its surroundings, within the board
            pad = 0.6 * max(box[2] - box[0], box[3] - box[1])
            (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
            ax.set_xlim(max(x0, box[0] - pad), min(x1, box[2] + pad))
            ax.set_ylim(max(y0, box[1] - pad), min(y1, box[3] + pad))
        ax.set_aspect("equal")
        ax.set_xticks([])
        ax.set_yticks([])
        ax.set_title(short[label], fontsize=8)
    fig.tight_layout()
    save_png(fig, path)
    plt.close(fig)
    return True


def lengths(rows: Sequence[Mapping[str, Any]]) -> dict[int, float]:
    """Moves a game by the locations each went."""
    return {int(k): v for k, v in _mean_counts(rows, "move_lengths").items()}


def move_plot(batches: Mapping[str, Sequence[Mapping[str, Any]]], short: Mapping[str, str], path: Path) -> bool:
    """The share of each setup's moves by the locations they went (False: no moves told)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    got = {label: lengths(rows) for label, rows in batches.items()}
    if not any(got.values()):
        return False
    fig, ax = plt.subplots(figsize=(7, 3.2))
    for label, by in got.items():
        total = sum(by.values()) or 1.0
        xs = sorted(by)
        ax.plot(xs, [by[x] / total for x in xs], drawstyle="steps-mid", marker="o", markersize=3, label=short[label],
                linewidth=1.4)  # a marker: a setup whose moves all went one area still shows
    ax.set_xlabel("locations a move went (a hex or an area, as the setup's board has them)")
    ax.set_ylabel("share of moves")
    ax.legend(fontsize=7)
    fig.tight_layout()
    save_png(fig, path)
    plt.close(fig)
    return True


def bars(table: Mapping[str, Mapping[str, float]], short: Mapping[str, str], xlabel: str, path: Path) -> bool:
    """Grouped horizontal bars: for each key (an objective, a rule), each setup's figure a
    game (False: nothing to draw)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    keys = sorted({k for v in table.values() for k in v})
    if not keys:
        return False
    labels = list(table)
    height = 0.8 / len(labels)
    fig, ax = plt.subplots(figsize=(7, 0.9 + 0.22 * len(keys) * len(labels) + 0.25 * len(labels)))
    for i, label in enumerate(labels):
        ax.barh([k + (i - (len(labels) - 1) / 2) * height for k in range(len(keys))],
                [table[label].get(key, 0.0) for key in keys], height=height, label=short[label])
    ax.set_yticks(range(len(keys)), keys, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=2)  # under the bars, never on them
    fig.tight_layout()
    save_png(fig, path, bbox_inches="tight")
    plt.close(fig)
    return True


def hands_plot(batches: Mapping[str, Sequence[Mapping[str, Any]]], short: Mapping[str, str], path: Path) -> bool:
    """How often a game each objective changed hands, by setup."""
    return bars(hands(batches), short, "times an objective changed hands, a game", path)


def losses_plot(batches: Mapping[str, Sequence[Mapping[str, Any]]], short: Mapping[str, str], path: Path) -> bool:
    """Units removed a game by the rule that removed them, by setup."""
    causes = {label: {f"rule {k}": v for k, v in _mean_counts(rows, "losses_by").items()} for label, rows in batches.items()}
    return bars(causes, short, "units removed a game, by the rule that removed them", path)


def namer(label: str) -> Callable[[str], str]:
    """How a setup's report names a place (issue 72: names, not ids, in every result line): its
    board's name for it, else the game's own words (a hex cut from an area: ``1818 (Bardufoss)``),
    else its id."""
    from hexwar.board.base import place_name
    from hexwar.registry import get

    st = parse_setup(label)
    game = build_game(st)
    words = get(st.game).wording(game)

    def name(loc: str) -> str:
        said = place_name(game.board, loc) if loc in game.board else loc
        return said if said != loc else words(loc)
    return name


def markdown(batches: Mapping[str, Sequence[Mapping[str, Any]]], number: Mapping[str, int], figure: str | None,
             moves: str | None = None, held_figure: str | None = None, losses_figure: str | None = None) -> list[str]:
    """The report's section: the heat map, each setup's busiest places, how often each
    objective changed hands a game, the moves' lengths and the losses by what caused them."""
    heat, held = fighting(batches), hands(batches)
    if not any(heat.values()) and not any(held.values()):
        return []
    lines = ["## Where the fighting is, and who holds what", "",
             "Combats fought at each place, a game on average (every setup on its own board), and how often a game "
             "each objective changed hands (taken by the side the reports follow, or lost by it)."]
    if figure:
        lines += ["", f"![combats a game at each place]({figure})"]
    lines += ["", "| # | busiest places (combats a game) | all combats a game |", "|---|---|---|"]
    for label, rows in batches.items():
        name = namer(label)
        busy = sorted(heat[label].items(), key=lambda kv: (-kv[1], kv[0]))[:TOP]
        named = ", ".join(f"{name(loc)} {v:.2f}" for loc, v in busy) or "none"
        lines.append(f"| {number[label]} | {named} | {sum(heat[label].values()):.2f} |")
    objectives = sorted({k for v in held.values() for k in v})
    if objectives:
        lines += ["", "How often a game each objective changed hands:"]
        if held_figure:
            lines += ["", f"![objectives changing hands]({held_figure})"]
        first = namer(next(iter(batches)))
        lines += ["", "| # | " + " | ".join(map(first, objectives)) + " |", "|---|" + "---|" * len(objectives)]
        for label in batches:
            lines.append(f"| {number[label]} | " + " | ".join(f"{held[label].get(o, 0.0):.2f}" for o in objectives) + " |")
    if moves:
        lines += ["", "How far units move: the share of each setup's moves by the locations they went (hexes or areas, "
                  "as its board has them).", "", f"![moves by length]({moves})", "", "| # | moves a game | locations a move (mean) |",
                  "|---|---|---|"]
        for label, rows in batches.items():
            by = lengths(rows)
            n = sum(by.values())
            lines.append(f"| {number[label]} | {n:.1f} | {sum(k * v for k, v in by.items()) / n if n else 0:.2f} |")
    causes = {label: _mean_counts(rows, "losses_by") for label, rows in batches.items()}
    rules = sorted({k for v in causes.values() for k in v})
    if rules:
        lines += ["", "Units removed a game, by the rule that removed them (both sides)."]
        if losses_figure:
            lines += ["", f"![losses by cause]({losses_figure})"]
        lines += ["", "| # | " + " | ".join(f"rule {r}" for r in rules) + " |", "|---|" + "---|" * len(rules)]
        for label in batches:
            lines.append(f"| {number[label]} | " + " | ".join(f"{causes[label].get(r, 0.0):.2f}" for r in rules) + " |")
    return lines + [""]
