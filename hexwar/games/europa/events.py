"""The Europa "Narvik" variant's events, one typed record per ``type`` tag; every event
names the rule section it applies."""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from hexwar.core.events import event_schemas


class PlayerTurn(TypedDict):
    type: Literal["player_turn"]
    turn: int
    side: str
    date: str
    rule: str


class Phase(TypedDict):
    type: Literal["phase_end"]
    side: str
    phase: str
    rule: str


class Flag(TypedDict):
    type: Literal["disrupted", "overstacked"]
    unit: str
    at: str
    on: bool
    rule: str


class Owner(TypedDict):
    type: Literal["owner"]
    hex: str
    side: str
    rule: str


class Eliminated(TypedDict):
    type: Literal["eliminated"]
    unit: str
    rule: str


class Vp(TypedDict):
    type: Literal["vp"]
    side: str
    vp: int
    cause: str
    rule: str


class Arrive(TypedDict):
    type: Literal["arrive", "rebase", "mobilised", "formed"]
    unit: str
    at: str
    rule: str


class Lost(TypedDict):
    type: Literal["lost", "delayed"]
    unit: str
    at: str
    cause: str
    rule: str


class Supply(TypedDict):
    type: Literal["supply"]
    side: str
    out: list[str]
    rule: str


class Move(TypedDict):
    type: Literal["move", "truck"]
    unit: str
    path: list[str]
    units: list[str]
    rule: str


class Hq(TypedDict):
    type: Literal["absorb", "detach"]
    hq: str
    unit: str
    rule: str


class Regiment(TypedDict):
    type: Literal["assemble", "breakdown"]
    regiment: str
    battalions: list[str]
    at: str
    rule: str


class Interdiction(TypedDict):
    type: Literal["interdict"]
    port: str
    die: int
    drm: int
    result: str
    sunk: list[str]
    rule: str


class AirMission(TypedDict):
    type: Literal["mission"]
    unit: str
    target: str
    aa: list[str]
    rolls: list[int]
    turned_back: bool
    rule: str


class Evasion(TypedDict):
    type: Literal["evade"]
    target: str
    choice: str
    die: int
    result: str
    rule: str


class CombatEvent(TypedDict):
    type: Literal["attack"]
    target: str
    attackers: list[str]
    defenders: list[str]
    attack: str
    defence: str
    shift: int
    column: str
    die: int
    result: str
    ledger: dict[str, Any]
    rule: str


class RetreatEvent(TypedDict):
    type: Literal["retreat"]
    unit: str
    frm: str
    to: str
    rule: str


class AdvanceEvent(TypedDict):
    type: Literal["advance"]
    unit: str
    to: str
    rule: str


class GameOver(TypedDict):
    type: Literal["game_over"]
    turn: int
    ports: int
    level: str
    rule: str


EVENTS = event_schemas(globals())
