"""Small statistics for comparison reports: intervals and tests with no SciPy needed."""

from __future__ import annotations

import math
from typing import Sequence


def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval of a proportion (95% by default).

    >>> [round(v, 3) for v in wilson(50, 100)]
    [0.404, 0.596]
    """
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def _norm_sf(z: float) -> float:
    return 0.5 * math.erfc(z / math.sqrt(2))


def two_proportions(k1: int, n1: int, k2: int, n2: int) -> float:
    """Two-sided p-value that two proportions are equal (pooled z test).

    >>> round(two_proportions(60, 100, 40, 100), 4)
    0.0047
    """
    if not n1 or not n2:
        return 1.0
    p = (k1 + k2) / (n1 + n2)
    se = math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
    if se == 0:
        return 1.0 if k1 / n1 == k2 / n2 else 0.0
    return 2 * _norm_sf(abs(k1 / n1 - k2 / n2) / se)


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value for paired results: of the pairs that differ, ``b``
    went one way and ``c`` the other; under no difference each way is a fair coin.

    Two bots played on the same seeds are pairs: the seeds where only one of them won
    carry the evidence, the seeds where both won (or neither did) carry none.

    >>> round(mcnemar_exact(10, 2), 4)
    0.0386
    >>> mcnemar_exact(3, 3)
    1.0
    """
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(b, c) + 1)) / 2**n
    return min(1.0, 2 * tail)


def mean_sd(xs: Sequence[float]) -> dict[str, float]:
    n = len(xs)
    if not n:
        return {"mean": float("nan"), "sd": float("nan"), "n": 0}
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    return {"mean": m, "sd": sd, "n": n}


def welch(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Two-sided p-value that two means are equal (Welch, normal approximation: the
    batches are hundreds of games).

    >>> welch([1, 2, 3] * 50, [1, 2, 3] * 50)
    1.0
    """
    a, b = mean_sd(xs), mean_sd(ys)
    if a["n"] < 2 or b["n"] < 2:
        return 1.0
    se = math.sqrt(a["sd"] ** 2 / a["n"] + b["sd"] ** 2 / b["n"])
    if se == 0:
        return 1.0 if a["mean"] == b["mean"] else 0.0
    return 2 * _norm_sf(abs(a["mean"] - b["mean"]) / se)


def holm(pvalues: Sequence[float], alpha: float = 0.05) -> list[bool]:
    """Holm-Bonferroni: which of several tests are significant at family-wise ``alpha``.

    >>> holm([0.001, 0.04, 0.03])
    [True, False, False]
    """
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    out = [False] * len(pvalues)
    m = len(pvalues)
    for rank, i in enumerate(order):
        if pvalues[i] <= alpha / (m - rank):
            out[i] = True
        else:
            break
    return out
