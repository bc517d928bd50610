"""The boards Kampen om Norge can be played on: the Norway area map and its hex versions."""

from __future__ import annotations

from functools import lru_cache

from hexwar.board.areaboard import AreaBoard
from hexwar.board.base import Board
from hexwar.board.derive import hex_map_from_areas
from hexwar.board.hexboard import HexBoard
from hexwar.data.schemas import HexMapSpec

#: The top third of the board (S1), cut into hexes for the hex versions
NORTH = ("narvik", "bjornfjell", "mosjoen", "tromso", "bardufoss", "gratangen", "harstad", "tysfjord", "bodo",
         "mo_i_rana", "finnmark")
HEX_KM = 15.0

BOARDS = {
    "norway": "the Kampen om Norge area map (44 land areas)",
    "nordland-hex": f"northern Norway in {HEX_KM:g} km hexes, cut from the area map's geography",
    "nordland-areas": "that hex map aggregated back into areas (AreaBoard.from_hexes)",
}


@lru_cache(maxsize=None)
def kampen_board(name: str = "norway") -> Board:
    """Return a board by name (see ``BOARDS``)."""
    if name == "norway":
        return AreaBoard.load("norway")
    if name in ("nordland-hex", "nordland-areas"):
        doc = hex_map_from_areas(AreaBoard.load("norway"), HEX_KM, NORTH, name="nordland-hex")
        hb = HexBoard(HexMapSpec.model_validate(doc))
        if name == "nordland-hex":
            return hb
        return AreaBoard.from_hexes(hb, doc["regions"], name="nordland-areas")
    raise ValueError(f"unknown board {name!r}; boards: {', '.join(BOARDS)}")
