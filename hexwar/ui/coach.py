"""The coach (issue 57): ``hint`` during a game and ``review`` after it, from the search bot.

``hint`` asks the game's search bot (ISMCTS) about the person's decision, from their side's
view only (what they may see, nothing more: a face-down counter stays face down), and gives
its three best orders by expected margin (issue 74), each with its number in the list, its
estimated win chance with an interval and the presenter's explanation of it. ``review``
replays a saved game and, at each decision of the person's side with a choice, searches it
again with the order they played offered first; it lists the decisions where that order lost
the most expected margin against the order the search preferred, with why.

An order's expected margin is the mean of the game's score where its playouts end (the
search bot's ``evaluate``: Assault on Narvik's VP margin with the objectives held, Kampen om
Norge's standing); its estimated win chance is the share of them that ended with the side
ahead (a tie counts half). The margin is what a review ranks by: a side far behind loses
nearly every playout whatever it does, and a blunder that costs it a battalion and 6 VP
changes its win chance by nothing, its margin by 6. A playout runs to the end of the turn or
a horizon, not always to the end of the game: these are estimates, said as ones. A hint
searches a fixed number of playouts, so the same position gets the same hint on any machine.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterator, Sequence

from hexwar.ai.search import Rated, SearchBot
from hexwar.core.log import EventLog
from hexwar.core.orders import Order
from hexwar.core.replay import replay_entry, replay_start
from hexwar.sim.stats import wilson
from hexwar.ui.words import said_text

#: a hint's search: this many playouts (the same answer on any machine, however busy), or
#: ``HINT_CAP`` seconds on a slow one; ``hint SECONDS`` thinks on the clock instead
HINT_PLAYOUTS = 400
HINT_CAP = 20.0
REVIEW_THINK = 0.5
#: a review's duel: the playouts each of the two orders gets at most (the think time caps it)
DUEL_PLAYOUTS = 200
#: the least loss of expected margin a review names by default, in the game's own score
#: (its ``evaluate``): any loss above the search's noise; ``--floor`` raises it, ``--top N``
#: shows the N worst whatever their size
REVIEW_FLOOR = 0.0
#: an order a hint or a review weighs has at least this share of the most searched order's
#: playouts: an order tried a handful of times has a figure that means little
TRIED = 0.2


@dataclass(frozen=True)
class Advice:
    """One order the search rates: its number in the person's list, its playouts, the
    share of them that ended with the side ahead and their mean margin (the search's score
    of a playout's end, the game's ``evaluate``), with that mean's standard error."""

    number: int
    order: Order
    playouts: int
    chance: float
    explained: str
    margin: float = 0.0
    error: float = 0.0

    def line(self, rank: int) -> str:
        """The advice as the terminal and the page show it, ``rank`` its place among them."""
        if not self.playouts:
            return f"{rank}. order {self.number}, the only one: {self.explained}"
        lo, hi = wilson(round(self.chance * self.playouts), self.playouts)
        return (f"{rank}. order {self.number}, expected margin {self.margin:+.1f} (±{2 * self.error:.1f}), "
                f"estimated win chance {self.chance:.0%} ({lo:.0%}-{hi:.0%}, {self.playouts} playouts): {self.explained}")


@dataclass(frozen=True)
class Slip:
    """A reviewed decision: the order played and the order the search preferred, with the
    mean margin of each one's playouts (the search's score, the game's ``evaluate``), its
    standard error and the estimated win chance."""

    seq: int  # the order's place in the log (0 the first)
    turn: int
    side: str
    played: str
    preferred: str
    played_chance: float
    preferred_chance: float
    played_playouts: int
    preferred_playouts: int
    played_margin: float
    preferred_margin: float
    noise: float  # the standard error of the difference of the two margins
    why: str = ""  # the preferred order explained (its odds, its cost), where a presenter said it

    @property
    def loss(self) -> float:
        """The expected margin the order played lost against the search's choice."""
        return self.preferred_margin - self.played_margin

    def line(self) -> str:
        return (f"order {self.seq + 1} (turn {self.turn}, {self.side}): played {self.played} "
                f"(expected margin {self.played_margin:+.1f}, win chance {self.played_chance:.0%}); the search preferred "
                f"{self.preferred} ({self.preferred_margin:+.1f}, {self.preferred_chance:.0%}): {self.loss:.1f} of expected "
                f"margin lost (±{2 * self.noise:.1f}; {self.played_playouts} and {self.preferred_playouts} playouts)"
                + (f". {self.why}" if self.why else ""))


