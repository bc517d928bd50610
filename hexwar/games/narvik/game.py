"""Assault on Narvik: sequence of play (6.0), actions and reactions (9.0), land, naval and air
warfare, supply, reinforcements, random events and victory (1.0-31.0).

The game is a state machine: automatic steps (dice, tracks, arrivals) run by themselves;
wherever the rules give a player a choice, the engine stops with an ``ask`` naming the side
and the kind of decision, and ``legal_orders`` lists that side's options. Every order is
checked before anything changes; the engine applies it to a copy, so a refused order
leaves the state as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from hexwar.core.dice import Dice
from hexwar.core.engine import PlayState, Result, new_play_state
from hexwar.core.orders import Advance, IllegalOrder, Move, Order, Pass, Retreat, TakeResult
from hexwar.core.state import GameState, Unit
from hexwar.data.loader import Library, default_library
from hexwar.data.scenario import Scenario, load_scenario
from hexwar.data.tables import AirTable, DieTable
from hexwar.games.narvik.orders import (
    AirStrike,
    ArtilleryInterdiction,
    Bombard,
    ChooseUnits,
    DeclareMas,
    DesignateBase,
    Disembark,
    Embark,
    Exit,
    LandAssault,
    Landing,
    NavalMove,
    Place,
    Reveal,
    ShipFunction,
)
from hexwar.rules import fatigue as fat
from hexwar.rules import stacking
from hexwar.rules.assault import assault_sums, may_attack_into
from hexwar.rules.combat import resolve_differential
from hexwar.rules.fire import can_fire
from hexwar.rules.ledger import Line
from hexwar.rules.movement import MoveQuery, explain_path, reach
from hexwar.rules.naval import naval_destinations, naval_path_ok
from hexwar.rules.retreat import retreat_paths
from hexwar.rules.supply import ALWAYS_SUPPLIED, railway_constrained, supply_status
from hexwar.rules.victory import victory_level, winner_of
from hexwar.rules.zoc import AMPHIBIOUS, enemy_zoc, zoc_of

ALLIES, GERMANS = "allies", "germans"
REPLACEMENT = "@replacement"  # an arrival the German turns into any eliminated company (23.4)
HARSTAD = "harstad"
ABOARD = stacking.ABOARD
ART_RANGE = 2  # 16.1
MAX_AP = 30  # 18.1
MAX_DUMMIES = 5  # 11.2
MAX_BASES = 2  # 19.4
MAX_RETREAT = 3  # 15.3
EXIT_VP_LAST_TURN = 5  # 22.3
SHIP_VP = {"DD": (3, 6), "Puffer": (1, 2), "LC": (4, 8), "CL": (3, 7), "BB": (5, 10)}  # 29.0


@dataclass(frozen=True)
class Switches:
    """Typed rules switches (variants are switches on the ruleset, never flags on units)."""

    allied_concealment: bool = False  # 11.3 (optional, pro-Allied): Allied units face down, German air recon
    ap_bonus_per_action: bool = False  # A26: +1 AP after every Allied action instead of once a turn
    random_setup: bool = False  # 5.1: a seeded set-up per side instead of the scenario's positions


def other(side: str) -> str:
    return GERMANS if side == ALLIES else ALLIES


class NarvikGame:
    """Assault on Narvik bound to a scenario (map, OOB, charts) and rules switches."""

    name = "narvik"

    def __init__(self, scenario: Scenario, library: Library | None = None, switches: Switches = Switches()):
        lib = library or default_library()
        self.scenario = scenario
        self.spec = scenario.spec
        self.board = scenario.board
        self.tables = scenario.tables
        self.switches = switches
        self.weather_table = DieTable.from_spec(lib.load("tables", "narvik/weather"))
        self.event_type = DieTable.from_spec(lib.load("tables", "narvik/event-type"))
        self.allied_secret = DieTable.from_spec(lib.load("tables", "narvik/allied-secret"))
        self.german_secret = DieTable.from_spec(lib.load("tables", "narvik/german-secret"))
        self.open_events = DieTable.from_spec(lib.load("tables", "narvik/random-events"))
        self.german_reinf = DieTable.from_spec(lib.load("tables", "narvik/german-reinforcements"))
        self.redeploy = DieTable.from_spec(lib.load("tables", "narvik/british-redeployments"))
        self.air = AirTable.from_spec(lib.load("tables", "narvik/air"))
        self.narvik = self.board.find("Narvik")
        self.objectives = {p.location: p.value for p in self.board.places("victory")}
        self.railway = set(getattr(self.board, "regions", {}).get("railway", ()))
        self.oob = {u.id: u for u in scenario.oob.units}
        self._naval_move_cache: dict[tuple[str, str | None], list[NavalMove]] = {}

    @classmethod
    def from_scenario(cls, name: str = "narvik/scenario", library: Library | None = None,
                      switches: Switches = Switches()) -> "NarvikGame":
        return cls(load_scenario(name, library), library, switches)

    def new_state(self, seed: int) -> PlayState:
        return new_play_state(self, seed, {"game": self.name, "scenario": self.spec.name, "scenario_file": self.scenario.file})

    # --- helpers ------------------------------------------------------------------------

    def t(self, u: Unit):
        return self.tables.types[u.type]

    def is_ship(self, u: Unit) -> bool:
        return self.t(u).kind == "ship"

    def is_land(self, u: Unit) -> bool:
        return self.t(u).kind not in ("ship", "dummy")

    def is_dummy(self, u: Unit) -> bool:
        return self.t(u).kind == "dummy"

    def land_units_at(self, data: GameState, loc: str, side: str | None = None, real: bool = True) -> list[Unit]:
        """Units at a location that count as its land occupants (not aboard, not ships)."""
        out = []
        for u in data.at(loc):
            if self.is_ship(u) or u.has(ABOARD) or (side is not None and u.side != side):
                continue
            if real and self.is_dummy(u):
                continue
            out.append(u)
        return out

    def occupied(self, data: GameState, side: str) -> set[str]:
        """Locations holding a land unit of ``side`` (dummies included: they occupy too)."""
        return {u.loc for u in data.on_map(side) if not self.is_ship(u) and not u.has(ABOARD) and u.loc != HARSTAD}  # type: ignore[misc]

    def may_act(self, data: GameState, u: Unit) -> bool:
        """10.1, 11.1: a land unit on the map, face up, real, not at its limit, not aboard."""
        return (u.loc is not None and u.loc != HARSTAD and self.is_land(u) and not u.concealed
                and not u.has(ABOARD) and not fat.at_limit(self.tables, u))

    def query(self, data: GameState, u: Unit, ctx: tuple[frozenset[str], frozenset[str], frozenset[str]] | None = None) -> MoveQuery:
        """Return the movement query of a unit; ``ctx`` reuses a side's (ZoC, enemy, infantry) sets."""
        t = self.t(u)
        zoc, blocked, finf = ctx if ctx is not None else self.side_context(data, u.side)
        return MoveQuery(t.mp, zoc, blocked, Fraction(t.zoc_exit_mp), t.is_artillery, finf)

    def side_context(self, data: GameState, side: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
        """Return the enemy ZoC, enemy-held hexes and friendly-infantry hexes for one side."""
        zoc = enemy_zoc(self.board, data, self.tables, side)
        blocked = frozenset(self.occupied(data, other(side)))
        finf = frozenset(x.loc for x in data.on_map(side) if self.t(x).infantry and not x.has(ABOARD) and x.loc)
        return zoc, blocked, finf

    def vp(self, data: GameState, side: str, points: int, cause: str, rule: str, events: list) -> None:
        if points:
            data.add_vp(side, points, cause, rule)
            events.append({"type": "vp", "side": side, "vp": points, "cause": cause, "rule": rule})

    # --- Ruleset protocol ---------------------------------------------------------------

    def initial_state(self, seed: int, dice: Dice) -> GameState:
        data = GameState(game=self.name, scenario=self.spec.name, seed=seed, phase="initial", side=ALLIES,
                         weather=self.spec.weather, bases=list(self.spec.bases))
        for u in self.scenario.oob.units:
            pool = u.pool or ("reinforcements" if u.turn > 1 else "reinforcements")
            data.units[u.id] = Unit(u.id, u.type, u.side, u.nation, u.formation, u.name, loc=None, pool=pool)
        for s in self.spec.setup:
            data.place(s.unit, s.at)
            data.units[s.unit].fatigue = s.fatigue
            data.units[s.unit].concealed = s.concealed
        if self.switches.random_setup:
            self._random_setup(data, dice)
        if self.switches.allied_concealment:  # 11.3: the Allies deploy face down
            for unit in data.units.values():
                if unit.side == ALLIES and self.is_land(unit):
                    unit.concealed = True
        data.vp = {ALLIES: 0, GERMANS: 0}
        data.tracks = {"ap": 0}
        data.extra.update({
            "step": 0, "initiative": ALLIES, "cargo": {}, "landed": [], "ap_bonus": False,
            "mas_used": False, "mas": False, "fuhrer": False, "game_end_turn": None, "exits_banned": False,
            "thaw_turn": None, "bad": [], "base_occasions": 0, "bases_lost": [], "redeploy_used": [],
            "returning": {}, "replaced": [], "eliminated_vp": {}, "ship_damage_vp": {},
        })
        events: list[dict[str, Any]] = []
        self._run(data, dice, events)
        data.extra["setup_events"] = events
        return data

    def _random_setup(self, data: GameState, dice: Dice) -> None:
        """5.1: Norwegians anywhere in the 3 northernmost rows, Germans face down outside the 4
        northernmost, each within stacking (seeded through the set-up dice)."""
        bands = {"norwegian": sorted(self.board.regions["norwegian_setup"]),
                 "german": sorted(self.board.regions["german_setup"])}
        for u in sorted(data.units.values(), key=lambda u: u.id):
            if u.loc is None or u.loc == HARSTAD:
                continue
            band = bands["norwegian" if u.nation == "norwegian" else "german"]
            data.remove(u.id, "removed")
            for _ in range(200):
                h = dice.choice(band, "set-up")
                if self.board.terrain(h) == "sea":
                    continue
                if stacking.stack(self.board, data, self.tables, h, u.side, extra=[u]).ok:
                    data.place(u.id, h)
                    break

    def current_side(self, data: GameState) -> str:
        ask = data.extra.get("ask")
        return ask["side"] if ask else data.side

    def result(self, data: GameState) -> Result:
        diff, level = victory_level(data.vp.get(GERMANS, 0), data.vp.get(ALLIES, 0))
        if not data.over:
            return Result(False, None, f"in progress (differential {diff:+d}: {level})", dict(data.vp))
        return Result(True, winner_of(level), level, dict(data.vp))

    # --- the phase machine --------------------------------------------------------------

    def _ask(self, data: GameState, side: str, what: str, **ctx: Any) -> None:
        data.extra["ask"] = {"side": side, "what": what, **ctx}
        data.side = side

    def _run(self, data: GameState, dice: Dice, events: list) -> None:
        """Run automatic steps until a side must decide or the game ends."""
        guard = 0
        while not data.over and "ask" not in data.extra:
            guard += 1
            if guard > 1000:  # pragma: no cover - a bug, not a game state
                raise RuntimeError("phase machine did not settle")
            ph = data.phase
            if ph == "initial":
                self._initial_phase(data, dice, events)
            elif ph == "events":
                self._event_phase(data, dice, events)
            elif ph == "air":
                self._air_phase(data, dice, events)
            elif ph == "action":
                self._next_action(data, events)
            elif ph == "end":
                self._end_phase(data, dice, events)

    # 6.1 --------------------------------------------------------------------------------

    def _initial_phase(self, data: GameState, dice: Dice, events: list) -> None:
        x = data.extra
        if x["step"] == 0:
            x["bad"] = []
            if x["thaw_turn"] is not None and data.turn >= x["thaw_turn"]:
                data.weather = "good"
            if data.turn <= 7:  # 7.0: weather on turns 1-7
                r = dice.roll(2, "weather")
                res = self.weather_table.lookup(r.faces)
                events.append({"type": "weather", "roll": list(r.faces), "result": res, "rule": "7.0"})
                if res == "bad_both":
                    x["bad"] = ["trondheim", "narvik"]
                elif res in ("bad_trondheim", "bad_narvik"):
                    x["bad"] = [res.split("_")[1]]
                elif res == "thaw" and x["thaw_turn"] is None:
                    x["thaw_turn"] = data.turn + 2  # A8
            # 6.1 (2), 10.1: automatic start-of-turn FP
            if data.weather == "winter":
                for u in sorted(data.on_map(), key=lambda u: u.id):
                    if self.t(u).infantry and not u.has(ABOARD) and u.loc != HARSTAD and self.board.terrain(u.loc) in ("mountain", "glacier"):
                        ch = fat.add_fatigue(data, self.tables, u.id, "turn_start_winter_mountain", rule="10.1")
                        if ch.applied:
                            events.append({"type": "fatigue", "unit": u.id, "fp": ch.applied, "cause": "turn start", "rule": "10.1"})
            # 6.1 (3): Allied reinforcements (28.0), returning redeployments (31.0), naval replacements (23.1)
            arrivals = [u.id for u in data.units.values() if u.pool == "reinforcements" and self.oob[u.id].turn == data.turn]
            arrivals += x["returning"].pop(str(data.turn), [])
            arrivals += [u.id for u in data.units.values() if u.pool == "eliminated" and self.is_ship(u) and u.id not in x.get("ships_lost_for_good", [])]
            for uid in sorted(set(arrivals)):
                u = data.units[uid]
                data.place(uid, HARSTAD)
                u.fatigue = 0
                u.concealed = self.switches.allied_concealment and self.is_land(u)  # 11.3
                u.flags = [f for f in u.flags if f not in ("damaged",)] if u.pool is None else u.flags
                events.append({"type": "arrive", "unit": uid, "at": HARSTAD, "rule": "28.0, 23.1, 31.0"})
            # 6.1 (4): flip fired naval and artillery units
            for u in data.units.values():
                for f in ("fired", "no_move"):
                    if f in u.flags:
                        u.flags.remove(f)
            x["step"] = 1
        if x["step"] == 1:
            # 6.1 (5), 19.4: Allied base designation
            if len(data.bases) + len(x["bases_lost"]) < MAX_BASES and x["base_occasions"] < MAX_BASES and self._base_candidates(data):
                x["step"] = 2
                self._ask(data, ALLIES, "base")
                return
            self._to_phase(data, "events")
        elif x["step"] == 2:  # returned from a base decision
            self._to_phase(data, "events")

    def _base_candidates(self, data: GameState) -> list[str]:
        out = []
        for loc in sorted(self.occupied(data, ALLIES)):
            if self.board.is_a(loc, "port") and loc not in data.bases and not self.land_units_at(data, loc, GERMANS, real=False):
                out.append(loc)
        return out

    def _to_phase(self, data: GameState, phase: str) -> None:
        data.phase = phase
        data.extra["step"] = 0

    # 6.2 / 8.0 --------------------------------------------------------------------------

    def _event_phase(self, data: GameState, dice: Dice, events: list) -> None:
        x = data.extra
        if x["step"] == 0:
            x["fuhrer"] = False
            kind = self.event_type.lookup(dice.roll(1, "event type").faces)
            events.append({"type": "event", "kind": kind, "rule": "8.0"})
            if kind == "allied_secret":
                res = self.allied_secret.lookup(dice.roll(1, "allied secret event").faces)
                if res == "evacuation_next_turn" and x["game_end_turn"] is None:
                    x["game_end_turn"] = data.turn + 1  # 8.1: the end of the next turn
                    x["exits_banned"] = True  # 8.4
                events.append({"type": "secret", "side": ALLIES, "result": res, "rule": "8.1"})
            elif kind == "german_secret":
                res = self.german_secret.lookup(dice.roll(1, "german secret event").faces)
                x["fuhrer"] = res == "fuhrer_orders"
                events.append({"type": "secret", "side": GERMANS, "result": res, "rule": "8.2"})
            else:
                r = dice.roll(2, "open event")
                res = self.open_events.lookup(r.faces)
                events.append({"type": "open_event", "roll": list(r.faces), "result": res, "rule": "8.3"})
                if res in ("german_reinforcements", "both"):
                    self._german_reinforcements(data, dice, events)
                if res in ("allied_redeployment", "both"):
                    self._redeployment(data, dice, events)
                if res.startswith("game_end") and x["game_end_turn"] is None:
                    x["game_end_turn"] = data.turn  # 24.0
                    x["exits_banned"] = True  # 8.4
            x["step"] = 1
        if x["step"] == 1:
            if x.get("arrivals"):
                self._ask(data, GERMANS, "place", unit=x["arrivals"][0])
                return
            if x.get("redeploy_pick"):
                pick = x["redeploy_pick"]
                self._ask(data, ALLIES, "redeploy", options=pick["options"], count=pick["count"])
                return
            self._to_phase(data, "air")

    def _german_reinforcements(self, data: GameState, dice: Dice, events: list) -> None:
        res = self.german_reinf.lookup(dice.roll(1, "german reinforcements").faces)
        events.append({"type": "german_reinforcements", "result": res, "rule": "30.0"})
        arrivals: list[str] = []
        for _ in range(res.get("replacement", 0)):  # 23.4: rebuild one eliminated company, the German's pick
            if self._replaceable(data, arrivals):
                arrivals.append(REPLACEMENT)
            else:
                events.append({"type": "lost", "what": "replacement (no eliminated company)", "rule": "23.4"})
        for key, kind in (("infantry_coy", "infantry"), ("paratroop_coy", "paratroop")):
            for _ in range(res.get(key, 0)):
                pool = sorted(u.id for u in data.in_pool("german_reinforcements") if self.t(u).kind == kind and u.id not in arrivals)
                if pool:
                    arrivals.append(pool[0])
                else:
                    events.append({"type": "lost", "what": f"{key} (counter mix exhausted)", "rule": "30.0"})
        if arrivals:
            allied_land = [u.loc for u in data.on_map(ALLIES) if self.is_land(u) and not u.has(ABOARD) and u.loc != HARSTAD]
            hit, why = railway_constrained(self.board, allied_land, self.narvik, self.railway)  # type: ignore[arg-type]
            if hit:
                r = dice.roll(1, "railway control")
                lost = r.faces[0] >= 5  # 19.1: 5-6 all lost
                events.append({"type": "railway", "why": why, "roll": r.faces[0], "lost": lost, "rule": "19.1"})
                if lost:
                    arrivals = []
        data.extra["arrivals"] = arrivals

    def _replaceable(self, data: GameState, taken: list[str]) -> list[str]:
        """23.4: eliminated German companies of any type (never the KM battalions, never interned)."""
        return sorted(u.id for u in data.in_pool("eliminated", GERMANS)
                      if self.t(u).size == "company" and not self.is_dummy(u) and u.id not in taken)

    def _redeployment(self, data: GameState, dice: Dice, events: list) -> None:
        face = dice.roll(1, "redeployment").faces[0]
        res = self.redeploy.lookup((face,))
        x = data.extra
        events.append({"type": "redeployment", "roll": face, "result": res, "rule": "31.0"})
        if res.get("once") and face in x["redeploy_used"]:
            events.append({"type": "no_effect", "why": "once-only redeployment already used", "rule": "31.0, A41"})
            return
        if res.get("once"):
            x["redeploy_used"].append(face)
        gone: list[str] = []

        def available(u: Unit) -> bool:
            return u.pool is None and u.loc is not None  # deployed, not eliminated or exited (23.3)

        if "formation" in res:
            gone += [u.id for u in data.units.values() if u.formation == res["formation"] and available(u)]
        for kind_key, kind in (("artillery", "artillery"), ("tank", "tank")):
            n = res.get(kind_key, 0)
            opts = sorted(u.id for u in data.units.values() if u.side == ALLIES and u.nation != "norwegian"
                          and self.t(u).kind == kind and available(u))
            if n and opts:
                if len(opts) <= n:
                    gone += opts
                else:
                    x.setdefault("redeploy_pick", {"options": [], "count": 0})
                    x["redeploy_pick"]["options"] += opts
                    x["redeploy_pick"]["count"] += n
        for ship_type, n in res.get("ships", {}).items():
            ships = sorted(u.id for u in data.units.values() if u.type == ship_type and available(u))
            take = ships if n == "all" else ships[: int(n)]
            gone += take
            if not res.get("returns"):
                x.setdefault("ships_lost_for_good", []).extend(take)  # A40
        for uid in gone:
            self._redeploy_unit(data, uid, res.get("returns", False), events)

    def _redeploy_unit(self, data: GameState, uid: str, returns: bool, events: list) -> None:
        cargo = data.extra["cargo"].pop(uid, None)
        if cargo:
            data.place(cargo, HARSTAD)
            data.units[cargo].flags.remove(ABOARD)
        for s, c in list(data.extra["cargo"].items()):
            if c == uid:
                del data.extra["cargo"][s]
        u = data.units[uid]
        if u.has(ABOARD):
            u.flags.remove(ABOARD)
        data.remove(uid, "redeployed")  # 23.3: not eliminated, no VP
        if returns:
            data.extra["returning"].setdefault(str(data.turn + 1), []).append(uid)
        events.append({"type": "redeployed", "unit": uid, "returns": returns, "rule": "23.3, 31.0"})

    # 6.3 / 18.0 -------------------------------------------------------------------------

    def _air_phase(self, data: GameState, dice: Dice, events: list) -> None:
        x = data.extra
        if x["step"] == 0:
            x["mas"] = False
            if not x["mas_used"]:
                x["step"] = 1
                self._ask(data, ALLIES, "mas")
                return
            x["step"] = 1
        if x["step"] == 1:
            r = dice.roll(4, "air points")
            ap = r.total
            if "trondheim" in x["bad"]:
                ap //= 2  # 7.0, 18.1: halved, round down, before the bonus
            if data.turn >= 8:
                ap += 4  # 18.1, 28.0 (A27)
            data.tracks["ap"] = min(MAX_AP, ap)
            x["ap_bonus"] = False
            if self.switches.allied_concealment:  # 11.3 (A18): 1D6 caps the recon hexes this turn
                data.tracks["recon"] = 0 if "narvik" in x["bad"] else dice.roll(1, "recon").faces[0]
            events.append({"type": "air_points", "roll": list(r.faces), "ap": data.tracks["ap"], "rule": "18.1"})
            data.extra["initiative"] = ALLIES  # 6.4: the Allies start with the initiative
            data.passes = 0
            self._to_phase(data, "action")

    # 6.4 / 9.0 --------------------------------------------------------------------------

    def _next_action(self, data: GameState, events: list) -> None:
        self._ask(data, data.extra["initiative"], "action")

    def _after_action(self, data: GameState, actor: str, attack: bool, events: list, reaction: bool) -> None:
        """9.1, 9.2, 18.1: after an action, the other side may react; attacks pass the initiative."""
        x = data.extra
        if reaction:
            x.pop("ask", None)
            x.pop("reacting", None)
            if x.pop("pending_pass", False):
                x["initiative"] = other(x["initiative"])
            return
        if actor == ALLIES and (self.switches.ap_bonus_per_action or not x["ap_bonus"]):
            data.tracks["ap"] = min(MAX_AP, data.tracks["ap"] + 1)  # 18.1: +1 AP after an Allied action
            x["ap_bonus"] = True
            events.append({"type": "ap_bonus", "ap": data.tracks["ap"], "rule": "18.1"})
        data.passes = 0
        x["pending_pass"] = attack
        reactor = other(actor)
        x.pop("ask", None)
        if self._has_reaction(data, reactor):
            x["reacting"] = True
            self._ask(data, reactor, "reaction")
        elif x.pop("pending_pass", False):
            x["initiative"] = other(actor)

    def _has_reaction(self, data: GameState, side: str) -> bool:
        if side == GERMANS and data.tracks["ap"] > 0 and self._air_targets(data):
            return True
        if side == GERMANS and data.extra["fuhrer"]:
            return False
        return any(self.may_act(data, u) for u in data.on_map(side))

    # 6.5 / 21.0 -------------------------------------------------------------------------

    def _end_phase(self, data: GameState, dice: Dice, events: list) -> None:
        x = data.extra
        for ch in fat.end_of_turn_recovery(data, self.tables):  # 21.0
            events.append({"type": "fatigue", "unit": ch.unit, "fp": ch.applied, "cause": "recovery", "rule": "21.0"})
        data.tracks["ap"] = 0
        x["landed"] = []
        for u in data.units.values():
            if AMPHIBIOUS in u.flags:
                u.flags.remove(AMPHIBIOUS)
        last = data.turn >= self.spec.turns or (x["game_end_turn"] is not None and data.turn >= x["game_end_turn"])
        if last:
            for loc, value in sorted(self.objectives.items()):  # 29.0: Narvik 10, the '1918' hex 5
                if self.land_units_at(data, loc, ALLIES) and not self.land_units_at(data, loc, GERMANS):
                    self.vp(data, ALLIES, value, f"holds {self.board.label(loc)} at the end", "29.0", events)
            data.over = True
            res = self.result(data)
            data.winner = res.winner
            events.append({"type": "game_over", "turn": data.turn, "level": res.level, "vp": dict(data.vp), "rule": "24.0, 25.1"})
            return
        data.turn += 1
        events.append({"type": "turn", "turn": data.turn, "rule": "6.5"})
        self._to_phase(data, "initial")

    # --- legal orders -------------------------------------------------------------------

    def legal_orders(self, data: GameState) -> list[Order]:
        ask = data.extra.get("ask")
        if data.over or not ask:
            return []
        side, what = ask["side"], ask["what"]
        if what == "base":
            return [Pass(side)] + [DesignateBase(side, h) for h in self._base_candidates(data)]
        if what == "mas":
            return [DeclareMas(side, False), DeclareMas(side, True)]
        if what == "place":
            return self._place_orders(data, ask["unit"])
        if what == "redeploy":
            opts, n = ask["options"], ask["count"]
            if n == 1:
                return [ChooseUnits(side, (o,)) for o in opts]
            return [ChooseUnits(side, tuple(opts[:n])), ChooseUnits(side, tuple(opts[-n:]))]
        if what == "take":
            return self._take_orders(data, side)
        if what == "retreat":
            return [Retreat(side, ask["unit"], p) for p in self._retreat_options(data, ask["unit"])]
        if what == "advance":
            return self._advance_orders(data, side, ask["units"])
        if what == "target":
            return [ChooseUnits(side, (u,)) for u in ask["options"]]
        if what == "reaction":
            return [Pass(side)] + self._reveal_orders(data, side) + self._move_orders(data, side) + (
                self._air_orders(data) if side == GERMANS else [])
        if what == "action":
            out = [Pass(side)] + self._reveal_orders(data, side) + self._move_orders(data, side)
            out += self._assault_orders(data, side)
            if side == ALLIES:
                out += self._exit_orders(data) + self._art_orders(data) + self._naval_orders(data)
            else:
                out += self._air_orders(data)
            return out
        raise AssertionError(what)  # pragma: no cover

    def _reveal_orders(self, data: GameState, side: str) -> list[Order]:
        if side == ALLIES and not self.switches.allied_concealment:
            return []
        return [Reveal(side, u.id) for u in sorted(data.on_map(side), key=lambda u: u.id) if u.concealed and not self.is_dummy(u)]

    def _move_orders(self, data: GameState, side: str) -> list[Order]:
        if side == GERMANS and data.extra["fuhrer"]:
            return []  # 8.2.1
        out: list[Order] = []
        chart = self.tables.terrain
        ctx = self.side_context(data, side)  # one ZoC for every unit of the side (and one compiled context)
        pts = stacking.points_by_location(data, self.tables, side)
        for u in sorted(data.on_map(side), key=lambda u: u.id):
            if not self.may_act(data, u):
                continue
            t = self.t(u)
            up = stacking.unit_points(self.tables, u)
            r = reach(self.board, chart, data.weather, t.movement_class, u.loc, self.query(data, u, ctx))  # type: ignore[arg-type]
            for d in r.destinations():
                path = r.path(d)
                if any(self.board.is_a(h, "sweden") for h in path[1:-1]):
                    continue  # 22.2: a unit entering Sweden is interned at once, it cannot pass through
                if self.board.is_a(d, "sweden") or stacking.room_for(self.board, self.tables, pts, d, up):
                    out.append(Move(side, u.id, tuple(path)))
            out += [Move(side, u.id, (u.loc, b)) for b in self._crossings(data, u)]  # type: ignore[arg-type]
        return out

    def _crossings(self, data: GameState, u: Unit) -> list[str]:
        """20.6: fjord hexsides a Puffer or LC ferry lets this unit cross, without penalty."""
        out = []
        t = self.t(u)
        for ship in data.on_map(ALLIES if u.side == ALLIES else "none"):
            if "crossing" not in ship.flags or ship.loc is None:
                continue
            if ship.type == "Puffer" and (t.is_artillery or t.is_tank):
                continue  # 20.6: never by Puffer (A39: an LC may ferry them)
            for a in (ship.loc, *self.board.neighbours(ship.loc)):
                if a != u.loc:
                    continue
                for b in self.board.neighbours(a):
                    border = self.board.border(a, b)
                    if not border.has("fjord") or self.board.terrain(b) in ("sea", "box"):
                        continue
                    if ship.loc not in (a, b) or "mountain" in (self.board.terrain(a), self.board.terrain(b)):
                        continue
                    if b in self.occupied(data, other(u.side)):
                        continue
                    out.append(b)
        return sorted(set(out))

    def _exit_orders(self, data: GameState) -> list[Order]:
        return [Exit(ALLIES, u.id) for u in sorted(data.on_map(ALLIES), key=lambda u: u.id)
                if self.may_act(data, u) and (self.board.is_a(u.loc, "edge_north") or self.board.is_a(u.loc, "edge_south"))]

    def _attackers_for(self, data: GameState, side: str, target: str) -> list[str]:
        out = []
        chart = self.tables.terrain
        for n in self.board.neighbours(target):
            for u in self.land_units_at(data, n, side):
                if not self.may_act(data, u):
                    continue
                if may_attack_into(self.board, chart, data.weather, self.t(u), n, target):  # 15.1
                    out.append(u.id)
        return sorted(out)

    def _support_art(self, data: GameState, side: str, target: str, exclude: set[str]) -> list[str]:
        out = []
        for u in data.on_map(side):
            if u.id in exclude or not self.t(u).is_artillery or u.has(ABOARD) or u.loc in (None, HARSTAD):
                continue
            if u.loc == target or can_fire(self.board, u.loc, target, ART_RANGE):
                out.append(u.id)
        return sorted(out)

    def _support_ships(self, data: GameState, target: str) -> list[str]:
        out = []
        for u in data.on_map(ALLIES):
            t = self.t(u)
            if t.kind != "ship" or t.bombard <= 0 or u.loc in (None, HARSTAD) or u.id in data.extra["cargo"]:
                continue
            if can_fire(self.board, u.loc, target, t.bombard_range, adjacent_exception=False):
                out.append(u.id)
        return sorted(out)

    def _assault_orders(self, data: GameState, side: str) -> list[Order]:
        out: list[Order] = []
        for target in sorted(self.occupied(data, other(side))):
            units = self._attackers_for(data, side, target)
            if not [x for x in units if not self.t(data.units[x]).is_artillery]:
                continue
            art = self._support_art(data, side, target, set(units)) if side == ALLIES else []
            ships = self._support_ships(data, target) if side == ALLIES else []
            out.append(LandAssault(side, target, tuple(units)))
            if art or ships:
                out.append(LandAssault(side, target, tuple(units), tuple(art), tuple(ships)))
            if side == GERMANS and data.tracks["ap"] > 0:
                out.append(LandAssault(side, target, tuple(units), ap=data.tracks["ap"]))
        return out

    def _interdicting_art(self, data: GameState, target: str, sup: dict[str, bool] | None = None) -> list[str]:
        """16.1.1: supplied Allied artillery, not fired this turn, within 2 hexes, no ridge between."""
        if sup is None:
            sup = self._supplied(data, [u for u in data.on_map(ALLIES) if self.t(u).is_artillery])
        return [a for a in self._support_art(data, ALLIES, target, set())
                if "fired" not in data.units[a].flags and sup.get(a, False) and data.units[a].loc != target]

    def _art_orders(self, data: GameState) -> list[Order]:
        sup = self._supplied(data, [u for u in data.on_map(ALLIES) if self.t(u).is_artillery])
        out: list[Order] = []
        for target in sorted(self.occupied(data, GERMANS)):
            arts = self._interdicting_art(data, target, sup)
            if arts:
                out.append(ArtilleryInterdiction(ALLIES, tuple(arts), target))
        return out

    def _air_targets(self, data: GameState) -> list[tuple[str, str]]:
        out = []
        for loc in sorted({u.loc for u in data.on_map(ALLIES) if u.loc not in (None, HARSTAD)}):
            units = data.at(loc)
            if any(self.t(u).infantry and not u.has(ABOARD) and u.side == ALLIES for u in units):
                out.append(("infantry", loc))
            if any(self.is_ship(u) and u.side == ALLIES for u in units):
                out.append(("ships", loc))
        return out

    def _air_orders(self, data: GameState) -> list[Order]:
        ap = data.tracks["ap"]
        if ap <= 0:
            return []
        out: list[Order] = []
        if data.tracks.get("recon", 0) > 0:  # 11.3: 1 AP a hex reveals everything in it
            hidden = sorted({u.loc for u in data.on_map(ALLIES) if u.concealed and u.loc not in (None, HARSTAD)})
            out += [AirStrike(GERMANS, "recon", h, 1) for h in hidden]
        for mission, loc in self._air_targets(data):
            if mission == "infantry":
                out += [AirStrike(GERMANS, "infantry", loc, a) for a in sorted({ap, max(1, ap // 2)})]
            else:
                ships = sorted(u.id for u in data.at(loc) if self.is_ship(u))
                out += [AirStrike(GERMANS, "ships", loc, ap, ((s, ap),)) for s in ships]
        return out

    def _naval_orders(self, data: GameState) -> list[Order]:
        out: list[Order] = []
        x = data.extra
        ships = sorted((u for u in data.on_map(ALLIES) if self.is_ship(u)), key=lambda u: u.id)
        for s in ships:
            if "no_move" not in s.flags:
                key = (s.id, s.loc)
                moves = self._naval_move_cache.get(key)
                if moves is None:  # naval reach depends on the map only (20.1): build once
                    moves = self._naval_move_cache[key] = [
                        NavalMove(ALLIES, (s.id,), path)
                        for _, path in sorted(naval_destinations(self.board, s.loc).items())  # type: ignore[arg-type]
                    ]
                out += moves
            cargo = x["cargo"].get(s.id)
            if cargo is None and self.t(s).transport:
                for u in self.land_units_at(data, s.loc, ALLIES):  # type: ignore[arg-type]
                    if self._can_carry(s, u) and (s.loc == HARSTAD or self.board.is_a(s.loc, "port")):
                        out.append(Embark(ALLIES, s.id, u.id))
            room = cargo is not None and stacking.stack(self.board, data, self.tables, s.loc, ALLIES,  # type: ignore[arg-type]
                                                          extra=[data.units[cargo]], leaving=[cargo]).ok
            if cargo is not None and s.loc != HARSTAD and room:
                if self.board.is_a(s.loc, "port") and any(x2.id != cargo for x2 in self.land_units_at(data, s.loc, ALLIES, real=False)):  # type: ignore[arg-type]
                    out.append(Disembark(ALLIES, s.id))
                elif self._landing_ok(data, s.loc):  # type: ignore[arg-type]
                    out.append(Landing(ALLIES, (s.id,), s.loc))  # type: ignore[arg-type]
                for tgt in self.board.neighbours(s.loc):
                    if self._contested_target(data, tgt) and not self.t(data.units[cargo]).is_artillery:  # 20.3.1
                        out.append(Landing(ALLIES, (s.id,), tgt, tuple(self._support_ships(data, tgt))))
            elif cargo is not None and s.loc == HARSTAD:
                out.append(Disembark(ALLIES, s.id))
            out += [Bombard(ALLIES, s.id, tgt) for tgt in sorted(self.occupied(data, GERMANS)) if self._can_bombard(data, s, tgt)]
            out += [ShipFunction(ALLIES, s.id, f) for f in ("base", "crossing") if self._function_ok(s, f)]
        return out

    def _can_bombard(self, data: GameState, s: Unit, target: str) -> bool:
        """20.5: an unloaded ship with a bombardment value, not fired this turn, in range, no ridge."""
        t = self.t(s)
        if data.extra["cargo"].get(s.id) is not None or t.bombard <= 0 or "fired" in s.flags or s.loc in (None, HARSTAD):
            return False
        return can_fire(self.board, s.loc, target, t.bombard_range, adjacent_exception=False)

    def _function_ok(self, s: Unit, function: str) -> bool:
        """20.6: a Puffer in a non-mountain coast hex may be a Base; a Puffer or LC next to fjord
        hexsides may ferry; never both, and not from Harstad."""
        if s.type not in ("Puffer", "LC") or s.loc in (None, HARSTAD) or {"base", "crossing"} & set(s.flags):
            return False
        if function == "base":
            return s.type == "Puffer" and self.board.terrain(s.loc) == "coast"
        if function == "crossing":
            return any(self.board.border(s.loc, b).has("fjord") for b in self.board.neighbours(s.loc))
        return False

    def _can_carry(self, ship: Unit, u: Unit) -> bool:
        t = self.t(u)
        if t.size == "battalion" and t.infantry:
            return True  # 20.2: one infantry battalion
        return ship.type == "LC" and (t.is_artillery or t.is_tank)  # 20.2: LC carries art or a tank

    def _landing_ok(self, data: GameState, loc: str) -> bool:
        """20.3: an uncontested landing in a non-friendly port or on a beach."""
        if self.land_units_at(data, loc, GERMANS, real=False):
            return False
        friendly = bool(self.land_units_at(data, loc, ALLIES, real=False))
        if self.board.is_a(loc, "beach"):
            return True
        return self.board.is_a(loc, "port") and not friendly

    def _contested_target(self, data: GameState, loc: str) -> bool:
        return (self.board.is_a(loc, "port") or self.board.is_a(loc, "beach")) and bool(self.land_units_at(data, loc, GERMANS, real=False))

    def _place_orders(self, data: GameState, uid: str) -> list[Order]:
        if uid == REPLACEMENT:
            out_r: list[Order] = []
            for dead in self._replaceable(data, data.extra.get("arrivals", [])):
                out_r += self._place_orders(data, dead)
            return out_r or [Place(GERMANS, REPLACEMENT, "", False)]
        hosts = sorted({u.loc for u in data.on_map(GERMANS) if not self.is_dummy(u) and u.loc})
        u = data.units[uid]
        out: list[Order] = []
        n_dummies = sum(1 for d in data.on_map(GERMANS) if self.is_dummy(d))
        for h in hosts:
            if not stacking.stack(self.board, data, self.tables, h, GERMANS, extra=[u]).ok:
                continue
            out.append(Place(GERMANS, uid, h, False))
            out.append(Place(GERMANS, uid, h, True))
            if n_dummies < MAX_DUMMIES:
                out.append(Place(GERMANS, uid, h, True, h))
        if not out:
            out.append(Place(GERMANS, uid, "", False))  # nowhere to go: the arrival is lost
        return out

    # --- apply --------------------------------------------------------------------------

    def apply(self, data: GameState, order: Order, dice: Dice) -> list[dict[str, Any]]:
        ask = data.extra.get("ask")
        if ask is None:
            raise IllegalOrder("no decision is pending", "6.0")
        if order.side != ask["side"]:
            raise IllegalOrder(f"it is {ask['side']}'s decision ({ask['what']}), not {order.side}'s", "9.1")
        events: list[dict[str, Any]] = []
        what = ask["what"]
        handler = {
            "base": self._do_base, "mas": self._do_mas, "place": self._do_place, "redeploy": self._do_redeploy,
            "take": self._do_take, "retreat": self._do_retreat, "advance": self._do_advance,
            "target": self._do_target, "reaction": self._do_reaction, "action": self._do_action,
        }[what]
        handler(data, order, dice, events)
        self._run(data, dice, events)
        return events

    def _expect(self, order: Order, *types: type) -> None:
        if not isinstance(order, types):
            names = ", ".join(t.kind for t in types)  # type: ignore[attr-defined]
            raise IllegalOrder(f"expected {names}, got {order.kind}", "6.0")

    def _do_base(self, data: GameState, order: Order, dice: Dice, events: list) -> None:
        self._expect(order, Pass, DesignateBase)
        if isinstance(order, DesignateBase):
            if order.hex not in self._base_candidates(data):
                raise IllegalOrder(f"{order.hex} is not a port held by an Allied land unit without Germans", "19.4")
            data.bases.append(order.hex)
            if data.extra.get("base_turn") != data.turn:  # 19.4: designations come on 1 or 2 occasions
                data.extra["base_turn"] = data.turn
                data.extra["base_occasions"] += 1
            events.append({"type": "base", "hex": order.hex, "rule": "19.4"})
            data.extra.pop("ask")
            if len(data.bases) + len(data.extra["bases_lost"]) < MAX_BASES and self._base_candidates(data):
                self._ask(data, ALLIES, "base")
            return
        data.extra.pop("ask")

    def _do_mas(self, data: GameState, order: Order, dice: Dice, events: list) -> None:
        self._expect(order, DeclareMas)
        assert isinstance(order, DeclareMas)
        if order.declare:
            data.extra["mas"] = True
            data.extra["mas_used"] = True
            events.append({"type": "mas", "rule": "18.2"})
        data.extra.pop("ask")

    def _do_place(self, data: GameState, order: Order, dice: Dice, events: list) -> None:
        self._expect(order, Place)
        assert isinstance(order, Place)
        x = data.extra
        if order not in self._place_orders(data, x["ask"]["unit"]):
            raise IllegalOrder(f"{order.unit} may be placed only in a hex holding a German unit, within stacking", "23.4")
        x["arrivals"].pop(0)
        if order.hex and order.unit != REPLACEMENT:
            u = data.units[order.unit]
            was_dead = u.pool == "eliminated"
            data.place(order.unit, order.hex)
            u.fatigue = 0  # A42
            u.concealed = order.concealed
            events.append({"type": "place", "unit": order.unit, "hex": order.hex, "concealed": order.concealed, "rule": "23.4"})
            if was_dead:  # 29.0: only units eliminated and NOT replaced score
                self.vp(data, ALLIES, -4, f"{order.unit} replaced", "29.0, 23.4", events)
            if order.dummy_hex:
                spare = sorted(d.id for d in data.units.values() if self.is_dummy(d) and d.pool is not None)
                if spare:
                    data.place(spare[0], order.dummy_hex)
                    data.units[spare[0]].concealed = True
                    events.append({"type": "dummy", "hex": order.dummy_hex, "rule": "23.4, 11.2"})
        else:
            events.append({"type": "lost", "what": order.unit, "rule": "23.4"})
        x.pop("ask")
        if not x["arrivals"]:
            x.pop("arrivals")

    def _do_redeploy(self, data: GameState, order: Order, dice: Dice, events: list) -> None:
        self._expect(order, ChooseUnits)
        assert isinstance(order, ChooseUnits)
        pick = data.extra["redeploy_pick"]
        if len(order.units) != pick["count"] or any(u not in pick["options"] for u in order.units) or len(set(order.units)) != len(order.units):
            raise IllegalOrder(f"choose {pick['count']} of {', '.join(pick['options'])}", "31.0, A41")
        for uid in order.units:
            self._redeploy_unit(data, uid, False, events)
        data.extra.pop("redeploy_pick")
        data.extra.pop("ask")

    # --- actions and reactions ----------------------------------------------------------

    def _do_reaction(self, data: GameState, order: Order, dice: Dice, events: list) -> None:
        side = data.extra["ask"]["side"]
        if isinstance(order, Pass):
            self._after_action(data, side, False, events, reaction=True)
            return
        if isinstance(order, Reveal):  # free: the reaction is still to come
            self._reveal(data, order)
            events.append({"type": "reveal", "unit": order.unit, "rule": "11.1"})
            return
        data.extra.pop("ask")
        if isinstance(order, Move):
            self._move(data, order, events)
        elif isinstance(order, AirStrike) and side == GERMANS:
            self._air_strike(data, order, dice, events)
        else:
            raise IllegalOrder(f"a reaction is a land movement or a German air mission, not {order.kind}", "9.1.1")
        self._after_action(data, side, False, events, reaction=True)

    def _do_action(self, data: GameState, order: Order, dice: Dice, events: list) -> None:
        side = data.extra["ask"]["side"]
        x = data.extra
        x.pop("completed", None)
        if isinstance(order, Pass):  # 9.2
            events.append({"type": "pass", "side": side, "rule": "9.2"})
            data.passes += 1
            x.pop("ask")
            x["initiative"] = other(side)
            if data.passes >= 2:
                self._to_phase(data, "end")
            return
        if isinstance(order, Reveal):
            if side != GERMANS and not self.switches.allied_concealment:
                raise IllegalOrder("only German units start face down (11.3 is off)", "11.1")
            self._reveal(data, order)
            events.append({"type": "reveal", "unit": order.unit, "rule": "11.1"})
            return
        if isinstance(order, Embark) and data.units.get(order.ship) and data.units[order.ship].loc == HARSTAD:
            self._embark(data, order, events)  # 20.2: at Harstad loading never interrupts anything
            return
        if isinstance(order, Disembark) and data.units.get(order.ship) and data.units[order.ship].loc == HARSTAD:
            self._disembark(data, order, events)
            return
        attack = False
        x.pop("ask")
        x["last_action"] = {"side": side, "attack": False}
        if isinstance(order, Move):
            self._move(data, order, events)
        elif isinstance(order, Exit):
            self._exit(data, order, events)
        elif isinstance(order, LandAssault):
            self._assault(data, order, dice, events)
            attack = True
        elif isinstance(order, ArtilleryInterdiction):
            self._art_interdiction(data, order, dice, events)
            attack = True
        elif isinstance(order, AirStrike) and side == GERMANS:
            self._air_strike(data, order, dice, events)
        elif isinstance(order, NavalMove) and side == ALLIES:
            self._naval_move(data, order, events)
        elif isinstance(order, Embark) and side == ALLIES:
            self._embark(data, order, events)
        elif isinstance(order, Disembark) and side == ALLIES:
            self._disembark(data, order, events)
            attack = True  # 9.0 stars disembarkation (A11, literal reading)
        elif isinstance(order, Landing) and side == ALLIES:
            self._landing(data, order, dice, events)
            attack = True
        elif isinstance(order, Bombard) and side == ALLIES:
            self._bombard(data, order, events)
            attack = True
        elif isinstance(order, ShipFunction) and side == ALLIES:
            self._ship_function(data, order, events)
        else:
            raise IllegalOrder(f"{side} has no {order.kind} action", "9.0")
        x["last_action"] = {"side": side, "attack": attack}
        if "combat" in x or "ask" in x or x.pop("completed", False):
            return  # the reaction comes once the action's own decisions are made
        self._after_action(data, side, attack, events, reaction=False)

    def _reveal(self, data: GameState, order: Reveal) -> None:
        u = data.units.get(order.unit)
        if u is None or u.side != order.side or not u.concealed or self.is_dummy(u):
            raise IllegalOrder(f"{order.unit} is not a face-down unit of {order.side}", "11.1, 11.3")
        u.concealed = False

    # land movement (14.0), exits (22.3), Sweden (22.2) -----------------------------------

    def _move(self, data: GameState, order: Move, events: list) -> None:
        u = data.units.get(order.unit)
        if u is None or u.side != order.side:
            raise IllegalOrder(f"{order.unit} is not a unit of {order.side}", "14.0")
        if order.side == GERMANS and data.extra["fuhrer"]:
            raise IllegalOrder("Führer orders: no German land unit may move this turn", "8.2.1")
        if not self.may_act(data, u):
            raise IllegalOrder(f"{u.id} may not move (face down, aboard, in Harstad, or at its fatigue limit)", "10.1, 11.1")
        if len(order.path) < 2 or order.path[0] != u.loc:
            raise IllegalOrder(f"a move starts at {u.id}'s hex {u.loc} and enters at least one hex", "14.0")
        for a, b in zip(order.path, order.path[1:]):
            if b not in self.board.neighbours(a):
                raise IllegalOrder(f"{a} and {b} are not adjacent", "14.0")
        t = self.t(u)
        q = self.query(data, u)
        crossing = len(order.path) == 2 and order.path[1] in self._crossings(data, u)
        if crossing:  # 20.6: across the fjord "without penalty": the destination's terrain cost only
            chart = self.tables.terrain
            spent = chart.section(data.weather).terrain[chart.terrain_class(self.board.terrain(order.path[1])) or "clear"].cost(t.movement_class)
        else:
            led = explain_path(self.board, self.tables.terrain, data.weather, t.movement_class, order.path, q)
            if led.total is None:
                raise IllegalOrder(f"{u.id} cannot move {'>'.join(order.path)}: {led.lines[-1].text}", "14.1")
            if led.total > q.mp and len(order.path) > 2:
                raise IllegalOrder(f"{u.id} needs {led.total} MP for {'>'.join(order.path)} but has {q.mp}", "14.1")
            spent = led.total
        for mid in order.path[1:-1]:
            if self.board.is_a(mid, "sweden"):
                raise IllegalOrder(f"{u.id} would be interned on entering {mid}: end the move there", "22.2")
        dest = order.path[-1]
        if not self.board.is_a(dest, "sweden"):
            rep = stacking.stack(self.board, data, self.tables, dest, u.side, extra=[u])
            if not rep.ok:
                raise IllegalOrder(rep.message(), "13.2")
        data.place(u.id, dest)
        ch = fat.add_fatigue(data, self.tables, u.id, "movement_action")
        events.append({"type": "move", "unit": u.id, "path": list(order.path), "mp": str(spent), "fp": ch.applied, "rule": "14.0"})
        if self.board.is_a(dest, "sweden"):
            self._intern(data, u, events)
        self._check_bases(data, events)

    def _intern(self, data: GameState, u: Unit, events: list) -> None:
        data.remove(u.id, "interned")  # 22.2: removed for good, never replaced
        events.append({"type": "interned", "unit": u.id, "rule": "22.2"})
        if u.side == GERMANS:
            self.vp(data, ALLIES, 2, f"{u.id} interned", "29.0", events)
        else:
            self.vp(data, GERMANS, 1 if self.t(u).is_tank else 2, f"{u.id} interned", "29.0", events)

    def _exit(self, data: GameState, order: Exit, events: list) -> None:
        u = data.units.get(order.unit)
        if order not in self._exit_orders(data) or u is None:
            raise IllegalOrder(f"{order.unit} must be a free Allied unit on the north or south edge", "22.3")
        data.remove(u.id, "exited")
        fat.add_fatigue(data, self.tables, u.id, "movement_action")
        events.append({"type": "exit", "unit": u.id, "rule": "22.3"})
        t = self.t(u)
        if data.turn <= EXIT_VP_LAST_TURN and not data.extra["exits_banned"] and u.nation != "norwegian" and t.size == "battalion":
            self.vp(data, ALLIES, 2, f"{u.id} exited", "29.0, 22.3", events)

    def _check_bases(self, data: GameState, events: list) -> None:
        """19.4: a Base is lost when a German land unit occupies it (German +5 VP)."""
        for b in list(data.bases):
            if self.land_units_at(data, b, GERMANS):
                data.bases.remove(b)
                data.extra["bases_lost"].append(b)
                self.vp(data, GERMANS, 5, f"base {b} captured", "29.0, 19.4", events)

    # supply -------------------------------------------------------------------------------

    def supply_inputs(self, data: GameState) -> tuple[list[str], frozenset[str], list[str]]:
        """Return what Allied lines of supply run to and through (19.3, 19.4, 20.6, 12.2):
        the Bases (designated ports and Puffer bases), the German ZoC, and the hexes holding
        Allied infantry on land (which open a ZoC hex)."""
        bases = list(data.bases) + [s.loc for s in data.on_map(ALLIES) if "base" in s.flags and s.loc]
        zoc = zoc_of(self.board, data, self.tables, GERMANS)
        inf = [u.loc for u in data.on_map(ALLIES) if self.t(u).infantry and not u.has(ABOARD) and u.loc]
        return bases, zoc, inf

    def _supplied(self, data: GameState, units: list[Unit]) -> dict[str, bool]:
        """19.2, 19.3: which Allied units have a line of supply (Norwegians always)."""
        bases, zoc, inf = self.supply_inputs(data)
        locs = [u.loc for u in units if u.loc and u.loc != HARSTAD]
        st = supply_status(self.board, self.tables.terrain, data.weather, "leg", locs, bases, zoc, inf) if locs else {}
        out = {}
        for u in units:
            out[u.id] = (u.nation in ALWAYS_SUPPLIED or u.loc == HARSTAD or bool(st.get(u.loc, False)))  # type: ignore[arg-type]
        return out

    def supply(self, data: GameState, u: Unit) -> Any:
        """Return one Allied unit's line of supply, or what blocked it (19.3)."""
        from hexwar.rules.supply import line_of_supply

        bases, zoc, inf = self.supply_inputs(data)
        return line_of_supply(self.board, self.tables.terrain, data.weather, "leg", u.loc, bases, zoc, inf)  # type: ignore[arg-type]

    # land assault (15.0) ------------------------------------------------------------------

    def _reveal_hex(self, data: GameState, loc: str, events: list) -> None:
        """11.2: units attacked are revealed; a revealed dummy is eliminated at once."""
        for u in data.at(loc):
            if u.concealed:
                u.concealed = False
                if self.is_dummy(u):
                    data.remove(u.id, "eliminated")
                    events.append({"type": "dummy_removed", "unit": u.id, "rule": "11.2"})
                else:
                    events.append({"type": "revealed", "unit": u.id, "rule": "11.2"})

    def _assault(self, data: GameState, order: LandAssault, dice: Dice, events: list) -> None:
        side, target = order.side, order.target
        enemy = other(side)
        if not self.land_units_at(data, target, enemy, real=False):
            raise IllegalOrder(f"{target} holds no enemy land units", "15.1")
        eligible = set(self._attackers_for(data, side, target))
        bad = [x for x in order.units if x not in eligible]
        if bad or not order.units:
            raise IllegalOrder(f"not eligible to assault {target}: {', '.join(bad) or 'no units'}", "15.1")
        if all(self.t(data.units[x]).is_artillery for x in order.units):
            raise IllegalOrder("artillery cannot assault alone", "16.1")
        if side == GERMANS and (order.artillery or order.ships):
            raise IllegalOrder("the Germans have no artillery or ships here", "27.0")
        if side == ALLIES and order.ap:
            raise IllegalOrder("the Allies never have air points", "18.2")
        if order.ap < 0 or order.ap > data.tracks["ap"]:
            raise IllegalOrder(f"only {data.tracks['ap']} AP available", "18.1")
        bad_art = [a for a in order.artillery if a not in self._support_art(data, side, target, set(order.units))]
        bad_ships = [s for s in order.ships if s not in self._support_ships(data, target)]
        if bad_art or bad_ships:
            raise IllegalOrder(f"cannot support: {', '.join(bad_art + bad_ships)} (range 2, ridges)", "16.1, 20.5")
        self._combat(data, dice, events, side, target, list(order.units), list(order.artillery), list(order.ships),
                     order.ap, amphibious=False)

    def _combat(self, data: GameState, dice: Dice, events: list, side: str, target: str, attackers: list[str],
                art: list[str], ships: list[str], ap: int, amphibious: bool, from_hex: str | None = None,
                landing_ships: tuple[str, ...] = ()) -> None:
        enemy = other(side)
        x = data.extra
        self._reveal_hex(data, target, events)
        defenders = [u.id for u in self.land_units_at(data, target, enemy)]
        if not defenders:
            events.append({"type": "assault_empty", "target": target, "rule": "11.2"})
            if amphibious:
                self._land_units(data, landing_ships, target, events, contested=True)
            return
        # 15.1 step 1, 19.2 (A21): an unsupplied Allied defender takes +6 FP first
        if enemy == ALLIES:
            sup = self._supplied(data, [data.units[d] for d in defenders])
            for d in defenders:
                u = data.units[d]
                if not sup[d] and fat.takes_fatigue(self.tables, u) and d not in x["landed"]:
                    ch = fat.add_fatigue(data, self.tables, d, "unsupplied_attacked")
                    events.append({"type": "fatigue", "unit": d, "fp": ch.applied, "cause": "unsupplied_attacked", "rule": "19.2"})
            # 16.1: Allied artillery supports the defence (declared by the Allies; always worth it)
            art = self._support_art(data, ALLIES, target, set(defenders))
        att_support: list[Line] = []
        def_support: list[Line] = []
        for a in art:
            line = Line(f"{a} artillery support", self.t(data.units[a]).strength, "16.1")
            (att_support if side == ALLIES else def_support).append(line)
        for s in ships:
            att_support.append(Line(f"{s} naval support", self.t(data.units[s]).bombard, "20.5"))
        air_line = None
        if ap:
            roll = dice.roll(2, "air support")
            inf, _ = self.air.result(ap, roll.total, self._air_drm(data, target))
            data.tracks["ap"] -= ap
            air_line = Line(f"air support {ap} AP, roll {roll.total}", inf, "18.1.1")
            att_support.append(air_line)
        drms: list[Line] = []
        if "narvik" in x["bad"]:
            drms.append(Line("bad weather at Narvik", self.tables.crt.drm("bad_weather_narvik"), "7.0"))  # type: ignore[union-attr]
        sums = assault_sums(data, self.tables, [a for a in attackers if data.units[a].loc], defenders,
                            att_support, def_support, drms, halve_attack=amphibious)
        res = resolve_differential(self.tables.crt, sums.attack, sums.defence, sums.drms, dice)  # type: ignore[arg-type]
        events.append({"type": "assault", "target": target, "attackers": attackers, "defenders": defenders,
                       "artillery": art, "ships": ships, "ap": ap, "amphibious": amphibious,
                       "ad": sums.differential, "drm": sums.drm, "die": res.die, "column": res.column,
                       "result": f"{res.attacker}/{res.defender}", "ledger": res.ledger.to_dict(), "rule": "15.1"})
        x["last_combat"] = events[-1]
        if side == ALLIES and (art or ships):  # 29.0 (A37): an attack on a position
            self.vp(data, GERMANS, 2 if target == self.narvik else 1, f"naval/artillery attack on {target}", "29.0", events)
        x["combat"] = {
            "side": side, "target": target, "attackers": attackers, "defenders": defenders,
            "amphibious": amphibious, "from": from_hex, "ships": list(landing_ships),
            "points": {enemy: res.defender, side: res.attacker}, "retreat": {enemy: 0, side: 0},
            "stage": enemy, "retreat_queue": [],
        }
        self._combat_step(data, events)

    def _participants(self, data: GameState, c: dict[str, Any], who: str) -> list[Unit]:
        ids = c["defenders"] if who != c["side"] else c["attackers"]
        return [data.units[i] for i in ids if data.units[i].loc is not None and data.units[i].pool is None]

    def _combat_step(self, data: GameState, events: list) -> None:
        """Drive a combat's decisions: defender's points, retreats, attacker's, advance (15.2, 15.3)."""
        x = data.extra
        c = x["combat"]
        while True:
            who = c["stage"]
            if who in (ALLIES, GERMANS):
                parts = self._participants(data, c, who)
                if c["points"][who] > 0 and not parts:
                    c["points"][who] = 0  # 15.2: eliminating all participants satisfies any result
                if c["points"][who] > 0:
                    opts = self._take_orders(data, who)
                    if len(opts) == 1:  # nothing to choose: apply it
                        self._take(data, opts[0], events)  # type: ignore[arg-type]
                        continue
                    self._ask(data, who, "take", points=c["points"][who])
                    return
                # retreats of this side
                if c["retreat"][who] > 0 and who not in c.setdefault("retreated", []):
                    c["retreated"].append(who)
                    c["retreat_queue"] = [u.id for u in self._participants(data, c, who)]
                if c["retreat_queue"]:
                    uid = c["retreat_queue"][0]
                    if data.units[uid].loc is None:
                        c["retreat_queue"].pop(0)
                        continue
                    if not self._retreat_options(data, uid):
                        # 15.3.1: earlier retreats of this combat filled every stack this unit
                        # could reach; a result it cannot retreat for is taken as elimination
                        c["retreat_queue"].pop(0)
                        events.append({"type": "no_retreat", "unit": uid, "rule": "15.3.1"})
                        self._eliminate(data, data.units[uid], events, amphibious=bool(c["amphibious"]))
                        continue
                    self._ask(data, who, "retreat", unit=uid, length=c["retreat"][who])
                    return
                c["stage"] = c["side"] if who != c["side"] else "advance"
                continue
            if who == "advance":
                self._finish_combat(data, events)
                return

    def _finish_combat(self, data: GameState, events: list) -> None:
        x = data.extra
        c = x["combat"]
        side, target = c["side"], c["target"]
        cleared = not self.land_units_at(data, target, other(side), real=False)
        if c["amphibious"]:
            if cleared:  # 20.3.1: the landing force must advance, no -1 FP
                self._land_units(data, tuple(c["ships"]), target, events, contested=True)
            else:  # 20.3.1 (A47): all attacking land units and ships go back to Harstad
                for sid in c["ships"]:
                    cargo = x["cargo"].pop(sid, None)
                    data.place(sid, HARSTAD)
                    if cargo and data.units[cargo].pool is None:
                        u = data.units[cargo]
                        u.flags.remove(ABOARD)
                        data.place(cargo, HARSTAD)
                        fat.add_fatigue(data, self.tables, cargo, "amphibious_assault")
                        self.vp(data, GERMANS, 2, f"{cargo} returned to Harstad", "29.0, 20.3.1", events)
                        events.append({"type": "landing_failed", "unit": cargo, "rule": "20.3.1"})
            self._combat_fatigue(data, c, events)
            x.pop("combat")
            self._check_bases(data, events)
            x["completed"] = True
            self._after_action(data, side, True, events, reaction=False)
            return
        # the assault's own FP first, so that an advance's -1 counts against them (15.3)
        self._combat_fatigue(data, c, events)
        # 15.3: attacking infantry and tanks that are still on the map (not aboard) may advance
        parts = [u for u in self._participants(data, c, side) if not self.t(u).is_artillery and not u.has(ABOARD)]
        if cleared and parts and not (side == GERMANS and x["fuhrer"]):
            c["stage"] = "advance_asked"
            self._ask(data, side, "advance", units=[u.id for u in parts])
            return
        self._end_combat(data, events)

    def _end_combat(self, data: GameState, events: list) -> None:
        x = data.extra
        c = x.pop("combat")
        self._combat_fatigue(data, c, events)
        self._check_bases(data, events)
        x["completed"] = True
        self._after_action(data, c["side"], True, events, reaction=False)

    def _combat_fatigue(self, data: GameState, c: dict[str, Any], events: list) -> None:
        if c.get("fatigued"):
            return
        c["fatigued"] = True
        cause_a = "amphibious_assault" if c["amphibious"] else "assault"
        for uid in c["attackers"]:
            u = data.units[uid]
            if u.pool is None and fat.takes_fatigue(self.tables, u) and not (c["amphibious"] and u.loc == HARSTAD):
                ch = fat.add_fatigue(data, self.tables, uid, cause_a)
                events.append({"type": "fatigue", "unit": uid, "fp": ch.applied, "cause": cause_a, "rule": "15.1, 20.3.1"})
        for uid in c["defenders"]:
            u = data.units[uid]
            if u.pool is None and fat.takes_fatigue(self.tables, u):
                ch = fat.add_fatigue(data, self.tables, uid, "defend")
                events.append({"type": "fatigue", "unit": uid, "fp": ch.applied, "cause": "defend", "rule": "15.1"})

    # 15.2 choices ---------------------------------------------------------------------------

    def _take_orders(self, data: GameState, side: str) -> list[Order]:
        c = data.extra["combat"]
        parts = self._participants(data, c, side)
        out: list[Order] = []
        allied = side == ALLIES
        tanks = [u for u in parts if self.t(u).is_tank]
        victims = tanks if (allied and tanks) else parts  # 16.2: Allied tanks go first
        elim_only = (c["amphibious"] and side == c["side"])  # 20.3.1: Allied landing force
        fuhrer = side == GERMANS and data.extra["fuhrer"]
        for u in victims:
            out.append(TakeResult(side, "eliminate", u.id))
        if elim_only:
            return out
        inf = [u for u in parts if fat.takes_fatigue(self.tables, u) and not fat.at_limit(self.tables, u)]
        if inf and not (c["amphibious"] and side != c["side"]):
            cap = {u.id: fat.fatigue_limit(self.tables, u) - u.fatigue for u in inf}
            if sum(cap.values()) >= 6:
                left, detail = 6, []
                for u in sorted(inf, key=lambda u: (-cap[u.id], u.id)):
                    k = min(left, cap[u.id])
                    if k:
                        detail.append((u.id, k))
                        left -= k
                out.append(TakeResult(side, "fatigue", "", tuple(sorted(detail))))
                for u in inf:
                    if cap[u.id] >= 6:
                        out.append(TakeResult(side, "fatigue", "", ((u.id, 6),)))
            out.append(TakeResult(side, "all_to_limit"))
        if not fuhrer:
            n = c["retreat"][side] + 1
            if n <= MAX_RETREAT and parts and all(self._retreat_options(data, u.id, n) for u in parts):
                out.append(TakeResult(side, "retreat"))
        return list(dict.fromkeys(out))

    def _do_take(self, data: GameState, order: Order, dice: Dice, events: list) -> None:
        self._expect(order, TakeResult)
        assert isinstance(order, TakeResult)
        self._take(data, order, events)
        data.extra.pop("ask", None)
        self._combat_step(data, events)

    def _take(self, data: GameState, order: TakeResult, events: list) -> None:
        c = data.extra["combat"]
        side = order.side
        legal = self._take_orders(data, side)
        parts = {u.id: u for u in self._participants(data, c, side)}
        if order.option == "fatigue" and order not in legal:
            # any split of exactly 6 FP among eligible infantry within their limits is allowed (15.2)
            ok = order.detail and sum(fp for _, fp in order.detail) == 6 and all(
                uid in parts and fat.takes_fatigue(self.tables, parts[uid]) and 0 < fp <= fat.fatigue_limit(self.tables, parts[uid]) - parts[uid].fatigue
                for uid, fp in order.detail) and any(o.option == "fatigue" for o in legal)  # type: ignore[attr-defined]
            if not ok:
                raise IllegalOrder("6 FP must be split among participating infantry within their fatigue limits", "15.2")
        elif order not in legal:
            raise IllegalOrder(f"{order.text()} is not a way to take this result now", "15.2")
        c["points"][side] -= 1
        if order.option == "eliminate":
            self._eliminate(data, data.units[order.unit], events, amphibious=c["amphibious"] and side == c["side"])
        elif order.option == "fatigue":
            for uid, fp in order.detail:
                ch = fat.add_fatigue(data, self.tables, uid, "crt_point", fp=fp, rule="15.2")
                events.append({"type": "fatigue", "unit": uid, "fp": ch.applied, "cause": "crt_point", "rule": "15.2"})
        elif order.option == "all_to_limit":
            for u in parts.values():
                if fat.takes_fatigue(self.tables, u):
                    fat.add_fatigue(data, self.tables, u.id, "crt_point", fp=fat.fatigue_limit(self.tables, u), rule="15.2")
            events.append({"type": "all_to_limit", "side": side, "rule": "15.2"})
        elif order.option == "retreat":
            c["retreat"][side] += 1
        events.append({"type": "take", "side": side, "option": order.option, "unit": order.unit, "rule": "15.2"})

    def _eliminate(self, data: GameState, u: Unit, events: list, amphibious: bool = False) -> None:
        cargo_of = [s for s, c in data.extra["cargo"].items() if c == u.id]
        for s in cargo_of:
            del data.extra["cargo"][s]
        if u.has(ABOARD):
            u.flags.remove(ABOARD)
        data.remove(u.id, "eliminated")
        events.append({"type": "eliminated", "unit": u.id, "rule": "15.2"})
        t = self.t(u)
        if self.is_dummy(u):
            return
        if u.side == GERMANS:
            self.vp(data, ALLIES, 4, f"{u.id} eliminated", "29.0", events)
        elif self.is_land(u):
            self.vp(data, GERMANS, 2 if t.is_tank else 4, f"{u.id} eliminated", "29.0", events)
            if amphibious:
                self.vp(data, GERMANS, 2, f"{u.id} eliminated in an amphibious landing", "29.0 (A36)", events)

    # 15.3 retreats and advances -----------------------------------------------------------

    def _retreat_options(self, data: GameState, uid: str, length: int | None = None) -> list[tuple[str, ...]]:
        c = data.extra["combat"]
        u = data.units[uid]
        side = u.side
        need = c["retreat"][side] if length is None else length
        if u.loc is None:
            return []
        t = self.t(u)
        enemy = other(side)
        enemy_locs = frozenset(self.occupied(data, enemy))
        zoc = enemy_zoc(self.board, data, self.tables, side)
        in_assault = set(c["attackers"]) | set(c["defenders"])
        hosts = frozenset(x.loc for x in data.on_map(side) if x.id not in in_assault and x.loc and not x.has(ABOARD))
        enemy_parts: list[str] = [data.units[i].loc for i in (c["attackers"] if side != c["side"] else c["defenders"])  # type: ignore[misc]
                       if data.units[i].loc is not None and not self.t(data.units[i]).is_artillery]
        if c["amphibious"] and side != c["side"] and c["from"]:
            enemy_parts = [c["from"]]  # 20.3.1: the landing hex shapes the defender's retreat

        def stack_ok(loc: str) -> bool:
            return stacking.stack(self.board, data, self.tables, loc, side, extra=[u], leaving=[u.id]).ok

        out: list[tuple[str, ...]] = []
        for n in range(max(1, need), MAX_RETREAT + 1) if need else []:
            paths = retreat_paths(self.board, self.tables.terrain, data.weather, t.movement_class, u.loc, n,
                                  enemy_locs, zoc, hosts, enemy_parts, t.is_tank, stack_ok, limit=40)
            out += paths
            if length is not None:
                break
        return out

    def _do_retreat(self, data: GameState, order: Order, dice: Dice, events: list) -> None:
        self._expect(order, Retreat)
        assert isinstance(order, Retreat)
        c = data.extra["combat"]
        uid = data.extra["ask"]["unit"]
        if order.unit != uid or tuple(order.path) not in self._retreat_options(data, uid):
            raise IllegalOrder(f"{order.text()} is not a legal retreat path for {uid}", "15.3.1")
        u = data.units[uid]
        dest = order.path[-1]
        data.place(uid, dest)
        n = len(order.path) - 1
        ch = fat.add_fatigue(data, self.tables, uid, "retreat_hex", times=n)
        events.append({"type": "retreat", "unit": uid, "path": list(order.path), "fp": ch.applied, "rule": "15.3"})
        if self.board.is_a(dest, "sweden"):
            self._intern(data, u, events)
        c["retreat_queue"].pop(0)
        data.extra.pop("ask")
        self._check_bases(data, events)
        self._combat_step(data, events)

    def _advance_orders(self, data: GameState, side: str, units: list[str]) -> list[Order]:
        """15.3: none, each unit alone, and the largest group that fits the stacking limit."""
        target = data.extra["combat"]["target"]
        pts = stacking.points_by_location(data, self.tables, side)
        fits = [u for u in units if stacking.room_for(self.board, self.tables, pts, target, stacking.unit_points(self.tables, data.units[u]))]
        out: list[Order] = [Advance(side, ())]
        out += [Advance(side, (u,)) for u in fits]
        group: list[str] = []
        used = 0
        for u in fits:
            p = stacking.unit_points(self.tables, data.units[u])
            if stacking.room_for(self.board, self.tables, pts, target, used + p):
                group.append(u)
                used += p
        if len(group) > 1:
            out.append(Advance(side, tuple(group)))
        return out

    def _do_advance(self, data: GameState, order: Order, dice: Dice, events: list) -> None:
        self._expect(order, Advance)
        assert isinstance(order, Advance)
        ask = data.extra["ask"]
        if any(x not in ask["units"] for x in order.units):
            raise IllegalOrder("only attacking infantry and tanks may advance", "15.3")
        c = data.extra["combat"]
        for uid in order.units:
            u = data.units[uid]
            if not stacking.stack(self.board, data, self.tables, c["target"], u.side, extra=[u]).ok:
                raise IllegalOrder(f"{uid} would overstack {c['target']}", "13.2")
            data.place(uid, c["target"])
            if self.t(u).infantry:
                fat.add_fatigue(data, self.tables, uid, "advance")
            events.append({"type": "advance", "unit": uid, "to": c["target"], "rule": "15.3"})
        data.extra.pop("ask")
        self._end_combat(data, events)

    def _do_target(self, data: GameState, order: Order, dice: Dice, events: list) -> None:
        self._expect(order, ChooseUnits)
        assert isinstance(order, ChooseUnits)
        ask = data.extra.pop("ask")
        if len(order.units) != 1 or order.units[0] not in ask["options"]:
            raise IllegalOrder(f"choose one of {', '.join(ask['options'])}", "16.1.1")
        self._interdict_unit(data, order.units[0], ask["fp"], events)
        data.extra["completed"] = True
        self._after_action(data, ALLIES, True, events, reaction=False)

    # artillery and naval interdiction -------------------------------------------------------

    def _art_interdiction(self, data: GameState, order: ArtilleryInterdiction, dice: Dice, events: list) -> None:
        if not order.artillery or order.target not in self.occupied(data, GERMANS) or not (
            set(order.artillery) <= set(self._interdicting_art(data, order.target))
        ):
            raise IllegalOrder("artillery must be supplied, unfired, and within 2 hexes of the target with no ridge between", "16.1.1")
        strength = sum(self.t(data.units[a]).strength for a in order.artillery)
        for a in order.artillery:
            data.units[a].flags.append("fired")
        self.vp(data, GERMANS, 2 if order.target == self.narvik else 1, f"artillery attack on {order.target}", "29.0", events)
        self._reveal_hex(data, order.target, events)  # A15
        real = [u.id for u in self.land_units_at(data, order.target, GERMANS)]
        fp = strength
        events.append({"type": "art_interdiction", "artillery": list(order.artillery), "hex": order.target, "rule": "16.1.1"})
        if not real:
            return
        if len(real) > 1:
            data.extra["last_action"] = {"side": ALLIES, "attack": True}
            self._ask(data, ALLIES, "target", options=real, fp=fp)
            return
        self._interdict_unit(data, real[0], fp, events)

    def _interdict_unit(self, data: GameState, uid: str, strength: int, events: list) -> None:
        ch = fat.add_fatigue(data, self.tables, uid, "art_interdiction_per_strength", times=strength)
        events.append({"type": "fatigue", "unit": uid, "fp": ch.applied, "cause": "artillery interdiction", "rule": "16.1.1"})

    def _bombard(self, data: GameState, order: Bombard, events: list) -> None:
        s = self._ship(data, order.ship)
        if order.target not in self.occupied(data, GERMANS) or not self._can_bombard(data, s, order.target):
            raise IllegalOrder(f"{order.ship} cannot bombard {order.target} (loaded, fired, out of range or behind a ridge)", "20.5")
        s.flags.append("fired")
        self.vp(data, GERMANS, 2 if order.target == self.narvik else 1, f"naval attack on {order.target}", "29.0", events)
        self._reveal_hex(data, order.target, events)
        strength = self.t(s).bombard
        for u in self.land_units_at(data, order.target, GERMANS):
            ch = fat.add_fatigue(data, self.tables, u.id, "naval_interdiction_per_strength", times=strength)
            events.append({"type": "fatigue", "unit": u.id, "fp": ch.applied, "cause": "naval interdiction", "rule": "20.5"})

    # air ------------------------------------------------------------------------------------

    def _air_drm(self, data: GameState, loc: str) -> int:
        drm = 0
        if "narvik" in data.extra["bad"]:
            drm += self.air.drms["bad_weather_narvik"][0]
        if loc in data.bases:
            drm += self.air.drms["allied_base"][0]
        if data.extra["mas"]:
            drm += self.air.drms["mas"][0]
        return drm

    def _air_strike(self, data: GameState, order: AirStrike, dice: Dice, events: list) -> None:
        ap = data.tracks["ap"]
        if order.mission == "recon":
            if data.tracks.get("recon", 0) <= 0 or ap < 1 or order.hex == HARSTAD:
                raise IllegalOrder("no air recon left this turn (1D6 recon hexes, none in bad weather at Narvik)", "11.3")
            data.tracks["ap"] -= 1
            data.tracks["recon"] -= 1
            for u in data.at(order.hex):
                if u.side == ALLIES and u.concealed:
                    u.concealed = False
            events.append({"type": "recon", "hex": order.hex, "rule": "11.3"})
            return
        if (order.mission, order.hex) not in self._air_targets(data):
            raise IllegalOrder(f"no Allied {order.mission} target at {order.hex} (never Harstad)", "18.1.2, 18.1.3")
        if order.mission not in ("infantry", "ships"):
            raise IllegalOrder(f"unknown air mission {order.mission!r}", "18.1")
        if order.mission == "infantry":
            if not 1 <= order.ap <= ap:
                raise IllegalOrder(f"commit 1 to {ap} AP", "18.1")
            data.tracks["ap"] -= order.ap
            r = dice.roll(2, "air table")
            inf, _ = self.air.result(order.ap, r.total, self._air_drm(data, order.hex))
            events.append({"type": "air_interdiction", "hex": order.hex, "ap": order.ap, "roll": list(r.faces), "infantry": inf, "rule": "18.1.2"})
            for u in data.at(order.hex):
                if u.side == ALLIES and self.t(u).infantry and not u.has(ABOARD):
                    ch = fat.add_fatigue(data, self.tables, u.id, "air_interdiction_per_point", times=inf)
                    events.append({"type": "fatigue", "unit": u.id, "fp": ch.applied, "cause": "air interdiction", "rule": "18.1.2"})
            return
        total = sum(a for _, a in order.allocation)
        ships = {u.id for u in data.at(order.hex) if self.is_ship(u) and u.side == ALLIES}
        if not order.allocation or total > ap or any(s not in ships or a < 1 for s, a in order.allocation):
            raise IllegalOrder(f"allocate 1 to {ap} AP among the ships at {order.hex}", "18.1.3")
        data.tracks["ap"] -= total
        damaged: list[str] = []
        for sid, a in order.allocation:  # declared before any is resolved (18.1.3)
            s = data.units[sid]
            if s.pool is not None:
                continue
            r = dice.roll(2, "air table")
            _, naval = self.air.result(a, r.total, self._air_drm(data, order.hex))
            events.append({"type": "air_ship_attack", "ship": sid, "ap": a, "roll": list(r.faces), "naval": naval, "rule": "18.1.3"})
            if naval == 2 or (naval == 1 and "damaged" in s.flags):
                self._sink(data, s, events)
            elif naval == 1:
                s.flags.append("damaged")
                dmg, _ = SHIP_VP[s.type]
                data.extra["ship_damage_vp"][sid] = dmg
                self.vp(data, GERMANS, dmg, f"{sid} damaged", "29.0", events)
                damaged.append(sid)
        for sid in damaged:  # 20.4: back to Harstad with its cargo, no more movement this turn
            s = data.units[sid]
            if s.pool is None:
                data.place(sid, HARSTAD)
                s.flags.append("no_move")
                cargo = data.extra["cargo"].get(sid)
                if cargo:
                    data.place(cargo, HARSTAD)
                for f in ("base", "crossing"):
                    if f in s.flags:
                        s.flags.remove(f)

    def _sink(self, data: GameState, s: Unit, events: list) -> None:
        _, sunk = SHIP_VP[s.type]
        already = data.extra["ship_damage_vp"].pop(s.id, 0)
        self.vp(data, GERMANS, sunk - already, f"{s.id} sunk", "29.0, 20.4", events)
        cargo = data.extra["cargo"].pop(s.id, None)
        s.flags = []
        data.remove(s.id, "eliminated")  # 23.1: replaced at Harstad next turn
        events.append({"type": "sunk", "ship": s.id, "rule": "18.1.3"})
        if cargo:
            self._eliminate(data, data.units[cargo], events)

    # naval ----------------------------------------------------------------------------------

    def _ship(self, data: GameState, sid: str) -> Unit:
        s = data.units.get(sid)
        if s is None or not self.is_ship(s) or s.loc is None:
            raise IllegalOrder(f"{sid} is not an Allied ship in play", "20.0")
        return s

    def _naval_move(self, data: GameState, order: NavalMove, events: list) -> None:
        ships = [self._ship(data, s) for s in order.ships]
        if not ships or len({s.loc for s in ships}) != 1:
            raise IllegalOrder("a naval group moves from one hex", "20.1")
        start = ships[0].loc
        if any("no_move" in s.flags for s in ships):
            raise IllegalOrder("a damaged ship moves no more this turn", "20.4")
        dests = naval_destinations(self.board, start)  # type: ignore[arg-type]
        if order.path[:1] != (start,) or order.path[-1] not in dests or not naval_path_ok(self.board, order.path):
            raise IllegalOrder(f"{'>'.join(order.path)} is not a naval move along waterways (once through Harstad)", "20.1")
        dest = order.path[-1]
        for s in ships:
            data.place(s.id, dest)
            for f in ("base", "crossing"):
                if f in s.flags:
                    s.flags.remove(f)
            cargo = data.extra["cargo"].get(s.id)
            if cargo:
                data.place(cargo, dest)
        events.append({"type": "naval_move", "ships": list(order.ships), "path": list(order.path), "rule": "20.1"})

    def _embark(self, data: GameState, order: Embark, events: list) -> None:
        s = self._ship(data, order.ship)
        u = data.units.get(order.unit)
        if u is None or u.loc != s.loc or u.side != ALLIES or not self.is_land(u) or u.has(ABOARD):
            raise IllegalOrder(f"{order.unit} is not an Allied land unit in {s.loc}", "20.2")
        if data.extra["cargo"].get(s.id) or not self.t(s).transport or not self._can_carry(s, u):
            raise IllegalOrder(f"{s.id} cannot carry {u.id}", "20.2")
        if s.loc != HARSTAD and not self.board.is_a(s.loc, "port"):
            raise IllegalOrder(f"embark only in a friendly port or Harstad, not {s.loc}", "20.2")
        data.extra["cargo"][s.id] = u.id
        u.flags.append(ABOARD)
        events.append({"type": "embark", "ship": s.id, "unit": u.id, "rule": "20.2"})

    def _disembark(self, data: GameState, order: Disembark, events: list) -> None:
        s = self._ship(data, order.ship)
        cargo = data.extra["cargo"].get(s.id)
        if cargo is None:
            raise IllegalOrder(f"{s.id} carries nothing", "20.2")
        if s.loc != HARSTAD:
            others = [x for x in self.land_units_at(data, s.loc, ALLIES, real=False) if x.id != cargo]  # type: ignore[arg-type]
            if not self.board.is_a(s.loc, "port") or not others:
                raise IllegalOrder("disembark in a port already holding another friendly unit, or land amphibiously", "20.2")
            u = data.units[cargo]
            if not stacking.stack(self.board, data, self.tables, s.loc, ALLIES, extra=[u], leaving=[cargo]).ok:  # type: ignore[arg-type]
                raise IllegalOrder(f"{cargo} would overstack {s.loc}", "13.2")
        del data.extra["cargo"][s.id]
        data.units[cargo].flags.remove(ABOARD)
        events.append({"type": "disembark", "ship": s.id, "unit": cargo, "at": s.loc, "rule": "20.2"})

    def _landing(self, data: GameState, order: Landing, dice: Dice, events: list) -> None:
        ships = [self._ship(data, s) for s in order.ships]
        x = data.extra
        if not ships or any(x["cargo"].get(s.id) is None for s in ships) or len({s.loc for s in ships}) != 1:
            raise IllegalOrder("a landing needs loaded ships together in one hex", "20.3")
        at = ships[0].loc
        target = order.target
        force = [data.units[x["cargo"][s.id]] for s in ships]
        if self.land_units_at(data, target, GERMANS, real=False):
            if target not in self.board.neighbours(at) or not self._contested_target(data, target):
                raise IllegalOrder(f"an amphibious assault on {target} comes from an adjacent hex, at a port or beach", "20.3.1")
            pts = sum(stacking.unit_points(self.tables, u) for u in force if not self.t(u).is_artillery)
            if pts > self.tables.stacking.limit:  # type: ignore[union-attr]
                raise IllegalOrder("the landing force may not exceed what may stack in the hex", "20.3.1")
            bad = [b for b in order.bombard if b not in self._support_ships(data, target)]
            if bad:
                raise IllegalOrder(f"cannot bombard {target}: {', '.join(bad)}", "20.5")
            if any(self.t(u).is_artillery for u in force):
                raise IllegalOrder("no artillery may join a contested landing", "20.3.1")
            for u in force:
                u.flags.append(AMPHIBIOUS)
            self._combat(data, dice, events, ALLIES, target, [u.id for u in force], [], list(order.bombard), 0,
                         amphibious=True, from_hex=at, landing_ships=tuple(order.ships))
            return
        if at != target or not self._landing_ok(data, target):
            raise IllegalOrder("land in the ships' own hex, at a non-friendly port or a beach", "20.3")
        if not stacking.stack(self.board, data, self.tables, target, ALLIES, extra=force, leaving=[u.id for u in force]).ok:
            raise IllegalOrder(f"the landing force would overstack {target}", "13.2")
        self._land_units(data, tuple(order.ships), target, events, contested=False)

    def _land_units(self, data: GameState, ship_ids: tuple[str, ...], target: str, events: list, contested: bool) -> None:
        x = data.extra
        for sid in ship_ids:
            cargo = x["cargo"].pop(sid, None)
            if cargo is None or data.units[cargo].pool is not None:
                continue
            u = data.units[cargo]
            u.flags.remove(ABOARD)
            if AMPHIBIOUS in u.flags:
                u.flags.remove(AMPHIBIOUS)
            data.place(cargo, target)
            x["landed"].append(cargo)  # 19.2: no supply penalty for the rest of the turn
            if not contested:
                fat.add_fatigue(data, self.tables, cargo, "amphibious_landing")
            events.append({"type": "landed", "unit": cargo, "at": target, "contested": contested, "rule": "20.3"})
        self._check_bases(data, events)

    def _ship_function(self, data: GameState, order: ShipFunction, events: list) -> None:
        s = self._ship(data, order.ship)
        if not self._function_ok(s, order.function):
            raise IllegalOrder(f"{order.ship} cannot act as {order.function} here", "20.6")
        s.flags.append(order.function)
        events.append({"type": "ship_function", "ship": s.id, "function": order.function, "rule": "20.6"})


def narvik_game(switches: Switches = Switches()) -> NarvikGame:
    """Return Assault on Narvik on the bundled scenario."""
    return NarvikGame.from_scenario("narvik/scenario", switches=switches)
