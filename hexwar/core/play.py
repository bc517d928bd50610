"""A game in play: :class:`PlayState` (its data, its log and its save, with undo), the views a
bot chooses from (:class:`FastView`, :class:`SideView`) and the dice of each order.

It plays any game that answers :class:`Played` (the contract's ``hexwar.core.game.Game``
does), so the contract can start a game (``Game.new_state``) without this module reaching
back to it. Replaying a save is ``hexwar.core.replay``.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Collection, Mapping, Protocol, Sequence

from hexwar.core.dice import Dice
from hexwar.core.log import Entry, EventLog, SaveFile
from hexwar.core.orders import IllegalOrder, Menu, Order, OrderKinds, Refusals
from hexwar.core.result import Result
from hexwar.core.state import GameState


class Played(Protocol):
    """What a game in play asks of its game: the part of the contract (``hexwar.core.game.Game``)
    that playing, checking and refusing an order reads."""

    name: str
    orders: OrderKinds
    refusals: Refusals

    @property
    def added_events(self) -> Mapping[str, frozenset[str]]: ...
    def initial_state(self, seed: int, dice: Dice) -> Any: ...
    def current_side(self, data: Any) -> str: ...
    def legal_orders(self, data: Any) -> list[Order]: ...
    def apply(self, data: Any, order: Order, dice: Dice) -> list[dict[str, Any]]: ...
    def result(self, data: Any) -> Result: ...
    def accepts(self, data: Any, order: Order) -> bool: ...
    def decision_rule(self, data: Any) -> str: ...
    def view(self, data: Any, sides: Collection[str]) -> Any: ...
    def legal_menu(self, data: Any) -> Sequence[Order] | Menu: ...
    def apply_unchecked(self, data: Any, order: Order, dice: Dice, events: list[dict[str, Any]]) -> None: ...


def order_dice(seed: int, seq: int) -> Dice:
    """Return the dice for order number ``seq`` of a game seeded ``seed``."""
    return Dice(rng=random.Random(f"hexwar:{seed}:{seq}"))


def seen_by(game: Played, data: GameState, sides: Collection[str] | None) -> GameState:
    """What the player(s) of ``sides`` may see of ``data`` (the game's ``view``; None: all)."""
    return data if sides is None else game.view(data, sides)


class FastView:
    """A game's OpenSpiel-like queries over its ruleset and data; what a bot sees of a game
    that ``run_fast`` plays without copies or a log."""

    def __init__(self, game: Played, data: GameState):
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

    def __init__(self, game: Played, data: GameState, log: EventLog, save: SaveFile | None = None):
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
        draws). Every state keeps the position before its first order, so one is always
        found."""
        if n < 0:
            raise IllegalOrder(f"undo takes back 0 orders or more, not {n}")
        if n > len(self.log):
            raise IllegalOrder(f"only {len(self.log)} orders to undo")
        target = len(self.log) - n
        keep = self.log.entries[:target]
        if n == 0:
            return
        base = max((k for k in self._past if k <= target), default=None)
        if base is None:  # a state built over a log it did not play (every state here starts empty)
            raise IllegalOrder("the positions before these orders are not kept here: load the game's save to go back")
        fresh = PlayState(self.game, self._past[base], EventLog(dict(self.log.meta), keep[:base]))
        fresh._past = {k: v for k, v in self._past.items() if k < base}
        for e in keep[base:]:  # our own log: its orders and their recorded draws, not checked again
            fresh._apply(self.game.orders.from_dict(e.order), Dice.replaying(e.rolls), e.seq)
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


def new_play_state(game: Played, seed: int, meta: dict[str, Any]) -> PlayState:
    """Start a game: the ruleset's initial state, with set-up draws logged in the meta."""
    dice = order_dice(seed, -1)
    data = game.initial_state(seed, dice)
    log = EventLog(dict(meta, game=game.name, seed=seed, setup_rolls=[r.to_dict() for r in dice.rolls]))
    return PlayState(game, data, log)
