"""What a batch of Europa "Narvik" games records: one CSV row per game, and the combats fought
set beside their exact odds on the odds CRT (E1)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hexwar.sim.runner import pool_combats

from hexwar.core.observe import Observer as BaseObserver
from hexwar.games.common import front
from hexwar.games.europa.state import ALLIES, GERMANS

SCALE = ("Europa \"Narvik\": a turn is 4 days (E1), 16 turns from 9 April; a hex is 26 km; units are battalions "
         "and regiments; the whole of Norway is in play and the seven ports decide (E2).")
#: results that hurt the defender (the quantity the reports check against the exact odds)
DEFENDER_HIT = ("DE", "DR", "EX", "DD")


class Observer(BaseObserver):
    """After every order: the first turn the Allies own each of the seven ports (E2; "Narvik
    falls" means the Allies take it, as in Assault on Narvik), and every CRT column read."""

    def __init__(self, game: Any):
        super().__init__({h: game.board.place(h).name.lower() for h in game.victory_ports})
        self.g = game
        self.combats: dict[str, dict[str, int]] = {}

    def held(self, d: Any, loc: str) -> bool:
        return bool(d.owner.get(loc) == ALLIES)

    def event(self, ev: dict[str, Any]) -> None:
        if ev["type"] == "attack":
            self.combats.setdefault(ev["column"], {}).setdefault(ev["result"], 0)
            self.combats[ev["column"]][ev["result"]] += 1

    def fought_at(self, ev: dict[str, Any]) -> str | None:
        return ev["target"] if ev["type"] == "attack" else None  # E1: a combat on a hex

    def move_length(self, ev: dict[str, Any]) -> int | None:
        return len(ev["path"]) - 1 if ev["type"] == "move" else None

    def lost_by(self, ev: dict[str, Any]) -> tuple[str, int] | None:
        return (ev["rule"], 1) if ev["type"] in ("eliminated", "lost") else None

    def row(self, view: Any) -> dict[str, Any]:
        g, d = self.g, view.data
        res = view.result()
        by_type: dict[str, int] = {}
        loss = {GERMANS: 0, ALLIES: 0}
        for u in d.units.values():
            if u.pool == "eliminated":
                t = g.t(u)
                by_type[f"{u.side}:{t.kind}"] = by_type.get(f"{u.side}:{t.kind}", 0) + 1
                if g.ground(u):
                    loss[u.side] += 1
        return {**super().row(view), **front.columns(self, self.combats, res, d.vp, by_type, loss[GERMANS], loss[ALLIES])}


def exact(game: Any, rows: list[dict[str, Any]], min_n: int) -> list[dict[str, Any]]:
    """P(a result that hurts the defender) for each CRT column fought, exact over the die (E1)."""
    from hexwar.rules.combat import odds_outcomes

    pooled = pool_combats(rows)
    out = []
    cols = {c.label: c for c in game.crt.columns}
    for label, results in sorted(pooled.items()):
        n = sum(results.values())
        if n < min_n or label not in cols:
            continue
        c = cols[label]
        dist = odds_outcomes(game.crt, c.attack, c.defence)
        ex = sum((p for res, p in dist if res in DEFENDER_HIT), Fraction(0))
        hits = sum(k for res, k in results.items() if res in DEFENDER_HIT)
        out.append({"combat": f"column {label}", "quantity": "defender hit (DE, DR, EX, DD)", "n": n, "hits": hits, "exact": ex})
    return out
