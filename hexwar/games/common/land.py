"""What a person is told of a game of counters (units on a board, some face down), and of
the land games on Assault on Narvik's rules: a unit's way along a path and its MP (14.0-14.2,
12.1), a location's units, zones of control and stacking (12.0, 13.2), and an assault's odds
on the differential CRT before the die is rolled (15.1).

Assault on Narvik and the skirmish ruleset (with the Konflikt '47 scenarios it hosts) both
explain these; each game's presenter adds what is its own (supply, ships, order tests).
Nothing here shows a unit the person may not see: every figure is read from the view.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Iterable, Mapping, Sequence

from hexwar.core.orders import Order
from hexwar.rules.combat import diff_outcomes
from hexwar.rules.ledger import Ledger
from hexwar.ui.presenter import Presenter
from hexwar.ui.words import Part, Said, said_text, verb


class CounterPresenter(Presenter):
    """A presenter of a game of counters: units the person sees (their own, or face up), where
    they stand, and why a unit cannot make a short move (``move UNIT PLACE``) typed for it."""

    def visible(self, u: Any) -> bool:
        """Whether the person may see a unit: their own, or one face up (11.0). A hot seat
        (one screen, every side) sees as the map draws it, an onlooker's: a face-down counter
        stays face down for both players there; a game watched or over shows them all."""
        sees = self.session.sees
        if sees is None:
            return self.session.viewer is not None or not u.concealed
        return u.side in sees or not u.concealed

    def shown(self) -> Any:
        """The state as ``explain`` shows it: the person's view; a hot seat's as its map draws
        it, an onlooker's, which names no face-down counter of either side (11.0)."""
        from hexwar.core.play import seen_by

        sess = self.session
        if sess.sees is None and sess.viewer is None:
            return seen_by(self.game, sess.s.data, frozenset())
        return sess.view()

    def sees_unit(self, uid: str) -> bool:
        units = self.shown().units
        return uid in units and self.visible(units[uid])

    def units_at(self, loc: str, view: Any) -> set[str]:
        return {u.id for u in view.at(loc)}

    def unit_place(self, uid: str, view: Any) -> str | None:
        u = view.units.get(uid)
        return u.loc if u is not None else None

    def explain_move(self, uid: str, dest: str) -> Said:
        """The way a unit goes to a location: one line when it cannot get there (why), or its
        ledger step by step; "" when the game has none to give."""
        return ""

    def why_not_move(self, uid: str) -> str:
        """Why a unit that could get somewhere may not move now, in words with the rule ("" if
        it may, or if the game has no such reason)."""
        return ""

    def why_no_order(self, line: str, legal: list[Order]) -> str:
        """Why a short move (``move UNIT PLACE``) of a unit the person sees, to a place of the
        board, is no listed order: the unit cannot get there (``explain_move`` says so in one
        line, where a way there is a ledger), or may not move now (``why_not_move``); "" for
        any other line."""
        w = line.split()
        if len(w) != 3 or w[0].lower() != "move" or ">" in w[2] or w[2] not in self.game.board:
            return ""
        view = self.session.view()
        uid = next((x for x in view.units if x.lower() == w[1].lower()), None)
        if uid is None:
            return ""
        marks = [(o, self.order_marks(o, view)) for o in legal]
        if any(uid in m["u"] and m["t"] == w[2] and verb(o) == "move" for o, m in marks):
            return ""
        said = said_text(self.explain_move(uid, w[2]))
        if not said:
            return ""
        mine = any(uid in m["u"] for _, m in marks)
        if "\n" not in said:  # one line: the reason it cannot get there
            return f"no move of {uid} to {w[2]}: {said}"
        if " cannot reach " in said.split("\n", 1)[0]:  # the reason, and where its ledger is
            return f"no move of {uid} to {w[2]}: {said.split(chr(10), 1)[0]} (explain {uid} {w[2]}: the way, step by step)"
        if why := self.why_not_move(uid):
            return f"no move of {uid} to {w[2]} now: {why}"
        return (f"no move of {uid} to {w[2]} is listed now" + ("" if mine else f" ({uid} has no order now)")
                + f"; its way there: explain {uid} {w[2]}")


