"""Assault on Narvik (hex): the whole game on the shared engine."""

from hexwar.games.narvik.game import NarvikGame, Switches, narvik_game

__all__ = ["NarvikGame", "Switches", "narvik_game"]
