"""The ship cards of Kampen om Norge's advanced game (6.1) and the dummies (7.0), as the fleet
file lists them: what a ship is, before any rule asks where it is or what it may do."""

from __future__ import annotations

from dataclasses import dataclass

from hexwar.games.kampen.schemas import KampenFleetSpec, ShipClassSpec
from hexwar.games.kampen.state import ALLIES, GERMANS, NORWAY

DUMMY = "dummy"


@dataclass(frozen=True)
class ShipCard:
    """One ship card of a fleet (6.1), or a dummy ship (``cls`` None)."""

    id: int
    owner: str
    name: str
    type: str
    cls: ShipClassSpec | None

    @property
    def dummy(self) -> bool:
        return self.cls is None


def build_fleet(spec: KampenFleetSpec) -> list[ShipCard]:
    """Every ship card of the three fleets, then the dummies (7.0), numbered in that order."""
    out: list[ShipCard] = []
    for f in (GERMANS, NORWAY, ALLIES):
        for s in spec.fleets.get(f, []):
            out.append(ShipCard(len(out), f, s.name, s.type, spec.classes[s.type]))
    for f, n in spec.dummies.items():
        for i in range(n.count):
            out.append(ShipCard(len(out), f, f"dummy {i + 1}", DUMMY, None))
    return out
