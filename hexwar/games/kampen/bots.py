"""Rule-based bots for Kampen om Norge, one per faction (Germany, Norway, the Allies).

They read only what a player at the table sees: the battalions on the board, their own hand
and the cards already played; never another faction's hand or the order of a deck. Each
order is scored with rules of thumb built on the exact win chance of a dice-pool fight
(:func:`win_chance`), and the best is played (ties broken by the seeded RNG).
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import AbstractSet, Any, Sequence

import numpy as np


import hexwar.games.kampen.ships as S
from hexwar.core.orders import Order, Pass
from hexwar.games.kampen.game import KampenGame
from hexwar.games.kampen.orders import (
    AddShip,
    Cash,
    Chase,
    Choose,
    Discard,
    Fight,
    Intercept,
    KMove,
    Land,
    Losses,
    PlaceBn,
    PlaceShip,
    PlayCard,
    Raid,
    Recall,
    RecallRaiders,
    RemoveShip,
    Sail,
    Split,
    Withdraw,
)
from hexwar.games.kampen.state import (
    ALLIES,
    COALITION,
    GERMANS,
    NORWAY,
    KampenData,
    enemies,
)
from hexwar.rules.dicecombat import battalion_dice, group_dice, sum_dice


@lru_cache(maxsize=None)
def _totals(n: int) -> np.ndarray:
    p = np.array([1.0])
    die = np.array([0.0] + [1 / 6] * 6)
    for _ in range(n):
        p = np.convolve(p, die)
    return p


@lru_cache(maxsize=None)
def win_chance(att_dice: int, def_dice: int) -> float:
    """P(the attacker's total beats the defender's; ties go to the defender), as a float.

    >>> round(win_chance(1, 1), 4)   # 15/36
    0.4167
    """
    a, d = _totals(att_dice), _totals(def_dice)
    below = np.concatenate([[0.0], np.cumsum(d)])  # below[t] = P(D < t)
    return float(sum(a[t] * below[min(t, len(d))] for t in range(len(a))))


class KampenBot:
    """Priority bot for one faction of Kampen om Norge."""

    name = "priority"
    reads_by_kind = False  # it reads the whole list, never a menu by kind
    reads_menu = False
    thinks = False  # it answers at once: no progress to report
    progress = None

    def __init__(self, faction: str, seed: int | None = None):
        self.faction = faction
        self.rng = random.Random(seed)
        self._memo: dict[Any, Any] = {}
        self._objective_set: tuple[KampenGame, frozenset[str]] | None = None

    def __getstate__(self) -> dict[str, Any]:
        """A copy for a search helper (``hexwar.ai.helpers``): the bot's memory, not its
        caches (one holds the whole game), which it rebuilds on use."""
        return {**self.__dict__, "_memo": {}, "_objective_set": None}

    def choose(self, state: Any, legal: Sequence[Order]) -> Order:
        if len(legal) == 1:
            return legal[0]
        scored = self.scores(state, legal)
        bar = max(scored)[0] - 1e-9  # the (score, index) pairs' largest holds the top score
        best = [legal[i] for s, i in scored if s >= bar]
        return best[self.rng.randrange(len(best))]

    def ranked(self, state: Any, legal: Sequence[Order]) -> list[Order]:
        """The legal orders best first, by the scores ``choose`` plays by (the splits of a
        group it does not weigh last); ties in list order."""
        scored = self.scores(state, legal)
        weighed = {i for _, i in scored}
        order = sorted(scored, key=lambda si: (-si[0], si[1]))
        return [legal[i] for _, i in order] + [o for i, o in enumerate(legal) if i not in weighed]

    def scores(self, state: Any, legal: Sequence[Order]) -> list[tuple[float, int]]:
        """(score, index) of each legal order the bot weighs, in list order."""
        data = getattr(state, "data", state)
        g: KampenGame = state.game if hasattr(state, "game") else self.game  # type: ignore[attr-defined]
        x = data
        self._memo = {}  # per decision: odds and card dice do not change while scoring
        mine, fresh = x.bn[self.faction], x.fresh[self.faction]
        cities = self.holds_cities(g)
        plan = self.plan(g, x) if cities else None
        objs = self._memo["objs"] = self.objective_set(g)
        # a land move or a card (most of a list) is scored without score()'s dispatch when
        # neither the fleet nor the German plan has a say in it
        direct = not g.fleet and not cities
        kmove, card = self.kmove_score, self.card_score
        score = self.score
        scored: list[tuple[float, int]] = []
        add = scored.append
        orders: Sequence[Any] = legal  # read by type, without a cast per order
        i = -1
        for o in orders:
            i += 1
            t = type(o)
            if t is KMove:
                # a group moves whole, as a single battalion or (a German garrison) its surplus:
                # the bot does not weigh every split
                n = o.n
                if 1 < n and n < mine.get(o.src, 0) - fresh.get(o.src, 0) \
                        and not (plan is not None and n == plan.surplus(x, o.src)):
                    continue
                if direct:
                    add((kmove(g, x, o, objs), i))
                    continue
            elif t is PlayCard and direct:
                add((card(g, x, o, objs), i))
                continue
            add((score(g, x, o), i))
        if not scored:  # every legal order splits a group (a search's rollout met such a list): weigh them after all
            scored = [(score(g, x, o), i) for i, o in enumerate(orders)]
        return scored

    def __call__(self, state: Any, legal: Sequence[Order]) -> Order:  # a def: mypyc compiles no alias
        return self.choose(state, legal)

    # --- helpers ---------------------------------------------------------------------

    def objectives(self, g: KampenGame) -> list[str]:
        return g.objectives()

    def objective_set(self, g: KampenGame) -> frozenset[str]:
        """``objectives`` as a set, once a game (a scenario's objectives do not change)."""
        kept = self._objective_set
        if kept is None or kept[0] is not g:
            kept = self._objective_set = (g, frozenset(self.objectives(g)))
        return kept[1]

    def dist_to_goal(self, g: KampenGame, x: KampenData, a: str) -> int:
        """Areas to the nearest objective, at most 20 (a table built once per board)."""
        table = g.caches.goal_dist
        if table is None:
            steps, objs = g.steps(), g.objectives()  # the board's area-to-area steps (4.1)
            # capped at 20 (far is far; the scores were tuned with the cap)
            table = g.caches.goal_dist = {a: min([20] + [steps[a][o] for o in objs if o in steps[a]]) for a in g.land}
        return table[a]

    def holds_objectives(self, x: KampenData, objs: AbstractSet[str]) -> bool:
        mine = (GERMANS,) if self.faction == GERMANS else COALITION
        return any(x.bn[k].get(a, 0) for a in objs for k in mine) and self.faction == GERMANS

    def card_dice(self, g: KampenGame, x: KampenData, slot: str) -> int:
        """Dice the faction could add from its hand at a combat step (one card per type)."""
        key = ("dice", slot)
        if key in self._memo:
            dice: int = self._memo[key]
            return dice
        self._memo[key] = n = self._card_dice(g, x, slot)
        return n

    def _card_dice(self, g: KampenGame, x: KampenData, slot: str) -> int:
        seen, n = set(), 0
        for c, u in g.hand_uses(x, self.faction, slot):
            if u.dice and c.type not in seen:
                seen.add(c.type)
                n += c.dice_for(u)
        return n

    def attack_chance(self, g: KampenGame, x: KampenData, target: str, extra: int, crossing: bool) -> float:
        """The chance that ``extra`` more battalions (across a fjord or lake if ``crossing``)
        joining the attacks already on ``target`` win its fight (4.2), with the faction's
        best attack cards and a card for the defender."""
        key = ("target", target)  # the target's side of the sum, once a decision
        t = self._memo.get(key)
        if t is None:
            t = self._memo[key] = self._target(g, x, target)
        whole, halved, cards, d = t
        if crossing:
            halved += extra
        else:
            whole += extra
        return win_chance(sum_dice(whole, halved) + cards, d)

    def _target(self, g: KampenGame, x: KampenData, target: str) -> tuple[int, int, int, int]:
        """(unhalved and halved battalions already attacking ``target``, the faction's attack
        card dice, the defender's dice with a card): what :meth:`attack_chance` adds a group to."""
        whole = halved = 0
        for gr in x.attacks.get(target, ()):
            if gr.crossing:
                halved += gr.n
            else:
                whole += gr.n
        bn = x.bn
        dn = 0
        for e in enemies(self.faction):
            dn += bn[e].get(target, 0)
        d = group_dice(dn, False) + 1  # the defender may hold a card
        return whole, halved, self.card_dice(g, x, "attack"), d

    def holds_cities(self, g: KampenGame) -> bool:
        """Germany in the point-city games (1.3): it must hold all six cities at the end."""
        return self.faction == GERMANS and not isinstance(g.spec.victory, dict)

    def plan(self, g: KampenGame, x: KampenData) -> "GermanPlan":
        p = self._memo.get("plan")
        if p is None:
            p = self._memo["plan"] = GermanPlan(g, x)
        return p

    # --- scoring ------------------------------------------------------------------------

    def score(self, g: KampenGame, x: KampenData, o: Order) -> float:
        f = self.faction
        objs = self._memo.get("objs")
        if objs is None:
            objs = self._memo["objs"] = self.objective_set(g)
        if g.fleet:
            v = self.sea_score(g, x, o)
            if v is not None:
                return v
        if self.holds_cities(g):
            v = self.german_score(g, x, o, self.plan(g, x))
            if v is not None:
                return v
        if isinstance(o, KMove):
            return self.kmove_score(g, x, o, objs)
        if isinstance(o, PlayCard):
            return self.card_score(g, x, o, objs)
        if isinstance(o, Fight):
            groups = [(gr.n, gr.crossing) for gr in x.attacks[o.area]]
            return battalion_dice(groups)
        if isinstance(o, Split):  # lose from the faction with more battalions there
            fight = x.combat
            assert fight is not None
            return -abs((fight.dn.get(NORWAY, 0) - o.norwegians) - (fight.dn.get(ALLIES, 0) - o.allies))
        if isinstance(o, Losses):  # 4.2 step 6: keep the battalions that fall back onto objectives
            fight = x.combat
            assert fight is not None
            return sum(k * (0.5 if grp.sea_air else -1.0 if grp.src in objs else 0.0)
                       for (_src, k), grp in zip(o.groups, fight.groups))
        if isinstance(o, Recall):  # 2.4: recall from the largest stacks away from the objectives
            return 0.1 * x.bn[ALLIES].get(o.area, 0) - (2.0 if o.area in objs else 0.0)
        if isinstance(o, Withdraw):
            friends = sum(x.bn[k].get(o.area, 0) for k in ((GERMANS,) if f == GERMANS else COALITION))
            return friends + (2.0 if o.area in objs else 0.0) - 0.2 * self.dist_to_goal(g, x, o.area)
        if isinstance(o, Cash):
            c = g.copies[o.copy]
            return 1.0 if not c.uses else -0.5  # cash the cards that only buy battalions
        if isinstance(o, PlaceBn):
            threat = sum(x.bn[e].get(n, 0) for n in g.nbrs[o.area] for e in enemies(f))
            return (2.0 if o.area in objs else 0.0) + 0.5 * threat - 0.1 * self.dist_to_goal(g, x, o.area)
        if isinstance(o, Discard):
            c = g.copies[o.copy]
            return -sum(u.dice for u in c.uses) - len(c.uses)
        if isinstance(o, Pass):
            return 0.0
        return 0.0

    def kmove_score(self, g: KampenGame, x: KampenData, o: KMove, objs: AbstractSet[str]) -> float:
        """A land move (4.1): an attack by its odds (4.2) and what the area is worth, or a
        march by how much nearer the objectives it comes."""
        f = self.faction
        memo = self._memo
        foes = memo.get("foes")  # the areas the enemy holds, once a decision
        if foes is None:
            foes = memo["foes"] = g.hostile_areas(x, f)
        src, dst, n = o.src, o.dst, o.n
        leaving_empty = src in objs and x.bn[f].get(src, 0) - n <= 0
        if dst in foes:
            p = self.attack_chance(g, x, dst, n, (src, dst) in g.water)
            value = 3.0 if dst in objs else 1.0
            # the holder of the objectives attacks only at good odds; the side that must
            # take them (and races a deck) accepts worse ones against an objective
            held = memo.get("held")
            if held is None:
                held = memo["held"] = self.holds_objectives(x, objs)
            bar = 0.7 if held else (0.45 if dst in objs else 0.6)
            return (p - bar) * 4 * value + 0.1 * n - (5.0 if leaving_empty and f == GERMANS else 0.0)
        table = g.caches.goal_dist or {a: self.dist_to_goal(g, x, a) for a in g.land}
        gain = table[src] - table[dst]
        if f == GERMANS and src in objs:
            return -1.0  # hold what you have
        return 0.3 * gain - (1.5 if leaving_empty else 0.0) - 0.05 * n + (0.5 if dst in objs else 0.0)

    def card_score(self, g: KampenGame, x: KampenData, o: PlayCard, objs: AbstractSet[str]) -> float:
        f = self.faction
        c = x.combat
        if o.slot in ("attack", "defend", "react"):
            assert c is not None
            # a card matters when the fight is close; a fight for an objective matters more
            stake = 2.0 if c.area in objs else 1.0
            p = self._memo.get("fight")  # the combat's odds, once a decision
            if p is None:
                a, d, _ = g.combat_dice(x, explain=False)
                p = self._memo["fight"] = win_chance(a, d)
            close = 1.0 - abs(p - 0.5) * 1.6
            cost = 0.35 if f == ALLIES and g.spec.end == "allied_deck" else 0.15  # S1: Allied cards are the clock
            score: float = stake * close - cost
            return score
        if o.slot == "sabotage":
            groups = x.attacks.get(o.target, [])
            n = sum(gr.n for gr in groups if gr.src == o.src)
            return 0.5 + 0.3 * n + (1.0 if o.target in objs else 0.0)
        if o.slot == "escape":
            dn = x.bn[NORWAY].get(o.src, 0)
            a = battalion_dice([(gr.n, gr.crossing) for gr in x.attacks.get(o.src, [])])
            return (0.6 - (1 - win_chance(a, dn + 1))) * 3 - (2.0 if o.src in objs else 0.0)
        if o.slot == "divert":  # send the paratroopers away from the objectives, not onto friends
            friends = sum(x.bn[k].get(o.target, 0) for k in COALITION)
            return 0.5 + 0.2 * self.dist_to_goal(g, x, o.target) - (1.5 if friends else 0.0)
        if o.slot in ("counter", "evacuate", "submarine"):
            return 1.0
        if o.slot == "move":
            if o.src and f == GERMANS and o.src in objs and x.bn[f].get(o.src, 0) - o.n <= 0:
                return -5.0  # never leave an objective empty
            if o.path:
                dst = o.path[-1]
                if g.hostile(x, f, dst):
                    return (self.attack_chance(g, x, dst, o.n, False) - 0.55) * 4 * (3.0 if dst in objs else 1.0)
                return 0.3 * (self.dist_to_goal(g, x, o.src) - self.dist_to_goal(g, x, dst)) - 0.4
            if o.target:
                if g.hostile(x, f, o.target):
                    return (self.attack_chance(g, x, o.target, max(o.n, 1), False) - 0.5) * 4 * (2.0 if o.target in objs else 1.0)
                return 0.2 - 0.1 * self.dist_to_goal(g, x, o.target)
        if o.slot == "reinforce":
            return 0.5
        return -0.5


    #: 7.0: the 9 April cards each faction keeps first (the authored effects, best first)
    KEEP = {GERMANS: ("fallskjermtropp", "bloff_trusler", "bombefly", "gebirgsjager", "transportfly", "evakuerte_matroser",
                      "roykdekke", "villedende_manover"),
            NORWAY: ("kystfort", "jagerfly_no", "ubat", "omdisponering"),
            ALLIES: ("forsterkninger_al", "minelegging", "stupbombefly", "skip_til_unnsetning", "ubat", "rekognoseringsfly")}
    #: 7.0: where Germany sends its ships: the coasts of the point cities (Weserubung's groups)
    LANDING_SEAS = {"I": 3, "II": 2, "III": 2, "IV": 2, "V": 2, "VII": 3}

    def ships_at(self, x: KampenData, owner: str, at: str) -> int:
        """How many of ``owner``'s ships (face down ones among them) are at ``at``: counted
        once a decision (``scores`` begins a decision's memo)."""
        counts = self._memo.get("ships at")
        if counts is None:
            counts = {}
            for s in x.ships:
                counts[(s.owner, s.at)] = counts.get((s.owner, s.at), 0) + 1
            self._memo["ships at"] = counts
        n: int = counts.get((owner, at), 0)
        return n

    def sea_score(self, g: KampenGame, x: KampenData, o: Order) -> float | None:
        """The advanced game's decisions (rules 5-8): keep the useful 9 April cards, spread
        the German ships over the invasion coasts and land everywhere (point cities first),
        the Allies hunt German ships and intercept whenever they can, every fight card is
        played, raids are for battleships."""
        f = self.faction
        if isinstance(o, Choose):
            keep = self.KEEP.get(f, ())
            return -keep.index(o.card) if o.card in keep else -10.0
        if isinstance(o, PlaceShip):
            c = g.fleet[o.ship]
            mine = self.ships_at(x, f, o.sea)
            if f == GERMANS:
                if c.dummy:
                    return -mine + (1.0 if o.sea in ("VIII", "VI") else 0.0)
                return self.LANDING_SEAS.get(o.sea, 0) - mine + (0.5 if c.type == "battleship" and o.sea == "VII" else 0.0)
            if f == NORWAY:
                return 2.0 if o.sea == g.seas[0] else 0.0  # the Oslofjord, guarding the capital
            de = self.ships_at(x, GERMANS, o.sea)
            return de - 0.7 * mine + (0.3 if o.sea != "VIII" else 0.0)
        if isinstance(o, Sail):
            dst = o.path[-1]
            de = self.ships_at(x, GERMANS, dst)
            al = self.ships_at(x, ALLIES, dst)
            if f == GERMANS:
                return 0.5 * (al == 0) - 0.8 * al - 0.3
            return 0.6 * de - 0.3 * al - 0.3 - (0.5 if dst == "VIII" else 0.0)
        if isinstance(o, Intercept):
            assert x.sea_move is not None
            mine = len(S.at_sea(x, o.sea, S.side(f)))
            theirs = len(S.at_sea(x, o.sea, [GERMANS] if f != GERMANS else COALITION))
            return 1.0 if f != GERMANS or mine >= theirs else -0.5
        if isinstance(o, AddShip):
            fight = x.sea
            assert fight is not None
            ours, foes = (fight.a, fight.d) if f in S.side(fight.att) else (fight.d, fight.a)
            return 0.5 if len(ours) < len(foes) else -0.5
        if isinstance(o, Chase):  # away from the coasts: VIII, where nobody lands
            return 2.0 if o.sea == "VIII" else -len(g.sea_coast.get(o.sea, ())) * 0.1
        if isinstance(o, Raid):
            return 1.0 if g.fleet[o.ship].type == "battleship" else -1.0
        if isinstance(o, Land):
            enemy = sum(x.bn[e].get(o.area, 0) for e in COALITION)
            going = sum(1 for s in x.ships if s.landing == o.area)
            city = o.area in g.point_cities
            return 1.0 + (3.0 if city else 1.0 if any(n in g.point_cities for n in g.nbrs[o.area]) else 0.0) \
                - 0.8 * enemy + (0.5 if city and going < 2 else -0.3 * going)
        if isinstance(o, Fight) and x.step in ("engage", "seapick"):
            return 1.0
        if isinstance(o, RemoveShip):
            return -S.rank(g, S.get(x, o.ship))[0]
        if isinstance(o, RecallRaiders):
            return -1.0
        if isinstance(o, PlayCard) and o.slot in ("sea_attack", "sea_defend", "sea_react", "smoke", "sailors", "mines",
                                                   "fort", "rescue"):
            return 1.0
        if isinstance(o, PlayCard) and o.slot == "recon":
            return 0.5
        return None

    def german_score(self, g: KampenGame, x: KampenData, o: Order, plan: "GermanPlan") -> float | None:
        """Germany holding the point cities (1.3): garrisons sized by the enemy nearby, the
        rest marching to the city that needs them most, counter-attacks at good odds."""
        if isinstance(o, KMove):
            if g.hostile(x, GERMANS, o.dst):
                p = self.attack_chance(g, x, o.dst, o.n, (o.src, o.dst) in g.water)
                bar = 0.45 if o.dst in plan.cities else 0.6 if plan.near_city(o.dst) else 0.75
                cost = 3.0 if o.n > plan.surplus(x, o.src) else 0.0
                return (p - bar) * 4 * (3.0 if o.dst in plan.cities else 1.0) + 0.05 * o.n - cost
            if o.n > plan.surplus(x, o.src):
                return -5.0  # a garrison stays
            return plan.march(o.src, o.dst) - 0.02 * o.n
        if isinstance(o, PlaceBn):
            return plan.march_to(o.area) + (1.0 if o.area in plan.cities else 0.0)
        if isinstance(o, Cash):  # 1.3, 2.4: the deck is the clock: holding every city, run it down
            c = g.copies[o.copy]
            return 2.0 if plan.holds_all else (1.0 if not c.uses else -0.5)
        if isinstance(o, PlayCard) and o.slot in ("attack", "defend", "react") and not plan.holds_all:
            fight = x.combat
            v = self.card_score(g, x, o, set(plan.cities))
            return v - (0.0 if fight is not None and fight.area in plan.cities else 0.3)  # spare the clock
        if isinstance(o, PlayCard) and o.slot == "move":
            if o.path:
                dst = o.path[-1]
                if g.hostile(x, GERMANS, dst):
                    p = self.attack_chance(g, x, dst, o.n, False)
                    cost = 3.0 if o.n > plan.surplus(x, o.src) else 0.0
                    return (p - 0.55) * 4 * (3.0 if dst in plan.cities else 1.0) - cost
                if o.n > plan.surplus(x, o.src):
                    return -5.0
                return plan.march(o.src, dst) - 0.3
            if o.src and o.target and not g.hostile(x, GERMANS, o.target):  # airlift
                return -5.0 if o.n > plan.surplus(x, o.src) else plan.march(o.src, o.target) - 0.2
            if o.target and not g.hostile(x, GERMANS, o.target):  # paratroops onto a city short of men
                return 0.5 * plan.deficit.get(o.target, 0) + plan.march_to(o.target) * 0.2
        return None


class GermanPlan:
    """Where German battalions are needed (1.3: every point city held at the end): each city a
    garrison of 1 plus the enemy battalions next to it (half those two areas away), a lost city
    the enemy there and half again; battalions above that march to the city short of the most,
    nearer ones first."""

    def __init__(self, g: KampenGame, x: KampenData):
        self.g = g
        self.cities = set(g.point_cities)
        self.dist = dist = g.steps()
        enemy = {a: x.bn[NORWAY].get(a, 0) + x.bn[ALLIES].get(a, 0) for a in g.land}
        self.have = {c: x.bn[GERMANS].get(c, 0) for c in self.cities}
        self.deficit: dict[str, float] = {}
        for c in self.cities:
            if enemy[c]:
                need = 1.5 * enemy[c] + 1
            else:
                near = sum(enemy[n] for n in g.nbrs[c])
                far = sum(enemy[a] for a in g.land if dist[c].get(a) == 2)
                need = 1 + near + 0.5 * far + (1 if g.allied_coast[c] else 0)  # 4.3: Allied landings
            self.deficit[c] = need - self.have[c]
        self.need = {c: self.have[c] + self.deficit[c] for c in self.cities}
        short = {c: v for c, v in self.deficit.items() if v > 0}
        self.short = short or {c: 0.1 for c in self.cities}
        self.holds_all = all(self.have[c] for c in self.cities)
        # the decision's answers, by area (a list asks them for both ends of every move); a
        # plan is one decision's, made from its state (``KampenBot.plan``)
        self._surplus: dict[str, int] = {}
        self._pull: dict[str, float] = {}

    def surplus(self, x: KampenData, a: str) -> int:
        """The battalions that may leave ``a`` (a city keeps what it needs), in the state the
        plan was made from."""
        hit = self._surplus.get(a)
        if hit is None:
            n = x.bn[GERMANS].get(a, 0) - x.fresh[GERMANS].get(a, 0)
            hit = self._surplus[a] = max(0, min(n, int(self.have[a] - self.need[a]))) if a in self.cities else n
        return hit

    def pull(self, a: str) -> float:
        """How strongly an area draws German battalions: the cities short of men, nearer more."""
        hit = self._pull.get(a)
        if hit is None:
            d = self.dist[a]
            hit = self._pull[a] = max((v / (1 + d.get(c, 30) / 3) for c, v in self.short.items()), default=0.0)
        return hit

    def march(self, a: str, b: str) -> float:
        return 2.0 * (self.pull(b) - self.pull(a))

    def march_to(self, a: str) -> float:
        return self.pull(a)

    def near_city(self, a: str) -> bool:
        return any(c in self.cities for c in self.g.nbrs[a])

