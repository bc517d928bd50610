"""What a batch runs: a game, its scenario, the board and the bots, named by one string.

``kampen/intro-narvik@nordland-hex:priority`` is Kampen om Norge's Scenario 1 on the hex
board with priority bots for every faction; ``kampen:search:16`` has the search bot play every
faction at 16 playouts a decision (a bot that thinks plays a batch by playouts, not seconds); ``narvik:random`` is Assault on Narvik with
random bots; ``kampen/basic:priority,norwegians=random,allies=random`` pits one side's bot
against another kind (a bare kind is every other side's). Games are built once per process (workers rebuild them from the string), so a
setup travels to a process pool or a Dask worker as a few bytes. What a game offers comes
from the game registry.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any


@dataclass(frozen=True)
class Setup:
    """One arm of a simulation: game, scenario, board, bot kind and rules switches."""

    game: str
    scenario: str
    board: str
    bots: str
    switches: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return f"{self.game}/{self.scenario}@{self.board}{''.join('+' + s for s in self.switches)}:{self.bots}"

    @property
    def slug(self) -> str:
        return self.label.replace("/", "-").replace("@", "_").replace(":", "_").replace("+", "_")


def parse_setup(text: str) -> Setup:
    """Parse ``GAME[/SCENARIO][@BOARD][+SWITCH...][:BOTS]`` (the game's defaults where a part is
    left out; no switch unless named).

    >>> parse_setup("kampen@nordland-hex").label
    'kampen/intro-narvik@nordland-hex:priority'
    >>> parse_setup("narvik:random").label
    'narvik/scenario@narvik:random'
    >>> parse_setup("kampen/basic:random,germans=priority").label
    'kampen/basic@norway:random,germans=priority'
    >>> parse_setup("narvik+random_setup+allied_concealment").label
    'narvik/scenario@narvik+allied_concealment+random_setup:priority'
    """
    from hexwar.registry import UnknownGame, get

    rest, _, bots = text.partition(":")
    rest, *named = rest.split("+")
    rest, _, board = rest.partition("@")
    game, _, scenario = rest.partition("/")
    switches = tuple(sorted(set(named)))
    try:
        info = get(game)
        scenario, board, bots = scenario or info.default_scenario, board or info.default_board, bots or info.batch_bot
        info.check(switches=switches)
        kinds = bot_kinds(bots, info.sides, info.batch_bot)
        for kind in set(kinds.values()):
            info.check(scenario, board, bot=split_kind(kind)[0])
    except UnknownGame as e:
        raise ValueError(f"{text!r}: {e}") from None
    for kind in sorted(set(kinds.values())):
        base, playouts = split_kind(kind)
        if info.bots[base].fast and playouts is not None:
            raise ValueError(f"{text!r}: the {base} bot does not search: playouts are for a bot that thinks ({kind})")
        if not info.bots[base].fast and playouts is None:
            raise ValueError(f"{text!r}: the {base} bot thinks on the clock; a batch gives it playouts a decision "
                             f"instead, so its games are the same on any machine: {base}:16")
    return Setup(info.name, scenario, board, bots, switches)


@lru_cache(maxsize=None)
def build_game(setup: Setup) -> Any:
    """Return the ruleset of a setup (cached per process)."""
    from hexwar.registry import get

    return get(setup.game).build(setup.scenario, setup.board, setup.switches)


def bot_kinds(bots: str, sides: tuple[str, ...], default: str) -> dict[str, str]:
    """Side -> bot kind from ``KIND`` or ``KIND,SIDE=KIND,...`` (a bare kind: every side not named).

    >>> bot_kinds("random,germans=priority", ("germans", "allies"), "priority")
    {'germans': 'priority', 'allies': 'random'}
    """
    from hexwar.registry import UnknownGame

    base, named = default, {}
    for part in filter(None, bots.split(",")):
        side, eq, kind = part.partition("=")
        if not eq:
            base = side
        elif side not in sides:
            raise UnknownGame(f"no side {side!r} (sides: {', '.join(sides)})")
        else:
            named[side] = kind
    return {s: named.get(s, base) for s in sides}


#: the think-time cap of a bot given playouts: far above what its playouts take, so they
#: decide where it stops, never the clock
NO_CLOCK = 3600.0


def split_kind(kind: str) -> tuple[str, int | None]:
    """A bot kind and, for a bot that searches, its playouts a decision (``search:16``).

    >>> split_kind("search:16"), split_kind("priority")
    (('search', 16), ('priority', None))
    """
    from hexwar.registry import UnknownGame

    base, colon, n = kind.partition(":")
    if not colon:
        return kind, None
    if not n.isdigit() or not 1 <= int(n) <= 100_000:
        raise UnknownGame(f"bot {kind!r}: its playouts a decision are a whole number from 1 to 100000")
    return base, int(n)


def make_bot(info: Any, kind: str, side: str, seed: int) -> Any:
    """A bot of a game by kind; ``KIND:N`` is a bot that searches, capped at N playouts a
    decision with no clock (the same game on any machine, however busy)."""
    base, playouts = split_kind(kind)
    if playouts is None:
        return info.bot(base, side, seed)
    bot = info.bot(base, side, seed, NO_CLOCK)
    bot.max_iterations = playouts
    return bot


def build_bots(setup: Setup, seed: int) -> dict[str, Any]:
    """Return one fresh bot per side, seeded from the game's seed."""
    from hexwar.registry import get

    info = get(setup.game)
    kinds = bot_kinds(setup.bots, info.sides, info.batch_bot)
    return {s: make_bot(info, kinds[s], s, seed) for s in info.sides}
