"""Issue 71: every query's answer is what the game does when the order is tried.

Over positions from seeded random games of every game with queries (Assault on Narvik, the
skirmish fixture, Konflikt '47's scenarios) and of the Europa variant's attacks:

- **reach (14.0):** every destination ``hexwar reach`` lists is a move the game carries out
  at the unit's side's decision, spending the MP the answer says; every place it refuses,
  the game refuses; and every move the game carries out, to any place the movement chart
  reaches or next door, is listed.
- **odds (15.1, E1):** the chance of each result equals the share of the dice that give it
  when the game fights the order itself, every CRT die (and every air-support roll, 18.1.1;
  every turn-1 retreat roll, E1), read here with the game's own dice purposes.
- **supply (19.2):** a defender the supply query says takes the +6 FP when attacked takes it
  in the fight.

The checks here apply the orders with the engine's ``apply`` directly (not through the
queries' helpers), so a query that computed a rule beside the game would part from it.
"""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product

import pytest

from hexwar.ai.random_bot import RandomBot
from hexwar.core.dice import Dice, Roll
from hexwar.core.orders import IllegalOrder, Move
from hexwar import registry
from hexwar.games.common import queries
from hexwar.registry import Position
from hexwar.rules.movement import reach as chart_reach

#: (game, scenario, board): the games whose queries read positions; Konflikt's six scenarios
LAND = [("narvik", "scenario", "narvik"), ("skirmish", "fixtures/skirmish", "fixtures/skirmish")] + [
    ("konflikt", s, "table") for s in ("envelopment", "maximum_attrition", "point_defence", "hold_until_relieved",
                                       "top_secret", "demolition")]


class _Faces(Dice):
    """Dice giving set faces for the purposes named (the CRT's die 15.1, air support 18.1.1,
    the turn-1 retreat E1), and seeded draws for anything else (what follows the fight)."""

    def __init__(self, faces: dict[str, tuple[int, ...]], seed: int = 0):
        super().__init__(seed)
        self.faces = faces

    def roll(self, n: int = 1, purpose: str = "") -> Roll:
        if purpose in self.faces:
            r = Roll(purpose, self.faces[purpose])
            self.rolls.append(r)
            return r
        return super().roll(n, purpose)


def positions(name: str, scenario: str, board: str, seeds=(1, 2), every: int = 9, most: int = 4):
    """Positions from seeded games: the state every ``every`` orders, ``most`` a game. The
    odd seeds are played by the game's priority bots (which seek the fights a random
    player seldom gives: random Assault on Narvik ends in about 40 orders without one), the
    even ones by random bots."""
    info = registry.get(name)
    g = info.build(scenario, board, ())
    out = []
    for seed in seeds:
        s = g.new_state(seed)
        if seed % 2 and "priority" in info.bots:
            bots = {side: info.bots["priority"].make(side, seed, 0) for side in info.sides}
        else:
            bots = {side: RandomBot(seed + i) for i, side in enumerate(info.sides)}
        n = 0
        while not s.is_over() and len([p for p in out if p[1] == seed]) < most and n < 600:
            if n and n % every == 0 and getattr(s.data, "turn", 1) >= 1:
                out.append((s.data.clone(), seed))
            s.apply(bots[s.current_side()].choose(s, s.legal_orders()))
            n += 1
    return g, [d for d, _ in out]


def _moved_mp(events, uid):
    return next(Fraction(str(e["mp"])) for e in events if e.get("type") == "move" and e.get("unit") == uid)


def _units(g, d, rng, k=3):
    land = [u for u in d.on_map() if g.tables.types[u.type].kind != "ship" and not g.board.is_a(u.loc, "box")]
    return rng.sample(sorted(land, key=lambda u: u.id), min(k, len(land)))


