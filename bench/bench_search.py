"""The search bot (ISMCTS) against the priority bot in Assault on Narvik, from both sides (issue 17).

For each side, the search bot plays ``--games`` seeded games against the priority bot at
``--think`` seconds a decision; the same seeds are played priority against priority, the
baseline in the same run. Prints each side's win, draw and loss counts with 95% Wilson
intervals, the baseline's, and the search's think time (median, 99th percentile and worst against the cap,
playouts a decision). A game ends early on a random event (24.0) whatever the bots do, so
the comparison is with the baseline over the same seeds, not with 50%: seed by seed
(McNemar's exact test on the seeds where only one of the two won), as well as the two
intervals side by side.

Usage: python bench/bench_search.py [--game narvik|kampen] [--games 100] [--think 1.0] [--jobs 2] [--out FILE.jsonl]
In Kampen om Norge (Scenario 1) the search bot takes the German seat, or the coalition's
(Norway and the Allies, one search each); the rest are priority bots.
The issue's figure is --games 100 --think 1: up to 300 decisions a side a game, hours on 2
cores. With ``--out`` every finished game is appended to the file as one JSON line as soon as
it ends, and the games already in it (same seed, side and think time) are not played again:
a long match can be run in pieces, and a crash loses at most the games under way. The
summary is over every game in the file for the think time asked. ``--games 0`` only
summarises the file. ``--merge A B`` first adds the games of other processes' files to
``--out`` (a match split over processes by ``--first-seed``), so
``--games 0 --out M --merge A B`` merges and summarises; ``--readme docs/search-match/README.md``
also puts the figures between that file's ``<!-- narvik so far -->`` markers.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from concurrent.futures import ProcessPoolExecutor, as_completed

from hexwar.sim.stats import mcnemar_exact, wilson

#: the seats the search bot takes in each game, the sides it plays there, and the winner
#: that is theirs (Kampen: Norway and the Allies win together, as "allies")
SEATS = {"narvik": {"allies": (("allies",), "allies"), "germans": (("germans",), "germans")},
         "kampen": {"germans": (("germans",), "germans"), "coalition": (("norwegians", "allies"), "allies")}}


def play(args: tuple[str, int, str | None, float]) -> dict:
    """One game: ``hero`` is the seat the search bot plays (None: priority bots all round)."""
    game, seed, hero, think = args
    from hexwar.ai.search import SearchBot
    from hexwar import registry

    if game == "narvik":
        from hexwar.games.narvik.bots import PriorityBot as Policy
        from hexwar.games.narvik.bots import search_hooks
    else:
        from hexwar.games.kampen.bots import KampenBot as Policy  # type: ignore[assignment]
        from hexwar.games.kampen.search import search_hooks  # type: ignore[no-redef]

    info = registry.get(game)
    s = info.build().new_state(seed)
    bots = {side: Policy(side, seed) for side in info.sides}
    searching = SEATS[game][hero][0] if hero is not None else ()
    for side in searching:
        bots[side] = SearchBot(side, seed, think, **search_hooks())
    times: list[float] = []
    playouts: list[int] = []
    settled = 0
    while not s.is_over():
        side = s.current_side()
        legal = s.legal_orders()
        t0 = time.perf_counter()
        order = bots[side].choose(s.view_for((side,)), legal)
        if side in searching and len(legal) > 1:
            times.append(time.perf_counter() - t0)
            playouts.append(bots[side].last["iterations"])
            settled += bool(bots[side].last.get("settled"))
        s.apply(order)
    row = {"seed": seed, "hero": hero, "think": think, "winner": s.result().winner, "turn": s.data.turn,
           "times": [round(t, 4) for t in times], "playouts": playouts, "settled": settled}
    if game != "narvik":  # the Narvik match file has no game key
        row["game"] = game
    return row


def line(name: str, results: list[dict], won: str) -> str:
    n = len(results)
    w = sum(r["winner"] == won for r in results)
    lost = sum(r["winner"] not in (None, won) for r in results)
    lo, hi = wilson(w, n)
    return f"{name:44} wins {w:3}/{n} = {w / max(1, n):5.1%} [{lo:5.1%}, {hi:5.1%}]  draws {n - w - lost:3}  losses {lost:3}"


def discordant(search: list[dict], base: list[dict], won: str) -> tuple[int, int]:
    """The two pairings seed by seed (both lists in seed order, the same seeds): the seeds
    where only the search won, and those where only the baseline did (McNemar's pairs)."""
    b = sum(r["winner"] == won and q["winner"] != won for r, q in zip(search, base))
    c = sum(r["winner"] != won and q["winner"] == won for r, q in zip(search, base))
    return b, c


def paired(search: list[dict], base: list[dict], won: str) -> str:
    """The summary line of the paired comparison, McNemar's exact test."""
    b, c = discordant(search, base, won)
    return (f"{'':44} paired by seed: only the search won on {b}, only the baseline on {c}; "
            f"McNemar exact two-sided p = {mcnemar_exact(b, c):.2g}")


#: how the README names each seat
SEAT_NAMES = {"allies": "Allies", "germans": "Germans", "coalition": "Norway and the Allies"}


def spans(seeds: list[int]) -> str:
    """Seeds as runs: [0, 1, 2, 50, 51] -> '0-2 and 50-51'."""
    runs: list[list[int]] = []
    for x in sorted(seeds):
        if runs and x == runs[-1][1] + 1:
            runs[-1][1] = x
        else:
            runs.append([x, x])
    text = [f"{a}-{b}" if b > a else str(a) for a, b in runs]
    return ", ".join(text[:-1]) + (" and " if len(text) > 1 else "") + text[-1] if text else "none"


def markdown(game: str, done: dict, think: float, size: int, today: str) -> str:
    """The match's figures for docs/search-match/README.md: seeds finished, each seat's
    wins with 95% Wilson intervals beside the baseline's, the paired test, the think time."""
    seats = SEATS[game]
    seeds = [r["seed"] for r in done[None]]
    commits = sorted({r.get("commit", "?") for h in done for r in done[h]})
    engine = f"engine at {commits[0]} throughout" if len(commits) == 1 else f"engines {', '.join(commits)}"
    whole = len(seeds) >= size  # the size set before the match began: then its figures are the verdict
    lead = f"The whole match ({today}, {engine}): all" if whole else f"So far ({today}, {engine}): {len(seeds)} of the"
    out = [f"{lead} {size} seeds, every pairing finished (seeds {spans(seeds)}).",
           "", "| seat | search against priority | priority against priority (baseline) |", "|---|---|---|"]

    def cell(rows: list[dict], won: str, wins: bool) -> str:
        n, w = len(rows), sum(r["winner"] == won for r in rows)
        d = sum(r["winner"] is None for r in rows)
        lo, hi = wilson(w, n)
        return f"{w}/{n} = {w / max(1, n):.1%} [{lo:.1%}, {hi:.1%}]{' wins' if wins else ''}, {d} draw{'' if d == 1 else 's'}"

    pairs = []
    for seat, (_sides, won) in seats.items():
        out.append(f"| {SEAT_NAMES[seat]} | {cell(done[seat], won, True)} | {cell(done[None], won, False)} |")
        b, c = discordant(done[seat], done[None], won)
        pairs.append(f"as the {SEAT_NAMES[seat]} {b} against {c} (p = {mcnemar_exact(b, c):.2g})")
    ts = sorted(t for seat in seats for r in done[seat] for t in r["times"])
    ps = sorted(x for seat in seats for r in done[seat] for x in r["playouts"])
    verdict = (f"This is the verdict: the match's {size} seeds are all played." if whole
               else f"The verdict is the one at {size} seeds, not the first time figures cross a line.")
    out += ["", f"95% Wilson intervals. Seeds where only the search won against seeds where only the baseline did "
            f"(McNemar's exact test, two-sided): {'; '.join(pairs)}. Think time: median {statistics.median(ts) if ts else 0:.3f} s, "
            f"at most {max(ts, default=0):.3f} s against the {think:g} s cap, over {len(ts):,} decisions; playouts a decision: "
            f"median {statistics.median(ps) if ps else 0:g}. {verdict}"]
    return "\n".join(out)


def put_block(readme: str, game: str, block: str) -> None:
    """Replace what stands between ``<!-- GAME so far -->`` and ``<!-- /GAME so far -->`` in
    ``readme`` (a new file renamed over it)."""
    start, end = f"<!-- {game} so far -->\n", f"<!-- /{game} so far -->\n"
    with open(readme) as f:
        text = f.read()
    if start not in text or end not in text:
        raise SystemExit(f"{readme}: no {start.strip()} ... {end.strip()} markers for the figures")
    a, b = text.index(start) + len(start), text.index(end)
    with open(readme + ".tmp", "w") as f:
        f.write(text[:a] + block + "\n" + text[b:])
    os.replace(readme + ".tmp", readme)


def load(path: str | None, game: str, think: float) -> list[dict]:
    """The games of ``game`` already played at ``think`` seconds, from the match file."""
    if not path or not os.path.exists(path):
        return []
    with open(path) as f:
        rows = [json.loads(x) for x in f if x.strip()]
    return [r for r in rows if r["think"] == think and r.get("game", "narvik") == game]


def merge(path: str, others: list[str]) -> int:
    """Add the games of ``others`` to the match file ``path``: each (game, think time, seed,
    seat) once (the row ``path`` has is kept, then the first found), in seed order, the
    pairings of a seed together; written to a new file renamed over ``path``, so a crash
    mid-write leaves the old file whole. Returns the number of games."""
    rows: dict[tuple, dict] = {}
    for name in [path, *others]:
        if not os.path.exists(name):
            continue
        with open(name) as f:
            for x in f:
                if x.strip():
                    r = json.loads(x)
                    rows.setdefault((r.get("game", "narvik"), r["think"], r["seed"], r["hero"]), r)

    def place(k: tuple) -> tuple:
        seats = [*SEATS.get(k[0], {}), None]  # a seed's pairings in the order the match plays them
        return k[0], k[1], k[2], seats.index(k[3]) if k[3] in seats else len(seats)

    keys = sorted(rows, key=place)
    tmp = path + ".tmp"
    with open(tmp, "w") as out:
        for k in keys:
            out.write(json.dumps(rows[k]) + "\n")
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, path)
    return len(rows)


