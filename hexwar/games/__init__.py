"""The games on the shared engine, one package each; ``hexwar.games.registry`` finds them."""
