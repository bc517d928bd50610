"""SVG maps of any board: terrain, hexside/border features, places, counters, a legend.

One drawing serves the terminal's snapshots, replay frames and the web board, so it is made to
be read: land and water in clearly different colours, the coastline smoothed to the scale of
the board (a hex board's water grows into its coast hexes and is rounded; an area map's
1 km staircase is rounded off), hex numbers small at the top of each hex, place names with a
white halo at the bottom, counters with their values inside, stacks with a count badge, boxes
(Harstad) as a list in the side panel, and a legend for every colour and symbol drawn.

Every location shape carries ``data-loc`` and every counter ``data-units`` so the web page can
pick them; overlays carry ``pointer-events="none"`` so clicks reach the location under them.
"""

from __future__ import annotations

import re
import weakref
from html import escape
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence

from shapely.geometry import LineString, Point, Polygon, box
from shapely.ops import unary_union

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.board.base import Board
    from hexwar.core.state import UnitState

TERRAIN_COLOURS = {
    "clear": "#ece6c4",
    "town": "#dcc29a",
    "coast": "#e2dcb4",  # land and water mixed: drawn as land; the smoothed water covers its sea side
    "forest": "#a9cf8f",
    "rough": "#cdbd91",
    "mountain": "#b89f7e",
    "glacier": "#f6f9fb",
    "lake": "#7db6e3",
    "fjord": "#7db6e3",
    "sea": "#6fa8dc",
    "land": "#ece6c4",
    "sweden": "#d3d3cf",
    "unusable": "#cfcfca",
    "box": "#ffffff",
}
TERRAIN_WORDS = {"coast": "coast (land and water)", "land": "land", "unusable": "unusable (no activity)",
                 "sweden": "Sweden (neutral)"}
WATER = {"sea", "fjord", "lake"}
WATER_COLOUR = TERRAIN_COLOURS["sea"]
FEATURE_STYLES = {
    "road": 'stroke="#8b4513" stroke-width="2.2" stroke-dasharray="5,3"',
    "rail": 'stroke="#222" stroke-width="2.6"',
    "river": 'stroke="#2266cc" stroke-width="2.5"',
    "ridge": 'stroke="#5a3b1e" stroke-width="3.5"',
    "fjord": 'stroke="#2f7fc4" stroke-width="4"',
    "lake": 'stroke="#2f7fc4" stroke-width="3"',
}
FEATURE_WORDS = {"road": "road", "rail": "railway", "river": "river", "ridge": "ridge (blocks fire)",
                 "fjord": "fjord hexside / border", "lake": "lake border"}
#: the counters' colours of a game that gives none (``render_svg``'s ``palette``): one for each
#: side, in the order of the sides' names, so that two sides never draw alike (issue 73: a new
#: game's two sides both drew grey)
SIDE_CYCLE = ("#4a6fa5", "#a5544a", "#5a8f4a", "#8a6aa5", "#b5872f", "#3f8f8f")
DARK = {"#2b2b2b", "#333333", "#777777", "#3d8b3d", "#c8102e", "#d00000"}
HALO = 'stroke="#fff" stroke-width="2.8" stroke-linejoin="round" stroke-opacity="0.9"'
NO_PICK = 'pointer-events="none"'
PANEL_W = 210


def _label(x: float, y: float, text: str, attrs: str) -> str:
    """A text with a white halo under it (a second text, drawn first: every renderer shows it)."""
    at = f'x="{x:.1f}" y="{y:.1f}" text-anchor="middle" {attrs} {NO_PICK}'
    return f"<text {at} {HALO}>{escape(text)}</text><text {at}>{escape(text)}</text>"


def place_name(board: "Board", loc: str) -> str:
    """A location's name as a player reads it (Bjørnfjell, Dombås), or '' if it has none."""
    m = re.fullmatch(r".*? \((.*)\)", board.label(loc))
    if m:
        return m.group(1)
    p = board.place(loc)
    return p.name if p and p.name else ""


def _hex_km(board: "Board") -> float | None:
    return board.hex_km if board.kind == "hex" else None


