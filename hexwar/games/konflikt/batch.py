"""What a batch of Konflikt '47 games records: one CSV row per game (the scenario's winner and
VP, losses and fatigue by side) and the assaults fought beside their exact odds on the host
ruleset's differential CRT."""

from __future__ import annotations

from typing import Any, Sequence

from hexwar.core.observe import Observer as BaseObserver
from hexwar.games.common import front
from hexwar.sim.differential import AssaultTally, differential_exact

SCALE = ("Konflikt '47: a turn is one draw of every order die (each unit acts once), 6 turns and a die for a "
         "7th (1); a unit is a squad-to-company counter of the host ruleset, a location a 3-inch hex or an area "
         "of 12 x 15 inches of a 48 x 72 inch table.")

BOARD_NOTES = {
    "table-areas": "On the area table a unit moves one area an action (an area is 4 x 5 hexes), distances in "
                   "inches become area steps (3 inches: the same area; 6 to 18: the next one; 24: two), and "
                   "stacking limits hold per area.",
}


def board_scale(name: str, game: Any) -> str:
    """A table's scale and conversion, read off the table the templates are measured on
    (``templates.yaml``'s ``scale``): inches a hex step, and the area steps inches become."""
    t = game.table
    if t.hexes:
        return (f"{t.inches}-inch hexes, {len(t.depth)} of them ({t.rows} rows), on which every distance of the "
                f"templates is counted in hex steps of {t.inches} inches (the scale's inches_per_hex)")
    steps = "; ".join(f"up to {k} inches: {v} step{'s' if v != 1 else ''}" for k, v in sorted(t.steps.items()))
    return (f"{len(t.depth)} areas merged from the {t.inches}-inch hexes ({t.rows} hex rows deep); a move goes one "
            f"area an action, and a distance in inches becomes area steps ({steps}: the scale's area_steps)")


def reach_lines(boards: Sequence[tuple[str, Any]]) -> list[str]:
    """Reach before results (issue 72), asked of each table's own orders (``reach.py``)."""
    from hexwar.games.konflikt import reach

    return reach.lines(boards)


class Observer(AssaultTally, BaseObserver):
    """Every assault's CRT look-up; the objectives vary by scenario, so no 'fell' column."""

    def __init__(self, game: Any):
        super().__init__({})
        self.g = game
        self.combats: dict[str, dict[str, int]] = {}

    def row(self, view: Any) -> dict[str, Any]:
        d = view.data
        res = view.result()
        loss = {s: 0 for s in ("allies", "germans")}
        fatigue = {s: 0 for s in ("allies", "germans")}
        for u in d.units.values():
            if u.pool in ("eliminated", "removed"):
                loss[u.side] += 1
            elif u.loc is not None:
                fatigue[u.side] += u.fatigue
        return {**super().row(view), **front.columns(self, self.combats, res, res.vp, {"template": d.template}, loss["germans"], loss["allies"]),
                "fatigue_germans": fatigue["germans"], "fatigue_allies": fatigue["allies"]}


def exact(game: Any, rows: list[dict[str, Any]], min_n: int) -> list[dict[str, Any]]:
    return differential_exact(game.tables.crt, rows, min_n)


def board_lines(boards: Sequence[tuple[str, Any]]) -> list[str]:
    """What each table gives the templates: locations, edge and zone sizes, the centre."""
    out = ["| # | board | locations | on the north edge | in the north set-up zone | centre |", "|---|---|---|---|---|---|"]
    for i, (name, g) in enumerate(boards, 1):
        t = g.table
        out.append(f"| {i} | {name} | {len(t.depth)} | {len(t.edge_locs['north'])} | {len(t.zone('north', g.zone_in))} | {t.centre} |")
    return out
