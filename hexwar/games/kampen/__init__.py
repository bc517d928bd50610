"""Kampen om Norge (Vega Forlag 2012): the area card game on the shared engine."""

from hexwar.games.kampen.game import ALLIES, FACTIONS, GERMANS, NORWAY, KampenGame, kampen_game

__all__ = ["ALLIES", "FACTIONS", "GERMANS", "NORWAY", "KampenGame", "kampen_game"]