class _Frame:
    """Board plane (km, y up) to picture (px, y down), over the focus locations' bounds."""

    def __init__(self, board: "Board", px_per_km: float, focus: Sequence[str] = (), margin: float = 24.0):
        shapes = []
        for loc in (focus or board.locations()):
            try:
                g = board.geometry(loc)
            except Exception:  # an area without geometry
                continue
            if not isinstance(g, Point):
                shapes.append(g)
        b = unary_union(shapes).bounds if shapes else (0.0, 0.0, 1.0, 1.0)
        pad = 0.0
        if focus:  # a little of the land around the focus, so its edge reads as an edge
            pad = max(b[2] - b[0], b[3] - b[1]) * 0.04 + (_hex_km(board) or 10.0)
        self.x0, self.y0, self.x1, self.y1 = b[0] - pad, b[1] - pad, b[2] + pad, b[3] + pad
        self.window = box(self.x0, self.y0, self.x1, self.y1)
        self.k = px_per_km
        self.m = margin
        self.width = (self.x1 - self.x0) * self.k + 2 * margin
        self.height = (self.y1 - self.y0) * self.k + 2 * margin

    def pt(self, x: float, y: float) -> tuple[float, float]:
        return (x - self.x0) * self.k + self.m, (self.y1 - y) * self.k + self.m

    def path(self, geom: Any) -> str:
        polys = list(geom.geoms) if hasattr(geom, "geoms") else [geom]
        out = []
        for p in polys:
            if not isinstance(p, Polygon) or p.is_empty:
                continue
            for ring in [p.exterior, *p.interiors]:
                pts = [self.pt(x, y) for x, y in ring.coords]
                out.append("M" + " L".join(f"{x:.1f},{y:.1f}" for x, y in pts) + " Z")
        return " ".join(out)


_CACHES: "weakref.WeakKeyDictionary[Any, dict[Any, Any]]" = weakref.WeakKeyDictionary()


def _cache(board: "Board") -> dict[Any, Any]:
    """What has been drawn of one board object (smoothed shapes, base layers): kept while the
    board lives, so a board rebuilt or edited is drawn afresh."""
    try:
        return _CACHES.setdefault(board, {})
    except TypeError:  # a board that cannot be weakly referenced: no cache
        return {}


def _smoothed_water(board: "Board") -> Any:
    """A hex board's water (sea, fjord and lake hexes) grown a third of a hex into its coast
    hexes and rounded: the coastline at the scale of the board instead of hex edges."""
    cache, key = _cache(board), "water"
    if key not in cache:
        hk = _hex_km(board) or 3.0
        shapes = {loc: board.geometry(loc) for loc in board.locations() if not isinstance(board.geometry(loc), Point)}
        water = unary_union([g for loc, g in shapes.items() if board.terrain(loc) in WATER])
        coast = unary_union([g for loc, g in shapes.items() if board.terrain(loc) == "coast"])
        grown = water.union(water.buffer(0.34 * hk).intersection(coast))
        smooth = grown.buffer(-0.3 * hk).buffer(0.3 * hk).buffer(0.25 * hk).buffer(-0.25 * hk)
        cache[key] = smooth.union(water).intersection(water.union(coast)).simplify(0.05 * hk)
    return cache[key]


def _smoothed_land(board: "Board", land: Sequence[str]) -> Any:
    """An area map's land rounded off at a 200th of its extent (8 km on the Norway map): the
    1 km raster staircase of its coast no longer shows."""
    cache, key = _cache(board), ("land", tuple(land))
    if key not in cache:
        u = unary_union([board.geometry(a) for a in land])
        r = max(u.bounds[2] - u.bounds[0], u.bounds[3] - u.bounds[1]) / 200
        cache[key] = u.buffer(r).buffer(-2 * r).buffer(r).simplify(r / 5)
    return cache[key]


def _clipped(board: "Board", loc: str, smooth_land: Any, grow: bool) -> Any:
    """An area cut to the smoothed coast (grown first when it is drawn under its neighbours)."""
    cache, key = _cache(board), ("clipped", loc, id(smooth_land))
    if key not in cache:
        g = board.geometry(loc)
        if grow:
            r = max(smooth_land.bounds[2] - smooth_land.bounds[0], smooth_land.bounds[3] - smooth_land.bounds[1]) / 200
            g = g.buffer(r)
        cache[key] = g.intersection(smooth_land).simplify(0.5)
    return cache[key]


def _area_borders(board: "Board", fr: _Frame, land: Sequence[str], smooth_land: Any) -> str:
    cache, key = _cache(board), ("borders", tuple(land))
    if key not in cache:
        keep = set(land)
        segs = []
        for a in land:
            for b in board.neighbours(a):
                if b in keep and a < b:
                    segs += _lines(board.geometry(a).boundary.intersection(board.geometry(b).boundary))
        cache[key] = unary_union(segs).intersection(smooth_land).simplify(0.5) if segs else None
    lines = cache[key]
    if lines is None:
        return ""
    return " ".join("M" + " L".join(f"{x:.1f},{y:.1f}" for x, y in (fr.pt(*c) for c in seg.coords))
                    for seg in _lines(lines.intersection(fr.window)))


