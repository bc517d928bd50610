"""The analysis board of the land games on Assault on Narvik's rules (Assault on Narvik, the
skirmish ruleset, Konflikt '47 on it; issue 54): a counter's fatigue and flags, the turn,
the weather and the points; for a counter picked, where it can move in one action with the
MP left in each hex and the enemy's zone of control (14.0, 12.0), its line of supply or what
blocks it (19.3), its stack (13.2); for attackers and a target, the assault's ledger and
every result of the CRT with its exact chance (15.1). The figures are the rule queries'
(``hexwar reach|supply|fatigue|odds``), so the board and the terminal give the same numbers."""

from __future__ import annotations

from typing import Any, Mapping

from hexwar.games.common import queries
from hexwar.games.common.queries import json_of
from hexwar.registry import Position
from hexwar.rules import fatigue as fat
from hexwar.rules.stacking import ABOARD, explain_stack, violations
from hexwar.ui.analysis import Analyst, Field, Figure, Pick
from hexwar.ui.words import render_ledger


class LandAnalyst(Analyst):
    """Counters on hexes with fatigue; the game's extra flags and tracks in its subclass."""

    #: a counter may be set face down (11.0)
    concealment = False
    #: flags a counter of a kind may carry: flag -> (label, rule, the kinds it applies to)
    flags: Mapping[str, tuple[str, str, tuple[str, ...]]] = {}
    #: the state's tracks a person may set: key -> (label, rule)
    counters: Mapping[str, tuple[str, str]] = {}

    def pos(self, data: Any) -> Position[Any, Any]:
        return Position(self.game, data, None, "this position")

    def t(self, unit: Any) -> Any:
        return self.game.tables.types[unit.type]

    # --- the pieces and their menus -------------------------------------------------------

    def piece_label(self, data: Any, unit: Any) -> str:
        t = self.t(unit)
        return f"{unit.id} {unit.name or ''} ({t.kind} {t.size})".replace("  ", " ")

    def fields(self, data: Any, piece: str) -> list[Field]:
        u = self.unit(data, piece)
        t = self.t(u)
        out = []
        if fat.takes_fatigue(self.game.tables, u):
            out.append(Field("fatigue", f"fatigue points (limit {t.fatigue_limit})", "int", u.fatigue, lo=0, hi=40,
                             rule="10.0"))
        if self.concealment and t.kind != "ship":
            out.append(Field("face_down", "face down", "bool", bool(u.concealed), rule="11.0"))
        for flag, (label, rule, kinds) in self.flags.items():
            if t.kind in kinds:
                out.append(Field(flag, label, "bool", u.has(flag), rule=rule))
        if u.loc is None:
            out.append(Field("pool", "off the map, in", "choice", u.pool, choices=tuple(sorted(data.POOLS))))
        return out

    def tracks(self, data: Any) -> list[Field]:
        g = self.game
        out = [Field("turn", "turn", "int", data.turn, lo=0, hi=99)]
        if g.tables.terrain is not None:
            out.append(Field("weather", "weather (movement chart section)", "choice", data.weather,
                             choices=tuple(g.tables.terrain.weather), rule=g.cites.move.terrain))
        for side in sorted(data.vp):
            out.append(Field(f"vp.{side}", f"{side} VP", "int", data.vp.get(side, 0), lo=-999, hi=9999))
        for key, (label, rule) in self.counters.items():
            out.append(Field(key, label, "int", self.counter(data, key), lo=0, hi=99, rule=rule))
        return out

    def counter(self, data: Any, key: str) -> int:
        return int(data.tracks.get(key, 0))

    def apply(self, data: Any, piece: str | None, key: str, value: Any) -> None:
        if piece is None:
            if key == "weather":
                data.weather = value
            elif key.startswith("vp."):
                data.vp[key[3:]] = value
            elif key in self.counters:
                data.tracks[key] = value
            else:
                super().apply(data, piece, key, value)
            return
        u = self.unit(data, piece)
        if key == "fatigue":
            u.fatigue = value
        elif key == "face_down":
            u.concealed = value
        elif key == "pool":
            u.pool = value
        elif key in self.flags:
            self.flag(u, key, value)
        else:
            raise ValueError(f"{piece}: {key!r} cannot be set")

    def place(self, data: Any, piece: str, loc: str | None) -> str | None:
        u = self.unit(data, piece)
        self.flag(u, ABOARD, False)  # a counter moved by hand leaves its ship
        return super().place(data, piece, loc)

    # --- the figures ------------------------------------------------------------------------

    def figures(self, data: Any, pick: Pick) -> list[Figure]:
        out = []
        if pick.attackers and pick.loc:
            out.append(self.assault(data, pick))
        if pick.piece and pick.piece in data.units and data.units[pick.piece].loc is not None:
            u = data.units[pick.piece]
            if self.t(u).kind != "ship" and not self.game.board.is_a(u.loc, "box"):
                out.append(self.reach(data, u, pick.loc))
                out.append(self.supply(data, u))
            out.append(self.fatigue(data, u))
            if self.game.tables.stacking is not None:
                led = explain_stack(self.game.board, data, self.game.tables, u.loc, u.side, self.game.cites.stack)
                out.append(Figure(f"stacking at {self.game.board.label(u.loc)}", led.render().splitlines()))
        return out

    def reach(self, data: Any, u: Any, to: str | None) -> Figure:
        """Where the unit can move in one action, as the game lists its moves (14.0, 13.2,
        10.1 ...): each hex with its MP left; a hex the chart reaches but the game refuses,
        marked with the refusal; the enemy's ZoC shaded (12.0); the way to ``to`` explained."""
        g = self.game
        pos = self.pos(data)
        try:
            ans = queries.reach(pos, u.id)
        except ValueError as e:
            return Figure(f"reach of {u.id}", [str(e)], {u.loc: "source"})
        said = json_of(ans)
        rows, refused = said["reach"], said["refused"]
        marks = {r["to"]: "reach" for r in rows}
        labels = {r["to"]: (str(r["mp_left"]) if not r["minimum_move"] else "min") for r in rows}
        for r in refused:
            marks[r["to"]], labels[r["to"]] = "block", "no"
        for h in g.query(data, u).zoc:
            marks.setdefault(h, "zoc")
        marks[u.loc] = "source"
        mins = [g.board.label(r["to"]) for r in rows if r["minimum_move"]]
        lines = [f"{u.id} from {g.board.label(u.loc)}: {said['mp']} MP in {data.weather} ({g.cites.move.terrain}); "
                 f"{len(rows)} hexes in reach, the MP left on each"]
        if mins:
            lines.append(f"by the minimum move only ({g.cites.move.min_move}): {', '.join(mins)}")
        lines.append(f"shaded red: the enemy's zone of control ({g.cites.zoc.zoc})")
        lines += [str(x) for x in ans.shown[1:] if isinstance(x, str)]  # the game's refusals, in its words
        if to is not None and to != u.loc:
            try:
                way = json_of(queries.reach(pos, u.id, to=to))
                led = way["explain"]
                if led:
                    for step in way["reach"]:
                        if step["to"] == to:
                            for h in step["path"]:
                                marks[h] = "path"
                    lines = lines[:3] + _ledger_lines(led)
            except ValueError as e:
                lines.append(str(e))
        return Figure(f"reach of {u.id}", lines, marks, labels)

    def supply(self, data: Any, u: Any) -> Figure:
        """The unit's supply by its side's own rules: its line (19.3), drawn, or what blocks
        it; a side that traces no line, what its rules say instead (19.1)."""
        try:
            row = json_of(queries.supply(self.pos(data), [u.id]))["units"][0]
        except (ValueError, AttributeError) as e:
            return Figure(f"supply of {u.id}", [f"no line of supply is traced here ({e})"])
        marks = {h: "line" for h in row.get("path") or []}
        if row.get("blocked_at"):
            marks[row["blocked_at"]] = "block"
        yes = {None: "supply", True: "in supply", False: "OUT of supply"}[row["supplied"]]
        return Figure(f"supply of {u.id}", [f"{u.id}: {yes}: {row['reason']}"], marks)

    def fatigue(self, data: Any, u: Any) -> Figure:
        """FP against the limit, what was set by hand, and what the end-of-turn recovery
        leaves (10.0, 21.0)."""
        if not fat.takes_fatigue(self.game.tables, u):
            return Figure(f"fatigue of {u.id}", [f"{u.id} takes no fatigue points"])
        ans = json_of(queries.fatigue(self.pos(data), [u.id], recover=True))  # the recovery works on a copy
        row = ans["units"][0]
        after = (ans.get("after_recovery") or {}).get(u.id)
        rule = self.game.tables.fatigue.rule("recovery") if self.game.tables.fatigue is not None else ""
        lines = [f"{u.id}: {row['fp']} FP, limit {row['fl']}" + (" (at its limit)" if row["at_limit"] else "")
                 + (f"; {row['by_hand']:+d} of them set by hand, not by the rules" if row["by_hand"] else ""),
                 f"after the end-of-turn recovery ({rule}): {after} FP"]
        return Figure(f"fatigue of {u.id}", lines)

    def assault(self, data: Any, pick: Pick) -> Figure:
        """The assault of the attackers on the target as the game fights it, on a copy, every
        die (``queries.assault_odds``): its ledger and every result with its exact chance."""
        g, to = self.game, pick.loc
        assert to is not None
        try:
            fight = queries.assault_odds(self.pos(data), to, list(pick.attackers))
        except ValueError as e:
            return Figure(f"assault on {g.board.label(to)}", [str(e)], {to: "target"})
        lines = _ledger_lines(fight["ledger"])
        for c in fight["columns"] if len(fight["columns"]) > 1 else []:
            lines.append(f"column {c['column']} (AD {c['ad']}, DRM {c['drm']:+d}): chance {c['p']}")
        lines.append(f"CRT column {fight['column']}, DRM {fight['drm']:+d} ({g.cites.combat.crt}): attacker/defender points")
        for o in fight["outcomes"]:
            lines.append(f"  {o['result']}: {o['p']} = {o['percent']:.1f}%")
        marks = {to: "target", **{data.units[x].loc: "attacker" for x in pick.attackers if x in data.units
                                   and data.units[x].loc}}
        return Figure(f"assault on {g.board.label(to)}", lines, marks)

    # --- what the position breaks -------------------------------------------------------------

    def problems(self, data: Any) -> list[str]:
        g = self.game
        out = []
        if g.tables.stacking is not None:
            out += [r.message(g.cites.stack) for r in violations(g.board, data, g.tables)]
        sides_at: dict[str, set[str]] = {}
        for u in data.on_map():
            t = self.t(u)
            sides_at.setdefault(u.loc, set()).add(u.side)
            if t.kind != "ship" and not u.has(ABOARD) and g.board.terrain(u.loc) == "sea":
                out.append(f"{u.id} is a land unit at sea in {g.board.label(u.loc)}, and not aboard a ship "
                           f"({g.cites.zoc.aboard})")
            if fat.takes_fatigue(g.tables, u) and u.fatigue > t.fatigue_limit:
                out.append(f"{u.id} has {u.fatigue} FP, over its limit of {t.fatigue_limit} (10.1)")
        for loc, sides in sorted(sides_at.items()):
            if len(sides) > 1 and not g.board.is_a(loc, "box"):
                out.append(f"{g.board.label(loc)} holds units of both sides ({g.cites.move.blocked}: never enter an enemy hex)")
        return out


def _ledger_lines(led: Mapping[str, Any]) -> list[str]:
    """A ledger's dict (``Ledger.to_dict``) as lines: each term with its value and section."""
    return render_ledger(led).splitlines()
