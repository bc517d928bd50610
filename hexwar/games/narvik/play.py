"""Assault on Narvik in the terminal: the shared play loop with the game's status, map
snapshots (German counters face down for the Allies, their ZoC shaded, lines of supply) and
explanations (fatigue, supply, ZoC, stacking, movement and the last combat)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping, cast

from rich.table import Table

from hexwar.core.orders import Move, Order
from hexwar.games.narvik.orders import parse_text
from hexwar.games.narvik.state import ALLIES, GERMANS, HARSTAD, NarvikData
from hexwar.rules.ledger import fmt
from hexwar.rules.stacking import ABOARD
from hexwar.games.common.asked import before_the_die
from hexwar.games.common.land import LandPresenter, assault_odds_line
from hexwar.ui.words import ledger_before_the_die
from hexwar.ui.words import describe as describe_event
from hexwar.ui.words import Part, Said, said_text, sentence


class NarvikPresenter(LandPresenter):
    """Assault on Narvik's words, explanations and map for a person."""

    title = "Assault on Narvik"
    order_words = {
        "pass": "in the action phase, give up the initiative: two passes in a row, one by each side, end the phase "
                "(9.2); in a reaction, no reaction (9.1.1); at a Base, MAS or placement decision, not now",
        "base": "designate this port, held by an Allied land unit, as a Base: a source of supply (19.3) and an Air "
                "Table modifier; two at most, never changed; a German land unit that later occupies it takes it, "
                "+5 VP to the Germans (19.4, 29.0)",
        "mas": "declare the Allies' maximum air support: once a game, a modifier to every Air Table roll this turn (18.2)",
        "reveal": "turn a face-down German counter face up (11.1: at any time, not an action); a dummy revealed "
                  "is removed (11.2)",
        "advance": "advance into the hex the defenders left, after the assault, or decline (15.3)",
        "take": "take one point of the assault's result (15.2) on this unit: as a retreat (15.3.1), as fatigue "
                "points, or as its elimination; every point of the result is taken, one order each",
        "move": "move the unit along this path, paying each hex's MP (14.0-14.2, 12.1)",
        "retreat": "retreat the unit along this path, after the assault's result (15.3.1)",
    }
    commands = (
        ("<order text>", "give an order typed as listed, e.g.  move 1SG 2214>2215   or   pass"),
        ("<verb> <unit> <place>", "a short order: the cheapest path there is chosen (move 7-I/16 2505, sail LC-1 2408)"),
        ("map [supply]", "write an SVG snapshot of the map (with lines of supply) and print its path"),
        ("explain <unit|hex|last>", "how a number was reached: fatigue, supply, terrain, ZoC, the last combat"),
        ("explain <unit> <hex>", "the MP of each step of the unit's cheapest path there"),
        ("explain <order>", "an order before you give it, by its number or text: a move's MP step by step, "
                            "an assault's strengths, AFL, AD, DRMs and exact odds"),
        ("status", "show turn, phase, tracks and victory points"),
    )

    glossary_examples = ("MAS", "supply")
    past = {"base": "set up a Base", "bombard": "bombarded", "crossing": "set a ship to ferry across a fjord",
            "mas": "declared maximum air support", "no": "declined maximum air support", "sail": "sailed",
            "reveal": "revealed a counter", "air": "flew an air mission", "place": "placed a unit", "land": "landed",
            "embark": "embarked", "disembark": "disembarked", "interdict": "interdicted", "exit": "left the map"}
    glossary = {
        "AD": ("attack differential: attack strength minus defence strength, each less its AFL; the CRT column", "15.1"),
        "AFL": ("average fatigue level: the fatigue points of a side's infantry in a combat, averaged and rounded down; "
                "it is taken off that side's strength", "15.1"),
        "AP": ("air points: the Germans roll 4D6 each turn and spend them on air missions and assault support", "18.1"),
        "CRT": ("combat results table: column by AD, row by 1D6 plus DRMs; attacker/defender result points", "15.1"),
        "DRM": ("die roll modifier: added to the CRT roll (tanks, formations, artillery alone, weather)", "15.1"),
        "FL": ("fatigue limit: a unit at it takes no more actions, has no ZoC, and must retreat or be eliminated "
               "when attacked successfully", "10.1"),
        "FP": ("fatigue points: gained by moving, fighting and taking results (6 FP for one result point)", "10.0, 15.2"),
        "LoS": ("line of supply: a path from an Allied unit to a Base, clear of German ZoC (19.3)", "19.3"),
        "MAS": ("maximum air support: once a game the Allies declare it at an Air Phase; its modifier applies to "
                "every Air Table roll that turn", "18.2"),
        "MP": ("movement points: what a unit spends to enter hexes; its terrain and hexsides set the cost", "14.0"),
        "VP": ("victory points: Narvik 10, hex 1918 5, and the awards of 29.0; the level is read at the end", "25.0, 29.0"),
        "ZoC": ("zone of control: the six hexes around a land unit; leaving one costs extra MP", "12.0"),
        # the rules' words, as a player looks them up (rules supply, rules 19.4)
        "action": ("what the side with the initiative does in the action phase: a land move, an assault, an air "
                   "mission, a naval move, an embarkation or landing, an interdiction; the other side may then react",
                   "9.0, 9.1"),
        "reaction": ("after each action the other side may make one: a land move (either side) or an air mission "
                     "(the Germans only)", "9.1.1"),
        "initiative": ("the side that acts: the Allies hold it when the action phase starts; it passes after an "
                       "attack action or a pass, and two passes in a row end the phase", "9.1, 9.2"),
        "attack action": ("an assault, an artillery interdiction, a disembarkation or landing, or a bombardment: "
                          "the initiative passes after one", "9.0, 9.2"),
        "assault": ("an attack on one enemy-held hex by adjacent units not at FL, with artillery, ships and German "
                    "AP in support: the two strengths less their AFL give the AD, then one die on the CRT", "15.1"),
        "result": ("each point of a CRT result is taken as a retreat of 1 hex, 6 FP spread among the side's units "
                   "in the fight, or one of them eliminated; the defender takes his first", "15.2"),
        "advance": ("attacking infantry and tanks may enter the hex an assault emptied, at no MP and whatever the "
                    "ZoC; each advancing infantry unit loses 1 FP", "15.3"),
        "retreat": ("the units of a fight going back 1 to 3 hexes: never into an enemy hex, nor into enemy ZoC "
                    "unless a friendly unit not in the fight stands there, and ending farther from the enemy than "
                    "the hexes retreated", "15.3, 15.3.1"),
        "fatigue": ("the FP an infantry unit gathers from moving, fighting and results, up to its FL; the AFL takes "
                    "it off combat strength; at the end of a turn -8 FP, -4 for a unit at FL", "10.0, 10.1, 21.0"),
        "face down": ("a concealed counter: the other side does not know what it is; it may not move or attack and "
                      "has no ZoC; an assault or bombardment on its hex reveals it", "11.0, 11.1, 11.2"),
        "dummy": ("a German counter that is nothing: at most 5 in play; revealed, it is eliminated", "11.1, 11.2"),
        "air recon": ("with Allied concealment (a switch): 1 German AP reveals every unit in a hex, as many hexes "
                      "a turn as a die gives, none in bad weather at Narvik", "11.3"),
        "stacking": ("at most 6 infantry points in a hex, a company 1 and a battalion 3; artillery and tanks count "
                     "nothing, units aboard ships neither; Harstad has no limit", "13.1, 13.2, 13.2.1"),
        "minimum move": ("a unit may always move 1 hex in a movement action, whatever it costs, unless the hex "
                         "is barred to it", "14.1"),
        "road": ("the road rate applies along a road or the railway joining the two hexes directly", "14.2"),
        "artillery": ("Allied batteries: they support assaults within 2 hexes (over a ridge only when adjacent to "
                      "the target), interdict once a turn, never take FP and have no ZoC; defending alone they "
                      "give the attacker +2", "16.1"),
        "interdiction": ("an attack that puts FP on units: artillery on one German unit and ships on every unit in "
                         "a hex, 2 FP per strength point; German air on the Allied infantry of a hex, the Air "
                         "Table's Infantry result x2", "16.1.1, 18.1.2, 20.5"),
        "tank": ("Allied tanks: +1 to the CRT roll for each attacking, -1 for each defending; they take no FP, have "
                 "no ZoC, ignore enemy ZoC, and are the first eliminated", "16.2"),
        "formation": ("+1 to the attacker's CRT roll for each formation with 2 or more of its units in the "
                      "assault; never for the defender", "17.0"),
        "supply": ("an Allied land unit with no line of supply to a Base takes +6 FP when assaulted, and its "
                   "artillery cannot interdict; ships, Norwegians and units landed this turn take no FP for it",
                   "19.2, 19.3"),
        "Base": ("a port hex an Allied land unit holds, designated in an initial phase: 2 in a game at most, lost "
                 "when a German land unit enters it; a source of supply and an Air Table modifier", "19.4"),
        "German supply": ("while an Allied land unit stands on the railway between the Germans and Narvik port, or "
                          "the Allies hold the port, a die may lose the turn's German reinforcements", "19.1"),
        "embark": ("a land unit boarding a ship in a friendly port or at Harstad: a Puffer, LC, DD or CL carries "
                   "one battalion, an LC instead one artillery or tank; it costs the unit nothing", "20.2"),
        "disembark": ("a unit leaving its ship in a friendly port that already holds another friendly unit, or at "
                      "Harstad", "20.2"),
        "landing": ("ships bringing troops ashore in a port that is not friendly or on a beach, as a new action "
                    "after their move; into an enemy hex it is an amphibious assault", "20.3"),
        "amphibious assault": ("a landing into an enemy hex: land strengths halved, every Allied result an "
                               "elimination, no artillery and no adjacent units join; if the enemy stays, the force "
                               "goes back to Harstad", "20.3.1"),
        "bombardment": ("ships firing on Germans within the range on their counter, never over a ridge: support for "
                        "a landing or an assault, or an interdiction of its own", "20.5"),
        "Puffer": ("a flotilla of Norwegian fishing boats: it carries one battalion, or is a Base in a non-mountain "
                   "coast hex, or ferries land units across fjord hexsides", "20.2, 20.6"),
        "fjord crossing": ("a Puffer or LC in a hex with fjord hexsides lets land units cross them as if there were "
                           "none; no tanks or artillery, no attack across, not from or into a mountain hex", "20.6"),
        "Harstad": ("the Allied box off the map: non-Norwegian Allied units arrive there; unlimited stacking, no "
                    "German attack reaches it; ships sail between it and the west or north edge", "22.1"),
        "Sweden": ("a unit that enters Sweden, moving or retreating, is interned: removed for good, and the other "
                   "side scores VP", "22.2"),
        "exit": ("Allied units leaving the map across the north or south edge in a move, at 1 MP: they never return, "
                 "and score VP on turns 1-5 only", "22.3"),
        "weather": ("rolled in the initial phase of turns 1-7: bad weather at Trondheim halves the German AP; at "
                    "Narvik it modifies assaults and air attacks and stops air recon; a thaw brings the good-weather "
                    "movement costs for good", "7.0"),
        "random event": ("a die every turn: an open event both sides read, or a secret one only its side sees (the "
                         "Allies' may end the game, the Germans' may be Führer Orders)", "8.0, 8.1, 8.2, 8.3"),
        "Führer Orders": ("the German secret event: no German land unit moves this turn, and Germans take bad "
                          "assault results as FP or eliminations, never retreats (eliminations only in "
                          "amphibious assaults)", "8.2.1"),
        "reinforcements": ("the Allies' arrive at Harstad by the schedule; the Germans' come with open events, in "
                           "a hex a German unit holds, and may come face down with a dummy each", "23.2, 23.4, 28.0"),
        "replacement": ("a German replacement rebuilds one eliminated company (never a KM battalion); with none "
                        "eliminated it is lost", "23.4"),
        "redeployment": ("Allied units an open event takes away: removed at once, neither eliminated nor worth VP",
                         "23.3, 31.0"),
        "end of turn": ("fatigue recovers (-8 FP, -4 at FL), the AP go back to 0, and the VP are counted",
                        "6.5, 21.0"),
    }

    @property
    def data(self) -> NarvikData:
        """The game as the person may see it (the other side's face-down counters anonymous)."""
        return cast(NarvikData, self.session.view())

    def heading(self, side: str) -> str:
        ask = self.game.pending(self.data)
        return f"turn {self.data.turn} · {self.data.phase} · {side}: {ask.what if ask else None}"

    def brief(self) -> list[tuple[str, list[str]]]:
        from hexwar.games.narvik import briefing

        return briefing.brief(self)

    def waits(self, legal: list[Order]) -> Order | None:
        from hexwar.games.narvik import briefing

        return briefing.waits(self, legal)

    def final_line(self) -> str:
        res = self.s.result()
        return f"{res.level}: Allies {res.vp.get('allies', 0)} VP, Germans {res.vp.get('germans', 0)} VP"

    def describe(self, e: Mapping[str, Any]) -> str:
        return say(e)

    def read_order(self, line: str, legal: list[Order]) -> Order | None:
        """One of the choices the list caps (15.1, 18.1.3, 20.1-20.3, 22.3) typed in the words
        of the listed ones: the game checks it in full."""
        w = line.split()
        if len(w) == 3 and w[0].lower() == "move" and ">" not in w[2]:
            return None  # a short move none of the listed is (never a path of one hex): why_no_order says why
        return parse_text(" ".join(w), self.s.current_side())

    def status_lines(self) -> list[Any]:
        d = self.data
        ask = d.ask
        bad = ", ".join(d.bad) or "none"
        t = Table(show_header=False, box=None)
        t.add_row("turn", f"{d.turn} of {self.game.spec.turns}", "phase", d.phase)
        t.add_row("weather", f"{d.weather} (bad: {bad})", "German AP", str(d.tracks.get("ap", 0)))
        t.add_row("VP", f"Allies {d.vp.get('allies', 0)}  Germans {d.vp.get('germans', 0)}", "result", self.s.result().level)
        t.add_row("to decide", f"{ask.side if ask else '-'}: {ask.what if ask else '-'}", "bases", ", ".join(d.bases) or "none")
        out: list[Any] = [t, self.ending_line()]
        if self.s.is_over():
            from hexwar.games.narvik.briefing import vp_lines

            out += ["VP by source: " + line for line in vp_lines(self)]
        tired = [(u.id, u.fatigue, self.game.tables.types[u.type].fatigue_limit) for u in sorted(d.on_map(), key=lambda u: u.id)
                 if u.fatigue and self.visible(u)]
        if tired:
            out.append("fatigue: " + "  ".join(f"{i} {f}/{fl}" for i, f, fl in tired))
        return out

    def ending_line(self) -> str:
        """When the game ends and why, as the person may know it (24.0, 8.1, 8.3)."""
        d = self.data
        if self.s.is_over():
            why = " (24.0)" if d.game_end_turn is None else \
                f": {'the Allies evacuated (8.1)' if d.end_secret else 'a random event ended it (8.3, 24.0)'}"
            return f"the game ended after turn {d.turn}{why}"
        if d.game_end_turn is None:
            return f"the game ends after turn {self.game.spec.turns} (24.0), sooner if a random event ends it (8.1, 8.3)"
        why = "the Allies' evacuation (8.1)" if d.end_secret else "a random event (8.3, 24.0)"
        return f"the game ends after turn {d.game_end_turn}: {why}; no unit may exit any more (8.4)"

    # --- map and explanations --------------------------------------------------------

    def supply_paths(self) -> list[tuple[str, ...]]:
        """Return the line of supply of every Allied land unit on the map that has one (19.3)."""
        g, d = self.game, self.data
        out = []
        for u in d.on_map(ALLIES):
            if u.loc and u.loc != HARSTAD and g.is_land(u) and not u.has(ABOARD):
                res = g.supply(d, u)
                if res.supplied and len(res.path) > 1:
                    out.append(res.path)
        return out

    def map_svg(self, layer: str = "") -> str:
        """The map as the person may see it: counters with strength-MP, the enemy's ZoC shaded
        (12.0), the last combat's hex outlined, lines of supply on request (``map supply``, 19.3)."""
        d = self.data
        return render(self.game, d, viewer=self.session.viewer, title=f"turn {d.turn}, {d.phase}", panel=self.panel_lines(),
                      paths=self.supply_paths() if layer == "supply" else ())

    def tracks(self) -> list[str]:
        return self.panel_lines()

    # --- the web board's questions ---------------------------------------------------

    def unit_line(self, u: Any) -> str:
        """One unit as the hover shows it: strength, MP, fatigue against its limit, supply (19.2)."""
        if not self.visible(u):
            return "? a face-down counter (11.0)"
        g, d = self.game, self.data
        t = g.tables.types[u.type]
        if t.kind == "ship":
            cargo = d.cargo.get(u.id)
            return f"{u.id} {u.name}: ship" + (f", carrying {cargo}" if cargo else "")
        line = f"{u.id} {u.name}: {t.kind}, strength {t.strength}, MP {t.mp}, fatigue {u.fatigue}/{t.fatigue_limit} FP"
        if u.side == ALLIES and u.loc and u.loc != HARSTAD and g.is_land(u) and not u.has(ABOARD):
            from hexwar.games.common.narvik_rules import ALWAYS_SUPPLIED

            if u.nation in ALWAYS_SUPPLIED:
                line += f", {u.nation}: always in supply (19.2)"
            else:
                line += ", in supply" if g.supplied(d, [u])[u.id] else ", OUT OF SUPPLY (19.2)"
        return line

    def about(self, loc: str, unit: str | None = None) -> list[str]:
        lines = super().about(loc)
        d = self.data
        for u in d.at(loc):
            lines.append("  " + self.unit_line(u))
        if unit and unit in d.units and d.units[unit].loc and unit != loc and d.units[unit].loc != loc:
            t = self.game.tables.types[d.units[unit].type]
            if t.kind != "ship" and self.game.is_land(d.units[unit]):
                lines.append(said_text(self.way_there(unit, loc)))
        return lines

    def order_marks(self, order: Order, view: Any = None) -> dict[str, Any]:
        """The shared marks, and for a sail order where it leads (``w``: 20.1-20.3), which
        groups a fleet's hundreds of destinations in the lists."""
        from hexwar.games.narvik.briefing import leads_to

        marks = super().order_marks(order, view)
        if order.kind == "naval_move":
            marks["w"] = leads_to(self.game, view if view is not None else self.session.view(), order)
        return marks

    def order_note(self, order: Order) -> tuple[str, float | None]:
        from hexwar.games.narvik.orders import AirStrike, Exit, LandAssault, NavalMove

        if isinstance(order, (Move, Exit)) and len(order.path) > 1:
            cost = self.path_cost(order.unit, order.path)
            if cost is None:
                return "", None
            extra = Fraction(1) if isinstance(order, Exit) else Fraction(0)  # 22.3: 1 MP to leave the map
            return f"{fmt(cost + extra)} MP", float(cost + extra)  # 2 1/2 MP, as the ledgers write it
        if isinstance(order, NavalMove):
            return f"{len(order.path) - 1} hexes", float(len(order.path))
        if isinstance(order, LandAssault) or self.contested(order):
            return self.assault_odds(order), None
        if isinstance(order, AirStrike) and order.mission in ("infantry", "ships"):
            return self.air_odds(order), None
        return "", None

    def air_odds(self, order: Any) -> str:
        """A German air mission's results with their exact chances, before it is flown
        (``air_chances``), as a line: the FP each Allied infantry unit takes (18.1.2), or each
        attacked ship's chance to be sunk or left damaged (18.1.3); with the hex's DRM."""
        try:
            m, dist = self.air_chances(order)
        except (ValueError, KeyError):
            return ""
        g, d = self.game, self.data
        if order.mission == "infantry":
            n = sum(1 for u in d.at(order.hex) if u.side == ALLIES and g.t(u).infantry and not u.has(ABOARD))
            return (("its infantry unit gains " if n == 1 else f"each of its {n} infantry units gains ") + ", ".join(
                f"{k} FP {float(p):.0%}" for k, p in sorted(dist["fp"].items())) + f", to its FL at most (DRM {m:+d})  [18.1.2]")
        aboard = {sid: f" (with {d.cargo[sid]} aboard, lost if it sinks, 20.4)" if d.cargo.get(sid) else "" for sid in dist}
        return "; ".join(f"{sid} sunk {float(f.get(2, 0)):.0%}, damaged {float(f.get(1, 0)):.0%}{aboard[sid]}"
                         for sid, f in dist.items()) + f" (DRM {m:+d})  [18.1.3]"

    def air_chances(self, order: Any) -> tuple[int, dict[str, dict[int, Fraction]]]:
        """The DRM of the hex (bad weather at Narvik, a Base, MAS, 18.1) and the exact chances
        of a German air mission, 2D6 on the Air Table's column for the AP: ``{"fp": {FP: p}}``,
        the FP each Allied infantry unit in the hex takes ('Infantry' result x2, 18.1.2); or
        per attacked ship ``{0: whole, 1: damaged, 2: sunk}``, its attacks taken in turn, a
        damaged ship sinking at a second damage (18.1.3). A ``ValueError`` for AP off the table."""
        from hexwar.games.narvik.phases.air import drm
        from hexwar.rules.dicecombat import totals

        g, d = self.game, self.data
        m = drm(g, d, order.hex)
        rolls = list(totals(2).items())  # 2D6 on the Air Table
        if order.mission == "infantry":
            assert g.tables.fatigue is not None
            fp = g.tables.fatigue.fp("air_interdiction_per_point")
            out: dict[int, Fraction] = {}
            for t, p in rolls:
                k = g.air.result(order.ap, t, m)[0] * fp
                out[k] = out.get(k, Fraction(0)) + p
            return m, {"fp": out}
        fate: dict[str, dict[int, Fraction]] = {}
        for sid, a in order.allocation:
            now = fate.get(sid) or {1 if "damaged" in d.units[sid].flags else 0: Fraction(1)}
            nxt: dict[int, Fraction] = {}
            for state, q in now.items():
                for t, p in rolls:
                    nav = g.air.result(a, t, m)[1] if state < 2 else 0
                    to = 2 if nav == 2 or (nav == 1 and state == 1) else max(state, nav)
                    nxt[to] = nxt.get(to, Fraction(0)) + q * p
            fate[sid] = nxt
        return m, fate

    def assault_odds(self, order: Any) -> str:
        """Every result of an assault with its exact chance, before it is made (15.1, 18.1.1):
        the game fights it on a copy of what the side sees, every air-support roll and every
        die (``asked.before_the_die``), so every rule the real assault applies is in it. Face-
        down defenders have no known strength (11.2): then it says so."""
        if self.unseen_defenders(order):
            return "defenders face down: their strength shows when attacked (11.2)"
        seen = before_the_die(self.game, self.data, order)
        if seen is None:
            return "odds: not known before the assault"
        return assault_odds_line(self.game.tables.crt, seen[0])

    def unseen_defenders(self, order: Any) -> bool:
        """Whether a defender of an assault's or a landing's hex is face down to the side
        giving it: its strength is not known until it is attacked (11.2)."""
        return any(u.concealed for u in self.data.at(order.target) if u.side != order.side)

    def contested(self, order: Order) -> bool:
        """Whether an order is a landing into a hex enemy units hold: an amphibious assault,
        fought as a land assault (20.3.1)."""
        from hexwar.games.narvik.orders import Landing

        return isinstance(order, Landing) and any(u.side != order.side for u in self.data.at(order.target))

    def explain_order(self, order: Order) -> Said:
        """A move's MP step by step along its own path (14.0-14.2, 12.1; 1 MP more to leave
        the map, 22.3); an assault's strengths, AFL, AD and DRMs as it would be fought, with
        the exact odds of every result (15.1), an amphibious assault's too (20.3.1): before the
        die is rolled, so the ledger stops at the column. With air support it is shown at an
        air roll of 7, the odds weighing every roll. Face-down defenders have no strength to
        show (11.2): then only that is said."""
        from hexwar.games.narvik.orders import Exit, LandAssault

        path = self.path_ledger(order.unit, order.path) if isinstance(order, (Move, Exit)) and len(order.path) > 1 else None
        if path is not None:
            way: list[Part] = [order.text(), path]
            return way + (["  leaving the map: 1 MP  [22.3]"] if isinstance(order, Exit) else [])
        if isinstance(order, LandAssault) or self.contested(order):
            ap = getattr(order, "ap", 0)
            seen = None if self.unseen_defenders(order) else before_the_die(self.game, self.data, order, 7 if ap else None)
            if seen is None:  # the same fights once: what assault_odds says without them
                return f"{order.text()}: {self.assault_odds(order)}"
            led = ledger_before_the_die(seen[1]["ledger"])
            air = ["  (air support shown at an air roll of 7; the odds below weigh all 36 rolls)"] if ap else []
            odds = assault_odds_line(self.game.tables.crt, seen[0])
            return [order.text(), led, *air, f"before the die: {odds}"]
        return super().explain_order(order)

    def panel_lines(self) -> list[str]:
        d = self.data
        return [f"Turn {d.turn}/{self.game.spec.turns}  {d.phase}", f"Weather {d.weather}",
                f"German AP {d.tracks.get('ap', 0)}", f"VP Allies {d.vp.get('allies', 0)}",
                f"VP Germans {d.vp.get('germans', 0)}", f"Bases {', '.join(d.bases) or '-'}"] + (
                    [f"Game ends after turn {d.game_end_turn} (24.0)"] if d.game_end_turn is not None else [])

    def explain(self, what: str) -> Said:
        from hexwar.rules.fatigue import explain_fatigue

        g = self.game
        d = self.data
        parts = what.split()
        if len(parts) == 2 and parts[0] in d.units and parts[1] in g.board:
            return self.explain_move(parts[0], parts[1])
        if what in ("", "last"):
            c = d.last_combat
            if not c:
                return "no combat yet"
            fought: Mapping[str, Any] = c["ledger"]
            return fought
        if what in d.units:
            u = d.units[what]
            if not self.visible(u):
                return f"{what}: a face-down counter; you do not know what it is (11.0)"
            t = g.tables.types[u.type]
            lines: list[Part] = [f"{u.id} {u.name}: {t.kind} {t.size}, strength {t.strength}, MP {t.mp}, FL {t.fatigue_limit}, at {u.loc or u.pool}"]
            if t.kind == "ship":
                from hexwar.games.narvik.briefing import ship_lines

                return "\n".join([f"{u.id} {u.name}: a ship, at {g.board.label(u.loc) if u.loc else u.pool}", *ship_lines(self, u)])
            lines.append(explain_fatigue(d, g.tables, u.id))
            if u.side == ALLIES and u.loc and u.loc != HARSTAD and t.kind != "ship":
                from hexwar.games.common.narvik_rules import ALWAYS_SUPPLIED

                lines.append("supply: Norwegians are always supplied (19.2)" if u.nation in ALWAYS_SUPPLIED
                             else g.supply(d, u).explain())
            return lines
        if what in g.board:
            return self.location_lines(what, (ALLIES, GERMANS))
        return f"explain what? a unit you can see, a hex id like 2212, or last (not {what!r})"




