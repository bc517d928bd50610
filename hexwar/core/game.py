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

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Collection, Generic, Mapping, Protocol, Sequence, TypeVar

from hexwar.core.dice import Dice
from hexwar.core.orders import Menu, Order, OrderKinds
from hexwar.core.state import GameState

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.board.base import Board
    from hexwar.core.engine import PlayState

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
    #: it takes its time and says how its search stands through ``progress`` (a search bot)
    thinks: bool
    progress: Callable[[dict[str, Any]], None] | None

    def choose(self, state: Any, legal: Sequence[Order]) -> Order: ...


@dataclass(frozen=True)
class Refusals:
    """The rule sections the engine cites, in the game's own numbering, when it refuses an
    order: the game is over (``over``), the object is no order of this game or a malformed
    one (``foreign``), and the order is not one the rules allow now (``not_now``: the
    default of :meth:`Game.decision_rule`)."""

    over: str
    foreign: str
    not_now: str


class Game(ABC, Generic[S]):
    """A game: a frozen ruleset over a board, its tables and a scenario, played on states of
    type ``S`` (the game's own subclass of :class:`GameState`).

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
        from hexwar.core.engine import new_play_state

        return new_play_state(self, seed, self.save_meta())

    def legal_menu(self, data: S) -> Menu:
        """The legal orders as a :class:`Menu`, for a reader that chooses a kind first: by
        default the whole list, grouped by kind."""
        return Menu.of(self.legal_orders(data))

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
