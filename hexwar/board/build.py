"""Build a hex map from geography: project places, lines and a land/sea mask onto a hex grid.

``hexwar map build narvik`` reads ``maps/narvik/geography.yaml`` and writes
``maps/narvik.yaml``. The build is deterministic: the same geography and mask give the
same YAML, byte for byte. The land/sea mask is a function ``is_land(lat, lon) -> bool
array``; the real one comes from the ``global-land-mask`` package, needed at build time
only (``pip install ".[mapbuild]"``).

Classification (authored rules, see docs/data-provenance.md):

* a hex is ``sea`` when >= 80% of 19 sample points are water, ``coast`` from 15%, else land;
* land: ``town`` at a town place, ``glacier`` inside a glacier outline, ``lake`` on a lake,
  ``clear`` next to the water, ``forest`` along a road elsewhere (the valley floors),
  ``rough`` two hexes from the water, ``mountain`` beyond;
* a hexside is a ``waterway`` (20.1) when both hexes hold water and >= 40% of its length
  is water; ``fjord`` when water lies between two hexes that both hold land (>= 60% of the
  middle of the centre-to-centre line); ``all_sea`` when it is all water and a hex is sea;
  ``coast`` between land and sea; ``road``/``rail`` where a line runs from hex to hex;
  ``river``/``ridge`` where such a line crosses the hexside.

Then the geography's ``cited`` block, if any, is applied: hand edits (terrain of a hex,
features added to or taken from a hexside, a place set on a hex) that make the hexes a
rulebook cites hold what the rules say of them. Terrain edits come before the hexsides are
derived, so coasts and fjords follow the edited terrain; each edit names its rule.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Mapping

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon
from shapely.ops import unary_union

from hexwar.board import hexes
from hexwar.board.geometry import LocalProjection

Mask = Callable[[np.ndarray, np.ndarray], np.ndarray]  # (lat, lon) -> is land


def land_mask() -> Mask:
    """Return the 1 km land mask of the ``global-land-mask`` package (build time only)."""
    try:
        from global_land_mask import globe  # type: ignore[import-untyped]
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise RuntimeError("map build needs the land mask: pip install '.[mapbuild]' (global-land-mask)") from exc
    return lambda lat, lon: np.asarray(globe.is_land(lat, lon), dtype=bool)


def _projection(geo: Mapping[str, Any], grid: hexes.HexGrid, hex_km: float) -> LocalProjection:
    """Return the projection that puts the anchor place at the centre of the anchor hex."""
    anchor = geo["grid"]["anchor"]
    lon_a, lat_a = geo["places"][anchor["place"]]["lonlat"]
    x, y = hexes.center_xy(grid.to_axial(anchor["hex"]), hex_km)
    lat0 = lat_a - y / 110.574
    if geo["grid"].get("projection", "equirectangular") == "sinusoidal":
        kx = 111.320 * math.cos(math.radians(lat_a))
        return LocalProjection(round(lon_a - x / kx, 6), round(lat0, 6), "sinusoidal")
    kx = 111.320 * math.cos(math.radians(lat0))
    return LocalProjection(round(lon_a - x / kx, 6), round(lat0, 6))


class _Geo:
    """Geography projected into the board plane."""

    def __init__(self, geo: Mapping[str, Any], proj: LocalProjection, mask: Mask):
        self.proj = proj
        self.mask = mask

        def line(pts: list[list[float]]) -> LineString:
            return LineString([proj.to_xy(lon, lat) for lon, lat in pts])

        self.fjords = unary_union([line(f["line"]).buffer(0.6) for f in geo.get("fjords", {}).values()])
        self.lakes = unary_union([proj.polygon(v["polygon"]) for v in geo.get("lakes", {}).values()])
        self.glaciers = unary_union([proj.polygon(v["polygon"]) for v in geo.get("glaciers", {}).values()])
        self.roads = {k: line(v["line"]) for k, v in geo.get("roads", {}).items()}
        self.rail = line(geo["railway"]["line"]) if "railway" in geo else None
        self.railways = [line(v["line"]) for _, v in sorted(geo.get("railways", {}).items())]
        self.rivers = [line(v["line"]) for v in geo.get("rivers", {}).values()]
        self.ridges = [line(v["line"]) for v in geo.get("ridges", {}).values()]
        self.sweden: Polygon | None = None
        if "sweden" in geo:
            b = [proj.to_xy(lon, lat) for lon, lat in geo["sweden"]["border"]]
            far = 1e4
            self.sweden = Polygon(b + [(far, b[-1][1]), (far, -far), (b[0][0], -far)])

    def water(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """Return which plane points are water (sea or fjord; lakes are not sea)."""
        lon, lat = self.proj.to_lonlat(xs, ys)
        wet = ~self.mask(np.asarray(lat), np.asarray(lon))
        if not self.fjords.is_empty:
            wet |= shapely.contains_xy(self.fjords, xs, ys)
        if not self.lakes.is_empty:
            wet &= ~shapely.contains_xy(self.lakes, xs, ys)
        return wet


def _hex_samples(a: hexes.Axial, hex_km: float) -> tuple[np.ndarray, np.ndarray]:
    cx, cy = hexes.center_xy(a, hex_km)
    size = hex_km / math.sqrt(3)
    xs, ys = [cx], [cy]
    for i in range(6):
        ang = math.pi / 3 * i
        for f in (0.45, 0.85):
            xs.append(cx + f * size * math.cos(ang))
            ys.append(cy + f * size * math.sin(ang))
        mid = ang + math.pi / 6
        xs.append(cx + 0.75 * size * math.cos(mid))
        ys.append(cy + 0.75 * size * math.sin(mid))
    return np.array(xs), np.array(ys)


def _pixel_to_axial(x: float, y: float, hex_km: float) -> hexes.Axial:
    size = hex_km / math.sqrt(3)
    q = (2.0 / 3.0 * x) / size
    r = (-1.0 / 3.0 * x + math.sqrt(3) / 3.0 * (-y)) / size
    return hexes._cube_round(q, r, -q - r)


def _line_hexes(ls: LineString, hex_km: float) -> list[hexes.Axial]:
    """Return the chain of adjacent hexes a line passes through, in order."""
    n = max(2, int(ls.length / 0.2) + 1)
    chain: list[hexes.Axial] = []
    for i in range(n):
        p = ls.interpolate(i / (n - 1), normalized=True)
        a = _pixel_to_axial(p.x, p.y, hex_km)
        if chain and a == chain[-1]:
            continue
        if chain and hexes.distance(a, chain[-1]) > 1:
            chain.extend(hexes.line(chain[-1], a)[1:-1])
        chain.append(a)
    return chain


@dataclass(frozen=True)
class _Layout:
    """The grid a hex map is built on: its hexes (ids, axial coordinates both ways), the
    hex's size, the projection and the geography read through the land/sea mask."""

    grid: hexes.HexGrid
    hex_km: float
    proj: Any
    gg: "_Geo"
    cols: tuple[int, int]
    rows: tuple[int, int]
    ids: list[str]
    ax: dict[str, hexes.Axial]
    by_ax: dict[hexes.Axial, str]


