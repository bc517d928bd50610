"""Game-agnostic state: unit types (frozen), units, and ``GameState`` with a JSON round trip."""

from __future__ import annotations

import copy
import json
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Iterable, Iterator, Mapping

from hexwar.data.tables import UnitType, fraction, unit_types_from_spec  # noqa: F401 (re-export)

#: ``extra`` keys holding append-only logs (copied shallowly by ``clone``)
APPEND_ONLY = frozenset({"fatigue_log", "setup_events"})

#: Names of the off-map pools a unit may be in instead of a location.
POOLS = ("eliminated", "interned", "exited", "redeployed", "reinforcements", "removed", "replaced")


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


@dataclass
class GameState:
    """Everything that changes during a game. Pure data: it round-trips through JSON."""

    game: str
    scenario: str
    seed: int
    turn: int = 1
    phase: str = "setup"
    side: str = ""
    weather: str = ""
    units: dict[str, Unit] = field(default_factory=dict)
    control: dict[str, str] = field(default_factory=dict)
    vp: dict[str, int] = field(default_factory=dict)
    vp_log: list[dict[str, Any]] = field(default_factory=list)
    tracks: dict[str, int] = field(default_factory=dict)
    bases: list[str] = field(default_factory=list)
    passes: int = 0
    over: bool = False
    winner: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    # --- queries ------------------------------------------------------------------------

    def at(self, loc: str) -> list[Unit]:
        """Return the units at a location, in id order."""
        return sorted((u for u in self.units.values() if u.loc == loc), key=lambda u: u.id)

    def on_map(self, side: str | None = None) -> Iterator[Unit]:
        """Yield the units at a location (of one side if given)."""
        for u in self.units.values():
            if u.loc is not None and (side is None or u.side == side):
                yield u

    def occupied_by(self, side: str) -> set[str]:
        """Return the locations holding at least one unit of ``side``."""
        return {u.loc for u in self.units.values() if u.loc is not None and u.side == side}

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
        if pool not in POOLS:
            raise ValueError(f"unknown pool {pool!r}")
        u = self.units[uid]
        u.loc, u.pool = None, pool

    def add_vp(self, side: str, points: int, cause: str, section: str) -> None:
        """Award victory points and log the cause (29.0)."""
        self.vp[side] = self.vp.get(side, 0) + points
        self.vp_log.append({"turn": self.turn, "side": side, "vp": points, "cause": cause, "rule": section})

    # --- copies and JSON ----------------------------------------------------------------

    def clone(self) -> "GameState":
        """Return an independent copy.

        Units and containers are copied; append-only logs (entries never change once
        written) are copied as new lists of the same entries, which keeps a copy cheap as
        a game grows.
        """
        new = copy.copy(self)
        new.units = {k: replace(u, flags=list(u.flags)) for k, u in self.units.items()}
        new.control = dict(self.control)
        new.vp = dict(self.vp)
        new.vp_log = list(self.vp_log)
        new.tracks = dict(self.tracks)
        new.bases = list(self.bases)
        new.extra = {k: (list(v) if k in APPEND_ONLY else copy.deepcopy(v)) for k, v in self.extra.items()}
        return new

    def to_dict(self) -> dict[str, Any]:
        """Return the state as plain JSON-ready data."""
        d = asdict(self)
        d["units"] = {k: asdict(u) for k, u in sorted(self.units.items())}
        return d

    def to_json(self) -> str:
        """Return the state as canonical JSON (sorted keys)."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "GameState":
        """Rebuild a state from :meth:`to_dict` output."""
        d = dict(d)
        units = {k: Unit(**v) for k, v in d.pop("units").items()}
        return cls(units=units, **d)

    @classmethod
    def from_json(cls, text: str) -> "GameState":
        """Rebuild a state from :meth:`to_json` output."""
        return cls.from_dict(json.loads(text))


def ids(units: Iterable[Unit]) -> list[str]:
    """Return the ids of units, sorted."""
    return sorted(u.id for u in units)
