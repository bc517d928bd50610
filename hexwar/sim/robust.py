"""Differences that hold whatever the bots (issue 58).

A comparison may play each of its setups with more than one **bot pairing** (the priority
bots, the search bot at a few playouts a decision): the same game, scenario and board, only
the bots differ. Its tests compare setups within a pairing; this module sets each difference
beside itself under every pairing and says whether it **holds** (the same sign and
significant under each pairing), comes from **some** of the bots (significant under some
only, or of opposite signs), or is found under **none**; and writes the report's first lines,
the findings in words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from hexwar.core.metrics import Mean, Metric, Rate, When
from hexwar.sim.setups import parse_setup


def pairing(label: str) -> str:
    """The bots of a setup's label (``...:priority`` -> ``priority``)."""
    return parse_setup(label).bots


def arm(label: str) -> str:
    """A setup's label without its bots: what stays the same across the pairings."""
    s = parse_setup(label)
    return f"{s.game}/{s.scenario}@{s.board}" + "".join("+" + x for x in s.switches)


def pairings(labels: Sequence[str]) -> list[str]:
    """The report's bot pairings, in the order its setups first name them."""
    return list(dict.fromkeys(pairing(x) for x in labels))


def effect(summary: Mapping[str, Any], a: str, b: str, m: Metric | None) -> float:
    """Setup ``a``'s figure less ``b``'s for a tested quantity: a rate or a share of games, a
    mean (``m`` None: the game length in its own turns)."""
    sa, sb = summary[a], summary[b]
    if m is None:
        return float(sa["end_turn"]["mean"] - sb["end_turn"]["mean"])
    if isinstance(m, Rate):
        return float(sa[f"{m.key}_rate"] - sb[f"{m.key}_rate"])
    if isinstance(m, When):
        return float(sa[m.key] - sb[m.key])
    assert isinstance(m, Mean)
    return float(sa[m.key]["mean"] - sb[m.key]["mean"])


@dataclass(frozen=True)
class Verdict:
    """One difference between two arms under every pairing: (effect, p, significant) by bots."""

    a: str
    b: str
    quantity: str
    by: Mapping[str, tuple[float, float, bool]]

    @property
    def kind(self) -> str:
        """``holds`` (same sign, significant under every pairing), ``some`` or ``none``."""
        sig = [s for _, _, s in self.by.values()]
        signs = {e > 0 for e, _, _ in self.by.values() if e}
        if all(sig) and len(signs) == 1:
            return "holds"
        return "some" if any(sig) else "none"

    def said(self) -> str:
        """The verdict in words."""
        names = list(self.by)
        if self.kind == "holds":
            return f"holds with {'both pairings' if len(names) == 2 else 'every pairing'} of bots"
        if self.kind == "none":
            return "significant with no pairing"
        yes = [n for n in names if self.by[n][2]]
        if len(yes) == len(names):  # significant with every pairing, but the bots turn it round
            return "comes from the bots: significant with every pairing, of opposite signs"
        return f"comes from the bots: significant only with {', '.join(yes)}"


def verdicts(tests: Sequence[tuple[str, str, Metric | None, float]], significant: Sequence[bool],
             summary: Mapping[str, Any], name: Any) -> list[Verdict]:
    """Each tested difference of two arms, with its effect, p-value and significance under
    each pairing (only differences every pairing tested); ``name(m)`` names a quantity."""
    by: dict[tuple[str, str, str], dict[str, tuple[float, float, bool]]] = {}
    for (a, b, m, p), ok in zip(tests, significant):
        by.setdefault((arm(a), arm(b), name(m)), {})[pairing(a)] = (effect(summary, a, b, m), p, ok)
    every = len(pairings([t[0] for t in tests] + [t[1] for t in tests]))
    return [Verdict(a, b, q, got) for (a, b, q), got in by.items() if len(got) == every]


def section(found: Sequence[Verdict], number: Mapping[str, int]) -> list[str]:
    """The report's section: each difference under each pairing, and its verdict."""
    if not found:
        return []
    bots = list(found[0].by)
    lines = ["## Whatever the bots?", "",
             f"Each difference tested above, under each pairing of bots ({', '.join(f'`{b}`' for b in bots)}): the "
             "first setup's figure less the second's, its p-value and whether it is significant (Holm, as above). "
             "A difference **holds** when it has the same sign and is significant with every pairing; one "
             "significant with some pairings only comes from the bots, not from what the setups differ in.", "",
             "| setups | quantity | " + " | ".join(f"`{b}`" for b in bots) + " | verdict |",
             "|---|---|" + "---|" * len(bots) + "---|"]
    for v in found:
        cells = [f"{e:+.3f}, p = {p:.2g}{' (significant)' if s else ''}" for e, p, s in v.by.values()]
        lines.append(f"| {number[v.a]} vs {number[v.b]} | {v.quantity} | " + " | ".join(cells) + f" | {v.said()} |")
    return lines + [""]


def headline(found: Sequence[Verdict], short: Mapping[str, str], most: int = 5) -> list[str]:
    """The report's first lines: what held across the bots, then what came from them, in
    words (at most ``most`` sentences)."""
    held = [v for v in found if v.kind == "holds"]
    some = [v for v in found if v.kind == "some"]
    out = []
    for v in held[: most - 1 if some else most]:
        lo = min(abs(e) for e, _, _ in v.by.values())
        hi = max(abs(e) for e, _, _ in v.by.values())
        more = next(iter(v.by.values()))[0] > 0
        out.append(f"{v.quantity[:1].upper()}{v.quantity[1:]}: {'higher' if more else 'lower'} for {short[v.a]} than "
                   f"for {short[v.b]} with every pairing of bots (by {lo:.3f} to {hi:.3f}).")
    if some:
        pairs: dict[tuple[str, str], list[str]] = {}
        for v in some:
            pairs.setdefault((v.a, v.b), []).append(v.quantity)
        said = [f"{short[a]} against {short[b]} ({', '.join(qs)})" for (a, b), qs in list(pairs.items())[:3]]
        out.append(f"{len(some)} difference{' comes' if len(some) == 1 else 's come'} from the bots, not the setups "
                   f"(significant with some pairings only, or turned round by them): {'; '.join(said)}"
                   f"{'; ...' if len(pairs) > 3 else ''}.")
    if not out:
        out.append("No difference is significant with every pairing of bots.")
    return out
