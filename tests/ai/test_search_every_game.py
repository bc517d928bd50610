"""The search bot (ISMCTS) in every game that offers it (issue 57): Assault on Narvik, Kampen
om Norge, the Europa variant and Konflikt '47 give it the same hooks (a prior, a rollout
policy, a score, a determinization where a view hides anything). Each game's bot is checked
the same way: a hard cap on its think time with a fake clock, the same search for the same
seed, only its side's view read, the game it was asked about left alone, and every order it
answers one of the legal ones."""

from __future__ import annotations

import pytest

from hexwar import registry

SEARCHING = [name for name in registry.names() if "search" in registry.get(name).bots]


class Clock:
    """A clock that moves ``tick`` seconds each time it is read."""

    def __init__(self, tick: float):
        self.now, self.tick = 0.0, tick

    def __call__(self) -> float:
        self.now += self.tick
        return self.now


def _decision(name: str, seed: int = 3):  # type: ignore[no-untyped-def]
    """The first decision of the game's first side with more than three orders, the game
    played to it by priority bots; the state and that side."""
    info = registry.get(name)
    s = info.build().new_state(seed)
    kind = next((k for k in info.bots if k not in ("random", "search")), "random")  # the game's rule-based bot
    bots = {x: info.bot(kind, x, seed) for x in info.sides}
    while not s.is_over():
        legal = s.legal_orders()
        if len(legal) > 3:
            return s, s.current_side()
        s.apply(bots[s.current_side()].choose(s.view_for((s.current_side(),)), legal))
    raise AssertionError(f"{name}: no decision with a choice")


def test_every_game_offers_the_search_bot() -> None:
    assert set(SEARCHING) >= {"narvik", "kampen", "europa", "konflikt"}


@pytest.mark.parametrize("name", SEARCHING)
def test_the_think_time_is_a_hard_cap_in_every_game(name: str) -> None:
    s, side = _decision(name)
    legal = s.legal_orders()
    bot = registry.get(name).bot("search", side, 1, 0.05)
    bot.clock = Clock(0.001)
    before = s.data.to_json()
    pick = bot.choose(s.view_for((side,)), legal)
    assert pick in legal
    assert bot.last["elapsed"] <= 0.05 + 0.003
    assert bot.last["iterations"] >= 1
    assert s.data.to_json() == before  # the search played on copies of the view


@pytest.mark.parametrize("name", SEARCHING)
def test_the_same_seed_searches_the_same_in_every_game(name: str) -> None:
    s, side = _decision(name, seed=5)
    legal = s.legal_orders()
    runs = []
    for _ in range(2):
        bot = registry.get(name).bot("search", side, 9, 1e9)
        bot.max_iterations = 10
        runs.append((bot.choose(s.view_for((side,)), legal), bot.last["visits"]))
    assert runs[0] == runs[1]
    assert sum(v for _, v, _ in runs[0][1]) <= 10


@pytest.mark.parametrize("name", SEARCHING)
def test_a_rollout_policy_handed_a_menu_searches_as_one_handed_the_list(name: str) -> None:
    """The rollouts hand a policy that reads a menu (``reads_menu``: Narvik's priority bot) the
    game's menu, as ``run_fast`` does: the search is the one its policy makes from every order
    listed, playout for playout (the same visits, scores and answer)."""
    s, side = _decision(name, seed=5)
    legal = s.legal_orders()
    runs, handed = [], []
    for reads_menu in (True, False):
        bot = registry.get(name).bot("search", side, 9, 1e9)
        bot.max_iterations = 12
        make = bot.policy

        def policy(mover, seed, make=make, reads_menu=reads_menu):  # type: ignore[no-untyped-def]
            p = make(mover, seed)
            if not reads_menu:
                p.reads_menu = False  # the whole list, as before menus
            real = p.choose

            def choose(state, options):  # type: ignore[no-untyped-def]
                handed.append((reads_menu, type(options).__name__))
                return real(state, options)

            p.choose = choose
            return p

        bot.policy = policy
        runs.append((bot.choose(s.view_for((side,)), legal), bot.last["visits"], bot.last["iterations"]))
    assert runs[0] == runs[1]
    menus = {kind for reads, kind in handed if reads}
    assert ("Menu" in menus) == (name == "narvik")  # the game whose policy reads one
    assert {kind for reads, kind in handed if not reads} <= {"OrderList", "list"}


@pytest.mark.parametrize("name", SEARCHING)
def test_the_prior_ranks_every_legal_order_once_with_the_policys_choice_first(name: str) -> None:
    """The prior is a ranking of the legal orders (none lost, none added); where the policy
    has a rule for the decision, its choice comes first (the search starts from it)."""
    s, side = _decision(name)
    legal = s.legal_orders()
    bot = registry.get(name).bot("search", side, 1, 1.0)
    view = s.view_for((side,))
    ranked = bot.rank(view, side, legal, None)
    assert sorted(map(repr, ranked)) == sorted(map(repr, legal))
    policy = bot.policy(side, 0)
    if name in ("europa",):  # a policy whose choice is its ranking's head
        assert ranked[0] == policy.choose(view, legal)


def test_konflikt_search_never_reads_a_hidden_unit() -> None:
    """3.1: the search plays its side's view, where the enemy's hidden units are off the
    table: the states its prior ranks hold none of them where it really is."""
    info = registry.get("konflikt")
    s = info.build("envelopment", "table").new_state(2)
    bots = {x: info.bot("priority", x, 2) for x in info.sides}
    while not s.is_over():
        side, legal = s.current_side(), s.legal_orders()
        hidden = {u.id: u.loc for u in s.data.units.values() if u.side != side and u.concealed and u.loc is not None}
        if hidden and len(legal) > 3:
            break
        s.apply(bots[side].choose(s.view_for((side,)), legal))
    assert hidden, "no decision faced a hidden enemy unit"
    bot = info.bot("search", side, 1, 1e9)
    bot.max_iterations = 8
    ranked_in: list[object] = []
    rank = bot.rank

    def spy(state, who, options, me=None):  # type: ignore[no-untyped-def]
        ranked_in.append(state.data)
        return rank(state, who, options, me)

    bot.rank = spy
    bot.choose(s.view_for((side,)), legal)
    assert ranked_in
    for data in ranked_in:
        for uid, loc in hidden.items():
            u = data.units[uid]  # type: ignore[attr-defined]
            assert not (u.concealed and u.loc == loc), f"{uid} seen where it hides"
