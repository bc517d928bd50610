"""The search bot (issue 17): information-set MCTS over the game API. Its think time is a
hard cap on a clock the tests drive (no test reads the wall clock), it plays only from its
side's view, and a seed gives the same search."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.ai.search import SearchBot
from hexwar.core.orders import Order
from hexwar import registry
from hexwar.games.narvik.bots import search_hooks


class Clock:
    """A clock that moves ``tick`` seconds each time it is read."""

    def __init__(self, tick: float):
        self.now, self.tick, self.reads = 0.0, tick, 0

    def __call__(self) -> float:
        self.now += self.tick
        self.reads += 1
        return self.now


@pytest.fixture(scope="module")
def game():  # type: ignore[no-untyped-def]
    return registry.get("narvik").build()


def _first_choice(state, side: str):  # type: ignore[no-untyped-def]
    """Play priority bots until ``side`` has a real choice; return that state."""
    from hexwar.games.narvik.bots import PriorityBot

    bots = {s: PriorityBot(s, 0) for s in ("allies", "germans")}
    while True:
        legal = state.legal_orders()
        if state.current_side() == side and len(legal) > 3:
            return state
        state.apply(bots[state.current_side()].choose(state.view_for((state.current_side(),)), legal))


@pytest.mark.parametrize("budget", [0.05, 0.3])
def test_think_time_is_a_hard_cap(game, budget: float) -> None:  # type: ignore[no-untyped-def]
    """The clock is read before every order of every iteration: however long a rollout,
    the search stops within one order of its budget, and still answers a legal order."""
    s = _first_choice(game.new_state(4), "allies")
    clock = Clock(0.001)
    bot = SearchBot("allies", 1, budget, clock=clock, **search_hooks())
    legal = s.legal_orders()
    pick = bot.choose(s.view_for(("allies",)), legal)
    assert pick in legal
    assert bot.last["elapsed"] <= budget + 0.003
    assert bot.last["iterations"] >= 1  # a 1 ms tick still leaves room for whole iterations


def test_no_iteration_answers_the_prior(game) -> None:  # type: ignore[no-untyped-def]
    """A budget no iteration fits in answers the prior's first order at once."""
    s = _first_choice(game.new_state(4), "allies")
    hooks = search_hooks()
    bot = SearchBot("allies", 1, 0.0005, clock=Clock(0.001), **hooks)
    legal = s.legal_orders()
    view = s.view_for(("allies",))
    assert bot.choose(view, legal) == hooks["rank"](view, "allies", legal)[0]
    assert bot.last["iterations"] == 0


def test_same_seed_same_search(game) -> None:  # type: ignore[no-untyped-def]
    s = _first_choice(game.new_state(6), "germans")
    runs = []
    for _ in range(2):
        bot = SearchBot("germans", 9, 1e9, max_iterations=12, **search_hooks())
        runs.append((bot.choose(s.view_for(("germans",)), s.legal_orders()), bot.last["visits"]))
    assert runs[0] == runs[1]
    assert sum(v for _, v, _ in runs[0][1]) <= 12 and runs[0][1][0][1] >= 2


def test_searches_only_its_sides_view(game) -> None:  # type: ignore[no-untyped-def]
    """11.0: which face-down German counter is which never changes the Allied search: two
    games that differ only in that give the Allies the same view, and the same search."""
    s = _first_choice(game.new_state(2), "allies")
    hidden = sorted((u for u in s.data.units.values() if u.side == "germans" and u.concealed and u.loc),
                    key=lambda u: u.id)
    pair = next(((a, b) for a, b in itertools.combinations(hidden, 2) if a.type != b.type), None)
    assert pair is not None, "the fixture position has two different face-down German counters"
    other = s.clone()
    a, b = (other.data.units[u.id] for u in pair)
    a.type, b.type = b.type, a.type
    a.nation, b.nation = b.nation, a.nation
    a.formation, b.formation = b.formation, a.formation
    views = [x.view_for(("allies",)) for x in (s, other)]
    assert views[0].data.to_json() == views[1].data.to_json()
    picks = []
    for x, v in zip((s, other), views):
        bot = SearchBot("allies", 5, 1e9, max_iterations=10, **search_hooks())
        picks.append((bot.choose(v, x.legal_orders()), bot.last["visits"]))
    assert picks[0] == picks[1]


def test_search_leaves_the_game_alone(game) -> None:  # type: ignore[no-untyped-def]
    s = _first_choice(game.new_state(3), "allies")
    before = s.data.to_json()
    SearchBot("allies", 1, 1e9, max_iterations=6, **search_hooks()).choose(s.view_for(("allies",)), s.legal_orders())
    assert s.data.to_json() == before


def test_progress_is_reported(game) -> None:  # type: ignore[no-untyped-def]
    """The search tells how it stands while it thinks (the play loop shows it)."""
    s = _first_choice(game.new_state(4), "allies")
    heard: list[dict] = []
    bot = SearchBot("allies", 1, 0.3, clock=Clock(0.002), progress=heard.append, **search_hooks())
    bot.choose(s.view_for(("allies",)), s.legal_orders())
    assert len(heard) >= 2
    assert [h["iterations"] for h in heard] == sorted(h["iterations"] for h in heard)
    assert heard[-1] == bot.last and heard[-1]["best"] is not None


