"""The local web board (hexwar play --web): a page and a JSON API over the play loop."""
