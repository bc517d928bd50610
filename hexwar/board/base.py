"""The ``Board`` protocol shared by hex and area maps, and its records.

Rule functions in :mod:`hexwar.rules` see a map only through this protocol, so every
ruleset runs on a :class:`~hexwar.board.hexboard.HexBoard` and on an
:class:`~hexwar.board.areaboard.AreaBoard` alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import (
    TYPE_CHECKING,
    Iterable,
    Mapping,
    Protocol,
    Sequence,
    runtime_checkable,
)

if TYPE_CHECKING:  # pragma: no cover
    import networkx as nx

    from hexwar.board.scale import Conversion
    from shapely.geometry.base import BaseGeometry

    from hexwar.board.geometry import LocalProjection

#: Border (hexside) features. ``road``/``rail`` connect; ``river``/``ridge`` hinder movement
#: or fire; ``fjord``/``lake``/``all_sea`` are water sides; ``coast`` is a land/water side;
#: ``waterway`` lets ships pass between the two locations (20.1); ``box_link`` joins an
#: off-map box (Harstad) to a map-edge location (22.1).
BORDER_FEATURES: frozenset[str] = frozenset(
    {"road", "rail", "river", "ridge", "fjord", "lake", "all_sea", "coast", "waterway", "box_link"}
)
#: Sides made entirely of water: no ZoC across them (12.0).
WATER_FEATURES: frozenset[str] = frozenset({"fjord", "lake", "all_sea"})
#: Features along which the road rate applies (14.2: the railway counts as a road).
ROAD_FEATURES: frozenset[str] = frozenset({"road", "rail"})

#: Kinds of special place a location may be (or hold).
PLACE_KINDS: frozenset[str] = frozenset(
    {
        "port",
        "town",
        "airfield",
        "victory",
        "beach",
        "box",
        "mobilisation",
        "point_city",
        "edge_north",
        "edge_south",
        "edge_east",
        "edge_west",
        "sweden",
        "unusable",
        "setup",
        "mined",
    }
)


class BoardError(ValueError):
    """A board was asked about a location or border it does not have."""


@dataclass(frozen=True)
class Border:
    """What lies between two adjacent locations."""

    a: str
    b: str
    features: frozenset[str] = frozenset()

    def has(self, feature: str) -> bool:
        """Return whether the border carries ``feature``."""
        return feature in self.features

    @property
    def is_water(self) -> bool:
        """Return whether the border is made entirely of water (12.0: blocks ZoC)."""
        return bool(self.features & WATER_FEATURES)

    @property
    def is_road(self) -> bool:
        """Return whether a road or railway crosses the border directly (14.2)."""
        return bool(self.features & ROAD_FEATURES)


@dataclass(frozen=True)
class Place:
    """A named special place: a port, a town, a victory location, a box such as Harstad."""

    location: str
    kinds: frozenset[str]
    name: str = ""
    value: int = 0  # victory points where the place is a victory location
    data: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class SightAlternatives:
    """Border crossings of a line of fire: the fire passes if any alternative is clear.

    ``alternatives`` lists, per way the line may run, the borders it crosses; ``along`` are
    borders the line runs exactly along (on hexes, a line through a hexside's length), which
    block whichever alternative is taken.
    """

    alternatives: tuple[tuple[Border, ...], ...]
    along: tuple[Border, ...] = ()


@runtime_checkable
class Board(Protocol):
    """A map: locations, their terrain, their borders, their places and geometry."""

    name: str
    kind: str  # "hex" or "area"
    #: the conversion the board was cut or merged by (issue 72), None for a board drawn as it is
    conversion: "Conversion | None"

    @property
    def projection(self) -> "LocalProjection | None":
        """The board's plane to longitude/latitude (None: a board drawn without geography)."""
        ...

    @property
    def hex_km(self) -> float | None:
        """The width of a hex in km (None: an area board)."""
        ...

    @property
    def air_origins(self) -> Mapping[str, tuple[tuple[float, float], float]]:
        """Off-board places aircraft fly from: name -> (longitude/latitude, range in km)."""
        ...

    def locations(self) -> Sequence[str]:
        """Return every location id (hexes or areas, boxes included)."""
        ...

    def __contains__(self, loc: object) -> bool: ...

    def terrain(self, loc: str) -> str:
        """Return the terrain code of a location."""
        ...

    def neighbours(self, loc: str) -> Sequence[str]:
        """Return the locations adjacent to ``loc`` (through any border)."""
        ...

    def border(self, a: str, b: str) -> Border:
        """Return the border between two adjacent locations."""
        ...

    def places(self, kind: str | None = None) -> Sequence[Place]:
        """Return the special places, or those of one kind."""
        ...

    def place(self, loc: str) -> Place | None:
        """Return the special place at ``loc``, if any."""
        ...

    def is_a(self, loc: str, kind: str) -> bool:
        """Return whether ``loc`` is a place of ``kind`` (port, town, box, edge_north ...)."""
        ...

    def distance(self, a: str, b: str) -> int:
        """Return the number of steps between two locations, ignoring terrain."""
        ...

    def sight(self, a: str, b: str) -> SightAlternatives:
        """Return the borders crossed by a line of fire from ``a`` to ``b``."""
        ...

    def graph(self) -> "nx.Graph":
        """Return the map as a networkx graph (node ``terrain``/``places``, edge ``features``)."""
        ...

    def geometry(self, loc: str) -> "BaseGeometry":
        """Return the shapely shape of a location in the board's plane (km, x east, y north)."""
        ...

    def label(self, loc: str) -> str:
        """Return a human label: the id, with a place name where there is one."""
        ...


def place_name(board: Board, loc: str) -> str:
    """A place's name as players read it (Bjørnfjell, Sea area I), else its id (2503)."""
    return board.label(loc).partition(" (")[2].rstrip(")") or loc


def describe(board: Board, locs: Iterable[str]) -> str:
    """Return locations as a readable comma list, with place names."""
    return ", ".join(board.label(x) for x in locs)
