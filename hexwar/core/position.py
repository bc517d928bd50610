"""A position: one moment of a game as a YAML file a person can read, edit and play on from
(issue 54). It names the game, its scenario, board and rule switches, the dice seed of the
play from there, whose eyes it was written with, and the whole state under ``state:``: the
turn, the phase, the tracks and every counter's place and flags, as the game keeps them.

A position is validated on load: a problem is one line naming the file, the line and the
key (``pos.yaml:41: state.units.1SG.fatigue: ...``). A game played on from a position keeps
it in its save's meta (``start``), so the save replays from there like any other."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, cast

import yaml

from hexwar.core.files import Job
from hexwar.core.state import GameState, state_type_of

KIND = "hexwar_position"
#: the job of every writer of a position file (``hexwar position``, the analysis board):
#: each replaces only a position file one of them wrote and nobody changed since (issue 70)
WRITER = Job("position")
#: the keys a position names besides its state
HEAD = ("kind", "game", "scenario", "board", "switches", "seed", "seen_by", "note")


class PositionError(ValueError):
    """A position file that cannot be read: its line says the file, the line and the key."""


def dump(meta: Mapping[str, Any], data: GameState, seen_by: str, note: str = "") -> str:
    """The YAML text of a position: the head (game, scenario, board, switches, seed, whose
    eyes, a note), then the state."""
    head = {"kind": KIND, "game": meta.get("game"), "scenario": meta.get("scenario"), "board": meta.get("board"),
            "switches": list(meta.get("switches") or []), "seed": int(meta.get("seed") or 0), "seen_by": seen_by,
            "note": note}
    text = yaml.safe_dump(head, sort_keys=False, allow_unicode=True)
    body = yaml.safe_dump({"state": data.to_dict()}, sort_keys=False, allow_unicode=True, width=100)
    return ("# hexwar position: edit any value under state (a unit's loc, fatigue, flags; the turn, the phase,\n"
            "# the tracks), then ask it (hexwar reach/supply/fatigue/odds FILE) or play on (hexwar play --from FILE)\n"
            + text + body)


#: the most a position file may be (the largest game's position is about 100 KB)
MAX_BYTES = 4_000_000
#: how deeply its mappings and lists may nest (a state nests five or six levels)
MAX_DEPTH = 32


class _Composer(yaml.SafeLoader):
    """PyYAML's safe loader, composing a position's tree: no alias (``*name``: a file of 1 KB
    could expand without end), and no deeper than :data:`MAX_DEPTH` (the composer recurses:
    10,000 levels would overflow Python's stack). Both are refused at their line."""

    def __init__(self, text: str):
        super().__init__(text)
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            ev = cast(Any, self).peek_event()  # PyYAML's loader is untyped
            raise yaml.composer.ComposerError(None, None, "aliases (*name) are not allowed in a position file",
                                              ev.start_mark)
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise yaml.composer.ComposerError(None, None, f"nested deeper than {MAX_DEPTH} levels",
                                                  cast(Any, self).peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def read_text(path: Path) -> str:
    """A position file's text: a regular file (never a pipe, a device or a folder, which
    would hang or fail late), at most :data:`MAX_BYTES`, UTF-8; a :class:`PositionError`
    in one line otherwise."""
    import os
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO opens without waiting for a writer
    except OSError as e:
        raise PositionError(f"{path}: cannot be read ({e.strerror})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = "a folder" if stat.S_ISDIR(st.st_mode) else "a pipe, device or socket"
            raise PositionError(f"{path}: {kind}, not a position file")
        if st.st_size > MAX_BYTES:
            raise PositionError(f"{path}: {st.st_size:,} bytes; a position file is at most {MAX_BYTES:,}")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            raw = fh.read(MAX_BYTES + 1)
    except OSError as e:
        raise PositionError(f"{path}: cannot be read ({e.strerror})") from None
    finally:
        os.close(fd)
    if len(raw) > MAX_BYTES:
        raise PositionError(f"{path}: more than {MAX_BYTES:,} bytes; a position file is at most that")
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")) or (len(raw) > 1 and (raw[0] == 0 or raw[1] == 0)):
        raise PositionError(f"{path}: UTF-16 or UTF-32 text; a position file is UTF-8")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise PositionError(f"{path}:{line}: not UTF-8 text (byte {e.start})") from None


def load(path: Path) -> tuple[dict[str, Any], GameState]:
    """The head and the state of a position file; a :class:`PositionError` in one line.
    Every key must be one the state has (a misspelt key is refused at its line, not
    ignored); what the values mean for the game is its own check
    (``Game.state_problems``)."""
    text = read_text(path)
    try:  # parsed once: the tree gives the lines of the keys, the document the values
        loader = _Composer(text)
        try:
            node = loader.get_single_node()
            doc = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        at = f":{mark.line + 1}" if mark is not None else ""
        raise PositionError(f"{path}{at}: not YAML ({getattr(e, 'problem', e)})") from None
    if not isinstance(doc, dict) or doc.get("kind") != KIND:
        raise PositionError(f"{path}:1: kind: not a hexwar position (kind: {KIND} expected)")
    for key in ("game", "state"):
        if key not in doc:
            raise PositionError(f"{path}:1: {key}: missing")
    state = doc["state"]
    if not isinstance(state, dict):
        raise PositionError(f"{path}:{_line(node, ('state',))}: state: a mapping of the game's state expected")
    if state.get("game") != doc["game"]:
        raise PositionError(f"{path}:{_line(node, ('state', 'game'))}: state.game: {state.get('game')!r} is not the "
                            f"position's game {doc['game']!r}")
    if not isinstance(doc["game"], str) or not state_type_of(doc["game"]):
        raise PositionError(f"{path}:{_line(node, ('game',))}: game: {str(doc['game'])[:40]!r} is no game hexwar knows")
    if not isinstance(doc.get("seed", 0), int):
        raise PositionError(f"{path}:{_line(node, ('seed',))}: seed: a whole number expected, not {doc.get('seed')!r}")
    try:
        data = GameState.from_dict(state)
    except Exception as e:  # pydantic's ValidationError: the first problem, at its line
        errors = getattr(e, "errors", None)
        first = errors()[0] if callable(errors) else None
        if first is None:
            raise PositionError(f"{path}: state: {e}") from None
        where = ("state", *(str(x) for x in first.get("loc", ())))
        raise PositionError(f"{path}:{_line(node, where)}: {'.'.join(where)}: {first.get('msg')}") from None
    extra = [(k,) for k in doc if k not in HEAD and k != "state"] + [("state", *w) for w in unknown_keys(state, data)]
    if extra:
        where = extra[0]
        raise PositionError(f"{path}:{_line(node, where)}: {'.'.join(where)}: not a key of a {doc['game']} position"
                            + (f" (and {len(extra) - 1} more)" if len(extra) > 1 else ""))
    head = {k: doc.get(k) for k in HEAD if k != "kind"}
    head["twice"] = twice(node)
    head["line_of"] = lambda where: _line(node, ("state", *where))  # a key of the state -> its line
    return head, data


def unknown_keys(given: Any, value: Any, where: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The keys of ``given`` (a state as read) that the value built from it has no field for,
    at any depth, each as its path: what the validation of the state ignored.

    >>> from hexwar.core.state import UnitState
    >>> s = UnitState.from_dict({"game": "demo", "scenario": "x", "seed": 1, "wether": "rain"})
    >>> unknown_keys({"game": "demo", "scenario": "x", "seed": 1, "wether": "rain"}, s)
    [('wether',)]
    """
    from dataclasses import fields, is_dataclass

    out: list[tuple[str, ...]] = []
    if isinstance(given, dict):
        if is_dataclass(value) and not isinstance(value, type):
            names = {f.name for f in fields(value)}
            for k, v in given.items():
                if k not in names:
                    out.append((*where, str(k)))
                else:
                    out += unknown_keys(v, vars(value)[k], (*where, str(k)))
        elif isinstance(value, dict):
            for k, v in given.items():
                if k in value:
                    out += unknown_keys(v, value[k], (*where, str(k)))
    elif isinstance(given, list) and isinstance(value, (list, tuple)):
        for i, (v, x) in enumerate(zip(given, value)):
            out += unknown_keys(v, x, (*where, str(i)))
    return out


def twice(node: Any, where: tuple[str, ...] = ()) -> list[str]:
    """Every key given twice in one mapping of a composed YAML tree, as a sentence with its
    lines (YAML keeps the later value): a counter written in two places on a copied table
    is flagged, not refused."""
    out: list[str] = []
    if isinstance(node, yaml.MappingNode):
        seen: dict[str, int] = {}
        for k, v in node.value:
            key, line = str(k.value), k.start_mark.line + 1
            if key in seen:
                out.append(f"{'.'.join((*where, key))} is given twice (lines {seen[key]} and {line}): the later is kept")
            seen[key] = line
            out += twice(v, (*where, key))
    elif isinstance(node, yaml.SequenceNode):
        for i, v in enumerate(node.value):
            out += twice(v, (*where, str(i)))
    return out


def _line(node: Any, path: tuple[str, ...]) -> int:
    """The line (from 1) of the deepest key of ``path`` found in a composed YAML tree."""
    line = 1
    for key in path:
        if not isinstance(node, yaml.MappingNode):
            break
        hit = next(((k, v) for k, v in node.value if str(k.value) == key), None)
        if hit is None:
            break
        line = hit[0].start_mark.line + 1
        node = hit[1]
    return line