@pytest.mark.parametrize("name,scenario,board", LAND, ids=[f"{n}-{s.split('/')[-1]}" for n, s, _ in LAND])
def test_14_0_reach_lists_exactly_the_moves_the_game_carries_out(name, scenario, board):
    g, states = positions(name, scenario, board)
    assert states
    rng = random.Random(71)
    checked = refused_seen = 0
    for d in states:
        for u in _units(g, d, rng):
            pos = Position(g, d, None, "a random game")
            ans = queries.reach(pos, u.id)
            work = g.acting(d, u.side)
            listed = {r["to"]: r for r in ans.data["reach"]}
            for dest, row in listed.items():  # every destination listed is carried out, at the MP said
                events = g.apply(work.clone(), Move(u.side, u.id, tuple(row["path"])), _Faces({}))
                spent = _moved_mp(events, u.id)
                if not row["minimum_move"]:
                    assert ans.data["mp"] - spent == row["mp_left"], (name, u.id, dest)
                checked += 1
            for row in ans.data["refused"]:  # every place refused, the game refuses
                with pytest.raises(IllegalOrder):
                    g.apply(work.clone(), Move(u.side, u.id, tuple(row["path"])), _Faces({}))
                refused_seen += 1
            wu = work.units[u.id]
            chart = chart_reach(g.board, g.tables.terrain, work.weather, g.tables.types[wu.type].movement_class, wu.loc,
                                g.query(work, wu))
            tries = {h: tuple(chart.path(h)) for h in chart.destinations()}
            tries.update({h: (wu.loc, h) for h in g.board.neighbours(wu.loc) if h not in tries})
            for dest, path in tries.items():  # every move the game carries out is listed
                try:
                    g.apply(work.clone(), Move(u.side, u.id, path), _Faces({}))
                except IllegalOrder:
                    continue
                assert dest in listed, f"{name}: the game moves {u.id} to {dest}, reach does not list it"
    assert checked > 0


def _fight_odds(g, d, order):
    """The order fought by the game for every die, read here: each result's share."""
    rolls = [{}]
    if getattr(order, "ap", 0):
        rolls = [{"air support": ab} for ab in product(range(1, 7), repeat=2)]
    if g.spec.name == "campaign" and d.turn == 1:  # E1: a turn-1 retreat before combat may be rolled first
        rolls = [{"retreat before combat": (r,)} for r in range(1, 7)]
    odds: dict[str, Fraction] = {}
    work = g.acting(d, order.side)
    for extra in rolls:
        for die in range(1, 7):
            events = g.apply(work.clone(), order, _Faces({**extra, "CRT": (die,)}, seed=die))
            ev = [e for e in events if e.get("type") in ("assault", "attack") and e.get("target") == order.target]
            if not events:  # the defender decides first (E1's retreat before combat after turn 1)
                return None, events
            result = ev[0]["result"] if ev else "no fight"  # only dummies (11.2), or a retreat before combat (E1)
            odds[result] = odds.get(result, Fraction(0)) + Fraction(1, 6 * len(rolls))
    return odds, events


def _said(outcomes):
    """A query's outcomes, with the words after "no fight" dropped (what the game told)."""
    out: dict[str, Fraction] = {}
    for r, p in outcomes:
        key = "no fight" if r.startswith("no fight") else r
        out[key] = out.get(key, Fraction(0)) + Fraction(p)
    return out


#: the odds' games: Konflikt '47's scenarios together (a scenario's games may hold no assault)
FIGHTING = [("narvik", ("scenario",), "narvik"), ("skirmish", ("fixtures/skirmish",), "fixtures/skirmish"),
            ("konflikt", tuple(s for n, s, _ in LAND if n == "konflikt"), "table")]


@pytest.mark.parametrize("name,scenarios,board", FIGHTING, ids=[n for n, _, _ in FIGHTING])
def test_15_1_odds_are_the_games_own_fight_over_every_die(name, scenarios, board):
    rng = random.Random(15)
    fought = 0
    for scenario in scenarios:
        g, states = positions(name, scenario, board, seeds=(1, 2, 3), every=11, most=6)
        fought += _fights_agree(name, g, states, rng)
    assert fought >= {"narvik": 6, "skirmish": 1, "konflikt": 4}[name], fought


