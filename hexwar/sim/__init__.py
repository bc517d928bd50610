"""Batch simulation and comparison reports (issue 7): seeded games by the thousand on local
cores or a Dask cluster, and area-vs-hex / game-vs-game reports with figures."""

from hexwar.sim.runner import game_seed, play_one, simulate, summary
from hexwar.sim.setups import Setup, parse_setup

__all__ = ["Setup", "game_seed", "parse_setup", "play_one", "simulate", "summary"]
