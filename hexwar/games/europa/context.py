"""What the Europa variant's phases read of the game: the game (``game.py``) composes the
phases and passes itself, so no phase imports it. ``Context`` is one side's knowledge of the
enemy for its moves, worked out once per enemy position."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Collection, Protocol

from hexwar.board.hexboard import HexBoard
from hexwar.core.game import Result
from hexwar.core.state import Unit
from hexwar.data.tables import OddsCrt, TerrainChart
from hexwar.games.europa.schemas import EuropaRulesSpec, EuropaScenarioSpec, EuropaUnitType, UnitEntry
from hexwar.games.europa.state import EuropaData
from hexwar.rules.movement import MoveQuery


@dataclass(frozen=True)
class Context:
    """What one side's moves need to know of the enemy, computed once per enemy position."""

    zoc: frozenset[str]
    enemy: frozenset[str]
    never: frozenset[str]
    blocked: frozenset[str]  # enemy | never: not passed through
    strong: frozenset[str]  # enemy hexes holding a unit with a defence strength (E3 E)
    near: frozenset[str]  # hexes next to an enemy hex
    reach: dict[tuple[str, str, Fraction, str, bool], Any]  # (mover, hex, MP, class, exploit) -> destinations


class Europa(Protocol):
    """The Europa "Narvik" variant as its phases see it: the map and its places, the charts,
    the order of battle, and the questions the phases ask of units and sides."""

    board: HexBoard
    spec: EuropaScenarioSpec
    rules: EuropaRulesSpec
    chart: TerrainChart
    crt: OddsCrt
    switches: Any
    oob: dict[str, UnitEntry]
    bn: dict[str, Fraction]
    at: dict[str, str]
    arrive_at: dict[str, str]
    airfields: frozenset[str]
    ports: frozenset[str]
    norway: frozenset[str]
    sweden: frozenset[str]
    key_hexes: list[str]
    zone: dict[str, str]
    zone_all: dict[str, str]
    flotilla_port: str
    german_base: str
    store_unit: dict[str, str]
    regiments: dict[str, tuple[str, ...]]

    def t(self, u: Unit) -> EuropaUnitType: ...

    def hex(self, where: str) -> str: ...

    def date(self, turn: int) -> str: ...

    def ground(self, u: Unit) -> bool: ...

    def ground_at(self, d: EuropaData, loc: str, side: str | None = None) -> list[Unit]: ...

    def occupied(self, d: EuropaData, side: str) -> frozenset[str]: ...

    def attack(self, d: EuropaData, u: Unit) -> Fraction: ...

    def defence(self, u: Unit) -> Fraction: ...

    def movement(self, d: EuropaData, u: Unit) -> Fraction: ...

    def context(self, d: EuropaData, side: str) -> Context: ...

    def query(self, d: EuropaData, u: Unit, ctx: Context | None = None) -> MoveQuery: ...

    def supplied(self, d: EuropaData, side: str, reach: int, extra: Collection[str] = ()) -> dict[str, bool]: ...

    def attack_supplied(self, d: EuropaData, side: str) -> dict[str, bool]: ...

    def restack(self, d: EuropaData, events: list[Any]) -> None: ...

    def eliminate(self, d: EuropaData, uid: str, events: list[Any], rule: str) -> None: ...

    def ports_held(self, d: EuropaData, side: str = ...) -> int: ...

    def result(self, d: EuropaData) -> Result: ...

    def ask(self, d: EuropaData, side: str, what: str, **ctx: Any) -> None: ...

    def to_phase(self, d: Any, phase: str) -> None: ...
