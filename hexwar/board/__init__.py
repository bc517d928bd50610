"""Map backends behind one ``Board`` protocol: hexes and areas."""

from __future__ import annotations

from hexwar.board.areaboard import AreaBoard
from hexwar.board.base import Board, BoardError, Border, Place, SightAlternatives
from hexwar.board.hexboard import HexBoard
from hexwar.data.loader import Library, default_library

__all__ = ["AreaBoard", "Board", "BoardError", "Border", "HexBoard", "Place", "SightAlternatives", "load_board"]


def load_board(name: str, library: Library | None = None) -> Board:
    """Load a board of either kind by map name (``kind: hex_map`` or ``area_map``)."""
    lib = library or default_library()
    spec = lib.load("maps", name, ("hex_map", "area_map"))
    if spec.kind == "hex_map":
        return HexBoard(spec, str(lib.path("maps", name)))
    return AreaBoard.from_spec(spec, str(lib.path("maps", name)))
