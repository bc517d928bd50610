"""The Konflikt '47 table on a board (digest 4.1, 4.2): the same 48 x 72 inch table as 3-inch
hexes or as areas cut from them, and every distance the templates speak of in inches, measured
on either: hexes count 3 inches a step; areas count steps by the scale's table.

The north player's own edge is row 01, the south player's the last row; left and right are
each player's own, looking across the table (north's left is the east edge).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from hexwar.board.areaboard import AreaBoard
from hexwar.board.base import Board
from hexwar.board.hexboard import HexBoard
from hexwar.data.loader import Library, default_library

BOARDS = {
    "table": "the 48 x 72 inch table in 3-inch hexes (24 x 15)",
    "table-areas": "the same table cut into 18 areas of 4 x 5 hexes (AreaBoard.from_hexes)",
}
EDGES = ("north", "south")
AREA_COLUMNS, AREA_ROWS = 4, 5  # hexes per area, across and down


@dataclass
class Table:
    """A board with what the templates measure on it."""

    board: Board
    name: str
    inches: int  # per hex step
    steps: dict[int, int]  # area board: "within d inches" -> at most this many steps
    hexes: bool
    rows: int  # the table's depth in hex rows
    depth: dict[str, dict[str, float]]  # location -> edge -> inches from that edge
    edge_locs: dict[str, list[str]]  # north / south / east / west -> locations on that edge
    centre: str

    def _steps(self, d: int) -> int:
        keys = sorted(self.steps)
        return self.steps[next((k for k in keys if k >= d), keys[-1])]

    def within(self, a: str, b: str, inches: int) -> bool:
        """``b`` within ``inches`` of ``a`` (3" on a hex board: the hex or the next one)."""
        if self.hexes:
            return self.board.distance(a, b) * self.inches <= inches
        return self.board.distance(a, b) <= self._steps(inches)

    def at_least(self, a: str, b: str, inches: int) -> bool:
        """``a`` and ``b`` at least ``inches`` apart."""
        if self.hexes:
            return self.board.distance(a, b) * self.inches >= inches
        return self.board.distance(a, b) >= max(1, self._steps(inches))

    def zone(self, edge: str, inches: int) -> list[str]:
        """The set-up zone of the player whose edge is ``edge``: within ``inches`` of it."""
        return [loc for loc, d in self.depth.items() if d[edge] <= inches]

    def side_edge(self, edge: str, hand: str) -> list[str]:
        """The table edge on the ``left`` or ``right`` hand of the player at ``edge``."""
        east = (edge == "north") == (hand == "left")
        return self.edge_locs["east" if east else "west"]


def _build(board: Board, name: str, members: dict[str, list[str]], inches: int, steps: dict[int, int]) -> Table:
    rows = max(int(h[2:]) for hs in members.values() for h in hs)
    cols = max(int(h[:2]) for hs in members.values() for h in hs)
    depth: dict[str, dict[str, float]] = {}
    edge_locs: dict[str, list[str]] = {e: [] for e in ("north", "south", "east", "west")}
    for loc, hs in members.items():
        rs = [int(h[2:]) for h in hs]
        cs = [int(h[:2]) for h in hs]
        mean = sum(rs) / len(rs)
        depth[loc] = {"north": (mean - 1) * inches, "south": (rows - mean) * inches}
        for e, hit in (("north", 1 in rs), ("south", rows in rs), ("west", 1 in cs), ("east", cols in cs)):
            if hit:
                edge_locs[e].append(loc)
    mid_c, mid_r = (cols + 1) // 2, (rows + 1) // 2
    centre = next(loc for loc, hs in members.items() if f"{mid_c:02d}{mid_r:02d}" in hs)
    return Table(board, name, inches, steps, len(members) == sum(len(h) for h in members.values()), rows, depth,
                 {e: sorted(v) for e, v in edge_locs.items()}, centre)


@lru_cache(maxsize=None)
def konflikt_table(name: str = "table", library: Library | None = None) -> Table:
    """Return the table by board name (see ``BOARDS``), with the scale of the templates file."""
    from hexwar.board import load_board

    lib = library or default_library()
    spec = lib.load("tables", "konflikt/templates", "konflikt_templates")
    inches = int(spec.scale["inches_per_hex"].value)
    steps = {int(k): int(v) for k, v in spec.scale["area_steps"].value.items()}
    hb = load_board("konflikt/table", lib)
    assert isinstance(hb, HexBoard)
    if name == "table":
        return _build(hb, name, {h: [h] for h in hb.locations() if hb.terrain(h) != "box"}, inches, steps)
    if name == "table-areas":
        part: dict[str, list[str]] = {}
        for h in hb.locations():
            c, r = int(h[:2]), int(h[2:])
            part.setdefault("abcdefghij"[(c - 1) // AREA_COLUMNS] + str((r - 1) // AREA_ROWS + 1), []).append(h)
        ab = AreaBoard.from_hexes(hb, part, name="konflikt-table-areas")
        return _build(ab, name, part, inches, steps)
    raise ValueError(f"unknown board {name!r}; boards: {', '.join(BOARDS)}")