class LandPresenter(CounterPresenter):
    """Explanations over the shared land rules, for a game with ``board``, ``tables``,
    ``cites`` and ``query(state, unit)`` (the movement query: MP, enemy ZoC, blocked)."""

    def path_ledger(self, uid: str, path: Sequence[str]) -> Ledger | None:
        """The MP ledger of a unit's path, step by step (14.0-14.2, 12.1), as the person sees
        the board; None for a unit they cannot see."""
        from hexwar.rules.movement import explain_path

        g, d = self.game, self.session.view()
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

    def explain_move(self, uid: str, dest: str) -> Said:
        """The MP ledger of a unit's move to a location as the game lists it at the unit's
        side's decision (14.0-14.2, 12.1; ``queries.reach``): a place the game refuses (13.2
        stacking, 10.1 the fatigue limit ...) is its refusal in one line; a place out of reach,
        why (``why_not_there``)."""
        from hexwar.games.common import queries
        from hexwar.registry import Position

        g, d = self.game, self.session.view()
        u = d.units.get(uid)
        if u is None or not self.visible(u) or u.loc is None:
            return f"{uid}: not a unit you can see on the map"
        if dest == u.loc:
            return f"{uid} is at {dest} already"
        try:
            ans = queries.reach(Position(g, d, None, "this position"), uid, to=dest)
        except queries.Refused as e:
            return str(e)
        except queries.OutOfReach:
            return self.why_not_there(u, dest, g.query(d, u))
        way: Mapping[str, Any] = queries.json_of(ans)["explain"]
        return way

    def why_not_there(self, u: Any, dest: str, q: Any) -> Said:
        """Why a unit cannot reach a location in one movement action: the cheapest way there
        costs more than its MP (that way's ledger), or no way leads there at all (enemy
        units, ZoC or terrain bar it) (14.0-14.2, 12.1)."""
        from dataclasses import replace

        from hexwar.rules.movement import explain_path, reach

        g, d = self.game, self.session.view()
        t = g.tables.types[u.type]
        head = f"{u.id} cannot reach {dest} in one movement action from {u.loc} (MP {q.mp}, {d.weather})"
        far = reach(g.board, g.tables.terrain, d.weather, t.movement_class, u.loc, replace(q, mp=q.mp + 1000))
        if dest not in far:
            return f"{head}: no way leads there, whatever the MP: enemy units, their ZoC or the terrain bar every path (14.1, 12.1)"
        led = explain_path(g.board, g.tables.terrain, d.weather, t.movement_class, far.path(dest), q, g.cites.move)
        return [f"{head}: the cheapest way costs more than that:", led]

    def way_there(self, uid: str, dest: str) -> Said:
        """What a unit picked on the map does to a location the mouse is over: an enemy-held
        one it may assault, never enter by a move (14.1, 15.1); any other, the MP of its
        cheapest way there (``explain_move``)."""
        d = self.session.view()
        u = d.units.get(uid)
        if u is not None and any(x.side != u.side for x in d.at(dest)):
            return f"held by the enemy: {uid} may assault it, not move in (15.1)"
        return self.explain_move(uid, dest)

    def location_lines(self, loc: str, sides: Iterable[str]) -> list[Part]:
        """A location as ``explain <hex>`` gives it: its terrain, the units the person sees
        there, each side's ZoC on it (12.0) and the stacking of the sides they command (13.2)."""
        from hexwar.rules.stacking import explain_stack
        from hexwar.rules.zoc import explain_zoc

        g, d = self.game, self.shown()
        lines: list[Part] = [f"{g.board.label(loc)}: {g.board.terrain(loc)}"]
        for u in d.at(loc):
            lines.append(f"  {u.id if self.visible(u) else '? (face down)'} ({u.side})")
        for side in sides:
            lines.append(explain_zoc(g.board, d, g.tables, loc, side, g.cites.zoc))
            mine = [u for u in d.at(loc) if u.side == side]
            if mine and all(self.visible(u) for u in mine):  # a stack with a face-down counter the person may not see: not itemised
                lines.append(explain_stack(g.board, d, g.tables, loc, side, g.cites.stack))
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