def test_forced_and_empty(game) -> None:  # type: ignore[no-untyped-def]
    bot = SearchBot("allies", 1, 1.0, clock=Clock(1.0), **search_hooks())
    only: list[Order] = [game.new_state(1).legal_orders()[0]]
    assert bot.choose(None, only) is only[0]
    with pytest.raises(ValueError):
        bot.choose(None, [])


def test_never_stalls_a_turn(game) -> None:  # type: ignore[no-untyped-def]
    """9.2, 20.1: ships may sail again and again, and an action phase ends only on two
    passes in a row; the search bot keeps its policy's cap (40 actions a turn, then pass)."""
    from hexwar.core.orders import Pass
    from hexwar.games.narvik.bots import PriorityBot

    s = game.new_state(4)
    bots = {x: PriorityBot(x, 0) for x in ("allies", "germans")}
    while not (s.current_side() == "allies" and s.data.ask is not None and s.data.ask.what == "action"
               and len(s.legal_orders()) > 3):
        x = s.current_side()
        s.apply(bots[x].choose(s.view_for((x,)), s.legal_orders()))
    clock = Clock(0.001)
    bot = SearchBot("allies", 1, 0.05, clock=clock, **search_hooks())
    view = s.view_for(("allies",))
    first = bot.choose(view, s.legal_orders())
    assert not isinstance(first, Pass) or bot.me.actions.get(s.data.turn, 0) == 0
    bot.me.actions[s.data.turn] = bot.me.max_actions
    reads = clock.reads
    assert isinstance(bot.choose(view, s.legal_orders()), Pass)
    assert clock.reads == reads  # passed without searching
    assert bot.last["iterations"] == 0  # and says so: not the last search's figures


def test_no_garbage_collection_while_the_clock_runs(game) -> None:  # type: ignore[no-untyped-def]
    """A full collection takes a tenth of a second once the caches are warm, more than a
    short budget: the collector is off while the bot searches, and as it was after."""
    import gc

    seen: list[bool] = []

    class Watch(Clock):
        def __call__(self) -> float:
            seen.append(gc.isenabled())
            return super().__call__()

    s = _first_choice(game.new_state(4), "allies")
    assert gc.isenabled()
    bot = SearchBot("allies", 1, 0.02, clock=Watch(0.001), **search_hooks())
    bot.choose(s.view_for(("allies",)), s.legal_orders())
    assert seen and not any(seen)
    assert gc.isenabled()
    gc.disable()
    try:  # a caller that keeps the collector off finds it off
        bot.choose(s.view_for(("allies",)), s.legal_orders())
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_player_watching_sees_no_order_the_bot_weighs(game) -> None:  # type: ignore[no-untyped-def]
    """11.0: a German search bot's candidate orders name its face-down counters; what the
    play loop shows the Allied player while it thinks is time and playouts, nothing else."""
    from hexwar.ui.commands import progress_line

    s = _first_choice(game.new_state(4), "germans")
    shown: list[str] = []
    bot = SearchBot("germans", 1, 0.05, clock=Clock(0.001), progress=lambda p: shown.append(progress_line("germans", "search", p)),
                    **search_hooks())
    bot.choose(s.view_for(("germans",)), s.legal_orders())
    assert bot.last["best"]  # the search did weigh orders
    hidden = {u.id for u in s.data.units.values() if u.side == "germans" and u.concealed}
    assert shown and hidden
    for line in shown:
        assert bot.last["best"] not in line and not any(uid in line for uid in hidden)



@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 400), max_size=8), st.floats(0, 500))
def test_a_settled_lead_cannot_be_overtaken(visits: list[int], left: float) -> None:
    """However the iterations left are shared out (all to one rival at worst, or to a child
    the widening has not offered yet, at 0), a settled leader stays the most visited."""
    from hexwar.ai.search import settled_lead

    if not settled_lead(visits, left):
        return
    leader = max(range(len(visits)), key=lambda i: visits[i])
    for i, v in enumerate(visits + [0]):
        if i != leader:
            assert v + int(left) < visits[leader]


def test_a_clear_decision_stops_before_the_cap() -> None:
    """The think time is a cap, not a floor: when one order leads by more playouts than the
    rest of the budget holds, the search answers early, and with the order the whole
    budget would have given (the same seed searched to the end). Kampen om Norge's first
    German decision (a Narvik one searched its 300 playouts in 12 s of the suite's time)."""
    from hexwar.games.kampen.search import search_hooks as kampen_hooks

    s = registry.get("kampen").build().new_state(3)
    while s.current_side() != "germans" or len(s.legal_orders()) <= 3:
        s.apply(s.legal_orders()[0])
    legal = s.legal_orders()
    picks, lasts = [], []
    for early in (True, False):
        bot = SearchBot("germans", 1, 1e9, max_iterations=300, **kampen_hooks())
        if not early:
            bot.MIN_ITERATIONS = 10**9
        picks.append(bot.choose(s.view_for(("germans",)), legal))
        lasts.append(bot.last)
    assert lasts[0]["settled"] and lasts[0]["iterations"] < 300
    assert not lasts[1]["settled"] and lasts[1]["iterations"] == 300
    assert picks[0] == picks[1]
    from hexwar.ui.commands import progress_line

    assert "answered early" in progress_line("germans", "search", lasts[0])
    assert "answered early" not in progress_line("germans", "search", lasts[1])