def searcher(game_name: str, side: str, think: float, seed: int, playouts: int | None = None) -> Any:
    """The game's search bot for ``side``, thinking ``think`` seconds at most and, given
    ``playouts``, no more playouts than that (None: the game has none)."""
    from hexwar.registry import get

    info = get(game_name)
    if "search" not in info.bots:
        return None
    bot = info.bot("search", side, seed, think)
    if isinstance(bot, SearchBot):  # a game's own search bot of another kind keeps its clock
        bot.max_iterations = playouts
    return bot


def hint(session: Any, presenter: Any, think: float | None = None, most: int = 3) -> tuple[list[Advice], str]:
    """The search's ``most`` best orders for the person's decision now, best first by their
    expected margin, and a line saying what was searched (or why there is no hint: no
    decision of theirs, no search bot). ``think``: seconds on the clock; None, the default,
    :data:`HINT_PLAYOUTS` playouts (the same hint for the same position on any machine)."""
    legal = session.legal()
    if not legal:
        return [], "no hint: no decision of yours now"
    s = session.s
    side = s.current_side()
    if len(legal) == 1:
        return [Advice(1, legal[0], 0, 0.0, said_text(presenter.explain_order(legal[0])))], "the only order: nothing to weigh"
    bot = searcher(session.game.name, side, HINT_CAP if think is None else think, s.data.seed * 7919 + len(s.log),
                   HINT_PLAYOUTS if think is None else None)
    if bot is None:
        return [], f"no hint: {session.game.name} has no search bot"
    rated = weighed(bot.advise(s.view_for((side,)), legal))
    number = {id(o): i + 1 for i, o in enumerate(legal)}
    out = [Advice(number.get(id(r.order)) or legal.index(r.order) + 1, r.order, r.playouts, r.chance,
                  said_text(presenter.explain_order(r.order)), r.score, r.error()) for r in rated[:most]]
    said = (f"hint for the {side}: the search bot weighed this decision for {bot.last['elapsed']:.1f} s "
            f"({bot.last['iterations']} playouts, from your side's view only); its best orders, by expected margin "
            f"(the search's score of where a playout ends: the game's own, ± two standard errors):")
    tied = [a for a in out[1:] if out[0].margin - a.margin <= 2 * math.hypot(out[0].error, a.error)]
    if tied:  # a person is told when the ranking is the search's noise, not its judgement
        said += (f" the first {len(tied) + 1} are within the search's noise of each other: it finds no difference "
                 f"between them")
    return out, said


def weighed(rated: Sequence[Rated]) -> list[Rated]:
    """The orders a search tried often enough to weigh (:data:`TRIED` of the most tried
    one's playouts), best first by their mean margin, the more tried first on a tie."""
    if not rated:
        return []
    most = max(r.playouts for r in rated)
    return sorted((r for r in rated if r.playouts >= TRIED * most), key=lambda r: (-r.score, -r.playouts))