def describe(e: Mapping[str, Any]) -> str:
    """Return one event as a line of text."""
    if e.get("type") == "assault":  # the CRT line, not the whole ledger (explain last shows it)
        return sentence(e, {"assault": SAY["assault"]})
    return describe_event(e)


def _path(p: Any) -> str:
    return " > ".join(p) if isinstance(p, (list, tuple)) else str(p)


#: what each random event's result means, with its consequence and section (8.0-8.4, 24.0)
EVENT_WORDS = {
    "allied_secret": "the Allies roll a secret event (8.1)",
    "german_secret": "the Germans roll a secret event (8.2)",
    "open": "an open event, rolled on two dice (8.3)",
    "none": "nothing happens",
    "german_reinforcements": "German reinforcements arrive (30.0)",
    "allied_redeployment": "Allied units are called away to other fronts (31.0)",
    "both": "German reinforcements arrive (30.0) and Allied units are called away (31.0)",
    "game_end_relief_force": "a German relief force is on its way: the game ends at the end of this turn, and no "
                             "unit may exit from now on (24.0, 8.4)",
    "game_end_neutrality_pact": "Sweden and Germany agree a neutrality pact: the game ends at the end of this turn, "
                                "and no unit may exit from now on (1.0, 24.0, 8.4)",
    "evacuation_next_turn": "the evacuation is ordered: the game ends at the end of the next turn, and no unit may "
                            "exit from now on (8.1, 8.4); the Allies announce it when that turn ends (A9)",
    "fuhrer_orders": "the Führer's orders: no German land unit may move this turn, and German units take adverse "
                     "assault results as fatigue or losses, never a retreat (8.2.1)",
}

