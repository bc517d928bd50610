"""What every ``hexwar`` command shares: the typer app, the consoles, one-line errors."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any, Mapping

import typer
from rich.console import Console

# rich_markup_mode=None: help texts are plain text, so "[/SCENARIO]" is not read as markup
app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False, rich_markup_mode=None,
                  help="hexwar: rules engine for wargames of the 1940 campaign in Norway.")
map_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None, help="Show, render and build maps.")
app.add_typer(map_app, name="map")
native_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                         help="The compiled engine: the hot modules compiled by mypyc, for batches (HEXWAR_NATIVE=1).")
app.add_typer(native_app, name="native")
out = Console()
err = Console(stderr=True)

JSON = typer.Option(False, "--json", help="Print machine-readable JSON instead of tables.")


class UserError(Exception):
    """A mistake in what the user asked for: one line, exit 2."""


def emit(obj: Any) -> None:
    """Print JSON (sorted keys; fractions as strings)."""
    out.print_json(json.dumps(obj, default=_default, sort_keys=True))


def _default(v: Any) -> Any:
    if isinstance(v, Fraction):
        return str(v) if v.denominator != 1 else int(v)
    if isinstance(v, (set, frozenset)):
        return sorted(v)
    if hasattr(v, "to_dict"):
        return v.to_dict()
    raise TypeError(f"cannot serialise {type(v).__name__}")


def registry_game(name: str) -> Any:
    """Return a game's registry record; an unknown name is a one-line error."""
    from hexwar.registry import UnknownGame, get

    try:
        return get(name)
    except UnknownGame as e:
        raise UserError(str(e)) from None


def in_range(option: str, value: float | int | Fraction | None, lo: float, hi: float) -> None:
    """Refuse a number outside what the option can mean, in one line."""
    if value is not None and not lo <= value <= hi:
        raise UserError(f"{option} is {value}; it must be from {lo:g} to {hi:g}")


def shortened(text: str, most: int = 80) -> str:
    """A name cut to ``most`` characters for a one-line message ("..." where it was cut)."""
    return text if len(text) <= most else text[: most - 3] + "..."


def fits(path: Path) -> Path:
    """Refuse, in one line, a path whose last name is too long for the file system."""
    from hexwar.core.log import name_too_long

    too_long = name_too_long(path)
    if too_long:
        raise UserError(f"{shortened(str(path))}: {too_long}")
    return path


def output_file(path: Path) -> Path:
    """Check that ``path`` can be written (its folder exists and is writable, it is not a folder)."""
    from hexwar.core.log import read_only

    fits(path)
    folder = path.resolve().parent
    if not folder.is_dir():
        raise UserError(f"{path}: no folder {folder} to write it in")
    if path.is_dir():
        raise UserError(f"{path}: is a folder, not a file to write")
    if read_only(folder) or (path.exists() and read_only(path)):
        raise UserError(f"{path}: not writable")
    return path


def may_write(path: Path, job: Any, force: bool = False) -> str:
    """Check, before any work, that ``job`` may write ``path``: nothing there, or a file it
    wrote and nobody changed since, or ``force`` (``hexwar.core.files``, issue 70); returns
    how (``new``, ``replace``, ``force``), refuses in one line otherwise."""
    from hexwar.core.files import check

    output_file(path)
    return check(path, job, force)


def write_text(path: Path, text: str, job: Any = None, force: bool = False, checked: str | None = None) -> str:
    """Write a file whole, marked as ``job``'s (``hexwar.core.files``: a short temporary name
    renamed into place, so a crash leaves the old file); return what was done, in words."""
    from hexwar.core.files import write_text as write

    if checked is None:
        output_file(path)
    return write(path, text, job, force, checked)


def output_folder(path: Path) -> Path:
    """Make a folder to write into (and its parents); refuse one that cannot be."""
    from hexwar.core.log import read_only

    fits(path)
    existing = path.absolute()
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise UserError(f"{path}: {existing} is not a folder")
    if read_only(existing):  # checked first: root may make folders where the person may not
        raise UserError(f"{path}: not writable ({existing} is read-only)")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except (OSError, FileExistsError) as e:
        raise UserError(f"{path}: cannot make the folder ({getattr(e, 'strerror', None) or e})") from None
    if not path.is_dir():
        raise UserError(f"{path}: not a folder")
    if read_only(path):
        raise UserError(f"{path}: not writable")
    return path


def read_save(path: Path) -> Any:
    """The log of a hexwar save; anything else is a one-line :class:`UserError`."""
    from hexwar.core.log import SaveError, SaveFile

    try:
        return SaveFile(path).load()
    except SaveError as e:
        raise UserError(str(e)) from None


def named_head(info: Any, meta: Mapping[str, Any]) -> dict[str, Any]:
    """A position's head from a save's or a position's names, the scenario and board by the
    registry's names (``from_meta`` reads an early save's own names as the defaults)."""
    sc, bd = meta.get("scenario"), meta.get("board")
    return {"game": info.name, "scenario": sc if sc in info.scenarios else info.default_scenario,
            "board": bd if bd in info.boards else info.default_board, "switches": sorted(meta.get("switches") or []),
            "seed": int(meta.get("seed") or 0), "seen_by": meta.get("seen_by") or "all", "note": meta.get("note") or ""}


