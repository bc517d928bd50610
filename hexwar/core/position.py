"""A position: one moment of a game as a YAML file a person can read, edit and play on from
(issue 54). It names the game, its scenario, board and rule switches, the dice seed of the
play from there, whose eyes it was written with, and the whole state under ``state:``: the
turn, the phase, the tracks and every counter's place and flags, as the game keeps them.

A position is validated on load: a problem is one line naming the file, the line and the
key (``pos.yaml:41: state.units.1SG.fatigue: ...``). A game played on from a position keeps
it in its save's meta (``start``), so the save replays from there like any other."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

import yaml

from hexwar.core.state import GameState

KIND = "hexwar_position"
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


def load(path: Path) -> tuple[dict[str, Any], GameState]:
    """The head and the state of a position file; a :class:`PositionError` in one line."""
    try:
        text = path.read_text()
    except OSError as e:
        raise PositionError(f"{path}: cannot be read ({e.strerror})") from None
    try:  # parsed once: the tree gives the lines of the keys, the document the values
        loader = yaml.SafeLoader(text)
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
    head = {k: doc.get(k) for k in HEAD if k != "kind"}
    head["twice"] = twice(node)
    return head, data


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