def build_hex_map(geo: Mapping[str, Any], mask: Mask, source_file: str) -> dict[str, Any]:
    """Return a ``hex_map`` document (plain data, deterministic order) built from geography:
    the terrain of each hex, the features of each hexside, then the places, the box and the
    regions."""
    g = geo["grid"]
    grid = hexes.HexGrid(2)
    hex_km = float(g["hex_km"])
    proj = _projection(geo, grid, hex_km)
    c0, c1 = g["columns"]
    r0, r1 = g["rows"]
    ids = [grid.format(c, r) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1)]
    ax = {h: grid.to_axial(h) for h in ids}
    lay = _Layout(grid, hex_km, proj, _Geo(geo, proj, mask), (c0, c1), (r0, r1), ids, ax, {a: h for h, a in ax.items()})
    terrain, wf, place_hex, road_chains = _terrain(lay, geo)
    sides, rail_hexes = _hexsides(lay, geo, terrain, road_chains)
    places, sweden = _places(lay, geo, place_hex)
    box = geo.get("box")
    default = "mountain"
    return {
        "kind": "hex_map",
        "name": geo["name"],
        "description": geo["description"],
        "source": f"geography {source_file}, built by `hexwar map build {geo['name']}`",
        "grid": {"digits": 2, "columns": [c0, c1], "rows": [r0, r1], "hex_km": hex_km, "parity": "odd-q"},
        "projection": {"lon0": proj.lon0, "lat0": proj.lat0, **({"kind": proj.kind} if proj.kind != "equirectangular" else {})},
        "default_terrain": default,
        "terrain": {h: terrain[h] for h in ids if terrain[h] != default},
        "hexsides": {k: sorted(v) for k, v in sorted(sides.items())},
        "places": places,
        "boxes": {box["id"]: {"name": box["name"], "links": _box_links(lay, box, terrain, wf), "kinds": ["box"]}} if box else {},
        "regions": _regions(lay, geo, terrain, sweden, rail_hexes),
    }


