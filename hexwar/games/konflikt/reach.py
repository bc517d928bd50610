"""Reach before results (issue 72) for Konflikt '47: on the hex table and on the areas cut
from it, in how many turns each side's units can come within control range of each place
the scenario is about, asked of the game's own orders, against the scenario's length.

The set-up is played by the game's priority bots (seed 0), as a batch plays it; then, for
each side, each of its units (on the table, or entering at the first turn and place the game
lets it: 3.4, 3.5) is given an order a turn (digest 4.3: one order a
unit a turn) from wherever it could stand, the enemy standing as set up, the listed moves
(advance or run) taking it on. A place is reached when a unit stands within the scenario's
control radius of it (2.3: 3 inches, the hex or the next; on the areas, the same area), or
may assault it (15.1: on the areas an enemy-held objective is taken no other way). The
scenario lasts at most its 6 turns and the die's 7th (1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from hexwar.core.orders import Move
from hexwar.rules.orders import Assault
from hexwar.games.konflikt.orders import Enter
from hexwar.games.konflikt.state import FIRST_WAVE, FLANK, RESERVE

from hexwar.games.konflikt.state import KonfliktData

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.games.konflikt.game import KonfliktGame

OFF_TABLE = (FIRST_WAVE, RESERVE, FLANK)
LONGEST = 7  # six turns and a die for a seventh (1)
NAMES = {"germans": "Germans", "allies": "Allies"}


def set_up(g: "KonfliktGame", seed: int = 0) -> "KonfliktData":
    """The scenario after its set-up, played by the priority bots, at turn 1's first order."""
    from hexwar.registry import get

    info = get("konflikt")
    st = g.new_state(seed)
    bots = {s: info.bot("priority", s, seed) for s in info.sides}
    d: KonfliktData = st.data  # type: ignore[assignment]
    while d.todo and not st.is_over():
        side = st.current_side()
        st.apply(bots[side].choose(st.view_for((side,)), st.legal_orders()))
        d = st.data  # type: ignore[assignment]
    return d


def places(g: "KonfliktGame", d: "KonfliktData") -> dict[str, str]:
    """What the scenario is about, by name: its objectives (2.3, 2.4), the marker (2.5) and the
    bases (2.6)."""
    out: dict[str, str] = {}
    for i, loc in enumerate(sorted(d.objectives, key=lambda x: (g.table.depth[x]["north"], x))):
        out[loc] = f"objective {chr(ord('A') + i)}" if len(d.objectives) > 1 else "the objective"
    if d.marker:
        out[d.marker] = "the marker"
    for side, loc in sorted(d.base_at.items()):
        out[loc] = f"the {NAMES.get(side, side)}' base"
    return out


def _moves(g: "KonfliktGame", d: "KonfliktData", side: str, uid: str, here: str) -> tuple[set[str], set[str]]:
    """Where the game lets the unit at ``here`` move with one order, and what it may assault."""
    w = g.acting(d, side)
    w.units[uid].loc, w.units[uid].pool = here, None
    w.acted = []
    legal = g.legal_orders(w)
    moves = {o.path[-1] for o in legal if isinstance(o, Move) and o.unit == uid and o.path}
    return moves, {o.target for o in legal if isinstance(o, Assault) and uid in o.units}


def _entries(g: "KonfliktGame", d: "KonfliktData", side: str, uid: str) -> tuple[int, set[str]]:
    """A unit off the table (first wave, reserve, outflanking: 3.4, 3.5): the first turn the
    game lets it enter, and where (an ``Enter`` order, which is its order of that turn)."""
    for t in range(d.turn, LONGEST + 1):
        w = g.acting(d, side)
        w.turn, w.acted = t, []
        at = {o.at for o in g.legal_orders(w) if isinstance(o, Enter) and o.unit == uid}
        if at:
            return t, at
    return LONGEST + 1, set()


def fewest_turns(g: "KonfliktGame", d: "KonfliktData", side: str, target: str, turns: int = LONGEST) -> int | None:
    """The fewest orders (one a turn) in which a unit of ``side`` on the table comes within the
    control radius of ``target`` (0: one is there after the set-up; None: not in ``turns``)."""
    radius = int(g.t.control["radius_inches"].value)
    units = [u for u in d.units.values() if u.side == side and (u.loc is not None or u.pool in OFF_TABLE)]
    best: int | None = None
    for u in units:
        if u.loc is not None:
            t0, front = 0, {u.loc}
        else:
            t0, front = _entries(g, d, side, u.id)
        seen = set(front)
        for t in range(t0, turns + 1):
            if any(g.table.within(x, target, radius) for x in front):
                best = t if best is None else min(best, t)
                break
            if t == turns or (best is not None and t >= best):
                break
            nxt: set[str] = set()
            hit = False
            for x in sorted(front):
                moves, assaults = _moves(g, d, side, u.id, x)
                hit = hit or target in assaults  # taken by assault (15.1), as on the areas it must be
                for y in moves:
                    if y not in seen:
                        seen.add(y)
                        nxt.add(y)
            if hit:
                best = t + 1 if best is None else min(best, t + 1)
                break
            front = nxt
            if not front:
                break
    return best


def lines(boards: Sequence[tuple[str, Any]]) -> list[str]:
    """The report's table: for each board and side, the fewest turns to each place."""
    rows: list[tuple[str, str, dict[str, int | None]]] = []
    names: list[str] = []
    for board, g in boards:
        d = set_up(g)
        where = places(g, d)
        for side in ("germans", "allies"):
            got = {name: fewest_turns(g, d, side, loc) for loc, name in where.items()}
            rows.append((board, NAMES[side], got))
        names += [n for n in where.values() if n not in names]
    out = [f"The fewest turns in which each side's units on the table after the set-up (played by the priority bots, "
           f"seed 0) can come within control range of each place the scenario is about (2.3: 3 inches, the hex or the "
           f"next; on the areas, the same area) or assault it, one order a unit a turn (4.3), asked of each board's own orders; the "
           f"scenario lasts at most {LONGEST} turns (1).", ""]
    if not names:
        return out + ["- The scenario is about losses only: no place to reach (2.1, 2.2)."]
    out += [f"| board | side | {' | '.join(names)} |", "|---|---|" + "---|" * len(names)]
    late = []
    for board, side, got in rows:
        cells = []
        for n in names:
            if n not in got:
                cells.append("-")
            elif got[n] is None:
                cells.append(f"**not in {LONGEST}**")
                late.append((board, side, n))
            else:
                cells.append(str(got[n]))
        out.append(f"| {board} | {side} | " + " | ".join(cells) + " |")
    out.append("")
    out += [f"- **Cannot arrive** on {b}: the {s} cannot reach {n} before the game ends." for b, s, n in late]
    if not late:
        out.append("- On both boards each side can reach each place before the game ends.")
    return out
