"""The conformance suite every game passes, shipped with hexwar so that a game's author runs it
from the game's own folder (issue 73).

In a test module of your game (``tests/test_conformance.py``)::

    from hexwar.testing import conformance_tests

    globals().update(conformance_tests("mygame"))

then ``pytest tests``: pytest collects the suite's tests, each variant of your game
(``GameInfo.conformance_variants``) a case of its own. The checks are plain functions too
(``hexwar.testing.conformance``), for a script or another test runner; only
``conformance_tests`` needs pytest.
"""

from hexwar.testing.conformance import (
    conformance_tests,
    declares_events_and_orders,
    fast_play_replays,
    own_bots_keep_invariants,
    random_play_keeps_every_guarantee,
    variants,
)

__all__ = ["conformance_tests", "declares_events_and_orders", "fast_play_replays", "own_bots_keep_invariants",
           "random_play_keeps_every_guarantee", "variants"]
