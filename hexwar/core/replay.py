"""Replaying a save: a game rebuilt from its log with the recorded draws only (no RNG),
each order checked against the rules and its events against the log's (:func:`replay`)."""

from __future__ import annotations

from typing import Any, Mapping

from hexwar.core.dice import Dice, DiceExhausted, Roll
from hexwar.core.game import Game
from hexwar.core.log import Entry, EventLog
from hexwar.core.orders import IllegalOrder
from hexwar.core.play import PlayState
from hexwar.core.state import GameState


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
