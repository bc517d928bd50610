"""Vestfjord Patrol for a person: its words, its explanations (every chance with its rule),
and what each order risks before it is given. The terminal and the web board ask this for
every word they show."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

from hexwar.core.orders import Move, Order, Pass
from hexwar.ui.presenter import Presenter
from hexwar.ui.words import Said
from vestfjord.game import UBOAT, Charge, Dive, PatrolData, PatrolGame, Ping, load_charts

_C = load_charts()  # the numbers the glossary quotes


def chance(need: int) -> str:
    """The chance of a die at least ``need`` on one six-sided die, as a fraction and a percentage."""
    p = Fraction(max(0, 7 - need), 6)
    return f"{p.numerator}/{p.denominator} ({float(p):.0%})" if 0 < p < 1 else f"{float(p):.0%}"


def describe(e: Mapping[str, Any]) -> str:
    """One event as a sentence."""
    t = e["type"]
    if t == "dived":
        return f"the U-boat dives{' at ' + e['at'] if e['at'] else ''} (2.0)"
    if t == "moved":
        return f"{e['unit']} moves {' > '.join(e['path'])} ({e['rule']})"
    if t == "sonar":
        return f"{e['ship']} pings at {e['at']}: die {e['die']}, " + ("contact!" if e["contact"] else "nothing heard") + " (4.0)"
    if t == "depth_charge":
        return (f"{e['ship']} drops depth charges on {e['target']}: die {e['die']} (sinks on {e['need']}+), "
                + ("the U-boat is sunk!" if e["sunk"] else "no wreckage") + " (5.0)")
    if t == "turn_end":
        return f"end of turn {e['turn']} (3.0)"
    if t == "game_end":
        return f"game over: the {e['winner']} win, {e['why']} ({e['rule']})"
    return str(t)


class PatrolPresenter(Presenter):
    """The example game's presenter: everything a person reads of Vestfjord Patrol."""

    title = "Vestfjord Patrol"
    glossary = {
        "sonar": (f"a destroyer pings instead of moving; contact on a die of {_C.sonar.same_hex}+ in its own hex, "
                  f"{_C.sonar.adjacent}+ next to it; contact shows the U-boat until it moves", "4.0"),
        "depth charge": (f"a destroyer attacks its own hex or the next: a U-boat there is sunk on "
                         f"{_C.depth_charge.contact}+ with contact, {_C.depth_charge.blind}+ blind", "5.0"),
        "contact": ("what sonar gives: the destroyers see the U-boat's hex until it next moves", "4.0"),
        "harbour": ("the hex the U-boat must reach to win (the Ofotfjord mouth)", "6.0"),
    }
    glossary_examples = ("sonar", "contact")
    past: Mapping[str, str] = {"dive": "dived", "ping": "pinged", "charge": "dropped depth charges"}

    game: PatrolGame

    def brief(self) -> list[tuple[str, list[str]]]:
        g, d = self.game, self.session.view()
        ships = [f"{u.name} at {u.loc}" for u in g.destroyers(d)]
        now = {"set-up": "the U-boat dives on the west edge (2.0)", "uboat": "the U-boat moves or lies still (3.1)",
               "navy": "each destroyer steams, pings or drops depth charges; a pass ends your turn (3.2)"}
        return [("Aims and victory", [f"the U-boat wins on reaching {g.harbour}; the navy wins by sinking it, or when "
                                      f"turn {g.spec.turns} ends (6.0)"]),
                ("Length", [f"{g.spec.turns} turns; now turn {d.turn}"]),
                ("The destroyers", ships),
                ("The decision before you", [now.get(d.phase, "none: the game is over")])]

    def heading(self, side: str) -> str:
        d: PatrolData = self.session.view()
        return f"turn {d.turn} of {self.game.spec.turns} · {d.phase} · the {side} decide"

    def tracks(self) -> list[str]:
        d: PatrolData = self.session.view()
        return [f"turn {d.turn} of {self.game.spec.turns}",
                f"contact: {d.contact}" if d.contact else "no contact",
                f"destroyers that have acted: {', '.join(d.acted) or 'none'}"]

    def status_lines(self) -> list[Any]:
        return [self.s.result().level, *self.tracks()]

    def final_line(self) -> str:
        r = self.s.result()
        return f"{r.level}: the {r.winner} win" if r.over else r.level

    def describe(self, e: Mapping[str, Any]) -> str:
        return describe(e)

    def sees_unit(self, uid: str) -> bool:
        u = self.session.view().units.get(uid)
        return u is not None and u.loc is not None

    def units_at(self, loc: str, view: Any) -> set[str]:
        return {u.id for u in view.at(loc)}

    def unit_place(self, uid: str, view: Any) -> str | None:
        u = view.units.get(uid)
        return u.loc if u is not None else None

    def order_note(self, order: Order) -> tuple[str, float | None]:
        g, sonar = self.game, self.game.charts.sonar
        if isinstance(order, Ping):
            return f"contact: {chance(sonar.same_hex)} in its hex, {chance(sonar.adjacent)} next to it", None
        if isinstance(order, Charge):
            need = g.charge_need(self.session.view(), order.target)
            return f"sinks a U-boat in {order.target} on {need}+: {chance(need)}", None
        if isinstance(order, Move):
            return f"{len(order.path) - 1} hex{'es' if len(order.path) > 2 else ''}", float(len(order.path))
        return "", None

    def explain_order(self, order: Order) -> Said:
        g, d = self.game, self.session.view()
        if isinstance(order, Dive):
            return f"{order.text()}: the U-boat starts at {order.at}, unseen; it must reach {g.harbour} by turn {g.spec.turns} (2.0, 6.0)"
        if isinstance(order, Pass):
            if order.side == "uboat":
                return "pass: the U-boat lies still; contact, if the destroyers hold it, holds too (3.1, 4.0)"
            return "pass: the destroyers that have not acted do nothing this turn (3.2)"
        if isinstance(order, Charge):
            why = "with contact there" if d.contact == order.target else "blind: no contact there"
            return f"{order.text()}: {why}; {self.order_note(order)[0]} (5.0)"
        if isinstance(order, Ping):
            return f"{order.text()}: {self.order_note(order)[0]}; out of range, nothing (4.0)"
        if isinstance(order, Move):
            who = "the U-boat, one sea hex a turn" if order.unit == UBOAT else f"a destroyer, up to {g.charts.speed.destroyer} sea hexes"
            return f"{order.text()}: {who} (3.1, 3.2)"
        return super().explain_order(order)

    def explain(self, what: str) -> Said:
        g, d = self.game, self.session.view()
        if what in d.units:
            u = d.units[what]
            if u.loc is None:
                return f"{u.name}: unseen: submerged somewhere in the fjord (3.1, 4.0)" if u.side == "uboat" else f"{u.name}: {u.pool}"
            acted = " (has acted this turn)" if u.id in d.acted else ""
            return f"{u.name} at {u.loc}{acted}"
        if what in g.board:
            return "\n".join(self.about(what))
        for term, (meaning, rule) in self.glossary.items():
            if what == term:
                return f"{term}: {meaning} ({rule})"
        return f"explain what? a ship ({', '.join(sorted(d.units))}), a hex like {g.harbour}, or {', '.join(self.glossary)} (not {what!r})"
