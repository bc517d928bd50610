"""Assault on Narvik on the analysis board (issue 54): the land games' figures, plus face-down
counters (11.0), a damaged ship (20.4) and a Puffer set up as a Base (20.6), a land unit
aboard a ship (20.2), the German AP (18.1), the initiative (9.0), and the action phase set
up to play on from."""

from __future__ import annotations

from typing import Any

from hexwar.games.common.analysis import LandAnalyst
from hexwar.games.narvik.state import ALLIES, GERMANS
from hexwar.rules.stacking import ABOARD
from hexwar.ui.analysis import Field

ACTION = "action"


class NarvikAnalyst(LandAnalyst):
    concealment = True
    flags = {"damaged": ("damaged (to Harstad; sunk if hit again)", "20.4", ("ship",)),
             "base": ("a Puffer set up as a supply Base", "20.6", ("ship",))}
    counters = {"ap": ("German air points", "18.1")}

    def fields(self, data: Any, piece: str) -> list[Field]:
        out = super().fields(data, piece)
        u = self.unit(data, piece)
        if u.loc is not None and self.t(u).kind != "ship":
            ships = tuple(s.id for s in data.at(u.loc) if s.side == u.side and self.t(s).kind == "ship")
            if ships:
                held = next((s for s, x in data.cargo.items() if x == u.id), "")
                out.append(Field("aboard", "aboard the ship", "choice", held, choices=("",) + ships, rule="20.2"))
        return out

    def tracks(self, data: Any) -> list[Field]:
        out = super().tracks(data)
        out.append(Field("initiative", "initiative", "choice", data.initiative, choices=(ALLIES, GERMANS), rule="9.0"))
        phases = (data.phase,) if data.phase == ACTION else (data.phase, ACTION)
        out.append(Field("phase", "phase (action: the side with the initiative acts)", "choice", data.phase,
                         choices=phases, rule="6.4, 9.0"))
        return out

    def apply(self, data: Any, piece: str | None, key: str, value: Any) -> None:
        g = self.game
        if piece is None and key == "initiative":
            data.initiative = value
            if data.phase == ACTION and not data.reacting:
                g.ask(data, value, ACTION)
        elif piece is None and key == "phase":
            if value != data.phase:  # to the action phase, the side with the initiative to act
                data.phase, data.step, data.combat, data.reacting, data.pending_pass, data.passes = ACTION, 0, None, False, False, 0
                g.ask(data, data.initiative, ACTION)
        elif piece is not None and key == "aboard":
            u = self.unit(data, piece)
            for ship in [s for s, x in data.cargo.items() if x == u.id]:
                del data.cargo[ship]
            self.flag(u, ABOARD, False)
            if value:
                if value in data.cargo:
                    raise ValueError(f"{value} already carries {data.cargo[value]} (one unit a ship, 20.2)")
                data.cargo[value] = u.id
                self.flag(u, ABOARD, True)
        else:
            super().apply(data, piece, key, value)

    def place(self, data: Any, piece: str, loc: str | None) -> str | None:
        for ship in [s for s, x in data.cargo.items() if x == piece]:
            del data.cargo[ship]  # a counter moved by hand leaves its ship
        return super().place(data, piece, loc)
