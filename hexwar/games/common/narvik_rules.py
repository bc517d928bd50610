"""Assault on Narvik's numbering of the shared rules, which the skirmish ruleset (and the
Konflikt '47 scenarios it hosts) keeps: the sections each rule function cites, the nations
always in supply (19.2) and the longest line of supply (19.3)."""

from __future__ import annotations

from hexwar.rules.cites import (
    AssaultCites,
    CombatCites,
    FireCites,
    MoveCites,
    StackCites,
    SupplyCites,
    ZocCites,
)

MOVE = MoveCites(terrain="14.1", road="14.2", box="22.1", zoc_exit="12.1", blocked="14.1", min_move="14.1")
ZOC = ZocCites(zoc="12.0", concealed="12.0, 11.0", fatigue_limit="10.1, 12.0", amphibious="12.0, 20.3.1", aboard="13.1")
STACK = StackCites(limit="13.2", unlimited="13.2.1")
SUPPLY = SupplyCites(line="19.3", base="19.4", zoc="12.2")
#: artillery fire (16.1: the adjacent hex is never blocked) and naval bombardment (20.5)
ARTILLERY_FIRE, NAVAL_FIRE = FireCites(fire="16.1"), FireCites(fire="20.5")
ASSAULT = AssaultCites(strength="15.1", halved="20.3.1", afl="15.1", tanks="16.2", formation="17.0", artillery_alone="16.1")
COMBAT = CombatCites(crt="15.1")

MAX_SUPPLY_LINE = 10  # 19.3: a line of at most 10 hexes
ALWAYS_SUPPLIED = frozenset({"norwegian"})  # 19.2: Norwegian units are always in supply


class Cites:
    """The sections a game on Assault on Narvik's rules cites, by concern (``g.cites.move``)."""

    move = MOVE
    zoc = ZOC
    stack = STACK
    supply = SUPPLY
    fire = ARTILLERY_FIRE
    naval_fire = NAVAL_FIRE
    assault = ASSAULT
    combat = COMBAT