def commit() -> str:
    """The checkout's commit (short): the ladder's, written once."""
    from hexwar.sim.ladder import commit as checkout_commit

    return checkout_commit()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", choices=sorted(SEATS), default="narvik")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--think", type=float, default=0.2)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--out", help="a JSON-lines file: each game appended as it ends, games in it not played again")
    ap.add_argument("--merge", nargs="+", default=[], metavar="FILE",
                    help="with --out: add the games of these files (other processes' --out) to it first")
    ap.add_argument("--readme", metavar="FILE", help="put the figures between the file's '<!-- GAME so far -->' markers")
    ap.add_argument("--size", type=int, default=100, help="the match's size in seeds, set before it began (for --readme)")
    a = ap.parse_args()
    if a.merge:
        if not a.out:
            ap.error("--merge needs --out, the file the games are merged into")
        print(f"{a.out}: {merge(a.out, a.merge)} games")
    seats = SEATS[a.game]
    heroes: list[str | None] = [*seats, None]
    seeds = range(a.first_seed, a.first_seed + a.games)
    old = load(a.out, a.game, a.think)
    have = {(r["seed"], r["hero"]) for r in old}
    done: dict[str | None, list[dict]] = {h: [] for h in heroes}
    for r in old:
        done[r["hero"]].append(r)
    # the seeds in order, the pairings of a seed together: a match cut short is still balanced
    jobs = [(a.game, seed, hero, a.think) for seed in seeds for hero in heroes if (seed, hero) not in have]
    at = commit()
    start = time.perf_counter()
    if jobs:
        with ProcessPoolExecutor(a.jobs) as pool:
            futures = [pool.submit(play, j) for j in jobs]
            for i, f in enumerate(as_completed(futures), 1):
                r = f.result()
                r["commit"] = at
                done[r["hero"]].append(r)
                if a.out:
                    with open(a.out, "a") as out:
                        out.write(json.dumps(r) + "\n")
                        out.flush()
                        os.fsync(out.fileno())
                print(f"  {i}/{len(jobs)} games ({time.perf_counter() - start:.0f} s): seed {r['seed']} "
                      f"search={r['hero']} -> {r['winner']} on turn {r['turn']}", flush=True)
    # compare over the seeds every pairing has finished: the baseline on the same seeds
    common = set.intersection(*({r["seed"] for r in done[h]} for h in heroes))
    for k in done:
        done[k] = sorted((r for r in done[k] if r["seed"] in common), key=lambda r: r["seed"])
    title = {"narvik": "Narvik", "kampen": "Kampen om Norge (S1)"}[a.game]
    source = f" ({len(old)} games from {a.out})" if a.out else ""
    print(f"\n{title}, search (ISMCTS, {a.think:g} s a decision) against priority, {len(common)} seeds{source}, "
          f"{a.jobs} processes, {time.perf_counter() - start:.0f} s")
    for seat, (_sides, won) in seats.items():
        print(line(f"search as {seat} vs priority", done[seat], won))
        print(line(f"priority as {seat} vs priority (baseline)", done[None], won))
        print(paired(done[seat], done[None], won))
    if a.readme:
        put_block(a.readme, a.game, markdown(a.game, done, a.think, a.size, time.strftime("%Y-%m-%d")))
        print(f"{a.readme}: the {a.game} figures updated")
    ts = [t for seat in seats for r in done[seat] for t in r["times"]]
    ps = [p for seat in seats for r in done[seat] for p in r["playouts"]]
    early = sum(t < 0.9 * a.think for t in ts)  # from the clock, not the bot's word: answered with a tenth of the cap unspent
    if ts:
        p99 = statistics.quantiles(ts, n=100)[98] if len(ts) > 1 else ts[0]
        print(f"search think time: median {statistics.median(ts):.3f} s, mean {statistics.fmean(ts):.3f} s, "
              f"99th percentile {p99:.3f} s, max {max(ts):.3f} s (cap {a.think:g} s) over {len(ts)} decisions, "
              f"{early} answered early (lead settled, a tenth of the cap or more unspent); playouts a decision: median {statistics.median(ps):g}, max {max(ps)}")


if __name__ == "__main__":
    main()
