"""Kampen om Norge, phase by phase (4): movement (4.1), combat (4.2), reinforcement (4.3) and
new cards with the end of the round (4.4); ``hexwar.games.kampen.sequence`` lists them."""
