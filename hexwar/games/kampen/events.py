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


# --- the advanced game (rules 5-8). ``hide`` names the fields only the factions in ``see``
# may read (a face-down ship's name, a 9 April card kept): ``KampenGame.visible_events``
# drops them for everyone else.


class CardsLost(TypedDict):
    type: Literal["cards_lost"]
    faction: str
    n: int
    cards: list[str]
    why: str
    rule: str


class ShipSunk(TypedDict):
    type: Literal["ship_sunk"]
    faction: str
    ship: str
    cls: str
    why: str
    rule: str


class ShipPlaced(TypedDict):
    type: Literal["ship_placed"]
    faction: str
    sea: str
    ship: NotRequired[str]
    rule: str
    hide: list[str]
    see: list[str]


class RaidersRecalled(TypedDict):
    type: Literal["raiders_recalled"]
    faction: str
    rule: str


Sail = TypedDict("Sail", {"type": Literal["sail"], "faction": str, "from": str, "to": str, "n": int,
                          "ships": NotRequired[list[str]], "rule": str, "hide": list[str], "see": list[str]})


class Interception(TypedDict):
    type: Literal["interception"]
    faction: str
    sea: str
    faces: list[int]
    caught: list[str]
    rule: str


class Smoke(TypedDict):
    type: Literal["smoke"]
    faction: str
    sea: str
    rule: str


class SeaCombatStart(TypedDict):
    type: Literal["sea_combat"]
    sea: str
    attacker: str
    attackers: list[str]
    defenders: list[str]
    rule: str


class ShipAdded(TypedDict):
    type: Literal["ship_added"]
    faction: str
    ship: str
    sea: str
    rule: str


class SeaShot(TypedDict):
    type: Literal["sea_shot"]
    faction: str
    by: str
    face: int
    result: str
    target: str
    rule: str


Chased = TypedDict("Chased", {"type": Literal["chased"], "faction": str, "ship": str, "from": str, "to": str, "rule": str})


class SeaCombatEnd(TypedDict):
    type: Literal["sea_combat_end"]
    sea: str
    rule: str


class Chose(TypedDict):
    type: Literal["chose"]
    faction: str
    card: NotRequired[str]
    rule: str
    hide: list[str]
    see: list[str]


class Rescue(TypedDict):
    type: Literal["rescue"]
    faction: str
    ship: NotRequired[str]
    rule: str
    hide: list[str]
    see: list[str]


class Sighted(TypedDict):
    type: Literal["sighted"]
    faction: str
    sea: str
    faces: list[int]
    ships: NotRequired[list[str]]
    rule: str
    hide: list[str]
    see: list[str]


class Raiding(TypedDict):
    type: Literal["raiding"]
    faction: str
    ship: str
    sea: str
    rule: str


class NoLanding(TypedDict):
    type: Literal["no_landing"]
    seas: list[str]
    rule: str


class Landing(TypedDict):
    type: Literal["landing"]
    faction: str
    ship: str
    sea: str
    area: str
    rule: str


class Fort(TypedDict):
    type: Literal["fort"]
    area: str
    face: int
    result: str
    rule: str


class Resistance(TypedDict):
    type: Literal["resistance"]
    area: str
    face: int
    mobilised: bool
    rule: str


class Telegraph(TypedDict):
    type: Literal["telegraph"]
    area: str
    rule: str


class AprilEnd(TypedDict):
    type: Literal["april_end"]
    rule: str


class Bluff(TypedDict):
    type: Literal["bluff"]
    area: str
    face: int
    works: bool
    rule: str


class ShipRemoved(TypedDict):
    type: Literal["ship_removed"]
    faction: str
    ship: str
    rule: str


#: tag -> schema, for the conformance suite and readers of saved logs
EVENTS = event_schemas(globals())
