"""Batch bookkeeping for games that fight on a differential CRT (Assault on Narvik, and the
skirmish ruleset hosting Konflikt '47): every assault's look-up counted by its column and DRM,
and each column set beside its exact odds (15.1)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hexwar.sim.runner import pool_combats


class AssaultTally:
    """Counts every assault's CRT look-up (``"AD|DRM" -> {result: count}``) in ``self.combats``,
    and names the events of these games for the observer's drivers: an assault on a hex (15.0),
    a land move hex by hex (14.0), a unit eliminated, by the rule that eliminated it (15.2)."""

    combats: dict[str, dict[str, int]]

    def event(self, ev: dict[str, Any]) -> None:
        if ev["type"] == "assault" and not ev.get("amphibious"):
            k = f"{ev['ad']}|{ev['drm']}"
            self.combats.setdefault(k, {}).setdefault(ev["result"], 0)
            self.combats[k][ev["result"]] += 1

    def fought_at(self, ev: dict[str, Any]) -> str | None:
        return ev["target"] if ev["type"] == "assault" else None

    def move_length(self, ev: dict[str, Any]) -> int | None:
        return len(ev["path"]) - 1 if ev["type"] == "move" else None

    def lost_by(self, ev: dict[str, Any]) -> tuple[str, int] | None:
        return (ev["rule"], 1) if ev["type"] == "eliminated" else None


def differential_exact(crt: Any, rows: list[dict[str, Any]], min_n: int) -> list[dict[str, Any]]:
    """P(the attacker loses at least one point) for each (AD, DRM) fought, exact over the die (15.1)."""
    from hexwar.rules.combat import diff_outcomes

    pooled = pool_combats(rows)
    out = []
    for k, results in pooled.items():
        n = sum(results.values())
        if n < min_n:
            continue
        ad, drm = map(int, k.split("|"))
        dist = diff_outcomes(crt, ad, drm)
        # the attacker's own loss is the result that stays uncertain at every column (T5)
        ex = sum((p for (al, _), p in dist if al >= 1), Fraction(0))
        hits = sum(c for res, c in results.items() if int(res.split("/")[0]) >= 1)
        out.append({"combat": f"AD {ad}, DRM {drm:+d}", "quantity": "attacker loses >= 1", "n": n,
                    "hits": hits, "exact": ex})
    return out
