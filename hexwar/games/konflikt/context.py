"""What the set-up and the scoring of a Konflikt '47 scenario read of the game: the game
(``game.py``) composes them and passes itself, so neither imports it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from hexwar.core.state import Unit
from hexwar.games.konflikt.schemas import Allot, KonfliktTemplatesSpec, ScenarioSpec
from hexwar.games.konflikt.state import KonfliktData
from hexwar.games.konflikt.table import Table

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.board.base import Board
    from hexwar.data.scenario import Tables


class Konflikt(Protocol):
    """A Konflikt '47 scenario on its table: the templates chart, the table, the host ruleset's
    tables and board, and the questions its set-up and scoring ask."""

    board: "Board"
    tables: "Tables"
    table: Table
    t: KonfliktTemplatesSpec

    def spec_of(self, d: KonfliktData) -> ScenarioSpec: ...

    def other(self, side: str) -> str: ...

    def role(self, d: KonfliktData, side: str) -> str: ...

    def allot(self, d: KonfliktData, kind: str, side: str) -> Allot | None: ...

    def zone(self, d: KonfliktData, side: str) -> list[str]: ...

    def infantry(self, u: Unit) -> bool: ...

    def holds_ground(self, u: Unit) -> bool: ...

    def cover(self, loc: str) -> bool: ...

    def take_results(self, data: KonfliktData, uids: list[str], points: int, scorer: str) -> list[dict[str, Any]]: ...
