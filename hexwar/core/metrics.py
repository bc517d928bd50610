"""What a game's batch rows measure, declared by the game: the simulator and the reports
read its figures through these records and name no side, objective or loss of any game.

A batch row is a CSV row (every value a string): the columns every game has
(:data:`BASE_COLUMNS`), then the game's own (``Batch.columns``), then ``build``. A game
declares its figures as metrics over a row:

- :class:`Rate`: how often something holds in a game (a side wins): a share of games, with
  its 95% interval, compared between setups by a test of two proportions;
- :class:`When`: whether and when something first happened (a town fell): the share of
  games it happened in and the mean turn it happened, compared by whether it happened;
- :class:`Mean`: a number per game (losses, a share of them): its mean and spread,
  compared by Welch's test.

A report over setups of several games shows the metrics their games share (by ``key``),
in the order the first game declares them; the game length (``end_turn``, in the game's
own unit) is every game's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence, Union

#: a batch row as read back from its CSV file
Row = Mapping[str, Any]

#: the columns every batch row has, first, in this order (``build`` closes every row)
BASE_COLUMNS = ("setup", "index", "seed", "winner", "level", "end_turn", "orders")


@dataclass(frozen=True)
class Rate:
    """How often ``of(row)`` holds: a share of the games.

    ``label`` heads its column in a report's table (none: not in the table); ``ci`` shows
    its 95% Wilson interval there; ``test`` names it where the report tests it between
    setups; ``figure`` is the axis of its bar figure (the report's headline metric)."""

    key: str
    label: str
    of: Callable[[Row], bool]
    ci: bool = False
    test: str = ""
    figure: str = ""


@dataclass(frozen=True)
class When:
    """Whether and when something first happened in a game: ``of(row)`` is the turn, or
    None if it never did. Its two columns are ``label`` (the share of games it happened
    in) and ``when`` (the mean turn); ``figure`` is the axis of its bar figure."""

    key: str
    label: str
    when: str
    of: Callable[[Row], int | None]
    figure: str
    test: bool = True


@dataclass(frozen=True)
class Mean:
    """A number per game (None: the game has none), averaged over the batch: ``label``
    heads its column (none: not in the table), ``test`` names it where it is tested and
    ``said`` says it in a sentence when the difference is significant; ``box`` titles its
    box plot (the plots of a report's means stand side by side in one figure)."""

    key: str
    label: str
    of: Callable[[Row], float | None]
    test: str = ""
    said: str = ""
    box: str = ""


Metric = Union[Rate, When, Mean]


def shared(declared: Sequence[Sequence[Metric]]) -> list[Metric]:
    """The metrics every one of several games declares (by key), in the first game's order.

    >>> a = Rate("win", "wins", lambda r: True)
    >>> [m.key for m in shared([[a, Mean("x", "x", lambda r: 1.0)], [a]])]
    ['win']
    """
    if not declared:
        return []
    keys = set.intersection(*({m.key for m in ms} for ms in declared))
    return [m for m in declared[0] if m.key in keys]


def headline(metrics: Sequence[Metric]) -> Rate | None:
    """The rate a report and a batch's summary lead with: the first with a figure."""
    return next((m for m in metrics if isinstance(m, Rate) and m.figure), None)


def values(m: Metric, rows: Sequence[Row]) -> list[Any]:
    """The metric's value in each row (a ``Mean`` skips the games that have none)."""
    out = [m.of(r) for r in rows]
    return [v for v in out if v is not None] if isinstance(m, Mean) else out
