"""Vestfjord Patrol passes the conformance suite every hexwar game passes (hexwar.testing):
random legal play to the end, replay equals play, the JSON round trip, copies independent,
refused orders leaving the state as it was, the game's own bots within its invariants.

Run from this folder, with the game importable (installed, or ``PYTHONPATH=.`` and
``HEXWAR_GAMES=vestfjord``)::

    python -m pytest tests
"""

from hexwar.testing import conformance_tests

globals().update(conformance_tests("vestfjord"))
