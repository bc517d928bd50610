"""The contract between the engine and a game: :class:`Game`.

Everything shared code (the engine, the terminal and the web board, the bots, the simulator,
the OpenSpiel adapter) asks of a game is declared here, typed on the game's own state
``S``. Five methods are the game's rules and have no default; the rest have a default that
is honest for a game without the feature (a game with nothing hidden shows every side the
whole state; a game with no orders beyond its list accepts none), so shared code calls them
and never probes a game for a method (``getattr``/``hasattr``).

Modelled on OpenSpiel's ``Game``/``State`` split and boardgame.io's ``playerView``:

    game = MyGame(...)                        # frozen: rules, board, tables, scenario
    state = game.new_state(seed=1)            # a PlayState over the game's own data S
    while not state.is_over():
        order = bot.choose(state.view_for((side,)), state.legal_orders())
        events = state.apply(order)           # IllegalOrder, citing the game's rule, if refused
"""

from __future__ import annotations

from abc import ABC, ABCMeta, abstractmethod
from dataclasses import dataclass
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Collection, Generic, Mapping, Protocol, Sequence, TypeVar

from hexwar.core.dice import Dice, DiceExhausted, Roll
from hexwar.core.log import Entry, EventLog, SaveFile
from hexwar.core.orders import IllegalOrder, Menu, Order, OrderKinds
from hexwar.core.state import GameState

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.board.base import Board

S = TypeVar("S", bound=GameState)
#: an event: a JSON-ready record of what an order did (its ``type`` names its schema)
Event = dict[str, Any]


@dataclass(frozen=True)
class Result:
    """How a game ended (or stands): winner, victory level, the tally per side (VP, or
    what the game counts)."""

    over: bool
    winner: str | None
    level: str
    vp: dict[str, int]


class Bot(Protocol):
    """A player the engine runs: it chooses one of the legal orders, from its side's view of
    the game (``state``: a ``SideView``; the legal orders are the real ones)."""

    name: str
    #: it chooses a kind of order first, so a :class:`Menu` (the orders listed by kind on
    #: demand) serves it as well as the whole list (``run_fast`` gives it one)
    reads_by_kind: bool
    #: it may be handed a :class:`Menu` instead of the list (``run_fast`` and the search's
    #: rollouts give it one): the same choice, parts it does not need never worked out
    reads_menu: bool
    #: it takes its time and says how its search stands through ``progress`` (a search bot)
    thinks: bool
    progress: Callable[[dict[str, object]], None] | None

    def choose(self, state: SideView, legal: Sequence[Order]) -> Order: ...


@dataclass(frozen=True)
class Refusals:
    """The rule sections the engine cites, in the game's own numbering, when it refuses an
    order: the game is over (``over``), the object is no order of this game or a malformed
    one (``foreign``), and the order is not one the rules allow now (``not_now``: the
    default of :meth:`Game.decision_rule`)."""

    over: str
    foreign: str
    not_now: str


_C = TypeVar("_C", bound="Caches")


class Caches:
    """A rules object's caches, in one place (issue 73): a game subclasses it (a dataclass of
    dicts, usually) and its rules object holds one as ``caches``.

    Lifetime: the rules object's. An entry is a pure function of the rules object (its
    scenario, board, charts and switches) and of its key, never of one game in play, so
    every game and every search on the same rules shares it safely; a cache that holds
    something of one listing says so in its own docstring and is emptied by its owner. A copy
    of the rules (a search helper's, sent pickled) starts with ``fresh()`` caches and works
    them out again (some hold the compiled engine's maps, which do not pickle)."""

    def fresh(self: _C) -> _C:
        """Empty caches of the same kind."""
        return type(self)()


