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


CARD_SLOTS = ("attack", "defend", "react", "move", "sabotage", "counter", "escape", "evacuate", "reinforce", "submarine", "divert")


class CardUse(Sourced):
    """One function of a card: when it is played (slot) and what it does."""

    slot: Literal["attack", "defend", "react", "move", "sabotage", "counter", "escape", "evacuate", "reinforce", "submarine", "divert"]
    dice: int = Field(default=0, ge=0, le=DICE)
    cancels: list[str] = []
    needs: Optional[Literal["air", "coast"]] = None
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

    @model_validator(mode="after")
    def _refs(self) -> "KampenCardsSpec":
        _factions("decks", self.decks)
        for side, d in self.decks.items():
            for i, c in enumerate(d.copies):
                if c.card not in self.cards:
                    raise ValueError(f"decks.{side}.copies.{i}.card: {c.card!r} is not a card")
        types = {c.type for c in self.cards.values()}
        for k, card in self.cards.items():
            for j, u in enumerate(card.uses):
                for t in u.cancels:
                    if t not in types:
                        raise ValueError(f"cards.{k}.uses.{j}.cancels: {t!r} is not a card type")
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
