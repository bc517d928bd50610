"""The bot ladder: how strong each of a game's bots is, in ratings with intervals (issue 57).

A game's entrants are its fast bots (the priority and random bots, say) and its search bot
(ISMCTS) at two or three **playout budgets**. A budget in playouts, not seconds, makes a
ladder game the same game on any machine and however busy it is (the search bot's dice are
seeded too), so a ladder can be played in pieces, on several machines, and any game of it
replayed; the report gives the seconds a decision each budget took here.

Each **round** plays, in every scenario asked, every ordered pairing of the entrants, a bot
against itself too: entrant A in the first camp and B in the second, on the round's seed
(the same seed for every pairing of the round: paired games). A camp is the sides that win
together (``Game.winning_sides``): Norway and the Allies in Kampen om Norge play the same
entrant, each faction its own copy of the bot.

The games are appended to a JSON-lines file as they end (flushed and synced; a line torn by
a crash is cut off before the next game is appended; a reader skips it), and the games
already in it are not played again: the same command resumes a ladder, and more rounds extend
it. The ratings are a Bradley-Terry fit with a first-camp edge (``hexwar.sim.stats.bradley_terry``), a draw half a
win, in Elo points relative to the game's batch bot; games between equal bots say how the
scenario's balance moves with the bots' strength.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from hexwar.core.engine import run_fast
from hexwar.core.files import Job, check_group, claim, write_text, write_whole
from hexwar.sim.runner import MAX_ORDERS  # a ladder game's cap is a batch game's: past it, a stalled game
from hexwar.sim.setups import make_bot, split_kind
from hexwar.sim.stats import bradley_terry, wilson


class LadderError(Exception):
    """A ladder that cannot be played or read as asked (one line, naming the file)."""


@dataclass(frozen=True)
class Entrant:
    """A bot kind, and for the search bot its playouts a decision (``search:32``)."""

    kind: str
    playouts: int | None = None

    @property
    def name(self) -> str:
        return self.kind if self.playouts is None else f"{self.kind}:{self.playouts}"

    @classmethod
    def parse(cls, text: str) -> "Entrant":
        """``KIND`` or ``KIND:PLAYOUTS``.

        >>> Entrant.parse("search:32"), Entrant.parse("priority").name
        (Entrant(kind='search', playouts=32), 'priority')
        """
        from hexwar.registry import UnknownGame

        try:
            return cls(*split_kind(text))
        except UnknownGame as e:
            raise LadderError(str(e)) from None

    def make(self, info: Any, side: str, seed: int) -> Any:
        return make_bot(info, self.name, side, seed)


def entrants(info: Any, playouts: Sequence[int]) -> list[Entrant]:
    """The game's fast bots, its batch bot first, then its search bot at each budget."""
    fast = sorted((k for k, b in info.bots.items() if b.fast), key=lambda k: (k != info.batch_bot, k))
    if playouts and "search" not in info.bots:
        raise LadderError(f"{info.name} has no search bot to play at {', '.join(map(str, playouts))} playouts")
    return [Entrant(k) for k in fast] + [Entrant("search", n) for n in playouts]


def camps(game: Any, sides: Sequence[str]) -> list[tuple[str, ...]]:
    """The sides that win together, in the game's order of sides: the largest sets the
    game's ``winning_sides`` names (Kampen om Norge: the Germans; Norway and the Allies)."""
    sets = {frozenset(game.winning_sides(s)) for s in sides}
    top = [c for c in sets if not any(c < o for o in sets)]
    return sorted((tuple(s for s in sides if s in c) for c in top), key=lambda c: sides.index(c[0]))


def round_seed(game: str, scenario: str, rnd: int) -> int:
    """The seed of a round in a scenario: every pairing of the round plays it.

    >>> round_seed("g", "s", 0) == round_seed("g", "s", 0) != round_seed("g", "s", 1)
    True
    """
    h = hashlib.sha256(f"hexwar-ladder:{game}/{scenario}:{rnd}".encode()).digest()
    return int.from_bytes(h[:6], "big")