class _Base:
    """The drawing of a board without its pieces, made once per board, scale and frame: the
    fills, water, grid, features, places and names (everything but the state)."""

    def __init__(self, fr: _Frame, shapes: dict[str, Any], centres: dict[str, tuple[float, float]], boxes: list[str],
                 layers: list[str], present: dict[str, set[str]], hexpx: float):
        self.fr, self.shapes, self.centres, self.boxes = fr, shapes, centres, boxes
        self.layers, self.present, self.hexpx = layers, present, hexpx
        self.clipped: dict[str, Any] = {}


def _base(board: "Board", px_per_km: float, focus: list[str], labels: bool) -> _Base:
    cache, key = _cache(board), ("base", px_per_km, tuple(focus), labels)
    if key not in cache:
        cache[key] = _draw_base(board, px_per_km, focus, labels)
    base: _Base = cache[key]
    return base


def _draw_base(board: "Board", px_per_km: float, focus: list[str], labels: bool) -> _Base:
    hk = _hex_km(board)
    fr = _Frame(board, px_per_km, focus)
    hexpx = hk * fr.k if hk else min(20.0 * fr.k, 56.0)  # an area map: counters as for a 20 km hex, 56 px at most
    out_map: list[str] = []
    centres: dict[str, tuple[float, float]] = {}
    boxes: list[str] = []
    land_areas: list[str] = []
    shapes: dict[str, Any] = {}
    present: dict[str, set[str]] = {"terrain": set(), "feature": set(), "symbol": set()}
    clipped: dict[str, Any] = {}  # an area map's land areas as drawn: inside the smoothed coast
    for loc in board.locations():
        try:
            g = board.geometry(loc)
        except Exception:
            continue
        if isinstance(g, Point):
            boxes.append(loc)
            continue
        if not g.intersects(fr.window):
            continue
        shapes[loc] = g
        c = g.representative_point() if board.kind == "area" else g.centroid
        centres[loc] = fr.pt(c.x, c.y)
        if board.kind == "area" and board.terrain(loc) not in WATER:
            land_areas.append(loc)
    smooth_land = _smoothed_land(board, land_areas) if board.kind == "area" and land_areas else None
    # 1. location fills (the shapes the page picks); an area map's land under them, smoothed
    seas = [x for x in shapes if smooth_land is not None and board.terrain(x) in WATER]
    for loc in seas:
        out_map.append(f'<path class="loc" data-loc="{escape(loc)}" d="{fr.path(shapes[loc])}" fill="{WATER_COLOUR}" stroke="none">'
                       f"<title>{escape(place_name(board, loc) or loc)} · sea</title></path>")
        present["terrain"].add("sea")
    if smooth_land is not None:
        out_map.append(f'<path d="{fr.path(smooth_land.intersection(fr.window))}" fill="{TERRAIN_COLOURS["land"]}" {NO_PICK}/>')
    order = sorted((x for x in shapes if x not in seas), key=lambda x: board.terrain(x) != "unusable")
    for loc in order:  # unusable land first: grown to the smoothed coast, the playable areas drawn over it
        g = shapes[loc]
        t = board.terrain(loc)
        key = "sweden" if board.is_a(loc, "sweden") or loc == "sweden" else t
        present["terrain"].add(key)
        colour = TERRAIN_COLOURS.get(key, "#eeeeee")
        name = place_name(board, loc)
        tip = f"{name + ' · ' if name else ''}{loc} · {TERRAIN_WORDS.get(key, key)}"
        if smooth_land is not None:
            g = clipped[loc] = _clipped(board, loc, smooth_land, grow=t == "unusable")
        out_map.append(f'<path class="loc" data-loc="{escape(loc)}" d="{fr.path(g)}" fill="{colour}" stroke="none">'
                       f"<title>{escape(tip)}</title></path>")
    if smooth_land is not None:  # the borders between land areas, inside the smoothed coast
        out_map.append(f'<path d="{_area_borders(board, fr, land_areas, smooth_land)}" fill="none" stroke="#4a4a42" '
                       f'stroke-width="1.4" {NO_PICK}/>')
    # 2. water and coastline, smoothed to the scale of the board
    if board.kind == "hex" and any(board.terrain(x) in WATER for x in shapes):
        w = _smoothed_water(board).intersection(fr.window)
        out_map.append(f'<path d="{fr.path(w)}" fill="{WATER_COLOUR}" stroke="#3b6f9e" stroke-width="0.8" {NO_PICK}/>')
        present["terrain"].add("sea")
    if smooth_land is not None:
        out_map.append(f'<path d="{fr.path(smooth_land.intersection(fr.window))}" fill="none" stroke="#3b6f9e" '
                       f'stroke-width="1.2" {NO_PICK}/>')
    # 3. the hex grid, and the picked / shaded locations
    if board.kind == "hex":
        grid = " ".join(fr.path(g) for g in shapes.values())
        out_map.append(f'<path d="{grid}" fill="none" stroke="#000" stroke-opacity="0.16" stroke-width="0.6" {NO_PICK}/>')
    # 4. border features
    water = _smoothed_water(board).buffer(0.05 * (hk or 1)) if board.kind == "hex" else None
    out_map += _features(board, fr, shapes, centres, present, water)
    # 5. places, numbers, names
    out_map += _places(board, fr, centres, hexpx, labels, present)
    rings = _air_ranges(board, fr)
    if rings:
        present["symbol"].add("airrange")
    out_map += rings
    base = _Base(fr, shapes, centres, boxes, out_map, present, hexpx)
    base.clipped = clipped
    return base


