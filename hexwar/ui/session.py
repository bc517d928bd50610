"""A game in play for one person: the state, the sides they command, the bots for the others,
the save, and what the person may see. The terminal and the web board share it; neither
knows a game's words (those are its presenter's)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping

from hexwar.core.dice import Dice, DiceExhausted
from hexwar.core.play import PlayState, seen_by
from hexwar.core.game import Bot, Event
from hexwar.core.orders import IllegalOrder, Order
from hexwar.ui.render import EVERYONE


#: the bots' decisions an undo can take back to the bot as it was (a Kampen bot is ~270 KB)
KEPT = 64


class Session:
    """One person's game: ``humans`` are the sides they command; ``bots`` play the rest."""

    def __init__(self, state: PlayState, humans: set[str], bots: Mapping[str, Bot], save_path: Path | None = None,
                 snapshots: Path | None = None):
        self.s = state
        self.game: Any = state.game  # the game object (board, tables, scenario)
        self.humans = humans
        self.bots: dict[str, Bot] = dict(bots)
        # each bot as it stood before each of its decisions, by the log's length then: an undo
        # puts the bots back as they were, so the same position and order get the same answer
        self._kept: dict[int, tuple[str, Bot]] = {}
        self.save_path = save_path
        self.snapshots = snapshots  # the folder map snapshots go to (None: beside the save)
        sides = set(humans) | set(bots)
        # what the person may see: their own sides' secrets, not the bots' (all: hot seat, none: watching)
        self._sees: frozenset[str] | None = frozenset(humans) if humans and humans != sides else None
        # the map's eyes: the one side played; every side's for a game only watched (nothing
        # is secret from nobody), an onlooker's (no face-down counter turned) in a hot seat
        self._viewer = next(iter(humans)) if len(humans) == 1 else None if humans else EVERYONE

    @property
    def sees(self) -> frozenset[str] | None:
        """The sides whose secrets the person may see (None: every side's); once the game is
        over, every side's: the counters are turned up, the hands shown."""
        return None if self.s.is_over() else self._sees

    @property
    def viewer(self) -> str | None:
        """The side the map is drawn for (None: an onlooker); once the game is over, everyone."""
        return EVERYONE if self.s.is_over() else self._viewer

    def view(self) -> Any:
        """The state as the person may see it (everything only when they play every side, or none)."""
        return seen_by(self.game, self.s.data, self.sees)

    def legal(self) -> list[Order]:
        """The person's orders now: none while a bot decides or once the game is over."""
        s = self.s
        return s.legal_orders() if not s.is_over() and s.current_side() in self.humans else []

    def order_text(self, order: Order) -> str:
        """An order just applied, as the person may see it."""
        return order.text() if self.sees is None else self.game.visible_order(self.s.data, order, self.sees)

    def visible_events(self, events: list[Event]) -> list[Event]:
        """An order's events as the person may see them."""
        return list(events) if self.sees is None else self.game.visible_events(self.s.data, list(events), self.sees)

    def newest_events(self, *types: str) -> Iterator[tuple[Any, Event]]:
        """The log's events of these types as the person may see them, newest first, each with
        its entry (``explain last``'s combat; a game's last fight)."""
        for entry in reversed(self.s.log.entries):
            for ev in reversed(self.visible_events(entry.events)):
                if ev.get("type") in types:
                    yield entry, ev

    def bot_move(self, progress: Callable[[dict[str, Any]], None] | None = None) -> tuple[str, Order, list[Event]]:
        """The bot whose decision it is gives its order, from its own side's view; a bot that
        thinks reports how its search stands to ``progress``. Returns the side, the order and
        its events."""
        side = self.s.current_side()
        bot = self.bots[side]
        if bot.thinks and progress is not None:
            bot.progress = progress
        self._kept.setdefault(len(self.s.log.entries), (side, self._copy(bot)))
        if len(self._kept) > KEPT:  # the oldest go: an undo further back keeps the bots as they are
            del self._kept[min(self._kept)]
        order = bot.choose(self.s.view_for((side,)), self.s.legal_orders())
        return side, order, self.s.apply(order)

    def _copy(self, bot: Bot) -> Bot:
        """The bot with its memory and dice, sharing the game and the progress report."""
        return copy.deepcopy(bot, {id(self.game): self.game, id(bot.progress): bot.progress})

    def undo(self, n: int) -> None:
        """Drop the log's last ``n`` entries, and put each bot back as it stood before the first
        of its decisions taken back (its dice and its memory): the same orders after an undo
        meet the same answers."""
        self.s.undo(n)
        back = len(self.s.log.entries)
        restored: set[str] = set()
        for at in sorted(k for k in self._kept if k >= back):
            side, bot = self._kept.pop(at)
            if side not in restored:  # the earliest decision taken back: the bot as it was then
                restored.add(side)
                self.bots[side] = bot

    def undo_count(self, n: int) -> int:
        """How many log entries to drop so that the person's last ``n`` orders go (the bots'
        answers with them): 0 when they gave fewer."""
        entries = self.s.log.entries
        mine = 0
        for k in range(len(entries) - 1, -1, -1):
            if entries[k].order.get("side") in self.humans:
                mine += 1
                if mine == n:
                    return len(entries) - k
        return 0

    def ends_the_game(self, order: Order) -> Any:
        """The state after ``order`` if it ends the game whatever the dice, else None.

        The order is tried on a copy with dice that refuse to roll, so an order whose outcome
        rests on a die is never flagged and no die is drawn or shown before it is given."""
        work = self.s.data.clone()
        try:
            self.game.apply(work, order, Dice.replaying([]))
        except (DiceExhausted, IllegalOrder, TypeError, ValueError, KeyError, IndexError, AttributeError):
            return None  # a die asked for, or an order the real apply refuses with its reason (as PlayState._apply)
        return work if work.over else None

    def snapshot_path(self, when: str) -> Path:
        """Where the next map snapshot goes: the snapshot folder (made if need be), named after the save."""
        stem = (self.save_path or Path(f"{self.game.name}-game.hexwar")).name
        folder = self.snapshots if self.snapshots is not None else (self.save_path or Path(stem)).resolve().parent
        folder.mkdir(parents=True, exist_ok=True)
        return folder / f"{stem}.{when}.{len(self.s.log):04d}.svg"