WEATHER = {"none": "no bad weather this turn", "bad_trondheim": "bad weather at Trondheim: the German AP are halved (7.0, 18.1)",
           "bad_narvik": "bad weather at Narvik: a DRM on land assaults and air attacks, no air recon (7.0, 11.3)",
           "bad_both": "bad weather at Trondheim and at Narvik: the German AP halved, a DRM on assaults and air (7.0)",
           "thaw": "the thaw: good-weather movement from two turns later, for good (7.0, A8)"}

TAKEN = {"fatigue": "fatigue", "retreat": "a retreat", "all_to_limit": "fatigue to every unit's limit",
         "eliminate": "a unit eliminated"}  # 15.2: the ways of taking a point

SAY = {
    "fatigue": lambda e: (f"{e['unit']} gains {e['fp']} FP ({e['cause']})" if e["fp"] >= 0
                          else f"{e['unit']} recovers {-e['fp']} FP ({e['cause']})"),
    "move": lambda e: f"{e['unit']} moves {_path(e['path'])} ({e['mp']} MP, {e['fp']} FP)",
    "take": lambda e: f"{e['side']} take a result point as {TAKEN.get(e['option'], e['option'])}" + (f" on {e['unit']}" if e.get("unit") else ""),
    "advance": lambda e: f"{e['unit']} advances into {e['to']}",
    "pass": lambda e: f"{e['side']} pass",
    "retreat": lambda e: f"{e['unit']} retreats {_path(e['path'])}" + (f" (+{e['fp']} FP)" if e.get("fp") else ""),
    "vp": lambda e: f"{e['side']} score {e['vp']} VP: {e['cause']}",
    "naval_move": lambda e: f"{', '.join(e['ships'])} sail{'s' if len(e['ships']) == 1 else ''} from {e['path'][0]} to {e['path'][-1]} ({len(e['path']) - 1} hexes)",
    "arrive": lambda e: f"{e['unit']} arrives at {e['at']}",
    "embark": lambda e: f"{e['unit']} embarks on {e['ship']}",
    "disembark": lambda e: f"{e.get('unit', 'the cargo')} disembarks from {e['ship']}" + (f" at {e['at']}" if e.get("at") else ""),
    "reveal": lambda e: f"{e['unit']} is turned face up",
    "revealed": lambda e: f"{e['unit']} is revealed by the attack",
    "dummy_removed": lambda e: f"{e['unit']} was a dummy: removed",
    "landed": lambda e: f"{e['unit']} lands at {e['at']}" + (" against opposition" if e.get("contested") else ""),
    "air_points": lambda e: f"the Germans roll {e['roll']}: {e['ap']} air points this turn",
    "ap_bonus": lambda e: f"German air points now {e['ap']} (the bonus of 18.1)",
    "turn": lambda e: f"=== turn {e['turn']} ===",
    "eliminated": lambda e: f"{e['unit']} is eliminated",
    "secret": lambda e: f"the {e['side']} roll their secret event: {EVENT_WORDS.get(e['result'], e['result'])}",
    "air_ship_attack": lambda e: (f"air attack on {e['ship']} with {e['ap']} AP, roll {e['roll']}: " + {
        0: "no effect",
        1: "1 hit: damaged, or sunk if it was already (20.4)"}  # what a damaged ship does next: ship_damaged
        .get(e["naval"], f"{e['naval']} hits: sunk")),
    "weather": lambda e: f"weather roll {e['roll']}: {WEATHER.get(e['result'], e['result'])}",
    "base": lambda e: f"a Base is set up at {e['hex']}",
    "ship_function": lambda e: (f"{e['ship']} serves as a Base (it may not move or act meanwhile)" if e["function"] == "base"
                                else f"{e['ship']} ferries land units across the fjord (it may not move or act meanwhile)"),
    "event": lambda e: f"random event (8.0): {EVENT_WORDS.get(e['kind'], e['kind'])}",
    "open_event": lambda e: f"open event roll {e['roll']}: {EVENT_WORDS.get(e['result'], e['result'])}",
    "air_interdiction": lambda e: (f"air interdiction on {e['hex']} with {e['ap']} AP, roll {e['roll']}: Air Table infantry "
                                   f"result {e['infantry']}, {2 * e['infantry']} FP to each infantry unit there"),
    "assault_empty": lambda e: f"the assault on {e['target']} finds it empty",
    "interned": lambda e: f"{e['unit']} enters Sweden and is interned",
    "place": lambda e: f"{e['unit']} is placed at {e['hex']}" + (" face down" if e.get("concealed") else ""),
    "dummy": lambda e: f"a dummy counter is placed at {e['hex']}",
    "all_to_limit": lambda e: f"{e['side']} take every remaining point as fatigue to the limit",
    "redeployed": lambda e: f"{e['unit']} is redeployed away" + ("" if not e.get("returns") else " (it returns later)"),
    "game_over": lambda e: f"GAME OVER after turn {e['turn']}: {e['level']} (Allies {e['vp'].get('allies', 0)} VP, Germans {e['vp'].get('germans', 0)} VP)",
    "assault": lambda e: (f"assault on {e['target']}: AD {e['ad']}, DRM {e['drm']:+d}, die {e['die']}, column {e['column']}"
                          f" -> {e['result']} (attacker/defender)"),
    "german_reinforcements": lambda e: "German reinforcements: " + (", ".join(f"{n} {k}" for k, n in e["result"].items()) or "none"),
    "lost": lambda e: f"lost: the {e['what']}",
    "railway": lambda e: f"the Ofoten railway ({e['why']}), roll {e['roll']}: " + ("cut" if e["lost"] else "still running"),
    "redeployment": lambda e: f"Allied redeployment roll {e['roll']}: " + ", ".join(f"{k} {v}" for k, v in e["result"].items()),
    "no_effect": lambda e: f"no effect: {e['why']}",
    "mas": lambda e: "the Allies declare maximum air support for this turn",
    "exit": lambda e: f"{e['unit']} leaves the map",
    "landing_failed": lambda e: f"{e['unit']} fails to land",
    "no_retreat": lambda e: f"{e['unit']} has no hex to retreat into",
    "art_interdiction": lambda e: f"{', '.join(e['artillery'])} fire on {e['hex']}",
    "recon": lambda e: f"German air reconnaissance over {e['hex']}",
    "sunk": lambda e: f"{e['ship']} is sunk" if "ship" in e else "a ship is sunk",
    "ship_damaged": lambda e: (f"{e['ship']} is damaged at {e['at']}: back to Harstad"
                               + (f" with {e['cargo']} aboard" if e.get("cargo") else "")
                               + ", no more movement this turn"),
}