def _terrain(lay: _Layout, geo: Mapping[str, Any]) -> tuple[dict[str, str], dict[str, float], dict[str, str], list[list[str]]]:
    """Each hex's terrain (from its water fraction, the places, the hand edits for the rules'
    cited hexes, the distance to water, towns, glaciers, lakes and roads), with the water
    fractions, the hex of each place and the roads as chains of hexes."""
    hex_km, gg, ids, ax, by_ax = lay.hex_km, lay.gg, lay.ids, lay.ax, lay.by_ax
    proj = lay.proj
    wf: dict[str, float] = {}
    for h in ids:
        xs, ys = _hex_samples(ax[h], hex_km)
        wf[h] = float(np.mean(gg.water(xs, ys)))
    place_hex: dict[str, str] = {}
    for key, p in sorted(geo["places"].items()):
        x, y = proj.to_xy(*p["lonlat"])
        a = _pixel_to_axial(x, y, hex_km)
        if a in by_ax:
            place_hex[key] = by_ax[a]
    terrain: dict[str, str] = {}
    for h in ids:
        w = wf[h]
        terrain[h] = "sea" if w >= 0.8 else "coast" if w >= 0.15 else "land"
    for key, h in place_hex.items():
        kinds = set(geo["places"][key].get("kinds", []))
        if "port" in kinds and terrain[h] == "land":
            terrain[h] = "coast"  # 20.2: a port holds water for ships
        if kinds & {"port", "beach", "town"} and terrain[h] == "sea":
            terrain[h] = "coast"  # ...and land for the units that embark, land or hold it
    cited = geo.get("cited", {})
    land_edits = {}
    for h, e in cited.get("terrain", {}).items():  # hand edits for the rules' cited hexes
        if e["to"] in ("sea", "coast"):
            terrain[h] = e["to"]
        else:
            terrain[h] = "land"
            land_edits[h] = e["to"]
    wet = {h for h, t in terrain.items() if t in ("sea", "coast")}
    dist_water: dict[str, int] = {}
    frontier = sorted(wet)
    for h in frontier:
        dist_water[h] = 0
    d = 0
    while frontier:
        d += 1
        nxt = []
        for h in frontier:
            for n in hexes.neighbours(ax[h]):
                nh = by_ax.get(n)
                if nh is not None and nh not in dist_water:
                    dist_water[nh] = d
                    nxt.append(nh)
        frontier = sorted(set(nxt))
    road_hexes: set[str] = set()
    road_chains: list[list[str]] = []
    for name in sorted(gg.roads):
        chain = [by_ax[a] for a in _line_hexes(gg.roads[name], hex_km) if a in by_ax]
        road_chains.append(chain)
        road_hexes |= set(chain)
    town_hexes = {h for k, h in place_hex.items() if "town" in geo["places"][k].get("kinds", [])}
    for h in ids:
        if terrain[h] != "land":
            continue
        cx, cy = hexes.center_xy(ax[h], hex_km)
        pt = Point(cx, cy)
        dw = dist_water.get(h, 99)
        if h in town_hexes:
            terrain[h] = "town"
        elif not gg.glaciers.is_empty and gg.glaciers.contains(pt):
            terrain[h] = "glacier"
        elif not gg.lakes.is_empty and gg.lakes.buffer(0.3).contains(pt):
            terrain[h] = "lake"
        elif dw <= 1:
            terrain[h] = "clear"
        elif h in road_hexes:
            terrain[h] = "forest"
        elif dw <= 2:
            terrain[h] = "rough"
        else:
            terrain[h] = "mountain"
    terrain.update(land_edits)

    return terrain, wf, place_hex, road_chains


