"""Kampen om Norge's events, one typed record per ``type`` tag (see ``hexwar.core.events``).

Several events have a ``from`` field, a Python keyword, so they use the functional
``TypedDict`` form.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from hexwar.core.events import event_schemas


class Card(TypedDict):
    type: Literal["card"]
    faction: str
    card: str
    copy: int
    how: str
    rule: str


class PhaseEnd(TypedDict):
    type: Literal["phase_end"]
    faction: str
    phase: str
    rule: str


Diverted = TypedDict("Diverted", {"type": Literal["diverted"], "by": str, "from": str, "to": str, "rule": str})
Attack = TypedDict("Attack", {"type": Literal["attack"], "faction": str, "from": str, "via": NotRequired[list[str]],
                              "to": str, "n": int, "fjord": bool, "rule": str})
Move = TypedDict("Move", {"type": Literal["move"], "faction": str, "from": str, "via": list[str], "to": str, "n": int,
                          "rule": str})
Escape = TypedDict("Escape", {"type": Literal["escape"], "faction": str, "from": str, "to": str, "n": int, "rule": str})
SentBack = TypedDict("SentBack", {"type": Literal["sent_back"], "card": str, "from": str, "to": str, "n": int,
                                  "target": str, "rule": str})
Withdraw = TypedDict("Withdraw", {"type": Literal["withdraw"], "from": str, "to": str, "battalions": dict[str, int],
                                  "rule": str})


class Arrive(TypedDict):
    type: Literal["arrive"]
    faction: str
    to: str
    n: int
    rule: str


class SabotageCancelled(TypedDict):
    type: Literal["sabotage_cancelled"]
    card: str
    rule: str


class Entered(TypedDict):
    type: Literal["entered"]
    faction: str
    area: str
    rule: str


class CombatStart(TypedDict):
    type: Literal["combat"]
    area: str
    attacker: str
    attackers: int
    defenders: dict[str, int]
    rule: str


class Cancelled(TypedDict):
    type: Literal["cancelled"]
    card: str
    by: str
    rule: str


class CombatRoll(TypedDict):
    type: Literal["combat_roll"]
    area: str
    attacker: list[int]
    defender: list[int]
    totals: list[int]
    kills: list[int]
    ledger: list[dict[str, Any]]
    rule: str


class Eliminated(TypedDict):
    type: Literal["eliminated"]
    area: str
    defenders: dict[str, int]
    attackers: int
    rule: str


class Evacuated(TypedDict):
    type: Literal["evacuated"]
    faction: str
    to: str
    rule: str


class CombatResult(TypedDict):
    type: Literal["combat_result"]
    area: str
    winner: str
    totals: list[int]
    rule: str


class AttackRepulsed(TypedDict):
    type: Literal["attack_repulsed"]
    area: str
    rule: str


class Surrounded(TypedDict):
    type: Literal["surrounded"]
    area: str
    lost: dict[str, int]
    rule: str


class Reinforcements(TypedDict):
    type: Literal["reinforcements"]
    faction: str
    symbols: int
    bought: int
    free: int
    rule: str


class SunkReinforcement(TypedDict):
    type: Literal["sunk_reinforcement"]
    faction: str
    rule: str


class Placed(TypedDict):
    type: Literal["placed"]
    faction: str
    area: str
    n: int
    rule: str


class Discard(TypedDict):
    type: Literal["discard"]
    faction: str
    card: str
    rule: str


class DeckExhausted(TypedDict):
    type: Literal["deck_exhausted"]
    faction: str
    rule: str


class Reshuffle(TypedDict):
    type: Literal["reshuffle"]
    faction: str
    cards: int
    rule: str


class AlliedWithdrawal(TypedDict):
    type: Literal["allied_withdrawal"]
    battalions: int
    rule: str


class Recalled(TypedDict):
    type: Literal["recalled"]
    area: str
    rule: str


class Draw(TypedDict):
    type: Literal["draw"]
    faction: str
    hand: int
    rule: str


class Round(TypedDict):
    type: Literal["round"]
    faction: str
    game_round: int
    rule: str


class GameOver(TypedDict):
    type: Literal["game_over"]
    why: str
    winner: str | None
    level: str
    rule: str


#: tag -> schema, for the conformance suite and readers of saved logs
EVENTS = event_schemas(globals())
