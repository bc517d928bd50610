"""Assault on Narvik's events: what ``apply`` reports, one typed record per ``type`` tag.

Events are plain JSON mappings in the log (so saves stay readable and replays compare them
as written); these ``TypedDict`` schemas give each tag its fields and types, which mypy checks
where an event is made and the conformance suite checks on every event a game emits.
Every event carries the rule section it comes from.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from hexwar.core.events import event_schemas


class Weather(TypedDict):
    type: Literal["weather"]
    roll: list[int]
    result: str
    rule: str


class Fatigue(TypedDict):
    type: Literal["fatigue"]
    unit: str
    fp: int
    cause: str
    rule: str


class Arrive(TypedDict):
    type: Literal["arrive"]
    unit: str
    at: str
    rule: str


class RandomEvent(TypedDict):
    type: Literal["event"]
    kind: str
    rule: str


class Secret(TypedDict):
    type: Literal["secret"]
    side: str
    result: str
    rule: str


class OpenEvent(TypedDict):
    type: Literal["open_event"]
    roll: list[int]
    result: str
    rule: str


class GermanReinforcements(TypedDict):
    type: Literal["german_reinforcements"]
    result: dict[str, int]
    rule: str


class Lost(TypedDict):
    type: Literal["lost"]
    what: str
    rule: str


class Railway(TypedDict):
    type: Literal["railway"]
    why: str
    roll: int
    lost: bool
    rule: str


class Redeployment(TypedDict):
    type: Literal["redeployment"]
    roll: int
    result: dict[str, Any]
    rule: str


class NoEffect(TypedDict):
    type: Literal["no_effect"]
    why: str
    rule: str


class Redeployed(TypedDict):
    type: Literal["redeployed"]
    unit: str
    returns: bool
    rule: str


class AirPoints(TypedDict):
    type: Literal["air_points"]
    roll: list[int]
    ap: int
    rule: str


class ApBonus(TypedDict):
    type: Literal["ap_bonus"]
    ap: int
    rule: str


class GameOver(TypedDict):
    type: Literal["game_over"]
    turn: int
    level: str
    vp: dict[str, int]
    rule: str


class Turn(TypedDict):
    type: Literal["turn"]
    turn: int
    rule: str


class Vp(TypedDict):
    type: Literal["vp"]
    side: str
    vp: int
    cause: str
    rule: str


class Base(TypedDict):
    type: Literal["base"]
    hex: str
    rule: str


class Mas(TypedDict):
    type: Literal["mas"]
    rule: str


class Place(TypedDict):
    type: Literal["place"]
    unit: str
    hex: str
    concealed: bool
    rule: str


class Dummy(TypedDict):
    type: Literal["dummy"]
    hex: str
    rule: str


class Reveal(TypedDict):
    type: Literal["reveal"]
    unit: str
    rule: str


class Revealed(TypedDict):
    type: Literal["revealed"]
    unit: str
    rule: str


class DummyRemoved(TypedDict):
    type: Literal["dummy_removed"]
    unit: str
    rule: str


class Pass(TypedDict):
    type: Literal["pass"]
    side: str
    rule: str


class Move(TypedDict):
    type: Literal["move"]
    unit: str
    path: list[str]
    mp: str
    fp: int
    rule: str


class Interned(TypedDict):
    type: Literal["interned"]
    unit: str
    rule: str


class Exit(TypedDict):
    type: Literal["exit"]
    unit: str
    rule: str


class AssaultEmpty(TypedDict):
    type: Literal["assault_empty"]
    target: str
    rule: str


class Assault(TypedDict):
    type: Literal["assault"]
    target: str
    attackers: list[str]
    defenders: list[str]
    artillery: list[str]
    ships: list[str]
    ap: int
    amphibious: bool
    ad: int
    drm: int
    die: int
    column: str
    result: str
    ledger: dict[str, Any]
    rule: str


class LandingFailed(TypedDict):
    type: Literal["landing_failed"]
    unit: str
    rule: str


class NoRetreat(TypedDict):
    type: Literal["no_retreat"]
    unit: str
    rule: str


class AllToLimit(TypedDict):
    type: Literal["all_to_limit"]
    side: str
    rule: str


class Take(TypedDict):
    type: Literal["take"]
    side: str
    option: str
    unit: str
    rule: str


class Eliminated(TypedDict):
    type: Literal["eliminated"]
    unit: str
    rule: str


class Retreat(TypedDict):
    type: Literal["retreat"]
    unit: str
    path: list[str]
    fp: int
    rule: str


class Advance(TypedDict):
    type: Literal["advance"]
    unit: str
    to: str
    rule: str


class ArtInterdiction(TypedDict):
    type: Literal["art_interdiction"]
    artillery: list[str]
    hex: str
    rule: str


class Recon(TypedDict):
    type: Literal["recon"]
    hex: str
    rule: str


class AirInterdiction(TypedDict):
    type: Literal["air_interdiction"]
    hex: str
    ap: int
    roll: list[int]
    infantry: int
    rule: str


class AirShipAttack(TypedDict):
    type: Literal["air_ship_attack"]
    ship: str
    ap: int
    roll: list[int]
    naval: int
    rule: str


class Sunk(TypedDict):
    type: Literal["sunk"]
    ship: str
    rule: str


class ShipDamaged(TypedDict):
    """18.1.3, 20.4: a ship damaged by the air, back to Harstad with its cargo."""

    type: Literal["ship_damaged"]
    ship: str
    at: str
    cargo: str | None
    rule: str


class NavalMove(TypedDict):
    type: Literal["naval_move"]
    ships: list[str]
    path: list[str]
    rule: str


class Embark(TypedDict):
    type: Literal["embark"]
    ship: str
    unit: str
    rule: str


class Disembark(TypedDict):
    type: Literal["disembark"]
    ship: str
    unit: str
    at: str
    rule: str


class Landed(TypedDict):
    type: Literal["landed"]
    unit: str
    at: str
    contested: bool
    rule: str


class ShipFunction(TypedDict):
    type: Literal["ship_function"]
    ship: str
    function: str
    rule: str


#: tag -> schema, for the conformance suite and readers of saved logs
EVENTS = event_schemas(globals())