class _Timed:
    """A bot as the ladder hands it to ``run_fast``: the same choices, its decisions with a
    choice counted and timed."""

    def __init__(self, bot: Any, tally: dict[str, float], searches: bool):
        self.bot, self.tally, self.searches = bot, tally, searches
        self.reads_by_kind = bot.reads_by_kind
        # a menu for the bot it does not time (the random bot's); a timed bot reads the list,
        # so its time a decision is its choice's alone, the listing outside it
        self.reads_menu = bot.reads_by_kind and bot.reads_menu

    def choose(self, state: Any, legal: Sequence[Any]) -> Any:
        if self.reads_by_kind or len(legal) < 2:  # a menu (the random bot's): nothing to time
            return self.bot.choose(state, legal)
        t0 = time.perf_counter()
        pick = self.bot.choose(state, legal)
        self.tally["seconds"] += time.perf_counter() - t0
        self.tally["decisions"] += 1
        if self.searches:  # the search bot says how many playouts it made
            self.tally["playouts"] += self.bot.last["iterations"]
        return pick


def play(game: str, scenario: str, rnd: int, first: str, second: str) -> dict[str, Any]:
    """One ladder game: entrant ``first`` plays the first camp, ``second`` the other."""
    from hexwar.registry import get

    info = get(game)
    g = info.build(scenario)
    seed = round_seed(game, scenario, rnd)
    camp = camps(g, info.sides)
    who = {s: Entrant.parse(name) for c, name in zip(camp, (first, second)) for s in c}
    tallies = [{"decisions": 0, "seconds": 0.0, "playouts": 0} for _ in camp]
    bots = {s: _Timed(who[s].make(info, s, seed), tallies[0 if s in camp[0] else 1], who[s].playouts is not None)
            for s in info.sides}
    watch = info.batches.observer(g)
    view, _ = run_fast(g, seed, bots, observe=watch, max_orders=MAX_ORDERS)
    if not view.data.over:  # a bot stalled a phase: a bug to mend, never a drawn game in the ladder
        raise LadderError(f"{game} {scenario} round {rnd}, {first} v {second}: the game did not end in {MAX_ORDERS:,} "
                          f"orders (turn {view.data.turn}); a bot or a rule lets a phase go on without end")
    res = view.result()
    won = None if not res.winner else next(i for i, c in enumerate(camp) if set(g.winning_sides(res.winner)) <= set(c))
    row: dict[str, Any] = {"game": game, "scenario": scenario, "round": rnd, "seed": seed, "first": first,
                           "second": second, "won": won, "winner": res.winner or None, "level": res.level,
                           "turn": view.data.turn,
                           "think": [{k: round(v, 4) if isinstance(v, float) else v for k, v in t.items()} for t in tallies]}
    if watch is not None:  # the game's batch row: what a comparison report reads of a game
        row["row"] = {**watch.row(view), **watch.extra()}
    return row


@dataclass(frozen=True)
class Plan:
    """A ladder to play: a game, its scenarios, its entrants and how many rounds."""

    game: str
    scenarios: tuple[str, ...]
    entrants: tuple[Entrant, ...]
    rounds: int

    def jobs(self) -> list[tuple[str, str, int, str, str]]:
        """Every game of the plan, round by round (a ladder cut short stays balanced)."""
        names = [e.name for e in self.entrants]
        return [(self.game, sc, r, a, b) for r in range(self.rounds) for sc in self.scenarios for a in names for b in names]


def key(row: dict[str, Any]) -> tuple[str, str, int, str, str]:
    return row["game"], row["scenario"], row["round"], row["first"], row["second"]


def read(path: Path) -> list[dict[str, Any]]:
    """The games in a ladder file; a last line without its end (torn by a crash, or being
    written by another process now) is not a game yet."""
    if not path.exists():
        return []
    raw = path.read_bytes()
    rows = []
    for n, line in enumerate(raw[: raw.rfind(b"\n") + 1].decode().splitlines(), 1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                raise LadderError(f"{path}: line {n} is not a ladder game (JSON): {line[:60]!r}") from None
    return rows


def repair(path: Path) -> None:
    """Cut a last line torn by a crash off the file (only its writer does, before appending)."""
    if path.exists():
        raw = path.read_bytes()
        if raw and not raw.endswith(b"\n"):
            with open(path, "r+b") as f:
                f.truncate(raw.rfind(b"\n") + 1)


def _append(path: Path, row: dict[str, Any]) -> None:
    with open(path, "a") as f:
        f.write(json.dumps(row, sort_keys=True) + "\n")
        f.flush()
        os.fsync(f.fileno())


def commit() -> str:
    """The checkout's commit (short), or '?' outside one."""
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=10,
                             cwd=Path(__file__).parent)
        return out.stdout.strip() or "?"
    except (OSError, subprocess.SubprocessError):
        return "?"


