"""The game API: ``Game`` (frozen ruleset + board + tables + scenario) and ``PlayState``.

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
from typing import Any, Callable, Collection, Iterator

from hexwar.core.dice import Dice, DiceExhausted, Roll
from hexwar.core.game import Event, Game, Refusals, Result, S
from hexwar.core.log import Entry, EventLog, SaveError, SaveFile
from hexwar.core.orders import IllegalOrder, Menu, Order, OrderList
from hexwar.core.state import GameState

__all__ = ["DecisionGame", "Decision", "Event", "FastView", "Game", "Phase", "PlayState", "Refusals", "ReplayError",
           "Result", "Ruleset", "SideView", "collector_paused", "load_game", "new_play_state", "order_dice", "play_out",
           "replay", "replay_entry", "replay_start", "run_fast", "seen_by"]


#: what the engine plays: any game (kept under its first name for the callers that use it)
Ruleset = Game


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

    decisions: Any
    phases: Any
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


def order_dice(seed: int, seq: int) -> Dice:
    """Return the dice for order number ``seq`` of a game seeded ``seed``."""
    return Dice(rng=random.Random(f"hexwar:{seed}:{seq}"))


def seen_by(game: Game[S], data: S, sides: Collection[str] | None) -> S:
    """What the player(s) of ``sides`` may see of ``data`` (the game's ``view``; None: all)."""
    return data if sides is None else game.view(data, sides)


class FastView:
    """A game's OpenSpiel-like queries over its ruleset and data; what a bot sees of a game
    that ``run_fast`` plays without copies or a log."""

    def __init__(self, game: Any, data: GameState):
        self.game = game
        self.data = data

    def view_for(self, sides: Collection[str]) -> "SideView":
        """The game as the player(s) of ``sides`` see it: what a bot chooses from."""
        return SideView(self, sides)

    def current_side(self) -> str:
        return self.game.current_side(self.data)

    def legal_orders(self) -> list[Order]:
        return self.game.legal_orders(self.data)

    def is_over(self) -> bool:
        return self.data.over

    def result(self) -> Result:
        return self.game.result(self.data)


class SideView:
    """A game seen by one side (or several): ``data`` is the side's view of the state, the
    legal orders are the real ones; ``clone`` gives a game a search can play out from the
    view (with dice of its own: the view's seed is not the game's)."""

    def __init__(self, real: FastView, sides: Collection[str]):
        self._real = real
        self.game = real.game
        self._sides = sides
        self._data: GameState | None = None

    @property
    def data(self) -> GameState:
        """The side's view, made when a bot first looks (a random bot never does)."""
        if self._data is None:
            self._data = seen_by(self.game, self._real.data, self._sides)
        return self._data

    def current_side(self) -> str:
        return self._real.current_side()

    def legal_orders(self) -> list[Order]:
        return self._real.legal_orders()

    def is_over(self) -> bool:
        return self._real.is_over()

    def result(self) -> Result:
        return self.game.result(self.data)

    def clone(self) -> "PlayState":
        return PlayState(self.game, self.data.clone(), EventLog({"game": self.game.name, "seed": self.data.seed}))


class PlayState(FastView):
    """A game in progress: the data, the ruleset, the log, and an optional save file.

    ``apply`` accepts exactly the orders ``legal_orders`` offers (and those a game's
    ``accepts`` allows beyond its list, such as any split of 6 FP in Assault on Narvik,
    15.2); anything else is an :class:`IllegalOrder`, with the game's own reason where it
    has one. The legal orders of the current position are computed once and kept until the
    state moves on (change ``data`` only through ``apply`` and ``undo``).
    """

    def __init__(self, game: Ruleset, data: GameState, log: EventLog, save: SaveFile | None = None):
        super().__init__(game, data)
        self.log = log
        self.save = save
        self._legal: tuple[tuple[int, int], list[Order], set[Order] | None] | None = None

    def legal_orders(self) -> list[Order]:
        key = (id(self.data), len(self.log))
        if self._legal is None or self._legal[0] != key:
            self._legal = (key, self.game.legal_orders(self.data), None)
        return self._legal[1]

    def offered(self, order: Order) -> bool:
        """Whether ``order`` is one of the orders offered now (the very object, or an equal one)."""
        legal = self.legal_orders()
        if id(order) in map(id, legal):  # a bot or a player picked it from the list: no comparisons
            return True
        assert self._legal is not None
        key, _, index = self._legal
        if index is None:
            index = set(legal)
            self._legal = (key, legal, index)
        try:
            return order in index
        except TypeError:  # a field holding a list, a set or a dict: no order of the list has one
            return False

    def offers(self, order: Order) -> bool:
        """Whether the rules allow ``order`` now: offered, or accepted beyond the list."""
        if self.offered(order):
            return True
        return self.game.accepts(self.data, order)

    # --- changes ------------------------------------------------------------------------

    def apply(self, order: Order) -> list[dict[str, Any]]:
        """Apply an order; on any error the state and log are unchanged."""
        if self.data.over:
            raise IllegalOrder("the game is over", self.game.refusals.over)
        seq = len(self.log)
        dice = order_dice(self.data.seed, seq)
        return self._apply(order, dice, seq, check=True)

    def _apply(self, order: Order, dice: Dice, seq: int, check: bool = False) -> list[dict[str, Any]]:
        offered = True
        if check and not self.offered(order):  # an order not taken from the list: check it through
            if order not in self.game.orders:
                raise IllegalOrder(f"{type(order).__name__} is not an order of {self.game.name}", self.game.refusals.foreign)
            # every field of the declared type, or IllegalOrder naming it; the order as read
            # back (a list where a tuple belongs becomes the tuple) is the one given
            order = self.game.orders.from_dict(order.to_dict())
            offered = self.offers(order)
        work = self.data.clone()
        try:
            events = self.game.apply(work, order, dice)  # the game's own reasons first
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
            if offered or isinstance(exc, IllegalOrder):
                raise
            offered = False  # a malformed order the handler choked on: refused below
        if not offered:
            rule = self.game.decision_rule(self.data)
            raise IllegalOrder(f"{order.text()} is not one of the orders the rules allow now", rule)
        entry = Entry(seq, order.to_dict(), list(dice.rolls), events)
        if self.save is not None:
            self.save.append(entry)  # durable before the state moves on
        self.log.append(entry)
        self.data = work
        return events

    def clone(self) -> "PlayState":
        """Return an independent copy (no save file attached)."""
        return PlayState(self.game, self.data.clone(), EventLog(dict(self.log.meta), list(self.log.entries)))

    def undo(self, n: int = 1) -> None:
        """Take back the last ``n`` orders by replaying the log minus its tail."""
        if n > len(self.log):
            raise IllegalOrder(f"only {len(self.log)} orders to undo")
        keep = self.log.entries[: len(self.log) - n]
        fresh = replay(self.game, EventLog(dict(self.log.meta), keep), verify=False)  # our own log
        self.data, self.log = fresh.data, fresh.log
        if self.save is not None:
            self.save.truncate(len(keep))

    # --- persistence --------------------------------------------------------------------

    def to_json(self) -> str:
        return self.data.to_json()

    def attach_save(self, path: str | Path, lock: bool = True) -> None:
        """Save the game so far to a new file at ``path`` and append every order to it; with
        ``lock`` this process is its only writer until :meth:`close`."""
        save = SaveFile(path)
        save.create(self.log)
        if lock:
            save.lock()
        self.save = save

    def close(self) -> None:
        """Stop writing to the save (and release it for another player)."""
        if self.save is not None:
            self.save.close()


def new_play_state(game: Ruleset, seed: int, meta: dict[str, Any]) -> PlayState:
    """Start a game: the ruleset's initial state, with set-up draws logged in the meta."""
    dice = order_dice(seed, -1)
    data = game.initial_state(seed, dice)
    log = EventLog(dict(meta, game=game.name, seed=seed, setup_rolls=[r.to_dict() for r in dice.rolls]))
    return PlayState(game, data, log)


class ReplayError(ValueError):
    """A log that does not replay on this game: another game's, tampered, or diverging;
    ``seq``: the entry it stopped at, when one is to blame (the orders before it replay)."""

    def __init__(self, message: str, seq: int | None = None):
        super().__init__(message)
        self.seq = seq


def replay_start(game: Ruleset, meta: dict[str, Any]) -> PlayState:
    """Return the start of a logged game, its set-up draws read back from the meta."""
    if meta.get("game", game.name) != game.name:
        raise ReplayError(f"this is a save of {meta.get('game')!r}, not of {game.name!r}")
    seed = meta.get("seed")
    if type(seed) is not int:
        raise ReplayError(f"the log's seed is {seed!r}, not a whole number")
    try:
        setup = [Roll.from_dict(r) for r in meta.get("setup_rolls", [])]
    except ValueError as e:
        raise ReplayError(f"set-up draws: {e}") from None
    dice = Dice.replaying(setup)
    try:
        data = game.initial_state(seed, dice)
    except DiceExhausted as e:
        raise ReplayError(f"set-up: {e}") from None
    if dice.left():
        raise ReplayError(f"set-up: the log holds {dice.left()} draw(s) the game never made")
    return PlayState(game, data, EventLog(dict(meta)))


def replay_entry(st: PlayState, e: Entry, verify: bool = True) -> list[dict[str, Any]]:
    """Apply one logged entry with its recorded draws; raise :class:`ReplayError` where the
    log and the game disagree (an illegal order, other dice, other events). With ``verify``
    each order must also be one the rules allowed at that point."""
    try:
        order = st.game.orders.from_dict(e.order)
    except IllegalOrder as exc:
        raise ReplayError(f"order {e.seq}: {exc}", e.seq) from None
    dice = Dice.replaying(e.rolls)
    try:
        events = st._apply(order, dice, e.seq, check=verify)
    except IllegalOrder as exc:
        raise ReplayError(f"order {e.seq} ({order.text()}) is refused: {exc}", e.seq) from None
    except DiceExhausted as exc:
        raise ReplayError(f"order {e.seq} ({order.text()}): {exc}", e.seq) from None
    if dice.left():
        raise ReplayError(f"order {e.seq} ({order.text()}): the log holds {dice.left()} draw(s) the game never made", e.seq)
    if verify and events != e.events:
        raise ReplayError(f"replay diverged at order {e.seq} ({order.text()}): events differ from the log", e.seq)
    return events


def replay(game: Ruleset, log: EventLog, verify: bool = True) -> PlayState:
    """Rebuild a game from its log using only the recorded draws (no RNG)."""
    st = replay_start(game, log.meta)
    for e in log.entries:
        replay_entry(st, e, verify)
    return st


def load_game(game: Ruleset, path: str | Path, writer: bool = False, upto: int | None = None,
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
            # a bot that chooses a kind first (the random bot) reads a menu: the same orders,
            # the kinds it does not choose never listed
            legal = game.legal_menu(data) if bot.reads_by_kind else game.legal_orders(data)
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
