"""Which game ``hexwar play`` plays, and from where: the game named, a save's or a position's;
a save resumed as the person asks (its seat, opponent, think time and seed, from its first
``--upto`` orders, as another seat in a copy with ``--show-secrets``), or a new game started
on a file it never overwrites. ``cli_play.play`` checks the options and runs the seat.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any, List, Optional

from hexwar.ui.cli_common import (
    UserError,
    free_name,
    out,
    output_file,
    read_position,
    read_save,
    registry_game,
    state_from_position,
)


def save_of(path: Path) -> Any:
    """The log of a hexwar save, or None when the file is missing or something else."""
    try:
        return read_save(path) if path.is_file() else None
    except UserError:
        return None


def default_game() -> Any:
    """The game ``hexwar play`` starts when none is named."""
    from hexwar.registry import default

    return default()



@dataclass(frozen=True)
class Asked:
    """What the command line asked of the seat: the sides, the opponent, its think time, the
    switches (None where not given)."""

    side: Optional[str]
    opponent: Optional[str]
    think: Optional[float]
    switch: Optional[List[str]]


@dataclass(frozen=True)
class Seat:
    """A game ready to play: its state (a save attached), the save's path, the side(s) the
    person commands, the bot of the others, its think time and the game's seed."""

    state: Any
    path: Path
    side: str
    opponent: str
    think: float
    seed: int


def game_named(game: Optional[str], load: Optional[Path], from_: Optional[Path], save: Optional[Path],
                new: bool) -> tuple[Any, Any, Optional[Path], bool, Optional[Path]]:
    """The game to play: the one named, a --load save's (read once, for its game, its meta and
    its length), a --from position's (a new game, saved beside no other), or the default; with
    the save read, its path, and --new and --save as the position sets them."""
    saved, saved_path = None, None
    if game is None and load is not None:  # the save names its game
        saved, saved_path = save_of(load), load
        game = str(saved.meta.get("game")) if saved is not None else None
        if game is not None:
            try:
                registry_game(game)
            except UserError as e:
                raise UserError(f"{load}: the save's {e}") from None
    if from_ is not None:  # a position names its game; it starts a new game, saved beside no other
        if load is not None:
            raise UserError("--from starts a new game from a position; --load resumes a save: give one of them")
        head, _, _ = read_position(from_, registry_game(game) if game else None, "play")  # checked whole, first
        game = game or str(head["game"])
        new = True
        if save is None:
            save = free_name(Path(f"{from_.stem}.hexwar"))
    return (registry_game(game) if game else default_game()), saved, saved_path, new, save


def resume(info: Any, load: Path, saved: Any, given: dict[str, Any], asked: Asked, upto: Optional[int],
            show_secrets: bool, resuming: str) -> Seat:
    """Resume a save as the person asked: its game, seat, opponent, think time and seed from its
    meta (what the command line gives beside them is said to be ignored), from its first
    ``upto`` orders, as another seat in a copy (--show-secrets) or in place."""
    from hexwar.core.engine import load_game
    from hexwar.core.log import SaveError
    from hexwar.registry import UnknownGame, from_meta

    side, opponent, think = asked.side, asked.opponent, asked.think
    if saved is None:
        saved = read_save(load)
    meta = saved.meta
    if meta.get("game") != info.name:
        raise UserError(f"{load} is a save of {meta.get('game')!r}, not {info.name!r}: "
                        f"hexwar play --load {shlex.quote(str(load))}")
    ignored = [k for k, v in given.items() if v is not None and k not in ("--side", "--opponent")]
    if ignored:
        out.print(f"the save keeps its own {', '.join(ignored)} ({load})", markup=False)
    try:  # what the save says it was played with must be something this game has
        _, g = from_meta(meta, asked.switch or [])
        seat = str(meta.get("seat") or info.default_seat)
        side = side or seat
        # a save that names no opponent (made by the API, or before saves named one)
        # resumes against the rule-based bot it was played against then, not a new default
        opponent = opponent or meta.get("opponent") or info.batch_bot
        info.check(seat=side, bot=opponent)
        saved_think = meta.get("think", 1.0)
        if think is None and (type(saved_think) not in (int, float) or not 0.01 <= saved_think <= 600):
            raise UnknownGame(f"think {saved_think!r} is not seconds from 0.01 to 600")
        think = think if think is not None else float(saved_think)
    except (UnknownGame, ValueError, TypeError) as e:
        raise UserError(f"{load}: the save's {e}") from None
    seed = int(meta["seed"])  # the bots play on as they started
    if upto is not None and not 0 <= upto <= len(saved):
        raise UserError(f"{load}: --upto {upto}: the save holds {len(saved)} orders (0 to {len(saved)} may be kept)")
    change = _seat_change(info, g, load, saved, seat, side, upto, show_secrets, default=bool(resuming))
    if change is not None and show_secrets:  # the save stays its seat's game: play on in a copy
        copy = _copy_for_seat(load, saved, change, opponent)
        out.print(f"{load} stays {_whose(seat)} game; you play on as the {side} in {copy}, "
                  f"which records that you were shown what they hid", markup=False)
        load, upto, resuming, saved = copy, None, "", read_save(copy)
    keep = free_name(load.with_name(f"{load.stem}.all-{len(saved)}-orders{load.suffix}")) \
        if upto is not None and upto < len(saved) else None
    try:
        state = load_game(g, load, writer=True, upto=upto, keep=keep)
    except SaveError as e:
        if e.seq is not None and upto is None:  # the orders before it still replay
            raise UserError(f"{e}; if it was saved before a rule of hexwar was fixed, play on from the {e.seq} "
                            f"orders before it (the whole save is kept in a copy): "
                            f"hexwar play --load {shlex.quote(str(load))} --upto {e.seq}") from None
        raise UserError(str(e)) from None
    if keep is not None:
        out.print(f"resumed from the first {upto} of {len(saved)} orders; the whole save is kept in {keep}",
                  markup=False)
    state.log.meta.update(seat=side, opponent=opponent)
    if change is not None and not show_secrets:  # a seat that hid nothing from the person: recorded in place
        changes = [*_changes(state.log.meta), change]
        state.log.meta["seat_changes"] = changes
        assert state.save is not None
        state.save.update_meta({"seat": side, "seat_changes": changes})
    if resuming:  # said once the save is ours (a second player is refused first)
        out.print(resuming, markup=False)
    return Seat(state, load, side, str(opponent), float(think), seed)


