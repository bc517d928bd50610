"""The game registry: one record per game.

A game is a ``GAME = GameInfo(...)`` found in one of three places: a subpackage of
``hexwar.games`` (the bundled games); a module named by an entry point of the group
``hexwar.games`` of any installed distribution (``[project.entry-points."hexwar.games"]
mygame = "mygame:GAME"``); or a module listed in the environment variable ``HEXWAR_GAMES``
(comma-separated, for a game not installed). :func:`register` adds one by hand. The command
line, the simulator, validation and replay ask the registry for everything game-specific
(sides, scenarios, boards, switches, bots, schemas, batch metrics, the play loop, pictures),
so adding a game touches nothing of hexwar's (``docs/adding-a-game.md`` shows how, with a
small example game outside the package).

>>> {'europa', 'kampen', 'narvik', 'skirmish'} <= set(names())
True
>>> get("narvik").title
'Assault on Narvik'
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, field
from functools import partial
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Generic, Mapping, Protocol, Sequence, TypeVar

from hexwar.core.game import Bot as Player
from hexwar.core.game import Game
from hexwar.core.play import FastView
from hexwar.core.invariants import placement
from hexwar.core.state import GameState, UnitState
from hexwar.data.loader import Library, Problem

if TYPE_CHECKING:  # pragma: no cover
    import typer

    from hexwar.core.metrics import Metric

#: the game a record builds (a ``Game`` of its own state type: the bound says "of some
#: state"), and the state type its functions read
G = TypeVar("G", bound="Game[Any]")
S = TypeVar("S", bound=GameState)
G_in = TypeVar("G_in", bound="Game[Any]", contravariant=True)
S_in = TypeVar("S_in", bound=GameState, contravariant=True)
#: one event, or one batch row, as the engine hands it to a game's function (JSON values)
Record = Mapping[str, object]
Row = dict[str, object]


class UnknownGame(ValueError):
    """A game, scenario, board, switch or bot the registry does not know (one line)."""


class Observer(Protocol):
    """What a batch watches in one game: called after every order, then asked for its row and
    the columns every game's row ends with (``hexwar.core.observe.Observer`` gives those:
    where combats were fought, how often each objective changed hands)."""

    def __call__(self, view: FastView, events: list[dict[str, object]]) -> None: ...

    def row(self, view: FastView) -> Row: ...

    def extra(self) -> Row: ...


class Render(Protocol[G_in, S_in]):
    """``render(game, state, viewer, title, panel)``: an SVG of the board for a state as
    ``viewer`` sees it (None: everything), with a title and the lines of a side panel."""

    def __call__(self, g: G_in, d: S_in, viewer: str | None = None, title: str = "",
                 panel: list[str] | None = None) -> str: ...


@dataclass(frozen=True)
class Position(Generic[G, S]):
    """A position a rule query reads: the game, its state as ``sides`` may see it (None:
    everything), and what it is, in words ("the start of narvik/scenario", "my.hexwar at
    turn 3, action, as the allies see it")."""

    game: G
    data: S
    sides: frozenset[str] | None
    what: str


@dataclass(frozen=True)
class Answer:
    """What a query answers: ``data`` for ``--json``, ``shown`` for the terminal (lines of
    text and rich renderables, printed in order)."""

    data: dict[str, object]
    shown: Sequence[object]


class Reach(Protocol[G, S]):
    """reach(position, unit, to, weather, mp): where a unit can move in one action."""

    def __call__(self, pos: Position[G, S], unit: str, to: str | None = None, weather: str | None = None,
                 mp: Fraction | None = None) -> Answer: ...


class Supply(Protocol[G, S]):
    """supply(position, units): each unit's line of supply, or what blocks it."""

    def __call__(self, pos: Position[G, S], units: list[str] | None = None) -> Answer: ...


class Fatigue(Protocol[G, S]):
    """fatigue(position, units, recover): FP, limits, the AFL and the recovery."""

    def __call__(self, pos: Position[G, S], units: list[str] | None = None, recover: bool = False) -> Answer: ...


@dataclass(frozen=True)
class Queries(Generic[G, S]):
    """The rule queries a game answers over a position (``hexwar reach``, ``supply``,
    ``fatigue``); each refuses bad input with a one-line ``ValueError``."""

    reach: Reach[G, S]
    supply: Supply[G, S]
    fatigue: Fatigue[G, S]


@dataclass(frozen=True)
class Bot:
    """A bot a game offers: ``make(side, seed, think_seconds)``; ``fast`` bots answer at
    once; a bot that is not fast thinks on the clock (the search bot), and plays a batch or
    the ladder by playouts a decision instead (``KIND:N``, ``hexwar.sim.setups.make_bot``)."""

    make: Callable[[str, int, float], Player]
    fast: bool = True
    help: str = ""


@dataclass(frozen=True)
class Batch(Generic[G]):
    """What the simulator and the comparison reports need from a game.

    ``observer(game)`` watches one game and returns its CSV row: the columns every game has
    (``hexwar.core.metrics.BASE_COLUMNS``) and the game's own ``columns``; ``metrics`` are the
    figures a summary and a report read from the rows (``hexwar.core.metrics``);
    ``exact(game, rows, min_n)`` sets every combat the games fought beside its exact
    probability (None: the game has no combat table to enumerate, and a report leaves the
    comparison out); ``scale`` says what a turn and a unit are.
    """

    observer: Callable[[G], Observer]
    exact: Callable[[G, list[Row], int], list[Row]] | None
    scale: str
    columns: tuple[str, ...]
    metrics: "tuple[Metric, ...]"
    board_lines: Callable[[Sequence[tuple[str, G]]], list[str]] | None = None
    board_notes: Mapping[str, str] = field(default_factory=dict)
    #: what a game's length counts, singular ("turn"; Kampen om Norge's "game round")
    turn: str = "turn"
    #: a board's scale and conversion in one sentence, as a report opens with it (issue 72;
    #: None: what the board says of itself, ``hexwar.board.conversion.board_scale``)
    board_scale: Callable[[str, G], str] | None = None
    #: reach before results (issue 72): the markdown lines of each side's fewest turns to each
    #: objective on each (board name, game), against the scenario's length, asked of the game;
    #: a board where a force cannot arrive in time has a line "- **Cannot arrive** on BOARD: ..."
    #: or "- **Few arrive** on BOARD: ...", which the report's summary names
    reach: Callable[[Sequence[tuple[str, G]]], list[str]] | None = None


@dataclass(frozen=True)
class GameInfo(Generic[G, S]):
    """Everything the engine's users need to know about one game: ``G`` the game it builds,
    ``S`` its state type (what its functions are handed)."""

    name: str
    title: str
    sides: tuple[str, ...]
    #: ``--side`` choices: what the person plays (the other sides get bots)
    seats: Mapping[str, frozenset[str]]
    default_seat: str
    #: scenario name -> description
    scenarios: Mapping[str, str]
    default_scenario: str
    #: board name -> description
    boards: Mapping[str, str]
    default_board: str
    #: switch name -> what it changes
    switches: Mapping[str, str]
    #: ``make(scenario, board, switches)`` -> the game (a ``hexwar.core.game.Game``)
    make: Callable[[str, str, frozenset[str]], G]
    bots: Mapping[str, Bot]
    #: the opponent ``hexwar play`` gives a person when they name none (the search bot where
    #: it answers within the default think time and beats the rule-based bot)
    default_bot: str
    #: how the game meets a person: its words, explanations and pictures (a
    #: ``hexwar.ui.presenter.Presenter`` subclass, built over a session)
    presenter: type
    #: one event as a sentence
    describe: Callable[[Record], str]
    #: an SVG of the board for a state, seen by ``viewer`` (None: everything)
    render: Render[G, S]
    batch: Batch[G] | None = None
    #: extra data checks over a data root (problems beyond each file's own schema)
    validate: Callable[[Library], list[Problem]] | None = None
    #: the data kinds this game's scenarios have (``hexwar validate`` runs ``validate`` for them)
    scenario_kinds: tuple[str, ...] = ()
    #: build the game from a generic ``scenario`` file naming it in ``game:`` (rule queries)
    from_scenario_file: Callable[[str], G] | None = None
    #: ``hexwar odds GAME|POSITION [OPTIONS]``: exact odds of one combat, a command (a
    #: ``typer.Typer`` with one command) taking its own options; the position is its
    #: context's ``obj`` (None when the game is named alone), and it returns an ``Answer``
    odds: typer.Typer | None = None
    #: ``hexwar reach``, ``supply`` and ``fatigue`` over the game's positions
    queries: Queries[G, S] | None = None
    #: the game ``hexwar play`` starts with no game named (one game says so)
    default: bool = False
    #: what ``Result.vp`` counts (victory points, or Kampen om Norge's battalions)
    tally: str = "VP"
    #: the (scenario, board, switches) the conformance suite plays (default: the defaults)
    variants: tuple[tuple[str, str, tuple[str, ...]], ...] = ()
    #: random games the conformance suite plays of the first variant (fewer for slow games;
    #: each other variant plays half as many, hexwar.testing.conformance.seeds_for)
    test_games: int = 8
    #: ``invariants(game, state)``: the game's rules that hold after every order, each broken
    #: one as a sentence citing its section (empty: all hold); see ``broken``
    invariants: Callable[[G, S], list[str]] | None = None
    #: ``describe_in(game)``: one event as a sentence in that game's words (its places by
    #: their names, as the play loop says them); without it, ``describe``
    describe_in: Callable[[G], Callable[[Record], str]] | None = None
    #: ``words_in(game)``: a line of the game's own text, an order's (its visible text) or a
    #: result's, as a person reads it in that game's words (its places and cards by their
    #: names, as its presenter shows them); without it, the text itself (a replay has no
    #: presenter to ask)
    words_in: Callable[[G], Callable[[str], str]] | None = None
    #: ``analysis(game)``: what the analysis board may set up and work out (a
    #: ``hexwar.ui.analysis.Analyst``); None: the board places nothing of this game
    analysis: Callable[[G], object] | None = None

    def reader_seat(self, meta: Record, over: bool) -> str:
        """Whose eyes a saved game is read with: the side that played it while it is
        unfinished, everyone's (``all``) once it is over."""
        return "all" if over else str(meta.get("seat") or self.default_seat)

    def sees(self, seat: str) -> frozenset[str] | None:
        """The sides a seat sees as (None: everything, for ``all``, a seat of every side (a
        hot seat), or a game only watched, bots on every side, as the play loop shows it)."""
        if seat == "all" or not self.seats[seat] or set(self.seats[seat]) >= set(self.sides):
            return None
        return frozenset(self.seats[seat])

    def seats_held(self, meta: Record) -> list[str]:
        """The seats the person of a saved game has played it from: its seat now, and every
        seat it changed from (``seat_changes`` in its meta: ``hexwar play --show-secrets``)."""
        held = [str(meta.get("seat") or self.default_seat)]
        changes = meta.get("seat_changes")
        for c in changes if isinstance(changes, list) else []:
            if isinstance(c, Mapping) and c.get("from") in self.seats:
                held.append(str(c["from"]))
        return [s for s in dict.fromkeys(held) if s in self.seats or s == "all"]

    def seen_in(self, meta: Record) -> frozenset[str] | None:
        """The sides whose secrets the person of a saved game has been shown while playing it,
        from every seat held (None: every side's: a hot seat, a game only watched)."""
        seen: set[str] = set()
        for seat in self.seats_held(meta):
            sides = self.sees(seat)
            if sides is None:
                return None
            seen |= sides
        return None if seen >= set(self.sides) else frozenset(seen)

    @property
    def length_unit(self) -> str:
        """What a game's length counts, singular: its batch's ``turn`` ('turn' without one)."""
        return self.batches.turn

    @property
    def batches(self) -> Batch[G]:
        """What a batch records of this game: its own ``batch``, or, for a game that declares
        none, the columns every game has (``hexwar.core.observe.Plain``: the winner, the
        level, the length, the orders) with each side's win rate as its metrics."""
        if self.batch is not None:
            return self.batch
        from hexwar.core.metrics import Rate
        from hexwar.core.observe import Plain

        wins = tuple(Rate(f"{side}_win", f"{side} wins" + (" (95% CI)" if i == 0 else ""), partial(_won, side), ci=i == 0,
                          test=f"{side} win rate", figure=f"{side} win rate, 95% Wilson interval" if i == 0 else "")
                     for i, side in enumerate(self.sides))
        return Batch(observer=Plain, exact=None, scale=f"{self.title}: the game declares no scale of its own",
                     columns=(), metrics=wins)

    def describer(self, game: G) -> Callable[[Record], str]:
        """How ``game``'s events read as sentences: ``describe_in`` where the game has one."""
        return self.describe_in(game) if self.describe_in is not None else self.describe

    def wording(self, game: G) -> Callable[[str], str]:
        """How ``game``'s orders and results read, from their text: ``words_in`` where the
        game has words of its own, else the text itself."""
        return self.words_in(game) if self.words_in is not None else _as_typed

    def scenario_about(self, name: str) -> str:
        """What a scenario is, by the name a game's saves give it: a game of one scenario
        may save it under its file's name (Assault on Narvik's "assault-on-narvik")."""
        return self.scenarios.get(name) or (next(iter(self.scenarios.values())) if len(self.scenarios) == 1 else "")

    def conformance_variants(self) -> list[tuple[str, str, tuple[str, ...]]]:
        """The variants the conformance suite runs: the game's own list, or its defaults."""
        return list(self.variants) or [(self.default_scenario, self.default_board, ())]

    @property
    def batch_bot(self) -> str:
        """The bot a batch plays when its setup names none: the default opponent when it is
        fast, else the first fast bot (a batch plays thousands of games: the search bot
        thinks seconds a move)."""
        if self.bots[self.default_bot].fast:
            return self.default_bot
        return next(k for k, b in self.bots.items() if b.fast)

    def check(self, scenario: str | None = None, board: str | None = None, switches: Sequence[str] = (),
              bot: str | None = None, seat: str | None = None) -> None:
        """Refuse a name this game does not have, saying which it has."""
        for what, value, known in (("scenario", scenario, self.scenarios), ("board", board, self.boards),
                                   ("bot", bot, self.bots), ("side", seat, self.seats)):
            if value is not None and value not in known:
                raise UnknownGame(f"{self.name} has no {what} {value!r}; {what}s: {', '.join(known)}")
        bad = [s for s in switches if s not in self.switches]
        if bad:
            raise UnknownGame(f"unknown switch {bad[0]!r}; {self.name} switches: {', '.join(self.switches) or 'none'}")

    def build(self, scenario: str | None = None, board: str | None = None, switches: Sequence[str] = ()) -> G:
        """Return the game for a scenario, board and switches (defaults where not given)."""
        sc, bd = scenario or self.default_scenario, board or self.default_board
        self.check(sc, bd, switches)
        return self.make(sc, bd, frozenset(switches))

    def broken(self, game: G, state: S) -> list[str]:
        """Return what the state breaks: the engine's own guarantees for a ``UnitState``
        (``hexwar.core.invariants.placement``) and the game's ``invariants``. The conformance
        suite asks after every order of random games and of games between the game's own
        fast bots."""
        out = placement(state, game.board) if isinstance(state, UnitState) else []
        return out + (self.invariants(game, state) if self.invariants is not None else [])

    def bot(self, kind: str, side: str, seed: int, think: float = 1.0) -> Player:
        """Return a bot of this game by name."""
        self.check(bot=kind)
        return self.bots[kind].make(side, seed, think)


_GAMES: dict[str, GameInfo[Any, Any]] = {}
_BUNDLED: set[str] = set()  # the games of ``hexwar.games`` itself
_LOADED = False


def _won(side: str, row: Mapping[str, object]) -> bool:
    """Whether ``side`` won the game of a batch row (the base metrics of a game without a batch)."""
    return row["winner"] == side


def _as_typed(text: str) -> str:
    """A line where its game has no words of its own: its text, as typed."""
    return text


def register(info: GameInfo[Any, Any]) -> None:
    """Add a game to the registry (a second game of the same name is refused)."""
    if not isinstance(info, GameInfo):
        raise TypeError(f"a game registers a GameInfo, not {type(info).__name__}")
    if not info.name.isidentifier():
        raise ValueError(f"a game's name is one word of letters, digits and _ (as a Python name), not {info.name!r}")
    if info.name in _GAMES and _GAMES[info.name] is not info:
        raise ValueError(f"two games named {info.name!r}")
    _GAMES[info.name] = info


def _plugins() -> list[tuple[str, Callable[[], Any]]]:
    """The games found outside ``hexwar.games``: (where, how to load it), entry points first."""
    import os
    from importlib.metadata import entry_points

    found: list[tuple[str, Callable[[], Any]]] = [
        (f"entry point {ep.name} = {ep.value}", ep.load) for ep in entry_points(group="hexwar.games")]
    for name in filter(None, (m.strip() for m in os.environ.get("HEXWAR_GAMES", "").split(","))):
        found.append((f"HEXWAR_GAMES module {name}", partial(_module_game, name)))
    return found


def _module_game(module: str) -> Any:
    """The ``GAME`` a module defines (None if it defines none)."""
    if module.startswith(".") or not all(part.isidentifier() for part in module.split(".")):
        raise ImportError(f"{module!r} is no module name (a dotted name such as mygame or mypackage.game)")
    return vars(importlib.import_module(module)).get("GAME")


def _load() -> dict[str, GameInfo[Any, Any]]:
    global _LOADED
    if not _LOADED:
        import hexwar.games as pkg

        for mod in pkgutil.iter_modules(pkg.__path__):
            if mod.ispkg:
                info = vars(importlib.import_module(f"hexwar.games.{mod.name}")).get("GAME")
                if isinstance(info, GameInfo):
                    register(info)
                    _BUNDLED.add(info.name)
        for where, load in _plugins():
            try:
                info = load()
            except ImportError as e:
                raise UnknownGame(f"{where}: cannot be imported ({e})") from None
            except SyntaxError as e:
                raise UnknownGame(f"{where}: cannot be imported (a syntax error in {e.filename}, line {e.lineno})") from None
            except Exception as e:  # noqa: BLE001 - the game's module raised, or the name is no module name
                raise UnknownGame(f"{where}: cannot be imported ({type(e).__name__}: {str(e)[:120]})") from None
            if not isinstance(info, GameInfo):
                raise UnknownGame(f"{where}: is no GameInfo (a game's module defines GAME = GameInfo(...))")
            if _GAMES.get(info.name) is not info:
                register(info)
        _LOADED = True
    return _GAMES


def _bundled_one(name: str) -> None:
    """Register the bundled game of this name, if ``hexwar.games`` has one."""
    import importlib.util

    if not name.isidentifier() or importlib.util.find_spec(f"hexwar.games.{name}") is None:
        return
    info = vars(importlib.import_module(f"hexwar.games.{name}")).get("GAME")
    if isinstance(info, GameInfo):
        register(info)
        _BUNDLED.add(info.name)


def default() -> GameInfo[Any, Any]:
    """The game ``hexwar play`` starts when none is named: the one that says so."""
    return next(g for g in games() if g.default)


def names() -> list[str]:
    """Return the names of every registered game."""
    return sorted(_load())


def known(name: str) -> bool:
    """Whether a game of this name is registered (a bundled one is imported alone to say so;
    a name no game may have, such as a scenario's path, loads none)."""
    if not name.isidentifier():
        return False
    try:
        get(name)
    except UnknownGame:
        return False
    return True


def bundled() -> list[str]:
    """The names of the games hexwar ships (not those a distribution or ``HEXWAR_GAMES`` adds)."""
    _load()
    return sorted(_BUNDLED)


def games() -> list[GameInfo[Any, Any]]:
    """Return every registered game."""
    return [g for _, g in sorted(_load().items())]


def get(name: str) -> GameInfo[Any, Any]:
    """Return a game's record by name; an unknown name raises :class:`UnknownGame`. A bundled
    game is imported alone (a command about one game starts without importing the others);
    any other name loads every game first."""
    if name not in _GAMES and not _LOADED:
        _bundled_one(name)
    reg = _GAMES if name in _GAMES else _load()
    if name not in reg:
        raise UnknownGame(f"unknown game {name!r}; games: {', '.join(sorted(reg))}")
    return reg[name]


def for_scenario_file(name: str, library: Library | None = None) -> Any:
    """Build the game a generic ``scenario`` file names in its ``game:`` key."""
    from hexwar.scenario import load_scenario

    sc = load_scenario(name, library)
    info = get(sc.spec.game)
    if info.from_scenario_file is None:
        raise UnknownGame(f"{sc.file}: game {info.name!r} is not built from a scenario file")
    return info.from_scenario_file(name)


def validate_tree(root: Any = None) -> tuple[list[Problem], int]:
    """Validate every data file under a root (default: the bundled data), with every game's
    own cross-checks; return (problems, files checked)."""
    from hexwar.scenario import validate_tree as validate_files

    checks = [g.validate for g in games() if g.validate is not None]  # loading the games registers their kinds
    return validate_files(root, checks)


def validate_file(path: Any) -> list[Problem]:
    """Validate one data file: its schema, and, inside a data root, what it refers to."""
    from pathlib import Path

    from hexwar.data.loader import DATA_FOLDERS, DataError, parse, read_yaml
    from hexwar.scenario import validate_tree as validate_files

    games()  # loading the games registers their kinds
    path = Path(path).resolve()
    try:
        parse(read_yaml(path), str(path))
    except DataError as e:
        return list(e.problems)
    root = next((p.parent for p in path.parents if p.name in DATA_FOLDERS), None)
    if root is None:
        return []
    probs, _ = validate_files(root, [g.validate for g in games() if g.validate is not None])
    return [p for p in probs if Path(p.file).name == path.name or str(path).endswith(p.file)]


def from_meta(meta: Mapping[str, Any], switches: Sequence[str] = ()) -> tuple[GameInfo[Any, Any], Any]:
    """Return the game a saved log was played with: its game, scenario, board and switches
    (``switches`` for saves older than the switches in their meta)."""
    info = get(str(meta.get("game", "")))
    scenario = meta.get("scenario")
    if scenario not in info.scenarios:  # early saves name the scenario file's own name
        scenario = info.default_scenario
    board = meta.get("board")
    if board not in info.boards:
        board = info.default_board
    sw = meta.get("switches")
    if sw is not None and not (isinstance(sw, list) and all(isinstance(x, str) for x in sw)):
        raise UnknownGame(f"switches {sw!r} are not a list of switch names (a damaged save)")
    return info, info.build(scenario, board, list(sw) if isinstance(sw, list) else list(switches))
