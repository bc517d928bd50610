"""Batch simulation: N seeded games of one setup, on local cores or a Dask cluster.

Each game's seed is derived from the batch seed and the game's index, so any single game
can be re-run (``play_one``) and saved to be replayed step by step (``record_one``: ``hexwar
simulate SETUP --seed K --game N``). Finished games are
appended to a CSV file as they complete (flushed and synced), so an interrupted batch keeps
them and the same command resumes where it stopped. Each row names the build that played it
(``build_fingerprint``: the engine's code that decides a game and the data it read), so a batch
is never resumed with games of other rules: a fixed rule or an edited chart plays them again.
"""

from __future__ import annotations

import csv
import fcntl
import hashlib
import json
import os
import signal
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from hexwar.core.engine import run_fast
from hexwar.core.log import EventLog
from hexwar.core.metrics import BASE_COLUMNS, Metric, Rate, When, values
from hexwar.core.observe import Observer
from hexwar.sim.setups import Setup, build_bots, build_game

CHUNK = 25
#: the packages whose code decides how a game plays: with the data, what a batch's games were
#: played by; the terminal's and the web board's players (``games/*/play.py``) and the
#: reports' words and figures (``BUILD_SKIP``) only tell the games
BUILD_CODE = ("ai", "board", "core", "data", "games", "rules", "sim")
BUILD_SKIP = ("sim/report.py", "sim/stats.py", "sim/robust.py", "sim/drivers.py", "sim/html.py", "sim/sweep.py")


#: the orders a batch game may take before it is taken for a stalled one (as the ladder's:
#: a Europa game of search bots takes under 2,000)
MAX_ORDERS = 100_000


class BatchError(Exception):
    """A batch file that cannot be written or resumed as asked (one line, naming the file)."""


class ColumnsDiffer(BatchError):
    """A batch file whose columns are another game's, or another hexwar's (an older format)."""


def game_seed(batch_seed: int, index: int) -> int:
    """Return the seed of game ``index`` of a batch (stable across runs and machines).

    >>> game_seed(7, 0) == game_seed(7, 0) != game_seed(7, 1)
    True
    """
    h = hashlib.sha256(f"hexwar-batch:{batch_seed}:{index}".encode()).digest()
    return int.from_bytes(h[:6], "big")


def play_one(setup: Setup, index: int, batch_seed: int) -> dict[str, Any]:
    """Play game ``index`` of a batch and return its row."""
    return _play(setup, index, batch_seed, record=False)[0]


def record_one(setup: Setup, index: int, batch_seed: int) -> tuple[dict[str, Any], EventLog]:
    """Play game ``index`` of a batch again, the very game of its row, and return the row and
    its log: a save that ``hexwar replay`` steps through and ``hexwar play --load --upto``
    takes over. The log's meta is the game's own (as ``new_state`` writes it) with the batch
    it belongs to; ``opponent`` is the setup's bots where one kind plays every side."""
    from hexwar.registry import get
    from hexwar.sim.setups import bot_kinds, split_kind

    row, log = _play(setup, index, batch_seed, record=True)
    assert log is not None
    kinds = set(bot_kinds(setup.bots, get(setup.game).sides, get(setup.game).batch_bot).values())
    log.meta.update(seat="none", batch={"setup": setup.label, "seed": batch_seed, "index": index})
    if len(kinds) == 1:  # a bot given playouts in the batch thinks on the clock in play
        log.meta["opponent"] = split_kind(kinds.pop())[0]
    return row, log


def _play(setup: Setup, index: int, batch_seed: int, record: bool) -> tuple[dict[str, Any], EventLog | None]:
    from hexwar.registry import get

    g = build_game(setup)
    seed = game_seed(batch_seed, index)
    watch = get(setup.game).batches.observer(g)
    meta = dict(g.new_state(seed).log.meta) if record else None  # what an interactive game's save holds
    view, log = run_fast(g, seed, build_bots(setup, seed), record=record, meta=meta, observe=watch, max_orders=MAX_ORDERS)
    if not view.data.over:  # a bot stalled a phase: a bug to mend, never a game without a winner in a comparison
        raise BatchError(f"{setup.label}: game {index} (seed {seed}) did not end in {MAX_ORDERS:,} orders "
                         f"(turn {view.data.turn}); a bot or a rule lets a phase go on without end")
    row: dict[str, Any] = {"setup": setup.label, "index": index, "seed": seed}
    row.update(watch.row(view))
    row.update(watch.extra())
    return row, log


