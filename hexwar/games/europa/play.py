"""Playing the Europa "Narvik" variant in the terminal and the web board: the tracks, events
as sentences, explanations with their rule sections, and the map with its counters."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping

from rich.table import Table

from hexwar.core.orders import IllegalOrder, Move, Order
from hexwar.rules.orders import Retreat
from hexwar.games.europa.orders import (
    Absorb,
    Assemble,
    Attack,
    Breakdown,
    Detach,
    Evade,
    Interdict,
    Mission,
    Truck,
)
from hexwar.games.europa.state import ALLIES, DISRUPTED, GERMANS, OVERSTACKED, other
from hexwar.rules.ledger import Ledger, fmt
from hexwar.games.europa.weigh import Weigh
from hexwar.games.europa.words import at as _at
from hexwar.games.europa.words import band_words as _band
from hexwar.games.europa.words import chances as _chances
from hexwar.games.europa.words import said as _said
from hexwar.games.common.land import CounterPresenter
from hexwar.ui.words import Said, said_parts, said_text, sentence

def _path(p: Any) -> str:
    if isinstance(p, (list, tuple)) and p:
        return " > ".join(list(p[:-1]) + [_at(p[-1])])
    return str(p)


SAY = {
    "player_turn": lambda e: f"turn {e['turn']} ({e['date']}): the {e['side']}' player turn",
    "phase_end": lambda e: f"the {e['side']} end their {e['phase']} phase",
    "disrupted": lambda e: f"{e['unit']} is {'disrupted' if e['on'] else 'no longer disrupted'} at {_at(e['at'])}",
    "overstacked": lambda e: f"{e['unit']} is {'overstacked (adds nothing to the defence)' if e['on'] else 'no longer overstacked'} at {_at(e['at'])}",
    "owner": lambda e: f"{_at(e['hex'])} now belongs to the {e['side']}",
    "eliminated": lambda e: f"{e['unit']} is eliminated",
    "vp": lambda e: f"the {e['side']} score {e['vp']} VP: {e['cause']}",
    "arrive": lambda e: f"{e['unit']} arrives at {_at(e['at'])}",
    "rebase": lambda e: f"{e['unit']} flies to the airfield at {_at(e['at'])}",
    "mobilised": lambda e: f"{e['unit']} mobilises at {_at(e['at'])}",
    "formed": lambda e: f"{e['unit']} forms at {_at(e['at'])} from the captured store's gunners",
    "lost": lambda e: f"{e['unit']} is lost: {e['cause']}",
    "delayed": lambda e: f"{e['unit']} is delayed: {e['cause']}",
    "supply": lambda e: f"out of general supply: {', '.join(e['out'])}",
    "move": lambda e: f"{e['unit']} moves {_path(e['path'])}" + (f" with {', '.join(e['units'])}" if e["units"] else ""),
    "truck": lambda e: f"{e['unit']} drives {', '.join(e['units'])} {_path(e['path'])}",
    "absorb": lambda e: f"{e['hq']} absorbs {e['unit']}",
    "detach": lambda e: f"{e['hq']} detaches {e['unit']}",
    "assemble": lambda e: f"{', '.join(e['battalions'])} reassemble as {e['regiment']} at {_at(e['at'])}",
    "breakdown": lambda e: f"{e['regiment']} breaks down into {', '.join(e['battalions'])} at {_at(e['at'])}",
    "interdict": lambda e: f"the Allies interdict {_at(e['port'])}: die {e['die']}{e['drm']:+d}, {e['result']}"
                           + (f", sunk {', '.join(e['sunk'])}" if e["sunk"] else ""),
    "mission": lambda e: f"{e['unit']} flies over {_at(e['target'])}" + (", turned back by AA fire" if e["turned_back"] else "")
                         + (f" (AA dice {e['rolls']})" if e["rolls"] else ""),
    "evade": lambda e: f"defenders at {_at(e['target'])}: {e['choice']}" + (f", die {e['die']}" if e["die"] else "") + f", {e['result']}",
    "attack": lambda e: f"attack on {_at(e['target'])}: {e['attack']} to {e['defence']}, shift {e['shift']:+d}, column {e['column']}, "
                        f"die {e['die']}: {e['result']}",
    "retreat": lambda e: f"{e['unit']} retreats {_at(e['frm'])} > {_at(e['to'])}",
    "advance": lambda e: f"{e['unit']} advances into {_at(e['to'])}",
    "game_over": lambda e: f"the game ends after turn {e['turn']}: the Germans own {e['ports']} of the 7 ports; {e['level']}",
}


def say(e: Mapping[str, Any]) -> str:
    """One event as a sentence with its rule section."""
    return sentence(e, SAY)


class EuropaPresenter(CounterPresenter):
    """The Europa variant for a person (everything is face up: no hidden units); its orders
    are weighed before they are given by ``weigh`` (``hexwar.games.europa.weigh``)."""

    title = "Narvik (Europa variant)"
    order_words = {
        "pass": "end this step: no more moves, attacks or missions of yours in this phase (E3)",
        "advance": "advance into the hex the defenders left, after the combat, or decline (E3 D)",
        "move": "move the unit along this path, paying each hex's MP on the terrain chart (E4)",
        "retreat": "retreat the unit along this path after the combat (E3 D)",
    }
    glossary_examples = ("attack supply", "disrupted")
    past = {"absorb": "absorbed a unit into an HQ", "assemble": "assembled a regiment", "attack": "attacked",
            "detach": "detached a unit", "evade": "evaded", "form": "formed a unit", "mission": "flew an air mission",
            "stand": "stood", "truck": "trucked a unit", "interdict": "interdicted", "land": "landed"}

    def __init__(self, session: Any) -> None:
        super().__init__(session)
        self.glossary = glossary(self.game)
        self.weigh = Weigh(self)

    @property
    def data(self) -> Any:
        return self.session.view()

    def describe(self, e: Mapping[str, Any]) -> str:
        return say(e)

    def final_line(self) -> str:
        res = self.s.result()
        return f"{res.level}: Allies {res.vp.get('allies', 0)} VP, Germans {res.vp.get('germans', 0)} VP"

    def panel_lines(self) -> list[str]:
        g, d = self.game, self.data
        n = g.ports_held(d)
        return [f"turn {d.turn} of {g.spec.turns}: {g.date(d.turn)}", f"{d.side}' player turn, {d.phase} phase",
                f"ports (E2): Germans {n}, Allies {7 - n}", f"VP: Germans {d.vp.get(GERMANS, 0)}, Allies {d.vp.get(ALLIES, 0)}",
                f"out of general supply (E1): {len(d.out_of_supply)}"]

    def brief(self) -> list[tuple[str, list[str]]]:
        from hexwar.games.europa import briefing

        return briefing.brief(self)

    def tracks(self) -> list[str]:
        return self.panel_lines()

    def status_lines(self) -> list[Any]:
        g, d = self.game, self.data
        t = Table(show_header=False, box=None)
        t.add_row("turn", f"{d.turn} of {g.spec.turns} ({g.date(d.turn)}, 4 days)", "phase", f"{d.side}: {d.phase}")
        t.add_row("ports (E2)", f"Germans own {g.ports_held(d)} of 7", "VP", f"Germans {d.vp.get(GERMANS, 0)}  Allies {d.vp.get(ALLIES, 0)}")
        t.add_row("result", self.s.result().level, "to decide", f"{d.ask.side}: {d.ask.what}" if d.ask else "-")
        out: list[Any] = [t, "ports: " + ", ".join(f"{g.board.place(h).name} ({h}) {d.owner.get(h)}" for h in g.victory_ports)]
        flags = [f"{u.id} {'disrupted' if u.has(DISRUPTED) else 'overstacked'}" for u in sorted(d.on_map(), key=lambda u: u.id)
                 if u.has(DISRUPTED) or u.has(OVERSTACKED)]
        if flags:
            out.append("flags: " + ", ".join(flags))
        if d.out_of_supply:
            out.append("out of general supply (E1): " + ", ".join(d.out_of_supply))
        if d.blockaded:
            out.append("blockaded (E1): " + ", ".join(f"{p} until turn {t}" for p, t in sorted(d.blockaded.items()) if t >= d.turn))
        return out

    def unit_line(self, u: Any) -> str:
        g, d = self.game, self.data
        t = g.t(u)
        line = f"{u.id}{' ' + u.name if u.name and u.name != u.id else ''}: {t.kind} {t.size}, {t.attack}-{t.defence}-{t.mp}"
        if u.has(DISRUPTED):
            line += ", disrupted (E1)"
        if u.has(OVERSTACKED):
            line += ", overstacked (E5 B)"
        if u.id in d.absorbed:
            line += f", absorbed by {d.absorbed[u.id]} (E5 C)"
        if u.id in d.out_of_supply:
            line += ", out of general supply (E1)"
        return line

    def about(self, loc: str, unit: str | None = None) -> list[str]:
        d = self.data
        lines = super().about(loc)
        if loc in d.owner:
            lines.append(f"owned by the {d.owner[loc]} (E4)")
        lines += [self.unit_line(u) for u in d.at(loc)]
        if d.combat is not None and d.combat.target == loc:  # the attack waiting on a decision here
            lines.append(f"attacked now by {', '.join(d.combat.attackers)} (E3 D)")
        u = d.units.get(unit or "")
        if u is not None and u.loc is not None and u.loc != loc and self.game.ground(u):
            lines.append(said_text(self.way_there(u.id, loc)))
        return lines

    # --- movement (E4) ----------------------------------------------------------------------

    def exploiting(self) -> bool:
        return bool(self.data.phase == "exploitation")

    def path_ledger(self, uid: str, path: tuple[str, ...], mover: str = "") -> Any:
        """The MP ledger of a unit's move along a path (E4), as the game reckons it."""
        from hexwar.games.europa.phases.movement import path_ledger

        d = self.data
        return path_ledger(self.game, d, d.units[uid], tuple(path), d.units[mover] if mover else None)

    def explain_move(self, uid: str, dest: str) -> Said:
        """The MP ledger of a unit's way to a hex this phase (E4): the path the game would move
        it along; why it may not move now, or cannot get there, where that is so."""
        from hexwar.games.europa.phases.movement import destinations

        g, d = self.game, self.data
        u = d.units.get(uid)
        if u is None or u.loc is None or not g.ground(u):
            return f"{uid}: not a ground unit on the map"
        if dest == u.loc:
            return f"{uid} is at {dest} already"
        exploit = self.exploiting()
        way = destinations(g, d, u, exploit).get(dest)
        why = self.why_not_move(uid)
        if way is None:
            phase = "exploitation" if exploit else "movement"
            return (f"{uid} cannot reach {dest} in a {phase} phase from {u.loc} (MP {fmt(g.movement(d, u))})"
                    + (f"; and now {why}" if why else ""))
        return [self.path_ledger(uid, way)] + ([f"(not this phase: {why})"] if why else [])

    def why_not_move(self, uid: str) -> str:
        """Why the unit may not move in this phase (E4, E3 E, E5 C, E1 trucks): the game's own
        ``why_not_move``, which ``may_move`` asks ("" if it may)."""
        from hexwar.games.europa.phases.movement import why_not_move

        u = self.data.units.get(uid)
        return "" if u is None or u.loc is None else why_not_move(self.game, self.data, u, self.exploiting())

    def way_there(self, uid: str, dest: str) -> Said:
        """What a unit picked on the map does to a hex the mouse is over: its cheapest way
        there and its MP (E4); into an enemy-held hex it stops, and then attacks (E3 D)."""
        from hexwar.games.europa.phases.movement import destinations

        g, d = self.game, self.data
        u = d.units.get(uid)
        led = self.explain_move(uid, dest)
        if u is not None and g.ground_at(d, dest, other(u.side)) and dest in destinations(g, d, u, self.exploiting()):
            then = "; units sharing a hex with the enemy must attack it (E3 D)" if g.attack(d, u) > 0 else ""
            return [f"held by the enemy: {uid} may move in and stop (E4){then}", *said_parts(led)]
        return led

    def explain_order(self, order: Order) -> Said:
        """A listed attack as ``explain attack`` gives it; a move its MP ledger; a retreat
        where it may go; an evasion its die; any other order by its note."""
        if isinstance(order, Attack):
            try:
                return [order.text(), *self.weigh.attack_ledger(order)] + ([w] if (w := self.weigh.caveat(order)) else [])
            except ValueError as exc:
                return f"{order.text()}: {exc}"
        if isinstance(order, Move) and order.unit in self.data.units:
            way: Ledger = self.path_ledger(order.unit, order.path)
            return way
        if isinstance(order, Truck) and order.unit in self.data.units and order.truck in self.data.units:
            return [f"{order.truck} drives {order.unit} (E1 trucks): the truck's MP",
                    self.path_ledger(order.unit, order.path, order.truck)]
        if isinstance(order, Retreat):
            return self.weigh.retreat_lines(order)
        if isinstance(order, Evade):
            return self.weigh.evade_lines(order)
        if isinstance(order, Interdict):
            return self.weigh.interdiction_words(order)
        if isinstance(order, Mission):
            return self.weigh.mission_words(order)
        if isinstance(order, (Absorb, Detach)) and order.hq in self.data.units:
            return self.weigh.hq_words(order)
        if isinstance(order, (Assemble, Breakdown)) and order.regiment in self.data.units:
            return self.weigh.regiment_words(order)
        return super().explain_order(order)

    def think_twice(self, order: Order) -> str | None:
        """Also the end of a movement or exploitation phase that leaves units over the stacking
        limit, where they add nothing to the defence (E5 B)."""
        why = super().think_twice(order)
        if why is None and (over := self.weigh.left_overstacked(order)):
            why = (f"this order ends your {self.data.phase} phase with {len(over)} unit{'s' if len(over) > 1 else ''} over "
                   f"the stacking limit, adding nothing to the defence (E5 B): {', '.join(over)}; an HQ may absorb "
                   "units of its formation (absorb, E5 C)")
        return why

    def order_note(self, order: Order) -> tuple[str, float | None]:
        """An attack's exact odds before it is made (E1's CRT); a move's or a truck's MP (E4);
        the end of a movement phase, the units it leaves overstacked (E5 B)."""
        if over := self.weigh.left_overstacked(order):
            return f"leaves over the stacking limit (E5 B): {', '.join(over)}", None
        if isinstance(order, (Absorb, Detach)) and order.hq in self.data.units:  # the explanation's counts, in short
            try:
                counts, mp = self.weigh.hq_effect(order)
            except IllegalOrder:
                return "", None
            return f"{counts}; the HQ moves at {fmt(mp)} MP", None
        if isinstance(order, (Assemble, Breakdown)) and order.regiment in self.data.units:
            try:
                return self.weigh.regiment_change(order)[2], None
            except IllegalOrder:
                return "", None
        if isinstance(order, Interdict):
            drm, out = self.weigh.interdiction_chances(order)
            return _chances(out.items()) + f" (die {drm:+d})", None
        if isinstance(order, Mission):
            aa, through = self.weigh.mission_chances(order)
            return f"gets through {float(through):.0%}" + (f" ({len(aa)} AA)" if aa else ""), None
        if isinstance(order, Evade) and self.data.combat is not None:  # the explanation's figures, in short
            stand, go, caught = self.weigh.evade_odds(order)
            if not order.go:
                return f"if the attack is fought as it stands: {stand}", None
            if self.game.switches.free_retreat:
                return "they retreat before combat, no die", None
            return f"{self.weigh.slip_words(go)}; else caught: the attack gains a column: {caught}", None
        if isinstance(order, (Move, Truck)) and len(order.path) > 1:
            try:
                led = self.path_ledger(order.unit, order.path, getattr(order, "truck", ""))
            except KeyError:
                return "", None
            if not isinstance(led.total, (int, Fraction)):
                return "", None
            return f"{fmt(led.total)} MP", float(led.total)
        if isinstance(order, Attack):
            from hexwar.games.europa.phases import combat

            try:
                ex = combat.explain(self.game, self.s.data, order)  # type: ignore[arg-type]
            except ValueError:
                return "", None
            good = sum((p for r, p in ex["odds"] if r in ("DE", "DR", "EX", "DD")), Fraction(0))
            note = f"{ex['attack']}:{ex['defence']} shift {ex['shift']:+d}: " + ", ".join(f"{r} {p}" for r, p in ex["odds"])
            if w := self.weigh.caveat(order):
                note += f" ({w})"
            return note, float(good)
        return "", None

    def explain(self, what: str) -> Said:
        g, d = self.game, self.data
        parts = what.split()
        if parts and parts[0] == "attack":
            try:
                o = Attack(self.s.current_side(), parts[1], tuple(parts[3:] if len(parts) > 2 and parts[2] == "with" else parts[2:]))
                return self.weigh.attack_ledger(o)
            except (IndexError, ValueError) as exc:
                return f"explain attack HEX with UNIT...: {exc}"
        if what in ("", "last"):
            return self.last_combat()
        if len(parts) == 2 and parts[0] in d.units and parts[1] in g.board:
            return self.explain_move(parts[0], parts[1])
        if what in d.units:
            u = d.units[what]
            lines = [self.unit_line(u) + f", at {u.loc or u.pool}"]
            if u.loc is not None and g.ground(u):
                ok = g.supplied(d, u.side, g.rules.general_supply.hexes).get(u.id)
                lines.append(f"general supply (E1, a line of at most {g.rules.general_supply.hexes} hexes to a source): {'yes' if ok else 'NO'}")
                mp = g.movement(d, u)
                lines.append(f"movement rating now: {mp} MP (E4; halved when disrupted or out of supply, fractions kept)")
            return "\n".join(lines)
        if what in g.board:
            return "\n".join(self.about(what))
        return (f"explain what? a unit, a hex id like 2508, a unit and a hex ('2DivHQ 1743': its way there), "
                f"'attack HEX with UNIT ...', or last (not {what!r})")

    def last_combat(self) -> Said:
        """The last attack: its ledger, odds column, die and result (E1); or, where the
        Norwegian defenders retreated before combat, that and its die (E1)."""
        for entry, ev in self.session.newest_events("attack", "evade"):
            if ev["type"] == "attack":
                fought: Mapping[str, Any] = ev["ledger"]
                return fought
            if ev.get("result") == "retreat":
                by = self.attack_before(entry.seq, ev["target"])
                r = self.game.rules
                why = (f"on turn 1 they must, on a die of {_band(r.turn1_retreat, 'retreat')}: the die was {ev['die']}"
                       if ev["choice"] == "turn 1" else
                       f"they chose to, and slip away on a die of {_band(r.retreat_option, 'retreat')}: the die was {ev['die']}"
                       if ev["die"] else "they chose to (free retreat: no die)")
                return (f"attack on {_at(ev['target'])}{by}: not fought, the Norwegian defenders retreated before "
                        f"combat; {why}  [E1]")
        return "no combat yet"

    def attack_before(self, seq: int, target: str) -> str:
        """' by UNITS' of the last attack on ``target`` declared at or before entry ``seq``."""
        for entry in reversed(self.s.log.entries):
            o = entry.order
            if entry.seq <= seq and o.get("kind") == "attack" and o.get("target") == target:
                return " by " + ", ".join(o.get("units", ()))
        return ""

    def map_svg(self, layer: str = "") -> str:
        d = self.data
        return render(self.game, d, viewer=self.session.viewer, title=f"turn {d.turn}, {d.side} {d.phase}", panel=self.panel_lines())


