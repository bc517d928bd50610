"""The coach (issue 57): ``hint`` during a game and ``review`` after it, from the search bot.

``hint`` asks the game's search bot (ISMCTS) about the person's decision, from their side's
view only (what they may see, nothing more: a face-down counter stays face down), and gives
its three most searched orders, each with its number in the list, its estimated win chance
and the presenter's explanation of it. ``review`` replays a saved game and, at each decision
of the person's side with a choice, searches it again with the order they played offered
first; it lists the decisions where that order lost the most estimated win chance against
the order the search preferred.

The estimated win chance of an order is the share of its playouts that ended with the side
ahead by the game's score (the search bot's ``evaluate``: a VP lead, the standing, a win;
a tie counts half). A playout runs to the end of the turn or a horizon, not always to the
end of the game: it is an estimate, said as one, from a search of ``think`` seconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

from hexwar.core.replay import replay_entry, replay_start
from hexwar.core.log import EventLog
from hexwar.core.orders import Order
from hexwar.ui.words import said_text

#: the think time of a hint and of each reviewed decision, by default (seconds)
HINT_THINK = 1.0
REVIEW_THINK = 0.5
#: the least loss of estimated win chance a review names (a smaller one is the search's noise)
REVIEW_FLOOR = 0.05


@dataclass(frozen=True)
class Advice:
    """One order the search rates: its number in the person's list, its playouts and the
    share of them that ended with the side ahead."""

    number: int
    order: Order
    playouts: int
    chance: float
    explained: str

    def line(self, rank: int) -> str:
        """The advice as the terminal and the page show it, ``rank`` its place among them."""
        if not self.playouts:
            return f"{rank}. order {self.number}, the only one: {self.explained}"
        return (f"{rank}. order {self.number}, estimated win chance {self.chance:.0%} (ahead at the end of "
                f"{self.chance * self.playouts:.0f} of its {self.playouts} playouts): {self.explained}")


@dataclass(frozen=True)
class Slip:
    """A reviewed decision: the order played and the order the search preferred, with their
    estimated win chances."""

    seq: int  # the order's place in the log (0 the first)
    turn: int
    side: str
    played: str
    preferred: str
    played_chance: float
    preferred_chance: float
    played_playouts: int
    preferred_playouts: int

    @property
    def loss(self) -> float:
        return self.preferred_chance - self.played_chance

    def line(self) -> str:
        return (f"order {self.seq + 1} (turn {self.turn}, {self.side}): played {self.played} "
                f"({self.played_chance:.0%}); the search preferred {self.preferred} ({self.preferred_chance:.0%}), "
                f"{self.loss:.0%} of estimated win chance lost ({self.played_playouts} and {self.preferred_playouts} playouts)")


def searcher(game_name: str, side: str, think: float, seed: int) -> Any:
    """The game's search bot for ``side`` (None: the game has none)."""
    from hexwar.registry import get

    info = get(game_name)
    if "search" not in info.bots:
        return None
    return info.bot("search", side, seed, think)


def hint(session: Any, presenter: Any, think: float = HINT_THINK, most: int = 3) -> tuple[list[Advice], str]:
    """The search's ``most`` best orders for the person's decision now, and a line saying
    what was searched (or why there is no hint: no decision of theirs, no search bot)."""
    legal = session.legal()
    if not legal:
        return [], "no hint: no decision of yours now"
    s = session.s
    side = s.current_side()
    if len(legal) == 1:
        return [Advice(1, legal[0], 0, 0.0, said_text(presenter.explain_order(legal[0])))], "the only order: nothing to weigh"
    bot = searcher(session.game.name, side, think, s.data.seed * 7919 + len(s.log))
    if bot is None:
        return [], f"no hint: {session.game.name} has no search bot"
    rated = bot.advise(s.view_for((side,)), legal)
    number = {id(o): i + 1 for i, o in enumerate(legal)}
    out = [Advice(number.get(id(o)) or legal.index(o) + 1, o, n, chance, said_text(presenter.explain_order(o)))
           for o, n, chance in rated[:most]]
    said = (f"hint for the {side}: the search bot weighed this decision for {bot.last['elapsed']:.1f} s "
            f"({bot.last['iterations']} playouts, from your side's view only); its best orders:")
    return out, said


