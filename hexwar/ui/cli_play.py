"""The ``hexwar`` commands that play games: games, play, simulate, compare (a saved game is
read by ``cli_saves``: replay, position).

Every game-specific thing (sides, scenarios, boards, switches, bots, the play loop, how an
event reads, the pictures) comes from the game registry.
"""

from __future__ import annotations

import json
import shlex
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator, List, Optional

import typer

from hexwar import native
from hexwar.ai.helpers import lend_cores
from hexwar.ui.cli_common import (
    JSON,
    UserError,
    app,
    emit,
    err,
    free_name,
    in_range,
    out,
    output_file,
    output_folder,
    write_text,
)
from hexwar.ui.cli_seat import Asked, game_named, resume, save_of, start

#: the most games one batch command runs (a day of a 2-core machine at Kampen's speed)
MAX_GAMES = 10_000_000
MAX_SEED = 2**63 - 1  # seeds are 64-bit: a larger one names a save file no person can type


def _run_player(presenter: Any, state: Any, humans: set[str], bots: dict[str, Any], path: Path, json_: bool,
                snapshots: Path) -> None:
    """Run the terminal play loop over the game's presenter; end of input quits."""
    from hexwar.ui.play import terminal

    def read(prompt: str) -> str:
        try:
            return out.input(prompt)
        except EOFError:
            return "quit"

    if json_:
        emit({"save": str(path), "humans": sorted(humans), "bots": {k: v.name for k, v in bots.items()},
              "snapshots": str(snapshots)})
    player = terminal(presenter, state, humans, bots, out, path, read, snapshots)
    _readline(player)
    try:
        player.run()
    finally:
        state.close()


def _readline(player: Any) -> None:
    """Command history (up arrow) and Tab completion of orders and commands, where the
    terminal has readline (Linux, macOS)."""
    import sys

    if not sys.stdin.isatty():
        return
    try:
        import readline
    except ImportError:  # pragma: no cover - Windows without pyreadline
        return
    readline.set_completer_delims(" ")
    readline.set_completer(player.complete)
    readline.parse_and_bind("tab: complete")


def snapshot_folder(chosen: Path | None) -> Path:
    """Where map snapshots go: the folder given, else $HEXWAR_SNAPSHOTS, else
    $XDG_DATA_HOME/hexwar/snapshots (~/.local/share/hexwar/snapshots): never the checkout."""
    import os

    if chosen is not None:
        return chosen
    env = os.environ.get("HEXWAR_SNAPSHOTS")
    if env:
        return Path(env)
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "hexwar" / "snapshots"


@app.command()
def games(json_: bool = JSON) -> None:
    """List the games: their scenarios, boards, sides to play, bots and rules switches."""
    from hexwar.registry import games as all_games

    rows: list[dict[str, Any]] = [{"game": g.name, "title": g.title, "scenarios": dict(g.scenarios), "default_scenario": g.default_scenario,
             "boards": dict(g.boards), "default_board": g.default_board, "sides": sorted(g.seats),
             "default_side": g.default_seat, "bots": sorted(g.bots), "default_bot": g.default_bot,
             "switches": dict(g.switches)} for g in all_games()]
    if json_:
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    for r in rows:
        typer.echo(f"{r['game']}: {r['title']}")
        for k, v in r["scenarios"].items():
            typer.echo(f"  --scenario {k}{' (default)' if k == r['default_scenario'] else ''}: {v}")
        for k, v in r["boards"].items():
            typer.echo(f"  --board {k}{' (default)' if k == r['default_board'] else ''}: {v}")
        typer.echo(f"  --side {', '.join(r['sides'])} (default {r['default_side']})")
        typer.echo(f"  --opponent {', '.join(r['bots'])} (default {r['default_bot']})")
        for k, v in r["switches"].items():
            typer.echo(f"  --switch {k}: {v}")


