"""What a player of a game on the shared land rules is told about them: a unit's way along a
path and its MP (14.0-14.2, 12.1), a location's units, zones of control and stacking (12.0,
13.2), and an assault's odds on the differential CRT before the die is rolled (15.1).

Assault on Narvik and the skirmish ruleset (with the Konflikt '47 scenarios it hosts) both
explain these; each game's player adds what is its own (supply, ships, order tests). Nothing
here shows a unit the person may not see: every figure is read from ``view()``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Iterable, Mapping, Sequence

from hexwar.rules.combat import diff_outcomes
from hexwar.rules.ledger import Ledger


class LandExplain:
    """Explanations over the shared land rules, for a :class:`~hexwar.ui.play.Player` whose
    game has ``board``, ``tables`` and ``query(state, unit)`` (the movement query: MP, enemy
    ZoC, blocked locations)."""

    game: Any
    view: Callable[[], Any]  # the Player's: the state as the person may see it
    visible: Callable[[Any], bool]  # the Player's: whether the person may see a unit

    def path_ledger(self, uid: str, path: Sequence[str]) -> Ledger | None:
        """The MP ledger of a unit's path, step by step (14.0-14.2, 12.1), as the person sees
        the board; None for a unit they cannot see."""
        from hexwar.rules.movement import explain_path

        g, d = self.game, self.view()
        u = d.units.get(uid)
        if u is None or not self.visible(u):
            return None
        t = g.tables.types[u.type]
        return explain_path(g.board, g.tables.terrain, d.weather, t.movement_class, tuple(path), g.query(d, u), g.cites.move)

    def path_cost(self, uid: str, path: tuple[str, ...]) -> Fraction | None:
        """The MP a unit spends along a path (14.0-14.2, 12.1), or None if it cannot."""
        led = self.path_ledger(uid, path)
        total = led.total if led is not None else None
        return Fraction(total) if isinstance(total, (int, Fraction)) else None

    def explain_move(self, uid: str, dest: str) -> str:
        """The MP ledger of the cheapest path of a unit to a location (14.0-14.2, 12.1)."""
        from hexwar.rules.movement import explain_path, reach

        g, d = self.game, self.view()
        u = d.units.get(uid)
        if u is None or not self.visible(u) or u.loc is None:
            return f"{uid}: not a unit you can see on the map"
        if dest == u.loc:
            return f"{uid} is at {dest} already"
        t = g.tables.types[u.type]
        q = g.query(d, u)
        r = reach(g.board, g.tables.terrain, d.weather, t.movement_class, u.loc, q)
        if dest not in r:
            return f"{uid} cannot reach {dest} in one movement action from {u.loc} (MP {q.mp}, {d.weather})"
        return explain_path(g.board, g.tables.terrain, d.weather, t.movement_class, r.path(dest), q, g.cites.move).render()

    def way_there(self, uid: str, dest: str) -> str:
        """What a unit picked on the map does to a location the mouse is over: an enemy-held
        one it may assault, never enter by a move (14.1, 15.1); any other, the MP of its
        cheapest way there (``explain_move``)."""
        d = self.view()
        u = d.units.get(uid)
        if u is not None and any(x.side != u.side for x in d.at(dest)):
            return f"held by the enemy: {uid} may assault it, not move in (15.1)"
        return self.explain_move(uid, dest)

    def location_lines(self, loc: str, sides: Iterable[str]) -> list[str]:
        """A location as ``explain <hex>`` gives it: its terrain, the units the person sees
        there, each side's ZoC on it (12.0) and the stacking of the sides they command (13.2)."""
        from hexwar.rules.stacking import explain_stack
        from hexwar.rules.zoc import explain_zoc

        g, d = self.game, self.view()
        sees = getattr(self, "sees", None)
        lines = [f"{g.board.label(loc)}: {g.board.terrain(loc)}"]
        for u in d.at(loc):
            lines.append(f"  {u.id if self.visible(u) else '? (face down)'} ({u.side})")
        for side in sides:
            lines.append(explain_zoc(g.board, d, g.tables, loc, side, g.cites.zoc).render())
            if any(u.side == side for u in d.at(loc)) and (sees is None or side in sees):
                lines.append(explain_stack(g.board, d, g.tables, loc, side, g.cites.stack).render())
        return lines


def assault_odds_line(crt: Any, columns: Mapping[tuple[int, int], Fraction]) -> str:
    """An assault's chances before the die, from the chance of each (AD, DRM) it may be fought
    at (one, or one per air-support roll): the chance the defender loses at least one and two
    result points, and the attacker at least one, on the differential CRT (15.1)."""
    dist: dict[tuple[int, int], Fraction] = {}
    for (ad, drm), p in columns.items():
        for r, q in diff_outcomes(crt, ad, drm):
            dist[r] = dist.get(r, Fraction(0)) + p * q
    seen = sorted(columns)
    head = " or ".join(f"AD {a:+d}, DRM {m:+d}" for a, m in seen) if len(seen) <= 2 else f"{len(seen)} columns by the air roll"
    a_hit = sum((q for (a, _), q in dist.items() if a >= 1), Fraction(0))
    d_hit = sum((q for (_, x), q in dist.items() if x >= 1), Fraction(0))
    d_two = sum((q for (_, x), q in dist.items() if x >= 2), Fraction(0))
    return (f"{head}: defender loses >=1 {float(d_hit):.0%}, >=2 {float(d_two):.0%}; "
            f"attacker loses >=1 {float(a_hit):.0%}  [15.1]")


def ledger_before_the_die(led: Mapping[str, Any]) -> dict[str, Any]:
    """An assault's ledger (``Ledger.to_dict``) up to its CRT column: the die, the row it was
    read at and the result dropped, for an assault not yet made."""
    out = dict(led, total=None)
    out["lines"] = [ln for ln in led["lines"] if ln["text"] != "die" and not ln["text"].startswith("modified roll ")]
    return out