def start(info: Any, asked: Asked, scenario: Optional[str], board: Optional[str], seed: int, save: Optional[Path],
           from_: Optional[Path]) -> Seat:
    """Start a new game (from a --from position, or the scenario's start) saved to a new file:
    a new game never overwrites one."""
    from hexwar.core.log import SaveError

    side, opponent, think = asked.side or info.default_seat, asked.opponent or info.default_bot, asked.think or 1.0
    switch = asked.switch
    info.check(scenario, board, switch or [], bot=opponent, seat=side)
    path = save or Path(f"{info.name}-seed{seed}.hexwar")
    if path.exists():
        what = "a hexwar save" if save_of(path) is not None else "not a hexwar save"
        raise UserError(f"{path} already exists ({what}); a new game never overwrites a file: resume it with "
                        f"hexwar play {info.name} --load {shlex.quote(str(path))}, or give another --save")
    output_file(path)
    sc, bd = scenario or info.default_scenario, board or info.default_board
    if from_ is not None:
        state = state_from_position(info, from_, seed)
        sc, bd = state.log.meta["scenario"], state.log.meta["board"]
        switch = list(state.log.meta["switches"])
    else:
        g = info.build(sc, bd, switch or [])
        state = g.new_state(seed)
    state.log.meta.update(scenario=sc, board=bd, switches=sorted(switch or []), seat=side,
                          opponent=opponent, think=think)
    try:
        state.attach_save(path)
    except SaveError as e:
        raise UserError(str(e)) from None
    return Seat(state, path, side, opponent, think, seed)


def _seat_change(info: Any, game: Any, path: Path, saved: Any, seat: str, side: str, upto: int | None,
                 show_secrets: bool, default: bool) -> dict[str, Any] | None:
    """The seat change of resuming a save as ``side`` (None: its own seat), or a one-line
    refusal. A save keeps its seat (issue 51): another side may take it over only where that
    shows the person nothing they were not shown (a hot seat, a game only watched or a
    batch's game, a finished game), or with ``--show-secrets``; the bot then never plays on
    in the seat the person held."""
    from hexwar.core.replay import ReplayError, replay
    from hexwar.core.log import EventLog

    if side == seat:
        return None
    at = len(saved) if upto is None else upto
    change = {"at": at, "from": seat, "to": side}
    if show_secrets or info.seen_in(saved.meta) is None:
        return change
    try:
        over = replay(game, EventLog(saved.meta, saved.entries[:at])).is_over()
    except ReplayError:
        over = False  # refused below; a save that does not replay is said so when it loads
    if over:
        return change
    q = shlex.quote(str(path))
    raise UserError(f"{path} is {_whose(seat)} unfinished game and a save keeps its seat: resume it without --side"
                    + (", start another game with --new" if default else "")
                    + f", or take the {side}' side knowingly with --show-secrets (you would see what they hid; "
                      f"the game goes on in a copy): hexwar play --load {q} --side {side} --show-secrets")


def _whose(seat: str) -> str:
    """A seat's possessive: "the allies'", "the coalition's"."""
    return f"the {seat}'" if seat.endswith("s") else f"the {seat}'s"


def _changes(meta: Any) -> list[Any]:
    """The seat changes a save's meta records (none in a save from before they were)."""
    changes = meta.get("seat_changes")
    return list(changes) if isinstance(changes, list) else []


def _copy_for_seat(path: Path, saved: Any, change: dict[str, Any], opponent: str) -> Path:
    """A new save for a seat taken over with ``--show-secrets``: the save's orders up to the
    change, its meta with the new seat, and the change recorded."""
    from hexwar.core.log import EventLog, SaveError, SaveFile

    dest = free_name(path.with_name(f"{path.stem}.as-{change['to']}{path.suffix}"))
    output_file(dest)
    meta = dict(saved.meta, seat=change["to"], opponent=opponent, seat_changes=[*_changes(saved.meta), change])
    meta.pop("schema_version", None)
    try:
        SaveFile(dest).create(EventLog(meta, saved.entries[: change["at"]]))
    except SaveError as e:
        raise UserError(str(e)) from None
    return dest
