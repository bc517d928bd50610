"""What a board cut from another declares of its scale (issue 72): ``Conversion``, carried by
the boards ``hexwar.board.conversion`` builds (``board.conversion``; None on a board drawn
as it is)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Conversion:
    """What a converted board declares: its scale and how an area step carries over."""

    name: str  # the board's name as asked (``nordland-hex-km20``)
    source_map: str  # the area map cut
    hex_km: float
    area_step: int  # hex steps an area step becomes (1 on the area board merged back)
    derived: bool  # area_step measured on the hexes (else stated in the file or the name)
    measured: tuple[int, ...] = ()  # the fewest land-hex steps between neighbouring towns
    merged: bool = False  # the areas merged back from the hexes (AreaBoard.from_hexes)

    def scale(self) -> str:
        """The conversion in one sentence, as a report opens with it."""
        if self.merged:
            return (f"areas merged back from {self.hex_km:g} km hexes of the {self.source_map} area map "
                    f"(`AreaBoard.from_hexes`): a move is one area, as on the area map")
        how = (f"derived: the median of the fewest land-hex steps between the towns of neighbouring areas, "
               f"{min(self.measured)} to {max(self.measured)} over {len(self.measured)} borders"
               if self.derived else "set by the board's name or file")
        return (f"{self.hex_km:g} km hexes cut from the {self.source_map} area map; one area step of the rules is "
                f"{self.area_step} hex step{'s' if self.area_step != 1 else ''} "
                f"(about {self.area_step * self.hex_km:g} km; {how})")
