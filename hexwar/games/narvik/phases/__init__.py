"""Assault on Narvik, phase by phase (6.0): each module holds one part of the sequence of play
and the decisions it asks for; ``hexwar.games.narvik.sequence`` puts them in order."""
