"""Helpers for the benchmark scripts: timing by repetition, medians, a fixture chart, and an
earlier commit's tree unpacked to measure against in the same run."""

from __future__ import annotations

import gc
import statistics
import subprocess
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import Callable, Sequence

from hexwar.data.loader import default_library
from hexwar.data.tables import TerrainChart


def chart() -> TerrainChart:
    return TerrainChart.from_spec(default_library().load("tables", "fixtures/terrain"))


def per_call(fn: Callable[[], object], calls: int, repeats: int = 7) -> float:
    """Return the median seconds per call over ``repeats`` runs of ``calls`` calls."""
    times = []
    gc.collect()
    gc.disable()  # as timeit does: time the code, not the collector's sweeps of the test graphs
    try:
        for _ in range(repeats):
            t0 = time.perf_counter()
            for _ in range(calls):
                fn()
            times.append((time.perf_counter() - t0) / calls)
    finally:
        gc.enable()
    return statistics.median(times)


def baseline_tree(root: Path, commit: str, fixes: Sequence[tuple[str, str, str, int]] = ()) -> Path:
    """The code and data of ``commit`` unpacked from git into a temporary folder (once), with
    ``fixes`` applied (file, old text, new text, times: rule fixes made since, so that both
    engines play the same games); run it with the folder on ``PYTHONPATH``."""
    out = Path(tempfile.gettempdir()) / (f"hexwar-bench-{commit}" + (f"-fixes{len(fixes)}" if fixes else ""))
    if not (out / "hexwar").is_dir():
        blob = subprocess.run(["git", "-C", str(root), "archive", commit, "hexwar", "maps", "oob", "tables"],
                              check=True, capture_output=True).stdout
        with tarfile.open(fileobj=BytesIO(blob)) as tar:
            tar.extractall(out, filter="data")
        for rel, old, new, times in fixes:
            path = out / rel
            text = path.read_text()
            if text.count(old) != times:
                raise SystemExit(f"the rule fix for {rel} no longer fits the baseline {commit}: {old!r}")
            path.write_text(text.replace(old, new))
    return out


def run_in_tree(tree: Path, script: str, *args: object, compiled: bool = False) -> dict:
    """Run a probe ``script`` (``python -c``) with ``tree``'s hexwar and data, pure Python (or
    its compiled build, ``HEXWAR_NATIVE=1``, with ``compiled``), a fixed hash seed, and return
    the JSON object its last line prints."""
    import json
    import os
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("HEXWAR_GAMES",)}
    env.update(PYTHONPATH=str(tree), PYTHONHASHSEED="0", HEXWAR_NATIVE="1" if compiled else "0", HEXWAR_DATA=str(tree))
    res = subprocess.run([sys.executable, "-c", script, *map(str, args)], env=env, check=True, capture_output=True,
                         text=True, cwd=tree)
    out: dict = json.loads(res.stdout.strip().splitlines()[-1])
    return out