def render_svg(
    board: "Board",
    state: "UnitState | None" = None,
    px_per_km: float | None = None,
    labels: bool = True,
    highlight: Iterable[str] = (),
    title: str | None = None,
    unit_text: Mapping[str, str] | None = None,
    viewer: str | None = None,
    panel: Iterable[str] = (),
    shade: Iterable[str] = (),
    paths: Iterable[Sequence[str]] = (),
    stacks: Mapping[str, Sequence[tuple[str, int, str]]] | None = None,
    focus: Iterable[str] = (),
    legend: bool = True,
    tints: Mapping[str, tuple[str, str]] | None = None,
    palette: Mapping[str, str] | None = None,
) -> str:
    """Return an SVG drawing of a board (and the units of a state, if given).

    ``viewer``: the side looking (its enemy's face-down counters show as '?'; None: an
    onlooker, who sees every side's face down; ``EVERYONE``: every counter face up);
    ``panel``: lines for a side panel of tracks; ``shade``: locations to tint (a ZoC);
    ``paths``: location sequences to draw as lines (lines of supply);
    ``stacks``: per location, (label, count, colour) markers for games that count identical
    pieces (Kampen om Norge's battalions) instead of placing units;
    ``unit_text``: per unit, its counter's text (``"id\\nvalues"``: two lines);
    ``focus``: the locations the picture is framed on (a scenario's part of the board);
    ``tints``: per location, (colour, what it means) to tint it with (an area's holder), each
    meaning in the legend.
    """
    hk = _hex_km(board)
    if px_per_km is None:
        px_per_km = 56.0 / hk if hk else 2.0  # a hex 56 px across: room for a counter and a name
    base = _base(board, px_per_km, [f for f in focus if f in board], labels)
    fr, shapes, centres, boxes, hexpx = base.fr, base.shapes, base.centres, base.boxes, base.hexpx
    present = {k: set(v) for k, v in base.present.items()}
    out_map = list(base.layers)
    for loc, (colour, word) in sorted((tints or {}).items()):
        if loc in shapes:
            out_map.append(f'<path d="{fr.path(base.clipped.get(loc, shapes[loc]))}" fill="{colour}" fill-opacity="0.32" '
                           f'stroke="none" {NO_PICK}/>')
            present.setdefault("tint", set()).add(f"{colour}\t{word}")
    for loc in set(shade) & set(shapes):  # over the names: a tint they read through
        out_map.append(f'<path d="{fr.path(shapes[loc])}" fill="#ff3030" fill-opacity="0.2" stroke="none" {NO_PICK}/>')
    for loc in set(highlight) & set(shapes):
        out_map.append(f'<path class="highlight" d="{fr.path(shapes[loc])}" fill="none" stroke="#e00000" stroke-width="3" {NO_PICK}/>')
    for path in paths:
        pts = " ".join(f"{centres[x][0]:.1f},{centres[x][1]:.1f}" for x in path if x in centres)
        out_map.append(f'<polyline class="supply" points="{pts}" fill="none" stroke="#1a7f1a" stroke-width="2" stroke-dasharray="2,2" {NO_PICK}/>')
        present["symbol"].add("supply")
    # 6. counters and stacks
    on_box: dict[str, list[Any]] = {}
    colours = _palette(state, palette)
    if state is not None:
        by_loc: dict[str, list[Any]] = {}
        for u in state.on_map():
            (on_box if u.loc in boxes else by_loc).setdefault(u.loc, []).append(u)  # type: ignore[arg-type]
        out_map += _counters(by_loc, centres, hexpx, unit_text or {}, viewer, colours)
        if by_loc:
            present["symbol"].add("counter")
    for loc, items in (stacks or {}).items():
        if loc not in centres:
            continue
        x, y = centres[loc]
        for i, (label, n, colour) in enumerate(items):
            yy = y + 9 + 16 * i
            fg = "#fff" if colour in DARK or colour.startswith("#3") else "#000"
            out_map.append(f'<g {NO_PICK}><rect x="{x - 19:.1f}" y="{yy:.1f}" width="38" height="14" rx="3" fill="{colour}" '
                           f'stroke="#000" stroke-width="0.6"/><text x="{x:.1f}" y="{yy + 10.5:.1f}" font-size="10" '
                           f'text-anchor="middle" fill="{fg}" font-weight="bold">{escape(label)} {n}</text></g>')
    # the side panel: tracks, boxes as lists, the legend
    if set(shade) & set(shapes):
        present["symbol"].add("zoc")
    side = _panel(fr.width, list(panel), boxes, on_box, unit_text or {}, viewer, board, present if legend else None, colours)
    height = max(fr.height + 20, side[1] + 10)
    width = fr.width + PANEL_W
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
           f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="DejaVu Sans, Verdana, sans-serif">',
           f"<title>{escape(title or board.name)}</title>",
           f'<rect width="100%" height="100%" fill="{WATER_COLOUR if board.kind == "area" else "#f4f4f0"}"/>',
           f'<rect x="{fr.width:.0f}" width="{PANEL_W}" height="100%" fill="#fbfbf7"/>',
           f'<svg x="0" y="0" width="{fr.width:.0f}" height="{fr.height:.0f}" overflow="hidden">',
           *out_map, "</svg>", *side[0],
           f'<text x="8" y="{fr.height + 14:.0f}" font-size="12">{escape(title or board.name)}</text>',
           "</svg>"]
    return "\n".join(out)