def review(game: Any, log: EventLog, sides: Sequence[str], think: float = REVIEW_THINK, most: int = 10,
           progress: Callable[[int, int], None] | None = None,
           line: Callable[[Order], str] | None = None) -> tuple[list[Slip], int]:
    """Replay ``log`` and search again each decision of ``sides`` that had a choice, the order
    played offered first; return the decisions whose order lost at least
    :data:`REVIEW_FLOOR` of estimated win chance and more than twice the noise of the two
    estimates (``_noise``), the most first (at most ``most``), and how many decisions were
    searched. ``progress(done, of)`` hears each entry replayed; ``line`` says an order as the
    person reads it (the presenter's ``order_line``; default its text)."""
    line = line or (lambda o: o.text())
    slips: list[Slip] = []
    searched = 0
    total = len(log.entries)
    for i, st, entry in _decisions(game, log):
        if progress is not None:
            progress(i, total)
        side = st.current_side()
        if side not in sides:
            continue
        legal = st.legal_orders()
        played = game.orders.from_dict(entry.order)
        if len(legal) < 2 or played not in legal:
            continue
        bot = searcher(game.name, side, think, st.data.seed * 7919 + i)
        if bot is None:
            return [], 0
        rated = bot.advise(st.view_for((side,)), legal, first=played)
        searched += 1
        if not rated:
            continue
        best = rated[0]
        mine = next((r for r in rated if r[0] == played), None)
        if mine is None or best[0] == played:
            continue
        slip = Slip(i, st.data.turn, side, line(played), line(best[0]), mine[2], best[2], mine[1], best[1])
        if slip.loss >= REVIEW_FLOOR and slip.loss > 2 * _noise(best[2], best[1], mine[2], mine[1]):
            slips.append(slip)
    if progress is not None:
        progress(total, total)
    slips.sort(key=lambda x: (-x.loss, x.seq))
    return slips[:most], searched


def review_lines(slips: Sequence[Slip], searched: int, sides: Sequence[str], think: float) -> list[str]:
    """A review in words, as the terminal and the page show it."""
    lines = [f"{searched} decisions of the {' and the '.join(sides)} searched again, {think:g} s each "
             f"(an estimated win chance is the share of a search's playouts that ended ahead)"]
    if not slips:
        lines.append(f"no decision lost {REVIEW_FLOOR:.0%} or more of estimated win chance against the search's choice")
    return lines + ["  " + x.line() for x in slips]


def review_now(session: Any, rest: str, most: int = 10, line: Callable[[Order], str] | None = None) -> list[str]:
    """``review [seconds]`` during a game: the person's decisions so far searched again, with
    their side's eyes (the lines to show, or why there is no review); ``line`` as for
    :func:`review`."""
    try:
        think = float(rest) if rest else REVIEW_THINK
    except ValueError:
        think = -1.0
    if not 0.05 <= think <= 10:
        return [f"review takes the seconds the search thinks on each decision, from 0.05 to 10 (not {rest!r})"]
    from hexwar.registry import get

    game, sides = session.game, sorted(session.humans)
    if not sides:
        return ["no review: you command no side in this game"]
    if "search" not in get(game.name).bots:  # asked of the registry, not by building a bot
        return [f"no review: {game.name} has no search bot"]
    slips, searched = review(game, session.s.log, sides, think, most, line=line)
    return review_lines(slips, searched, sides, think)


def _noise(p: float, n: int, q: float, m: int) -> float:
    """The standard error of the difference of two shares of playouts (each share held in
    [0.05, 0.95], so a handful of playouts is never taken for certainty): a review names a
    loss only above twice this, not the search's noise."""
    p, q = min(max(p, 0.05), 0.95), min(max(q, 0.05), 0.95)
    return float((p * (1 - p) / max(n, 1) + q * (1 - q) / max(m, 1)) ** 0.5)


def _decisions(game: Any, log: EventLog) -> Iterator[tuple[int, Any, Any]]:
    """Each logged entry with the game as it stood before it (the state moves on after)."""
    st = replay_start(game, log.meta)
    for i, entry in enumerate(log.entries):
        yield i, st, entry
        replay_entry(st, entry, verify=False)