def render(g: Any, d: Any, viewer: str | None = None, title: str = "", panel: list[str] | None = None) -> str:
    """The map with counters (attack-defence-MP), the enemy's ZoC shaded, the last combat outlined."""
    from hexwar.games.common.palette import PALETTE
    from hexwar.ui.render import render_svg

    def mark(u: Any) -> str:  # D: disrupted (E1), O: overstacked (E5 B)
        return (" D" if u.has(DISRUPTED) else "") + (" O" if u.has(OVERSTACKED) else "")

    text = {u.id: f"{u.id}\n{g.t(u).attack}-{g.t(u).defence}-{g.t(u).mp}{mark(u)}" for u in d.on_map() if g.ground(u)}
    last = d.last_combat or {}
    enemy = GERMANS if viewer != GERMANS else ALLIES
    return render_svg(g.board, d, palette=PALETTE, highlight=[last["target"]] if last else [], viewer=viewer, title=title,
                      panel=panel or [], shade=g.zoc(d, enemy), unit_text=text)


def glossary(g: Any) -> dict[str, tuple[str, str]]:
    """The variant's terms by its sections (E1-E6), each number read from the game's charts
    (``tables/europa/rules.yaml``, the unit types): where the variant gives none and the
    chart is ours, the definition says so; a player's own chart shows its own values."""
    r = g.rules
    gs, at, dis, inter = r.general_supply, r.attack_supply, r.disrupted, r.interdictions
    hq = g.types["nor_div_hq"]
    return {
        "general supply": (f"a line of at most {_said(f'{gs.hexes} hexes', gs.source)} from a unit to a supply source, "
                           "not through enemy units or their ZoC unless a friendly unit stands there; out of it a "
                           "unit moves and attacks at half", "E1"),
        "attack supply": (f"a unit within {_said(f'{at.hexes} hexes', at.source)} of a source or of an HQ in general "
                          "supply attacks at full strength; without it, at half", "E1"),
        "disrupted": ("the AD and DD results of the CRT: until its side's next player turn the unit keeps "
                      f"{_said(dis['attack'].keep, dis['attack'].source)} of its attack, "
                      f"{_said(dis['defence'].keep, dis['defence'].source)} of its defence and "
                      f"{_said(dis['mp'].keep, dis['mp'].source)} of its movement", "E1"),
        "odds": ("the CRT is read by the attack's strength against the defence's as odds, a column shifted for "
                 "defenders caught retreating; explain last shows the figures", "E1, E6"),
        "retreat before combat": (f"turn 1: Norwegian defenders retreat before combat on a die of {_band(r.turn1_retreat, 'retreat')}; "
                                  f"later turns the defender may evade: on {_band(r.retreat_option, 'retreat')} it slips "
                                  "away, else it is caught and the attack gains a column", "E1"),
        "breakdown": ("German regiments start broken down into battalions; three of a regiment's battalions in one "
                      "hex may assemble into it, and it may break down again", "E1"),
        "interdict": (f"Allied sea interdiction of a port, {_said(inter.hexes, inter.source)} a turn: a blockaded port "
                      "is no German supply source, and destroyers sunk in it land their sailors as a naval regiment "
                      "on turn 2", "E1"),
        "stacking": (f"{r.stack_ground.hexes} ground units and {r.stack_artillery.hexes} artillery batteries (a battalion "
                     "is 2) a hex; units beyond add nothing to the defence", "E5"),
        "absorb": ("an HQ takes units of its own formation into itself, freeing the stack (a Norwegian HQ any "
                   f"friendly unit, at most {_said(hq.hq.limit, hq.source)}); it moves at its slowest absorbed unit's "
                   "rate and carries them", "E5"),
        "exploitation": ("the last phase of a player turn: only combat motorized units move again, never into a "
                         "defended hex", "E3"),
        "ports": ("the seven ports decide the game; victory points for destroying key units break a tie", "E2"),
    }
