"""The contract between the engine and a game: :class:`Game`.

Everything shared code (the engine, the terminal and the web board, the bots, the simulator,
the OpenSpiel adapter) asks of a game is declared here, typed on the game's own state
``S``. Five methods are the game's rules and have no default; the rest have a default that
is honest for a game without the feature (a game with nothing hidden shows every side the
whole state; a game with no orders beyond its list accepts none), so shared code calls them
and never probes a game for a method (``getattr``/``hasattr``).

Modelled on OpenSpiel's ``Game``/``State`` split and boardgame.io's ``playerView``:

    game = MyGame(...)                        # frozen: rules, board, tables, scenario
    state = game.new_state(seed=1)            # a PlayState (hexwar.core.play) over the game's own data S
    while not state.is_over():
        order = bot.choose(state.view_for((side,)), state.legal_orders())
        events = state.apply(order)           # IllegalOrder, citing the game's rule, if refused

A game in play (its log, its save, undo) is ``hexwar.core.play``; a save replayed is
``hexwar.core.replay``; how a game stands is ``hexwar.core.result.Result``.
"""

from __future__ import annotations

from abc import ABC, ABCMeta, abstractmethod
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Collection, Generic, Mapping, Protocol, Sequence, TypeVar

from hexwar.core.dice import Dice
from hexwar.core.orders import Menu, Order, OrderKinds, Refusals
from hexwar.core.play import PlayState, SideView, new_play_state
from hexwar.core.result import Result
from hexwar.core.state import GameState

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.board.base import Board

S = TypeVar("S", bound=GameState)
#: an event: a JSON-ready record of what an order did (its ``type`` names its schema)
Event = dict[str, Any]


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
