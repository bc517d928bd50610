"""The skirmish ruleset's events, one typed record per ``type`` tag."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from hexwar.core.events import event_schemas


class Pass(TypedDict):
    type: Literal["pass"]
    side: str


class Fatigue(TypedDict):
    type: Literal["fatigue"]
    unit: str
    fp: int
    cause: str
    rule: str


class GameOver(TypedDict):
    type: Literal["game_over"]
    turn: int


class Turn(TypedDict):
    type: Literal["turn"]
    turn: int


class Move(TypedDict):
    type: Literal["move"]
    unit: str
    path: list[str]
    mp: str
    fp: int


class Assault(TypedDict):
    type: Literal["assault"]
    target: str
    attackers: list[str]
    defenders: list[str]
    ad: int
    drm: int
    die: int
    column: str
    result: str
    ledger: dict[str, Any]


class Eliminated(TypedDict):
    type: Literal["eliminated"]
    unit: str
    rule: str


class Advance(TypedDict):
    type: Literal["advance"]
    unit: str
    to: str
    rule: NotRequired[str]


EVENTS = event_schemas(globals())