class _Frozen(ABCMeta):
    """A rules object is frozen when its construction ends (``Game.__setattr__``)."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        made = super().__call__(*args, **kwargs)
        object.__setattr__(made, "_frozen", True)
        return made


class Game(ABC, Generic[S], metaclass=_Frozen):
    """A game: a frozen ruleset over a board, its tables and a scenario, played on states of
    type ``S`` (the game's own subclass of :class:`GameState`).

    Frozen means it: once built, a rules object refuses to have an attribute set (issue 73),
    so one game or search can never change the rules another reads; what it works out as it
    goes lives in its ``caches`` (a :class:`Caches`), the one thing in it that changes.

    A subclass sets ``name``, ``orders`` (its :class:`OrderKinds`), ``refusals`` and
    ``board`` (usually in ``__init__``), and implements the five rules methods
    (:meth:`initial_state`, :meth:`current_side`, :meth:`legal_orders`, :meth:`apply`,
    :meth:`result`). ``events`` names the schema (a ``TypedDict``) of each event type it
    emits; the conformance suite checks every event against it.
    """

    name: str
    orders: OrderKinds
    refusals: Refusals
    board: "Board"
    #: event type -> its schema (a ``TypedDict``); empty: the events are not declared
    events: ClassVar[Mapping[str, type]] = {}
    #: what a later version added to the events it tells, which an older save lacks: event
    #: type -> the fields added to it, or an empty set for a whole new event; a save's replay
    #: checks its events without them, so a game told more fully still loads its older saves
    added_events: ClassVar[Mapping[str, frozenset[str]]] = {}

    def __setattr__(self, name: str, value: Any) -> None:
        if self.__dict__.get("_frozen"):
            raise AttributeError(f"{type(self).__name__} is frozen once built: {name!r} cannot be set "
                                 "(what the rules work out as they go belongs in their caches)")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if self.__dict__.get("_frozen"):
            raise AttributeError(f"{type(self).__name__} is frozen once built: {name!r} cannot be removed")
        object.__delattr__(self, name)

    def __getstate__(self) -> dict[str, Any]:
        """The rules for a copy (a search helper's, sent pickled): their attributes, and their
        caches fresh (``Caches.fresh``)."""
        state = dict(self.__dict__)
        caches = state.get("caches")
        if isinstance(caches, Caches):
            state["caches"] = caches.fresh()
        return state

    # --- the rules: every game writes these ---------------------------------------------

    @abstractmethod
    def initial_state(self, seed: int, dice: Dice) -> S:
        """The state before the first order (set-up draws come from ``dice`` and are logged)."""

    @abstractmethod
    def current_side(self, data: S) -> str:
        """The side whose decision the game waits for."""

    @abstractmethod
    def legal_orders(self, data: S) -> list[Order]:
        """Every order the side to move may give now (none once the game is over)."""

    @abstractmethod
    def apply(self, data: S, order: Order, dice: Dice) -> list[Event]:
        """Carry out an order in place and return its events; an order the rules forbid
        raises :class:`~hexwar.core.orders.IllegalOrder` with its rule (the engine gives it
        a copy, so a refusal halfway leaves the person's state as it was)."""

    @abstractmethod
    def result(self, data: S) -> Result:
        """How the game stands: over or not, the winner, the level of victory, the tally."""

    # --- honest defaults ------------------------------------------------------------------

    def save_meta(self) -> dict[str, Any]:
        """What a save records to build this game again (its scenario, board, switches)."""
        return {"game": self.name}

    def new_state(self, seed: int) -> "PlayState":
        """A new game played by people: its state, log and (later) its save."""
        return new_play_state(self, seed, self.save_meta())

    def legal_menu(self, data: S) -> "Sequence[Order] | Menu":
        """The legal orders for a reader that chooses a kind first (``order_kinds``,
        ``orders_of_kind``): a game whose listing defers parts returns a :class:`Menu`; by
        default the list itself, which those read as fast."""
        return self.legal_orders(data)

    def apply_unchecked(self, data: S, order: Order, dice: Dice, events: list[Event]) -> None:
        """Carry out an order a bot took from the list, for fast play (``run_fast``): a game
        may skip what only a refusal needs; by default it is :meth:`apply`."""
        events.extend(self.apply(data, order, dice))

    def accepts(self, data: S, order: Order) -> bool:
        """Whether the rules allow an order that the capped list leaves out (any split of
        points, any subset of units): none by default."""
        return False

    def decision_rule(self, data: S) -> str:
        """The rule section of the decision the game waits for (a refused order cites it)."""
        return self.refusals.not_now

    def view(self, data: S, sides: Collection[str]) -> S:
        """What the player(s) of ``sides`` may see of ``data``: a game with nothing hidden
        shows the whole state."""
        return data

    def visible_events(self, data: S, events: list[Event], sides: Collection[str]) -> list[Event]:
        """An order's events as ``sides`` may see them: all, when nothing is hidden."""
        return events

    def visible_order(self, data: S, order: Order, sides: Collection[str]) -> str:
        """An order just given, in the words ``sides`` may read: its text when nothing is hidden."""
        return order.text()

    def winning_sides(self, winner: str) -> tuple[str, ...]:
        """The sides that win with ``winner`` (a coalition's partners win together)."""
        return (winner,)

    def state_problems(self, data: S, sides: Collection[str] | None = None) -> list[str]:
        """What makes ``data`` no state this game can play on, each a sentence (a phase or a
        weather it does not have, a counter off its board or of a type it does not know): a
        position file is refused with any before a game starts from it, where play would
        fail orders later (issue 70). ``sides``: ``data`` is what they see (a view, where the
        other side's hidden counters and cards are placeholders); None: the whole state. By
        default: a state of another game. A game adds its own
        (``hexwar.core.invariants.counters`` for a game of counters)."""
        return [] if data.game == self.name else [f"game: the state is of {data.game!r}, not of {self.name!r}"]


# --- a game in play: its state, its log, its replay ------------------------------------------


def order_dice(seed: int, seq: int) -> Dice:
    """Return the dice for order number ``seq`` of a game seeded ``seed``."""
    return Dice(rng=random.Random(f"hexwar:{seed}:{seq}"))


def seen_by(game: Game[S], data: S, sides: Collection[str] | None) -> S:
    """What the player(s) of ``sides`` may see of ``data`` (the game's ``view``; None: all)."""
    return data if sides is None else game.view(data, sides)


class FastView:
    """A game's OpenSpiel-like queries over its ruleset and data; what a bot sees of a game
    that ``run_fast`` plays without copies or a log."""

    def __init__(self, game: Game[Any], data: GameState):
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

    ``apply`` accepts exactly the orders ``legal_orders`` offers, and those of an offered
    order's family (``Order.family``) that the game's ``accepts`` allows beyond its list,
    such as any split of 6 FP in Assault on Narvik (15.2); anything else is an
    :class:`IllegalOrder`, with the game's own reason where it has one. The legal orders of
    the current position are computed once and kept until the state moves on (change
    ``data`` only through ``apply`` and ``undo``).
    """

    def __init__(self, game: Game[Any], data: GameState, log: EventLog, save: SaveFile | None = None):
        super().__init__(game, data)
        self.log = log
        self.save = save
        self._legal: tuple[tuple[int, int], list[Order], set[Order] | None] | None = None
        #: the families of the listed orders (``offers``), with the list they are of
        self._families_of: tuple[list[Order], set[tuple[Any, ...]]] | None = None
        #: the data as it stood before an order, by the number of orders played then: what
        #: ``undo`` goes back to without replaying the log. ``_apply`` works on a copy and
        #: keeps the replaced data unchanged, so keeping it costs no copy; the last ``RECENT``
        #: are kept, and every ``SPARSE``-th before them, so an undo replays fewer than
        #: ``SPARSE`` orders however long the game
        self._past: dict[int, GameState] = {}

    RECENT = 64
    SPARSE = 32

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
        """Whether the rules allow ``order`` now: offered, or of the family of an offered one
        (``Order.family``: the same target, route ends or result, with a free part the list
        gives only a few ways of) and accepted by the game's check of that part
        (``Game.accepts``). Nothing else is carried out, whoever asks (issue 70)."""
        if self.offered(order):
            return True
        family = order.family()
        if family is None or family not in self._families():
            return False
        return self.game.accepts(self.data, order)

    def _families(self) -> set[tuple[Any, ...]]:
        """The families of the orders offered now (kept with the listing)."""
        legal = self.legal_orders()
        assert self._legal is not None
        if self._families_of is None or self._families_of[0] is not legal:
            self._families_of = (legal, {f for o in legal if (f := o.family()) is not None})
        return self._families_of[1]

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
        self._keep(seq, self.data)
        self.data = work
        return events

    def _keep(self, seq: int, data: GameState) -> None:
        """Keep the data that stood before order ``seq`` for ``undo``; let one fall out of
        the recent ones unless it is a sparse one."""
        past = self._past
        past[seq] = data
        old = seq - self.RECENT
        if old >= 0 and old % self.SPARSE and old in past:
            del past[old]

    def clone(self) -> "PlayState":
        """Return an independent copy (no save file attached). The data kept for ``undo`` is
        shared: neither copy ever changes it."""
        new = PlayState(self.game, self.data.clone(), EventLog(dict(self.log.meta), list(self.log.entries)))
        new._past = dict(self._past)
        return new

    def undo(self, n: int = 1) -> None:
        """Take back the last ``n`` orders: the data kept from before them, or the nearest
        kept before that with the orders between replayed from the log (their recorded
        draws), or, when none is kept (a state copied from another), the log replayed from
        its start."""
        if n < 0:
            raise IllegalOrder(f"undo takes back 0 orders or more, not {n}")
        if n > len(self.log):
            raise IllegalOrder(f"only {len(self.log)} orders to undo")
        target = len(self.log) - n
        keep = self.log.entries[:target]
        base = max((k for k in self._past if k <= target), default=None)
        if base is None:
            fresh = replay(self.game, EventLog(dict(self.log.meta), keep), verify=False)  # our own log
        else:
            fresh = PlayState(self.game, self._past[base], EventLog(dict(self.log.meta), keep[:base]))
            fresh._past = {k: v for k, v in self._past.items() if k < base}
            for e in keep[base:]:
                replay_entry(fresh, e, verify=False)
        self.data, self.log, self._past = fresh.data, fresh.log, fresh._past
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


def new_play_state(game: Game[Any], seed: int, meta: dict[str, Any]) -> PlayState:
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


def replay_start(game: Game[Any], meta: dict[str, Any]) -> PlayState:
    """Return the start of a logged game, its set-up draws read back from the meta."""
    if meta.get("game", game.name) != game.name:
        raise ReplayError(f"this is a save of {meta.get('game')!r}, not of {game.name!r}")
    if "start" in meta:  # a game played on from a position (issue 54): it starts where that stood
        try:
            start = GameState.from_json(str(meta["start"]))
        except ValueError as e:
            raise ReplayError(f"the position it started from: {str(e).splitlines()[0]}") from None
        if start.game != game.name:
            raise ReplayError(f"the position it started from is of {start.game!r}, not of {game.name!r}")
        problems = game.state_problems(start)  # a save made from a position no game could play (issue 70)
        if problems:
            raise ReplayError(f"the position it started from is no state of this game: {problems[0]}"
                              + (f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""))
        return PlayState(game, start, EventLog(dict(meta)))
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
    except Exception as exc:  # noqa: BLE001
        # a state the rules cannot carry this order out from: one line, the orders before it replay
        raise ReplayError(f"order {e.seq} ({order.text()}) cannot be carried out ({type(exc).__name__}: "
                          f"{str(exc)[:100]})", e.seq) from None
    if dice.left():
        raise ReplayError(f"order {e.seq} ({order.text()}): the log holds {dice.left()} draw(s) the game never made", e.seq)
    if verify and events != e.events and not told_before(events, e.events, st.game.added_events):
        raise ReplayError(f"replay diverged at order {e.seq} ({order.text()}): events differ from the log", e.seq)
    return events


def told_before(events: list[dict[str, Any]], logged: list[dict[str, Any]], added: Mapping[str, frozenset[str]]) -> bool:
    """Whether ``logged`` is ``events`` as an earlier version told them: the same once the
    events and fields added since (``Game.added_events``) are taken out of both.

    >>> told_before([{"type": "hit"}, {"type": "back"}], [{"type": "hit"}], {"back": frozenset()})
    True
    >>> told_before([{"type": "end", "why": "x"}], [{"type": "end"}], {"end": frozenset({"why"})})
    True
    >>> told_before([{"type": "hit", "n": 2}], [{"type": "hit", "n": 1}], {"back": frozenset()})
    False
    """
    if not added:
        return False

    def without(evs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out = []
        for ev in evs:
            extra = added.get(str(ev.get("type")))
            if extra is None:
                out.append(ev)
            elif extra:
                out.append({k: v for k, v in ev.items() if k not in extra})
        return out

    return without(events) == without(logged)


def replay(game: Game[Any], log: EventLog, verify: bool = True) -> PlayState:
    """Rebuild a game from its log using only the recorded draws (no RNG)."""
    st = replay_start(game, log.meta)
    for e in log.entries:
        replay_entry(st, e, verify)
    return st
