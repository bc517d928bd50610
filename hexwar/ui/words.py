"""How the terminal reads and writes words: which listed orders a typed line means (an
order's verb, the orders holding some words, its text folded as a person types it), which
sections a glossary entry cites, and events and ledgers as sentences with their rules."""

from __future__ import annotations

import json
from fractions import Fraction
import re
from typing import Any, Callable, Mapping, Sequence, Union

from hexwar.core.orders import Order
from hexwar.rules.ledger import Ledger

#: a rule section as a glossary cites it (19.4, 8.2.1, E1; Konflikt's 0)
SECTION = re.compile(r"[a-z]?\d+(\.\d+)*")


def cites(sections: str, section: str) -> bool:
    """Whether a glossary entry's sections (``19.2, 19.3``; ``8.0-8.3``) cite ``section``:
    the section itself, one of its subsections (19.3 for 19), or within a range."""
    def key(s: str) -> tuple[int, ...]:
        return tuple(int(x) for x in s.lstrip("abcdefghijklmnopqrstuvwxyz").split("."))

    want = section.lower()
    for part in (p.strip().lower() for p in sections.split(",")):
        lo, _, hi = part.partition("-")
        if not SECTION.fullmatch(lo) or (hi and not SECTION.fullmatch(hi)):
            continue
        if lo == want or lo.startswith(want + "."):
            return True
        if hi and want[:1].isalpha() == lo[:1].isalpha() and key(lo) <= key(want) <= key(hi):
            return True
    return False


#: the first word of the engine's own orders (``hexwar.core.orders``) as the bots' summary
#: says it; a game's presenter words its own orders (``Presenter.past``)
PAST = {"move": "moved", "assault": "assaulted", "pass": "passed", "retreat": "retreated", "advance": "advanced",
        "take": "took a result"}


def verb(o: Order) -> str:
    """An order's first word, as typed (``move``, ``play``): what ``list`` counts, the web board
    groups by and the bots' summary puts in the past tense."""
    return o.text().split(" ", 1)[0].lower()


def verb_counts(legal: list[Order]) -> dict[str, int]:
    """How many of the orders begin with each word (``verb``), in list order."""
    counts: dict[str, int] = {}
    for o in legal:
        w = verb(o)
        counts[w] = counts.get(w, 0) + 1
    return counts


def list_examples(legal: list[Order], firsts: dict[str, int] | None = None) -> list[str]:
    """Words that narrow a long list, taken from the list itself: the first word of its
    commonest kind of order (when it has more than one kind), and the fewest first words,
    from two on, of that kind's first order that leave out some orders: a count only if
    need be, and no copy number, other units of a stack or rest of a path (``move 1sg``,
    ``ship scharnhorst``, ``move bardufoss``)."""
    texts = [o.text().lower() for o in legal]
    firsts = firsts if firsts is not None else verb_counts(legal)
    top = max(firsts, key=lambda w: (firsts[w], w))
    out = [top] if len(firsts) > 1 else []
    first = next(t for t in texts if t.split(" ", 1)[0] == top)
    words = [w.split("#", 1)[0].split(",", 1)[0].split(">", 1)[0] for w in first.split()]
    for some in ([w for w in words if not w.isdigit()], words):  # a count or hex only if need be
        narrow = next((" ".join(some[:k]) for k in range(2, len(some) + 1)
                       if sum(all(w in t for w in some[:k]) for t in texts) < len(texts)), None)
        if narrow:
            return out + [narrow]
    return out


def holding(words: list[str], legal: list[Order], in_order: bool = False,
            line: Callable[[Order], str] | None = None) -> list[tuple[int, Order]]:
    """The orders whose text holds every word (lower case), with their numbers as listed
    (``list``). ``in_order``: each word part of a word of the order, in the order typed
    (``bardufoss narvik`` is in ``move 1 bardufoss>narvik``, not in ``move 1 narvik>bardufoss``).
    ``line``: the order as the list shows it (the presenter's ``order_line``), whose words
    count too, after the text's (``list bjørnfjell`` finds ``move 1 bardufoss>bjornfjell``)."""
    out = []
    for i, o in enumerate(legal, 1):
        texts = [o.text().lower()]
        if line is not None and (shown := line(o).lower()) != texts[0]:
            texts.append(shown)
        if in_order:
            ok = False
            for text in texts:  # in the order typed within the text, or within the shown words
                toks = iter(text.replace(">", " ").split())
                ok = ok or all(any(w in t for t in toks) for w in words)
        else:
            ok = all(w in " ".join(texts) for w in words)
        if ok:
            out.append((i, o))
    return out


