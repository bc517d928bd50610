"""What a batch runs: a game, its scenario, the board and the bots, named by one string.

``kampen/intro-narvik@nordland-hex:priority`` is Kampen om Norge's Scenario 1 on the hex
board with priority bots for every faction; ``narvik:random`` is Assault on Narvik with
random bots. Games are built once per process (workers rebuild them from the string), so a
setup travels to a process pool or a Dask worker as a few bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

GAMES = ("kampen", "narvik")
BOTS = ("priority", "random")


@dataclass(frozen=True)
class Setup:
    """One arm of a simulation: game, scenario, board and bot kind."""

    game: str
    scenario: str
    board: str
    bots: str

    @property
    def label(self) -> str:
        return f"{self.game}/{self.scenario}@{self.board}:{self.bots}"

    @property
    def slug(self) -> str:
        return self.label.replace("/", "-").replace("@", "_").replace(":", "_")


def parse_setup(text: str) -> Setup:
    """Parse ``GAME[/SCENARIO][@BOARD][:BOTS]``.

    >>> parse_setup("kampen@nordland-hex").label
    'kampen/intro-narvik@nordland-hex:priority'
    >>> parse_setup("narvik:random").label
    'narvik/scenario@narvik:random'
    """
    rest, _, bots = text.partition(":")
    rest, _, board = rest.partition("@")
    game, _, scenario = rest.partition("/")
    if game not in GAMES:
        raise ValueError(f"{text!r}: game {game!r} is not one of {', '.join(GAMES)}")
    bots = bots or "priority"
    if bots not in BOTS:
        raise ValueError(f"{text!r}: bots {bots!r} are not one of {', '.join(BOTS)} (the search bot needs copies of the state: use hexwar play)")
    if game == "kampen":
        from hexwar.games.kampen.boards import BOARDS

        board = board or "norway"
        if board not in BOARDS:
            raise ValueError(f"{text!r}: board {board!r} is not one of {', '.join(BOARDS)}")
        return Setup("kampen", scenario or "intro-narvik", board, bots)
    if board and board != "narvik":
        raise ValueError(f"{text!r}: Assault on Narvik is played on its hex map (board narvik)")
    return Setup("narvik", scenario or "scenario", "narvik", bots)


@lru_cache(maxsize=None)
def build_game(setup: Setup) -> Any:
    """Return the ruleset of a setup (cached per process)."""
    if setup.game == "kampen":
        from hexwar.games.kampen import KampenGame
        from hexwar.games.kampen.boards import kampen_board

        return KampenGame(setup.scenario, kampen_board(setup.board))
    from hexwar.games.narvik import narvik_game

    if setup.scenario != "scenario":
        raise ValueError(f"Assault on Narvik has one scenario (narvik/scenario), not {setup.scenario!r}")
    return narvik_game()


def build_bots(setup: Setup, seed: int) -> dict[str, Any]:
    """Return one fresh bot per side, seeded from the game's seed."""
    from hexwar.ai.random_bot import RandomBot

    if setup.game == "kampen":
        from hexwar.ai.kampen_bot import KampenBot
        from hexwar.games.kampen import FACTIONS

        return {f: (KampenBot(f, seed) if setup.bots == "priority" else RandomBot(seed + i)) for i, f in enumerate(FACTIONS)}
    from hexwar.ai.priority import PriorityBot

    return {s: (PriorityBot(s, seed) if setup.bots == "priority" else RandomBot(seed + i)) for i, s in enumerate(("allies", "germans"))}
