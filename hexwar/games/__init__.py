"""The games on the shared engine, one package each; ``hexwar.registry`` finds them."""
