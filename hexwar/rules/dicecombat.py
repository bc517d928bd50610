"""Dice-pool combat (Kampen om Norge 4.2): battalion dice, fjord halving, every 6 kills,
higher total wins, ties to the defender. Exact outcome distributions by enumeration.

A rule function: it knows no board and no game, so any game with a dice-pool fight uses it.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Iterable

#: 4.2: a side gets dice from at most this many battalions per combat
BATTALION_CAP = 5


def battalion_dice(groups: Iterable[tuple[int, bool]], cap: int = BATTALION_CAP) -> int:
    """Return the dice a side gets from its battalions (4.2).

    ``groups`` are ``(battalions, halved)``: ``halved`` for those attacking across a fjord or
    lake. The cap of 5 battalions applies first; unhalved battalions fill it first (they give
    a whole die each), then the halved ones give one die per two, rounded down (digest
    ambiguity 3 and 4: cap, then halve; halving over the sum of the crossing battalions).

    >>> battalion_dice([(3, True)])          # Example 1: 3 across Mjøsa
    1
    >>> battalion_dice([(7, False)])         # the 4.2 caption: 7 attackers, 5 dice
    5
    >>> battalion_dice([(1, False), (1, False)])  # Example 3: Tysfjord + paratrooper
    2
    >>> battalion_dice([(6, True)])          # cap first: min(6, 5) // 2
    2
    """
    whole = halved = 0
    for n, h in groups:
        if h:
            halved += n
        else:
            whole += n
    return sum_dice(whole, halved, cap)


def sum_dice(whole: int, halved: int, cap: int = BATTALION_CAP) -> int:
    """:func:`battalion_dice` of ``whole`` battalions that give a whole die each and
    ``halved`` ones across a fjord or lake (4.2: the cap first, unhalved ones fill it first).

    >>> sum_dice(3, 0), sum_dice(0, 3), sum_dice(4, 4), sum_dice(0, 6)
    (3, 1, 4, 2)
    """
    w = min(whole, cap)
    return w + min(halved, cap - w) // 2


def group_dice(n: int, halved: bool, cap: int = BATTALION_CAP) -> int:
    """:func:`battalion_dice` of a single group, without building its list (a bot asks for
    thousands a batch): the cap first, then halved across a fjord or lake (4.2).

    >>> group_dice(7, False), group_dice(3, True), group_dice(6, True)
    (5, 1, 2)
    """
    return min(n, cap) // 2 if halved else min(n, cap)


@lru_cache(maxsize=None)
def pool(n: int) -> dict[tuple[int, int], Fraction]:
    """Exact distribution of (total pips, number of 6s) for ``n`` six-sided dice.

    >>> pool(1)[(6, 1)]
    Fraction(1, 6)
    >>> sum(pool(3).values())
    Fraction(1, 1)
    """
    dist: dict[tuple[int, int], Fraction] = {(0, 0): Fraction(1)}
    sixth = Fraction(1, 6)
    for _ in range(n):
        nxt: dict[tuple[int, int], Fraction] = {}
        for (t, s), p in dist.items():
            for face in range(1, 7):
                k = (t + face, s + (face == 6))
                nxt[k] = nxt.get(k, Fraction(0)) + p * sixth
        dist = nxt
    return dist


@lru_cache(maxsize=None)
def totals(n: int) -> dict[int, Fraction]:
    """Exact distribution of the total of ``n`` six-sided dice (``pool`` without its sixes):
    2D6 for Assault on Narvik's Air Table (18.1) and Konflikt's order tests (3.4).

    >>> totals(2)[7], totals(2)[2], sum(p for t, p in totals(2).items() if t <= 8)
    (Fraction(1, 6), Fraction(1, 36), Fraction(13, 18))
    """
    out: dict[int, Fraction] = {}
    for (t, _sixes), p in pool(n).items():
        out[t] = out.get(t, Fraction(0)) + p
    return dict(sorted(out.items()))


def outcomes(att_dice: int, def_dice: int) -> dict[tuple[bool, int, int], Fraction]:
    """Exact distribution of ``(attacker wins, defenders killed, attackers killed)``.

    Each 6 kills one enemy battalion (killed counts are not capped by the battalions
    present: the caller caps them); the higher total wins, a tie goes to the defender.

    >>> o = outcomes(1, 1)
    >>> sum(p for (win, _, _), p in o.items() if win)
    Fraction(5, 12)
    """
    out: dict[tuple[bool, int, int], Fraction] = {}
    for (ta, sa), pa in pool(att_dice).items():
        for (td, sd), pd in pool(def_dice).items():
            k = (ta > td, sa, sd)
            out[k] = out.get(k, Fraction(0)) + pa * pd
    return out


def summary(att_dice: int, def_dice: int, att_bns: int, def_bns: int) -> dict[str, Fraction]:
    """Return exact P(attacker wins) and expected battalions lost by each side.

    >>> s = summary(2, 1, 3, 1)
    >>> s["attacker_wins"]
    Fraction(181, 216)
    """
    win = Fraction(0)
    ea = Fraction(0)
    ed = Fraction(0)
    for (w, kd, ka), p in outcomes(att_dice, def_dice).items():
        if w:
            win += p
        ed += p * min(kd, def_bns)
        ea += p * min(ka, att_bns)
    return {"attacker_wins": win, "defender_losses": ed, "attacker_losses": ea}
