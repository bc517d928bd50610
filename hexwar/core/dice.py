"""Seeded dice. Every random draw (die rolls, choices, shuffles) goes through here and is
recorded with its outcome, so a log replays without an RNG.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass
from typing import Any, MutableSequence, Sequence

#: What a recorded draw is: six-sided dice, a pick among options, or a permutation.
DRAW_KINDS = ("d6", "choice", "shuffle")


@dataclass(frozen=True)
class Roll:
    """One recorded draw: what it was for, what kind, and its outcome.

    ``faces`` holds the dice for a ``d6`` roll, the index picked for a ``choice`` among
    ``of`` options, and the new order (indices into the old list) for a ``shuffle``.
    """

    purpose: str
    faces: tuple[int, ...]
    kind: str = "d6"
    of: int = 0

    @property
    def total(self) -> int:
        return sum(self.faces)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"purpose": self.purpose, "faces": list(self.faces)}
        if self.kind != "d6":  # d6 rolls keep the short form saves have always had
            d["kind"] = self.kind
            d["of"] = self.of
        return d

    @classmethod
    def from_dict(cls, d: Any) -> "Roll":
        """Rebuild a draw from :meth:`to_dict` output; a malformed one raises ``ValueError``."""
        try:
            purpose, faces = d["purpose"], d["faces"]
            kind, of = d.get("kind", "d6"), d.get("of", 0)
        except (KeyError, TypeError, AttributeError):
            raise ValueError(f"a recorded draw needs 'purpose' and 'faces', not {d!r}") from None
        if (not isinstance(purpose, str) or not isinstance(faces, list) or kind not in DRAW_KINDS
                or not all(type(f) is int for f in faces) or type(of) is not int):
            raise ValueError(f"malformed recorded draw {d!r}")
        if kind == "d6" and not all(1 <= f <= 6 for f in faces):
            raise ValueError(f"a six-sided die shows 1 to 6, not {faces}")
        if kind == "choice" and (len(faces) != 1 or not 0 <= faces[0] < of):
            raise ValueError(f"a choice among {of} options picks one index, not {faces}")
        if kind == "shuffle" and sorted(faces) != list(range(of)):
            raise ValueError(f"a shuffle of {of} items is a permutation of their indices, not {faces}")
        return cls(purpose, tuple(faces), kind, of)


class DiceExhausted(RuntimeError):
    """A replayed game asked for a draw its log does not hold (or holds differently)."""


class Dice:
    """Draws from a seeded ``random.Random``; each one is kept in ``rolls``.

    >>> d = Dice(7); r = d.roll(2, "weather"); c = d.choice(["a", "b", "c"], "set-up")
    >>> again = Dice.replaying(d.rolls)
    >>> again.roll(2, "weather") == r and again.choice(["a", "b", "c"], "set-up") == c
    True
    """

    def __init__(self, seed: int | None = None, rng: random.Random | None = None):
        self.rng = rng if rng is not None else random.Random(seed)
        self.rolls: list[Roll] = []
        self._script: deque[Roll] | None = None

    @classmethod
    def replaying(cls, rolls: Sequence[Roll]) -> "Dice":
        """Return dice that give back recorded draws, in order, and check their purposes."""
        d = cls(0)
        d._script = deque(rolls)
        return d

    @property
    def replay(self) -> bool:
        """Whether these dice give back a log rather than draw."""
        return self._script is not None

    def left(self) -> int:
        """Return how many recorded draws a replay has not used (0 for live dice)."""
        return len(self._script) if self._script is not None else 0

    def stream(self, key: str) -> "Dice":
        """Return dice drawing from their own RNG seeded by ``key``, recorded in this log.

        A game draws from a named stream when a draw must not depend on how many other
        draws came before it (Kampen om Norge shuffles its decks by the game's seed). A
        replay reads the stream's draws back from the same log.
        """
        child = Dice.__new__(Dice)
        child.rng = self.rng if self._script is not None else random.Random(key)
        child.rolls = self.rolls
        child._script = self._script
        return child

    def _next(self, kind: str, purpose: str, n: int, of: int = 0) -> Roll:
        assert self._script is not None
        if not self._script:
            raise DiceExhausted(f"no recorded draw left for {purpose!r}")
        r = self._script.popleft()
        if r.kind != kind or r.purpose != purpose or (kind == "d6" and len(r.faces) != n) or (kind != "d6" and r.of != of):
            want = f"{n}D6" if kind == "d6" else f"a {kind} of {of}"
            have = f"{len(r.faces)}D6" if r.kind == "d6" else f"a {r.kind} of {r.of}"
            raise DiceExhausted(f"log has {have} for {r.purpose!r}, the game asked {want} for {purpose!r}")
        return r

    def roll(self, n: int = 1, purpose: str = "") -> Roll:
        """Roll ``n`` six-sided dice for a stated purpose and record it."""
        if self._script is not None:
            r = self._next("d6", purpose, n)
        else:
            randint = self.rng.randint
            r = Roll(purpose, tuple(randint(1, 6) for _ in range(n)))
        self.rolls.append(r)
        return r

    def choice(self, options: Sequence[Any], purpose: str = "") -> Any:
        """Pick one of ``options`` at random (set-up routines) and record the index picked."""
        if not options:
            raise ValueError("no options to choose from")
        if self._script is not None:
            r = self._next("choice", purpose, 1, len(options))
        else:
            r = Roll(purpose, (self.rng.randrange(len(options)),), "choice", len(options))
        self.rolls.append(r)
        return options[r.faces[0]]

    def shuffle(self, items: MutableSequence[Any], purpose: str = "") -> None:
        """Shuffle ``items`` in place and record the permutation.

        The permutation is drawn by ``random.shuffle`` on the indices, which depends on the
        length only: the same RNG gives the same order as shuffling the items themselves.
        """
        n = len(items)
        if self._script is not None:
            r = self._next("shuffle", purpose, 0, n)
        else:
            order = list(range(n))
            self.rng.shuffle(order)
            r = Roll(purpose, tuple(order), "shuffle", n)
        self.rolls.append(r)
        old = list(items)
        items[:] = [old[i] for i in r.faces]