def review(game: Any, log: EventLog, sides: Sequence[str], think: float = REVIEW_THINK, most: int = 10,
           progress: Callable[[int, int], None] | None = None,
           line: Callable[[Order], str] | None = None, floor: float | None = REVIEW_FLOOR,
           why: Callable[[Any, Order], str] | None = None) -> tuple[list[Slip], int]:
    """Replay ``log`` and search again each decision of ``sides`` that had a choice, the order
    played offered first; where the search preferred another (the best weighed order,
    :func:`weighed`), the two are searched again one by one with the same budget (the bot's
    playouts, or :data:`DUEL_PLAYOUTS` within ``think`` seconds each: ``SearchBot.weigh``), and the
    decisions whose order lost the most expected margin in that duel are returned, the most
    first (at most ``most``), with how many decisions were searched. A decision is named when its loss
    is at least ``floor`` and more than twice the noise of the two means; ``floor`` None:
    every decision whose order lost anything to the search's choice, whatever the size (``--top``).
    ``progress(done, of)`` hears each entry replayed; ``line`` says an order as the person
    reads it (the presenter's ``order_line``; default its text); ``why(state, order)`` says
    why the search's choice (the presenter's explanation)."""
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
        ranked = weighed(rated)
        mine = next((r for r in rated if r.order == played), None)
        if not ranked or mine is None or ranked[0].order == played:
            continue
        # the two orders weighed again side by side, the search's whole budget spent on them:
        # the first search spread its playouts over every order it offered
        judge = searcher(game.name, side, think, st.data.seed * 7919 + i + 1)
        duel = {r.order: r for r in judge.weigh(st.view_for((side,)), [played, ranked[0].order],
                                                judge.max_iterations or DUEL_PLAYOUTS)}
        if played not in duel or ranked[0].order not in duel:
            continue
        best, mine = duel[ranked[0].order], duel[played]
        noise = math.sqrt(best.error() ** 2 + mine.error() ** 2)
        slip = Slip(i, st.data.turn, side, line(played), line(best.order), mine.chance, best.chance, mine.playouts,
                    best.playouts, mine.score, best.score, noise)
        # a loss, however small with --top (floor None); above the floor and the noise otherwise
        if slip.loss > 0 and (floor is None or (slip.loss >= floor and slip.loss > 2 * noise)):
            slips.append(replace(slip, why=why(st, best.order) if why is not None else ""))
    if progress is not None:
        progress(total, total)
    slips.sort(key=lambda x: (-x.loss, x.seq))
    return slips[:most], searched


def explainer(game_name: str, sides: Sequence[str]) -> Callable[[Any, Order], str]:
    """Why the search's choice, as a review says it: the game's presenter's explanation of
    the order (its odds, its cost, its rule) at the reviewed decision, from ``sides``' view."""
    from hexwar.registry import get
    from hexwar.ui.session import Session

    info = get(game_name)

    def why(state: Any, order: Order) -> str:
        p = info.presenter(Session(state, set(sides), {}, None, None))
        return said_text(p.explain_order(order)).replace("\n", "; ")

    return why


def review_lines(slips: Sequence[Slip], searched: int, sides: Sequence[str], think: float,
                 floor: float | None = REVIEW_FLOOR) -> list[str]:
    """A review in words, as the terminal and the page show it."""
    lines = [f"{searched} decisions of the {' and the '.join(sides)} searched again, {think:g} s each "
             f"(an expected margin is the mean of the search's score where its playouts end, the game's own; "
             f"a win chance the share of them that ended ahead)"]
    if not slips:
        lines.append("no decision lost expected margin beyond the search's noise against its choice" if not floor else
                     f"no decision lost {floor:g} or more of expected margin, beyond the search's noise")
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
    slips, searched = review(game, session.s.log, sides, think, most, line=line, why=explainer(game.name, sides))
    return review_lines(slips, searched, sides, think)


def _decisions(game: Any, log: EventLog) -> Iterator[tuple[int, Any, Any]]:
    """Each logged entry with the game as it stood before it (the state moves on after)."""
    st = replay_start(game, log.meta)
    for i, entry in enumerate(log.entries):
        yield i, st, entry
        replay_entry(st, entry, verify=False)
