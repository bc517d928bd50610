"""Solitaire play in the terminal: a person commands one side (or several), bots the rest.

:class:`Terminal` is the loop every game shares: it lists the legal orders, reads lines
(``hexwar.ui.commands``), gives the bots their turns and sums them up. The game itself is the
session's (``hexwar.ui.session``), every word the game's presenter's (``hexwar.ui.presenter``);
the registry names each game's presenter.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Mapping

from rich.console import Console

from hexwar.core.play import PlayState
from hexwar.core.orders import Order
from hexwar.ui.bots_turn import bot_summary
from hexwar.ui.commands import Commands
from hexwar.ui.presenter import Presenter, briefing
from hexwar.ui.session import Session

__all__ = ["Terminal", "terminal"]


class Terminal(Commands):
    """The play loop over one game in a terminal: ``read(prompt)`` gives the person's lines."""

    def __init__(self, presenter: Presenter, out: Console, read: Callable[[str], str]):
        super().__init__(presenter, out)
        self.read = read
        self._bot_turn: list[Order] = []  # the bots' orders since the person's last decision

    def run(self) -> int:
        sess, p = self.session, self.presenter
        s = sess.s
        self.out.print(f"{p.title}: you command {', '.join(sorted(sess.humans)) or 'nobody'}; type help for commands.")
        if sess.save_path:
            self.say(f"saving every order to {sess.save_path}")
        if not any(e.order.get("side") in sess.humans for e in s.log.entries):  # a game the person has not begun
            for line in briefing(p):
                self.say(line)
        last_listed_for = None
        while not s.is_over():
            side = s.current_side()
            legal = s.legal_orders()
            if side not in sess.humans:
                self._bot_turn.append(self.bot_move())
                continue
            if self.keep_waiting(legal):
                continue
            if self._bot_turn:
                self.say(bot_summary(p, self._bot_turn))
                self._bot_turn = []
            key = (len(s.log), side)
            if key != last_listed_for:
                self.out.rule(p.heading(side))
                self.list_orders(legal)
                last_listed_for = key
            line = self.read(f"{side}> ").strip()
            if not line:
                continue
            if self.command(line, legal) == "quit":
                return 0
        self.out.rule("game over")
        self.say(p.final_line())
        self.command("status", [])  # the result's figures: the tracks, the points and where they came from
        if sess.save_path:
            self.say(f"the game is saved in {sess.save_path}; replay it with: hexwar replay {sess.save_path}"
                     " (add --svg FOLDER for a map of each order)")
        return 0

    def complete(self, text: str, state: int) -> str | None:
        """readline's completer: the ``state``-th completion of the current word."""
        import readline

        options = self.completions(readline.get_line_buffer()[: readline.get_endidx()])
        return options[state] if state < len(options) else None


def terminal(presenter: type[Presenter], state: PlayState, humans: set[str], bots: Mapping[str, Any], out: Console,
             save_path: Path | None, read: Callable[[str], str], snapshots: Path | None = None) -> Terminal:
    """A terminal over a game: its session, its presenter and the loop."""
    return Terminal(presenter(Session(state, humans, bots, save_path, snapshots)), out, read)
