"""Any registered game as an OpenSpiel Python game (issue 17), so OpenSpiel's algorithms
(MCTS, CFR, RL) run on Assault on Narvik, Kampen om Norge and the rest.

OpenSpiel is an optional extra (``pip install -e .[openspiel]``); this module imports it
only when a game is built. The mapping:

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

from hexwar.core.game import PlayState


class Observer:
    """What one player observes, as strings only (no tensors): the side's view, and with
    perfect recall the orders as it saw them (OpenSpiel's observer protocol)."""

    def __init__(self, perfect_recall: bool):
        import numpy as np

        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: Any, player: int) -> None:
        pass  # no tensor to fill

    def string_from(self, state: Any, player: int) -> str:
        return str(state.information_state_string(player) if self.perfect_recall else state.observation_string(player))

class _Game:
    """The adapter's hold on one game in play. OpenSpiel clones a Python state by
    deep-copying its attributes; this copies as the engine clones (the board, tables and
    caches are shared, the units and log are copied), and shares the legal order list,
    whose orders are values."""

    __slots__ = ("play", "legal")

    def __init__(self, play: PlayState | None, legal: list[Any] | None = None):
        self.play = play
        self.legal = legal

    def __deepcopy__(self, memo: dict[int, Any]) -> "_Game":
        return _Game(None if self.play is None else self.play.clone(), self.legal)


#: the most legal orders any decision offers, and the longest game, that the adapter allows
MAX_ACTIONS = 20_000
MAX_LENGTH = 50_000


def short_name(game: str) -> str:
    return f"python_hexwar_{game}"


def register(game: str, scenario: str | None = None, board: str | None = None, seeds: int = 1000) -> Any:
    """Register ``game`` with OpenSpiel (once) and return a new OpenSpiel game object."""
    import pyspiel

    from hexwar import registry

    info = registry.get(game)
    sides = tuple(info.sides)
    name = short_name(game)
    two = len(sides) == 2
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"hexwar {game}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if two else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=len(sides),
        min_num_players=len(sides),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={},
    )
    game_info = pyspiel.GameInfo(
        num_distinct_actions=MAX_ACTIONS,
        max_chance_outcomes=seeds,
        num_players=len(sides),
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0 if two else None,
        max_game_length=MAX_LENGTH,
    )
    ruleset = info.build(scenario, board)

    class HexwarState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no types: its State is Any
        def __init__(self, ospgame: Any) -> None:
            super().__init__(ospgame)
            self.g = _Game(None)  # before the chance node: no seed yet
            self.kind: str | None = None  # the kind of order the player to move has picked
            self.seen: dict[str, list[str]] = {s: [] for s in sides}

        # OpenSpiel clones by deep-copying the attributes: ``g`` (see _Game), ``kind``, ``seen``
        @property
        def play(self) -> PlayState | None:
            return self.g.play

        def legal(self) -> list[Any]:
            """The game's legal orders at this decision, computed once."""
            if self.g.legal is None:
                assert self.play is not None
                self.g.legal = self.play.legal_orders()
            return self.g.legal

        def choices(self) -> tuple[str, list[Any]]:
            """What the player to move picks from now: ``("kind", kinds)`` when its legal
            orders are of several kinds and it has not picked one, else ``("order", orders)``
            (those of the picked kind, or all of them when they are of one kind)."""
            legal = self.legal()
            if self.kind is None:
                kinds = sorted({o.kind for o in legal})
                if len(kinds) > 1:
                    return "kind", kinds
                orders = legal
            else:
                orders = [o for o in legal if o.kind == self.kind]
            if len(orders) > MAX_ACTIONS:
                raise ValueError(f"{game}: {len(orders)} legal orders of one kind, more than the adapter's {MAX_ACTIONS}")
            return "order", orders

        # --- the OpenSpiel API ---
        def current_player(self) -> int:
            if self.play is None:
                return int(pyspiel.PlayerId.CHANCE)
            if self.play.is_over():
                return int(pyspiel.PlayerId.TERMINAL)
            return sides.index(self.play.current_side())

        def _legal_actions(self, player: int) -> list[int]:
            return list(range(len(self.choices()[1])))

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return [(s, 1.0 / seeds) for s in range(seeds)]

        def _apply_action(self, action: int) -> None:
            if self.play is None:
                self.g.play = ruleset.new_state(int(action))
                return
            node, options = self.choices()
            if node == "kind":
                of_kind = [o for o in self.legal() if o.kind == options[action]]
                if len(of_kind) > 1:
                    self.kind = options[action]
                    self.seen[self.play.current_side()].append(f"(choosing {self.kind})")
                    return
                order = of_kind[0]  # a kind with one order (a pass, say) is that order
            else:
                order = options[action]
            self.play.apply(order)
            after = self.play.data
            for s in sides:
                self.seen[s].append(ruleset.visible_order(after, order, (s,)))
            self.g.legal = None
            self.kind = None
            if len(self.history()) >= MAX_LENGTH - 1 and not self.play.is_over():
                raise ValueError(f"{game}: longer than the adapter's {MAX_LENGTH} actions")

        def _action_to_string(self, player: int, action: int) -> str:
            if player == pyspiel.PlayerId.CHANCE:
                return f"seed {action}"
            node, options = self.choices()
            if node == "kind":
                of_kind = [o for o in self.legal() if o.kind == options[action]]
                return str(of_kind[0].text()) if len(of_kind) == 1 else f"{options[action]} ..."
            return str(options[action].text())

        def is_terminal(self) -> bool:
            return self.play is not None and self.play.is_over()

        def returns(self) -> list[float]:
            if not self.is_terminal():
                return [0.0] * len(sides)
            assert self.play is not None
            winner = self.play.result().winner
            if winner is None:
                return [0.0] * len(sides)
            won = set(ruleset.winning_sides(winner))
            return [1.0 if s in won else -1.0 for s in sides]

        def observation_string(self, player: int) -> str:
            if self.play is None:
                return "before the seed"
            from hexwar.core.game import seen_by

            picked = f"choosing {self.kind}\n" if self.kind and sides[player] == self.play.current_side() else ""
            return picked + str(seen_by(ruleset, self.play.data, (sides[player],)).to_json())

        def information_state_string(self, player: int) -> str:
            return "\n".join(self.seen[sides[player]] + [self.observation_string(player)])

        def __str__(self) -> str:
            if self.play is None:
                return "before the seed"
            return f"{game} order {len(self.play.log)}" + (f", choosing {self.kind}" if self.kind else "")

    class HexwarGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no types: its Game is Any
        def __init__(self, params: Any = None) -> None:
            super().__init__(game_type, game_info, params or dict())

        def new_initial_state(self) -> HexwarState:
            return HexwarState(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> "Observer":
            recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
            return Observer(recall)

    if name not in pyspiel.registered_names():
        pyspiel.register_game(game_type, HexwarGame)
    return HexwarGame()