@app.command()
def play(game: Optional[str] = typer.Argument(None, help="Game to play (hexwar games lists them and the default), or the game of the --load save"),
         side: Optional[str] = typer.Option(None, help="Side(s) you command (hexwar games lists each game's); default: the game's"),
         scenario: Optional[str] = typer.Option(None, help="Scenario (default: the game's; hexwar games lists them)"),
         board: Optional[str] = typer.Option(None, help="Board (default: the game's; hexwar games lists them)"),
         opponent: Optional[str] = typer.Option(None, help="Bot for the other side(s) (hexwar games lists each game's)"),
         seed: int = typer.Option(1, help="Seed of the dice (each game's dice are reproducible)"),
         load: Optional[Path] = typer.Option(None, help="Resume a saved game (its game, sides, bots and switches come with it)"),
         from_: Optional[Path] = typer.Option(None, "--from", help="Play on from a position file (hexwar position writes one)"),
         upto: Optional[int] = typer.Option(None, help="With --load: resume from the save's first N orders, for a save that stops loading at a later one (the whole save is kept in a copy first)"),
         save: Optional[Path] = typer.Option(None, help="Save file for a new game (default <game>-seed<SEED>.hexwar, resumed if it exists); every order is saved"),
         new: bool = typer.Option(False, "--new", help="Start a new game even if the default save exists (under the next free name)"),
         switch: Optional[List[str]] = typer.Option(None, help="Rules switches (hexwar games lists each game's)"),
         think: Optional[float] = typer.Option(None, help="Seconds the search bot may think per decision (0.01 to 600; default 1)"),
         helpers: Optional[int] = typer.Option(None, help="Processes that search each decision beside the search bot, on the machine's other cores (default: one where there are two cores or more; 0: none)"),
         show_secrets: bool = typer.Option(False, "--show-secrets", help="With --side: play on an unfinished save as another side than the one it was played by, which shows you what that side hid; the save stays as it was, the game goes on in a copy that records it"),
         snapshots: Optional[Path] = typer.Option(None, help="Folder for map snapshots (default $XDG_DATA_HOME/hexwar/snapshots)"),
         web: bool = typer.Option(False, "--web", help="Play on a local web page (127.0.0.1, a free port) instead of the terminal"),
         port: int = typer.Option(0, help="Port for --web (default: a free one)"),
         json_: bool = JSON) -> None:
    """Play a game solitaire in the terminal (or with --web in the browser) against the game's bots."""
    from hexwar.registry import UnknownGame

    info, saved, saved_path, new, save = game_named(game, load, from_, save, new)
    in_range("--seed", seed, 0, MAX_SEED)
    if think is not None and not 0.01 <= think <= 600:
        raise UserError("--think is seconds per decision, from 0.01 to 600")
    if helpers is not None and not 0 <= helpers <= 16:
        raise UserError("--helpers is a number of processes, from 0 to 16")
    given = {"--side": side, "--scenario": scenario, "--board": board, "--opponent": opponent,
             "--switch": switch or None}
    sock = None
    if web:  # the board's port is taken now: a port in use is one line, before any save is made
        from hexwar.web.server import PortInUse, listen

        in_range("--port", port, 0, 65535)
        try:
            sock = listen(port)
        except PortInUse as e:
            raise UserError(str(e)) from None
    resuming = ""
    try:
        if load is None and save is None:
            default = Path(f"{info.name}-seed{seed}.hexwar")
            saved, saved_path = save_of(default), default
            if not new and saved is not None and saved.meta.get("game") == info.name:
                load = default
                resuming = f"resuming {default} ({len(saved)} orders saved); --new starts another game"
            elif default.exists():
                save = free_name(default)
                out.print(f"{default} exists: this new game is saved to {save}", markup=False)
        if load is not None:
            seat = resume(info, load, saved if saved_path == load else None, given, Asked(side, opponent, think, switch),
                           upto, show_secrets, resuming)
        else:
            if upto is not None:
                raise UserError("--upto resumes a save: give it with --load")
            if show_secrets:
                raise UserError("--show-secrets takes another side of a saved game: give it with --load and --side")
            seat = start(info, Asked(side, opponent, think, switch), scenario, board, seed, save, from_)
        humans = set(info.seats[seat.side])
        bots = {s: info.bot(seat.opponent, s, seat.seed, seat.think) for s in info.sides if s not in humans}
        lend_cores(bots.values(), helpers)  # the search bot thinks on the other core too
    except UnknownGame as e:
        raise UserError(str(e)) from None
    try:
        if sock is not None:
            _serve_player(info.presenter, seat.state, humans, bots, seat.path, snapshot_folder(snapshots), sock)
            return
        _run_player(info.presenter, seat.state, humans, bots, seat.path, json_, snapshot_folder(snapshots))
    finally:
        for bot in bots.values():
            if bot.thinks:
                bot.close()  # its helper processes, at once rather than when they notice