def run(plan: Plan, path: Path, jobs: int = 1,
        on_game: Callable[[dict[str, Any], int, int], None] | None = None) -> list[dict[str, Any]]:
    """Play the games of ``plan`` that ``path`` lacks, appending each as it ends; return
    every game of the plan's game in the file."""
    from hexwar.sim.runner import build_fingerprint

    repair(path)
    have = {key(r) for r in read(path)}
    todo = [j for j in plan.jobs() if j not in have]
    stamp = {"commit": commit(), "build": build_fingerprint()}
    done = 0
    if todo:
        path.parent.mkdir(parents=True, exist_ok=True)
        with ProcessPoolExecutor(max(1, jobs)) as pool:
            waiting: set[Future[dict[str, Any]]] = set()
            queue = iter(todo)
            for j in queue:  # a few games ahead of the pool, in order: a ladder cut short stays balanced
                waiting.add(pool.submit(play, *j))
                if len(waiting) >= 2 * max(1, jobs):
                    break
            while waiting:
                finished, waiting = wait(waiting, return_when=FIRST_COMPLETED)
                for f in finished:
                    row = {**f.result(), **stamp}
                    _append(path, row)
                    done += 1
                    if on_game is not None:
                        on_game(row, done, len(todo))
                    nxt = next(queue, None)
                    if nxt is not None:
                        waiting.add(pool.submit(play, *nxt))
    return [r for r in read(path) if r["game"] == plan.game]


# --- the figures ---------------------------------------------------------------------


def _score(row: dict[str, Any]) -> float:
    return 0.5 if row["won"] is None else 1.0 - row["won"]


def ratings(rows: Sequence[dict[str, Any]], anchor: str) -> dict[str, Any]:
    """One scenario's ratings: each entrant's Elo relative to ``anchor`` with its 95%
    interval, games and score; the first camp's edge; each entrant against itself."""
    names = sorted({r["first"] for r in rows} | {r["second"] for r in rows}, key=lambda n: (n != anchor, _order(n)))
    index = {n: i for i, n in enumerate(names)}
    fit = bradley_terry([(index[r["first"]], index[r["second"]], _score(r)) for r in rows], len(names),
                        anchor=index.get(anchor, 0))
    table = []
    for n, i in index.items():
        mine = [(r, 0) for r in rows if r["first"] == n and r["second"] != n] + \
               [(r, 1) for r in rows if r["second"] == n and r["first"] != n]
        score = sum(_score(r) if c == 0 else 1 - _score(r) for r, c in mine)
        think = [t for r in rows for c, t in enumerate(r["think"]) if (r["first"], r["second"])[c] == n]
        dec = sum(t["decisions"] for t in think)
        self_play = [r for r in rows if r["first"] == r["second"] == n]
        table.append({"entrant": n, "elo": fit["ratings"][i], "low": fit["low"][i], "high": fit["high"][i],
                      "games": len(mine), "score": score,
                      "seconds": sum(t["seconds"] for t in think) / dec if dec else 0.0,
                      "playouts": sum(t["playouts"] for t in think) / dec if dec else 0.0,
                      "self": {"games": len(self_play), "first": sum(r["won"] == 0 for r in self_play),
                               "second": sum(r["won"] == 1 for r in self_play)}})
    return {"entrants": table, "edge": fit["edge"], "edge_low": fit["edge_low"], "edge_high": fit["edge_high"],
            "games": len(rows)}


def _order(name: str) -> tuple[int, str]:
    e = Entrant.parse(name)
    return (e.playouts or 0, e.kind)


