"""``HexBoard``: a hex map loaded from ``maps/*.yaml`` (kind ``hex_map``)."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Iterable, Sequence

import networkx as nx

from hexwar.board import hexes
from hexwar.board.base import (
    BORDER_FEATURES,
    PLACE_KINDS,
    BoardError,
    Border,
    Place,
    SightAlternatives,
)
from hexwar.board.geometry import LocalProjection, box_point, hex_polygon
from hexwar.board.hexes import Axial, Hexside
from hexwar.data.loader import DataError, Library, Problem, default_library
from hexwar.data.schemas import HexMapSpec

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.board.scale import Conversion
    from shapely.geometry.base import BaseGeometry


class HexBoard:
    """A hex map: ``CCRR`` hexes (odd columns lower), hexside features, places and boxes.

    >>> b = HexBoard.load("fixtures/skirmish")
    >>> b.border("1710", "1810").is_road, b.border("2306", "2307").is_road
    (True, False)
    """

    kind = "hex"
    #: the conversion this board was cut or merged by (``hexwar.board.conversion``), if any
    conversion: "Conversion | None" = None

    def __init__(self, spec: HexMapSpec, file: str = "<map>"):
        problems = check_hex_map(spec, file)
        if problems:
            raise DataError(problems)
        self.spec = spec
        self.name = spec.name
        self.file = file
        self.grid = hexes.HexGrid(spec.grid.digits)
        self.hex_km: float = spec.grid.hex_km
        self.air_origins: dict[str, tuple[tuple[float, float], float]] = {}  # none: aircraft fly from its hexes
        self.projection = (
            LocalProjection(spec.projection.lon0, spec.projection.lat0, spec.projection.kind) if spec.projection else None
        )
        c0, c1 = spec.grid.columns
        r0, r1 = spec.grid.rows
        missing = set(spec.missing)
        self.rows = (r0, r1)
        self.columns = (c0, c1)
        self._hexes: list[str] = [
            self.grid.format(c, r) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1)
        ]
        self._hexes = [h for h in self._hexes if h not in missing]
        self._hexset = set(self._hexes)
        self._axial = {h: self.grid.to_axial(h) for h in self._hexes}
        self._by_axial = {a: h for h, a in self._axial.items()}
        self._terrain = {h: spec.terrain.get(h, spec.default_terrain) for h in self._hexes}
        self._sides: dict[tuple[str, str], frozenset[str]] = {}
        for key, feats in spec.hexsides.items():
            a, b = key.split("/")
            self._sides[_pair(a, b)] = frozenset(feats)
        self._nbrs: dict[str, list[str]] = {}
        for h in self._hexes:
            self._nbrs[h] = [self._by_axial[n] for n in hexes.neighbours(self._axial[h]) if n in self._by_axial]
        self._boxes = dict(spec.boxes)
        for box, bs in self._boxes.items():
            self._terrain[box] = "box"
            self._nbrs[box] = list(bs.links)
            for link in bs.links:
                self._nbrs[link].append(box)
                self._sides[_pair(box, link)] = frozenset({"box_link"})
        self._locations = self._hexes + list(self._boxes)
        self._places: dict[str, Place] = {}
        for p in spec.places:
            self._places[p.at] = Place(p.at, frozenset(p.kinds), p.name, p.value)
        for box, bs in self._boxes.items():
            self._places[box] = Place(box, frozenset(bs.kinds) | {"box"}, bs.name)
        self._edges = self._edge_kinds()
        self.regions: dict[str, frozenset[str]] = {k: frozenset(v) for k, v in spec.regions.items()}
        for h, ks in self._edges.items():  # map edges (22.1, 22.3) are place kinds too
            old = self._places.get(h)
            self._places[h] = Place(h, ks | old.kinds, old.name, old.value) if old else Place(h, ks)

    # --- construction -------------------------------------------------------------------

    @classmethod
    def load(cls, name: str, library: Library | None = None) -> "HexBoard":
        """Load a hex map by name from the data library."""
        lib = library or default_library()
        spec = lib.load("maps", name, "hex_map")
        return cls(spec, str(lib.path("maps", name)))

    def _edge_kinds(self) -> dict[str, frozenset[str]]:
        c0, c1 = self.columns
        r0, r1 = self.rows
        out: dict[str, frozenset[str]] = {}
        for h in self._hexes:
            c, r = self.grid.parse(h)
            k = set()
            if r == r0:
                k.add("edge_north")
            if r == r1:
                k.add("edge_south")
            if c == c0:
                k.add("edge_west")
            if c == c1:
                k.add("edge_east")
            if k:
                out[h] = frozenset(k)
        return out

    # --- Board protocol -----------------------------------------------------------------

    def locations(self) -> Sequence[str]:
        return self._locations

    def hexes(self) -> Sequence[str]:
        """Return the on-map hexes (no boxes)."""
        return self._hexes

    def __contains__(self, loc: object) -> bool:
        return loc in self._terrain

    def terrain(self, loc: str) -> str:
        try:
            return self._terrain[loc]
        except KeyError:
            raise BoardError(f"{self.name}: no location {loc!r}") from None

    def neighbours(self, loc: str) -> Sequence[str]:
        try:
            return self._nbrs[loc]
        except KeyError:
            raise BoardError(f"{self.name}: no location {loc!r}") from None

    def border(self, a: str, b: str) -> Border:
        if b not in self._nbrs.get(a, ()):
            raise BoardError(f"{self.name}: {a} and {b} are not adjacent")
        return Border(a, b, self._sides.get(_pair(a, b), frozenset()))

    def places(self, kind: str | None = None) -> Sequence[Place]:
        out = list(self._places.values())
        return out if kind is None else [p for p in out if kind in p.kinds]

    def place(self, loc: str) -> Place | None:
        return self._places.get(loc)

    def is_a(self, loc: str, kind: str) -> bool:
        p = self._places.get(loc)
        return p is not None and kind in p.kinds

    def axial(self, loc: str) -> Axial:
        """Return the axial coordinate of an on-map hex."""
        try:
            return self._axial[loc]
        except KeyError:
            raise BoardError(f"{self.name}: {loc!r} is not an on-map hex") from None

    def hex_at(self, a: Axial | tuple[int, int]) -> str | None:
        """Return the hex id at an axial coordinate, or None if off the map."""
        return self._by_axial.get(Axial(a[0], a[1]))

    def distance(self, a: str, b: str) -> int:
        if a in self._axial and b in self._axial:
            return hexes.distance(self._axial[a], self._axial[b])
        if a == b:
            return 0
        # boxes: one step to their linked hexes
        return int(nx.shortest_path_length(self.graph(), a, b))

    def _side_border(self, side: Hexside) -> Border:
        h0, h1 = (self._by_axial.get(x) for x in side.hexes())
        if h0 is None or h1 is None:
            return Border(str(h0), str(h1), frozenset())
        return self.border(h0, h1)

    def sight(self, a: str, b: str) -> SightAlternatives:
        sl = hexes.sight_line(self.axial(a), self.axial(b))
        return SightAlternatives(
            tuple(tuple(self._side_border(s) for s in alt) for alt in sl.sides),
            tuple(self._side_border(s) for s in sl.along),
        )

    @cached_property
    def _graph(self) -> nx.Graph:
        g = nx.Graph(name=self.name, kind=self.kind)
        for loc in self._locations:
            g.add_node(loc, terrain=self._terrain[loc], places=self._kinds(loc))
        for a in self._locations:
            for b in self._nbrs[a]:
                if a < b:
                    g.add_edge(a, b, features=self._sides.get(_pair(a, b), frozenset()))
        return g

    def graph(self) -> nx.Graph:
        return self._graph

    def _kinds(self, loc: str) -> frozenset[str]:
        p = self._places.get(loc)
        return p.kinds if p else frozenset()

    def geometry(self, loc: str) -> "BaseGeometry":
        if loc in self._axial:
            return hex_polygon(self._axial[loc], self.hex_km)
        if loc in self._boxes:
            links = self._boxes[loc].links
            xs = [hexes.center_xy(self._axial[h], self.hex_km) for h in links]
            x = min(p[0] for p in xs) - 2 * self.hex_km
            y = max(p[1] for p in xs) + 2 * self.hex_km
            return box_point(x, y)
        raise BoardError(f"{self.name}: no location {loc!r}")

    def label(self, loc: str) -> str:
        p = self._places.get(loc)
        return f"{loc} ({p.name})" if p and p.name else loc

    def find(self, name: str) -> str:
        """Return the location of a named place (case-insensitive)."""
        for p in self._places.values():
            if p.name.lower() == name.lower():
                return p.location
        raise BoardError(f"{self.name}: no place named {name!r}")

    def sides(self) -> Iterable[tuple[str, str, frozenset[str]]]:
        """Yield every on-map hexside once as ``(a, b, features)``."""
        for a in self._hexes:
            for b in self._nbrs[a]:
                if a < b and b in self._hexset:
                    yield a, b, self._sides.get(_pair(a, b), frozenset())


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def check_hex_map(spec: HexMapSpec, file: str) -> list[Problem]:
    """Return the cross-reference problems of a hex map (ids on the grid, sides adjacent)."""
    probs: list[Problem] = []
    grid = hexes.HexGrid(spec.grid.digits)
    c0, c1 = spec.grid.columns
    r0, r1 = spec.grid.rows

    def on_map(h: str) -> bool:
        try:
            c, r = grid.parse(h)
        except hexes.HexIdError:
            return False
        return c0 <= c <= c1 and r0 <= r <= r1 and h not in spec.missing

    for h in spec.terrain:
        if not on_map(h):
            probs.append(Problem(file, f"terrain.{h}", "hex is not on the map grid"))
    for key, feats in spec.hexsides.items():
        a, b = key.split("/")
        if not (on_map(a) and on_map(b)):
            probs.append(Problem(file, f"hexsides.{key}", "both hexes must be on the map"))
        elif hexes.distance(grid.to_axial(a), grid.to_axial(b)) != 1:
            probs.append(Problem(file, f"hexsides.{key}", "the two hexes are not adjacent"))
        if a > b:
            probs.append(Problem(file, f"hexsides.{key}", f"write the lower id first: {b}/{a}"))
        for f in feats:
            if f not in BORDER_FEATURES - {"box_link"}:
                probs.append(Problem(file, f"hexsides.{key}", f"unknown feature {f!r}; known: {sorted(BORDER_FEATURES)}"))
    for i, p in enumerate(spec.places):
        if not on_map(p.at) and p.at not in spec.boxes:
            probs.append(Problem(file, f"places.{i}.at", f"{p.at!r} is not a hex of the map"))
        for k in p.kinds:
            if k not in PLACE_KINDS:
                probs.append(Problem(file, f"places.{i}.kinds", f"unknown place kind {k!r}"))
    for box, bs in spec.boxes.items():
        for link in bs.links:
            if not on_map(link):
                probs.append(Problem(file, f"boxes.{box}.links", f"{link!r} is not a hex of the map"))
    for name, hs in spec.regions.items():
        bad = [h for h in hs if not on_map(h)]
        if bad:
            probs.append(Problem(file, f"regions.{name}", f"not hexes of the map: {', '.join(bad[:5])}"))
    return probs