def _features(board: "Board", fr: _Frame, shapes: Mapping[str, Any], centres: Mapping[str, tuple[float, float]],
              present: dict[str, set[str]], water: Any = None) -> list[str]:
    """Hexside and border features; a fjord or lake side inside the drawn water is not drawn twice."""
    out: list[str] = []
    lines: list[str] = []
    seen = set()
    for a in shapes:
        for b in board.neighbours(a):
            key = (a, b) if a < b else (b, a)
            if key in seen or b not in shapes:
                continue
            seen.add(key)
            feats = board.border(a, b).features & set(FEATURE_STYLES)
            if not feats:
                continue
            for f in ("ridge", "fjord", "lake", "river"):
                if f in feats:
                    present["feature"].add(f)
                    for seg in _lines(shapes[a].boundary.intersection(shapes[b].boundary)):
                        if water is not None and f in ("fjord", "lake") and seg.within(water):
                            continue
                        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in (fr.pt(*c) for c in seg.coords))
                        out.append(f'<polyline points="{pts}" fill="none" stroke-linecap="round" {FEATURE_STYLES[f]} {NO_PICK}/>')
            for f in ("road", "rail"):
                if f in feats:
                    present["feature"].add(f)
                    (x1, y1), (x2, y2) = centres[a], centres[b]
                    lines.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" {FEATURE_STYLES[f]} {NO_PICK}/>')
    return out + lines


