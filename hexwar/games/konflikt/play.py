"""Konflikt '47 in the terminal: the shared play loop, with the scenario's status and its
events as sentences."""

from __future__ import annotations

from typing import Any, Mapping

from rich.table import Table

from hexwar.games.konflikt import victory
from hexwar.games.konflikt.state import SIDES
from hexwar.ui.play import Player, sentence


def _pos(e: Mapping[str, Any]) -> str:
    return f" at {e['at']}" if e.get("at") else " (hidden)"


SAY = {
    "roles": lambda e: f"the {e['attacker']} attack",
    "edges": lambda e: "table edges: " + ", ".join(f"{s} {x}" for s, x in e["edges"].items()),
    "marked": lambda e: f"{e['side']} place {'an objective' if e['what'] == 'objective' else 'their base'} at {e['at']}",
    "deployed": lambda e: f"{e['side']} deploy {e['unit']}{_pos(e)}" + (" hidden" if e["hidden"] and e.get("at") else ""),
    "assigned": lambda e: f"{e['side']} put {e['unit']} {e.get('where', 'outflanking (the side is secret)')}",
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
                            + ", ".join(f"{s} {n}" for s, n in e["attrition"].items())),
    "move": lambda e: f"{e['unit']} moves {'>'.join(e['path'])}",
    "eliminated": lambda e: f"{e['unit']} is destroyed",
    "advance": lambda e: f"{e['unit']} advances into {e['to']}",
    "assault": lambda e: (f"assault on {e['target']}: {', '.join(e['attackers'])} against {', '.join(e['defenders'])}, "
                          f"AD {e['ad']}, die {e['die']}: {e['result']}"),
    "fatigue": lambda e: f"{e['unit']} {e['fp']:+d} FP ({e['cause']})",
}


def say(e: Mapping[str, Any]) -> str:
    return sentence(e, SAY)


class KonfliktPlayer(Player):
    """The play loop for a Konflikt '47 scenario."""

    title = "Konflikt '47"
    game_name = "konflikt"

    def describe(self, e: Mapping[str, Any]) -> str:
        return say(e)

    def heading(self, side: str) -> str:
        d = self.view()
        name = self.game.spec_of(d).title if d.template else "scenario"
        stage = "set-up" if d.todo else f"turn {d.turn}" + (f" of {d.last_turn}" if d.last_turn else " (6, a die for 7)")
        return f"{name} · {stage} · {side} decides"

    def status(self) -> None:
        g, d = self.game, self.view()
        sp = g.spec_of(d)
        self.out.print(f"{sp.title} [{sp.source}]: " + (f"the {d.attacker} attack; " if d.attacker else "")
                       + ", ".join(f"{s} from the {e} edge" for s, e in d.edge.items()), markup=False)
        t = Table("side", "on the table", "off the table", "lost", "VP", box=None)
        vp = victory.points(g, d)
        for s in SIDES:
            mine = [u for u in d.units.values() if u.side == s]
            on = [f"{u.id}@{u.loc}" + ("*" if u.concealed else "") for u in mine if u.loc is not None]
            hid = sum(1 for u in mine if u.loc is None and u.concealed)
            off = [f"{u.id} {u.pool}" + (f" {d.flank[u.id]}" if u.id in d.flank else "") for u in mine
                   if u.loc is None and u.pool not in ("eliminated", "removed", "reinforcements")]
            t.add_row(s, " ".join(on) + (f" +{hid} hidden" if hid else ""), ", ".join(off),
                      str(sum(1 for u in mine if u.pool in ("eliminated", "removed"))), str(vp[s]))
        self.out.print(t)
        if d.objectives:
            self.out.print("objectives: " + ", ".join(f"{loc} ({s or 'nobody'})" for loc, s in sorted(d.objectives.items())),
                           markup=False)
        if d.base_at:
            self.out.print("bases: " + ", ".join(f"{s} {loc}" + (" (destroyed)" if s in d.razed else "")
                                                 for s, loc in d.base_at.items()), markup=False)
        if sp.victory["kind"] == "marker":
            self.out.print(f"documents: {'carried by ' + d.carrier if d.carrier else 'on the ground'} at {d.marker}",
                           markup=False)
        self.out.print(f"standing: {victory.standing(g, d)[1]}", markup=False)
