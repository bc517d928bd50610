"""hexwar."""
