"""How a game ends or stands (:class:`Result`): what every game's ``result`` returns and what
the engine, the bots and the batches read."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Result:
    """How a game ended (or stands): winner, victory level, the tally per side (VP, or
    what the game counts)."""

    over: bool
    winner: str | None
    level: str
    vp: dict[str, int]
