"""The search bot: information-set Monte Carlo tree search over the game API (issue 17).

Single-observer ISMCTS (Cowling, Powley and Whitehouse 2012): one tree of the searching
side's information, grown by iterations that each

1. copy the side's *view* of the game (never the real state: a face-down counter is a
   face-down counter) and **determinize** it, giving each hidden counter one of the kinds
   the view says are out there, at random;
2. **descend** the tree from the root, both sides' decisions, choosing by UCB1 among the
   children legal in this determinization (counted by how often each was available, not
   by the parent's visits), each node offering the game's prior's best few orders
   (progressive widening: 2 + sqrt(visits), at most ``candidates``); a decision with one
   legal order is played, not searched;
3. **expand** one untried order and play on with the game's rollout policy for every side
   for ``horizon`` orders or to the end of the turn, whichever comes first (a game of a few
   rounds, Kampen om Norge, rolls out to the horizon or the end: ``turn_end=False``);
4. **score** the end for every side (the game's ``evaluate``) and add it to each node on
   the path for the side that chose it.

The think time is a hard cap: the clock is read before every order of every iteration, an
iteration the deadline cuts short counts for nothing, and the answer is the most visited
order at the root (the prior's first when nothing finished). The cap is not a floor: once
the most visited order leads by more playouts than the time left could give any other
(at this decision's own pace), the answer is known and the search stops early. A
``progress`` callback hears how the search stands about ten times a second.

With ``reuse`` (issue 74; off unless asked), a decision that follows the side's own last one
(with only forced orders between) grows on the node of the order the last search chose: its
playouts met this decision next, and its children's figures are this decision's so far;
after another side's decision a search starts afresh. It is off because it measured no
stronger: the open-loop node's figures average every die and determinization of the line,
the outcomes that did not happen too (an assault that failed counts its playouts where it
held), where a fresh search reads the position as it stands. Against this issue's starting
search at 0.05 s a decision it scored 25.5/60 in Assault on Narvik, and 108.5/200 in Kampen om
Norge S1 at 0.02 s (``bench/bench_search_pair.py``).

With ``helpers`` (``hexwar.ai.helpers``), processes on the machine's other cores grow trees
of their own for the same decision meanwhile, and their root statistics are added to this
one's (root-parallel ISMCTS) before the answer is read.

Rollouts change a copied state in place, with their own dice: nothing a search does touches
the game it was asked about. An order the iteration has just listed in that very state is
carried out as ``run_fast`` does (``apply_unchecked``: no second listing to check it, which
was a fifth of a Kampen playout); the root's orders, listed before the determinization,
are checked (``apply``).
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass
import random
import time
from typing import Any, Callable, Sequence

from hexwar.core.dice import Dice
from hexwar.core.engine import collector_paused
from hexwar.core.play import FastView
from hexwar.core.orders import Order

Progress = Callable[[dict[str, Any]], None]


class Node:
    """What the tree knows of one order in one line of play: who chose it, how often it was
    tried and available, and what it scored for its chooser."""

    __slots__ = ("order", "mover", "children", "visits", "avail", "total", "sq", "ahead", "prior")

    def __init__(self, order: Order | None = None, mover: str | None = None):
        self.order = order
        self.mover = mover
        self.children: dict[Order, Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.sq = 0.0  # the sum of the squared scores: the spread of the playouts' scores
        self.ahead = 0.0  # playouts that ended with its chooser ahead (a score above 0), a tie as half
        #: the decision after this order as the prior ranked it at the node's first visit:
        #: (its orders best first, the set of them, the list as it was listed), kept while a
        #: visit lists the same orders
        self.prior: tuple[list[Order], frozenset[Order], list[Order]] | None = None

    def width(self, cap: int) -> int:
        """Progressive widening: how many of the prior's best orders this node offers."""
        return min(cap, 2 + int(math.sqrt(self.visits)))


