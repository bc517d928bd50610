"""The phase machine (``DecisionGame``: a game driven by pending decisions) and the ways a
whole game is played: ``run_fast`` (bots, in place), ``play_out`` and ``load_game`` (a save
resumed). The contract and a game in play (``Game``, ``PlayState``, replay) are
``hexwar.core.game``'s; each name is imported from the one module that defines it.

Modelled on OpenSpiel's game/state split::

    game = SkirmishGame.from_scenario("fixtures/skirmish")
    state = game.new_state(seed=1)
    while not state.is_over():
        order = bot.choose(state, state.legal_orders())
        events = state.apply(order)

``apply`` works on a copy and swaps it in only when the order succeeded, so an
:class:`~hexwar.core.orders.IllegalOrder` (or any error) leaves the state untouched. The
dice for order number *n* are seeded from ``(seed, n)``: a game replays from its seed and
orders alone, and the log also keeps every roll so it replays without any RNG.
"""

from __future__ import annotations

import gc
import random
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from hexwar.core.dice import Dice
from hexwar.core.game import Game, S
from hexwar.core.play import FastView, PlayState, order_dice
from hexwar.core.replay import ReplayError, replay
from hexwar.core.result import Result
from hexwar.core.log import Entry, EventLog, SaveError, SaveFile
from hexwar.core.orders import IllegalOrder, Menu, Order, OrderList

__all__ = ["Decision", "DecisionGame", "Phase", "collector_paused", "load_game", "play_out", "run_fast"]


@dataclass(frozen=True)
class Phase:
    """One phase of a game's sequence of play: its rule section and its automatic steps."""

    name: str
    rule: str
    run: Callable[..., None]


@dataclass(frozen=True)
class Decision:
    """One kind of decision a side is asked for: its rule, its legal orders, its handler."""

    rule: str
    legal: Callable[..., "list[Order] | Menu"]  # a list (an OrderList), or a Menu of deferred parts
    apply: Callable[..., None]


class DecisionGame(Game[S]):
    """The phase machine of a game driven by pending decisions (Assault on Narvik, Europa).

    The state's ``ask`` names the side and kind of the decision the game waits for;
    ``decisions[kind]`` lists that decision's legal orders (``legal``) and applies one
    (``apply``); ``phases[phase].run`` performs a phase's automatic steps until a side must
    decide. A game sets ``decisions``, ``phases``, ``refusals`` (the rules it cites when the
    game is over, for an object that is no order of its, and when no decision is pending)
    and ``other_side`` (the rule of a decision that is another side's), and may add
    ``after_decision`` (Europa: ownership, E4).
    """

    decisions: "dict[str, Decision]"
    phases: "dict[str, Phase]"
    other_side: str

    def current_side(self, d: Any) -> str:
        return str(d.ask.side if d.ask else d.side)

    def legal_orders(self, d: Any) -> list[Order]:
        legal = self._listing(d)
        if isinstance(legal, Menu):
            return legal.orders()
        return legal if type(legal) is OrderList else list(legal)  # an OrderList is made for the call

    def legal_menu(self, d: Any) -> Menu:
        """The legal orders as a :class:`Menu`: for a reader that chooses a kind first, a
        decision whose listing is a menu works out only the kinds it reads."""
        legal = self._listing(d)
        return legal if isinstance(legal, Menu) else Menu.of(legal)

    def _listing(self, d: Any) -> "list[Order] | Menu":
        """The pending decision's listing as its ``Decision.legal`` makes it (none when over)."""
        if d.over or d.ask is None:
            return []
        return self.decisions[d.ask.what].legal(self, d, d.ask)

    def apply(self, d: Any, order: Order, dice: Dice) -> list[dict[str, Any]]:
        if d.over:
            raise IllegalOrder("the game is over", self.refusals.over)
        ask = d.ask
        if ask is None:
            raise IllegalOrder("no decision is pending", self.refusals.not_now)
        if order not in self.orders:
            raise IllegalOrder(f"{type(order).__name__} is not an order of {self.name}", self.refusals.foreign)
        if order.side != ask.side:
            raise IllegalOrder(f"it is {ask.side}'s decision ({ask.what}), not {order.side}'s", self.other_side)
        events: list[dict[str, Any]] = []
        self.decisions[ask.what].apply(self, d, order, dice, events)
        self.after_decision(d, events)
        self.run(d, dice, events)
        return events

    def state_problems(self, d: Any, sides: Any = None) -> list[str]:
        """A state's phase must be one of the game's, and the decision it waits for one the
        game asks (besides :meth:`Game.state_problems`)."""
        out = super().state_problems(d, sides)
        if d.phase not in self.phases:
            out.append(f"phase: the phase is {d.phase!r}; {self.name} has {', '.join(self.phases)}")
        if not isinstance(d.step, int) or d.step < 0:
            out.append(f"step: the step is {d.step!r}; a step is a whole number from 0")
        if d.ask is not None and d.ask.what not in self.decisions:
            out.append(f"ask.what: the game waits for a {d.ask.what!r} decision; {self.name} asks for {', '.join(self.decisions)}")
        return out

    def after_decision(self, d: Any, events: list[dict[str, Any]]) -> None:
        """What follows every decision before the automatic steps (nothing by default)."""

    def decision_rule(self, d: Any) -> str:
        """The rule section of the decision the game waits for."""
        return str(self.decisions[d.ask.what].rule) if d.ask is not None else self.refusals.over

    def run(self, d: Any, dice: Dice, events: list[dict[str, Any]]) -> None:
        """Run automatic steps, phase by phase, until a side must decide or the game ends."""
        guard = 0
        while not d.over and d.ask is None:
            guard += 1
            if guard > 1000:  # pragma: no cover - a bug, not a game state
                raise RuntimeError("phase machine did not settle")
            self.phases[d.phase].run(self, d, dice, events)

    def to_phase(self, d: Any, phase: str) -> None:
        """Enter a phase at its first step."""
        d.phase = phase
        d.step = 0


