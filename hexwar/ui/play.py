"""Solitaire play in the terminal: a person commands one side (or both), bots the rest.

Every order goes to a crash-safe save as it is made; ``undo`` replays the log minus its
tail; ``map`` writes an SVG snapshot seen from the player's side; ``explain`` prints the
ledgers behind the numbers, with their rule sections.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from rich.console import Console
from rich.table import Table

from hexwar.core.engine import PlayState
from hexwar.core.orders import IllegalOrder, Order

HELP = """\
Commands
  <number>            give the order with that number from the list
  <order text>        give an order typed as listed, e.g.  move 1SG 2214>2215   or   pass
  list [word]         list the legal orders (all, or those whose text contains the word)
  map [supply]        write an SVG snapshot of the map (with lines of supply) and print its path
  explain <unit|hex|last>   how a number was reached: fatigue, supply, terrain, ZoC, the last combat
  explain <unit> <hex>      the MP of each step of the unit's cheapest path there
  undo [n]            take back your last order (or n orders)
  save [file]         copy the game to another file (it is always saved as you play)
  status              show turn, phase, tracks and victory points
  help                this text
  quit                leave (the game stays saved; resume with --load)"""

MAX_LISTED = 30


class Player:
    """The interactive loop over one game; ``humans`` are the sides the person commands."""

    title = "Assault on Narvik"
    resume = "hexwar play narvik --load "

    def __init__(self, state: PlayState, humans: set[str], bots: Mapping[str, Any], console: Console,
                 save_path: Path | None, read: Callable[[str], str]):
        self.s = state
        self.humans = humans
        self.bots = bots
        self.out = console
        self.save_path = save_path
        self.read = read
        self.viewer = next(iter(humans)) if len(humans) == 1 else None
        self.game: Any = state.game  # the Narvik game object (board, tables, spec)

    # --- display --------------------------------------------------------------------

    def status(self) -> None:
        d = self.s.data
        ask = d.extra.get("ask", {})
        bad = ", ".join(d.extra.get("bad", [])) or "none"
        t = Table(show_header=False, box=None)
        t.add_row("turn", f"{d.turn} of {self.game.spec.turns}", "phase", d.phase)
        t.add_row("weather", f"{d.weather} (bad: {bad})", "German AP", str(d.tracks.get("ap", 0)))
        t.add_row("VP", f"Allies {d.vp.get('allies', 0)}  Germans {d.vp.get('germans', 0)}", "result", self.s.result().level)
        t.add_row("to decide", f"{ask.get('side', '-')}: {ask.get('what', '-')}", "bases", ", ".join(d.bases) or "none")
        self.out.print(t)
        tired = [(u.id, u.fatigue, self.game.tables.types[u.type].fatigue_limit) for u in sorted(d.on_map(), key=lambda u: u.id)
                 if u.fatigue and self.visible(u)]
        if tired:
            self.out.print("fatigue: " + "  ".join(f"{i} {f}/{fl}" for i, f, fl in tired), markup=False)

    def visible(self, u: Any) -> bool:
        return self.viewer is None or u.side == self.viewer or not u.concealed

    def show_events(self, events: Iterable[dict[str, Any]]) -> None:
        for e in events:
            if self.viewer and e.get("type") == "secret" and e.get("side") != self.viewer:
                self.out.print("  (a secret event was rolled)")
                continue
            if self.viewer and e.get("type") in ("place", "dummy") and e.get("concealed", True) and self.viewer != "germans":
                self.out.print(f"  a German unit arrives at {e.get('hex')} (face down)", markup=False)
                continue
            self.out.print("  " + describe(e), markup=False)

    def list_orders(self, legal: list[Order], word: str = "") -> None:
        shown = [(i, o) for i, o in enumerate(legal, 1) if word.lower() in o.text().lower()]
        if not word and len(shown) > MAX_LISTED:
            kinds: dict[str, int] = {}
            for o in legal:
                kinds[o.kind] = kinds.get(o.kind, 0) + 1
            self.out.print(f"{len(legal)} legal orders: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())), markup=False)
            self.out.print("showing the first ones; 'list <word>' filters (e.g. list assault, list 1SG)")
            shown = shown[:MAX_LISTED]
        for i, o in shown[: 200]:
            self.out.print(f"  {i:>3}  {o.text()}", markup=False)

    # --- the loop -------------------------------------------------------------------

    def run(self) -> int:
        self.out.print(f"{self.title}: you command {', '.join(sorted(self.humans)) or 'nobody'}; type help for commands.")
        if self.save_path:
            self.out.print(f"saving every order to {self.save_path}", markup=False)
        last_listed_for = None
        while not self.s.is_over():
            side = self.s.current_side()
            legal = self.s.legal_orders()
            if side not in self.humans:
                bot = self.bots[side]
                with self.out.status(f"{side} ({bot.name}) is thinking..."):
                    order = bot.choose(self.s, legal)
                self.out.print(f"[bold]{side}[/]: {order.text()}")
                self.show_events(self.s.apply(order))
                continue
            key = (len(self.s.log), side)
            if key != last_listed_for:
                self.out.rule(self.heading(side))
                self.list_orders(legal)
                last_listed_for = key
            line = self.read(f"{side}> ").strip()
            if not line:
                continue
            if self.command(line, legal) == "quit":
                return 0
        self.out.rule("game over")
        self.out.print(self.final_line(), markup=False)
        return 0

    def final_line(self) -> str:
        res = self.s.result()
        return f"{res.level}: Allies {res.vp.get('allies', 0)} VP, Germans {res.vp.get('germans', 0)} VP"

    def heading(self, side: str) -> str:
        ask = self.s.data.extra.get("ask", {})
        return f"turn {self.s.data.turn} · {self.s.data.phase} · {side}: {ask.get('what')}"

    def command(self, line: str, legal: list[Order]) -> str | None:
        word, _, rest = line.partition(" ")
        word = word.lower()
        if word in ("quit", "exit", "q"):
            self.out.print("game saved; resume with: " + self.resume + str(self.save_path or ""), markup=False)
            return "quit"
        if word in ("help", "?", "h"):
            self.out.print(HELP, markup=False)
            return None
        if word in ("list", "ls", "l"):
            self.list_orders(legal, rest.strip())
            return None
        if word == "status":
            self.status()
            return None
        if word == "map":
            self.out.print(f"map written to {self.snapshot(supply=rest.strip() == 'supply')}", markup=False)
            return None
        if word == "explain":
            self.out.print(self.explain(rest.strip()), markup=False)
            return None
        if word == "undo":
            n = int(rest) if rest.strip().isdigit() else 1
            n = self.undo_count(n)
            if n == 0:
                self.out.print("nothing of yours to undo")
                return None
            self.s.undo(n)
            self.out.print(f"took back {n} order(s)")
            return None
        if word == "save":
            dest = Path(rest.strip() or (str(self.save_path) + ".copy"))
            from hexwar.core.log import SaveFile

            SaveFile(dest).create(self.s.log)
            self.out.print(f"saved to {dest}", markup=False)
            return None
        order = self.parse(line, legal)
        if order is None:
            self.out.print(f"not understood: {line!r} (type help, or list to see orders)", markup=False)
            return None
        try:
            self.show_events(self.s.apply(order))
        except IllegalOrder as e:
            self.out.print(f"refused: {e}", markup=False)
        return None

    def undo_count(self, n: int) -> int:
        """Return how many log entries to drop so that the player's last n orders go (bots' too)."""
        entries = self.s.log.entries
        mine = 0
        for k in range(len(entries) - 1, -1, -1):
            if entries[k].order.get("side") in self.humans:
                mine += 1
                if mine == n:
                    return len(entries) - k
        return 0

    @staticmethod
    def parse(line: str, legal: list[Order]) -> Order | None:
        if line.isdigit():
            i = int(line)
            return legal[i - 1] if 1 <= i <= len(legal) else None
        low = " ".join(line.lower().split())
        for o in legal:
            if o.text().lower() == low:
                return o
        return None

    # --- map and explanations --------------------------------------------------------

    def supply_paths(self) -> list[tuple[str, ...]]:
        """Return the line of supply of every Allied land unit on the map that has one (19.3)."""
        g, d = self.game, self.s.data
        out = []
        for u in d.on_map("allies"):
            if u.loc and u.loc != "harstad" and g.is_land(u) and not u.has("aboard"):
                res = g.supply(d, u)
                if res.supplied and len(res.path) > 1:
                    out.append(res.path)
        return out

    def snapshot(self, supply: bool = False) -> Path:
        from hexwar.ui.render import render_svg

        g = self.game
        d = self.s.data
        last = d.extra.get("last_combat", {})
        hl = [last["target"]] if last else []
        from hexwar.rules.zoc import zoc_of

        enemy = "germans" if self.viewer != "germans" else "allies"
        text = {u.id: f"{u.id} {g.tables.types[u.type].strength}-{g.tables.types[u.type].mp}" for u in d.on_map()
                if g.is_land(u)}
        svg = render_svg(g.board, d, highlight=hl, viewer=self.viewer, title=f"turn {d.turn}, {d.phase}",
                         panel=self.panel_lines(), shade=zoc_of(g.board, d, g.tables, enemy), unit_text=text,
                         paths=self.supply_paths() if supply else ())
        base = self.save_path or Path("hexwar-game.hexwar")
        path = Path(f"{base}.turn{d.turn:02d}.{len(self.s.log):04d}.svg")
        path.write_text(svg, encoding="utf-8")
        return path

    def panel_lines(self) -> list[str]:
        d = self.s.data
        return [f"Turn {d.turn}/{self.game.spec.turns}  {d.phase}", f"Weather {d.weather}",
                f"German AP {d.tracks.get('ap', 0)}", f"VP Allies {d.vp.get('allies', 0)}",
                f"VP Germans {d.vp.get('germans', 0)}", f"Bases {', '.join(d.bases) or '-'}"]

    def explain_move(self, uid: str, dest: str) -> str:
        """Return the MP ledger of the cheapest path of a unit to a hex (14.0-14.2, 12.1)."""
        from hexwar.rules.movement import explain_path, reach

        g, d = self.game, self.s.data
        u = d.units[uid]
        if not self.visible(u) or u.loc is None:
            return f"{uid}: not a unit you can see on the map"
        t = g.tables.types[u.type]
        q = g.query(d, u)
        r = reach(g.board, g.tables.terrain, d.weather, t.movement_class, u.loc, q)
        if dest not in r:
            return f"{uid} cannot reach {dest} in one movement action from {u.loc} (MP {q.mp}, {d.weather})"
        return explain_path(g.board, g.tables.terrain, d.weather, t.movement_class, r.path(dest), q).render()

    def explain(self, what: str) -> str:
        from hexwar.rules.fatigue import explain_fatigue
        from hexwar.rules.stacking import explain_stack
        from hexwar.rules.zoc import explain_zoc

        g = self.game
        d = self.s.data
        parts = what.split()
        if len(parts) == 2 and parts[0] in d.units and parts[1] in g.board:
            return self.explain_move(parts[0], parts[1])
        if what in ("", "last"):
            c = d.extra.get("last_combat")
            if not c:
                return "no combat yet"
            return render_ledger(c["ledger"])
        if what in d.units:
            u = d.units[what]
            if not self.visible(u):
                return f"{what}: a face-down counter; you do not know what it is (11.0)"
            t = g.tables.types[u.type]
            lines = [f"{u.id} {u.name}: {t.kind} {t.size}, strength {t.strength}, MP {t.mp}, FL {t.fatigue_limit}, at {u.loc or u.pool}"]
            lines.append(explain_fatigue(d, g.tables, u.id).render())
            if u.side == "allies" and u.loc and u.loc != "harstad" and t.kind != "ship":
                lines.append(g.supply(d, u).explain().render())
            return "\n".join(lines)
        if what in g.board:
            lines = [f"{g.board.label(what)}: {g.board.terrain(what)}"]
            for u in d.at(what):
                lines.append(f"  {u.id if self.visible(u) else '? (face down)'} ({u.side})")
            for side in ("allies", "germans"):
                lines.append(explain_zoc(g.board, d, g.tables, what, side).render())
                if any(u.side == side for u in d.at(what)):
                    lines.append(explain_stack(g.board, d, g.tables, what, side).render())
            return "\n".join(lines)
        return f"explain what? a unit id, a hex id like 2212, or last (not {what!r})"


def render_ledger(led: Mapping[str, Any]) -> str:
    out = [led["title"]]
    for ln in led["lines"]:
        v = "" if ln["value"] is None else f": {ln['value']}"
        r = f"  [{ln['rule']}]" if ln["rule"] else ""
        out.append(f"  {ln['text']}{v}{r}")
    if led.get("total") is not None:
        out.append(f"  = {led['total']}")
    return "\n".join(out)


def describe(e: Mapping[str, Any]) -> str:
    """Return one event as a line of text."""
    kind = e.get("type", "?")
    rule = f"  [{e['rule']}]" if e.get("rule") else ""
    body = {k: v for k, v in e.items() if k not in ("type", "rule", "ledger")}
    if kind == "assault":
        return (f"assault on {e['target']}: AD {e['ad']}, DRM {e['drm']:+d}, die {e['die']}, column {e['column']}"
                f" -> {e['result']} (attacker/defender){rule}")
    return f"{kind}: " + ", ".join(f"{k} {json.dumps(v) if isinstance(v, (list, dict)) else v}" for k, v in body.items()) + rule
