"""An area map cut into hexes at a declared scale (issue 72): the hex board, the area board
merged back from it, and how far one area step goes on hexes.

A ``hex_conversion`` file (``maps/nordland-hex.yaml``) names the area map, the areas cut, the
hex size and ``area_step``: the hex steps one step of the area map becomes. ``derived`` measures
it on the hexes themselves: for every two neighbouring areas of the cut, the fewest steps over
land hexes between their towns (so the sea and the fjords the hexes go round count), and the
median of those. A game reads ``Conversion.area_step`` wherever its rules say "an adjacent
area" (Kampen om Norge: a round's move, a retreat, an escape, a card's range in areas).

A board name may override a parameter for a sweep: ``nordland-hex-km20`` is the same
conversion at 20 km a hex, ``nordland-hex-step3`` at three hex steps an area step, and
``nordland-areas-km20`` the areas merged back from the 20 km hexes.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import networkx as nx

from hexwar.board.scale import Conversion

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.board.areaboard import AreaBoard
    from hexwar.board.hexboard import HexBoard
    from hexwar.data.loader import Library

#: ``BASE[-kmN][-stepN]``: a conversion's board with its parameters overridden
VARIANT = re.compile(r"^(?P<base>[a-z][a-z0-9_]*(?:-[a-z][a-z0-9_]*)*?)(?:-km(?P<km>\d+(?:\.\d+)?))?(?:-step(?P<step>\d+))?$")
NOT_LAND = {"sea", "unusable", "box"}


def variant(name: str) -> tuple[str, dict[str, float]]:
    """A board name's base and the parameters it overrides.

    >>> variant("nordland-hex-km20-step3")
    ('nordland-hex', {'hex_km': 20.0, 'area_step': 3.0})
    >>> variant("nordland-areas")
    ('nordland-areas', {})
    """
    m = VARIANT.match(name)
    if m is None:
        return name, {}
    over: dict[str, float] = {}
    if m["km"]:
        over["hex_km"] = float(m["km"])
    if m["step"]:
        over["area_step"] = float(m["step"])
    return m["base"], over


def variant_name(base: str, hex_km: float | None = None, area_step: int | None = None) -> str:
    """The board name of a conversion with parameters overridden (``variant``'s inverse).

    >>> variant_name("nordland-hex", 20, 3)
    'nordland-hex-km20-step3'
    """
    return base + (f"-km{hex_km:g}" if hex_km is not None else "") + (f"-step{area_step}" if area_step is not None else "")


def land_graph(board: Any) -> "nx.Graph[str]":
    """The land locations of a board and the borders between them."""
    land = [a for a in board.locations() if board.terrain(a) not in NOT_LAND and not board.is_a(a, "unusable")]
    keep = set(land)
    g: nx.Graph[str] = nx.Graph()
    g.add_nodes_from(land)
    g.add_edges_from((a, b) for a in land for b in board.neighbours(a) if b in keep)
    return g


def measured_steps(ab: "AreaBoard", hb: "HexBoard", towns: dict[str, str]) -> tuple[int, ...]:
    """For every two neighbouring areas of the cut (``towns``: area -> its town's hex), the
    fewest steps over land hexes between their towns (an area pair the land does not join is
    left out)."""
    hexes = land_graph(hb)
    out = []
    for a in sorted(towns):
        for b in sorted(ab.neighbours(a)):
            if b in towns and a < b:
                try:
                    out.append(nx.shortest_path_length(hexes, towns[a], towns[b]))
                except (nx.NetworkXNoPath, nx.NodeNotFound):
                    continue
    return tuple(out)


def median_step(measured: tuple[int, ...]) -> int:
    """The median of the measured steps, a whole number of hex steps (a half rounds up).

    >>> median_step((2, 4, 5, 5, 7, 9)), median_step((4, 5))
    (5, 5)
    """
    if not measured:
        return 1
    return max(1, int(statistics.median(measured) + 0.5))


@dataclass(frozen=True)
class Converted:
    hexes: "HexBoard"
    areas: "AreaBoard"


@lru_cache(maxsize=16)
def _build(library: "Library", base: str, hex_km: float | None, area_step: int | None) -> Converted:
    from hexwar.board.areaboard import AreaBoard
    from hexwar.board.derive import hex_map_from_areas
    from hexwar.board.hexboard import HexBoard
    from hexwar.data.schemas import HexMapSpec

    spec = library.load("maps", base, "hex_conversion")
    km = float(hex_km if hex_km is not None else spec.hex_km.value)
    ab = AreaBoard.load(spec.from_map, library)
    doc = hex_map_from_areas(ab, km, spec.areas or None, name=variant_name(spec.name, hex_km, area_step))
    hb = HexBoard(HexMapSpec.model_validate(doc))
    cut = spec.areas or [a for a in ab.locations() if ab.terrain(a) not in NOT_LAND]
    at = {p["at"] for p in doc["places"]}
    towns = {a: next(h for h in doc["regions"][a] if h in at) for a in cut if any(h in at for h in doc["regions"].get(a, ()))}
    measured = measured_steps(ab, hb, towns)
    if area_step is not None:
        step, derived = area_step, False
    elif spec.area_step.value == "derived":
        step, derived = median_step(measured), True
    else:
        step, derived = int(spec.area_step.value), False
    conv = Conversion(variant_name(base, hex_km, area_step), spec.from_map, km, step, derived, measured)
    hb.conversion = conv
    merged_name = variant_name(spec.aggregated, hex_km, None)
    areas = AreaBoard.from_hexes(hb, doc["regions"], name=merged_name)
    areas.conversion = replace(conv, name=merged_name, area_step=1, derived=False, merged=True)
    return Converted(hb, areas)


def converted(name: str, library: "Library | None" = None) -> "HexBoard | AreaBoard":
    """The board a conversion's name asks for: its hexes (``nordland-hex[-kmN][-stepN]``) or
    the areas merged back from them (``nordland-areas[-kmN]``); ``KeyError`` for a name that
    is neither."""
    from hexwar.data.loader import default_library

    lib = library or default_library()
    base, over = variant(name)
    km = over.get("hex_km")
    step = over.get("area_step")
    for conv in conversions(lib):
        spec = lib.load("maps", conv, "hex_conversion")
        if base == spec.name:
            return _build(lib, conv, km, int(step) if step is not None else None).hexes
        if base == spec.aggregated and step is None:
            return _build(lib, conv, km, None).areas
    raise KeyError(name)


def conversions(library: "Library") -> list[str]:
    """The ``hex_conversion`` files under ``maps/`` (read by their ``kind`` line, without
    parsing the large maps beside them)."""
    out = []
    for name in library.names("maps"):
        path = library.path("maps", name)
        with path.open(encoding="utf-8") as f:
            head = f.read(4096)
        if re.search(r"^kind:\s*hex_conversion\s*$", head, re.M):
            out.append(name)
    return out


def board_scale(board: Any) -> str:
    """A board's scale in one sentence: its conversion's, else its hex size, else its areas'
    spacing (the fewest and most km between the centres of neighbouring land areas, and the
    median), measured on its own geometry."""
    conv = board.conversion
    if conv is not None:
        said: str = conv.scale()
        return said
    if board.kind == "hex":
        return f"{board.hex_km:g} km hexes" if board.hex_km else "hexes of no stated size"
    land = land_graph(board)
    gaps = []
    for a, b in land.edges:
        try:
            gaps.append(board.geometry(a).centroid.distance(board.geometry(b).centroid))
        except Exception:
            continue
    if not gaps or board.projection is None:
        return f"{land.number_of_nodes()} land areas"
    return (f"{land.number_of_nodes()} land areas; the centres of neighbouring areas are {min(gaps):.0f} to "
            f"{max(gaps):.0f} km apart (median {statistics.median(gaps):.0f} km)")