def _signed(x: float) -> str:
    return f"{x:+.0f}" if round(x) else "0"


def markdown(info: Any, rows: Sequence[dict[str, Any]]) -> str:
    """A game's section of the ladder's README: a table per scenario, the balance between
    equal bots, the engines it was played with."""
    g = info.build()
    camp = [" and ".join(s.capitalize() for s in c) for c in camps(g, info.sides)]
    whose = camp[0] + ("'" if camp[0].endswith("s") else "'s")
    out = [f"## {info.title}", ""]
    scenarios = sorted({r["scenario"] for r in rows}, key=lambda s: list(info.scenarios).index(s) if s in info.scenarios else 99)
    for sc in scenarios:
        mine = [r for r in rows if r["scenario"] == sc]
        fit = ratings(mine, info.batch_bot)
        rounds = len({r["round"] for r in mine})
        title = info.scenarios.get(sc, sc).split(":")[0]
        out += [f"### {sc}: {title}", "",
                f"{fit['games']} games, {rounds} round{'s' * (rounds != 1)}. "
                f"Elo relative to the {info.batch_bot} bot, with 95% intervals.", "",
                f"| bot | Elo | 95% interval | games | score | a decision here | against itself: {camp[0]} won / {camp[1]} won / drawn |",
                "|---|---:|---|---:|---:|---|---|"]
        for e in fit["entrants"]:
            s = e["self"]
            think = (f"{e['seconds']:.3f} s, {e['playouts']:.0f} playouts" if Entrant.parse(e["entrant"]).playouts
                     else f"{e['seconds'] * 1000:.2f} ms")
            drawn = s["games"] - s["first"] - s["second"]
            span = "(the anchor)" if e["entrant"] == info.batch_bot else f"{_signed(e['low'])} to {_signed(e['high'])}"
            out.append(f"| {e['entrant']} | {_signed(e['elo'])} | {span} | {e['games']} "
                       f"| {e['score'] / max(1, e['games']):.0%} | {think} | {s['first']} / {s['second']} / {drawn} |")
        out += ["", f"The {whose} edge between equal bots (the fit's first-camp term): {_signed(fit['edge'])} Elo "
                f"[{_signed(fit['edge_low'])}, {_signed(fit['edge_high'])}].", ""]
        out += balance(fit, camp)
    builds = sorted({(r.get("commit", "?"), r.get("build", "?")) for r in rows})
    out += [f"Played with {'the engine at ' + builds[0][0] + ' throughout' if len(builds) == 1 else 'the engines at ' + ', '.join(b[0] for b in builds)}.", ""]
    return "\n".join(out)


def balance(fit: dict[str, Any], camp: Sequence[str]) -> list[str]:
    """The games between equal bots, in words: the first camp's share with its 95% interval,
    for each entrant that played itself."""
    parts = []
    for e in fit["entrants"]:
        s = e["self"]
        if s["games"]:
            lo, hi = wilson(s["first"], s["games"])
            parts.append(f"{e['entrant']} {s['first']}/{s['games']} [{lo:.0%}, {hi:.0%}]")
    return [f"Between equal bots the {camp[0]} won: {'; '.join(parts)}.", ""] if parts else []


