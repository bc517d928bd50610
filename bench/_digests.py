"""Digests of every game's bot play: for each game, each variant its conformance suite
plays and each fast bot, ``N`` seeds played by ``run_fast`` with their logs recorded; the
printed digest hashes each whole log (orders, dice, events) and the winner. A change that
should leave every game as it was (speed, words, the web board) prints the same lines
before and after it:

    PYTHONHASHSEED=0 python bench/_digests.py 10 > before.txt   # at the base
    PYTHONHASHSEED=0 python bench/_digests.py 10 > after.txt    # with the change
    diff before.txt after.txt

``python bench/_digests.py N GAME ...`` plays only those games; ``GAME:K`` plays K seeds of
that game instead of N (tests/test_native.py plays a few of the slower games, and compares
them with its record, ``tests/golden/digests.txt``).
"""

from __future__ import annotations

import hashlib
import sys

from hexwar.core.engine import run_fast
from hexwar import registry


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    only = {name: int(k) if k else n for name, _, k in (a.partition(":") for a in sys.argv[2:])}
    for info in registry.games():
        if only and info.name not in only:
            continue
        seeds = only.get(info.name, n)
        for sc, bd, sw in info.conformance_variants():
            game = info.build(sc, bd, sw)
            for kind, bot in info.bots.items():
                if not bot.fast:
                    continue
                h = hashlib.sha1()
                for seed in range(seeds):
                    view, log = run_fast(game, seed, {s: info.bot(kind, s, seed) for s in info.sides}, record=True)
                    assert log is not None
                    h.update(log.to_json().encode())
                    h.update(str(getattr(view.data, "winner", None)).encode())
                print(f"{info.name}/{sc}/{bd}/{','.join(sw)}/{kind} {h.hexdigest()[:12]}", flush=True)


if __name__ == "__main__":
    main()
