"""Seeded dice. Every random draw goes through here and is recorded, so a log replays without an RNG."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Sequence


@dataclass(frozen=True)
class Roll:
    """One recorded roll: what it was for, and the faces."""

    purpose: str
    faces: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.faces)

    def to_dict(self) -> dict[str, Any]:
        return {"purpose": self.purpose, "faces": list(self.faces)}


class DiceExhausted(RuntimeError):
    """A replayed game asked for more rolls than its log holds."""


class Dice:
    """Six-sided dice from a seeded ``random.Random``; each roll is kept in ``rolls``.

    >>> d = Dice(7); r = d.roll(2, "weather")
    >>> Dice.replaying(d.rolls).roll(2, "weather") == r
    True
    """

    def __init__(self, seed: int | None = None, rng: random.Random | None = None):
        self.rng = rng if rng is not None else random.Random(seed)
        self.rolls: list[Roll] = []
        self._script: list[Roll] | None = None

    @classmethod
    def replaying(cls, rolls: Sequence[Roll]) -> "Dice":
        """Return dice that give back recorded rolls, in order, and check their purposes."""
        d = cls(0)
        d._script = list(rolls)
        return d

    def roll(self, n: int = 1, purpose: str = "") -> Roll:
        """Roll ``n`` six-sided dice for a stated purpose and record it."""
        if self._script is not None:
            if not self._script:
                raise DiceExhausted(f"no recorded roll left for {purpose!r}")
            r = self._script.pop(0)
            if r.purpose != purpose or len(r.faces) != n:
                raise DiceExhausted(f"log has a {len(r.faces)}D6 roll for {r.purpose!r}, the game asked {n}D6 for {purpose!r}")
        else:
            r = Roll(purpose, tuple(self.rng.randint(1, 6) for _ in range(n)))
        self.rolls.append(r)
        return r

    def choice(self, options: Sequence[Any], purpose: str = "") -> Any:
        """Pick one of ``options`` with the dice' RNG (bots and set-up routines)."""
        if not options:
            raise ValueError("no options to choose from")
        return options[self.rng.randrange(len(options))]