def _hexsides(lay: _Layout, geo: Mapping[str, Any], terrain: Mapping[str, str],
              road_chains: list[list[str]]) -> tuple[dict[str, set[str]], list[str]]:
    """Each hexside's features (sea, waterway, coast, fjord, ridge, river, road, rail, and
    the hand edits of the cited hexsides), with the railway's hexes."""
    hex_km, gg, ids, ax, by_ax = lay.hex_km, lay.gg, lay.ids, lay.ax, lay.by_ax
    cited = geo.get("cited", {})
    sides: dict[str, set[str]] = {}

    def add(a: str, b: str, f: str) -> None:
        sides.setdefault(hexes.hexside_key(a, b), set()).add(f)

    holds_water = {"sea", "coast"}
    for h in ids:
        for dirn in (0, 1, 2):
            n = hexes.neighbour(ax[h], dirn)
            nh = by_ax.get(n)
            if nh is None:
                continue
            (p1, p2) = hexes.hexside_segment(hexes.hexside(ax[h], dirn), hex_km)
            t = np.linspace(0.1, 0.9, 5)
            ex = p1[0] + (p2[0] - p1[0]) * t
            ey = p1[1] + (p2[1] - p1[1]) * t
            we = float(np.mean(gg.water(ex, ey)))
            c1x, c1y = hexes.center_xy(ax[h], hex_km)
            c2x, c2y = hexes.center_xy(n, hex_km)
            tm = np.array([0.25, 0.35, 0.5, 0.65, 0.75])
            ws = float(np.mean(gg.water(c1x + (c2x - c1x) * tm, c1y + (c2y - c1y) * tm)))
            ta, tb = terrain[h], terrain[nh]
            if ta == "sea" and tb == "sea":
                add(h, nh, "all_sea")
                add(h, nh, "waterway")
                continue
            if ta in holds_water and tb in holds_water and we >= 0.4:
                add(h, nh, "waterway")
            if "sea" in (ta, tb):
                add(h, nh, "all_sea" if we >= 0.99 else "coast")
            elif ws >= 0.6:
                add(h, nh, "fjord")
            seg = LineString([p1, p2])
            if any(r.intersects(seg) for r in gg.ridges):
                add(h, nh, "ridge")
            if "fjord" not in sides.get(hexes.hexside_key(h, nh), set()) and any(r.intersects(seg) for r in gg.rivers):
                add(h, nh, "river")
    for chain in road_chains:
        for ha, hb in zip(chain, chain[1:]):
            if terrain[ha] != "sea" and terrain[hb] != "sea":
                add(ha, hb, "road")
    rail_hexes: list[str] = []
    for rl in ([gg.rail] if gg.rail is not None else []) + gg.railways:
        chain = [by_ax[a] for a in _line_hexes(rl, hex_km) if a in by_ax]
        rail_hexes += chain
        for ha, hb in zip(chain, chain[1:]):
            add(ha, hb, "rail")
    for key, e in cited.get("hexsides", {}).items():
        a, b = key.split("/")
        feats = sides.setdefault(hexes.hexside_key(a, b), set())
        feats |= set(e.get("add", []))
        feats -= set(e.get("remove", []))

    return sides, rail_hexes


def _places(lay: _Layout, geo: Mapping[str, Any], place_hex: Mapping[str, str]) -> tuple[list[dict[str, Any]], set[str]]:
    """The map's places (two in one hex merged; the cited hexes' roles; Sweden's hexes), in
    hex order, and Sweden's hexes."""
    hex_km, gg, ids, ax = lay.hex_km, lay.gg, lay.ids, lay.ax
    cited = geo.get("cited", {})
    sweden = set()
    if gg.sweden is not None:
        for h in ids:
            if gg.sweden.contains(Point(*hexes.center_xy(ax[h], hex_km))):
                sweden.add(h)
    places: list[dict[str, Any]] = []
    seen: dict[str, dict[str, Any]] = {}
    for key, h in sorted(place_hex.items(), key=lambda kv: (kv[1], kv[0])):
        p = geo["places"][key]
        kinds = set(p.get("kinds", []))
        if h in seen:  # two places in one hex: keep the first name, merge kinds and VP
            seen[h]["kinds"] = sorted(set(seen[h]["kinds"]) | kinds)
            seen[h]["value"] = max(seen[h]["value"], p.get("value", 0))
            continue
        entry = {"at": h, "kinds": sorted(kinds), "name": p.get("name", key), "value": p.get("value", 0)}
        seen[h] = entry
        places.append(entry)
    for h, e in sorted(cited.get("places", {}).items()):  # a cited hex the rules give a role (29.0: 1918)
        entry = {"at": h, "kinds": sorted(e.get("kinds", [])), "name": e.get("name", ""), "value": e.get("value", 0)}
        if h in seen:
            seen[h].update(entry)
        else:
            seen[h] = entry
            places.append(entry)
    for h in sorted(sweden):
        if h in seen:
            seen[h]["kinds"] = sorted(set(seen[h]["kinds"]) | {"sweden"})
        else:
            places.append({"at": h, "kinds": ["sweden"], "name": "", "value": 0})
    places.sort(key=lambda e: e["at"])
    return places, sweden


