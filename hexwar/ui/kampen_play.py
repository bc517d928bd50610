"""Kampen om Norge in the terminal: the shared play loop with the card game's status, map
and explanations."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from rich.table import Table

from hexwar.games.kampen.game import FACTIONS
from hexwar.ui.play import Player

COLOURS = {"germans": "#333333", "norwegians": "#c8102e", "allies": "#b59b5b"}
SHORT = {"germans": "DE", "norwegians": "NO", "allies": "AL"}


class KampenPlayer(Player):
    """The play loop for Kampen om Norge: hands are private to the faction that holds them."""

    title = "Kampen om Norge"
    resume = "hexwar play kampen --load "

    def heading(self, side: str) -> str:
        x = self.s.data.extra
        return f"game round {self.s.data.turn} · {x['f']}'s round · {x['step']} · {side} decides"

    def status(self) -> None:
        d, g = self.s.data, self.game
        x = d.extra
        t = Table("", "battalions", "hand", "deck (unused)", "cards used", "lost", box=None)
        for f in FACTIONS:
            hand = ", ".join(g.copies[c].name for c in x["hand"][f]) if self.may_see(f) else f"{len(x['hand'][f])} cards"
            t.add_row(f, " ".join(f"{a}:{n}" for a, n in sorted(x["bn"][f].items())), hand, str(max(x["down"][f], 0)),
                      str(x["cards_used"][f]), str(x["losses"][f]))
        self.out.print(t)
        self.out.print(f"standing: {self.s.result().level}", markup=False)

    def may_see(self, f: str) -> bool:
        return not self.humans or f in self.humans or self.viewer is None and len(self.humans) == 3

    def show_events(self, events: Any) -> None:
        for e in events:
            if e.get("type") == "draw" and not self.may_see(e.get("faction", "")):
                self.out.print(f"  {e['faction']} draws to {e['hand']} cards", markup=False)
                continue
            self.out.print("  " + say(e), markup=False)

    def snapshot(self, supply: bool = False) -> Path:
        from hexwar.ui.render import render_svg

        d, g = self.s.data, self.game
        x = d.extra
        stacks = {a: [(SHORT[f], n, COLOURS[f]) for f in FACTIONS if (n := x["bn"][f].get(a, 0))] for a in g.land}
        for a, groups in x["attacks"].items():
            stacks.setdefault(a, []).append((SHORT[x["f"]] + "→", sum(gr[1] for gr in groups), "#d00000"))
        hl = [x["combat"]["area"]] if x.get("combat") else []
        svg = render_svg(g.board, None, highlight=hl, title=f"game round {d.turn}, {x['f']}, {x['step']}",
                         panel=self.panel_lines(), stacks={a: s for a, s in stacks.items() if s})
        base = self.save_path or Path("kampen-game.hexwar")
        path = Path(f"{base}.round{d.turn:02d}.{len(self.s.log):04d}.svg")
        path.write_text(svg, encoding="utf-8")
        return path

    def panel_lines(self) -> list[str]:
        d, x = self.s.data, self.s.data.extra
        lines = [f"Game round {d.turn}", f"{x['f']}: {x['step']}"]
        for f in FACTIONS:
            lines.append(f"{SHORT[f]} bns {sum(x['bn'][f].values())}, deck {max(x['down'][f], 0)}")
        lines.append("objectives: " + ", ".join(self.game.objectives())[:40])
        return lines

    def explain(self, what: str) -> str:
        g, d = self.game, self.s.data
        x = d.extra
        if what in ("", "last", "combat"):
            c = x.get("combat") or next((e for e in reversed(self.s.log.entries) for e in reversed(e.events)
                                         if e.get("type") == "combat_roll"), None)
            if not c:
                return "no combat yet"
            led = c.get("ledger", [])
            lines = [f"combat at {c['area']}: attacker rolls {c.get('a_faces', c.get('attacker'))}, "
                     f"defender rolls {c.get('d_faces', c.get('defender'))}"]
            lines += [f"  {ln['side']}: {ln['what']}: {ln['dice']} dice  [{ln['rule']}]" for ln in led]
            lines.append("  each 6 kills a battalion; the higher total wins, a tie goes to the defender [4.2]")
            return "\n".join(lines)
        if what in g.nbrs:
            lines = [f"{g.board.label(what)}: " + ", ".join(f"{f} {x['bn'][f].get(what, 0)}" for f in FACTIONS)]
            lines.append("  borders: " + ", ".join(n + (" (fjord/lake: attack dice halved, no German or Allied retreat)"
                                                         if (what, n) in g.water else "") for n in g.nbrs[what]))
            kinds = [k for k in ("point_city", "mobilisation", "airfield") if g.board.is_a(what, k)]
            lines.append(f"  {', '.join(kinds) or 'no symbols'}; coasts: {', '.join(sorted(g.coasts[what])) or 'none'}"
                         + ("; mined I/II coast" if g.mined_coast[what] else ""))
            lines.append(f"  in German air range now: {'yes' if what in g.air_range(x) else 'no'} [2.3]")
            if what in x["attacks"]:
                from hexwar.rules.dicecombat import battalion_dice

                groups = [(gr[1], bool(gr[2])) for gr in x["attacks"][what]]
                lines.append(f"  under attack by {sum(n for n, _ in groups)} battalions: {battalion_dice(groups)} battalion dice [4.2]")
            return "\n".join(lines)
        return f"explain what? an area id (e.g. narvik) or last (not {what!r})"

    def final_line(self) -> str:
        x = self.s.data.extra
        res = self.s.result()
        return f"{x['ended']}: {res.level}"


def say(e: Mapping[str, Any]) -> str:
    """One Kampen event as a sentence, with its rule."""
    from hexwar.ui.play import describe

    t = e.get("type")
    r = f"  [{e['rule']}]" if e.get("rule") else ""
    via = "".join(f" via {v}" for v in e.get("via", []))
    if t == "move":
        return f"{e['faction']} move {e['n']} from {e['from']}{via} to {e['to']}{r}"
    if t == "attack":
        return f"{e['faction']} attack {e['to']} with {e['n']} from {e['from']}{via}" + (" across a fjord (dice halved)" if e.get("fjord") else "") + r
    if t == "card":
        return f"{e['faction']} {e['how']} {e['card']}{r}"
    if t == "combat":
        return f"combat at {e['area']}: {e['attackers']} {e['attacker']} attack {', '.join(f'{n} {f}' for f, n in e['defenders'].items())}{r}"
    if t == "combat_roll":
        return (f"dice: attacker {e['attacker']} = {e['totals'][0]}, defender {e['defender']} = {e['totals'][1]}; "
                f"sixes kill {e['kills'][0]} defender(s), {e['kills'][1]} attacker(s){r}")
    if t == "combat_result":
        return f"{e['winner']} wins at {e['area']} ({e['totals'][0]} against {e['totals'][1]}; a tie goes to the defender){r}"
    if t == "withdraw":
        return f"{', '.join(f'{n} {f}' for f, n in e['battalions'].items())} withdraw from {e['from']} to {e['to']}{r}"
    if t == "round":
        return f"--- {e['faction']}'s round (game round {e['game_round']}){r}"
    if t == "game_over":
        return f"GAME OVER: {e['why']}: {e['level']}{r}"
    return describe({k: v for k, v in e.items() if k != "ledger"})
