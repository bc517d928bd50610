"""``AreaBoard``: named land/sea areas with flagged borders, from YAML or aggregated hexes."""

from __future__ import annotations

from collections import Counter
from functools import cached_property
from itertools import islice
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

import networkx as nx

from hexwar.board.base import (
    BORDER_FEATURES,
    PLACE_KINDS,
    BoardError,
    Border,
    Place,
    SightAlternatives,
)
from hexwar.board.geometry import LocalProjection, box_point, union
from hexwar.data.loader import DataError, Library, Problem, default_library
from hexwar.data.schemas import AreaMapSpec

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.board.scale import Conversion
    from shapely.geometry.base import BaseGeometry

    from hexwar.board.hexboard import HexBoard

#: Border features that hold on an aggregated border only if every crossing hexside has them.
BARRIER_FEATURES = frozenset({"fjord", "lake", "all_sea", "river", "ridge", "coast"})
#: Border features that hold on an aggregated border if any crossing hexside has them.
LINK_FEATURES = frozenset({"road", "rail", "waterway", "box_link"})


class AreaBoard:
    """An area map: locations are named areas, borders carry fjord/lake/sea/ridge flags."""

    kind = "area"
    #: the conversion this board was cut or merged by (``hexwar.board.conversion``), if any
    conversion: "Conversion | None" = None

    def __init__(
        self,
        name: str,
        terrain: Mapping[str, str],
        borders: Mapping[tuple[str, str], frozenset[str]],
        places: Mapping[str, Place],
        shapes: Mapping[str, "BaseGeometry"],
        projection: LocalProjection | None = None,
        labels: Mapping[str, str] | None = None,
        members: Mapping[str, Sequence[str]] | None = None,
    ):
        self.name = name
        self.projection = projection
        self.hex_km: float | None = None  # areas, not hexes
        self._terrain = dict(terrain)
        self._locations = list(self._terrain)
        self._sides = {_pair(a, b): frozenset(f) for (a, b), f in borders.items()}
        self._nbrs: dict[str, list[str]] = {a: [] for a in self._locations}
        for a, b in self._sides:
            self._nbrs[a].append(b)
            self._nbrs[b].append(a)
        for v in self._nbrs.values():
            v.sort()
        self._places = dict(places)
        self._shapes = dict(shapes)
        self._labels = dict(labels or {})
        #: for an aggregated board: area -> the hexes it was built from
        self.members: dict[str, list[str]] = {k: list(v) for k, v in (members or {}).items()}
        #: (lon, lat) of each area's named town, where the map gives one
        self.centers: dict[str, tuple[float, float]] = {}
        #: off-board air bases and their reach in km (Kampen 2.3 "Fra Tyskland")
        self.air_origins: dict[str, tuple[tuple[float, float], float]] = {}

    # --- construction -------------------------------------------------------------------

    @classmethod
    def from_spec(cls, spec: AreaMapSpec, file: str = "<map>") -> "AreaBoard":
        """Build an area board from a validated ``area_map`` spec."""
        probs = check_area_map(spec, file)
        if probs:
            raise DataError(probs)
        proj = LocalProjection(spec.projection.lon0, spec.projection.lat0, spec.projection.kind) if spec.projection else None
        terrain = {k: a.terrain for k, a in spec.areas.items()}
        borders = {(b.a, b.b): frozenset(b.features) for b in spec.borders}
        places = {
            k: Place(k, frozenset(a.kinds), a.name, a.value,
                     {"sea": tuple(a.sea or ()), "lonlat": a.center, "air_range_km": a.air_range_km})
            for k, a in spec.areas.items()
            if a.kinds or a.value or a.sea or a.air_range_km
        }
        shapes: dict[str, BaseGeometry] = {}
        for k, a in spec.areas.items():
            if a.polygon and proj:
                shapes[k] = proj.polygon(a.polygon)
            elif a.center and proj:
                shapes[k] = box_point(*proj.to_xy(*a.center))
        for box, bs in spec.boxes.items():
            terrain[box] = "box"
            places[box] = Place(box, frozenset(bs.kinds) | {"box"}, bs.name)
            for link in bs.links:
                borders[(box, link)] = frozenset({"box_link"})
        labels = {k: a.name for k, a in spec.areas.items()}
        board = cls(spec.name, terrain, borders, places, shapes, proj, labels)
        board.centers = {k: a.center for k, a in spec.areas.items() if a.center}
        board.air_origins = {k: (o.lonlat, o.air_range_km) for k, o in spec.air_origins.items()}
        return board

    @classmethod
    def load(cls, name: str, library: Library | None = None) -> "AreaBoard":
        """Load an area map by name from the data library."""
        lib = library or default_library()
        spec = lib.load("maps", name, "area_map")
        return cls.from_spec(spec, str(lib.path("maps", name)))

    @classmethod
    def from_hexes(
        cls, board: "HexBoard", partition: Mapping[str, Iterable[str]], name: str | None = None
    ) -> "AreaBoard":
        """Aggregate hexes into areas: shapes are shapely unions, borders come from hexsides.

        Two areas border each other where any of their hexes do. A barrier feature (fjord,
        lake, all-sea, river, ridge, coast) holds on the area border only if every hexside
        crossing it has the feature; a link feature (road, rail, waterway) if any has. Hexes
        outside the partition are left out. An area's terrain is its most common hex terrain
        (ties: alphabetical); its places are the union of its hexes' places.

        >>> from hexwar.board.hexboard import HexBoard
        >>> hb = HexBoard.load("fixtures/fjord")
        >>> ab = AreaBoard.from_hexes(hb, {"west": ["0101", "0102"], "east": ["0201", "0202"]})
        >>> sorted(ab.border("west", "east").features)
        ['fjord']
        """
        area_of: dict[str, str] = {}
        members: dict[str, list[str]] = {}
        for area, hs in partition.items():
            members[area] = []
            for h in hs:
                if h not in board or board.terrain(h) == "box":
                    raise BoardError(f"{board.name}: partition area {area!r} names {h!r}, not a hex of the map")
                if h in area_of:
                    raise BoardError(f"{board.name}: hex {h} is in both {area_of[h]!r} and {area!r}")
                area_of[h] = area
                members[area].append(h)
        terrain: dict[str, str] = {}
        places: dict[str, Place] = {}
        shapes: dict[str, BaseGeometry] = {}
        for area, hs in members.items():
            if not hs:
                raise BoardError(f"{board.name}: partition area {area!r} has no hexes")
            counts = Counter(board.terrain(h) for h in hs)
            terrain[area] = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
            kinds: set[str] = set()
            value = 0
            pname = ""
            for h in hs:
                p = board.place(h)
                if p:
                    kinds |= p.kinds
                    value += p.value
                    pname = pname or p.name
                for e in ("edge_north", "edge_south", "edge_east", "edge_west"):
                    if board.is_a(h, e):
                        kinds.add(e)
            if kinds or value:
                places[area] = Place(area, frozenset(kinds), pname or area, value)
            shapes[area] = union(board.geometry(h) for h in hs)
        crossings: dict[tuple[str, str], list[frozenset[str]]] = {}
        for a, b, feats in board.sides():
            aa, bb = area_of.get(a), area_of.get(b)
            if aa is None or bb is None or aa == bb:
                continue
            crossings.setdefault(_pair(aa, bb), []).append(feats)
        borders: dict[tuple[str, str], frozenset[str]] = {}
        for pair, sides in crossings.items():
            fs: set[str] = {f for f in BARRIER_FEATURES if all(f in s for s in sides)}
            fs |= {f for f in LINK_FEATURES if any(f in s for s in sides)}
            if "all_sea" not in fs and all(s & {"fjord", "lake", "all_sea"} for s in sides) and any(
                "fjord" in s for s in sides
            ):
                fs.add("fjord")  # a mix of fjord and open-sea sides is still a fjord border
            borders[pair] = frozenset(fs)
        for box in (p.location for p in board.places("box")):
            terrain[box] = "box"
            places[box] = board.place(box) or Place(box, frozenset({"box"}))
            shapes[box] = board.geometry(box)
            for link in board.neighbours(box):
                if link in area_of:
                    borders[_pair(box, area_of[link])] = frozenset({"box_link"})
        return cls(name or f"{board.name}-areas", terrain, borders, places, shapes, board.projection, members=members)

    # --- Board protocol -----------------------------------------------------------------

    def locations(self) -> Sequence[str]:
        return self._locations

    def __contains__(self, loc: object) -> bool:
        return loc in self._terrain

    def terrain(self, loc: str) -> str:
        try:
            return self._terrain[loc]
        except KeyError:
            raise BoardError(f"{self.name}: no area {loc!r}") from None

    def neighbours(self, loc: str) -> Sequence[str]:
        try:
            return self._nbrs[loc]
        except KeyError:
            raise BoardError(f"{self.name}: no area {loc!r}") from None

    def border(self, a: str, b: str) -> Border:
        try:
            return Border(a, b, self._sides[_pair(a, b)])
        except KeyError:
            raise BoardError(f"{self.name}: {a} and {b} do not border each other") from None

    def places(self, kind: str | None = None) -> Sequence[Place]:
        out = list(self._places.values())
        return out if kind is None else [p for p in out if kind in p.kinds]

    def place(self, loc: str) -> Place | None:
        return self._places.get(loc)

    def is_a(self, loc: str, kind: str) -> bool:
        p = self._places.get(loc)
        return p is not None and kind in p.kinds

    @cached_property
    def _dist(self) -> dict[str, dict[str, int]]:
        return dict(nx.all_pairs_shortest_path_length(self._graph))

    def distance(self, a: str, b: str) -> int:
        try:
            return self._dist[a][b]
        except KeyError:
            raise BoardError(f"{self.name}: no path between {a!r} and {b!r}") from None

    def sight(self, a: str, b: str) -> SightAlternatives:
        """Return the borders of each shortest path (at most 16) from ``a`` to ``b``."""
        if a == b:
            return SightAlternatives(((),))
        paths = islice(nx.all_shortest_paths(self._graph, a, b), 16)
        alts = tuple(tuple(self.border(p[i], p[i + 1]) for i in range(len(p) - 1)) for p in paths)
        return SightAlternatives(alts)

    @cached_property
    def _graph(self) -> nx.Graph:
        g = nx.Graph(name=self.name, kind=self.kind)
        for loc in self._locations:
            p = self._places.get(loc)
            g.add_node(loc, terrain=self._terrain[loc], places=p.kinds if p else frozenset())
        for (a, b), f in self._sides.items():
            g.add_edge(a, b, features=f)
        return g

    def graph(self) -> nx.Graph:
        return self._graph

    def geometry(self, loc: str) -> "BaseGeometry":
        if loc not in self._terrain:
            raise BoardError(f"{self.name}: no area {loc!r}")
        try:
            return self._shapes[loc]
        except KeyError:
            raise BoardError(f"{self.name}: area {loc!r} has no geometry in its map file") from None

    def label(self, loc: str) -> str:
        p = self._places.get(loc)
        name = self._labels.get(loc) or (p.name if p else "")
        return f"{loc} ({name})" if name and name != loc else loc


