"""Set-up helpers for Assault on Narvik position tests: clear the map, put units, load ships."""

from __future__ import annotations

from hexwar.games.narvik.state import HARSTAD
from hexwar.rules.stacking import ABOARD


def clear(data, keep=()):
    """Take every unit on the map off it (Harstad's box is kept), and empty the ships."""
    for u in data.units.values():
        if u.loc is not None and u.loc != HARSTAD and u.id not in keep:
            data.remove(u.id, "removed")
    data.cargo = {}


def put(data, uid, loc, fatigue=0, concealed=False):
    data.place(uid, loc)
    data.units[uid].fatigue = fatigue
    data.units[uid].concealed = concealed


def loaded(data, ship, unit, at):
    """Put ``ship`` at ``at`` carrying ``unit`` (20.2), free to move."""
    put(data, ship, at)
    put(data, unit, at)
    data.units[unit].flags.append(ABOARD)
    data.units[ship].flags = [f for f in data.units[ship].flags if f != "no_move"]
    data.cargo[ship] = unit
