"""Konflikt '47 in the terminal: the shared play loop, with the scenario's status and its
events as sentences."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any, Mapping

from rich.table import Table

from hexwar.core.orders import Order
from hexwar.games.konflikt import victory
from hexwar.games.konflikt.orders import Assign, Down, Enter, Leave
from hexwar.games.konflikt.state import EXITED, FIRST_WAVE, FLANK, RESERVE, SIDES, UNSET
from hexwar.games.skirmish.play import SkirmishPresenter
from hexwar.rules.dicecombat import totals
from hexwar.ui.words import Said, sentence


def _pos(e: Mapping[str, Any]) -> str:
    return f" at {e['at']}" if e.get("at") else " (hidden)"


def _assigned(unit: str, where: str | None) -> str:
    """Where a unit set up off the table waits (3.4, 3.5): the outflanking side is secret."""
    if where is None:
        return f"send {unit} outflanking (the side is secret)"
    if where.startswith("outflank"):
        return f"send {unit} outflanking on the {where.split()[-1]}"
    return f"put {unit} in {'the first wave' if where == 'first wave' else where}"


SAY = {
    "roles": lambda e: f"the {e['attacker']} attack",
    "edges": lambda e: "table edges: " + ", ".join(f"{s} {x}" for s, x in e["edges"].items()),
    "marked": lambda e: f"{e['side']} place {'an objective' if e['what'] == 'objective' else 'their base'} at {e['at']}",
    "deployed": lambda e: f"{e['side']} deploy {e['unit']}{_pos(e)}" + (" hidden" if e["hidden"] and e.get("at") else ""),
    "assigned": lambda e: f"{e['side']} {_assigned(e['unit'], e.get('where'))}",
    "bombardment": lambda e: f"{e['side']} call a bombardment: {e['face']}, " + ("it falls" if e["falls"] else "none"),
    "bombarded": lambda e: f"bombardment on {e['unit']}: {e['face']}, {e['points']} result point(s)",
    "turn": lambda e: f"--- turn {e['turn']}: order dice " + ", ".join(f"{s} {n}" for s, n in e["dice"].items()),
    "ambushed": lambda e: f"{e['unit']} runs into a hidden enemy and stops at {e['at']}",
    "left": lambda e: f"{e['side']} take {e['unit']} off the table from {e['from']}",
    "down": lambda e: f"{e['side']} give {e['unit']} a Down order",
    "order_test": lambda e: (f"order test for {e['unit']}: {e['faces']} = {sum(e['faces'])} against {e['needs']}: "
                             + ("passed" if e["passed"] else "failed, it stays off the table")),
    "flank_note": lambda e: f"{e['side']} show their outflanking note: " + ", ".join(f"{u} {h}" for u, h in e["flanks"].items()),
    "entered": lambda e: f"{e['side']} bring {e['unit']} on at {e['at']}",
    "revealed": lambda e: f"{e['unit']} is spotted at {e['at']} by {e['by']}",
    "marker_dropped": lambda e: f"the documents lie on the ground at {e['at']}",
    "marker_seized": lambda e: f"{e['side']} ({e['unit']}) seize the documents at {e['at']}",
    "objective": lambda e: f"{e['side']} take the objective at {e['at']}",
    "base_destroyed": lambda e: f"the {e['side']}' base is blown up by {e['by']}",
    "game_length": lambda e: f"end of turn 6: a {e['face']}: the game ends after turn {e['last_turn']}",
    "missing": lambda e: f"{e['unit']} ({e['side']}) never arrived: counted destroyed",
    "game_over": lambda e: (f"GAME OVER ({e['why']}): {e['level']}; attrition "
                            + ", ".join(f"{s} {n}" for s, n in e["attrition"].items())
                            + (f"; {e['on_attrition']}" if e.get("on_attrition") else "")),
    "move": lambda e: f"{e['unit']} moves {'>'.join(e['path'])}",
    "eliminated": lambda e: f"{e['unit']} is destroyed",
    "advance": lambda e: f"{e['unit']} advances into {e['to']}",
    "assault": lambda e: (f"assault on {e['target']}: {', '.join(e['attackers'])} against {', '.join(e['defenders'])}, "
                          f"AD {e['ad']}, die {e['die']}: {e['result']}"),
    "fatigue": lambda e: f"{e['unit']} {e['fp']:+d} FP ({e['cause']})",
}


def say(e: Mapping[str, Any]) -> str:
    return sentence(e, SAY)


class KonfliktPresenter(SkirmishPresenter):
    """A Konflikt '47 scenario for a person."""

    title = "Konflikt '47"
    order_words = {
        "pass": "do nothing more at this step (4)",
        "move": "move the unit along this path, paying each location's MP (14.0)",
        "assault": "assault the enemy-held location with adjacent units (15.1)",
    }
    glossary_examples = ("reserves", "hidden")
    past = {"deploy": "set up a unit", "down": "put a unit Down", "enter": "brought a unit on", "first": "put a unit in the first wave",
            "leave": "took a unit off the table", "mark": "placed an objective or base", "outflank": "sent a unit to outflank",
            "pick": "made a set-up choice", "reserve": "kept a unit in reserve"}
    #: the scenario rules' terms (the digest's K47 sections); distances as the rules give them,
    #: in inches (a hex of the table is 3)
    glossary = {
        "requisition points": ("what a unit costs from its army list; the standard game is 1,000 a side, and the "
                               "scenarios' scoring assumes it", "0"),
        "first wave": ("the units that must come on from their own table edge on turn 1, each with Run or Advance "
                       "and no order test", "1"),
        "game length": ("at the end of turn 6 a die: 1-3 the game ends, 4-6 one more turn; 7 turns at most", "1"),
        "reserves": ("units neither set up nor in the first wave: they do nothing on turn 1 (Top Secret aside); from "
                     "turn 2 each may come on from its own edge with Advance or Run after an order test at -1; one "
                     "that never arrives counts as destroyed", "3.4"),
        "order test": ("2D6 at most the unit's morale less its penalties, as a reserve entering the table takes (-1)",
                       "3.4"),
        "outflanking": ("reserves sent left or right, written down in secret: from turn 3 they come on by that side "
                        "edge, within 24 inches of their own edge and 6 more each later turn", "3.5"),
        "hidden": ("a unit set up in cover or out of sight of every enemy: off the enemy's map and orders; revealed "
                   "when it fires, advances or runs, is hit, or an enemy comes within 12 inches (infantry, artillery, "
                   "recce) or 6 (any other)", "3.1"),
        "bombardment": ("the preparatory bombardment, where the scenario gives the attacker one (on a 2+): a die for "
                        "each unit in the enemy's set-up zone on the bombardment chart (the chart is ours, authored)",
                        "3.3"),
        "objective": ("a marker held by the side with infantry or artillery within 3 inches of it and no enemy "
                      "there, kept until the enemy retakes it", "2.3, 2.4"),
        "documents": ("Top Secret: picked up at the centre by infantry, carried, dropped when the carrier falls; "
                      "carried off one's own edge they win", "2.5"),
        "base": ("Demolition: each side's base, 6 inches from its edge, destroyed by an enemy unit touching it at "
                 "the end of a turn", "2.6"),
        "attrition": ("the precise score given at the end: each event a unit earns VP for (a kill, a unit in the "
                      "enemy's zone, an exit) at its VP times the unit's cost; in an objective scenario each kill at "
                      "its cost, the winner's doubled, the loser's capped 10 below the winner's; an outright victory "
                      "needs a lead of 20% of the forces' value (200 at 1,000 points), else it is a draw", "3.6"),
    }

    def describe(self, e: Mapping[str, Any]) -> str:
        return say(e)

    # --- explain: a unit, its order test, an order before it is given --------------------------

    def hidden_unit(self, uid: str) -> str:
        return f"{uid}: hidden; where it is shows when it is revealed (3.1)"

    def order_test(self, u: Any) -> tuple[int, Fraction]:
        """The order test a unit off the table takes to come on: 2D6 at most its morale with
        the entry's modifier (-1), and the chance it passes (3.4, 3.5)."""
        need = self.game.order_test_needs(u)
        return need, sum((p for t, p in totals(2).items() if t <= need), Fraction(0))

    def test_words(self, u: Any) -> str:
        need, p = self.order_test(u)
        mod = int(self.game.t.reserves["test_modifier"].value)
        return f"order test 2D6 <= {need} (morale {self.game.t.units[u.type].morale}, {mod:+d}): {float(p):.0%}"

    def whereabouts(self, u: Any) -> str:
        d = self.session.view()
        if u.loc is not None:
            return f"at {u.loc}" + (", hidden: off the enemy's map until revealed (3.1)" if u.concealed else "")
        if u.pool == UNSET:
            return "to set up"
        if u.pool in (FIRST_WAVE, RESERVE, FLANK):
            # the enemy's side is his secret until his first outflanker arrives
            return self.waiting_words(u, u.pool, d.flank.get(u.id))
        if u.pool == EXITED:
            return "taken off the table"
        if u.pool == "removed":
            return "never arrived: counted destroyed (3.4)"
        return "destroyed" if u.pool == "eliminated" else f"at {u.pool}"

    def waiting_words(self, u: Any, pool: str, hand: str | None) -> str:
        """How a unit off the table comes on: in the first wave (1), from reserve (3.4), or
        outflanking by ``hand``'s side edge (3.5; None: a side kept secret), with its order test."""
        g, d = self.game, self.session.view()
        r = g.t.reserves
        if pool == FIRST_WAVE:
            return "in the first wave: comes on at its own edge on turn 1, with no order test (1)"
        if pool == RESERVE:
            first = 1 if g.spec_of(d).reserves_turn_one else int(r["from_turn"].value)
            return f"in reserve: may come on at its own edge from turn {first}, {self.test_words(u)} (3.4)"
        where = f"on the {hand}: may come on by that side edge" if hand else \
            "on a side kept secret: may come on by a side edge"
        return f"outflanking {where} from turn {int(r['outflank_from_turn'].value)}, {self.test_words(u)} (3.5)"

    def assign_words(self, order: Assign) -> str:
        """Where a set-up order puts a unit and what follows from it: on the table (hidden
        where the scenario allows it and the hex is cover, 3.1), or waiting off it."""
        g, d = self.game, self.session.view()
        u = d.units[order.unit]
        if order.where.startswith(FLANK):  # "outflank left": the side is the player's own secret
            return self.waiting_words(u, FLANK, order.where.split()[-1])
        if order.where != "table":
            return self.waiting_words(u, order.where, None)
        here = f"sets up at {g.board.label(order.at)} ({g.board.terrain(order.at)})"
        if order.hidden:
            return f"{here}, hidden: in cover, off the enemy's map and orders until revealed (3.1)"
        if replace(order, hidden=True) in self.s.legal_orders():
            return here + "; it may set up hidden here instead, being in cover (3.1)"
        if g.cover(order.at):
            return here + "; in cover, but this set-up is not hidden (3.1: only where the scenario allows it)"
        return here

    def unit_facts(self, u: Any) -> list[str]:
        spec = self.game.t.units[u.type]
        return [f"  morale {spec.morale}, cost {spec.cost} requisition points [3.4, 3.6]"
                + (" (our authored values: tables/konflikt/templates.yaml)" if spec.source.startswith("authored") else "")]

    def order_note(self, order: Order) -> tuple[str, float | None]:
        """A unit coming on: its order test and its chance (3.4, 3.5), or none in the first
        wave (1); a move's MP and an assault's odds as the host ruleset's."""
        if isinstance(order, Enter):
            u = self.session.view().units[order.unit]
            if u.pool == FIRST_WAVE:
                return "first wave: no order test  [1]", None
            return f"{self.test_words(u)}  [{'3.5' if u.pool == FLANK else '3.4'}]", None
        return super().order_note(order)

    def explain_order(self, order: Order) -> Said:
        if isinstance(order, Enter):
            u = self.session.view().units[order.unit]
            note = self.order_note(order)[0]
            fail = "" if u.pool == FIRST_WAVE else "; failed, it stays off the table and its order is spent"
            return f"{order.text()}: {note}{fail}"
        if isinstance(order, Assign):
            return f"{order.text()}: {self.assign_words(order)}"
        if isinstance(order, Down):
            return f"{order.text()}: the unit waits, and its order die is spent  [3.4]"
        if isinstance(order, Leave):
            d = self.session.view()
            scores = self.game.spec_of(d).points
            pts = (scores.get(self.game.role(d, order.side)) or scores.get("both") or {}).get("exited")
            why = f"{pts} VP for each unit that leaves by the enemy's edge  [2.1]" if pts else \
                "the documents carried off your own edge win the game  [2.5]"
            return f"{order.text()}: {why}"
        return super().explain_order(order)

    def brief(self) -> list[tuple[str, list[str]]]:
        from hexwar.games.konflikt import briefing

        return briefing.brief(self)

    def heading(self, side: str) -> str:
        d = self.session.view()
        name = self.game.spec_of(d).title if d.template else "scenario"
        stage = "set-up" if d.todo else f"turn {d.turn}" + (f" of {d.last_turn}" if d.last_turn else " (6, a die for 7)")
        return f"{name} · {stage} · {side} decides"

    def status_lines(self) -> list[Any]:
        g, d = self.game, self.session.view()
        sp = g.spec_of(d)
        out: list[Any] = [f"{sp.title} [{sp.source}]: " + (f"the {d.attacker} attack; " if d.attacker else "")
                          + ", ".join(f"{s} from the {e} edge" for s, e in d.edge.items())]
        t = Table("side", "on the table", "off the table", "lost", "VP", box=None)
        vp = victory.points(g, d)
        for s in SIDES:
            mine = [u for u in d.units.values() if u.side == s]
            on = [f"{u.id}@{u.loc}" + ("*" if u.concealed else "") for u in mine if u.loc is not None]
            hid = sum(1 for u in mine if u.loc is None and u.concealed)
            off: dict[str, list[str]] = {}  # where they wait (to set up, first wave, reserve ...) -> units
            for u in mine:
                if u.loc is None and u.pool not in ("eliminated", "removed", "reinforcements"):
                    off.setdefault(u.pool + (f" {d.flank[u.id]}" if u.id in d.flank else ""), []).append(u.id)
            t.add_row(s, " ".join(on) + (f" +{hid} hidden" if hid else ""), "; ".join(f"{k}: {' '.join(sorted(v, key=lambda i: (len(i), i)))}" for k, v in off.items()),
                      str(sum(1 for u in mine if u.pool in ("eliminated", "removed"))), str(vp[s]))
        out.append(t)
        if d.objectives:
            out.append("objectives: " + ", ".join(f"{loc} ({s or 'nobody'})" for loc, s in sorted(d.objectives.items())))
        if d.base_at:
            out.append("bases: " + ", ".join(f"{s} {loc}" + (" (destroyed)" if s in d.razed else "")
                                             for s, loc in d.base_at.items()))
        if sp.victory["kind"] == "marker":
            out.append(f"documents: {'carried by ' + d.carrier if d.carrier else 'on the ground'} at {d.marker}")
        out.append(f"standing: {victory.standing(g, d)[1]}")
        return out
