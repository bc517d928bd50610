"""SVG maps of any board: terrain, hexside/border features, places and labels (no extra dependency)."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

from shapely.geometry import LineString, MultiPolygon, Point, Polygon

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.board.base import Board
    from hexwar.core.state import GameState

TERRAIN_COLOURS = {
    "clear": "#e8e4c9",
    "town": "#d9b38c",
    "coast": "#b4d6ea",  # land and water mixed: drawn as water so fjords read
    "forest": "#9cc48a",
    "rough": "#c9b98f",
    "mountain": "#b39a7a",
    "glacier": "#f4f8fb",
    "lake": "#9ec9e8",
    "fjord": "#9ec9e8",
    "sea": "#7fb2dd",
    "sweden": "#d8d8d8",
    "unusable": "#c8c8c8",
    "box": "#ffffff",
}
FEATURE_STYLES = {
    "road": 'stroke="#8b4513" stroke-width="2.5" stroke-dasharray="5,3"',
    "rail": 'stroke="#222" stroke-width="3"',
    "river": 'stroke="#2266cc" stroke-width="3"',
    "ridge": 'stroke="#5a3b1e" stroke-width="4"',
    "fjord": 'stroke="#3a8fd0" stroke-width="4"',
    "lake": 'stroke="#3a8fd0" stroke-width="3"',
}
SIDE_COLOURS = {"allies": "#b59b5b", "germans": "#333333"}
NATION_COLOURS = {"german": "#222222", "british": "#b59b5b", "french": "#8fb8e8", "norwegian": "#3d8b3d", "polish": "#f4f4f4"}


class _Frame:
    def __init__(self, board: "Board", px_per_km: float, margin: float = 30.0):
        shapes = []
        for loc in board.locations():
            try:
                shapes.append(board.geometry(loc))
            except Exception:  # area without geometry
                continue
        xs = [c for g in shapes for c in (g.bounds[0], g.bounds[2])]
        ys = [c for g in shapes for c in (g.bounds[1], g.bounds[3])]
        self.x0, self.x1 = min(xs), max(xs)
        self.y0, self.y1 = min(ys), max(ys)
        self.k = px_per_km
        self.m = margin
        self.width = (self.x1 - self.x0) * self.k + 2 * margin
        self.height = (self.y1 - self.y0) * self.k + 2 * margin

    def pt(self, x: float, y: float) -> tuple[float, float]:
        return (x - self.x0) * self.k + self.m, (self.y1 - y) * self.k + self.m

    def path(self, geom) -> str:
        polys = list(geom.geoms) if isinstance(geom, MultiPolygon) else [geom]
        out = []
        for p in polys:
            if not isinstance(p, Polygon):
                continue
            pts = [self.pt(x, y) for x, y in p.exterior.coords]
            out.append("M" + " L".join(f"{x:.1f},{y:.1f}" for x, y in pts) + " Z")
        return " ".join(out)


def render_svg(
    board: "Board",
    state: "GameState | None" = None,
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
) -> str:
    """Return an SVG drawing of a board (and the units of a state, if given).

    ``viewer``: the side looking (its enemy's face-down counters show as '?');
    ``panel``: lines for a side panel of tracks; ``shade``: locations to tint (a ZoC);
    ``paths``: location sequences to draw as lines (lines of supply);
    ``stacks``: per location, (label, count, colour) markers for games that count identical
    pieces (Kampen om Norge's battalions) instead of placing units.
    """
    if px_per_km is None:
        px_per_km = 12.0 if board.kind == "hex" else 2.0
    fr = _Frame(board, px_per_km)
    hl = set(highlight)
    shaded = set(shade)
    panel = list(panel)
    panel_w = 170 if panel else 0
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{fr.width + panel_w:.0f}" height="{fr.height + 20:.0f}" '
        f'viewBox="0 0 {fr.width + panel_w:.0f} {fr.height + 20:.0f}" font-family="sans-serif">',
        f"<title>{escape(title or board.name)}</title>",
        '<rect width="100%" height="100%" fill="#ffffff"/>',
    ]
    centres: dict[str, tuple[float, float]] = {}
    for loc in board.locations():
        try:
            g = board.geometry(loc)
        except Exception:
            continue
        t = board.terrain(loc)
        colour = TERRAIN_COLOURS.get(t, "#eeeeee")
        if board.is_a(loc, "sweden"):
            colour = TERRAIN_COLOURS["sweden"]
        if isinstance(g, Point):
            x, y = fr.pt(g.x, g.y)
            out.append(f'<rect data-loc="{escape(loc)}" x="{x - 30:.1f}" y="{y - 14:.1f}" width="60" height="28" fill="#fff" stroke="#333"/>')
            centres[loc] = (x, y)
        else:
            stroke = ' stroke="#d00" stroke-width="2.5"' if loc in hl else ' stroke="#777" stroke-width="0.5"'
            out.append(f'<path data-loc="{escape(loc)}" d="{fr.path(g)}" fill="{colour}"{stroke}><title>{escape(board.label(loc))} {t}</title></path>')
            if loc in shaded:
                out.append(f'<path d="{fr.path(g)}" fill="#ff3030" fill-opacity="0.18" stroke="none"/>')
            c = g.representative_point() if board.kind == "area" else g.centroid
            centres[loc] = fr.pt(c.x, c.y)
    # border features
    seen = set()
    for a in board.locations():
        for b in board.neighbours(a):
            key = (a, b) if a < b else (b, a)
            if key in seen:
                continue
            seen.add(key)
            feats = board.border(a, b).features
            if not feats & set(FEATURE_STYLES):
                continue
            try:
                ga, gb = board.geometry(a), board.geometry(b)
            except Exception:
                continue
            if isinstance(ga, Point) or isinstance(gb, Point):
                continue
            for f in ("ridge", "fjord", "lake", "river"):
                if f in feats:
                    shared = ga.boundary.intersection(gb.boundary)
                    for seg in _lines(shared):
                        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in (fr.pt(*c) for c in seg.coords))
                        out.append(f'<polyline points="{pts}" fill="none" {FEATURE_STYLES[f]}/>')
            for f in ("road", "rail"):
                if f in feats and a in centres and b in centres:
                    (x1, y1), (x2, y2) = centres[a], centres[b]
                    out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" {FEATURE_STYLES[f]}/>')
    # places and labels
    for loc, (x, y) in centres.items():
        p = board.place(loc)
        kinds = p.kinds if p else frozenset()
        if "port" in kinds:
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="#1f4e9c"><title>port</title></circle>')
        if "town" in kinds or "point_city" in kinds:
            out.append(f'<rect x="{x - 3:.1f}" y="{y - 3:.1f}" width="6" height="6" fill="#a01010"/>')
        if "victory" in kinds:
            out.append(f'<text x="{x:.1f}" y="{y - 6:.1f}" font-size="9" text-anchor="middle" fill="#a01010">&#9733;{p.value if p else ""}</text>')
        if labels:
            name = p.name if p and p.name else ""
            if board.kind == "hex":
                out.append(f'<text x="{x:.1f}" y="{y + 10:.1f}" font-size="6" text-anchor="middle" fill="#555">{loc}</text>')
                if name:
                    out.append(f'<text x="{x:.1f}" y="{y + 18:.1f}" font-size="9" font-weight="bold" text-anchor="middle">{escape(name)}</text>')
            else:
                out.append(f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="10" text-anchor="middle">{escape(name or loc)}</text>')
    out += _air_ranges(board, fr)
    for path in paths:
        pts = " ".join(f"{centres[x][0]:.1f},{centres[x][1]:.1f}" for x in path if x in centres)
        out.append(f'<polyline points="{pts}" fill="none" stroke="#1a7f1a" stroke-width="2" stroke-dasharray="2,2"/>')
    if state is not None:
        out += _counters(board, state, centres, unit_text or {}, viewer)
    for loc, items in (stacks or {}).items():
        if loc not in centres:
            continue
        x, y = centres[loc]
        for i, (label, n, colour) in enumerate(items):
            yy = y + 8 + 15 * i
            out.append(f'<rect x="{x - 17:.1f}" y="{yy:.1f}" width="34" height="13" rx="3" fill="{colour}" stroke="#000" stroke-width="0.6"/>')
            out.append(f'<text x="{x:.1f}" y="{yy + 10:.1f}" font-size="9" text-anchor="middle" fill="#fff" font-weight="bold">{escape(label)} {n}</text>')
    if panel:
        x0 = fr.width + 10
        out.append(f'<rect x="{x0 - 5:.0f}" y="20" width="{panel_w - 10}" height="{18 * len(panel) + 16}" fill="#f7f7f2" stroke="#999"/>')
        for i, text in enumerate(panel):
            out.append(f'<text x="{x0:.0f}" y="{40 + 18 * i}" font-size="12">{escape(text)}</text>')
    out.append(f'<text x="8" y="{fr.height + 14:.0f}" font-size="11">{escape(title or board.name)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _air_ranges(board: "Board", fr: "_Frame") -> list[str]:
    """Kampen 2.3: each airfield's range line, and the "Fra Tyskland" line (dashed circles)."""
    proj = getattr(board, "projection", None)
    if proj is None:
        return []
    rings: list[tuple[str, tuple[float, float], float]] = []
    for p in board.places("airfield"):
        km = p.data.get("air_range_km") if p.data else None
        ll = p.data.get("lonlat") if p.data else None
        if km and ll:
            rings.append((p.name or p.location, ll, float(km)))  # type: ignore[arg-type]
    for name, (ll, km) in (getattr(board, "air_origins", {}) or {}).items():
        rings.append((name, ll, km))
    out = []
    for name, (lon, lat), km in rings:
        x, y = fr.pt(*proj.to_xy(lon, lat))
        r = km * fr.k
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="none" stroke="#8b3a1a" stroke-width="1" '
                   f'stroke-dasharray="6,4"><title>air range of {escape(str(name))}: {km:g} km</title></circle>')
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="#8b3a1a"><title>airfield {escape(str(name))}</title></circle>')
    return out


def _lines(geom) -> list[LineString]:
    if geom.is_empty:
        return []
    if isinstance(geom, LineString):
        return [geom]
    return [g for g in getattr(geom, "geoms", []) if isinstance(g, LineString)]


def _counters(board: "Board", state: "GameState", centres: Mapping[str, tuple[float, float]], text: Mapping[str, str],
              viewer: str | None = None) -> list[str]:
    out = []
    by_loc: dict[str, list] = {}
    for u in state.on_map():
        by_loc.setdefault(u.loc, []).append(u)  # type: ignore[arg-type]
    for loc, units in by_loc.items():
        if loc not in centres:
            continue
        x, y = centres[loc]
        for i, u in enumerate(sorted(units, key=lambda u: u.id)):
            dx, dy = x - 9 + 3 * i, y - 12 + 3 * i
            hidden = u.concealed and (viewer is None or viewer != u.side)
            fill = "#777" if hidden else NATION_COLOURS.get(u.nation, SIDE_COLOURS.get(u.side, "#999"))
            fg = "#fff" if fill in ("#222222", "#333333", "#777", "#3d8b3d") else "#000"
            label = "?" if hidden else (text.get(u.id) or u.id) + (f" {u.fatigue}" if u.fatigue else "")
            out.append(
                f'<g><rect x="{dx:.1f}" y="{dy:.1f}" width="18" height="18" rx="2" fill="{fill}" stroke="#000" stroke-width="0.6"/>'
                f'<text x="{dx + 9:.1f}" y="{dy + 12:.1f}" font-size="6" text-anchor="middle" fill="{fg}">{escape(label)}</text>'
                f"<title>{'face-down counter' if hidden else escape(u.id + ' ' + u.name + ' FP ' + str(u.fatigue))}</title></g>"
            )
    return out
