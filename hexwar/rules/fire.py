"""Line of fire for artillery (Assault on Narvik 16.1) and naval bombardment (20.5).

Range counts the target and not the firer's location. Fire may not cross a ridge line
unless the firer is adjacent to the target (16.1; ships get no such exception, A32);
fire directly along a ridge hexside is blocked too (16.1: 1813 -> 1911). Where the line
runs along a hexside that is not a ridge, the firer may take either side of it: the fire
is blocked only if both sides cross a ridge.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Iterable

from hexwar.rules.cites import FireCites
from hexwar.rules.ledger import Ledger

if TYPE_CHECKING:  # pragma: no cover
    from hexwar.board.base import Board


def line_of_fire(board: "Board", src: str, dst: str, max_range: int, cites: FireCites,
                 adjacent_exception: bool = True) -> Ledger:
    """Return the fire ledger: ``total`` is True if ``src`` may fire on ``dst``; each line
    cites the game's section for this fire (``cites``).

    >>> from hexwar.board import load_board
    >>> b, c = load_board("fixtures/skirmish"), FireCites(fire="16.1")
    >>> [line_of_fire(b, s, d, 2, c).total for s, d in (("1610", "1612"), ("1813", "1911"), ("2305", "2406"))]
    [False, False, True]
    """
    sec = cites.fire
    led = Ledger(f"line of fire {board.label(src)} > {board.label(dst)}")
    dist = board.distance(src, dst)
    led.add("distance (firer's hex excluded, target included)", dist, sec)
    if dist > max_range:
        led.add(f"beyond range {max_range}", None, sec)
        led.total = False
        return led
    if dist <= 1 and adjacent_exception:
        led.add("adjacent to the target: ridges do not block", None, sec)
        led.total = True
        return led
    sight = board.sight(src, dst)
    along = [b for b in sight.along if b.has("ridge")]
    if along:
        led.add(f"fire runs along the ridge {along[0].a}/{along[0].b}", None, sec)
        led.total = False
        return led
    for alt in sight.alternatives:
        ridges = [b for b in alt if b.has("ridge")]
        if not ridges:
            path = " ".join(f"{b.a}/{b.b}" for b in alt)
            led.add(f"clear: crosses {path}", None, sec)
            led.total = True
            return led
        led.add(f"crosses the ridge {ridges[0].a}/{ridges[0].b}", None, sec)
    led.total = False
    return led


#: what ``can_fire`` asks ``line_of_fire`` for: its answer only, no section shown
_UNCITED = FireCites(fire="")


_CAN_FIRE: "weakref.WeakKeyDictionary[object, dict[tuple[str, str, int, bool], bool]]" = weakref.WeakKeyDictionary()


def _fire_answers(board: "Board") -> dict[tuple[str, str, int, bool], bool]:
    """``can_fire``'s answers kept for a board."""
    per_board = _CAN_FIRE.get(board)
    if per_board is None:
        per_board = _CAN_FIRE[board] = {}
    return per_board


def can_fire(board: "Board", src: str, dst: str, max_range: int, adjacent_exception: bool = True) -> bool:
    """Return whether fire from ``src`` reaches ``dst`` (16.1 / 20.5); the map decides, so
    each answer is kept for the board."""
    per_board = _fire_answers(board)
    key = (src, dst, max_range, adjacent_exception)
    ok = per_board.get(key)
    if ok is None:  # out of range needs no ledger (line_of_fire's first test)
        ok = per_board[key] = board.distance(src, dst) <= max_range and bool(
            line_of_fire(board, src, dst, max_range, _UNCITED, adjacent_exception).total)
    return ok


def fire_targets(board: "Board", src: str, targets: Iterable[str], max_range: int,
                 adjacent_exception: bool = True) -> tuple[str, ...]:
    """Return the ``targets`` fire from ``src`` reaches (``can_fire``), in their order: the
    answers kept for the board read in one pass.

    >>> from hexwar.board import load_board
    >>> fire_targets(load_board("fixtures/skirmish"), "1813", ["1911", "1912", "2406", "1814"], 2)
    ('1912', '1814')
    """
    known = _fire_answers(board)
    out = []
    for dst in targets:
        ok = known.get((src, dst, max_range, adjacent_exception))
        if ok is None:
            ok = can_fire(board, src, dst, max_range, adjacent_exception)
        if ok:
            out.append(dst)
    return tuple(out)


_ZONES: "weakref.WeakKeyDictionary[object, dict[tuple[str, int, bool], frozenset[str]]]" = weakref.WeakKeyDictionary()


def fire_zone(board: "Board", src: str, max_range: int, adjacent_exception: bool = True) -> frozenset[str]:
    """Return every location fire from ``src`` reaches (``can_fire``'s answer for each; never
    an off-map box, which no line of fire runs into), once per board: a decision asks which
    of a side's guns reach which enemy hexes, and most pairs are out of range (16.1, 20.5)."""
    per_board = _ZONES.get(board)
    if per_board is None:
        per_board = _ZONES[board] = {}
    key = (src, max_range, adjacent_exception)
    zone = per_board.get(key)
    if zone is None:
        zone = per_board[key] = frozenset(
            x for x in board.locations()
            if x != src and not board.is_a(x, "box") and board.distance(src, x) <= max_range
            and can_fire(board, src, x, max_range, adjacent_exception))
    return zone
