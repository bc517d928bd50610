"""Bots behind one interface: ``choose(state, legal_orders) -> order``."""

from hexwar.ai.random_bot import RandomBot

__all__ = ["RandomBot"]
