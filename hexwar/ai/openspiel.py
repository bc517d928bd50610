"""Any registered game as an OpenSpiel Python game (issue 17), so OpenSpiel's algorithms
(MCTS, CFR, RL) run on Assault on Narvik, Kampen om Norge and the rest.

OpenSpiel is an optional extra (``pip install -e .[openspiel]``); this module imports it
only when a game is built (its state and game classes live in ``hexwar.ai.openspiel_game``,
which imports ``pyspiel`` at its top). The mapping:

- **Players** are the game's sides, in the registry's order (Narvik: allies 0, germans 1;
  Kampen: germans 0, norwegians 1, allies 2).
- **Chance**: the game's seed is the one explicit chance node, at the start (``seeds``
  outcomes, uniform); every later die is drawn from that seed and the order's number, as a
  replay draws it, so the rest of the game is deterministic given the history. Nobody
  observes the seed.
- **Actions**: a decision is taken in two steps, as a player does at the table and as
  hexwar's random bot does: first the kind of order (``pass``, ``move``, ``sail`` ...; an
  index into the sorted kinds on offer, skipped when all orders are of one kind; a kind
  with one order, such as a pass, is that order), then the order of that kind (an index into the game's legal orders of that kind, which a game
  lists in a fixed order for a given position). Uniform random play is then the random
  bot's play; one step over every order would make a pass one chance in a thousand for the
  Allied fleet, and a random Assault on Narvik game tens of thousands of actions long
  (20.1 lets a ship sail any number of times a phase). ``num_distinct_actions`` is a cap
  no decision exceeds (checked at every step).
- **Observations** are the side's own view (``game.view``): a face-down counter, a dummy,
  another faction's hand never reach another player. The information state adds the
  orders as that side saw them (``visible_order``).
- **Returns**: +1 for a winning side (a coalition's every member), -1 for a loser, 0 for
  all in a draw.
"""

from __future__ import annotations

from typing import Any


def register(game: str, scenario: str | None = None, board: str | None = None, seeds: int = 1000) -> Any:
    """Register ``game`` with OpenSpiel (once) and return a new OpenSpiel game object."""
    from hexwar.ai.openspiel_game import Spec, game_class

    cls = game_class(Spec.of(game, scenario, board, seeds))
    return cls()
