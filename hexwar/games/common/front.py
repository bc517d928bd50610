"""What a batch of a game on the Narvik front records and reports: the columns its rows
share with the other front games (Kampen om Norge, Assault on Narvik, Europa, Konflikt '47),
and the metrics a comparison reads from them. The games fill the columns the same way, so a
report can set one game's figures beside another's."""

from __future__ import annotations

import json

from typing import Any, Mapping

from hexwar.core.metrics import Mean, Rate, Row, When
from hexwar.core.observe import Observer
from hexwar.core.result import Result

#: the front games' own batch columns (after the base ones); nested figures are JSON
COLUMNS = ("allied_win", "vp_germans", "vp_allies", "fell", "losses", "loss_germans", "loss_allies", "combats")


def columns(obs: Observer, combats: object, res: Result, vp: Mapping[str, int], losses: Mapping[str, Any],
            loss_germans: int, loss_allies: int) -> dict[str, Any]:
    """The front games' own columns (:data:`COLUMNS`) of one finished game, filled the same way
    by each: an Allied win (Norway's counts as the Allies'), each side's victory points, when
    each objective first fell (``obs.fell``), the combats the game tallies, and the losses."""
    return {"allied_win": int(res.winner == "allies"), "vp_germans": vp.get("germans", 0), "vp_allies": vp.get("allies", 0),
            "fell": json.dumps(obs.fell, sort_keys=True), "combats": json.dumps(combats, sort_keys=True),
            "losses": json.dumps(losses, sort_keys=True), "loss_germans": loss_germans, "loss_allies": loss_allies}


def _share(r: Row) -> float | None:
    """The German share of the game's losses (scale-free: a Kampen battalion is no Narvik company)."""
    g, a = float(r["loss_germans"]), float(r["loss_allies"])
    return g / (g + a) if g + a else None


ALLIED_WIN = Rate("allied_win", "Allied wins (95% CI)", lambda r: r["allied_win"] == "1", ci=True,
                  test="Allied win rate", figure="Allied (Norway + Allies) win rate, 95% Wilson interval")
GERMAN_WINS = Rate("german_wins", "German wins", lambda r: r["winner"] == "germans")
NO_WINNER = Rate("no_winner", "no winner", lambda r: r["winner"] == "")
NARVIK_FALLS = When("narvik_falls", "Narvik falls", "when it falls", lambda r: json.loads(r["fell"]).get("narvik"),
                    figure="Narvik first fell to the Allies")
LOSS_GERMANS = Mean("loss_germans", "German losses", lambda r: float(r["loss_germans"]), box="German losses")
LOSS_ALLIES = Mean("loss_allies", "Allied losses", lambda r: float(r["loss_allies"]), box="Allied losses")
GERMAN_SHARE = Mean("german_share", "", _share, test="German share of losses", said="The German share of all losses")

#: the metrics of a game fought over Narvik (its rows note when the town fell)
NARVIK_FRONT = (ALLIED_WIN, GERMAN_WINS, NO_WINNER, NARVIK_FALLS, LOSS_GERMANS, LOSS_ALLIES, GERMAN_SHARE)
#: the same, for a game with no Narvik to take (Konflikt '47's templates)
NO_TOWN = (ALLIED_WIN, GERMAN_WINS, NO_WINNER, LOSS_GERMANS, LOSS_ALLIES, GERMAN_SHARE)