def _serve_player(presenter: Any, state: Any, humans: set[str], bots: dict[str, Any], path: Path, snapshots: Path,
                  sock: Any) -> None:
    """Serve the game as a local web page on the socket already bound, until Ctrl-C."""
    from hexwar.ui.session import Session
    from hexwar.web.server import serve

    try:
        serve(presenter(Session(state, humans, bots, path, snapshots)), sock=sock,
              say=lambda text: out.print(text, markup=False, soft_wrap=True))
    finally:
        state.close()


@app.command()
def simulate(game: str = typer.Argument(..., help="GAME[/SCENARIO][@BOARD][:BOTS]: a game and, where not its defaults, its scenario, board and bots (hexwar games lists them)"),
             games: int = typer.Option(1000, help="Number of games"),
             seed: int = typer.Option(1, help="Batch seed: game i's seed is derived from it, so any game can be re-run"),
             out_path: Optional[Path] = typer.Option(None, "--out", help="CSV of rows (default sim/<setup>-seed<K>.csv); re-running resumes it"),
             workers: Optional[int] = typer.Option(None, help="Local processes (default: every core)"),
             scheduler: Optional[str] = typer.Option(None, help="Dask scheduler address tcp://host:port"),
             dask: bool = typer.Option(False, "--dask", help="Run on a local Dask cluster"),
             game_no: Optional[int] = typer.Option(None, "--game", help="Play game N of the batch (the CSV's index) again, the very game of its row, and save it to step through (hexwar replay) or take over (hexwar play --load --upto)"),
             save: Optional[Path] = typer.Option(None, help="With --game: the save to write (default <setup>-seed<K>-game<N>.hexwar; never overwritten)"),
             json_: bool = JSON) -> None:
    """Run N seeded bot-vs-bot games; one CSV row per game and a JSON summary beside it."""
    import time

    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    from hexwar.registry import get
    from hexwar.sim import parse_setup, summary
    from hexwar.sim import simulate as run
    from hexwar.core.metrics import headline
    from hexwar.sim.runner import BatchError

    try:
        setup = parse_setup(game)
    except ValueError as e:
        raise UserError(str(e)) from None
    in_range("--games", games, 1, MAX_GAMES)
    in_range("--workers", workers, 1, 256)
    in_range("--seed", seed, 0, MAX_SEED)
    if save is not None and game_no is None:
        raise UserError("--save writes one game of a batch: give --game N too")
    if game_no is not None:
        in_range("--game", game_no, 0, MAX_GAMES - 1)
        _one_game(setup, seed, game_no, save, out_path, json_)
        return
    if out_path is not None:
        if out_path.suffix.lower() != ".csv":
            raise UserError(f"--out {out_path}: a batch is a CSV file: give a name ending in .csv "
                            "(its summary goes beside it, the same name ending in .json)")
        output_file(out_path)
        path = out_path
    else:
        path = output_folder(Path("sim")) / f"{setup.slug}-seed{seed}.csv"
    summary_path = _summary_file(path, setup.label, seed)
    sched = scheduler or ("local-dask" if dask else None)
    offer = native.offer()
    if offer is not None and not json_:  # a build of these sources exists: say how to use it
        err.print(offer, markup=False, soft_wrap=True)
    t0 = time.perf_counter()
    try:
        bar = Progress(TextColumn(setup.label, markup=False), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                       console=err, disable=json_)
        task = bar.add_task("games", total=games)

        def tick(done: int, n: int) -> None:  # the bar shows once the batch holds its file
            if not bar.live.is_started:
                bar.start()
            bar.update(task, completed=done)

        try:
            rows = run(setup, games, seed, path, workers, sched, progress=tick)
        finally:
            bar.stop()
    except BatchError as e:
        raise UserError(str(e)) from None
    dt = time.perf_counter() - t0
    metrics = get(setup.game).batches.metrics
    summ = summary(rows, metrics)
    summ.update({"seed": seed, "file": str(path), "seconds": round(dt, 2), "engine": native.engine()})
    write_text(summary_path, json.dumps(summ, indent=2, sort_keys=True) + "\n")
    if json_:
        emit(summ)
        return
    out.print(f"{summ['games']} games of {setup.label} in {dt:.1f} s ({summ['engine']}) -> {path}", markup=False)
    winners = ", ".join(f"{w} {n}" for w, n in sorted(summ["winners"].items(), key=lambda wn: -wn[1]))
    lead = headline(metrics)
    rate = ""
    if lead is not None:  # the game's headline rate (the Allies' wins), with its interval
        lo, hi = summ[f"{lead.key}_95ci"]
        rate = f"; {lead.test or lead.label} {summ[f'{lead.key}_rate']:.3f} (95% CI {lo:.3f}-{hi:.3f})"
    out.print(f"winners: {winners}{rate}; game length {summ['end_turn']['mean']:.2f} {get(setup.game).length_unit}s",
              markup=False)


