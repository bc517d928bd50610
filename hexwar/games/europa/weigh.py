"""The Europa "Narvik" variant's orders weighed before they are given: what an attack, an
evasion, an interdiction, an air mission, an HQ's absorption or a regiment's breakdown would
do, with its exact chances and the rule it comes from (E1, E3, E5). The presenter's
explanations and the web board's notes read them."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hexwar.core.orders import IllegalOrder, Order, Pass
from hexwar.rules.orders import Retreat
from hexwar.games.europa.orders import Absorb, Assemble, Attack, Breakdown, Detach, Evade, Interdict, Mission
from hexwar.games.europa.schemas import band
from hexwar.games.europa.state import GERMANS, OVERSTACKED
from hexwar.games.europa.words import at as _at
from hexwar.games.europa.words import band_words as _band
from hexwar.games.europa.words import chances as _chances
from hexwar.rules.ledger import Ledger, fmt
from hexwar.ui.words import Part


class Weigh:
    """An order weighed before it is given, over the presenter's view of the game."""

    def __init__(self, presenter: Any):
        self.p = presenter
        self.game = presenter.game

    def retreat_lines(self, order: Retreat) -> str:
        """Where a unit may retreat and why not elsewhere (E1; the limits are ours)."""
        from hexwar.games.europa.phases.combat import retreat_reasons

        d = self.p.data
        c = d.combat
        u = d.units.get(order.unit)
        if c is None or u is None:
            return f"{order.text()}: no combat is waiting for its retreat"
        why = retreat_reasons(self.game, d, u, c)
        lines = [f"{order.text()}: one hex, the owner's choice (E1)",
                 "  may retreat to: " + (", ".join(_at(n) for n, w in sorted(why.items()) if not w) or "nowhere: eliminated")]
        lines += [f"  not {_at(n)}: {w}" for n, w in sorted(why.items()) if w]
        return "\n".join(lines)

    def evade_odds(self, order: Evade) -> tuple[str, Fraction, str]:
        """E1's limited option to retreat: the odds of the attack as it stands, the chance the
        defenders slip away (the die's faces that give 'retreat'), and the odds if caught."""
        from dataclasses import replace

        from hexwar.games.europa.phases.combat import odds

        g, d = self.game, self.p.data
        c = d.combat
        assert c is not None

        def line(cc: Any) -> str:
            return _chances(odds(g, d, cc))
        go = Fraction(sum(b.hi - b.lo + 1 for b in g.rules.retreat_option if b.result == "retreat"), 6)
        return line(c), go, line(replace(c, shift=c.shift + 1))

    def evade_lines(self, order: Evade) -> str:
        """The evasion's die and the odds either way, as ``explain`` gives them (E1)."""
        g, c = self.game, self.p.data.combat
        if c is None:
            return f"{order.text()}: no attack is waiting"
        stand, go, caught = self.evade_odds(order)
        if not order.go:
            return f"stand: the defenders at {_at(c.target)} stay and fight\n  if the attack is fought as it stands: {stand}  [E1]"
        if g.switches.free_retreat:
            return f"evade: the defenders at {_at(c.target)} retreat before combat, no die (switch free_retreat, E1)"
        return (f"evade: the defenders at {_at(c.target)} try to retreat before combat (E1)\n"
                f"  {self.slip_words(go)}\n"
                f"  else caught: the attack gains a column: {caught}  [E1]\n"
                f"  (standing instead, if the attack is fought as it stands: {stand}  [E1])")

    def slip_words(self, go: Fraction) -> str:
        """The evasion's die, as the explanation and the order's note both say it (E1)."""
        return f"die {_band(self.game.rules.retreat_option, 'retreat')}: they retreat, no combat: {int(go * 6)}/6 = {float(go):.0%}"

    def interdiction_chances(self, order: Interdict) -> tuple[int, dict[str, Fraction]]:
        """E1 naval interdiction of a port (the table and its DRM ours): the DRM, and the
        chance of each result over the six faces of the die."""
        from hexwar.games.europa.phases.movement import interdiction_drm

        g, d = self.game, self.p.data
        drm = interdiction_drm(g, d)
        out: dict[str, Fraction] = {}
        for face in range(1, 7):
            r = band(g.rules.interdiction, max(1, min(6, face + drm)))
            out[r] = out.get(r, Fraction(0)) + Fraction(1, 6)
        return drm, out

    def interdiction_words(self, order: Interdict) -> str:
        drm, out = self.interdiction_chances(order)
        ships = [u.id for u in self.p.data.at(order.port) if u.side == GERMANS and self.game.t(u).kind == "ship"]
        return (f"interdict {_at(order.port)}: die {drm:+d}: " + _chances(out.items())
                + "; a blockade: no German supply source through the next German player turn; sunk: that and the German "
                "ships in the port sunk" + (f" ({', '.join(ships)}), their sailors ashore as a naval regiment" if ships else "")
                + " (E1, the table ours)")

    def mission_chances(self, order: Mission) -> tuple[list[str], Fraction]:
        """An air mission (E3 C): the enemy AA units in or next to the hex (each fires once and
        turns the mission back on the chart's roll, ours), and the chance it gets through."""
        from hexwar.games.europa.phases.air import aa_units

        g = self.game
        aa = aa_units(g, self.p.data, order.side, order.target)
        miss = Fraction(g.rules.aa_hit.roll - 1, 6)
        return aa, miss ** len(aa)

    def mission_words(self, order: Mission) -> str:
        aa, through = self.mission_chances(order)
        ours = order.side == self.p.data.side
        what = ("+1 column to the attack on it" if ours else "-1 column to an attack on it") + \
            f" (at most {self.game.rules.air_max.hexes} missions count a hex)"
        fire = (f"AA fire from {', '.join(aa)}: each turns it back on a {self.game.rules.aa_hit.roll}" if aa
                else "no enemy AA in or next to the hex")
        return f"{order.unit} over {_at(order.target)}: {fire}; gets through {float(through):.0%}: {what} (E3 C, the AA chart ours)"

    def after(self, order: Order) -> Any:
        """The game as it would stand after ``order``, given on a copy (nothing changes; the
        variant hides nothing, so the copy is the person's view); an ``IllegalOrder`` for an
        order the game refuses. The dice of what follows it are a throwaway seed's."""
        from hexwar.core.dice import Dice

        work = self.p.data.clone()
        self.game.apply(work, order, Dice(0))
        return work

    def stack_change(self, order: Order, loc: str, side: str) -> tuple[str, Any]:
        """The count against the stacking limits (E5 A) of ``side`` at ``loc`` now and after
        ``order``, given on a copy, and the copy. An ``IllegalOrder`` for an order the game refuses."""
        g, d = self.game, self.p.data
        work = self.after(order)
        r = g.rules
        (g0, a0), (g1, a1) = g.stack_points(d, loc, side), g.stack_points(work, loc, side)
        counts = f"{g0} ground units now, {g1} after, limit {r.stack_ground.hexes}"
        if a0 or a1:
            counts += f"; {a0} batteries now, {a1} after, limit {r.stack_artillery.hexes}"
        return counts, work

    def hq_effect(self, order: Absorb | Detach) -> tuple[str, Fraction]:
        """What absorbing (or detaching) a unit does (E5 C): the hex's count against the
        stacking limits before and after (E5 A), and the MP the HQ then moves at."""
        hq = self.p.data.units[order.hq]
        counts, work = self.stack_change(order, hq.loc or "", hq.side)
        return counts, self.game.movement(work, work.units[order.hq])

    def hq_words(self, order: Absorb | Detach) -> str:
        try:
            counts, mp = self.hq_effect(order)
        except IllegalOrder as exc:
            return f"{order.text()}: {exc}"
        verb = "takes in" if isinstance(order, Absorb) else "lets go"
        loc = self.p.data.units[order.hq].loc
        return (f"{order.hq} {verb} {order.unit} (E5 C): at {_at(loc)} {counts} (E5 A); "
                f"{order.hq} then moves at {fmt(mp)} MP (E5 C: its slowest unit's)")

    def regiment_change(self, order: Assemble | Breakdown) -> tuple[str, str, str]:
        """A German regiment reassembled from its three battalions, or broken down (E1): the
        counters each way with their attack-defence, the hex, and its stack before and after
        (E5 A). An ``IllegalOrder`` for an order the game refuses."""
        g, d = self.game, self.p.data
        reg, bns = order.regiment, g.regiments.get(order.regiment, [])
        loc = (d.units[reg].loc if isinstance(order, Breakdown) else d.units[bns[0]].loc if bns else None) or ""
        counts, _ = self.stack_change(order, loc, order.side)

        def adm(units: list[str]) -> str:
            ts = [g.t(d.units[x]) for x in units]
            return f"{sum(t.attack for t in ts)}-{sum(t.defence for t in ts)}"
        one, three = f"{reg} {adm([reg])}", f"{', '.join(bns)} ({adm(list(bns))} together)"
        return (f"{three} become {one}" if isinstance(order, Assemble) else f"{one} becomes {three}"), loc, counts

    def regiment_words(self, order: Assemble | Breakdown) -> str:
        try:
            what, loc, counts = self.regiment_change(order)
        except IllegalOrder as exc:
            return f"{order.text()}: {exc}"
        return f"{order.text()}: {what} (E1 breakdowns) at {_at(loc)}: {counts} (E5 A)"

    def attack_ledger(self, order: Attack) -> list[Part]:
        """An attack's strengths, odds column and exact odds before it is made (E1's CRT);
        a ``ValueError`` where it cannot be fought."""
        from hexwar.games.europa.phases import combat

        ex = combat.explain(self.game, self.p.s.data, order)
        led: Ledger = ex["ledger"]
        return [led, "exact odds: " + ", ".join(f"{r} {p}" for r, p in ex["odds"])]

    def caveat(self, order: Attack) -> str:
        """What the odds leave out: Norwegian defenders may retreat before combat (E1)."""
        if all(u.nation == "norway" for u in self.game.ground_at(self.p.s.data, order.target) if u.side != order.side):
            return "if the Norwegians stand: they may retreat before combat, E1"
        return ""

    def left_overstacked(self, order: Order) -> list[str]:
        """The units of the side ending its movement or exploitation phase with ``order`` that
        the game would leave over the stacking limit (E5 B), found by giving it on a copy."""
        d = self.p.data
        if not isinstance(order, Pass) or d.phase not in ("movement", "exploitation") or order.side != d.side:
            return []
        try:
            work = self.after(order)
        except IllegalOrder:
            return []
        over = [u for u in work.on_map(order.side) if u.has(OVERSTACKED)]
        return [f"{u.id} at {_at(u.loc)}" for u in sorted(over, key=lambda u: (u.loc or "", u.id))]