def _fights_agree(name, g, states, rng):
    """Each of a sample of the assaults the game lists at each position: the query's odds are
    the game's fight over every die, and its supply penalty the fight's (19.2)."""
    fought = 0
    for d in states:
        for side in g.spec.sides:
            work = g.acting(d, side)
            listed = [o for o in g.legal_orders(work) if o.kind in ("land_assault", "assault")]
            assaults = [o for o in listed if not getattr(o, "ap", 0)]
            with_ap = [o for o in listed if getattr(o, "ap", 0)]
            for order in rng.sample(assaults, min(2, len(assaults))) + with_ap[:1]:
                support = tuple(getattr(order, "artillery", ())) + tuple(getattr(order, "ships", ()))
                ans = queries.assault_odds(Position(g, d, None, "a random game"), order.target, list(order.units),
                                           support, getattr(order, "ap", 0))
                mine, _ = _fight_odds(g, d, order)
                said = _said((o["result"], o["p"]) for o in ans["outcomes"])
                assert said == mine, (name, order.text())
                assert sum(said.values()) == 1
                fought += 1
                # 19.2: the supply query says which defenders take +6 FP first; the fight agrees
                if g.spec.supply_side is not None:
                    events = g.apply(work.clone(), order, _Faces({"CRT": (1,), "air support": (1, 1)}))
                    hit = {e["unit"] for e in events if e.get("type") == "fatigue" and e.get("cause") == "unsupplied_attacked"}
                    for u in d.at(order.target):
                        if u.side != side and g.tables.types[u.type].kind != "ship":
                            assert g.supply_answer(d, u).penalised == (u.id in hit), (name, u.id)
    return fought


def test_e1_europa_attack_odds_are_the_games_own_fight_over_every_die():
    from hexwar.games.europa import _attack_odds
    from hexwar.games.europa.orders import Attack

    g, states = positions("europa", "campaign", "europa", seeds=(3,), every=5, most=12)
    rng = random.Random(5)
    fought = 0
    for d in states:
        for side in registry.get("europa").sides:
            attacks = [o for o in g.legal_orders(g.acting(d, side)) if isinstance(o, Attack)]
            for order in rng.sample(attacks, min(2, len(attacks))):
                mine, events = _fight_odds(g, d, order)
                if mine is None:  # E1: the Norwegians choose first whether to retreat before combat
                    with pytest.raises(ValueError, match="decide"):
                        _attack_odds(Position(g, d, None, "a random game"), order.target, ",".join(order.units))
                    continue
                ans = _attack_odds(Position(g, d, None, "a random game"), order.target, ",".join(order.units))
                assert _said(ans.data["odds"].items()) == mine, order.text()
                fought += 1
    assert fought > 0


def test_4_2_kampen_odds_count_the_dice_the_combat_phase_rolls():
    """``hexwar odds kampen`` (and the analysis board's figure) lays the named cards and counts
    the dice with the combat phase's own functions (``lay_card``, ``pool``): at every combat
    of seeded games, the cards as played there give the dice the game rolls (the chance of
    each total is then ``rules.dicecombat.outcomes``, the same for both)."""
    from hexwar.games.kampen.odds import combat_odds
    from hexwar.games.kampen.phases.combat import dice_pool

    info = registry.get("kampen")
    seen = 0
    for scenario, seed in (("basic", 1), ("basic", 2), ("intro-narvik", 3)):
        g = info.build(scenario, info.default_board, ())
        s = g.new_state(seed)
        bots = {side: info.bots["priority"].make(side, seed, 0) for side in info.sides}
        while not s.is_over() and len(s.log) < 400:
            d = s.data
            c = d.combat
            if c is not None and c.cards:
                def named(p):
                    cp = g.copies[p.copy]
                    return f"{cp.card}@{p.slot}" + (f"={cp.dice}" if cp.dice is not None else "")
                mine = [named(p) for p in c.cards if p.owner == c.att]
                theirs = [named(p) for p in c.cards if p.owner != c.att]
                r = combat_odds(g, 0, sum(c.dn.values()), attack_cards=mine, defend_cards=theirs,
                                groups=[(grp.n, grp.crossing) for grp in c.groups])
                a, dd, _ = dice_pool(g, d, explain=False)
                assert (r["attacker_dice"], r["defender_dice"]) == (a, dd), (mine, theirs)
                seen += 1
            s.apply(bots[s.current_side()].choose(s, s.legal_orders()))
    assert seen >= 3