def _summary_file(csv: Path, label: str, seed: int) -> Path:
    """Where a batch's summary goes (beside its CSV, ending in .json), refused in one line when
    a file there is anything but this batch's own summary: a batch writes only its own files."""
    path = output_file(csv.with_suffix(".json"))
    if not path.exists():
        return path
    try:
        old = json.loads(path.read_text(encoding="utf-8"))
        ours = (isinstance(old, dict) and old.get("setup") in (label, "") and old.get("seed") == seed
                and Path(str(old.get("file", ""))).name == csv.name and "winners" in old)
    except (OSError, UnicodeDecodeError, ValueError):
        ours = False
    if not ours:
        raise UserError(f"{path}: exists and is not the summary of this batch ({label} --seed {seed}); "
                        f"a batch never overwrites another file: give another --out, or move it")
    return path


def _one_game(setup: Any, seed: int, index: int, save: Optional[Path], batch: Optional[Path], json_: bool) -> None:
    """``simulate --game N``: game N of the batch played again (the same seed, bots and dice as
    its row) and saved; set beside its row of the batch file where there is one."""
    from hexwar.core.log import SaveError, SaveFile
    from hexwar.sim.runner import BatchError, build_fingerprint, columns, read_rows, record_one

    dest = save or Path(f"{setup.slug}-seed{seed}-game{index}.hexwar")
    output_file(dest)
    if dest.exists():
        raise UserError(f"{dest}: already exists; a save is never overwritten (give another --save)")
    row, log = record_one(setup, index, seed)
    try:
        SaveFile(dest).create(log)
    except SaveError as e:
        raise UserError(str(e)) from None
    path = batch or Path("sim") / f"{setup.slug}-seed{seed}.csv"
    try:
        old = next((r for r in read_rows(path, columns(setup)) if r.get("index") == str(index)), None)
    except BatchError:
        old = None
    keys = ("winner", "level", "orders", "end_turn")
    if old is None:
        beside = ""
    elif old.get("build") != build_fingerprint():
        beside = f"; its row in {path} was played by another build (other rules or data): this is the game today's rules play"
    elif all(str(row[k]) == old[k] for k in keys):
        beside = f"; the same game as its row in {path}"
    else:  # the same build, another game: a fault of the engine, never to pass in silence
        raise UserError(f"game {index} of {path} played again differs from its row ({', '.join(f'{k} {old[k]!r}' for k in keys)}): "
                        f"please report it with the batch file and the save {dest}")
    if json_:
        emit({"game": index, "seed": row["seed"], "save": str(dest), "row": row, "beside": beside.lstrip("; ")})
        return
    from hexwar.registry import get
    from hexwar.sim.setups import build_game

    said = get(setup.game).wording(build_game(setup))(row["level"]) if row["level"] else row["winner"]  # as play says it
    out.print(f"game {index} of {setup.label} --seed {seed} (game seed {row['seed']}): {said}, "
              f"{row['orders']} orders{beside}", markup=False)
    q = shlex.quote(str(dest))
    out.print(f"saved to {dest}; step through it: hexwar replay {q} --svg frames/; take it over from order N: "
              f"hexwar play --load {q} --upto N --side SIDE", markup=False)


