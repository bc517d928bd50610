"""Hex coordinates: offset ids ``CCRR`` <-> axial/cube, neighbours, hexsides, distance, lines.

Grid convention (reconstructed from the cited hexes of Assault on Narvik, see
``../shared/rules/assault-on-narvik.md`` "Cited hexes"): flat-topped hexes in columns,
ids ``CCRR`` (two digits of column, then two of row), and **odd columns sit half a hex
lower than even ones** ("odd-q" in Red Blob Games' terms). It is the only convention under
which 2008/2107 and 1711/1812 are adjacent, as rules 20.1 and 20.6 require.

Axial coordinates ``(q, r)`` are used internally; ``q`` is the column and ``r`` runs down
the NW-SE diagonal, so the six directions are uniform shifts:

====  ==========  =========
dir   name        (dq, dr)
====  ==========  =========
0     N           (0, -1)
1     NE          (+1, -1)
2     SE          (+1, 0)
3     S           (0, +1)
4     SW          (-1, +1)
5     NW          (-1, 0)
====  ==========  =========

>>> neighbour_ids("2008")
['2007', '2107', '2108', '2009', '1908', '1907']
>>> distance_ids("1610", "1612")
2
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterator, NamedTuple


DIRECTIONS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
DIRECTION_NAMES: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")
SQRT3 = math.sqrt(3.0)


class Axial(NamedTuple):
    """Axial hex coordinate (q = column, r = diagonal row)."""

    q: int
    r: int

    @property
    def s(self) -> int:
        """Return the third cube coordinate (q + r + s == 0)."""
        return -self.q - self.r


class HexIdError(ValueError):
    """A hex id that is not ``CCRR``-shaped."""


@dataclass(frozen=True)
class HexGrid:
    """An offset-id scheme: digits per coordinate (2 gives ``CCRR``)."""

    digits: int = 2

    def parse(self, hex_id: str) -> tuple[int, int]:
        """Return ``(column, row)`` of an offset id.

        >>> HexGrid().parse("1812")
        (18, 12)
        """
        d = self.digits
        if len(hex_id) != 2 * d or not hex_id.isdigit():
            raise HexIdError(f"hex id {hex_id!r} is not {'C' * d}{'R' * d} ({2 * d} digits)")
        return int(hex_id[:d]), int(hex_id[d:])

    def format(self, col: int, row: int) -> str:
        """Return the offset id of ``(column, row)``.

        >>> HexGrid().format(7, 3)
        '0703'
        """
        d = self.digits
        if col < 0 or row < 0 or col >= 10**d or row >= 10**d:
            raise HexIdError(f"column {col}, row {row} has no {2 * d}-digit hex id")
        return f"{col:0{d}d}{row:0{d}d}"

    def to_axial(self, hex_id: str) -> Axial:
        """Return the axial coordinate of an offset id."""
        col, row = self.parse(hex_id)
        return offset_to_axial(col, row)

    def from_axial(self, a: Axial | tuple[int, int]) -> str:
        """Return the offset id of an axial coordinate."""
        col, row = axial_to_offset(a[0], a[1])
        return self.format(col, row)


DEFAULT_GRID = HexGrid(2)


def offset_to_axial(col: int, row: int) -> Axial:
    """Convert odd-q offset (odd columns lower) to axial.

    >>> offset_to_axial(20, 8), offset_to_axial(21, 7)
    (Axial(q=20, r=-2), Axial(q=21, r=-3))
    """
    return Axial(col, row - (col - (col & 1)) // 2)


def axial_to_offset(q: int, r: int) -> tuple[int, int]:
    """Convert axial to odd-q offset ``(column, row)``."""
    return q, r + (q - (q & 1)) // 2


def neighbour(a: Axial | tuple[int, int], direction: int) -> Axial:
    """Return the neighbour of ``a`` in ``direction`` (0 = N, clockwise)."""
    dq, dr = DIRECTIONS[direction]
    return Axial(a[0] + dq, a[1] + dr)


def neighbours(a: Axial | tuple[int, int]) -> list[Axial]:
    """Return the six neighbours of ``a`` in direction order N, NE, SE, S, SW, NW."""
    return [Axial(a[0] + dq, a[1] + dr) for dq, dr in DIRECTIONS]


def direction_between(a: Axial | tuple[int, int], b: Axial | tuple[int, int]) -> int:
    """Return the direction from ``a`` to its neighbour ``b``; ``ValueError`` if not adjacent."""
    d = (b[0] - a[0], b[1] - a[1])
    try:
        return DIRECTIONS.index(d)
    except ValueError:
        raise ValueError(f"{a} and {b} are not adjacent") from None


def distance(a: Axial | tuple[int, int], b: Axial | tuple[int, int]) -> int:
    """Return the hex distance between two axial coordinates."""
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbour_ids(hex_id: str, grid: HexGrid = DEFAULT_GRID) -> list[str]:
    """Return the ids of the six neighbours (N, NE, SE, S, SW, NW); off-grid ones skipped."""
    out = []
    for n in neighbours(grid.to_axial(hex_id)):
        col, row = axial_to_offset(*n)
        if col >= 0 and row >= 0 and col < 10**grid.digits and row < 10**grid.digits:
            out.append(grid.format(col, row))
    return out


def distance_ids(a: str, b: str, grid: HexGrid = DEFAULT_GRID) -> int:
    """Return the hex distance between two offset ids."""
    return distance(grid.to_axial(a), grid.to_axial(b))


# --- hexsides ---------------------------------------------------------------------------


class Hexside(NamedTuple):
    """A hexside, canonically the N, NE or SE side (d in 0..2) of hex ``(q, r)``."""

    q: int
    r: int
    d: int

    def hexes(self) -> tuple[Axial, Axial]:
        """Return the two hexes that share this side."""
        a = Axial(self.q, self.r)
        return a, neighbour(a, self.d)


def hexside(a: Axial | tuple[int, int], direction: int) -> Hexside:
    """Return the canonical hexside on ``direction`` of hex ``a``.

    >>> hexside((0, 0), 3) == hexside((0, 1), 0)
    True
    """
    if direction < 3:
        return Hexside(a[0], a[1], direction)
    n = neighbour(a, direction)
    return Hexside(n.q, n.r, direction - 3)


def hexside_between(a: Axial | tuple[int, int], b: Axial | tuple[int, int]) -> Hexside:
    """Return the hexside shared by two adjacent hexes."""
    return hexside(a, direction_between(a, b))


def hexside_key(a: str, b: str) -> str:
    """Return the canonical text key of the side between two hex ids: ``"lower/higher"``.

    >>> hexside_key("1810", "1710")
    '1710/1810'
    """
    return f"{a}/{b}" if a < b else f"{b}/{a}"


# --- ranges and lines -------------------------------------------------------------------


def ring(center: Axial | tuple[int, int], radius: int) -> list[Axial]:
    """Return the hexes at exactly ``radius`` from ``center`` (radius 0 gives the centre)."""
    if radius == 0:
        return [Axial(center[0], center[1])]
    out = []
    q, r = center[0] + DIRECTIONS[4][0] * radius, center[1] + DIRECTIONS[4][1] * radius
    for d in (2, 1, 0, 5, 4, 3):  # walk the ring from its SW corner
        dq, dr = DIRECTIONS[d]
        for _ in range(radius):
            out.append(Axial(q, r))
            q, r = q + dq, r + dr
    return out


def hex_range(center: Axial | tuple[int, int], radius: int) -> Iterator[Axial]:
    """Yield every hex within ``radius`` of ``center``."""
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            yield Axial(center[0] + dq, center[1] + dr)


def _cube_round(x: float, y: float, z: float) -> Axial:
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    return Axial(int(rx), int(ry))


def line(a: Axial | tuple[int, int], b: Axial | tuple[int, int], nudge: float = 1e-6) -> list[Axial]:
    """Return the hexes on the straight line from ``a`` to ``b`` (both included).

    ``nudge`` shifts the line slightly off the centres so that a line running exactly
    along a hexside falls to one side; call with ``-nudge`` for the other side.
    """
    n = distance(a, b)
    if n == 0:
        return [Axial(a[0], a[1])]
    ax, ay, az = a[0] + nudge, a[1] + nudge, -a[0] - a[1] - 2 * nudge
    bx, by, bz = b[0] + nudge, b[1] + nudge, -b[0] - b[1] - 2 * nudge
    out = []
    for i in range(n + 1):
        t = i / n
        out.append(_cube_round(ax + (bx - ax) * t, ay + (by - ay) * t, az + (bz - az) * t))
    return out


@dataclass(frozen=True)
class SightLine:
    """The hexsides a straight line between two hex centres crosses.

    ``sides`` holds one alternative per side of a line that runs along hexsides (one
    alternative when it never does); ``along`` the hexsides the line runs exactly along.
    """

    sides: tuple[tuple[Hexside, ...], ...]
    along: tuple[Hexside, ...]


def sight_line(a: Axial | tuple[int, int], b: Axial | tuple[int, int]) -> SightLine:
    """Return the hexsides crossed by the line from ``a`` to ``b`` (rule 16.1 line of fire).

    >>> sl = sight_line((18, 4), (19, 2))   # 1813 -> 1911 runs along a hexside
    >>> len(sl.sides), len(sl.along)
    (2, 1)
    """
    alts: list[tuple[Hexside, ...]] = []
    paths = [line(a, b, +1e-6), line(a, b, -1e-6)]
    for p in paths:
        alts.append(tuple(hexside_between(p[i], p[i + 1]) for i in range(len(p) - 1)))
    along: list[Hexside] = []
    if paths[0] != paths[1]:
        # The line runs along an edge where the two nudged paths split: the hexside between
        # the two hexes that the nudges chose is the one the line runs along.
        for h0, h1 in zip(paths[0], paths[1]):
            if h0 != h1 and distance(h0, h1) == 1:
                along.append(hexside_between(h0, h1))
    uniq = tuple(dict.fromkeys(alts))
    return SightLine(uniq, tuple(along))


# --- geometry (no shapely here; see board.geometry) -------------------------------------


def center_xy(a: Axial | tuple[int, int], hex_km: float = 1.0) -> tuple[float, float]:
    """Return the centre of a hex in a plane with x east and y north, hexes ``hex_km`` apart."""
    size = hex_km / SQRT3  # circumradius; centre-to-centre spacing = sqrt(3) * size
    x = size * 1.5 * a[0]
    y = -size * SQRT3 * (a[1] + a[0] / 2.0)
    return x, y


def corners_xy(a: Axial | tuple[int, int], hex_km: float = 1.0) -> list[tuple[float, float]]:
    """Return the six corners of a flat-topped hex, counter-clockwise from east."""
    cx, cy = center_xy(a, hex_km)
    size = hex_km / SQRT3
    return [(cx + size * math.cos(math.pi / 3 * i), cy + size * math.sin(math.pi / 3 * i)) for i in range(6)]


def hexside_segment(side: Hexside, hex_km: float = 1.0) -> tuple[tuple[float, float], tuple[float, float]]:
    """Return the two end points of a hexside."""
    a, _ = side.hexes()
    c = corners_xy(a, hex_km)
    # corners counter-clockwise from east: 0 E, 1 NE-top, 2 NW-top, 3 W, 4 SW-bottom, 5 SE-bottom
    # side N = corners 1-2, NE = 0-1, SE = 5-0
    pairs = {0: (1, 2), 1: (0, 1), 2: (5, 0)}
    i, j = pairs[side.d]
    return c[i], c[j]
