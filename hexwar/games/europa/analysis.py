"""The Europa "Narvik" variant on the analysis board (issue 54): a counter's flags (disrupted,
E1; flipped overstacked, E5 B) and the HQ that absorbs it (E5 C); the turn and the points;
for a counter picked, its hex's stacking against E5 A's limits, its general and attack supply
(E1) with the sources it traces to; for attackers and a hex, the strengths, the odds column
and every result of the odds CRT with its exact chance (E1), worked out as the combat phase
works them out."""

from __future__ import annotations

from typing import Any

from hexwar.games.europa.invariants import overstacks
from hexwar.games.europa.state import ALLIES, DISRUPTED, GERMANS, OVERSTACKED, other
from hexwar.ui.analysis import Analyst, Field, Figure, Pick


class EuropaAnalyst(Analyst):
    flags = {DISRUPTED: ("disrupted (movement halved)", "E1"), OVERSTACKED: ("flipped overstacked", "E5 B")}

    def piece_label(self, data: Any, unit: Any) -> str:
        t = self.game.t(unit)
        return f"{unit.id} ({t.kind} {t.size}, {t.attack}-{t.defence}-{t.mp})"

    def fields(self, data: Any, piece: str) -> list[Field]:
        g, u = self.game, self.unit(data, piece)
        out = [Field(f, label, "bool", u.has(f), rule=rule) for f, (label, rule) in self.flags.items() if g.ground(u)]
        if u.loc is not None and g.ground(u) and g.t(u).hq is None:
            hqs = tuple(h.id for h in g.ground_at(data, u.loc, u.side) if g.t(h).hq is not None)
            if hqs:
                out.append(Field("absorbed", "absorbed by the HQ", "choice", data.absorbed.get(u.id, ""),
                                 choices=("",) + hqs, rule="E5 C"))
        if u.loc is None:
            out.append(Field("pool", "off the map, in", "choice", u.pool, choices=tuple(sorted(data.POOLS))))
        return out

    def tracks(self, data: Any) -> list[Field]:
        return super().tracks(data) + [Field(f"vp.{s}", f"{s} VP", "int", data.vp.get(s, 0), lo=-999, hi=9999, rule="E2")
                                       for s in (GERMANS, ALLIES)]

    def apply(self, data: Any, piece: str | None, key: str, value: Any) -> None:
        if piece is None and key.startswith("vp."):
            data.vp[key[3:]] = value
            return
        if piece is None:
            super().apply(data, piece, key, value)
            return
        u = self.unit(data, piece)
        if key in self.flags:
            self.flag(u, key, value)
        elif key == "absorbed":
            data.absorbed.pop(u.id, None)
            if value:
                data.absorbed[u.id] = value
        elif key == "pool":
            u.pool = value
        else:
            raise ValueError(f"{piece}: {key!r} cannot be set")

    def place(self, data: Any, piece: str, loc: str | None) -> str | None:
        data.absorbed.pop(piece, None)  # a counter moved by hand leaves its HQ
        for x in [x for x, h in data.absorbed.items() if h == piece]:  # absorbed units go with their HQ
            if loc is not None:
                data.place(x, loc)
            else:
                del data.absorbed[x]
                data.remove(x, self.off_pool)
        return super().place(data, piece, loc)

    # --- the figures --------------------------------------------------------------------

    def figures(self, data: Any, pick: Pick) -> list[Figure]:
        g = self.game
        out = []
        if pick.attackers and pick.loc:
            out.append(self.attack(data, pick))
        u = data.units.get(pick.piece) if pick.piece else None
        if u is not None and u.loc is not None and g.ground(u):
            out.append(self.stacking(data, u.loc, u.side))
            general = g.supplied(data, u.side, g.rules.general_supply.hexes).get(u.id)
            attack = g.attack_supplied(data, u.side).get(u.id)
            src = g.sources(data, u.side, u.nation)
            out.append(Figure(f"supply of {u.id}", [
                f"general supply (E1, a line of at most {g.rules.general_supply.hexes} hexes to a source, not through "
                f"enemy units or ZoC): {'yes' if general else 'NO'}",
                f"attack supply (E1, within {g.rules.attack_supply.hexes} hexes of a source or of an HQ in general "
                f"supply): {'yes' if attack else 'NO'}",
                f"the sources a unit of {u.nation} traces to (outlined): {', '.join(sorted(g.board.label(h) for h in src)) or 'none'}"],
                {h: "source" for h in src} | {u.loc: "line" if general else "block"}))
        elif pick.loc and not pick.attackers:
            out += [self.stacking(data, pick.loc, s) for s in (GERMANS, ALLIES) if g.ground_at(data, pick.loc, s)]
        return out

    def stacking(self, data: Any, loc: str, side: str) -> Figure:
        g = self.game
        ground, art = g.stack_points(data, loc, side)
        lim_g, lim_a = g.rules.stack_ground.hexes, g.rules.stack_artillery.hexes
        lines = [f"{side} at {g.board.label(loc)}: {ground} ground units of {lim_g}, {art} artillery batteries of "
                 f"{lim_a} (a battalion counts 2) (E5 A)"]
        for u in g.ground_at(data, loc, side):
            gc, ac = g.stack_cost(u, loc)
            why = (f"absorbed by {data.absorbed[u.id]}: counts nothing (E5 C)" if u.id in data.absorbed
                   else f"{gc} ground, {ac} artillery" if gc or ac else "stacks freely")
            lines.append(f"  {u.id}: {why}" + (" (flipped overstacked, E5 B)" if u.has(OVERSTACKED) else ""))
        over = ground > lim_g or art > lim_a
        if over:
            lines.append("OVERSTACKED: the owner flips the units beyond the limits; they add nothing to the defence (E5 B)")
        return Figure(f"stacking at {g.board.label(loc)}", lines, {loc: "block" if over else "target"})

    def attack(self, data: Any, pick: Pick) -> Figure:
        from hexwar.games.europa.phases.combat import strengths
        from hexwar.games.europa.state import Combat
        from hexwar.rules.combat import odds_column_index, odds_outcomes

        g, to = self.game, pick.loc
        assert to is not None
        units = [x for x in pick.attackers if x in data.units and data.units[x].loc is not None]
        if not units:
            return Figure(f"attack on {g.board.label(to)}", ["no attacker on the map"], {to: "target"})
        side = data.units[units[0]].side
        defenders = sorted(u.id for u in g.ground_at(data, to, other(side)))
        if not defenders:
            return Figure(f"attack on {g.board.label(to)}", [f"{g.board.label(to)} holds no enemy ground unit (E3 D)"], {to: "target"})
        att, dfn, shift, led = strengths(g, data, Combat(side, to, units, defenders))
        col = g.crt.columns[odds_column_index(g.crt, att, dfn, shift)]
        lines = led.render().splitlines() + [f"odds {att}:{dfn}, shifted {shift:+d}: column {col.label} (E1)"]
        lines += [f"  {r} {g.crt.codes.get(r, '')}: {p} = {float(p) * 100:.1f}%" for r, p in odds_outcomes(g.crt, att, dfn, 0, shift)]
        return Figure(f"attack on {g.board.label(to)}", lines,
                      {to: "target", **{data.units[x].loc: "attacker" for x in units}})

    def problems(self, data: Any) -> list[str]:
        g = self.game
        later = ("; the limits hold from the end of this phase, when the owner flips the excess (E5 B)"
                 if data.phase in ("movement", "exploitation") else "")
        return [f"{g.board.label(loc)}: {side} overstacked, {ground} ground units and {art} artillery batteries not "
                f"flipped (limits {g.rules.stack_ground.hexes} and {g.rules.stack_artillery.hexes}, E5 A){later}"
                for loc, side, ground, art in overstacks(g, data)]
