"""A registered game's OpenSpiel state and game classes (``hexwar.ai.openspiel`` says how a
game maps onto OpenSpiel: players, the one chance node, two-step actions, what each side
observes, returns). This module imports ``pyspiel``: only ``hexwar.ai.openspiel.register``
imports it.

Each game registers a subclass of :class:`HexwarGame` of its own (``game_class``), which
holds the game's :class:`Spec`; its states read the spec from their game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pyspiel

from hexwar.core.game import Game
from hexwar.core.play import PlayState, seen_by

#: the most legal orders any decision offers, and the longest game, that the adapter allows
MAX_ACTIONS = 20_000
MAX_LENGTH = 50_000


def short_name(game: str) -> str:
    """The name a game is registered under with OpenSpiel."""
    return f"python_hexwar_{game}"


@dataclass(frozen=True)
class Spec:
    """One game as OpenSpiel sees it: its name, its sides in the registry's order (the
    players), the game built for the scenario and board, the chance node's seeds, and
    OpenSpiel's records of its type and size."""

    game: str
    sides: tuple[str, ...]
    ruleset: Game[Any]
    seeds: int
    game_type: Any  # pyspiel.GameType (pyspiel ships no types)
    game_info: Any  # pyspiel.GameInfo

    @classmethod
    def of(cls, game: str, scenario: str | None, board: str | None, seeds: int) -> "Spec":
        """The spec of a registered game for a scenario and board (defaults where not given)."""
        from hexwar import registry

        info = registry.get(game)
        sides = tuple(info.sides)
        two = len(sides) == 2
        game_type = pyspiel.GameType(
            short_name=short_name(game),
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
        return cls(game, sides, info.build(scenario, board), seeds, game_type, game_info)


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


class _Shared:
    """The spec a state reads, shared (never copied) when OpenSpiel deep-copies a state."""

    __slots__ = ("spec",)

    def __init__(self, spec: Spec):
        self.spec = spec

    def __deepcopy__(self, memo: dict[int, Any]) -> "_Shared":
        return self


class HexwarState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no types: its State is Any
    """One game in play as an OpenSpiel state (``hexwar.ai.openspiel``'s mapping)."""

    def __init__(self, ospgame: "HexwarGame") -> None:
        super().__init__(ospgame)
        self.shared = _Shared(ospgame.spec)
        self.g = _Game(None)  # before the chance node: no seed yet
        self.kind: str | None = None  # the kind of order the player to move has picked
        self.seen: dict[str, list[str]] = {s: [] for s in self.spec.sides}

    # OpenSpiel clones by deep-copying the attributes: ``g`` (see _Game), ``kind``, ``seen``
    @property
    def spec(self) -> Spec:
        return self.shared.spec

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
            raise ValueError(f"{self.spec.game}: {len(orders)} legal orders of one kind, more than the adapter's {MAX_ACTIONS}")
        return "order", orders

    # --- the OpenSpiel API ---
    def current_player(self) -> int:
        if self.play is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.play.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        return self.spec.sides.index(self.play.current_side())

    def _legal_actions(self, player: int) -> list[int]:
        return list(range(len(self.choices()[1])))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        seeds = self.spec.seeds
        return [(s, 1.0 / seeds) for s in range(seeds)]

    def _apply_action(self, action: int) -> None:
        spec = self.spec
        if self.play is None:
            self.g.play = spec.ruleset.new_state(int(action))
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
        for s in spec.sides:
            self.seen[s].append(spec.ruleset.visible_order(after, order, (s,)))
        self.g.legal = None
        self.kind = None
        if len(self.history()) >= MAX_LENGTH - 1 and not self.play.is_over():
            raise ValueError(f"{spec.game}: longer than the adapter's {MAX_LENGTH} actions")

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
        sides = self.spec.sides
        if not self.is_terminal():
            return [0.0] * len(sides)
        assert self.play is not None
        winner = self.play.result().winner
        if winner is None:
            return [0.0] * len(sides)
        won = set(self.spec.ruleset.winning_sides(winner))
        return [1.0 if s in won else -1.0 for s in sides]

    def observation_string(self, player: int) -> str:
        if self.play is None:
            return "before the seed"
        side = self.spec.sides[player]
        picked = f"choosing {self.kind}\n" if self.kind and side == self.play.current_side() else ""
        return picked + str(seen_by(self.spec.ruleset, self.play.data, (side,)).to_json())

    def information_state_string(self, player: int) -> str:
        return "\n".join(self.seen[self.spec.sides[player]] + [self.observation_string(player)])

    def __str__(self) -> str:
        if self.play is None:
            return "before the seed"
        return f"{self.spec.game} order {len(self.play.log)}" + (f", choosing {self.kind}" if self.kind else "")


class HexwarGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no types: its Game is Any
    """A registered game as an OpenSpiel game; each game's subclass sets ``spec``."""

    spec: Spec

    def __init__(self, params: Any = None) -> None:
        super().__init__(self.spec.game_type, self.spec.game_info, params or dict())

    def new_initial_state(self) -> HexwarState:
        return HexwarState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return Observer(recall)


def game_class(spec: Spec) -> type[HexwarGame]:
    """The OpenSpiel game class of one game's spec, registered under the game's short name
    the first time (``pyspiel.load_game`` then builds that first one)."""
    cls = type(f"Hexwar_{spec.game}", (HexwarGame,), {"spec": spec, "__doc__": f"hexwar {spec.game} for OpenSpiel"})
    if spec.game_type.short_name not in pyspiel.registered_names():
        pyspiel.register_game(spec.game_type, cls)
    return cls
