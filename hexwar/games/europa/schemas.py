"""The Europa "Narvik" variant's data schemas: unit types, the campaign scenario and the
variant's own charts (E1-E5 of the digest's Part 2).

They are registered with the data layer on import, so ``hexwar validate`` and the loader know
the kinds ``europa_unit_types``, ``europa_scenario`` and ``europa_rules``. Seed 004 names most
of these charts without their values ([nd] in the digest): every value is ``source: authored``
unless the seed states it, and docs/data-provenance.md says why each was chosen.
"""

from __future__ import annotations

from typing import Annotated, Literal, Optional, Union

from pydantic import Field, model_validator

from hexwar.data.schemas import register_spec
from hexwar.data.spec_base import COUNT, SMALL, Sourced, Strict

SIDES = ("germans", "allies")
NATIONS = ("germany", "norway", "britain", "france", "poland")
Strength = Annotated[int, Field(ge=0, le=SMALL)]
Turn = Annotated[int, Field(ge=1, le=COUNT)]
Die = Annotated[int, Field(ge=1, le=6)]


class HqSpec(Strict):
    """E5 C: what a headquarters absorbs. ``formation``: units of its own designation
    (German, British, French, Polish HQs); ``any``: any friendly unit, a Norwegian first."""

    absorbs: Literal["formation", "any"]
    limit: Annotated[int, Field(ge=1, le=SMALL)]


class EuropaUnitType(Sourced):
    """What a Europa counter prints: attack-defence-movement, size and class."""

    kind: Literal["infantry", "mountain", "artillery", "aa", "hq", "tank", "truck", "naval_infantry", "ship", "air",
                  "landing_craft"]
    size: Literal["company", "battery", "battalion", "regiment", "brigade", "division", "flotilla", "group"]
    attack: Strength
    defence: Strength
    mp: Union[int, str]
    movement_class: Literal["leg", "mountain", "motorized", "division_hq", "none"]
    #: E1 trucks: battalion-equivalents (a truck carries up to 1)
    bn: Union[int, str] = 1
    #: E3 E: combat/motorized units move again in exploitation
    exploits: bool = False
    #: E5 A: ground (2 a hex), artillery (1 battalion or 2 batteries), free (unlimited)
    stacking: Literal["ground", "artillery", "free", "none"] = "ground"
    hq: Optional[HqSpec] = None
    #: E2: destroying a key unit scores victory points
    key: bool = False
    #: AA fire against air missions (E1: AA fire rules exist)
    aa: Annotated[int, Field(ge=0, le=6)] = 0
    #: air units: hexes from their airfield
    range: Annotated[int, Field(ge=0, le=SMALL)] = 0


class EuropaUnitTypesSpec(Strict):
    kind: Literal["europa_unit_types"]
    name: str
    types: dict[str, EuropaUnitType]


class UnitEntry(Sourced):
    """One counter of the order of battle: where it starts or when and where it arrives."""

    id: str
    type: str
    side: Literal["germans", "allies"]
    nation: Literal["germany", "norway", "britain", "france", "poland"]
    formation: str = ""
    name: str = ""
    #: a place name or hex at the start (turn 1 set-up)
    at: Optional[str] = None
    #: arrival: the turn and the place (a port, an airfield or a mobilisation centre)
    turn: Optional[Turn] = None
    arrives: Optional[str] = None
    #: how it arrives: by sea (a port, E1 interdiction applies) or by air (an airfield)
    by: Literal["sea", "air", "land"] = "sea"
    #: E1: a regiment the scenario starts broken down: its battalions
    breaks_into: list[str] = []
    #: E1 stranded sailors: arrives only after German destroyers are sunk in port
    sailors: bool = False

    @model_validator(mode="after")
    def _where(self) -> "UnitEntry":
        placed = self.at is not None
        arriving = self.turn is not None and self.arrives is not None
        if placed == arriving and not self.breaks_into and not self.sailors:
            raise ValueError(f"{self.id}: give either at: (set-up) or turn: and arrives: (an arrival)")
        return self


class MobilisationEntry(Sourced):
    """E1: the units a mobilisation centre raises, by turn."""

    turn: Turn
    type: str
    count: Annotated[int, Field(ge=1, le=SMALL)] = 1


class StoreSpec(Sourced):
    """E1: an artillery store: the artillery it delivers, by turn, and the battalion an
    artillery-formed infantry battalion becomes if the store is captured."""

    artillery: list[MobilisationEntry]
    formed: str


class SeaZoneSpec(Sourced):
    name: str
    lonlat: tuple[float, float]
    #: the Allies may interdict Axis ports here (E1 naval interdiction)
    interdiction: bool = True