@contextmanager
def batch_bars() -> Iterator[Callable[[str, int, int], None]]:
    """A progress bar per batch, on stderr: yields ``tick(label, done, total)``."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    with Progress(TextColumn("{task.description}", markup=False), BarColumn(), MofNCompleteColumn(), console=err) as bar:
        tasks: dict[str, Any] = {}

        def tick(label: str, done: int, total: int) -> None:
            if label not in tasks:
                tasks[label] = bar.add_task(label, total=total)
            bar.update(tasks[label], completed=done)
        yield tick


def _compare_sweep(setups: Optional[List[str]], preset: Optional[str], sweep: Optional[str], games: int, seed: int,
                   out_dir: Optional[Path], title: str, workers: Optional[int], bots: Optional[List[str]], force: bool) -> None:
    """``compare --sweep`` (issue 72): the swept setup at each value, against the baseline."""
    from hexwar.sim import sweep as sw
    from hexwar.sim.report import preset_folder, presets, require_matplotlib
    from hexwar.sim.runner import BatchError

    intro, shared_rows = "", None
    if preset:
        p = presets()[preset]
        assert p.sweep is not None
        over, values = p.sweep
        baseline, swept = p.setups
        pairings = [(p.setups[0].partition(":")[2] or "priority", p.games[0]), *p.pairings]
        title, intro = p.title, p.intro
        folder = out_dir or preset_folder(p)
        shared_rows = None if out_dir else Path(folder).parent / "rows"
    else:
        specs = list(setups or [])
        if len(specs) != 2:
            raise UserError("compare --sweep takes two setups: the baseline (drawn as a line) and the setup swept")
        assert sweep is not None
        over, eq, vals = sweep.partition("=")
        if not eq or over not in sw.PARAMS:
            raise UserError(f"--sweep {sweep!r}: give step=1,2,3 or km=10,15,20")
        try:
            values = tuple(float(v) for v in vals.split(","))
        except ValueError:
            raise UserError(f"--sweep {sweep!r}: the values are numbers separated by commas") from None
        if len(values) < 2 or any(not 0 < v <= 200 for v in values) or (over == "step" and any(v != int(v) for v in values)):
            raise UserError(f"--sweep {sweep!r}: two or more values from 0 to 200 (whole numbers for step)")
        baseline, swept = specs
        pairings = [(b, games) for b in (bots or [swept.partition(":")[2] or "priority"])]
        folder = out_dir or Path("compare")
    try:
        require_matplotlib()
        for pt in sw.points(baseline, swept, over, values, pairings):
            pass  # every point parses before any game is played
    except (ValueError, BatchError) as e:
        raise UserError(str(e)) from None
    output_folder(Path(folder))
    with batch_bars() as tick:
        try:
            path = sw.run(baseline, swept, over, values, pairings, seed, Path(folder), title, intro, workers, tick,
                          rows=shared_rows, force=force)
        except BatchError as e:
            raise UserError(str(e)) from None
    out.print(f"wrote {path} (and beside it report.html, summary.json and {sw.FIGURE})", markup=False)


@app.command()
def compare(setups: Optional[List[str]] = typer.Argument(None, help="Two or more setups (GAME[/SCENARIO][@BOARD][:BOTS])"),
            preset: Optional[str] = typer.Option(None, help="A shipped comparison: boards or games (writes into the checkout's docs/, or the current folder's when installed)"),
            games: int = typer.Option(1000, help="Games per setup (presets set their own)"),
            seed: int = typer.Option(1, help="Batch seed"),
            out_dir: Optional[Path] = typer.Option(None, "--out", help="Report folder (default compare/)"),
            title: str = typer.Option("Comparison", help="Report title"),
            workers: Optional[int] = typer.Option(None, help="Local processes (default: every core)"),
            scheduler: Optional[str] = typer.Option(None, help="Dask scheduler address tcp://host:port"),
            dask: bool = typer.Option(False, "--dask", help="Run on a local Dask cluster"),
            bots: Optional[List[str]] = typer.Option(None, help="Play every setup with these bots (repeat for more pairings, e.g. --bots priority --bots search:8): the report says which differences hold with every pairing"),
            force: bool = typer.Option(False, "--force", help="Write the report even over files in the folder that hexwar compare did not write"),
            sweep: Optional[str] = typer.Option(None, help="Play the last setup at each value of its board's conversion, step=1,2,3 (hex steps an area step becomes) or km=10,15,20 (the hex size), against the first setup as a line: a figure of where they meet")) -> None:
    """Compare setups over seeded batches: a Markdown report with figures and significance."""
    from hexwar.sim.report import may_write as report_may_write
    from hexwar.sim.report import preset_folder, presets, require_matplotlib, with_bots
    from hexwar.sim.report import compare as run
    from hexwar.sim.runner import BatchError, require_dask
    from hexwar.sim.setups import parse_setup

    in_range("--games", games, 1, MAX_GAMES)
    in_range("--workers", workers, 1, 256)
    in_range("--seed", seed, 0, MAX_SEED)
    intro = ""
    if sweep is not None or (preset and preset in presets() and presets()[preset].sweep is not None):
        _compare_sweep(setups, preset, sweep, games, seed, out_dir, title, workers, bots, force)
        return
    if preset:
        shipped = presets()
        if preset not in shipped:
            raise UserError(f"unknown preset {preset!r}; presets: {', '.join(shipped)}")
        p = shipped[preset]
        (specs, counts), title, intro = p.arms(), p.title, p.intro
        folder = out_dir or preset_folder(p)
        # the presets share one folder of rows beside their reports: a setup's game i is the
        # same game in each, so make reports plays it once
        shared_rows = None if out_dir else Path(folder).parent / "rows"
    else:
        specs = list(setups or [])
        if len(specs) < 2:
            raise UserError("compare needs two or more setups, or --preset boards|games")
        if bots:
            specs = [with_bots(x, b) for b in bots for x in specs]
        counts = [games] * len(specs)
        folder = out_dir or Path("compare")
        shared_rows = None
    try:
        parsed = [parse_setup(x) for x in specs]
    except ValueError as e:
        raise UserError(str(e)) from None
    sched = scheduler or ("local-dask" if dask else None)
    try:
        require_matplotlib()
        if sched:
            require_dask()
    except BatchError as e:
        raise UserError(str(e)) from None
    output_folder(Path(folder))
    report_may_write(parsed, Path(folder), force)  # before any game: nothing of anyone else's is replaced
    offer = native.offer()
    if offer is not None:  # a build of these sources exists: say how to use it
        err.print(offer, markup=False, soft_wrap=True)
    with batch_bars() as tick:
        try:
            path = run(parsed, counts, seed, Path(folder), title, intro, workers, sched, tick, rows=shared_rows, force=force)
        except BatchError as e:
            raise UserError(str(e)) from None
    out.print(f"wrote {path} (and beside it report.html, summary.json and the figures it shows)", markup=False)
