"""Game-agnostic state, with a JSON round trip: ``GameState`` holds what every game has,
``UnitState`` adds the counters, the VP track and the weather of a game of units on a board.

A game subclasses one of them with typed fields of its own (``class NarvikData(UnitState,
game="narvik")``); :meth:`GameState.from_json` rebuilds the right class from the ``game``
name the JSON carries. Nested records are dataclasses: frozen ones are shared between
copies, mutable ones are copied by :meth:`GameState.clone`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import Any, ClassVar, Iterable, Iterator, Mapping, Sequence, TypeVar

from hexwar.data.tables import UnitType, fraction, unit_types_from_spec  # noqa: F401 (re-export)


@dataclass
class Unit:
    """One counter in play. Exactly one of ``loc`` and ``pool`` is set."""

    id: str
    type: str
    side: str
    nation: str
    formation: str = ""
    name: str = ""
    loc: str | None = None
    pool: str | None = "reinforcements"
    fatigue: int = 0
    concealed: bool = False
    flags: list[str] = field(default_factory=list)

    def has(self, flag: str) -> bool:
        """Return whether the unit carries a marker flag (fired, damaged ...)."""
        return flag in self.flags

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        if name == "loc" or name == "side":
            moves = self.__dict__.get("_moves")
            if moves is not None:  # the state it is indexed in: its location index is stale now
                moves.n += 1


class Moves:
    """How many times a unit of one state was placed, removed or changed side: the owner of
    that state's location index (``GameState._index``), shared by the views made from it
    (``GameState.shallow``). An index built at another count is rebuilt before use.

    A unit names the count of the state that indexed it (``Unit._moves``, outside its
    fields: no copy, comparison or JSON sees it); a copy of the state has a count of its own,
    so one game's moves never make another game's index stale."""

    __slots__ = ("n",)

    def __init__(self) -> None:
        self.n = 0


def new_unit(**fields: Any) -> Unit:
    """Return a unit made for a new state's dict (a view's placeholder), every field given,
    without ``Unit.__init__``'s field by field setting."""
    new = object.__new__(Unit)
    new.__dict__.update(fields)
    return new


def _copy_unit(u: Unit) -> Unit:
    """Return a copy of a unit for a new state's dict (indexed by no state yet)."""
    new = object.__new__(Unit)
    d = new.__dict__
    d.update(u.__dict__)
    d.pop("_moves", None)
    d["flags"] = list(u.flags)
    return new


@dataclass(frozen=True)
class VpAward:
    """Victory points awarded, and why (the VP track's ledger)."""

    turn: int
    side: str
    vp: int
    cause: str
    rule: str


_ATOMIC = frozenset({str, int, bool, float, type(None), Fraction, tuple})
_STATE_TYPES: dict[str, type["GameState"]] = {}


def _shape(t: type) -> tuple[tuple[str, ...], bool] | None:
    """A dataclass's (fields' names in order, whether it is frozen), or None for a type that
    is not one. Kept on the class itself (``_state_shape``), so it lives exactly as long as
    the class does: ``dataclasses.fields`` was a fifth of a Kampen state's copy and half of a
    state's JSON; ``copy_value`` and ``to_plain`` read it."""
    shape: tuple[tuple[str, ...], bool] | None = t.__dict__.get("_state_shape")
    if shape is not None:
        return shape
    params = getattr(t, "__dataclass_params__", None)
    if params is None:
        return None
    shape = (tuple(f.name for f in fields(t)), bool(params.frozen))
    try:
        type.__setattr__(t, "_state_shape", shape)
    except TypeError:  # a class that takes no attribute (compiled): worked out each time
        pass
    return shape


def copy_value(v: Any) -> Any:
    """Return an independent copy of state data: containers and mutable records are copied,
    immutable values (and frozen dataclasses) are shared."""
    t = type(v)
    if t in _ATOMIC:
        return v
    if t is list:
        return [x if type(x) in _ATOMIC else copy_value(x) for x in v]
    if t is dict:
        return {k: (x if type(x) in _ATOMIC else copy_value(x)) for k, x in v.items()}
    shape = _shape(t)
    if shape is None:
        if t is set:
            return set(v)
        raise TypeError(f"state holds a {t.__name__}, which cannot be copied safely")
    names, frozen = shape
    if frozen:
        return v
    new = object.__new__(t)
    for name in names:
        x = getattr(v, name)
        object.__setattr__(new, name, x if type(x) in _ATOMIC else copy_value(x))
    return new


_S = TypeVar("_S", bound="GameState")


