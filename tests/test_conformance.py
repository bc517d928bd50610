"""One conformance suite for every registered game (OpenSpiel's random simulation test is the
model): a game gets it by registering.

The suite itself ships with hexwar (``hexwar.testing``, issue 73), so that a game's author runs
the very same checks from the game's own folder; here it runs over every registered game and
each of its variants (scenario, board, switches). What it checks, and why, is written in
``hexwar/testing/conformance.py``: random legal play to the end with every offered order
accepted and every other one refused with the state unchanged, independent copies, the JSON
round trip, event schemas, the invariants, undo, replay equal to play (also through a save),
``run_fast`` equal to play, and the game's own fast bots within its invariants.
"""

from __future__ import annotations

from hexwar.testing import conformance_tests

globals().update(conformance_tests())
