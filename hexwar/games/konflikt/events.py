"""Konflikt '47's events: the host ruleset's (move, assault, fatigue, eliminated, advance) and
the templates' own, one typed record per ``type`` tag. ``hide`` names fields only the sides in
``see`` may read (a hidden deployment's place, an outflank's direction)."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from hexwar.core.events import event_schemas
from hexwar.games.skirmish.events import Advance, Assault, Eliminated, Fatigue, Move

__all__ = ["Advance", "Assault", "EVENTS", "Eliminated", "Fatigue", "Move"]


class Roles(TypedDict):
    type: Literal["roles"]
    attacker: str
    rule: str


class Edges(TypedDict):
    type: Literal["edges"]
    edges: dict[str, str]
    rule: str


class Marked(TypedDict):
    type: Literal["marked"]
    side: str
    what: str
    at: str
    rule: str


class Deployed(TypedDict):
    type: Literal["deployed"]
    side: str
    unit: str
    at: NotRequired[str]
    hidden: bool
    rule: str
    hide: NotRequired[list[str]]
    see: NotRequired[list[str]]


class Assigned(TypedDict):
    type: Literal["assigned"]
    side: str
    unit: str
    where: NotRequired[str]
    rule: str
    hide: NotRequired[list[str]]
    see: NotRequired[list[str]]


class Bombardment(TypedDict):
    type: Literal["bombardment"]
    side: str
    face: int
    falls: bool
    rule: str


class Bombarded(TypedDict):
    type: Literal["bombarded"]
    unit: str
    face: int
    points: int
    rule: str


class Turn(TypedDict):
    type: Literal["turn"]
    turn: int
    dice: dict[str, int]
    rule: str


class Ambushed(TypedDict):
    type: Literal["ambushed"]
    unit: str
    at: str | None
    rule: str


Left = TypedDict("Left", {"type": Literal["left"], "side": str, "unit": str, "from": str | None, "rule": str})


class Down(TypedDict):
    type: Literal["down"]
    side: str
    unit: str
    rule: str


class OrderTest(TypedDict):
    type: Literal["order_test"]
    unit: str
    faces: list[int]
    needs: int
    passed: bool
    rule: str


class FlankNote(TypedDict):
    type: Literal["flank_note"]
    side: str
    flanks: dict[str, str]
    rule: str


class Entered(TypedDict):
    type: Literal["entered"]
    side: str
    unit: str
    at: str
    rule: str


class Revealed(TypedDict):
    type: Literal["revealed"]
    unit: str
    at: str | None
    by: str
    rule: str


class MarkerDropped(TypedDict):
    type: Literal["marker_dropped"]
    at: str
    rule: str


class MarkerSeized(TypedDict):
    type: Literal["marker_seized"]
    unit: str
    side: str
    at: str
    rule: str


class Objective(TypedDict):
    type: Literal["objective"]
    at: str
    side: str
    rule: str


class BaseDestroyed(TypedDict):
    type: Literal["base_destroyed"]
    side: str
    by: str
    rule: str


class GameLength(TypedDict):
    type: Literal["game_length"]
    face: int
    last_turn: int
    rule: str


class Missing(TypedDict):
    type: Literal["missing"]
    unit: str
    side: str
    rule: str


class GameOver(TypedDict):
    type: Literal["game_over"]
    why: str
    winner: str | None
    level: str
    attrition: dict[str, int]
    on_attrition: str  # 3.6: the verdict of the precise score (an outright victory, or a draw)
    rule: str


EVENTS: dict[str, Any] = event_schemas(globals())