def _pair(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a < b else (b, a)


def check_area_map(spec: AreaMapSpec, file: str) -> list[Problem]:
    """Return the cross-reference problems of an area map."""
    probs: list[Problem] = []
    seen: set[tuple[str, str]] = set()
    for i, b in enumerate(spec.borders):
        for end in (b.a, b.b):
            if end not in spec.areas:
                probs.append(Problem(file, f"borders.{i}", f"{end!r} is not an area of the map"))
        if b.a == b.b:
            probs.append(Problem(file, f"borders.{i}", "an area cannot border itself"))
        if _pair(b.a, b.b) in seen:
            probs.append(Problem(file, f"borders.{i}", f"{b.a}-{b.b} is listed twice"))
        seen.add(_pair(b.a, b.b))
        for f in b.features:
            if f not in BORDER_FEATURES:
                probs.append(Problem(file, f"borders.{i}.features", f"unknown feature {f!r}"))
    for k, a in spec.areas.items():
        for kind in a.kinds:
            if kind not in PLACE_KINDS:
                probs.append(Problem(file, f"areas.{k}.kinds", f"unknown place kind {kind!r}"))
        if a.polygon is not None and len(a.polygon) < 3:
            probs.append(Problem(file, f"areas.{k}.polygon", "a polygon needs at least 3 points"))
        if (a.polygon or a.center) and spec.projection is None:
            probs.append(Problem(file, f"areas.{k}", "coordinates need a projection: {lon0, lat0}"))
    for box, bs in spec.boxes.items():
        for link in bs.links:
            if link not in spec.areas:
                probs.append(Problem(file, f"boxes.{box}.links", f"{link!r} is not an area"))
    return probs


def nearest_partition(board: "HexBoard", seeds: Mapping[str, str], terrains: Iterable[str] | None = None) -> dict[str, list[str]]:
    """Partition a hex board's hexes among seed hexes by hex distance (Voronoi on the grid).

    Only hexes whose terrain is in ``terrains`` are assigned (all hexes when None); ties go
    to the alphabetically first area, so the result is deterministic.
    """
    keep = set(terrains) if terrains is not None else None
    out: dict[str, list[str]] = {a: [] for a in seeds}
    order = sorted(seeds)
    for h in board.hexes():
        if keep is not None and board.terrain(h) not in keep:
            continue
        best = min(order, key=lambda a: (board.distance(h, seeds[a]), a))
        out[best].append(h)
    return {a: hs for a, hs in out.items() if hs}
