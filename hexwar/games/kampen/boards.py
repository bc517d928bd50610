"""The boards Kampen om Norge can be played on: the Norway area map and its hex versions.

The hex versions are a declared conversion (``maps/nordland-hex.yaml``, issue 72): the top
third of the area map (S1) cut into hexes of a stated size, with one area step of the rules
made a stated number of hex steps (derived from the geography unless given). A name may
override either for a sweep: ``nordland-hex-km20``, ``nordland-hex-step3``,
``nordland-areas-km20`` (``hexwar.board.conversion``)."""

from __future__ import annotations

from functools import lru_cache
from typing import Iterator, Mapping

from hexwar.board.areaboard import AreaBoard
from hexwar.board.base import Board
from hexwar.board.conversion import converted, variant


class KampenBoards(Mapping[str, str]):
    """The boards by name, with what each is; a conversion's name with its parameters
    overridden (``nordland-hex-km20-step3``: hexes of 5 to 100 km, an area step of 1 to 50
    hexes) is a board too, though not listed."""

    LISTED = {
        "norway": "the Kampen om Norge area map (44 land areas)",
        "nordland-hex": "northern Norway in hexes cut from the area map at a declared scale (maps/nordland-hex.yaml)",
        "nordland-areas": "that hex map merged back into areas (AreaBoard.from_hexes)",
    }

    def __getitem__(self, name: str) -> str:
        if name in self.LISTED:
            return self.LISTED[name]
        base, over = variant(name)
        if base in self.LISTED and base != "norway" and over and not (base == "nordland-areas" and "area_step" in over) \
                and 5 <= over.get("hex_km", 15) <= 100 and 1 <= over.get("area_step", 1) <= 50:
            return f"{self.LISTED[base]}, with " + ", ".join(f"{k} {v:g}" for k, v in over.items())
        raise KeyError(name)

    def __contains__(self, name: object) -> bool:
        try:
            self[str(name)]
        except KeyError:
            return False
        return True

    def __iter__(self) -> Iterator[str]:
        return iter(self.LISTED)

    def __len__(self) -> int:
        return len(self.LISTED)


BOARDS = KampenBoards()


@lru_cache(maxsize=None)
def kampen_board(name: str = "norway") -> Board:
    """Return a board by name (see ``BOARDS``)."""
    if name == "norway":
        return AreaBoard.load("norway")
    if name in BOARDS:
        return converted(name)
    raise ValueError(f"unknown board {name!r}; boards: {', '.join(BOARDS)}")
