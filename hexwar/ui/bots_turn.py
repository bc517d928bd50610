"""The bots' turn as the person may know it: the places their orders acted on (the map's
outline of the bots' last turn) and their turn in a sentence per side, from the orders' visible
words only: a secret order (a hidden deployment, a submerged boat's move) outlines no hex."""

from __future__ import annotations

import re
from typing import Any

from hexwar.core.orders import Order
from hexwar.ui.presenter import Presenter
from hexwar.ui.words import PAST, verb


def seen_marks(p: Presenter, order: Order, view: Any = None) -> dict[str, Any]:
    """Where an order another side gave acts, as far as the person may know it: the marks
    of :meth:`Presenter.order_marks` that the order's visible words name (a hidden deployment's hex,
    a submerged boat's move, are not outlined)."""
    m = p.order_marks(order, view)
    text = p.session.order_text(order)
    if text == order.text():
        return m
    words = set(re.split(r"[\s>,;:()]+", text))
    return {"u": [u for u in m["u"] if u in words], "f": m["f"] if m["f"] in words else None,
            "t": m["t"] if m["t"] in words else None}


def bot_summary(p: Presenter, orders: list[Order]) -> str:
    """The bots' turn in a sentence per side: how many orders of each kind, and where."""
    by_side: dict[str, dict[str, list[str]]] = {}
    unseen: dict[str, int] = {}  # orders the person may not read, as they see them, with no place
    view = p.session.view()
    for o in orders:
        m = seen_marks(p, o, view)
        if not (m["u"] or m["f"] or m["t"]) and (seen := p.session.order_text(o)) != o.text():
            unseen[seen] = unseen.get(seen, 0) + 1
            continue
        where = m["t"] or m["f"] or ""
        by_side.setdefault(o.side, {}).setdefault(verb(o), []).append(where)
    parts = []
    for side, kinds in by_side.items():
        said = []
        for first, places in kinds.items():
            at = sorted({p.place_word(x) for x in places if x})
            n = len(places)
            word = p.past.get(first) or PAST.get(first, first)
            said.append(f"{word}{f' {n} times' if n > 1 else ''}"
                        + (f" ({', '.join(at[:6])}{' ...' if len(at) > 6 else ''})" if at else ""))
        parts.append(f"the {side} " + ", ".join(said))
    parts += [text + (f" ({n} times)" if n > 1 else "") for text, n in unseen.items()]
    return "while you waited: " + "; ".join(parts)