@dataclass
class GameState:
    """What every game's state has: its game, scenario and seed, where the game stands (turn,
    phase, the side to act) and how it ended. Pure data: it round-trips through JSON.

    A game subclasses it (or :class:`UnitState`) with typed fields of its own, naming itself
    (``class KampenData(GameState, game="kampen")``), so :meth:`from_json` rebuilds the
    right class. :meth:`clone` copies every field: atomic values are shared, containers and
    mutable records copied; ``COPIERS`` names the fields a class copies faster itself.
    """

    #: field name -> how to copy it (fields left out: ``copy_value``)
    COPIERS: ClassVar[Mapping[str, Any]] = {}

    game: str
    scenario: str
    seed: int
    turn: int = 1
    phase: str = "setup"
    side: str = ""
    over: bool = False
    winner: str | None = None

    def __init_subclass__(cls, game: str | None = None, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if game is not None:
            if game in _STATE_TYPES and _STATE_TYPES[game].__qualname__ != cls.__qualname__:
                raise ValueError(f"two state types for game {game!r}")
            _STATE_TYPES[game] = cls

    def shallow(self: _S) -> _S:
        """Return a copy that shares every value with this state (what ``copy.copy`` does,
        without its protocol lookups: a view is made at every decision and replaces only what
        it hides). The two share their units' move count (``Moves``): a unit moved in
        either makes both location indexes stale."""
        self.moves()
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        return new

    def moves(self) -> Moves:
        """The count its location index is kept by (``Moves``), made when first asked."""
        m: Moves | None = self.__dict__.get("_moves")
        if m is None:
            m = self.__dict__["_moves"] = Moves()
        return m

    # --- copies and JSON ----------------------------------------------------------------

    def clone(self: _S) -> _S:
        """Return an independent copy.

        Containers and mutable records are copied; frozen records (log entries, decisions)
        are shared, since nothing ever changes them, which keeps a copy cheap as a game grows.
        """
        new = object.__new__(type(self))
        d = new.__dict__
        copiers = self.COPIERS
        for name, v in self.__dict__.items():
            t = type(v)
            if name == "_idx" or name == "_moves":
                continue  # the copy builds its own index, kept by a count of its own, when first asked
            if t in _ATOMIC:
                d[name] = v
            elif name in copiers:
                d[name] = copiers[name](v)
            else:
                d[name] = copy_value(v)
        return new

    def to_dict(self) -> dict[str, Any]:
        """Return the state as plain JSON-ready data."""
        return {f.name: to_plain(getattr(self, f.name)) for f in fields(self)}

    def to_json(self) -> str:
        """Return the state as canonical JSON (sorted keys)."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"), default=_json_default)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "GameState":
        """Rebuild a state from :meth:`to_dict` output, as the class its ``game`` names."""
        target: type[GameState] = cls
        if cls is GameState:
            target = _STATE_TYPES.get(str(d.get("game", "")), GameState)
        state: GameState = _adapter(target).validate_python(dict(d))
        return state

    @classmethod
    def from_json(cls, text: str) -> "GameState":
        """Rebuild a state from :meth:`to_json` output."""
        return cls.from_dict(json.loads(text))


def _copy_units(units: dict[str, Unit]) -> dict[str, Unit]:
    return {k: _copy_unit(u) for k, u in units.items()}


@dataclass
class UnitState(GameState):
    """A game of counters on a board (Assault on Narvik, Europa, the skirmish games): its
    units, the victory-point track with the ledger of its awards, and the weather."""

    #: the off-map pools a unit may be in instead of a location (a game adds its own)
    POOLS: ClassVar[frozenset[str]] = frozenset({"eliminated", "removed", "reinforcements"})
    COPIERS: ClassVar[Mapping[str, Any]] = {"units": _copy_units, "vp_log": list}

    weather: str = ""
    units: dict[str, Unit] = field(default_factory=dict)
    vp: dict[str, int] = field(default_factory=dict)
    vp_log: list[VpAward] = field(default_factory=list)

    # --- queries ------------------------------------------------------------------------

    def _index(self) -> tuple[dict[str | None, list[Unit]], dict[str | None, list[Unit]]]:
        """Return (location -> units in id order, side -> units on the map in dict order),
        rebuilt only when a unit was placed, removed or added since it was built."""
        idx = self.__dict__.get("_idx")
        units = self.units
        moves = self.__dict__.get("_moves") or self.moves()  # asked on every query: a method call only the first time
        if idx is None or idx[0] != moves.n or idx[1] is not units or idx[2] != len(units):
            by_loc: dict[str | None, list[Unit]] = {}
            by_side: dict[str | None, list[Unit]] = {}
            for u in units.values():
                u.__dict__["_moves"] = moves  # a move of it from now on makes this index stale
                if u.loc is not None:
                    by_loc.setdefault(u.loc, []).append(u)
                    by_side.setdefault(u.side, []).append(u)
            for here in by_loc.values():
                here.sort(key=_uid)
            idx = self.__dict__["_idx"] = (moves.n, units, len(units), by_loc, by_side)
        return idx[3], idx[4]

    def at(self, loc: str) -> list[Unit]:
        """Return the units at a location, in id order."""
        return list(self._index()[0].get(loc, ()))

    def units_at(self, loc: str) -> Sequence[Unit]:
        """Return the units at a location, in id order, without a copy: read it, do not keep
        it past a change of the state (``at`` gives a list of one's own)."""
        return self._index()[0].get(loc, ())

    def on_map(self, side: str | None = None) -> Iterator[Unit]:
        """Yield the units at a location (of one side if given), in the order of ``units``."""
        if side is None:
            return (u for u in self.units.values() if u.loc is not None)
        return self._side_on_map(side)

    def _side_on_map(self, side: str) -> Iterator[Unit]:
        moves = self.moves()
        start = moves.n
        last = None
        for u in self._index()[1].get(side, ()):
            if moves.n != start:
                break
            yield u
            last = u
        else:
            return
        # a unit was placed or removed while the caller looped: go on as a scan of ``units``
        # would have, from the unit after the last one given
        seen = last is None
        for u in self.units.values():
            if not seen:
                seen = u is last
            elif u.loc is not None and u.side == side:
                yield u

    def side_units(self, side: str) -> list[Unit]:
        """Return ``side``'s units at a location, in the order of ``units`` (a snapshot)."""
        return list(self._index()[1].get(side, ()))

    def sides_on_map(self) -> list[str]:
        """Return the sides with a unit at a location."""
        return [s for s in self._index()[1] if s is not None]

    def occupied_by(self, side: str) -> set[str]:
        """Return the locations holding at least one unit of ``side``."""
        return {u.loc for u in self._index()[1].get(side, ()) if u.loc is not None}

    def in_pool(self, pool: str, side: str | None = None) -> list[Unit]:
        """Return the units in an off-map pool."""
        return [u for u in self.units.values() if u.pool == pool and (side is None or u.side == side)]

    def unit(self, uid: str) -> Unit:
        """Return a unit by id; ``KeyError`` names it."""
        try:
            return self.units[uid]
        except KeyError:
            raise KeyError(f"no unit {uid!r}") from None

    # --- changes ------------------------------------------------------------------------

    def place(self, uid: str, loc: str) -> None:
        """Put a unit at a location."""
        u = self.units[uid]
        u.loc, u.pool = loc, None

    def remove(self, uid: str, pool: str) -> None:
        """Take a unit off the map into a pool."""
        if pool not in self.POOLS:
            raise ValueError(f"unknown pool {pool!r}; {self.game} has {', '.join(sorted(self.POOLS))}")
        u = self.units[uid]
        u.loc, u.pool = None, pool

    def add_vp(self, side: str, points: int, cause: str, section: str) -> None:
        """Award victory points and log the cause."""
        self.vp[side] = self.vp.get(side, 0) + points
        self.vp_log.append(VpAward(self.turn, side, points, cause, section))

    def to_dict(self) -> dict[str, Any]:
        d = super().to_dict()
        d["units"] = {k: d["units"][k] for k in sorted(d["units"])}
        return d


_SCALARS = frozenset({str, int, bool, float, type(None)})


def to_plain(v: Any) -> Any:
    """Return state data as plain lists, dicts and scalars (what ``dataclasses.asdict``
    gives, without its deep copies of every leaf). A dataclass's field names are read once
    for its class (``dataclasses.fields`` was half the time of a state's JSON), a scalar
    field is taken as it is."""
    t = type(v)
    if t in _SCALARS:
        return v
    if t is list or t is tuple:
        return [x if type(x) in _SCALARS else to_plain(x) for x in v]
    if t is dict:
        return {k: x if type(x) in _SCALARS else to_plain(x) for k, x in v.items()}
    shape = _shape(t)
    if shape is None:
        return v
    out = {}
    for name in shape[0]:
        x = getattr(v, name)
        out[name] = x if type(x) in _SCALARS else to_plain(x)
    return out


def _json_default(v: Any) -> Any:
    if isinstance(v, Fraction):
        return str(v)
    if isinstance(v, (set, frozenset)):
        return sorted(v)
    raise TypeError(f"cannot serialise {type(v).__name__}")


def state_type_of(game: str) -> type[GameState] | None:
    """The state class a game registered (``class KampenData(GameState, game="kampen")``), or
    None: its module is not imported (the registry imports every game's)."""
    return _STATE_TYPES.get(game)


def _adapter(cls: type) -> Any:
    """The class's pydantic reader, made once and kept on the class (``_state_adapter``)."""
    a = cls.__dict__.get("_state_adapter")
    if a is None:
        from pydantic import TypeAdapter

        a = TypeAdapter(cls)
        type.__setattr__(cls, "_state_adapter", a)
    return a


def _uid(u: Unit) -> str:
    return u.id


def ids(units: Iterable[Unit]) -> list[str]:
    """Return the ids of units, sorted."""
    return sorted(u.id for u in units)