def run_chunk(setup: Setup, indices: list[int], batch_seed: int) -> list[dict[str, Any]]:
    """Play several games (one task for a pool or a Dask worker)."""
    return [play_one(setup, i, batch_seed) for i in indices]


def build_fingerprint() -> str:
    """What a batch's games are played by: a digest of the engine's code that decides a game
    (``BUILD_CODE``) and of every map, order of battle and table under the data root (the
    checkout's, or $HEXWAR_DATA with a player's own charts). Another rule or another chart
    value gives another fingerprint, so other games."""
    h = hashlib.sha256()
    for name, p in build_files():
        h.update(name.encode() + b"\0" + hashlib.sha256(p.read_bytes()).digest())
    return h.hexdigest()[:16]


def build_files() -> list[tuple[str, Path]]:
    """The files ``build_fingerprint`` reads, each with the name it is digested under."""
    import hexwar
    from hexwar.data.loader import data_root

    pkg = Path(hexwar.__file__).resolve().parent
    root = data_root()
    code = [p for sub in BUILD_CODE for p in sorted((pkg / sub).rglob("*.py"))]
    files = [(f"hexwar/{p.relative_to(pkg)}", p) for p in code
             if str(p.relative_to(pkg)) not in BUILD_SKIP and not (p.name == "play.py" and p.parent.parent.name == "games")]
    files += [(str(p.relative_to(root)), p) for folder in ("maps", "oob", "tables")
              for p in sorted((root / folder).rglob("*")) if p.is_file()]
    return files


def columns(setup: Setup) -> list[str]:
    """A batch file's columns for a setup: every game's, the game's own, then ``build``."""
    from hexwar.registry import get

    return [*BASE_COLUMNS, *get(setup.game).batches.columns, *Observer.EXTRA, "build"]


