"""Victory levels (Assault on Narvik 25.1; A43)."""

from __future__ import annotations

#: 25.1 with the signs reconstructed; the bands overlap at +-10 and A43 reads +-10 as marginal.
LEVELS = (
    (-10**9, -11, "Allied Strategic Triumph"),
    (-10, -6, "Allied Marginal Victory"),
    (-5, 5, "Draw"),
    (6, 10, "German Marginal Victory"),
    (11, 10**9, "Allied Disaster"),
)


def victory_level(german_vp: int, allied_vp: int) -> tuple[int, str]:
    """Return the VP differential (German - Allied) and the level it gives (25.1).

    >>> victory_level(3, 20)
    (-17, 'Allied Strategic Triumph')
    >>> victory_level(10, 0)
    (10, 'German Marginal Victory')
    """
    diff = german_vp - allied_vp
    for lo, hi, name in LEVELS:
        if lo <= diff <= hi:
            return diff, name
    raise AssertionError(diff)  # pragma: no cover


def winner_of(level: str) -> str | None:
    """Return the side a victory level favours (None for a draw)."""
    if level.startswith("Allied Strategic") or level.startswith("Allied Marginal"):
        return "allies"
    if level.startswith("German") or level == "Allied Disaster":
        return "germans"
    return None
