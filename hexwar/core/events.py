"""Typed events: a game declares one ``TypedDict`` per event tag, and events are checked
against them (the conformance suite checks every event every game emits).

An event is a JSON mapping with a ``type`` tag. Keeping events as plain mappings keeps the
log readable and replays comparable as written; the schema says what each tag holds.

>>> from typing import Literal, TypedDict
>>> class Moved(TypedDict):
...     type: Literal["move"]
...     unit: str
...     path: list[str]
>>> schemas = event_schemas({"Moved": Moved})
>>> check_event({"type": "move", "unit": "1SG", "path": ["1710", "1810"]}, schemas)
[]
>>> check_event({"type": "move", "unit": 3, "path": ["1710"]}, schemas)
['move.unit: 3 is not a str']
"""

from __future__ import annotations

import types
import typing
from typing import (
    Any,
    Literal,
    Mapping,
    NotRequired,
    Required,
    Union,
    get_args,
    get_origin,
)


def _is_typeddict(obj: Any) -> bool:
    return isinstance(obj, type) and issubclass(obj, dict) and hasattr(obj, "__required_keys__")


def event_schemas(namespace: Mapping[str, Any]) -> dict[str, type]:
    """Return ``tag -> TypedDict`` for every event schema in a module's namespace."""
    out: dict[str, type] = {}
    for obj in list(namespace.values()):
        if not _is_typeddict(obj):
            continue
        hint = typing.get_type_hints(obj).get("type")
        if get_origin(hint) is not Literal:
            continue
        for tag in get_args(hint):
            if tag in out and out[tag] is not obj:
                raise ValueError(f"two event schemas for the tag {tag!r}")
            out[tag] = obj
    return out


def _ok(value: Any, hint: Any, where: str, out: list[str]) -> None:
    if hint is Any:
        return
    origin = get_origin(hint)
    if origin is Literal:
        if value not in get_args(hint):
            out.append(f"{where}: {value!r} is not one of {get_args(hint)}")
        return
    if origin in (Union, types.UnionType):
        for alt in get_args(hint):
            probe: list[str] = []
            _ok(value, alt, where, probe)
            if not probe:
                return
        out.append(f"{where}: {value!r} matches none of {hint}")
        return
    if hint is type(None):
        if value is not None:
            out.append(f"{where}: {value!r} is not None")
        return
    if origin in (list, tuple):
        if not isinstance(value, (list, tuple)):
            out.append(f"{where}: {value!r} is not a list")
            return
        args = get_args(hint)
        item = args[0] if args else Any
        for i, v in enumerate(value):
            _ok(v, item, f"{where}.{i}", out)
        return
    if origin is dict:
        if not isinstance(value, dict):
            out.append(f"{where}: {value!r} is not a mapping")
            return
        kt, vt = get_args(hint) or (Any, Any)
        for k, v in value.items():
            _ok(k, kt, f"{where}.<key>", out)
            _ok(v, vt, f"{where}.{k}", out)
        return
    if _is_typeddict(hint):
        out.extend(check_event(value, {"": hint}, where, tagged=False))
        return
    if hint is int:
        if type(value) is not int:
            out.append(f"{where}: {value!r} is not an int")
        return
    if hint is float:
        if type(value) not in (int, float):
            out.append(f"{where}: {value!r} is not a number")
        return
    if isinstance(hint, type) and not isinstance(value, hint):
        out.append(f"{where}: {value!r} is not a {hint.__name__}")


def check_event(event: Any, schemas: Mapping[str, type], where: str = "", tagged: bool = True) -> list[str]:
    """Return what is wrong with one event against a game's schemas (empty: nothing)."""
    if not isinstance(event, dict):
        return [f"{where or 'event'}: {event!r} is not a mapping"]
    if tagged:
        tag = event.get("type")
        schema = schemas.get(tag)  # type: ignore[arg-type]
        if schema is None:
            return [f"{where or 'event'}: no schema for event type {tag!r}"]
        where = where or str(tag)
    else:
        schema = schemas[""]
    raw = typing.get_type_hints(schema, include_extras=True)
    hints, required = {}, set()
    for k, h in raw.items():  # NotRequired[...] marks an optional key (also under postponed annotations)
        if get_origin(h) is NotRequired:
            hints[k] = get_args(h)[0]
        else:
            hints[k] = get_args(h)[0] if get_origin(h) is Required else h
            required.add(k)
    out = []
    for k in sorted(required - set(event)):
        out.append(f"{where}.{k}: missing")
    for k in sorted(set(event) - set(hints)):
        out.append(f"{where}.{k}: not a field of {schema.__name__}")
    for k, v in event.items():
        if k in hints:
            _ok(v, hints[k], f"{where}.{k}", out)
    return out


def strip_hidden(events: list[dict[str, Any]], sides: typing.Collection[str]) -> list[dict[str, Any]]:
    """The events as ``sides`` see them, by the ``hide``/``see`` convention: an event lists in
    ``hide`` the fields only the factions in ``see`` may read (a face-down ship's name, a card
    kept, a hidden unit's hex); everyone else gets the event without them.

    >>> e = {"type": "sail", "ship": "Hipper", "hide": ["ship"], "see": ["germans"]}
    >>> "ship" in strip_hidden([e], ["allies"])[0]
    False
    >>> strip_hidden([e], ["germans"])[0]["ship"]
    'Hipper'
    """
    out = []
    for e in events:
        if e.get("hide") and not set(e.get("see", ())) & set(sides):
            e = {k: v for k, v in e.items() if k not in e["hide"]}
        out.append(e)
    return out
