"""Exact CRT outcome distributions: time per column, against enumerating by sampling in the same run.

Target (issue 2): < 1 ms per column. The baseline is the obvious alternative, estimating the
same distribution from 6,000 sampled rolls; the exact one is also checked against it.

Usage: python bench/bench_crt.py [--quick]
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _common import per_call  # noqa: E402

from hexwar.data.loader import default_library  # noqa: E402
from hexwar.data.tables import DifferentialCrt, OddsCrt  # noqa: E402
from hexwar.rules.combat import diff_column_index, diff_outcomes, odds_outcomes  # noqa: E402


def main() -> None:
    quick = "--quick" in sys.argv
    lib = default_library()
    crt = DifferentialCrt.from_spec(lib.load("tables", "fixtures/crt"))
    odds = OddsCrt.from_spec(lib.load("tables", "fixtures/crt-odds"))
    cases = [(ad, drm) for ad in range(-6, 10) for drm in range(-3, 4)]
    it = iter(range(10**9))

    def exact() -> None:
        ad, drm = cases[next(it) % len(cases)]
        diff_outcomes(crt, ad, drm)

    def exact_odds() -> None:
        ad, drm = cases[next(it) % len(cases)]
        odds_outcomes(odds, ad + 10, 4, drm)

    rng = random.Random(1)

    def sampled() -> None:
        ad, drm = cases[next(it) % len(cases)]
        col = crt.columns[diff_column_index(crt, ad)]
        Counter(col.results[min(6, max(1, rng.randint(1, 6) + drm)) - 1] for _ in range(6000))

    calls = 500 if quick else 5000
    t_exact = per_call(exact, calls)
    t_odds = per_call(exact_odds, calls)
    t_sampled = per_call(sampled, max(5, calls // 500))
    print("CRT outcome distribution per column (median)")
    print(f"  differential, exact Fractions : {t_exact * 1e6:8.1f} us")
    print(f"  odds, exact Fractions         : {t_odds * 1e6:8.1f} us")
    print(f"  differential, 6,000 samples   : {t_sampled * 1e6:8.1f} us  (exact is {t_sampled / t_exact:,.0f}x faster)")


if __name__ == "__main__":
    main()