def test_a_nodes_prior_is_kept_while_its_visits_list_the_same_orders(game) -> None:  # type: ignore[no-untyped-def]
    """The prior of a decision inside the tree is ranked at the node's first visit and kept
    for each later visit that lists the same orders; a visit whose determinization or dice
    list other orders is ranked afresh. A ranking offered is always exactly the orders this
    visit lists, none missing and none that are not legal here."""
    s = _first_choice(game.new_state(6), "germans")
    hooks = search_hooks()
    calls = []
    rank = hooks["rank"]
    hooks["rank"] = lambda *a: calls.append(1) or rank(*a)  # type: ignore[func-returns-value]

    class Watched(SearchBot):
        def __init__(self, *a, **k):  # type: ignore[no-untyped-def]
            super().__init__(*a, **k)
            self.seen: list = []  # (the node's kept prior before the visit, the orders listed, the ranking offered)

        def _ranked(self, node, st, mover, options):  # type: ignore[no-untyped-def]
            first = node.prior
            out = super()._ranked(node, st, mover, options)
            self.seen.append((first, frozenset(options), out))
            return out

    bot = Watched("germans", 3, 1e9, max_iterations=60, **hooks)
    bot.MIN_ITERATIONS = 10**9  # all 60 playouts: no early answer
    bot.choose(s.view_for(("germans",)), s.legal_orders())
    kept = sum(1 for first, listed, out in bot.seen if first is not None and first[1] == listed)
    assert all(sorted(map(repr, out)) == sorted(map(repr, listed)) for _, listed, out in bot.seen)
    assert all(out is first[0] for first, listed, out in bot.seen if first is not None and first[1] == listed)
    assert kept > 0  # the line of play repeated itself in 60 playouts
    assert len(calls) == 1 + len(bot.seen) - kept  # the root's prior, and one for each visit not kept


def test_74_a_decision_right_after_the_sides_own_grows_on_that_searchs_subtree() -> None:
    """A search keeps its node of the order it chose; the side's next decision grows on it as
    its root when it is the decision the playouts met next (the same side, the very orders they
    listed there): the children keep their playouts and figures, and the new ones add to them.
    After another side's decision, or with ``reuse`` off (the default), a search starts from nothing."""
    info = registry.get("kampen")
    s = info.build().new_state(3)
    bots = {side: info.bot("search", side, 7, 1e9) for side in info.sides}
    plain = {side: info.bot("search", side, 7, 1e9) for side in info.sides}
    for b in [*bots.values(), *plain.values()]:
        b.max_iterations, b.clock = 20, Clock(1e-6)
        b.MIN_ITERATIONS = 10**9  # every search its 20 playouts: the reused ones are then visible as more
    for b in bots.values():
        b.reuse = True  # off unless asked (it measured no stronger): asked here
    assert not any(b.reuse for b in plain.values())
    last_side, grown, fresh = None, 0, 0
    while not s.is_over() and not (grown >= 3 and fresh >= 3):
        side, legal = s.current_side(), s.legal_orders()
        if len(legal) == 1:
            s.apply(legal[0])
            continue
        bot = bots[side]
        kept = bot._kept
        before = {n.order: (n.visits, n.total) for n in kept.children.values()} if kept is not None else {}
        had = kept.visits if kept is not None else 0
        mine = kept is not None and kept.prior is not None and all(n.mover == side for n in kept.children.values()) \
            and kept.prior[1] == frozenset(legal)
        pick = bot.choose(s.view_for((side,)), legal)
        assert pick in legal
        if mine and last_side == side:
            assert bot.tree is kept and bot.last["reused"] == had >= sum(v for v, _ in before.values()) > 0
            offered = set(bot.rank(s.view_for((side,)), side, legal, bot.me)[: bot.cap])
            assert set(kept.children) <= offered  # only what the side's own prior offers (it reads its memory)
            for order, (visits, total) in before.items():
                if order in offered:
                    child = kept.children[order]
                    assert child.visits >= visits and child.order == order
            assert kept.visits == had + 20  # 20 playouts more
            grown += 1
        else:
            assert bot.last["reused"] == 0
            fresh += last_side != side
        plain[side].choose(s.view_for((side,)), legal)
        assert plain[side].last["reused"] == 0 and plain[side]._kept is None
        last_side = side
        s.apply(pick)
    assert grown >= 3 and fresh >= 3
