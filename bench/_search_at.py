"""A bot of another commit's engine, played over a pipe (``bench_search_pair.py --old-commit``).

Run as ``python bench/_search_at.py SOURCES`` with ``SOURCES`` a checkout of the commit (a
``git worktree``): this process imports *that* hexwar, keeps a replica of the game the bench
plays (the same scenario and seed: the same dice, order for order, as the engines' golden
games are), and answers on stdout, a JSON line for each JSON line on stdin:

- ``{"start": GAME, "scenario": NAME, "seed": N, "bots": {SIDE: [KIND, SEED, THINK, SETTINGS]}}``: a new game;
- ``{"apply": TEXT}``: the order of that text, played in the replica;
- ``{"choose": SIDE}``: the side's bot decides in its own view: ``{"order": TEXT}``;
- ``{"result": true}``: the replica's winner, which the bench holds to its own.

Only this file's standard library and the other commit's ``hexwar`` are imported: the bench's
own engine never enters this process.
"""

from __future__ import annotations

import json
import sys
from typing import Any


def main() -> None:
    sources = sys.argv[1]
    sys.path.insert(0, sources)
    import hexwar
    from hexwar import registry
    if not hexwar.__file__ or not hexwar.__file__.startswith(sources):
        raise SystemExit(f"_search_at: imported hexwar from {hexwar.__file__}, not {sources}")
    state: Any = None
    bots: dict[str, Any] = {}
    for line in sys.stdin:
        ask = json.loads(line)
        if "start" in ask:
            info = registry.get(ask["start"])
            state = info.build(ask.get("scenario")).new_state(ask["seed"])
            bots = {}
            for side, (kind, seed, think, settings) in ask["bots"].items():
                bot = bots[side] = info.bot(kind, side, seed, think)
                for key, value in settings.items():  # as bench_search_pair's _bot sets them (its hexwar is not this one)
                    if key == "think":
                        bot.budget = value
                    elif key in bot.config:
                        setattr(bot, "cap" if key == "candidates" else key, value)
                        bot.config[key] = value
                    else:
                        raise SystemExit(f"_search_at: {key!r} is no setting of this commit's search")
            answer: dict[str, Any] = {"ok": True}
        elif "apply" in ask:
            by_text = {o.text(): o for o in state.legal_orders()}
            if ask["apply"] not in by_text:
                raise SystemExit(f"_search_at: {ask['apply']!r} is not legal in the other commit's replica")
            state.apply(by_text[ask["apply"]])
            answer = {"ok": True}
        elif "choose" in ask:
            side = ask["choose"]
            legal = state.legal_orders()
            pick = legal[0] if len(legal) == 1 else bots[side].choose(state.view_for((side,)), legal)
            answer = {"order": pick.text()}
        else:
            answer = {"winner": state.result().winner}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