class EuropaScenarioSpec(Strict):
    kind: Literal["europa_scenario"]
    name: str
    title: str
    source: str
    map: str
    unit_types: str
    tables: dict[Literal["terrain", "crt", "rules"], str]
    first_day: str
    days_per_turn: Annotated[int, Field(ge=1, le=31)]
    turns: Turn
    weather: str
    units: list[UnitEntry]
    #: places the Germans own at the start (their 9 April landings)
    german_start: list[str]
    mobilisation: dict[str, list[MobilisationEntry]]
    stores: dict[str, StoreSpec]
    sea_zones: dict[str, SeaZoneSpec]
    #: the port where a sunk German flotilla's sailors come ashore (E1)
    flotilla_port: str
    #: where German arrivals land when their own port or airfield is not German
    german_base: str

    @model_validator(mode="after")
    def _ids(self) -> "EuropaScenarioSpec":
        seen: set[str] = set()
        for i, u in enumerate(self.units):
            if u.id in seen:
                raise ValueError(f"units.{i}.id: {u.id!r} appears twice")
            seen.add(u.id)
        for i, u in enumerate(self.units):
            bad = [b for b in u.breaks_into if b not in seen]
            if bad:
                raise ValueError(f"units.{i}.breaks_into: {bad[0]!r} is not a unit of this scenario (E1)")
        if len(self.mobilisation) != 16:
            raise ValueError(f"mobilisation: {len(self.mobilisation)} centres, E1 says 16")
        if len(self.stores) != 3:
            raise ValueError(f"stores: {len(self.stores)} artillery stores, E1 says 3")
        return self


class Band(Sourced):
    """A die band: rolls ``lo``..``hi`` give ``result``."""

    lo: Die
    hi: Die
    result: str


def band(bands: list[Band], roll: int) -> str:
    """Return the result a (validated, 1-6 covering) die table gives a roll."""
    return next(b.result for b in bands if b.lo <= roll <= b.hi)


class VictoryBand(Sourced):
    """E2: how many of the seven ports the Germans own, and the result."""

    ports: tuple[Annotated[int, Field(ge=0, le=7)], Annotated[int, Field(ge=0, le=7)]]
    level: str
    winner: Optional[Literal["germans", "allies"]] = None


class Shift(Sourced):
    shift: Annotated[int, Field(ge=-SMALL, le=SMALL)]


class Reach(Sourced):
    hexes: Annotated[int, Field(ge=0, le=SMALL)]


class Roll(Sourced):
    roll: Die


class Mp(Sourced):
    mp: Annotated[int, Field(ge=0, le=SMALL)]


class EarlyShift(Sourced):
    """A modifier that applies up to and including a turn."""

    shift: Annotated[int, Field(ge=-SMALL, le=SMALL)]
    until_turn: Turn


class Keep(Sourced):
    """A share a unit keeps: ``0``, ``1/2``, ``1``."""

    keep: Literal["0", "1/2", "1"]


class EuropaRulesSpec(Strict):
    """The variant's charts beyond the TEC and the CRT (E1-E5)."""

    kind: Literal["europa_rules"]
    name: str
    #: defender's terrain: column shifts (negative helps the defender)
    terrain_shifts: dict[str, Shift]
    river_shift: Shift
    #: E1 supply states: a line to a supply source of at most this many hexes
    general_supply: Reach
    #: E1 attack supply: this close to a source or to a headquarters in general supply
    attack_supply: Reach
    #: E1 disruption: what a disrupted unit keeps (as a fraction of attack, defence, MP)
    disrupted: dict[Literal["attack", "defence", "mp"], Keep]
    #: E1 retreat before combat: turn 1, Norwegian defenders only, by die
    turn1_retreat: list[Band]
    #: E1 limited retreat option on later turns, by die
    retreat_option: list[Band]
    #: E1 naval interdiction of an Axis port, by die (plus modifiers)
    interdiction: list[Band]
    interdiction_drm: EarlyShift
    #: Axis ports the Allies may interdict in one player turn
    interdictions: Reach
    #: AA fire: a mission is turned back on this roll or higher, per AA unit
    aa_hit: Roll
    #: air support: column shifts per mission, at most this many missions a hex
    air_shift: Shift
    air_max: Reach
    #: E4 [nd]: the MP to leave a hex in an enemy ZoC
    zoc_exit: Mp
    #: E5 A: stacking limits per side and hex
    stack_ground: Reach
    stack_artillery: Reach
    #: E2: victory points per key unit destroyed
    key_vp: Reach
    victory: list[VictoryBand]
    #: E2 [nd]: how VP and ports combine: VP break a tie band
    vp_breaks: list[str]

    @model_validator(mode="after")
    def _bands(self) -> "EuropaRulesSpec":
        for key in ("turn1_retreat", "retreat_option", "interdiction"):
            faces = sorted(f for b in getattr(self, key) for f in range(b.lo, b.hi + 1))
            if faces != list(range(1, 7)):
                raise ValueError(f"{key}: the bands must cover the die faces 1-6 once each (got {faces})")
        ports = sorted(p for b in self.victory for p in range(b.ports[0], b.ports[1] + 1))
        if ports != list(range(0, 8)):
            raise ValueError(f"victory: the bands must cover 0-7 German-owned ports once each (got {ports})")
        return self


register_spec("europa_unit_types", EuropaUnitTypesSpec)
register_spec("europa_scenario", EuropaScenarioSpec)
register_spec("europa_rules", EuropaRulesSpec)