def load_game(game: Game[Any], path: str | Path, writer: bool = False, upto: int | None = None,
              keep: Path | None = None) -> PlayState:
    """Resume a saved game, keeping the save file attached; a ``writer`` first becomes the
    save's only writer (a second player, or a read-only save, is refused). A damaged save
    raises :class:`SaveError` naming the file and the entry (its ``seq``, when one entry is to
    blame), and is never modified.

    ``upto``: resume from the save's first ``upto`` orders, for a save that stops replaying
    at a later one (made by a version whose rules differ there, or damaged). A writer's save
    is cut to them, after the whole save is copied to ``keep``, a new file: nothing is lost."""
    sf = SaveFile(path)
    if writer:
        sf.lock()
    try:
        full = sf.load()
        whole = len(full)
        if upto is not None and not 0 <= upto <= whole:
            raise SaveError(f"{sf.path}: --upto {upto}: the save holds {whole} orders (0 to {whole} may be kept)")
        st = replay(game, full if upto is None else EventLog(full.meta, full.entries[:upto]))
        if writer and upto is not None and upto < whole:
            if keep is None:
                raise SaveError(f"{sf.path}: cutting it to {upto} orders needs a file to keep the whole save in")
            SaveFile(keep).create(full)  # never replaces a file; the cut waits for it
            sf.truncate(upto)
    except ReplayError as e:
        sf.close()
        err = SaveError(f"{sf.path}: {e}")
        err.seq = e.seq
        raise err from None
    except SaveError:
        sf.close()
        raise
    st.save = sf
    return st


def play_out(state: PlayState, chooser: Any, max_orders: int = 100_000) -> Result:
    """Let ``chooser(state, legal) -> order`` play the game to its end."""
    for _ in range(max_orders):
        if state.is_over():
            break
        legal = state.legal_orders()
        state.apply(chooser(state, legal))
    return state.result()


def run_fast(game: Any, seed: int, bots: dict[str, Any], record: bool = False, max_orders: int = 100_000,
             meta: dict[str, Any] | None = None,
             observe: Any = None) -> tuple[FastView, EventLog | None]:
    """Play a whole game with bots as fast as the ruleset allows: the state is changed in
    place (no copy per order) and the dice come from one RNG seeded by the game's seed.

    The same seed and bots give the same game every time. With ``record`` the log is kept:
    it holds every roll, so :func:`replay` rebuilds the game (and its SVG frames) exactly.
    Bots are given a :class:`FastView`, not a ``PlayState``: search bots that clone states
    need :meth:`PlayState.apply` instead. ``observe(view, events)`` is called after every
    order (the simulator records objectives and combats with it). The cyclic garbage
    collector waits while the game plays (:func:`collector_paused`).
    """
    setup = order_dice(seed, -1)
    data = game.initial_state(seed, setup)
    log = (EventLog(dict(meta or {}, game=game.name, seed=seed, setup_rolls=[r.to_dict() for r in setup.rolls]))
           if record else None)
    rng = random.Random(f"hexwar-fast:{seed}")
    view = FastView(game, data)
    with collector_paused():
        for seq in range(max_orders):
            if data.over:
                break
            side = game.current_side(data)
            bot = bots[side]
            # a bot that reads a menu (the random bot, choosing a kind first; a priority bot that
            # bounds a unit's moves before it asks for them) is given one: the same orders, the
            # parts it does not need never listed
            legal = game.legal_menu(data) if bot.reads_menu else game.legal_orders(data)
            order = bot.choose(view.view_for((side,)), legal)
            dice = Dice(rng=rng)
            events: list[dict[str, Any]] = []
            game.apply_unchecked(data, order, dice, events)
            if log is not None:
                log.append(Entry(seq, order.to_dict(), list(dice.rolls), events))
            if observe is not None:
                observe(view, events)
    return view, log


@contextmanager
def collector_paused(collect: bool = True) -> Iterator[None]:
    """Pause the cyclic garbage collector for a stretch of fast play (``run_fast``'s game, a
    search bot's decision), then (``collect``) collect the young objects it left, as the
    collector would at the next allocation.

    The engine's caches for the map (order lists, reaches, naval routes) hold a few hundred
    thousand objects, and each full sweep walks them all again: with the collector running,
    its sweeps were a sixth of an Assault on Narvik priority game's time. Reference counting
    frees almost everything a game lets go of while it plays; the cycles it leaves (about ten
    thousand objects, a few MB, in a priority game) wait for the collector after the game.
    A collector the caller has paused already stays paused."""
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            gc.enable()
            if collect:
                gc.collect(0)