def plot(sections: Iterable[tuple[str, list[dict[str, Any]], str]], path: Path) -> None:
    """One panel per scenario: each entrant's Elo with its 95% interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = [(label, ratings(rows, anchor)) for label, rows, anchor in sections if rows]
    if not panels:
        return
    cols = 1 if len(panels) <= 3 else 2
    rows = (len(panels) + cols - 1) // cols
    most = max(len(f["entrants"]) for _, f in panels)
    fig, axes = plt.subplots(rows, cols, figsize=(6.5 * cols, 0.6 + rows * (0.5 + 0.32 * most)), squeeze=False, sharex=True)
    for ax in axes.flat[len(panels):]:
        ax.axis("off")
    for ax, (label, fit) in zip(axes.flat, panels):
        es = fit["entrants"]
        ys = list(range(len(es)))[::-1]
        ax.errorbar([e["elo"] for e in es], ys, xerr=[[e["elo"] - e["low"] for e in es], [e["high"] - e["elo"] for e in es]],
                    fmt="o", color="#1f4e79", ecolor="#7f9fbf", capsize=3)
        ax.axvline(0, color="#999", lw=0.8)
        ax.set_yticks(ys, [e["entrant"] for e in es])
        ax.set_title(f"{label} ({fit['games']} games)", fontsize=9, loc="left")
        ax.tick_params(labelsize=8, labelbottom=True)  # every panel its scale (shared)
    for ax in axes[-1]:
        ax.set_xlabel("Elo relative to the batch bot (95% intervals)", fontsize=8)
    fig.tight_layout()
    write_whole(path, lambda tmp: fig.savefig(tmp, format="png", dpi=110))
    plt.close(fig)


def figures(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The ladder's figures as JSON: by game and scenario, what the README's tables show."""
    from hexwar.registry import get

    out: dict[str, Any] = {}
    for game in sorted({r["game"] for r in rows}):
        anchor = get(game).batch_bot
        mine = [r for r in rows if r["game"] == game]
        out[game] = {sc: ratings([r for r in mine if r["scenario"] == sc], anchor) for sc in sorted({r["scenario"] for r in mine})}
    return out


HOW = """# The bot ladder

How strong is each bot of each game? Every round of the ladder plays, in each scenario, every
pairing of a game's bots from both sides (a bot against itself too) on the round's seed. The
ratings are a Bradley-Terry fit of all the scenario's games with an edge for the first camp, a
draw counting half a win: Elo points relative to the game's batch bot (its rule-based bot, the
one its batches play; 400 Elo is odds of 10 to 1), with 95% intervals from the fit (the Laplace approximation under a
wide normal prior, which keeps a bot that won every game at a finite rating). `search:N` is the
search bot (ISMCTS) making N playouts a decision: a budget in playouts, not seconds, so a
ladder game is the same game on any machine and however busy it is, and any game can be played
again; the "a decision here" column says what a budget cost on the machine that played it
(2 cores, one game on each).

Made by `make ladder` (`hexwar ladder GAME --playouts N M --rounds R --out docs/ladder` for each
game): every game is appended to `GAME.jsonl` here as it ends and is not played again, so the
same command resumes a ladder and a larger `--rounds` extends it; `hexwar ladder GAME --rounds 0`
writes this page and `ladder.png` again from the files.
"""


#: what writes a ladder's page: it replaces only a page it wrote, unchanged since (issue 70)
LADDER = Job("ladder")


def may_write(folder: Path, force: bool = False) -> str:
    """Check, before any game, that the ladder's ``README.md`` and ``ladder.png`` may be
    written in ``folder`` (``hexwar.core.files.check_group``); return how the page is."""
    how = check_group(folder / "README.md", [folder / "ladder.png"], LADDER, force)
    claim(folder / "README.md", LADDER, how, "# The bot ladder\n\nBeing played: its tables come when a round ends.\n")
    return "replace" if how == "new" else how


def write_report(folder: Path, how: str | None = None) -> list[Path]:
    """``README.md`` and ``ladder.png`` in ``folder``, from every ``*.jsonl`` ladder file
    there (each written whole: a new file renamed over the old), after :func:`may_write`
    (``how``: its answer, when the caller asked it). Returns what it wrote."""
    from hexwar.registry import get

    files = sorted(folder.glob("*.jsonl"))
    rows = [r for f in files for r in read(f)]
    parts, sections = [HOW], []
    for game in sorted({r["game"] for r in rows}):
        mine = [r for r in rows if r["game"] == game]
        info = get(game)
        parts.append(markdown(info, mine))
        for sc in sorted({r["scenario"] for r in mine}):
            sections.append((f"{info.title}: {sc}", [r for r in mine if r["scenario"] == sc], info.batch_bot))
    parts.append("![Each bot's Elo with its 95% interval, one panel per scenario](ladder.png)\n")
    readme = folder / "README.md"
    how = how or may_write(folder)
    write_text(readme, "\n".join(parts), LADDER, checked=how)  # two ladders of a folder may write it at once: whole
    plot(sections, folder / "ladder.png")
    return [readme, folder / "ladder.png"]
