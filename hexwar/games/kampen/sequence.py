"""Kampen om Norge's sequence of play (4), and its decisions, in one place.

A game round is three faction rounds, Germany, Norway, the Allies; a faction's round runs
movement (4.1, then Norway's 1c in the German round), combat (4.2), reinforcement (4.3)
and new cards (4.4). The game stops at each decision below (``KampenData.step``); the phase
modules run the automatic steps between them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import hexwar.games.kampen.phases.april as april
import hexwar.games.kampen.phases.sea as sea
from hexwar.games.kampen.phases import cards, combat, movement, reinforcement

#: 4: the faction rounds of a game round, in order
ROUND_ORDER = ("germans", "norwegians", "allies")

#: 4: the phases of a faction's round (and the module that plays each); the game ends as
#: 1.3 / S1 say (``phases.victory``)
PHASES = (
    ("movement", "4.1", movement),
    ("combat", "4.2", combat),
    ("reinforcement", "4.3", reinforcement),
    ("new cards", "4.4", cards),
)


@dataclass(frozen=True)
class Decision:
    """One kind of decision: the phase it belongs to, its rule, its legal orders, its handler."""

    phase: str
    rule: str
    legal: Callable[..., list[Any]]
    apply: Callable[..., None]


#: what a faction may be asked, by ``KampenData.step``
DECISIONS: dict[str, Decision] = {
    "move": Decision("movement", "4.1", movement.legal_move, movement.do_move),
    "divert": Decision("movement", "4.1, Ex 4", movement.legal_divert, movement.do_divert),
    "sabotage": Decision("movement", "4.1 1c", movement.legal_sabotage, movement.do_sabotage),
    "counter": Decision("movement", "4.1 1c", movement.legal_counter, movement.do_counter),
    "pick": Decision("combat", "4.2", combat.legal_pick, combat.do_pick),
    "attack": Decision("combat", "4.2 step 1", combat.legal_attack, combat.do_attack),
    "defend": Decision("combat", "4.2 step 2", combat.legal_defend, combat.do_defend),
    "react": Decision("combat", "4.2 step 3", combat.legal_react, combat.do_react),
    "losses": Decision("combat", "4.2 step 6", combat.legal_losses, combat.do_losses),
    "split": Decision("combat", "4.2 step 6", combat.legal_split, combat.do_split),
    "evac": Decision("combat", "4.2 step 6, Ex 3", combat.legal_evac, combat.do_evac),
    "withdraw": Decision("combat", "4.2 step 8", combat.legal_withdraw, combat.do_withdraw),
    "reinforce": Decision("reinforcement", "4.3", reinforcement.legal_reinforce, reinforcement.do_reinforce),
    "submarine": Decision("reinforcement", "4.3", reinforcement.legal_submarine, reinforcement.do_submarine),
    "place": Decision("reinforcement", "4.3, 3.5", reinforcement.legal_place, reinforcement.do_place),
    "discard": Decision("new cards", "4.4", cards.legal_discard, cards.do_discard),
    "recall": Decision("new cards", "2.4", cards.legal_recall, cards.do_recall),
    # the advanced game: ships at sea (8.1, 8.2) and the Allied ships' withdrawal (5.2)
    "seamove": Decision("movement", "8.1", sea.legal_sail, sea.do_sail),
    "intercept": Decision("movement", "8.1", sea.legal_intercept, sea.do_intercept),
    "smoke": Decision("movement", "7.1", sea.legal_smoke, sea.do_smoke),
    "seapick": Decision("combat", "8.2", sea.legal_seapick, sea.do_seapick),
    "add": Decision("combat", "8.2", sea.legal_add, sea.do_add),
    "sea_attack": Decision("combat", "8.2 step 1", sea.legal_sea_card, sea.do_sea_card),
    "sea_defend": Decision("combat", "8.2 step 2", sea.legal_sea_card, sea.do_sea_card),
    "sea_react": Decision("combat", "8.2 step 3", sea.legal_sea_card, sea.do_sea_card),
    "chase": Decision("combat", "8.2 step 7", sea.legal_chase, sea.do_chase),
    "sailors": Decision("combat", "7.2a", sea.legal_sailors, sea.do_sailors),
    "unship": Decision("new cards", "5.2", cards.legal_unship, cards.do_unship),
    # the 9 April round (7)
    "choose": Decision("9 April", "7.0", april.legal_choose, april.do_choose),
    "norway": Decision("9 April", "7.0", april.legal_norway, april.do_norway),
    "ships": Decision("9 April", "7.0", april.legal_ships, april.do_ships),
    "deceive": Decision("9 April", "7.0", april.legal_deceive, april.do_deceive),
    "redeploy": Decision("9 April", "7.0", april.legal_redeploy, april.do_redeploy),
    "raid": Decision("9 April", "7.2", april.legal_raid, april.do_raid),
    "engage": Decision("9 April", "7.2", april.legal_engage, april.do_engage),
    "land": Decision("9 April", "7.2", april.legal_land, april.do_land),
    "mines": Decision("9 April", "7.2", april.legal_mines, april.do_mines),
    "fort": Decision("9 April", "7.2, 6.1", april.legal_fort, april.do_fort),
    "mobilise": Decision("9 April", "7.3", april.legal_mobilise, april.do_mobilise),
}
