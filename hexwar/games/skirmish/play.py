"""The skirmish ruleset in the terminal and on the web board: the shared play loop, with its
units, hexes, paths and assaults explained over the shared land rules
(``hexwar.games.common.land``), and a move or an assault weighed before it is given. The
Konflikt '47 presenter builds on it."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

from hexwar.core.orders import Move, Order
from hexwar.rules.orders import Assault
from hexwar.rules.ledger import fmt
from hexwar.games.common.asked import before_the_die
from hexwar.games.common.land import LandPresenter, assault_odds_line
from hexwar.ui.words import Part, Said, ledger_before_the_die, said_text


class SkirmishPresenter(LandPresenter):
    """The skirmish ruleset (and the games it hosts) for a person: ``explain`` a unit, a hex,
    a unit's way to a hex, the last assault, or an order by its number or text."""

    title = "Skirmish"
    order_words = {
        "pass": "pass the initiative: two passes in a row end the turn (as 9.2)",
        "move": "move the unit along this path, paying the terrain's MP (14.0)",
        "assault": "assault the hex with adjacent units (15.1)",
    }

    def sides(self) -> tuple[str, ...]:
        return tuple(self.game.spec.sides)

    def unit_line(self, u: Any) -> str:
        """One unit as the hover and ``explain`` show it: kind, strength, MP, fatigue against
        its limit (10.0; artillery and tanks take none, 16.1, 16.2)."""
        t = self.game.tables.types[u.type]
        tired = f", fatigue {u.fatigue}/{t.fatigue_limit} FP" if t.fatigue_limit else ", takes no fatigue"
        return f"{u.id} {u.name}: {t.kind} {t.size}, strength {t.strength}, MP {t.mp}{tired}"

    def hidden_unit(self, uid: str) -> str:
        """What ``explain`` says of a unit the person may not see (a game words its own rule)."""
        return f"{uid}: a face-down counter; you do not know what it is (11.0)"

    def unit_lines(self, u: Any) -> list[Part]:
        """``explain <unit>``: the unit, where it is, its fatigue (10.0, 21.0) and, for the
        side that needs supply, its line of supply (19.2-19.4)."""
        from hexwar.rules.fatigue import explain_fatigue, takes_fatigue
        from hexwar.games.common.narvik_rules import ALWAYS_SUPPLIED

        g, d = self.game, self.session.view()
        lines: list[Part] = [f"{self.unit_line(u)}, {self.whereabouts(u)}", *self.unit_facts(u)]
        if takes_fatigue(g.tables, u):
            lines.append(explain_fatigue(d, g.tables, u.id))
        if u.loc is not None and u.side == g.spec.supply_side:
            if u.nation in ALWAYS_SUPPLIED:
                lines.append(f"{u.nation}: always in supply (19.2)")
            else:
                lines.append(g.supply(d, u).explain())
        return lines

    def whereabouts(self, u: Any) -> str:
        """Where a unit is, or the pool it waits in (a game words its own pools)."""
        return f"at {u.loc or u.pool}"

    def unit_facts(self, u: Any) -> list[str]:
        """What else a game tells of a unit (its own charts), as indented lines."""
        return []

    def about(self, loc: str, unit: str | None = None) -> list[str]:
        """A hex as the web board's hover shows it: terrain, the units seen there and, with a
        unit picked, the MP of its cheapest way there (14.0)."""
        lines = super().about(loc)
        d = self.session.view()
        for u in d.at(loc):
            lines.append("  " + (self.unit_line(u) if self.visible(u) else self.hidden_unit(u.id)))
        picked = d.units.get(unit) if unit else None
        if picked is not None and picked.loc not in (None, loc) and self.visible(picked):
            lines.append(said_text(self.way_there(picked.id, loc)))
        return lines

    def order_note(self, order: Order) -> tuple[str, float | None]:
        """A move's MP along its own path (14.0-14.2); an assault's odds before the die (15.1)."""
        if isinstance(order, Move) and len(order.path) > 1:
            cost = self.path_cost(order.unit, order.path)
            return ("", None) if cost is None else (f"{fmt(cost)} MP", float(cost))
        if isinstance(order, Assault):
            return self.odds_line(before_the_die(self.game, self.session.view(), order)), None
        return "", None

    def odds_line(self, seen: tuple[dict[tuple[int, int], Fraction], dict[str, Any]] | None) -> str:
        """Every result of an assault with its exact chance, before it is made (15.1), from the
        assault fought by the game on a copy, every die (``asked.before_the_die``; None: not
        known)."""
        if seen is None:
            return "odds: not known before the assault"
        return assault_odds_line(self.game.tables.crt, seen[0])

    def explain_order(self, order: Order) -> Said:
        """A move's MP step by step along its own path (14.0-14.2, 12.1); an assault's
        strengths, AFL, AD and DRMs as it would be fought, up to the CRT column, and the exact
        odds of every result (15.1)."""
        if isinstance(order, Move) and len(order.path) > 1:
            led = self.path_ledger(order.unit, order.path)
            if led is not None:
                return [order.text(), led]
        if isinstance(order, Assault):
            seen = before_the_die(self.game, self.session.view(), order)
            if seen is not None:  # fought on a copy: its ledger and its odds
                return [order.text(), ledger_before_the_die(seen[1]["ledger"]), f"before the die: {self.odds_line(seen)}"]
        return super().explain_order(order)

    def last_assault(self) -> Said:
        """The ledger of the last assault the person saw (15.1)."""
        ev = next((ev for _, ev in self.session.newest_events("assault") if ev.get("ledger")), None)
        if ev is None:
            return "no assault yet"
        fought: Mapping[str, Any] = ev["ledger"]
        return fought

    def explain(self, what: str) -> Said:
        g, d = self.game, self.session.view()
        parts = what.split()
        if len(parts) == 2 and parts[0] in d.units and parts[1] in g.board:
            return self.explain_move(parts[0], parts[1])
        if what in ("", "last"):
            return self.last_assault()
        if what in d.units:
            u = d.units[what]
            return self.unit_lines(u) if self.visible(u) else self.hidden_unit(what)
        if what in g.board:
            return self.location_lines(what, self.sides())
        place = min(g.board.locations())
        return (f"explain what? a unit, a place like {place}, a unit and a place (its way there), an order's "
                f"number, or last (not {what!r})")