def read_rows(path: Path, cols: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """Return the rows already written to a batch file (none if it does not exist), after
    checking its header: ``cols`` where the setup is known, else any batch file's shape."""
    if not path.exists():
        return []
    try:
        with open(path, newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            head = list(reader.fieldnames or [])
            if reader.fieldnames is not None and (head != list(cols) if cols is not None else
                                                  head[:len(BASE_COLUMNS)] != list(BASE_COLUMNS) or head[-1] != "build"):
                if head[:2] == ["setup", "index"]:
                    raise ColumnsDiffer(f"{path}: another game's or another hexwar's batch (its columns differ); use another --out")
                raise BatchError(f"{path}: not a hexwar batch file (its header is not the batch columns); use another --out")
            return [r for r in reader if r.get("index", "") != ""]  # "": a half-written last line
    except UnicodeDecodeError:
        raise BatchError(f"{path}: not a hexwar batch file (not UTF-8 text); use another --out") from None
    except csv.Error as e:
        raise BatchError(f"{path}: not a hexwar batch file ({e}); use another --out") from None


def check_rows(path: Path, rows: list[dict[str, Any]], setup: Setup, batch_seed: int) -> set[int]:
    """Return the indices already played, after checking every row belongs to this batch.

    A row of another setup or another batch seed, or a game written twice, means the file is
    not this batch: resuming it would mix games, so it is refused.
    """
    done: set[int] = set()
    for line, r in enumerate(rows, start=2):
        try:
            index = int(r["index"])
            seed = int(r["seed"])
        except (TypeError, ValueError):
            raise BatchError(f"{path}: line {line}: index/seed are not numbers; the file is damaged") from None
        if r["setup"] != setup.label:
            raise BatchError(f"{path}: line {line} holds games of {r['setup']!r}, not {setup.label!r}; use another --out")
        if index < 0 or seed != game_seed(batch_seed, index):
            raise BatchError(f"{path}: line {line} (game {index}) was not played with --seed {batch_seed}; "
                             f"resume with the seed it was started with or use another --out")
        if index in done:
            raise BatchError(f"{path}: line {line}: game {index} is written twice; the file is damaged")
        done.add(index)
    return done


def _append(path: Path, rows: list[dict[str, Any]], cols: Sequence[str]) -> None:
    new = not path.exists() or path.stat().st_size == 0
    with open(path, "a", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=list(cols))
        if new:
            w.writeheader()
        for r in rows:
            w.writerow(r)
        fh.flush()
        os.fsync(fh.fileno())


def _repair(path: Path) -> None:
    """Drop a torn last line (a kill mid-write) so appends start on a clean line."""
    if not path.exists():
        return
    raw = path.read_bytes()
    if raw and not raw.endswith(b"\n"):
        path.write_bytes(raw[: raw.rfind(b"\n") + 1])


def simulate(setup: Setup, games: int, batch_seed: int, out: Path, workers: int | None = None,
             scheduler: str | None = None, progress: Callable[[int, int], None] | None = None,
             stale: str = "refuse") -> list[dict[str, Any]]:
    """Run (or resume) a batch; return all its rows sorted by index.

    A batch file whose games another build played (a rule, a chart or a map changed since,
    ``build_fingerprint``) is refused (``stale="refuse"``: it is the user's file), or played
    again from the start (``"replace"``: a report's cache of rows).

    ``scheduler``: ``None`` for local processes, ``"local-dask"`` for a local Dask cluster,
    or a Dask scheduler address (``tcp://host:8786``). The batch file is locked while the
    batch runs: a second run on it is refused (:class:`BatchError`), as is resuming a file
    written with another setup or seed.
    """
    if scheduler:
        require_dask()
    client = _dask_client(scheduler) if scheduler and scheduler != "local-dask" else None  # before any file
    out.parent.mkdir(parents=True, exist_ok=True)
    created = not out.exists()
    try:
        lock = os.open(out, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        if client is not None:
            client.close()
        raise BatchError(f"{out}: cannot open the batch file ({e.strerror})") from None
    try:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise BatchError(f"{out}: another hexwar simulate is writing this batch; wait for it or use another --out") from None
        _repair(out)
        build = build_fingerprint()
        cols = columns(setup)
        try:
            have = read_rows(out, cols)
        except ColumnsDiffer:
            if stale != "replace":
                raise
            have = [{"build": None}]  # a report's cache in an older format: played again below
        if any(r.get("build") != build for r in have):
            if stale != "replace":
                raise BatchError(f"{out}: its games were played by other rules or data (a rule, a chart or a map changed "
                                 f"since); new games would not be comparable with them: use another --out, or delete it")
            with open(out, "w", encoding="utf-8"):
                pass  # the report's own cache: its games are played again
            have = []
        done = check_rows(out, have, setup, batch_seed)
        todo = [i for i in range(games) if i not in done]
        chunks = [todo[k: k + CHUNK] for k in range(0, len(todo), CHUNK)]
        finished = len(done & set(range(games)))
        if progress:
            progress(finished, games)
        for rows in _execute(setup, chunks, batch_seed, workers, client or scheduler):
            _append(out, [dict(r, build=build) for r in rows], cols)
            finished += len(rows)
            if progress:
                progress(finished, games)
        rows = [r for r in read_rows(out, cols) if int(r["index"]) < games]
        return sorted(rows, key=lambda r: int(r["index"]))
    finally:
        if created and out.stat().st_size == 0:  # a batch that wrote nothing leaves nothing
            out.unlink()
        os.close(lock)
        if client is not None:
            client.close()


#: seconds to wait for a Dask scheduler to answer
DASK_CONNECT = 8


def _dask_client(address: str) -> Any:
    """A client of the Dask scheduler at ``address``, or one line within
    :data:`DASK_CONNECT` seconds saying none answers there."""
    from distributed import Client

    try:
        return Client(address, timeout=DASK_CONNECT)
    except (OSError, TimeoutError, ValueError, TypeError) as e:
        raise BatchError(f"--scheduler {address}: no Dask scheduler answered there within {DASK_CONNECT} s "
                         f"({type(e).__name__}); is it running?") from None


def require_dask() -> None:
    """Refuse, in one line, to run on Dask without the optional ``dask`` extra."""
    import importlib.util

    if importlib.util.find_spec("distributed") is None:
        raise BatchError("running on Dask needs the dask extra: pip install 'hexwar[dask]'")


def _die_with_parent(parent: int) -> None:
    """Pool worker initializer: ask Linux to end this worker when the batch process dies
    (kill -9 included), so no orphaned workers keep playing games nobody will read."""
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the pool's own shutdown still applies
        return
    if os.getppid() != parent:  # the parent died before the call above
        os._exit(1)


def _execute(setup: Setup, chunks: list[list[int]], seed: int, workers: int | None,
             scheduler: Any) -> Iterator[list[dict[str, Any]]]:
    if not chunks:
        return
    if scheduler:
        yield from _dask(setup, chunks, seed, scheduler)
        return
    n = workers or os.cpu_count() or 1
    if n == 1:
        for c in chunks:
            yield run_chunk(setup, c, seed)
        return
    with ProcessPoolExecutor(max_workers=n, initializer=_die_with_parent, initargs=(os.getpid(),)) as pool:
        pending: set[Future[Any]] = set()
        it = iter(chunks)
        for c in it:
            pending.add(pool.submit(run_chunk, setup, c, seed))
            if len(pending) >= 2 * n:
                break
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in finished:
                yield f.result()
                nxt = next(it, None)
                if nxt is not None:
                    pending.add(pool.submit(run_chunk, setup, nxt, seed))


def _dask(setup: Setup, chunks: list[list[int]], seed: int, scheduler: Any) -> Iterator[list[dict[str, Any]]]:
    """Play the chunks on Dask: ``scheduler`` is ``"local-dask"`` (a cluster of this machine's
    cores, started here) or a client already connected (closed by its owner)."""
    from distributed import (  # simulate() checked it is there
        Client,
        LocalCluster,
        as_completed,
    )

    cluster = None
    if scheduler == "local-dask":
        cluster = LocalCluster(n_workers=os.cpu_count() or 1, threads_per_worker=1, processes=True, dashboard_address=None)
        client = Client(cluster)
    else:
        client = scheduler
    try:
        futures = [client.submit(run_chunk, setup, c, seed, pure=False) for c in chunks]
        for f in as_completed(futures):
            yield f.result()
    finally:
        if cluster is not None:
            client.close()
            cluster.close()


def summary(rows: list[dict[str, Any]], metrics: Sequence[Metric] = ()) -> dict[str, Any]:
    """Return a batch's JSON summary: games, winners, length, and each of the game's
    ``metrics``: a rate with its 95% interval (``KEY_rate``, ``KEY_95ci``, the count under
    ``KEY``), a first time with the share of games it came in and when (``KEY``,
    ``KEY_turn``), a mean with its spread."""
    from hexwar.sim.stats import mean_sd, wilson

    n = len(rows)
    wins: dict[str, int] = {}
    for r in rows:
        wins[r["winner"] or "none"] = wins.get(r["winner"] or "none", 0) + 1
    out: dict[str, Any] = {"games": n, "setup": rows[0]["setup"] if rows else "", "winners": wins,
                           "end_turn": mean_sd([int(r["end_turn"]) for r in rows])}
    for m in metrics:
        vals = values(m, rows)
        if isinstance(m, Rate):
            k = sum(bool(v) for v in vals)
            out.update({m.key: k, f"{m.key}_rate": k / n if n else None, f"{m.key}_95ci": list(wilson(k, n))})
        elif isinstance(m, When):
            turns = [t for t in vals if t is not None]
            out.update({m.key: len(turns) / n if n else None, f"{m.key}_turn": mean_sd(turns)})
        else:
            out[m.key] = mean_sd([float(v) for v in vals])
    return out


def pool_combats(rows: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Every game's ``combats`` column (JSON ``column -> {result: count}``) summed over a batch."""
    pooled: dict[str, dict[str, int]] = {}
    for r in rows:
        for k, v in json.loads(r["combats"]).items():
            p = pooled.setdefault(k, {})
            for res, n in v.items():
                p[res] = p.get(res, 0) + n
    return pooled
