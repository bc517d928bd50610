"""Kampen om Norge's data schemas: the cards and their decks (2.4, 4.x) and scenarios (3, S1).

They are registered with the data layer on import, so ``hexwar validate`` and the loader know
the kinds ``kampen_cards`` and ``kampen_scenario``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Optional, Union

from pydantic import Field, model_validator

from hexwar.data.schemas import register_spec
from hexwar.data.spec_base import COUNT, DICE, Sourced, Strict

KAMPEN_FACTIONS = ("germans", "norwegians", "allies")


def _factions(key: str, d: dict[str, Any]) -> None:
    bad = [k for k in d if k not in KAMPEN_FACTIONS]
    if bad:
        raise ValueError(f"{key}: {bad[0]!r} is not a faction (germans, norwegians, allies)")


Slot = Literal["attack", "defend", "react", "move", "sabotage", "counter", "escape", "evacuate", "reinforce",
               "submarine", "divert", "sea_attack", "sea_defend", "sea_react", "recon", "rescue", "deceive", "redeploy",
               "smoke", "sailors", "mines", "fort"]
Face = Annotated[int, Field(ge=1, le=6)]


class CardUse(Sourced):
    """One function of a card: when it is played (slot) and what it does."""

    slot: Slot
    dice: int = Field(default=0, ge=0, le=DICE)
    cancels: list[str] = []
    needs: Optional[Literal["air", "coast", "sea_air"]] = None
    rapid: Optional[tuple[Annotated[int, Field(ge=1, le=DICE)], Annotated[int, Field(ge=1, le=10)]]] = None
    rail: Optional[tuple[Annotated[int, Field(ge=1, le=DICE)], Annotated[int, Field(ge=1, le=10)]]] = None
    paradrop: int = Field(default=0, ge=0, le=DICE)
    airlift: int = Field(default=0, ge=0, le=DICE)
    invasion: int = Field(default=0, ge=0, le=DICE)
    returns_group: int = Field(default=0, ge=0, le=DICE)
    land_only: bool = False
    flee: int = Field(default=0, ge=0, le=DICE)
    saves: int = Field(default=0, ge=0, le=DICE)
    anywhere: bool = False
    faces: list[Face] = []  # the die faces that work (a sea card's sink, a sighting, a bluff ...)
    faces2: list[Face] = []  # Kystfort's second band: the landing is turned away (6.1)
    ships: int = Field(default=0, ge=0, le=DICE)
    seas: int = Field(default=0, ge=0, le=DICE)
    sailors: int = Field(default=0, ge=0, le=DICE)
    ships_needed: Optional[Literal["carrier", "gunship", "ship"]] = None  # 5.2: the advanced game's extra requirement

    @model_validator(mode="after")
    def _bands(self) -> "CardUse":
        if set(self.faces) & set(self.faces2):
            raise ValueError(f"faces {self.faces} and faces2 {self.faces2} overlap: a face has one result")
        return self


class CardSpec(Strict):
    name: str
    gloss: str
    faction: Literal["germans", "norwegians", "allies", "any"]
    type: str
    uses: list[CardUse]


class CopySpec(Sourced):
    card: str
    count: int = Field(ge=1, le=COUNT)
    symbols: int = Field(ge=0, le=DICE)
    dice: Optional[int] = Field(default=None, ge=0, le=DICE)


class DeckSpec(Strict):
    size: int = Field(ge=1, le=COUNT)
    copies: list[CopySpec]

    @model_validator(mode="after")
    def _size(self) -> "DeckSpec":
        n = sum(c.count for c in self.copies)
        if n != self.size:
            raise ValueError(f"copies add up to {n} cards, the deck has {self.size} (rules 2.4)")
        return self


class KampenCardsSpec(Strict):
    kind: Literal["kampen_cards"]
    cards: dict[str, CardSpec]
    decks: dict[str, DeckSpec]
    april9: dict[str, DeckSpec] = {}  # 6.2: the 9 April cards of the advanced game

    @model_validator(mode="after")
    def _refs(self) -> "KampenCardsSpec":
        _factions("decks", self.decks)
        _factions("april9", self.april9)
        for key, decks in (("decks", self.decks), ("april9", self.april9)):
            for side, d in decks.items():
                for i, c in enumerate(d.copies):
                    if c.card not in self.cards:
                        raise ValueError(f"{key}.{side}.copies.{i}.card: {c.card!r} is not a card")
        types = {c.type for c in self.cards.values()}
        for k, card in self.cards.items():
            for j, u in enumerate(card.uses):
                for t in u.cancels:
                    if t not in types:
                        raise ValueError(f"cards.{k}.uses.{j}.cancels: {t!r} is not a card type")
        return self


class ShipClassSpec(Sourced):
    """A class of ship (6.1): its firing rank, die faces, cards lost when sunk, limits."""

    name: str
    gloss: str
    rank: int = Field(ge=1, le=9)
    sink: list[Face]
    chase: list[Face]
    cards_lost: int = Field(ge=0, le=DICE)
    moves: int = Field(default=2, ge=0, le=DICE)
    intercepts: bool = True
    raid_cards: int = Field(default=0, ge=0, le=DICE)
    chased_sinks: bool = False
    face_up: bool = False
    sunk_first: bool = False

    @model_validator(mode="after")
    def _bands(self) -> "ShipClassSpec":
        if set(self.sink) & set(self.chase):
            raise ValueError(f"sink {self.sink} and chase {self.chase} overlap: a face has one result (8.2 step 4)")
        return self


class ShipSpec(Sourced):
    name: str
    type: str


class CountSpec(Sourced):
    count: int = Field(ge=0, le=COUNT)


class FacesSpec(Sourced):
    faces: list[Face]


class KampenFleetSpec(Strict):
    """The advanced game's ships (rules 6.1, 7.0, 8): classes, fleets, dummies, sea dice."""

    kind: Literal["kampen_fleet"]
    classes: dict[str, ShipClassSpec]
    fleets: dict[str, list[ShipSpec]]
    dummies: dict[str, CountSpec] = {}
    dice: dict[Literal["interception", "resistance"], FacesSpec]

    @model_validator(mode="after")
    def _refs(self) -> "KampenFleetSpec":
        _factions("fleets", self.fleets)
        _factions("dummies", self.dummies)
        for side, ships in self.fleets.items():
            for i, s in enumerate(ships):
                if s.type not in self.classes:
                    raise ValueError(f"fleets.{side}.{i}.type: {s.type!r} is not a ship class (rules 6.1)")
        for k in ("interception", "resistance"):
            if k not in self.dice:
                raise ValueError(f"dice: no {k} faces (rules {'8.1' if k == 'interception' else '7.2'})")
        return self