@dataclass(frozen=True)
class Rated:
    """What a search found of one order at its root: its playouts, the share of them that
    ended with the side ahead (the estimated win chance), their mean score (the game's
    ``evaluate``: Assault on Narvik's VP margin, Kampen om Norge's standing) and the
    standard deviation of those scores."""

    order: Order
    playouts: int
    chance: float
    score: float
    spread: float

    def error(self) -> float:
        """The standard error of the mean score."""
        return self.spread / math.sqrt(max(1, self.playouts))


def _spread(n: Node) -> float:
    """The standard deviation of a node's playout scores."""
    mean = n.total / n.visits
    return math.sqrt(max(0.0, n.sq / n.visits - mean * mean))


def settled_lead(visits: Sequence[int], left: float) -> bool:
    """True when the most visited order stays the most visited however the ``left``
    iterations still to come were spent: its lead over the runner-up (or over a child not
    yet offered, at 0) is more than they could make up. The answer is then known and the
    search stops: the think time is a cap, not a floor."""
    if not visits:
        return False
    top = max(visits)
    rest = sorted(visits)[-2] if len(visits) > 1 else 0
    return top - rest > left


class SearchBot:
    """ISMCTS; the game supplies the prior (``rank(state, side, legal, bot)``: the legal
    orders best first, by ``bot``'s lights when given, a policy bot with the side's memory
    of the turn), the rollout policy, the score and the determinization. The bot keeps a
    policy bot of its own side for the game (``me``): the game's ``forced(me, data, legal)``
    gives the policy's rules of conduct, which apply before any search (Narvik's priority
    bot passes after 40 actions a turn, so no game stalls), and ``heard(me, data, order)``
    tells its memory every order played. ``clock`` is injectable (tests give a fake one: no
    test reads the wall clock)."""

    name = "search"
    reads_by_kind = False
    reads_menu = False
    thinks = True  # it takes its time, and says how its search stands (``progress``)
    MIN_ITERATIONS = 16  # no early answer before this many playouts: a lead of a handful means nothing
    #: what a copy shares with the bot it was made from (``__deepcopy__``)
    SHARED = frozenset({"_helpers", "clock", "progress", "hooks", "rank", "policy", "evaluate", "determinize",
                        "forced", "heard"})

    def __init__(self, side: str, seed: int | None = None, budget_s: float = 1.0, *,
                 rank: Callable[[Any, str, Sequence[Order], Any], list[Order]],
                 policy: Callable[[str, int], Any],
                 evaluate: Callable[[Any, str], float],
                 determinize: Callable[[Any, str, random.Random], None] = lambda s, side, rng: None,
                 forced: Callable[[Any, Any, Sequence[Order]], Order | None] = lambda me, data, legal: None,
                 heard: Callable[[Any, Any, Order], None] = lambda me, data, pick: None,
                 candidates: int = 8, horizon: int = 24, turn_end: bool = True, c: float = 0.7, reuse: bool = False,
                 clock: Callable[[], float] = time.monotonic, max_iterations: int | None = None,
                 progress: Progress | None = None, hooks: Callable[[], dict[str, Any]] | None = None,
                 helpers: int = 0):
        self.side = side
        self.rng = random.Random(seed)
        self.budget = budget_s
        self.cap = candidates
        self.horizon = horizon
        self.turn_end = turn_end  # rollouts stop at the end of the game turn (else at the horizon or the end)
        self.c = c
        self.reuse = reuse  # a decision that follows this side's last one grows on that search's subtree
        self._kept: Node | None = None  # the last search's node of the order it chose (what ``reuse`` reads)
        self.clock = clock
        self.max_iterations = max_iterations
        self.progress = progress
        self.rank, self.policy, self.evaluate, self.determinize = rank, policy, evaluate, determinize
        self.forced, self.heard = forced, heard
        self.last: dict[str, Any] = {}  # how the last decision's search went (iterations, visits, time)
        self.me: Any = None  # the policy playing this side, kept for the game: its memory and its conduct
        #: the search's settings that are not hooks, as a helper builds its own bot with them
        self.config = {"candidates": candidates, "horizon": horizon, "turn_end": turn_end, "c": c, "reuse": reuse}
        #: the game's search hooks function (a helper process imports it by its name)
        self.hooks = hooks
        #: helper processes that search each decision beside this one (``hexwar.ai.helpers``):
        #: 0 in batches (each core plays a game) and tests; play gives one on two cores
        self.helpers = helpers
        self._helpers: Any = None
        self.tree = Node()  # the last decision's tree: its root (what ``last`` reports)

    @classmethod
    def of(cls, hooks: Callable[[], dict[str, Any]], side: str, seed: int | None = None, budget_s: float = 1.0,
           **kw: Any) -> "SearchBot":
        """The search bot of a game whose hooks ``hooks()`` gives: a function at a module's
        top level, which a helper process imports by its name."""
        return cls(side, seed, budget_s, hooks=hooks, **{**hooks(), **kw})

    def __deepcopy__(self, memo: dict[int, Any]) -> "SearchBot":
        """A copy as a session keeps one for ``undo`` (its memory and dice as they stood):
        the helper processes and the game's hooks (code, not memory: a compiled game's
        hooks are objects that do not copy) are shared, not copied, and the last decision's
        tree is left behind (only its figures, ``last``, are kept)."""
        new = object.__new__(type(self))
        memo[id(self)] = new
        for k, v in self.__dict__.items():
            if k in self.SHARED:
                new.__dict__[k] = v
            elif k == "tree":
                new.__dict__[k] = Node()
            elif k == "_kept":
                new.__dict__[k] = None
            else:
                new.__dict__[k] = copy.deepcopy(v, memo)
        return new

    def start_helpers(self) -> None:
        """Start the helper processes now rather than at the first search (a process takes
        a second or two to import the engine)."""
        if self.helpers > 0 and self.hooks is not None:
            if self._helpers is None:
                from hexwar.ai.helpers import Helpers
                self._helpers = Helpers(self.hooks, self.helpers)
            self._helpers.start()

    def close(self) -> None:
        """Stop the helper processes (they stop with the program anyway)."""
        if self._helpers is not None:
            self._helpers.close()
            self._helpers = None

    # --- one decision -------------------------------------------------------------------

    def choose(self, state: Any, legal: Sequence[Order]) -> Order:
        """The order to play: searched within ``budget_s`` seconds of the clock, never more
        (``state`` is the side's view; the legal orders are the real ones)."""
        if not legal:
            raise ValueError("no legal orders to choose from")
        # a full collection of the cyclic garbage takes a tenth of a second and more once the
        # engine's caches are warm: none runs while the bot decides (making its view of the
        # state included); the garbage of a search is freed as it goes, the cycles wait for
        # the collector after the move
        with collector_paused(collect=False):
            return self._choose(state, legal)

    def _choose(self, state: Any, legal: Sequence[Order]) -> Order:
        if self.me is None:
            self.me = self.policy(self.side, self.rng.randrange(1 << 30))
        pick = self.forced(self.me, state.data, legal) if len(legal) > 1 else None  # the policy's rules of conduct
        if pick is None and len(legal) > 1:
            pick = self._search(state, legal)
        else:
            self._kept = None  # a decision not searched: the next search starts afresh
            if pick is None:
                pick = legal[0]
            # no search: the policy's rule of conduct, or the only order (not the last search's figures)
            self.last = {"elapsed": 0.0, "budget": self.budget, "iterations": 0, "cut": 0, "best": pick.text(), "visits": [],
                         "settled": False}
        if state is not None:
            self.heard(self.me, state.data, pick)  # and its memory of the turn, which its prior reads
        return pick

    __call__ = choose

    def _search(self, state: Any, legal: Sequence[Order]) -> Order:
        start = self.clock()
        job = None
        if self.helpers > 0 and self.hooks is not None:  # the other cores grow trees of their own meanwhile
            self.start_helpers()
            assert self._helpers is not None
            wall_deadline = time.monotonic() + self.budget
            job = self._helpers.ask(state.game, state.data, legal, self.side, self.rng.randrange(1 << 30), wall_deadline,
                                    self.max_iterations, self.me, {**self.config, "min_iterations": self.MIN_ITERATIONS})
        kept, self._kept = self._reusable(legal), None
        reused = kept.visits if kept is not None else 0
        root, prior, mine = self._grow(state, legal, start, root=kept)
        self.tree = root
        iterations, helped = mine["iterations"], []
        if job is not None:
            assert self._helpers is not None
            if mine["settled"]:
                self._helpers.stop_early()
            helped = self._helpers.gather(job, wall_deadline)
            for got in helped:
                iterations += merge(root, legal, got, self.side)
        pick = self._best(root, prior)
        self._kept = root.children.get(pick) if self.reuse else None
        self.last = self._report(root, iterations, self.clock() - start, cut=mine["cut"])
        self.last["settled"] = mine["settled"]
        self.last["reused"] = reused  # the playouts the last search had made of this decision already
        self.last["helpers"] = [got["iterations"] for got in helped]
        if self.progress is not None:
            self.progress(self.last)
        return pick

    def grow(self, state: Any, legal: Sequence[Order], stop: Callable[[], bool] | None = None) -> dict[str, Any]:
        """Grow this decision's tree until the budget is spent, the answer is settled or
        ``stop()`` says so; return how it went and the root's orders as (index in ``legal``,
        visits, total score, its sum of squares, playouts ahead): what a search helper sends back
        (``hexwar.ai.helpers``)."""
        root, _, stats = self._grow(state, legal, self.clock(), stop)
        index = {o: i for i, o in enumerate(legal)}
        stats["orders"] = [(index[n.order], n.visits, n.total, n.sq, n.ahead) for n in root.children.values()
                           if n.order in index]
        return stats

    def _grow(self, state: Any, legal: Sequence[Order], start: float, stop: Callable[[], bool] | None = None,
              first: Order | None = None, settle: bool = True,
              most: int | None = None, root: Node | None = None) -> tuple[Node, list[Order], dict[str, Any]]:
        """The search itself: the tree's root, the prior it offered, and how it went.
        ``first``: an order the root offers first whatever the prior says (a game review
        weighs the order a person played); ``settle``: stop once the answer is known (not
        when weighing one order: :meth:`weigh`); ``most``: the playouts at most, if not the
        bot's own ``max_iterations``; ``root``: a tree to grow on (:meth:`_reusable`)."""
        deadline = start + self.budget
        prior = self.rank(state, self.side, legal, self.me)
        if first is not None:
            prior = [first] + [o for o in prior if o != first]
        # weighing one order, the root is that order's own node: its scores are the side's
        if root is None:
            root = Node() if settle or len(legal) != 1 else Node(legal[0], self.side)
        else:  # a reused root keeps the orders this prior offers (its ranking read the side's memory, the tree's did not)
            offered = set(prior[: self.cap])
            root.children = {o: n for o, n in root.children.items() if o in offered}
        self._lo, self._hi = math.inf, -math.inf
        iterations = cut = 0
        shown = start
        settled = False
        most = self.max_iterations if most is None else most
        while most is None or iterations < most:
            if self.clock() >= deadline or (stop is not None and stop()):
                break
            if self._iterate(state, root, legal, prior, deadline):
                iterations += 1
            else:
                cut += 1
                break
            now = self.clock()
            if settle and iterations >= self.MIN_ITERATIONS and iterations % 4 == 0:
                left = iterations / max(now - start, 1e-9) * (deadline - now)  # iterations the budget still holds, at this decision's pace
                if most is not None:
                    left = min(left, most - iterations)
                if left >= 1 and settled_lead([n.visits for n in root.children.values()], left):  # not at the end anyway
                    settled = True
                    break
            if self.progress is not None and now - shown >= 0.1:
                shown = now
                self.progress(self._report(root, iterations, now - start))
        return root, prior, {"iterations": iterations, "cut": cut, "settled": settled, "elapsed": self.clock() - start}

    def _reusable(self, legal: Sequence[Order]) -> Node | None:
        """The last search's node of the order it chose, as the root of this decision's tree,
        when this decision is the one its playouts met next: this side's, with the very orders
        they listed there (the decision right after this side's last, with only forced orders
        between, as its iterations played them). An open-loop tree's node holds every
        determinization and every die of the line, as a root does: its children's figures are
        this decision's orders' figures so far. Anything else (another side's decision between,
        a search's subtree of another line): None, a fresh tree."""
        kept = self._kept
        if kept is None or kept.prior is None or not kept.children:
            return None
        if any(n.mover != self.side for n in kept.children.values()) or kept.prior[1] != frozenset(legal):
            return None
        kept.order, kept.mover, kept.prior = None, None, None  # a root: no order, no chooser, the prior asked again
        return kept

    def advise(self, state: Any, legal: Sequence[Order], first: Order | None = None) -> list[Rated]:
        """A coach's search of the decision (``hexwar.ui.coach``): the root's orders, the
        most visited first, each with its playouts, its mean score and the share of them that
        ended with this side ahead (:class:`Rated`). ``state`` is the side's view, as for
        :meth:`choose`; nothing is played, nothing remembered."""
        if self.me is None:
            self.me = self.policy(self.side, self.rng.randrange(1 << 30))
        with collector_paused(collect=False):
            root, _, mine = self._grow(state, legal, self.clock(), first=first)
        self.tree = root
        self.last = self._report(root, mine["iterations"], mine["elapsed"])
        kids = sorted(root.children.values(), key=lambda n: (-n.visits, -n.total))
        return [Rated(n.order, n.visits, n.ahead / n.visits, n.total / n.visits, _spread(n)) for n in kids
                if n.order is not None and n.visits]

    def weigh(self, state: Any, orders: Sequence[Order], playouts: int) -> list[Rated]:
        """Each of ``orders`` searched on its own with the same budget (``playouts``, or the
        think time if that runs out first), so that two are compared on equal evidence: a
        review's duel between the order played and the search's choice. Every one of ``orders``
        must be legal in ``state`` (the side's view)."""
        if self.me is None:
            self.me = self.policy(self.side, self.rng.randrange(1 << 30))
        out = []
        with collector_paused(collect=False):
            for order in orders:
                n, _, _ = self._grow(state, [order], self.clock(), settle=False, most=playouts)
                if n.visits:
                    out.append(Rated(order, n.visits, n.ahead / n.visits, n.total / n.visits, _spread(n)))
        return out

    def _best(self, root: Node, prior: list[Order]) -> Order:
        if not root.children:
            return prior[0]
        rank: dict[Order | None, int] = {o: i for i, o in enumerate(prior)}
        best = max(root.children.values(),
                   key=lambda n: (n.visits, n.total / max(1, n.visits), -rank.get(n.order, len(rank))))
        assert best.order is not None
        return best.order

    def _report(self, root: Node, iterations: int, elapsed: float, cut: int = 0) -> dict[str, Any]:
        kids = sorted(root.children.values(), key=lambda n: -n.visits)
        return {"elapsed": elapsed, "budget": self.budget, "iterations": iterations, "cut": cut,
                "best": kids[0].order.text() if kids else None,  # type: ignore[union-attr]
                "visits": [(n.order.text(), n.visits, round(n.total / max(1, n.visits), 3)) for n in kids[:5]]}  # type: ignore[union-attr]

    # --- one iteration ------------------------------------------------------------------

    def _iterate(self, state: Any, root: Node, legal: Sequence[Order], prior: list[Order], deadline: float) -> bool:
        """Determinize, descend, expand, roll out, back up; False when the deadline cut it short."""
        s = FastView(state.game, state.data.clone())
        self.determinize(s, self.side, self.rng)
        game, data = s.game, s.data
        turn = data.turn
        node, path = root, [root]
        first = True
        expanded, rolled = False, 0
        bots: dict[str, Any] = {}
        while not data.over:
            if self.clock() >= deadline:
                return False
            if expanded:  # the rollout: the policy for both sides to the end of the turn
                if rolled >= self.horizon or (self.turn_end and data.turn > turn):
                    break  # (before its orders are listed: nothing reads them)
                mover = game.current_side(data)
                bot = bots.get(mover)
                if bot is None:
                    bot = bots[mover] = self.policy(mover, self.rng.randrange(1 << 30))
                # a policy that reads a menu (Narvik's priority bot) is given one, as run_fast does
                order = bot.choose(s, game.legal_menu(data) if bot.reads_menu else game.legal_orders(data))
                rolled += 1
            else:
                if first:
                    options, mover = legal, self.side
                else:
                    options, mover = game.legal_orders(data), game.current_side(data)
                if len(options) == 1:
                    order = options[0]
                else:
                    ranked = prior if first else self._ranked(node, s, mover, options)
                    order, node, expanded = self._select(node, ranked, mover)
                    path.append(node)
            dice = Dice(rng=self.rng)
            if first:
                game.apply(data, order, dice)
            else:
                game.apply_unchecked(data, order, dice, [])
            first = False
        scores = {side: self.evaluate(s, side) for side in {n.mover for n in path if n.mover is not None}}
        for v in scores.values():
            self._lo, self._hi = min(self._lo, v), max(self._hi, v)
        for n in path:
            n.visits += 1
            if n.mover is not None:
                v = scores[n.mover]
                n.total += v
                n.sq += v * v
                n.ahead += 1.0 if v > 0 else 0.5 if v == 0 else 0.0
        return True

    def _ranked(self, node: Node, s: Any, mover: str, options: Sequence[Order]) -> list[Order]:
        """The prior's ranking of the decision below ``node``: worked out at its first visit
        and kept for every later visit that lists the same orders (the same decision of the
        same information set, however this iteration's determinization and dice went), ranked
        again for a visit that lists others (another determinization's hidden counters, other
        dice). Ranked at every visit, the prior took up to a tenth of a Narvik playout's time;
        kept, it is ranked a fifth as often where the line of play repeats itself."""
        kept = node.prior
        if kept is not None:
            # the same list, order for order (compared in C, each order by identity first: most
            # are the game's kept lists' very objects), or else the same orders in any order
            if kept[2] == options or kept[1] == frozenset(options):
                return kept[0]
            return self.rank(s, mover, options, None)
        ranked = self.rank(s, mover, options, None)
        node.prior = (ranked, frozenset(options), list(options))
        return ranked

    def _select(self, node: Node, ranked: list[Order], mover: str) -> tuple[Order, Node, bool]:
        """UCB1 over the node's offered orders available now; an untried one first."""
        offered = ranked[: node.width(self.cap)]
        for o in offered:
            child = node.children.get(o)
            if child is None:
                child = node.children[o] = Node(o, mover)
                child.avail = 1
                return o, child, True
        span = self._hi - self._lo if self._hi > self._lo else 1.0
        best, top = offered[0], -math.inf
        for o in offered:
            child = node.children[o]
            child.avail += 1
            mean = (child.total / child.visits - self._lo) / span if child.visits else 1.0
            u = mean + self.c * math.sqrt(math.log(max(1, child.avail)) / max(1, child.visits))
            if u > top:
                best, top = o, u
        return best, node.children[best], False


def outcome(winner: str | None, side: str) -> float:
    """A result as a search scores it for ``side``: +1 its win, -1 its loss, 0 no winner."""
    return 0.0 if winner is None else (1.0 if winner == side else -1.0)


def merge(root: Node, legal: Sequence[Order], got: dict[str, Any], side: str) -> int:
    """Add a helper's root statistics (``SearchBot.grow``) to the tree's root; return the
    helper's iterations."""
    for i, visits, total, sq, ahead in got["orders"]:
        order = legal[i]
        child = root.children.get(order)
        if child is None:
            child = root.children[order] = Node(order, side)
        child.visits += visits
        child.avail += visits
        child.total += total
        child.sq += sq
        child.ahead += ahead
    root.visits += got["iterations"]
    return int(got["iterations"])