#: one part of an answer to ``explain``: a sentence (or lines), or a ledger: the lines behind a
#: number, each with its rule (a :class:`~hexwar.rules.ledger.Ledger`, or its ``to_dict`` form
#: as an event carries it)
Part = Union[str, Ledger, Mapping[str, Any]]
#: what ``explain`` answers: a part, or parts in order. The terminal prints it as text
#: (:func:`said_text`); the web board gets it as data (:func:`said_data`) and draws each
#: ledger as a table with its rules
Said = Union[Part, Sequence[Part]]


def said_parts(said: Said) -> list[Part]:
    """The parts of an answer, in order."""
    if isinstance(said, (str, Ledger, Mapping)):
        return [said]
    return list(said)


def said_text(said: Said) -> str:
    r"""An answer as the terminal prints it: its parts one under another, each ledger as
    indented lines with their rules.

    >>> said_text(["a unit", Ledger("fatigue", total=2).add("marched", 1, "10.1")])
    'a unit\nfatigue\n  marched: 1  [10.1]\n  = 2'
    """
    return "\n".join(p if isinstance(p, str) else p.render() if isinstance(p, Ledger) else render_ledger(p)
                     for p in said_parts(said))


def said_data(said: Said) -> list[dict[str, Any]]:
    """An answer as the web board gets it: ``{"text": ...}`` for each sentence, ``{"ledger":
    {"title", "lines": [{"text", "value", "rule"}], "total"}}`` for each ledger.

    >>> said_data(["no combat yet"])
    [{'text': 'no combat yet'}]
    >>> said_data(Ledger("MP", total=3).add("clear", 1, "14.1"))[0]["ledger"]["lines"]
    [{'text': 'clear', 'value': 1, 'rule': '14.1'}]

    A fraction reads as the terminal prints it, a whole number stays a number:

    >>> said_data(Ledger("MP", total=Fraction(7, 2)).add("road", Fraction(1, 2), "14.2"))[0]["ledger"]
    {'title': 'MP', 'lines': [{'text': 'road', 'value': '1/2', 'rule': '14.2'}], 'total': '3 1/2'}
    """
    return [{"text": p} if isinstance(p, str) else {"ledger": p.to_dict(mixed=True) if isinstance(p, Ledger) else dict(p)}
            for p in said_parts(said)]


def render_ledger(led: Mapping[str, Any]) -> str:
    """A ledger (``Ledger.to_dict``) as indented lines, each with its rule."""
    out = [led["title"]]
    for ln in led["lines"]:
        v = "" if ln["value"] is None else f": {ln['value']}"
        r = f"  [{ln['rule']}]" if ln["rule"] else ""
        out.append(f"  {ln['text']}{v}{r}")
    if led.get("total") is not None:
        out.append(f"  = {led['total']}")
    return "\n".join(out)


def sentence(e: Mapping[str, Any], table: Mapping[str, Callable[[Mapping[str, Any]], str]]) -> str:
    """One event as a sentence from a game's table (event type -> words), with its rule; an
    event the table does not word, or one of an older save with other fields, in field form."""
    f = table.get(str(e.get("type")))
    if f is not None:
        try:
            return f(e) + (f"  [{e['rule']}]" if e.get("rule") else "")
        except (KeyError, IndexError, TypeError, AttributeError):
            pass
    return describe({k: v for k, v in e.items() if k != "ledger"})


def describe(e: Mapping[str, Any]) -> str:
    """Return one event as a line of text: its tag, its fields and its rule."""
    kind = e.get("type", "?")
    rule = f"  [{e['rule']}]" if e.get("rule") else ""
    body = {k: v for k, v in e.items() if k not in ("type", "rule", "ledger")}
    return f"{kind}: " + ", ".join(f"{k} {json.dumps(v) if isinstance(v, (list, dict)) else v}" for k, v in body.items()) + rule


def fold_order(text: str) -> str:
    """An order's text as a person may type it: no card or ship numbers (``#12``), no case,
    no accents (ø, å, æ, é are o, a, ae, e).

    >>> fold_order("ship Blücher#2 VII") == fold_order("ship blucher vii")
    True
    """
    import unicodedata

    t = re.sub(r"#\d+", "", text.lower()).replace("ø", "o").replace("æ", "ae")
    t = "".join(c for c in unicodedata.normalize("NFKD", t) if not unicodedata.combining(c))
    return " ".join(t.split())


def ledger_before_the_die(led: Mapping[str, Any]) -> dict[str, Any]:
    """An assault's ledger (``Ledger.to_dict``) up to its CRT column: the die, the row it was
    read at and the result dropped, for an assault not yet made."""
    out = dict(led, total=None)
    out["lines"] = [ln for ln in led["lines"] if ln["text"] != "die" and not ln["text"].startswith("modified roll ")]
    return out
