"""The counters' colours of the games of the 1940 campaign (Assault on Narvik, the Europa
variant, the skirmish ruleset and Konflikt '47): a nation's colour, else its side's. The
renderer takes a game's palette (``render_svg(..., palette=PALETTE)``); a game that gives none
draws each side in a colour of its own."""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

#: nation -> colour, then side -> colour (the renderer reads a counter's nation first)
PALETTE: Mapping[str, str] = MappingProxyType({
    "german": "#2b2b2b", "british": "#c2a764", "french": "#8fb8e8", "norwegian": "#3d8b3d", "polish": "#f4f4f4",
    "allies": "#b59b5b", "germans": "#333333",
})