def read_position(path: Path, info: Any, command: str) -> tuple[dict[str, Any], Any, Any]:
    """A position file of ``info``'s game (of any game when None): its head (``named_head``),
    its state and the game it is of, the state checked by that game (``state_problems``); a
    one-line ``UserError`` otherwise (``command``: what to type for the file's own game)."""
    from hexwar.core.position import PositionError, load
    from hexwar.registry import UnknownGame, from_meta, get, names

    try:
        names()  # every game registered, so the state is read as its game's (NarvikData, not GameState)
    except UnknownGame as e:
        raise UserError(str(e)) from None
    try:
        head, data = load(path)
    except PositionError as e:
        raise UserError(str(e)) from None
    if info is None:
        try:
            info = get(str(head["game"]))
        except UnknownGame as e:
            raise UserError(f"{path}: game: {e}") from None
    if head["game"] != info.name:
        raise UserError(f"{path}: a position of {head['game']!r}, not of {info.name!r}: hexwar {command} {head['game']} --from {path}")
    try:
        _, g = from_meta(head)
    except UnknownGame as e:
        raise UserError(f"{path}: {e}") from None
    sc = head.get("scenario")  # a registry name, or the name the game's own saves give it (from_meta)
    if sc is not None and sc not in info.scenarios and sc != g.save_meta().get("scenario"):
        raise UserError(f"{path}: scenario: {str(sc)[:60]!r} is no scenario of {info.name} "
                        f"({', '.join(info.scenarios)})")
    seen = head.get("seen_by") or "all"
    if seen != "all" and seen not in info.seats:
        raise UserError(f"{path}: seen_by: {str(seen)[:40]!r} is no seat of {info.name} (all, {', '.join(info.seats)})")
    # the game's own reading of the state, before any rule is asked of it; each problem is led by
    # the key it is about, said at its line as a YAML error is
    problems = g.state_problems(data, None if seen == "all" else info.sees(seen))
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        key, _, said = problems[0].partition(": ")
        line = head["line_of"](tuple(key.split("."))) if said and " " not in key else None
        where = f"{path}:{line}: state.{key}: {said}" if line is not None else f"{path}: state: {problems[0]}"
        raise UserError(where + more)
    return dict(named_head(info, head), twice=head.get("twice") or []), data, g


def free_name(path: Path) -> Path:
    """The first of path, path-2, path-3 ... that does not exist."""
    n = 2
    cand = path
    while cand.exists():
        cand = path.with_name(f"{path.stem}-{n}{path.suffix}")
        n += 1
    return cand


def state_from_position(info: Any, path: Path, seed: int) -> Any:
    """A game that starts at a position file's state (issue 54): its save keeps the position
    in its meta (``start``), so it replays from there."""
    from hexwar.core.play import PlayState
    from hexwar.core.log import EventLog

    head, data, g = read_position(path, info, "play")
    if head["seen_by"] != "all":  # another side's hidden counters and cards are placeholders in it
        raise UserError(f"{path}: written as the {head['seen_by']} see it, it does not know what the other side hides; "
                        "write it with what they hid shown (hexwar position SAVE --show-secrets -o FILE), play on from "
                        "the save itself (hexwar play --load SAVE --upto N), or fill in what is hidden and set seen_by: all")
    if head["twice"]:  # which of the two did the person mean? a game is not started on a guess
        raise UserError(f"{path}: {head['twice'][0]}; give each value once to play on from it")
    sc, bd, switches = head["scenario"], head["board"], head["switches"]
    meta = {"game": g.name, "scenario": sc, "board": bd, "switches": sorted(switches), "seed": seed,
            "setup_rolls": [], "start": data.to_json(), "from_position": str(path)}
    return PlayState(g, data, EventLog(meta))


def read_seen(path: Path, upto: int | None = None, whole: bool = False) -> tuple[Any, Any, Any, Any, str, frozenset[str] | None]:
    """A saved game as it stands after its first ``upto`` orders (all of them when None), seen
    as a save is read (issue 51): with the eyes of the seat that played it while it is
    unfinished, everyone's once it is over, or when the person asks to see it ``whole`` (what
    the other side hid, shown). Returns the log, the game's record, the game, the state
    seen, the seat and the sides it sees (None: everything); a one-line ``UserError``."""
    from hexwar.core.play import seen_by
    from hexwar.core.replay import ReplayError, replay
    from hexwar.core.log import EventLog
    from hexwar.registry import UnknownGame, from_meta

    log = read_save(path)
    try:
        info, g = from_meta(log.meta)
        st = replay(g, log if upto is None else EventLog(log.meta, log.entries[:upto]))
        seat = "all" if whole else info.reader_seat(log.meta, st.is_over())
        if seat != "all":
            info.check(seat=seat)
    except (UnknownGame, ReplayError) as e:
        raise UserError(f"{path}: {e}") from None
    sides = info.sees(seat)
    return log, info, g, (st.data if sides is None else seen_by(g, st.data, sides)), seat, sides
