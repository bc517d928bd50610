"""What a briefing tells of the counters of a game of units (Assault on Narvik, Europa, the
skirmish games): the person's forces by place, and what they know of the enemy's, from the
person's own view (a face-down counter is counted, never named)."""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Iterable

#: places a briefing names one by one; the rest are counted
PLACES_SHOWN = 8


def forces(view: Any, mine: Iterable[str], visible: Callable[[Any], bool], place: Callable[[str], str],
           name: Callable[[Any], str] = lambda u: str(u.id)) -> list[tuple[str, list[str]]]:
    """The briefing's two sections on the counters: "Your forces" (by place, then the pools:
    reinforcements to come, the eliminated) and "What you know of the enemy" (counters on
    the map, face down among them, and those still to come)."""
    mine = set(mine)
    own = [u for u in view.units.values() if u.side in mine]
    at: dict[str, list[str]] = {}
    for u in own:
        if u.loc is not None:
            at.setdefault(u.loc, []).append(name(u))
    places = sorted(at.items(), key=lambda kv: (-len(kv[1]), kv[0]))  # the biggest stacks first
    lines = [f"{place(loc)}: {', '.join(sorted(names))}" for loc, names in places[:PLACES_SHOWN]]
    if len(places) > PLACES_SHOWN:
        lines.append(f"... and {sum(len(v) for _, v in places[PLACES_SHOWN:])} more counters at "
                     f"{len(places) - PLACES_SHOWN} other places (explain <unit> for one)")
    pools = Counter(u.pool for u in own if u.loc is None)
    lines += [f"{pool.replace('_', ' ')}: {n} counter{'s' if n != 1 else ''}" for pool, n in sorted(pools.items()) if pool]
    enemy = [u for u in view.units.values() if u.side not in mine]
    on_map = [u for u in enemy if u.loc is not None]
    hidden = sum(not visible(u) for u in on_map)
    known = [f"{len(on_map)} counter{'s' if len(on_map) != 1 else ''} on the map"
             + (f", {hidden} of them face down (you do not know what they are)" if hidden else "")]
    off = Counter(u.pool for u in enemy if u.loc is None and u.pool)
    known += [f"{pool.replace('_', ' ')}: {n}" for pool, n in sorted(off.items())]
    return [("Your forces", lines or ["none on the map yet"]), ("What you know of the enemy", known)]