class AdvancedSpec(Sourced):
    """The advanced game's numbers (rules 5-8), each stated in the text."""

    april9_hands: dict[str, Annotated[int, Field(ge=0, le=DICE)]]  # 7.0
    allied_ships_drawn: int = Field(ge=0, le=COUNT)  # 7.0
    norway_start: dict[Literal["finnmark", "oslo_or_adjacent", "mobilisation"], Annotated[int, Field(ge=0, le=DICE)]]  # 7.0
    recall_symbols: int = Field(ge=1, le=COUNT)  # 7.2: the raiders come back for 6 symbols
    exhaustion_ships: int = Field(ge=0, le=COUNT)  # 5.2
    telegraph: dict[Literal["area", "cards"], Union[str, int]]  # 5.1
    bardufoss_sea: dict[Literal["airfield", "sea"], str]  # 5.1 (OCR "VIL", read VII)
    mobilise_per: int = Field(ge=1, le=DICE)  # 7.3: 1 battalion per 2 mobilisation points
    raid_seas: list[str]  # 7.2: raiders leave from these seas, and the raid field lies next to them

    @model_validator(mode="after")
    def _sides(self) -> "AdvancedSpec":
        _factions("april9_hands", self.april9_hands)
        return self


class KampenScenarioSpec(Strict):
    kind: Literal["kampen_scenario"]
    name: str
    title: str
    board: str
    source: str
    decks: Union[Literal["full"], dict[str, dict[str, Annotated[int, Field(ge=1, le=COUNT)]]]]
    hands: dict[str, Annotated[int, Field(ge=0, le=DICE)]]
    must_play: list[str]
    start: dict[str, dict[str, Annotated[int, Field(ge=1, le=COUNT)]]]
    allied_landing: Optional[dict[Literal["battalions", "groups"], Annotated[int, Field(ge=0, le=COUNT)]]] = None
    reinforcements: bool
    end: Literal["german_deck", "allied_deck"]
    victory: Union[Literal["point_cities"], dict[Literal["objectives"], list[str]]]
    region: list[str] = []
    advanced: Optional[AdvancedSpec] = None  # rules 5-8: ships and the 9 April round

    @model_validator(mode="after")
    def _sides(self) -> "KampenScenarioSpec":
        if isinstance(self.decks, dict):
            _factions("decks", self.decks)
        _factions("hands", self.hands)
        _factions("start", self.start)
        _factions("must_play", {k: 0 for k in self.must_play})
        missing = [f for f in KAMPEN_FACTIONS if f not in self.hands]
        if missing:
            raise ValueError(f"hands: no hand size for {missing} (rules 2.4)")
        return self


register_spec("kampen_cards", KampenCardsSpec)
register_spec("kampen_scenario", KampenScenarioSpec)
register_spec("kampen_fleet", KampenFleetSpec)