SYMBOLS: dict[str, tuple[str, Callable[[float, float], str]]] = {
    "port": ("port", lambda x, y: f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4.5" fill="#1f4e9c" stroke="#fff" stroke-width="1.2"/>'
             f'<line x1="{x:.1f}" y1="{y - 3:.1f}" x2="{x:.1f}" y2="{y + 3:.1f}" stroke="#fff" stroke-width="1.2"/>'),
    "beach": ("beach (landings)", lambda x, y: f'<path d="M{x - 6:.1f},{y:.1f} a6,6 0 0 0 12,0 Z" fill="#f2d04b" stroke="#8a6d00" stroke-width="0.8"/>'),
    "town": ("town", lambda x, y: f'<rect x="{x - 3.5:.1f}" y="{y - 3.5:.1f}" width="7" height="7" fill="#a01010" stroke="#fff" stroke-width="0.8"/>'),
    "point_city": ("point city", lambda x, y: f'<rect x="{x - 4:.1f}" y="{y - 4:.1f}" width="8" height="8" fill="#a01010" stroke="#fff" stroke-width="0.8"/>'),
    "airfield": ("airfield", lambda x, y: f'<path d="M{x - 6:.1f},{y:.1f} h12 M{x:.1f},{y - 5:.1f} v10 M{x - 3:.1f},{y + 4:.1f} h6" stroke="#5a2d0c" stroke-width="2" fill="none"/>'),
    "mobilisation": ("mobilisation point", lambda x, y: f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4.5" fill="none" stroke="#3d8b3d" stroke-width="2"/>'),
}
OFFSETS = {"port": (-10, 0), "beach": (10, 2), "town": (0, 0), "point_city": (0, 0), "airfield": (12, -4),
           "mobilisation": (-12, -4)}


def _places(board: "Board", fr: _Frame, centres: Mapping[str, tuple[float, float]], hexpx: float, labels: bool,
            present: dict[str, set[str]]) -> list[str]:
    out: list[str] = []
    names: list[str] = []
    area = board.kind == "area"
    for loc, (x, y) in centres.items():
        p = board.place(loc)
        kinds = p.kinds if p else frozenset()
        sx, sy = (x, y - 6) if area else (x, y + 0.18 * hexpx)
        for k, (_, draw) in SYMBOLS.items():
            if k in kinds:
                dx, dy = OFFSETS[k]
                out.append(f'<g {NO_PICK}>{draw(sx + dx, sy + dy)}</g>')
                present["symbol"].add(k)
        if "victory" in kinds:
            out.append(_label(x + 0.32 * hexpx, y - 0.18 * hexpx, f"\u2605{p.value if p else ''}",
                              'font-size="10" font-weight="bold" fill="#a01010"'))
            present["symbol"].add("victory")
        if not labels:
            continue
        name = place_name(board, loc)
        if not area:
            out.append(f'<text x="{x:.1f}" y="{y - 0.3 * hexpx:.1f}" font-size="{max(5.0, 0.13 * hexpx):.1f}" '
                       f'text-anchor="middle" fill="#000" fill-opacity="0.45" {NO_PICK}>{loc}</text>')
            if name and board.terrain(loc) not in WATER | {"unusable"}:
                names.append(_label(x, y + 0.45 * hexpx, name, 'font-size="10" font-weight="bold"'))
        elif board.terrain(loc) not in ("sea",) or name:
            sea = board.terrain(loc) == "sea"
            names.append(_label(x, y + 4, name or loc, f'font-size="{12 if sea else 11}" font-style="{"italic" if sea else "normal"}"'))
    return out + names


def _air_ranges(board: "Board", fr: "_Frame") -> list[str]:
    """Kampen 2.3: each airfield's range line, and the "Fra Tyskland" line (dashed circles)."""
    proj = board.projection
    if proj is None:
        return []
    rings: list[tuple[str, tuple[float, float], float]] = []
    for p in board.places("airfield"):
        km = p.data.get("air_range_km") if p.data else None
        ll = p.data.get("lonlat") if p.data else None
        if km and ll:
            rings.append((p.name or p.location, ll, float(km)))  # type: ignore[arg-type]
    for name, (ll, km) in board.air_origins.items():
        rings.append((name, ll, km))
    out = []
    for name, (lon, lat), km in rings:
        x, y = fr.pt(*proj.to_xy(lon, lat))
        r = km * fr.k
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="none" stroke="#8b3a1a" stroke-width="1" '
                   f'stroke-dasharray="6,4" {NO_PICK}><title>air range of {escape(str(name))}: {km:g} km</title></circle>')
    return out


def _lines(geom: Any) -> list[LineString]:
    if geom.is_empty:
        return []
    if isinstance(geom, LineString):
        return [geom]
    out: list[LineString] = []
    for g in getattr(geom, "geoms", []):
        out += _lines(g)
    return out


#: the viewer who sees every counter face up: a finished game, or a replay read with
#: everyone's eyes (``None`` is an onlooker, who sees no side's face-down counters)
EVERYONE = "*"


def _hidden(u: Any, viewer: str | None) -> bool:
    """Whether ``viewer`` sees ``u`` face down: a concealed counter of another side."""
    return bool(u.concealed) and viewer != EVERYONE and (viewer is None or viewer != u.side)


def _fill(u: Any, hidden: bool, palette: Mapping[str, str]) -> tuple[str, str]:
    """A counter's colour: its nation's in the game's palette, else its side's."""
    fill = "#777777" if hidden else palette.get(u.nation) or palette.get(u.side) or "#999999"
    return fill, "#fff" if fill in DARK or _dark(fill) else "#000"


def _dark(colour: str) -> bool:
    """Whether a colour ``#rrggbb`` wants white text (its luminance below the middle)."""
    if not re.fullmatch(r"#[0-9a-fA-F]{6}", colour):
        return False
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b < 110


def _palette(state: Any, palette: Mapping[str, str] | None) -> Mapping[str, str]:
    """The game's palette (nation or side -> colour), or one colour a side from ``SIDE_CYCLE``."""
    if palette is not None:
        return palette
    sides = sorted({u.side for u in state.units.values()}) if state is not None else []
    return {s: SIDE_CYCLE[i % len(SIDE_CYCLE)] for i, s in enumerate(sides)}