def _box_links(lay: _Layout, box: Mapping[str, Any], terrain: Mapping[str, str], wf: Mapping[str, float]) -> list[str]:
    """22.1: the box's sea links reach the water hexes of the edges it names."""
    (c0, c1), (r0, r1) = lay.cols, lay.rows
    on_edge = {"west": lambda c, r: c == c0, "east": lambda c, r: c == c1,
               "north": lambda c, r: r == r0, "south": lambda c, r: r == r1}
    return sorted(h for h in lay.ids if terrain[h] in ("sea", "coast") and wf[h] >= box.get("min_water", 0.3)
                  and any(on_edge[e](*lay.grid.parse(h)) for e in box["edges"]))


def _regions(lay: _Layout, geo: Mapping[str, Any], terrain: Mapping[str, str], sweden: set[str],
             rail_hexes: list[str]) -> dict[str, list[str]]:
    """The map's regions: the geography's bands by rows from the north (5.1's set-up areas),
    Sweden (22.2) and the railway (19.1)."""
    r0 = lay.rows[0]
    land = [h for h in lay.ids if terrain[h] not in ("sea",) and h not in sweden]
    regions: dict[str, list[str]] = {}
    for name, reg in geo.get("regions", {}).items():  # e.g. 5.1's set-up bands, by rows from the north
        lo, hi = reg["rows_from_north"]
        regions[name] = sorted(h for h in land
                               if r0 + lo <= lay.grid.parse(h)[1] and (hi is None or lay.grid.parse(h)[1] <= r0 + hi))
    regions["sweden"] = sorted(sweden)  # 22.2
    regions["railway"] = sorted(set(rail_hexes))  # 19.1
    return regions


def dump_map(doc: Mapping[str, Any]) -> str:
    """Return the map document as YAML with one line per hex, hexside and place."""
    import yaml

    out = [
        f"# GENERATED by `hexwar map build {doc['name']}` from maps/{doc['name']}/geography.yaml: do not edit by hand.",
        "# Terrain and hexside rules: hexwar/board/build.py; provenance: docs/data-provenance.md.",
    ]
    for key in ("kind", "name", "description", "source"):
        out.append(f"{key}: {yaml.safe_dump(doc[key], default_flow_style=True, width=10_000).strip().removesuffix('...').strip()}")

    def flow(v: Any) -> str:
        return str(yaml.safe_dump(v, default_flow_style=True, width=10_000, sort_keys=False)).strip()

    out.append(f"grid: {flow(doc['grid'])}")
    out.append(f"projection: {flow(doc['projection'])}")
    out.append(f"default_terrain: {doc['default_terrain']}")
    out.append("terrain:")
    out += [f'  "{h}": {t}' for h, t in doc["terrain"].items()]
    out.append("hexsides:")
    out += [f'  "{k}": {flow(v)}' for k, v in doc["hexsides"].items()]
    out.append("places:")
    out += [f"  - {flow(p)}" for p in doc["places"]]
    out.append("boxes:" if doc["boxes"] else "boxes: {}")
    for k, b in doc["boxes"].items():
        out.append(f"  {k}: {flow(b)}")
    out.append("regions:")
    for k, v in doc["regions"].items():
        out.append(f"  {k}: {flow(v)}")
    return "\n".join(out) + "\n"
