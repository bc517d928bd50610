"""Small statistics for comparison reports and the bot ladder: intervals, tests and ratings with no SciPy needed."""

from __future__ import annotations

import math
from typing import Any, Sequence


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
    tail: float = sum(math.comb(n, i) for i in range(min(b, c) + 1)) / 2**n
    return min(1.0, 2 * tail)


def mean_sd(xs: Sequence[float]) -> dict[str, float]:
    """The mean and the sample standard deviation, the same to the last bit in any order of
    ``xs`` (``math.fsum``): a batch's rows come in the order its processes finish them, and
    a report played again must say the same numbers."""
    n = len(xs)
    if not n:
        return {"mean": float("nan"), "sd": float("nan"), "n": 0}
    m = math.fsum(xs) / n
    sd = math.sqrt(math.fsum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
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


#: logits to Elo points: a lead of 400 Elo is odds of 10 to 1
ELO = 400 / math.log(10)


def bradley_terry(games: Sequence[tuple[int, int, float]], players: int, anchor: int = 0,
                  prior_sd: float = 4.0) -> dict[str, Any]:
    """Fit Bradley-Terry ratings with a first-seat edge to ``games`` of (first, second,
    first's score: 1 a win, 0.5 a draw, 0 a loss): P(first wins) = 1 / (1 + exp(-(r_first -
    r_second + edge))). The maximum a posteriori fit under a wide normal prior (``prior_sd``
    logits, about 700 Elo: it keeps a rating finite when a player won every game) by Newton's
    method; 95% intervals from the curvature there (the Laplace approximation). Ratings are in
    Elo points relative to ``anchor`` (its own is 0 exactly); returns ``ratings``, ``low``,
    ``high`` (lists by player), ``edge``, ``edge_low``, ``edge_high``.

    >>> fit = bradley_terry([(0, 1, 1.0)] * 30 + [(1, 0, 0.0)] * 30 + [(0, 1, 0.5)] * 10, 2, anchor=1)
    >>> fit["ratings"][0] > 300 and fit["low"][0] > 0 and fit["ratings"][1] == 0
    True
    >>> seat = bradley_terry([(0, 1, 1.0), (1, 0, 1.0)] * 20, 2)  # the first seat always wins, whoever sits there
    >>> round(seat["ratings"][1]), seat["edge_low"] > 200
    (0, True)
    """
    import numpy as np

    m, k = len(games), players + 1  # the ratings, then the edge
    x = np.zeros((m, k))
    s = np.zeros(m)
    for row, (a, b, score) in enumerate(games):
        x[row, a] += 1.0
        x[row, b] -= 1.0
        x[row, players] = 1.0
        s[row] = score
    theta = np.zeros(k)
    shrink = np.full(k, 1 / prior_sd ** 2)
    for _ in range(100):
        p = 1 / (1 + np.exp(-(x @ theta)))
        grad = x.T @ (s - p) - shrink * theta
        hess = (x.T * (p * (1 - p))) @ x + np.diag(shrink)
        step = np.linalg.solve(hess, grad)
        theta += step
        if np.max(np.abs(step)) < 1e-10:
            break
    p = 1 / (1 + np.exp(-(x @ theta)))
    cov = np.linalg.inv((x.T * (p * (1 - p))) @ x + np.diag(shrink))
    half = 1.959964
    ratings, low, high = [], [], []
    for i in range(players):
        r = (theta[i] - theta[anchor]) * ELO
        sd = math.sqrt(max(0.0, cov[i, i] + cov[anchor, anchor] - 2 * cov[i, anchor])) * ELO
        ratings.append(float(r))
        low.append(float(r - half * sd))
        high.append(float(r + half * sd))
    e, esd = theta[players] * ELO, math.sqrt(cov[players, players]) * ELO
    return {"ratings": ratings, "low": low, "high": high, "edge": float(e), "edge_low": float(e - half * esd),
            "edge_high": float(e + half * esd)}