def _counters(by_loc: Mapping[str, list[Any]], centres: Mapping[str, tuple[float, float]], hexpx: float,
              text: Mapping[str, str], viewer: str | None, palette: Mapping[str, str]) -> list[str]:
    """One counter per location: the top unit with its values, shadows for the rest, and a badge
    with the count; the tooltip lists the whole stack as the viewer may see it."""
    out = []
    size = max(18.0, 0.52 * hexpx)
    for loc, units in by_loc.items():
        if loc not in centres:
            continue
        x, y = centres[loc]
        units = sorted(units, key=lambda u: (_hidden(u, viewer), u.side != (viewer or u.side), u.id))
        hidden = [_hidden(u, viewer) for u in units]
        tip = [("face-down counter" if h else f"{u.id} {u.name}".strip() + (f", fatigue {u.fatigue} FP" if u.fatigue else ""))
               for u, h in zip(units, hidden)]
        ids = " ".join("?" if h else u.id for u, h in zip(units, hidden))
        x0, y0 = x - size / 2, y - size / 2 - 0.1 * hexpx
        g = [f'<g class="counter" data-loc="{escape(loc)}" data-units="{escape(ids)}">'
             f"<title>{escape(f'{loc}: ' + '; '.join(tip))}</title>"]
        for i in range(min(len(units) - 1, 2), 0, -1):  # shadows of the counters beneath
            f, _ = _fill(units[i], hidden[i], palette)
            g.append(f'<rect x="{x0 + 2.5 * i:.1f}" y="{y0 - 2.5 * i:.1f}" width="{size:.1f}" height="{size:.1f}" rx="2" '
                     f'fill="{f}" stroke="#000" stroke-width="0.6"/>')
        u, h = units[0], hidden[0]
        f, fg = _fill(u, h, palette)
        g.append(f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{size:.1f}" height="{size:.1f}" rx="2" fill="{f}" stroke="#000" stroke-width="0.8"/>')
        if h:
            g.append(f'<text x="{x:.1f}" y="{y0 + size * 0.68:.1f}" font-size="{size * 0.55:.1f}" text-anchor="middle" fill="{fg}">?</text>')
        else:
            top, _, values = (text.get(u.id) or u.id).partition("\n")
            if not values and " " in top:
                top, _, values = top.partition(" ")
            fs = min(size * 0.3, size * 1.6 / max(len(top), 1))
            g.append(f'<text x="{x:.1f}" y="{y0 + size * 0.38:.1f}" font-size="{fs:.1f}" text-anchor="middle" fill="{fg}">{escape(top)}</text>')
            if values:
                g.append(f'<text x="{x:.1f}" y="{y0 + size * 0.82:.1f}" font-size="{size * 0.36:.1f}" font-weight="bold" '
                         f'text-anchor="middle" fill="{fg}">{escape(values)}</text>')
            if u.fatigue:
                g.append(f'<rect x="{x0 - 3:.1f}" y="{y0 + size - 7:.1f}" width="11" height="9" rx="2" fill="#d00000"/>'
                         f'<text x="{x0 + 2.5:.1f}" y="{y0 + size:.1f}" font-size="7" text-anchor="middle" fill="#fff">{u.fatigue}</text>')
        if len(units) > 1:
            bx, by = x0 + size + 2, y0 - 2
            g.append(f'<circle cx="{bx:.1f}" cy="{by:.1f}" r="6.5" fill="#fff" stroke="#000" stroke-width="0.8"/>'
                     f'<text x="{bx:.1f}" y="{by + 3.2:.1f}" font-size="9" font-weight="bold" text-anchor="middle">{len(units)}</text>')
        g.append("</g>")
        out.append("".join(g))
    return out


def _panel(px: float, lines: list[str], boxes: Sequence[str], on_box: Mapping[str, list[Any]], text: Mapping[str, str],
           viewer: str | None, board: "Board", present: Mapping[str, set[str]] | None,
           palette: Mapping[str, str]) -> tuple[list[str], float]:
    """The panel at the right: the tracks, each box as a list of its units, and the legend.
    Returns the SVG and the height it takes."""
    out: list[str] = []
    y = 14.0
    if lines:
        out.append(f'<rect x="4" y="{y - 10:.0f}" width="{PANEL_W - 10}" height="{16 * len(lines) + 10}" fill="#f2f2ea" stroke="#999"/>')
        for i, t in enumerate(lines):
            out.append(f'<text x="10" y="{y + 6 + 16 * i:.0f}" font-size="12">{escape(t)}</text>')
        y += 16 * len(lines) + 14
    for bx in boxes:
        units = sorted(on_box.get(bx, []), key=lambda u: (u.side, u.id))
        rows = units[:28]
        h = 20 + 13 * len(rows) + (13 if len(units) > len(rows) else 0)
        tips = "; ".join(u.id for u in units) if units else "empty"
        out.append(f'<g class="box" data-loc="{escape(bx)}" data-units="{escape(" ".join(u.id for u in units))}">'
                   f'<title>{escape(place_name(board, bx) or bx)}: {escape(tips)}</title>'
                   f'<rect x="4" y="{y - 10:.0f}" width="{PANEL_W - 10}" height="{h}" fill="#fff" stroke="#333"/>'
                   f'<text x="10" y="{y + 4:.0f}" font-size="12" font-weight="bold">{escape(place_name(board, bx) or bx)} box '
                   f'({len(units)})</text>')
        for i, u in enumerate(rows):
            hidden = _hidden(u, viewer)
            f, _ = _fill(u, hidden, palette)
            label = "? face-down counter" if hidden else (text.get(u.id) or u.id).replace("\n", " ")
            if not hidden and u.fatigue:
                label += f"  FP {u.fatigue}"
            yy = y + 17 + 13 * i
            out.append(f'<rect x="10" y="{yy - 9:.0f}" width="10" height="10" fill="{f}" stroke="#000" stroke-width="0.5"/>'
                       f'<text x="25" y="{yy:.0f}" font-size="10">{escape(label)}</text>')
        if len(units) > len(rows):
            out.append(f'<text x="25" y="{y + 17 + 13 * len(rows):.0f}" font-size="10">+{len(units) - len(rows)} more</text>')
        out.append("</g>")
        y += h + 8
    if present is not None:
        legend, y = _legend(present, y)
        out += legend
    return [f'<g class="sidepanel" transform="translate({px:.0f},0)">', *out, "</g>"], y


def _legend(present: Mapping[str, set[str]], y: float) -> tuple[list[str], float]:
    out = [f'<text x="8" y="{y + 4:.0f}" font-size="12" font-weight="bold">Legend</text>']
    y += 20
    for t in sorted(present["terrain"], key=lambda t: list(TERRAIN_COLOURS).index(t) if t in TERRAIN_COLOURS else 99):
        out.append(f'<rect x="10" y="{y - 9:.0f}" width="16" height="11" fill="{TERRAIN_COLOURS.get(t, "#eee")}" stroke="#777" stroke-width="0.5"/>'
                   f'<text x="32" y="{y:.0f}" font-size="10">{escape(TERRAIN_WORDS.get(t, t))}</text>')
        y += 14
    for f in sorted(present["feature"]):
        out.append(f'<line x1="10" y1="{y - 4:.0f}" x2="26" y2="{y - 4:.0f}" {FEATURE_STYLES[f]}/>'
                   f'<text x="32" y="{y:.0f}" font-size="10">{FEATURE_WORDS[f]}</text>')
        y += 14
    for k, (word, draw) in SYMBOLS.items():
        if k in present["symbol"]:
            out.append(f"{draw(18, y - 4)}<text x=\"32\" y=\"{y:.0f}\" font-size=\"10\">{word}</text>")
            y += 14
    extra = {"victory": ('<text x="18" y="{y}" font-size="10" text-anchor="middle" fill="#a01010">&#9733;</text>', "victory hex (its VP)"),
             "supply": ('<line x1="10" y1="{m}" x2="26" y2="{m}" stroke="#1a7f1a" stroke-width="2" stroke-dasharray="2,2"/>', "line of supply"),
             "counter": ('<rect x="11" y="{t}" width="14" height="12" fill="#c2a764" stroke="#000" stroke-width="0.6"/>'
                         '<circle cx="27" cy="{t}" r="4" fill="#fff" stroke="#000" stroke-width="0.6"/>',
                         "counter (id, strength-MP);"),
             "counter2": ("", "badge: units in the stack;"),
             "counter3": ('<rect x="12" y="{t}" width="11" height="9" rx="2" fill="#d00000"/>', "red: fatigue points (FP)"),
             "zoc": ('<rect x="10" y="{t}" width="16" height="11" fill="#ff3030" fill-opacity="0.25"/>', "enemy zone of control"),
             "airrange": ('<path d="M10 {m} A9 9 0 0 1 26 {m}" fill="none" stroke="#8b3a1a" stroke-dasharray="4,3"/>',
                          "air range of an airfield (dashed circle)")}
    for k, (tpl, word) in extra.items():
        if k.rstrip("23") in present["symbol"]:
            out.append(tpl.format(y=f"{y:.0f}", m=f"{y - 4:.0f}", t=f"{y - 10:.0f}") + f'<text x="34" y="{y:.0f}" font-size="10">{word}</text>')
            y += 14
    for entry in sorted(present.get("tint", ())):
        colour, word = entry.split("\t", 1)
        out.append(f'<rect x="10" y="{y - 10:.0f}" width="16" height="11" fill="{colour}" fill-opacity="0.32" stroke="#777" '
                   f'stroke-width="0.5"/><text x="34" y="{y:.0f}" font-size="10">{escape(word)}</text>')
        y += 14
    return out, y