def say(e: Mapping[str, Any]) -> str:
    """One event as a sentence with its rule (the terminal, the web board, replays); the
    golden file keeps the field form of ``describe``, which diffs well."""
    return sentence(e, SAY)


def render(g: Any, d: Any, viewer: str | None = None, title: str = "", panel: list[str] | None = None,
           paths: Any = ()) -> str:
    """An SVG of the map and the counters (snapshots, replay frames, the web board): counters
    with strength-MP, the viewer's enemy's ZoC shaded (12.0), the last combat's hex outlined;
    a ``viewer`` sees the other side's hidden counters face down."""
    from hexwar.rules.zoc import zoc_of
    from hexwar.games.common.palette import PALETTE
    from hexwar.ui.render import render_svg

    last = d.last_combat or {}
    enemy = GERMANS if viewer != GERMANS else ALLIES
    text = {u.id: f"{u.id}\n{g.tables.types[u.type].strength}-{g.tables.types[u.type].mp}" for u in d.on_map()
            if u.type in g.tables.types and g.is_land(u)}
    return render_svg(g.board, d, palette=PALETTE, highlight=[last["target"]] if last else [], viewer=viewer, title=title,
                      panel=panel or [], shade=zoc_of(g.board, d, g.tables, enemy), unit_text=text, paths=paths)
