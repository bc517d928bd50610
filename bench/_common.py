"""Helpers for the benchmark scripts: timing by repetition, medians, a fixture chart."""

from __future__ import annotations

import gc
import statistics
import time
from typing import Callable

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
