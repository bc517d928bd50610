"""How the Europa "Narvik" variant names its places and chances in sentences: a hex with its
place name, a die's band with its provenance, chances as percentages."""

from __future__ import annotations

from typing import Any

_NAMES: dict[str, str] = {}


def _names() -> dict[str, str]:
    """Hex -> place name on the Europa map (loaded once), for sentences players can read."""
    if not _NAMES:
        from hexwar.board import load_board

        _NAMES.update({p.location: p.name for p in load_board("europa").places() if p.name})
    return _NAMES


def at(h: Any) -> str:
    """A hex with its place name where it has one: '2508 (Narvik)'."""
    name = _names().get(str(h))
    return f"{h} ({name})" if name else str(h)


def said(value: Any, source: str) -> str:
    """A chart value as the glossary says it, ``(ours)`` where its provenance is ``authored``."""
    return f"{value} (ours)" if "authored" in source else f"{value}"


def chances(dist: Any) -> str:
    """(result, chance) pairs as "retreat 50%, eliminated 17%"."""
    return ", ".join(f"{r} {float(p):.0%}" for r, p in dist)


def band_words(bands: Any, result: str) -> str:
    """The die rolls of a band chart that give ``result`` (1-4), with provenance."""
    b = next(x for x in bands if x.result == result)
    return said(f"{b.lo}-{b.hi}" if b.lo != b.hi else f"{b.lo}", b.source)
