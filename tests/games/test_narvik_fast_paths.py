"""The fast paths of Assault on Narvik's legal orders (issue 17) give exactly what the rules'
plain definitions give, on the states of seeded random games: artillery interdictions
(16.1.1), bombardment targets (20.5), embarkations (20.2), zones of control (12.0) and lines
of supply kept across decisions (19.3)."""

from __future__ import annotations

import random

import pytest

from hexwar.ai import RandomBot
from hexwar.core.dice import Dice
from hexwar.core.engine import run_fast
from hexwar.core.play import order_dice
from hexwar.core.orders import Menu, OrderList, order_kinds, orders_of_kind
from hexwar.core.state import Unit
from hexwar.games.narvik import Switches, narvik_game
from hexwar.games.narvik.orders import ArtilleryInterdiction, Embark, NavalMove
from hexwar.games.narvik.phases import assault, common, fire, movement, naval
from hexwar.games.narvik.state import ALLIES, GERMANS, HARSTAD
from hexwar.rules import supply, zoc
from hexwar.rules.naval import naval_destinations


@pytest.fixture(scope="module")
def states():
    g = narvik_game()
    out = []
    for seed in (1, 2):
        d = g.initial_state(seed, order_dice(seed, -1))
        rng, bot = random.Random(seed), RandomBot(seed)
        while not d.over:
            legal = g.legal_orders(d)
            if d.ask is not None and d.ask.what == "action" and d.ask.side == ALLIES:
                out.append(d.clone())
            g.apply(d, bot.choose(None, legal), Dice(rng=rng))
    return g, out


def test_16_1_1_art_orders_equal_interdicting_art_for_every_german_hex(states):
    g, ds = states
    assert len(ds) > 20
    for d in ds:
        want = []
        for target in sorted(g.occupied(d, GERMANS)):
            arts = fire.interdicting_art(g, d, target)
            if arts:
                want.append(ArtilleryInterdiction(ALLIES, tuple(arts), target))
        assert fire.art_orders(g, d) == want


def test_20_5_bombard_targets_equal_can_bombard_on_every_german_hex(states):
    g, ds = states
    seen = 0
    for d in ds:
        for s in d.on_map(ALLIES):
            if g.is_ship(s) and d.cargo.get(s.id) is None and g.t(s).bombard > 0 and "fired" not in s.flags \
                    and s.loc != HARSTAD:
                want = tuple(t for t in sorted(g.occupied(d, GERMANS)) if fire.can_bombard(g, d, s, t))
                assert naval.bombard_targets(g, d, s) == want
                seen += bool(want)
    assert seen  # some ship had a target


def test_20_2_listed_embarkations_equal_the_plain_definition(states):
    """20.2: an empty transport takes aboard a unit it can carry in its own friendly port or
    Harstad, or sails into a port the Allies hold and embarks there. The listing works this
    out from facts kept once a listing and lists kept across decisions; here it is worked out
    unit by unit, on states the game's caches have seen in another order."""
    g, ds = states
    here_seen = sailed_seen = 0
    for d in ds[::-1]:  # the kept lists were filled in play order: ask for them the other way round
        want = []
        ships = sorted((u for u in d.on_map(ALLIES) if g.is_ship(u)), key=lambda u: u.id)
        held = sorted({u.loc for u in d.on_map(ALLIES) if u.loc != HARSTAD})
        for s in ships:
            if d.cargo.get(s.id) is not None or not g.t(s).transport:
                continue
            if s.loc == HARSTAD or g.board.is_a(s.loc, "port"):
                want += [Embark(ALLIES, s.id, u.id) for u in g.land_units_at(d, s.loc, ALLIES) if naval.can_carry(g, s, u)]
            if "no_move" not in s.flags:
                dests = naval_destinations(g.board, s.loc, HARSTAD)
                for loc in held:
                    if loc in dests and g.board.is_a(loc, "port"):
                        want += [Embark(ALLIES, s.id, u.id, dests[loc]) for u in g.land_units_at(d, loc, ALLIES)
                                 if naval.can_carry(g, s, u)]
        got = [o for o in g.legal_orders(d) if isinstance(o, Embark)]
        assert got == want
        here_seen += sum(not o.path for o in want)
        sailed_seen += sum(bool(o.path) for o in want)
    assert here_seen and sailed_seen  # both kinds were listed somewhere


@pytest.mark.parametrize("concealment", [False, True])
def test_20_2_the_units_ashore_are_land_units_at_every_allied_hex(concealment):
    """20.2: the units a ship may take aboard are, hex by hex, the Allied land units there
    that are real and not aboard, in id order (``land_units_at``); the listing finds them in
    one walk over the Allied units. With 11.3 on, face-down Allied units count too."""
    g = narvik_game(Switches(allied_concealment=concealment))
    seen = aboard = face_down = 0
    for seed in (3, 4):
        d = g.initial_state(seed, order_dice(seed, -1))
        rng, bot = random.Random(seed), RandomBot(seed)
        while not d.over:
            want = {}
            for loc in {u.loc for u in d.on_map(ALLIES)}:
                here = g.land_units_at(d, loc, ALLIES)
                if here:
                    want[loc] = here
            got = naval.allied_ashore(g, d)
            assert got == want and all([u.id for u in v] == [u.id for u in want[k]] for k, v in got.items())
            seen += len(want)
            aboard += sum(u.has("aboard") for u in d.on_map(ALLIES))
            face_down += sum(u.concealed for here in want.values() for u in here)
            g.apply(d, bot.choose(None, g.legal_orders(d)), Dice(rng=rng))
    assert seen and aboard  # units ashore, and units aboard left out
    assert bool(face_down) == concealment  # 11.3: Allied counters face down only with Allied concealment
    # no Allied dummy is in the counter mix: one made of a German dummy is left out as land_units_at leaves it
    d = g.initial_state(3, order_dice(3, -1))
    dummy = next(u for u in d.units.values() if g.is_dummy(u))
    dummy.side, dummy.loc, dummy.pool = ALLIES, next(u.loc for u in d.on_map(ALLIES) if g.is_land(u)), None
    ashore = naval.allied_ashore(g, d)[dummy.loc]
    assert dummy not in ashore and ashore == g.land_units_at(d, dummy.loc, ALLIES)


def test_12_0_zoc_equals_the_units_not_excluded(states):
    g, ds = states
    for d in ds[::3]:
        for side in (ALLIES, GERMANS):
            want = set()
            for u in d.units.values():
                if u.side == side and u.loc is not None and zoc.zoc_exclusion(u, g.tables, g.cites.zoc) is None:
                    want |= set(zoc.projects_into(g.board, u.loc))
            assert zoc.zoc_of(g.board, d, g.tables, side) == want


def test_19_3_supply_kept_across_decisions_equals_a_fresh_expansion(states):
    g, ds = states
    for d in ds[::2]:
        units = [u for u in d.on_map(ALLIES)]
        kept = g.supplied(d, units)  # from the expansions earlier states (and their games) kept
        supply.supply_net(g.board, g.tables.terrain, d.weather, "leg").status.clear()
        assert g.supplied(d, units) == kept


def test_11_0_a_views_fatigue_records_are_the_unhidden_ones_as_the_log_grows():
    """10.0, 11.0: each side's view, asked at every decision of one game (the kept records
    then only extended), shows exactly the fatigue records not about a hidden counter."""
    from hexwar.games.narvik.view import hidden_ids

    g = narvik_game()
    d = g.initial_state(3, order_dice(3, -1))
    rng, bot = random.Random(3), RandomBot(3)
    checked = 0
    while not d.over:
        for side in (ALLIES, GERMANS):
            hidden = set(hidden_ids(d, {side}))
            assert g.view(d, {side}).fatigue_log == [r for r in d.fatigue_log if r.unit not in hidden]
            checked += bool(hidden) and bool(d.fatigue_log)
        g.apply(d, bot.choose(None, g.legal_orders(d)), Dice(rng=rng))
    assert checked > 10


def _plain_view(g, d, side):
    """A side's view made with every kept part of a view forgotten first."""
    from hexwar.games.narvik import view

    for kept in (view._VIEW_UNITS, view._SETUP, view._PLACEHOLDERS):
        kept.clear()
    return g.view(d, {side})


def _shown(v):
    return [(k, u.id, u.type, u.side, u.nation, u.formation, u.loc, u.fatigue, u.concealed) for k, u in v.units.items()]


@pytest.mark.parametrize("concealment", [False, True])
def test_11_0_a_views_kept_units_and_setup_events_are_those_made_afresh(concealment):
    """11.0, 11.3: at every decision of seeded games, each side's view (its units with the
    other side's face-down counters anonymous, the kinds of counter out there face down, the
    setup events) is the view made with nothing kept; the units it shows are the state's own
    objects, and a view's dict of them is its own."""
    from hexwar.games.narvik.view import hidden_ids

    g = narvik_game(Switches(allied_concealment=concealment))
    hidden_seen = 0
    for seed in (3, 4):
        d = g.initial_state(seed, order_dice(seed, -1))
        rng, bot = random.Random(seed), RandomBot(seed)
        while not d.over:
            for side in (ALLIES, GERMANS):
                v = g.view(d, {side})
                assert all(u is d.units[k] for k, u in v.units.items() if not k.startswith("?"))
                v.units.clear()  # the next view is not this one
                v = g.view(d, {side})
                want = _plain_view(g, d, side)
                assert _shown(v) == _shown(want) and v.hidden_pool == want.hidden_pool
                assert v.setup_events == want.setup_events
                hidden_seen += len(v.hidden_pool)
            g.apply(d, bot.choose(None, g.legal_orders(d)), Dice(rng=rng))
    assert hidden_seen > 20, hidden_seen
    # a face-down counter set elsewhere, or a unit the state holds in place of another, shows
    # where it is and as it is in the next view, though the view before was kept
    d = g.initial_state(3, order_dice(3, -1))
    g.view(d, {ALLIES})
    face_down = d.units[hidden_ids(d, {ALLIES})[0]]  # the first in the view's order, and still first there
    face_down.loc = min(g.board.locations())
    assert hidden_ids(d, {ALLIES})[0] == face_down.id
    assert _shown(g.view(d, {ALLIES})) == _shown(_plain_view(g, d, ALLIES))
    g.view(d, {ALLIES})
    other = next(u for u in d.on_map(ALLIES))
    d.units[other.id] = Unit(other.id, other.type, other.side, other.nation, loc=other.loc, pool=None, fatigue=3)
    v = g.view(d, {ALLIES})
    assert v.units[other.id] is d.units[other.id]
    assert _shown(v) == _shown(_plain_view(g, d, ALLIES))


def test_20_1_group_naval_moves_are_kept_within_the_bound_and_stay_the_same(monkeypatch):
    """20.1: a group's naval moves depend on the map only and are kept, but groups are
    combinations of ships, so at most ``GROUP_MOVES_KEPT`` lists are (a long batch met new
    groups without end). Games played with room for two lists give the same legal orders at
    every decision as games with room for all."""
    def play(bound: int) -> tuple[list[list], int]:
        monkeypatch.setattr(naval, "GROUP_MOVES_KEPT", bound)
        g = narvik_game()
        seen, most = [], 0
        for seed in (1, 2, 3):
            d = g.initial_state(seed, order_dice(seed, -1))
            rng, bot = random.Random(seed), RandomBot(seed)
            while not d.over:
                legal = g.legal_orders(d)
                seen.append(legal)
                most = max(most, len(g.caches.naval_group_moves))
                g.apply(d, bot.choose(None, legal), Dice(rng=rng))
        return seen, most

    wide, most_wide = play(10**6)
    narrow, most_narrow = play(2)
    assert most_wide > 2  # the games met more groups than the narrow bound keeps
    assert most_narrow <= 2
    assert narrow == wide


def test_20_1_a_ships_kept_moves_are_one_to_each_naval_destination_in_hex_order():
    """20.1: the moves kept for a ship at a hex are one NavalMove to each destination the
    waterways give, by its fewest-steps path, in hex order; the same list the next time."""
    g = narvik_game()
    kept = naval.moves_of(g, ("Warspite",), HARSTAD)
    want = [NavalMove(ALLIES, ("Warspite",), p)
            for _, p in sorted(naval.naval_destinations(g.board, HARSTAD, HARSTAD).items())]
    assert len(kept) > 50 and kept == want
    assert naval.moves_of(g, ("Warspite",), HARSTAD) is kept
    assert naval.moves_of(g, ("CL-1",), HARSTAD) == [NavalMove(ALLIES, ("CL-1",), m.path) for m in kept]


def _priority_game(seed: int) -> list[str]:
    from hexwar.core.play import FastView
    from hexwar.games.narvik.bots import PriorityBot

    g = narvik_game()
    d = g.initial_state(seed, order_dice(seed, -1))
    rng = random.Random(f"hexwar-fast:{seed}")
    bots = {s: PriorityBot(s, seed) for s in (ALLIES, GERMANS)}
    view, played = FastView(g, d), []
    while not d.over:
        legal = g.legal_orders(d)
        side = g.current_side(d)
        pick = bots[side].choose(view.view_for((side,)), legal)
        assert any(pick is o for o in legal)  # one of the list's own orders
        played.append(pick.text())
        g.apply(d, pick, Dice(rng=rng))
    return played


def test_20_1_the_priority_bot_weighs_a_ships_kept_moves_as_one_and_plays_the_same(monkeypatch):
    """20.1: where every naval move of a ship scores the same, the Allied priority bot weighs
    the moves the game keeps for it (``kept_moves``) as one run of the list; a whole game
    goes exactly as it does with each move weighed on its own."""
    from hexwar.games.narvik import bots

    used = []

    def spy(g, ids, loc):
        block = naval.kept_moves(g, ids, loc)
        used.append(block is not None and len(block) > 1)
        return block

    monkeypatch.setattr(bots, "kept_moves", spy)
    fast = _priority_game(4)
    assert sum(used) > 100  # the runs were weighed whole
    monkeypatch.setattr(bots, "kept_moves", lambda g, ids, loc: None)
    assert _priority_game(4) == fast


def test_20_1_a_run_of_kept_moves_out_of_place_or_rebuilt_is_weighed_order_by_order():
    """A list whose naval moves are not the kept list's run (reversed), or are equal orders
    rebuilt from JSON, gives the choice each order's own score gives, and one of its orders."""
    from hexwar.core.play import FastView
    from hexwar.games.narvik.bots import PriorityBot
    from hexwar.games.narvik.orders import ORDERS

    g = narvik_game()
    d = g.initial_state(5, order_dice(5, -1))
    rng = random.Random(5)
    checked = 0
    while not d.over and checked < 30:
        legal = g.legal_orders(d)
        side = g.current_side(d)
        if side == ALLIES and sum(type(o) is NavalMove for o in legal) > 50:
            view = FastView(g, d).view_for((side,))
            for variant in (legal[::-1], [ORDERS.from_dict(o.to_dict()) for o in legal]):
                bot, ref = PriorityBot(side, 9), PriorityBot(side, 9)
                ctx = ref.context(g, view.data)
                scores = [ref.score(ctx, o) for o in variant]
                best = [o for o, s in zip(variant, scores) if s == max(scores)]
                pick = bot.choose(view, variant)
                assert any(pick is o for o in variant)
                assert pick is random.Random(9).choice(best)  # the bot's own draw among the best, in list order
                checked += 1
        g.apply(d, RandomBot(rng.randrange(1 << 30)).choose(None, legal), Dice(rng=rng))
    assert checked >= 10


def test_9_0_the_priority_bots_weigh_a_list_part_by_part_as_order_by_order():
    """Each priority bot weighs a unit's listed moves and a ship's kept naval moves part by
    part (issue 17): at every decision of seeded priority games, the best orders it finds in
    the list's parts are those a pass over the same orders as a plain list, one by one, finds:
    the same orders, in the same order."""
    from hexwar.core.play import FastView
    from hexwar.games.narvik.bots import PriorityBot

    g = narvik_game()
    weighed = {(ALLIES, "move"): 0, (ALLIES, "naval_move"): 0, (GERMANS, "move"): 0}
    for seed in (3, 8):
        d = g.initial_state(seed, order_dice(seed, -1))
        rng = random.Random(f"hexwar-fast:{seed}")
        bots = {s: PriorityBot(s, seed) for s in (ALLIES, GERMANS)}
        while not d.over:
            legal = g.legal_orders(d)
            side = g.current_side(d)
            view = FastView(g, d).view_for((side,))
            bot = bots[side]
            if type(legal) is OrderList and legal.parts and bot.forced(d, legal) is None:
                by_part, by_order = bot.best(view, legal), bot.best(view, list(legal))
                assert by_part and [id(o) for o in by_part] == [id(o) for o in by_order], d.ask
                for kind, _ in legal.parts:
                    if (side, kind) in weighed:
                        weighed[side, kind] += 1
            g.apply(d, bot.choose(view, legal), Dice(rng=rng))
    assert min(weighed.values()) > 100, weighed


@pytest.mark.parametrize("switches", [Switches(), Switches(allied_concealment=True, random_setup=True)])
def test_9_0_the_priority_bot_bounds_each_units_moves_and_from_a_menu_finds_the_orders_of_the_full_list(switches):
    """Handed a menu (``run_fast``, the search's rollouts), the priority bot works a unit's
    moves out only when their bound can beat the best so far (``move_bound``): at every
    decision of seeded priority games the bound is no less than any of the unit's moves,
    ferries and exits scores (14.0, 20.6, 22.3), the orders of the top score are those it
    finds in the full list, in its order, and most units are passed over."""
    from hexwar.core.play import FastView
    from hexwar.core.orders import Lazy
    from hexwar.games.narvik.bots import PriorityBot

    g = narvik_game(switches=switches)
    seen = {"units": 0, "worked": 0, "decisions": 0}
    real_work = Menu.work

    def work(menu, item):  # type: ignore[no-untyped-def]
        seen["worked"] += 1
        return real_work(menu, item)

    for seed in (3, 8):
        d = g.initial_state(seed, order_dice(seed, -1))
        rng = random.Random(f"hexwar-fast:{seed}")
        bots = {s: PriorityBot(s, seed) for s in (ALLIES, GERMANS)}
        while not d.over:
            side = g.current_side(d)
            view = FastView(g, d).view_for((side,))
            bot, legal = bots[side], g.legal_orders(d)
            menu = g.legal_menu(d)
            items = [p for p in menu.pieces() if type(p) is Lazy]
            if items and bot.forced(d, legal) is None:
                ctx = bot.context(g, view.data)
                for item in items:  # the bound holds for every order the unit has
                    scores = [sc for kind, orders in menu.work(item) for sc in bot.part_scores(ctx, kind, orders)]
                    assert not scores or bot.move_bound(ctx, item.key) >= max(scores), (d.ask, item.key.id)
                fresh = g.legal_menu(d)
                Menu.work = work  # type: ignore[method-assign]
                try:
                    lazily = bot.best(view, fresh)
                finally:
                    Menu.work = real_work  # type: ignore[method-assign]
                assert lazily and lazily == bot.best(view, legal), d.ask
                seen["units"] += len(items)
                seen["decisions"] += 1
            g.apply(d, bot.choose(view, legal), Dice(rng=rng))
    assert seen["decisions"] > 200 and 0 < seen["worked"] < seen["units"] / 2, seen


def test_11_0_a_views_face_down_counters_leave_the_states_location_index_alone():
    """11.0: the placeholders a view puts in place of the other side's face-down counters are
    the units ``Unit(...)`` makes, and making them does not mark every state's location
    index stale (a view is made at every decision; the index is kept by the state's own
    move count, ``GameState.moves``, issue 73)."""
    from hexwar.core.state import Unit
    from hexwar.games.narvik.view import HIDDEN, hidden_ids

    g = narvik_game()
    d = g.initial_state(2, order_dice(2, -1))
    rng, bot = random.Random(2), RandomBot(2)
    while not hidden_ids(d, {ALLIES}):
        g.apply(d, bot.choose(None, g.legal_orders(d)), Dice(rng=rng))
    d.units_at(d.units[sorted(hidden_ids(d, {ALLIES}))[0]].loc)  # the state's index, built
    index, before = d.__dict__["_idx"], d.moves().n
    v = g.view(d, {ALLIES})
    assert d.moves().n == before
    d.units_at("0101")
    assert d.__dict__["_idx"] is index  # not built again
    for i, uid in enumerate(hidden_ids(d, {ALLIES}), 1):
        u = d.units[uid]
        assert v.units[f"?{i}"] == Unit(f"?{i}", HIDDEN.key, u.side, "", "", "", loc=u.loc, pool=None, fatigue=0,
                                        concealed=True, flags=[])
    assert [x.id for x in v.units_at(u.loc)] == sorted(x.id for x in v.units.values() if x.loc == u.loc)


def test_15_2_15_3_1_a_result_or_retreat_is_accepted_exactly_when_the_full_list_holds_it():
    """15.2, 15.3.1: ``apply`` checks a way to take a result against that option's orders only,
    and a retreat path against the paths of its own length only; on every such decision of
    seeded priority games it accepts exactly what the full list (every option, every length)
    holds, and refuses the rest with the state left as it was."""
    from hexwar.core.play import FastView
    from hexwar.core.orders import IllegalOrder
    from hexwar.games.narvik.orders import TakeResult
    from hexwar.rules.orders import Retreat
    from hexwar.games.narvik.bots import PriorityBot
    from hexwar.games.narvik.phases import results

    g = narvik_game()
    tried = {"take": 0, "retreat": 0, "refused": 0}
    # one seeded game tries some 800 ways each to take a result and to retreat (three cost 20 s)
    for seed in (1,):
        d = g.initial_state(seed, order_dice(seed, -1))
        rng = random.Random(f"hexwar-fast:{seed}")
        bots = {s: PriorityBot(s, seed) for s in (ALLIES, GERMANS)}
        view = FastView(g, d)
        while not d.over:
            legal = g.legal_orders(d)
            what = d.ask.what if d.ask is not None else None
            if what in ("take", "retreat"):
                side = d.ask.side
                if what == "take":
                    full = results.take_options(g, d, side)
                    mine = [u.id for u in d.on_map(side)]
                    others = [TakeResult(side, "eliminate", uid) for uid in mine[:6]] + [
                        TakeResult(side, "retreat"), TakeResult(side, "all_to_limit"),
                        TakeResult(side, "fatigue", "", ((mine[0], 6),))]
                else:
                    full = [Retreat(side, d.ask.unit, p) for p in results.retreat_options(g, d, d.ask.unit)]
                    loc = d.units[d.ask.unit].loc
                    others = [Retreat(side, d.ask.unit, (loc,))] + [
                        Retreat(side, d.ask.unit, o.path + (n,)) for o in full[:3] for n in g.board.neighbours(o.path[-1])] + [
                        Retreat(side, d.ask.unit, o.path[:-1]) for o in full[:3]]
                stood = d.to_json()  # the state as it stands, for every refusal of this decision
                for o in dict.fromkeys(full + others):
                    copy = d.clone()
                    try:
                        g.apply(copy, o, Dice(rng=random.Random(0)))
                        accepted = True
                    except IllegalOrder:
                        accepted = False
                        assert copy.to_json() == stood
                    split = what == "take" and o.option == "fatigue" and results.any_split(g, d, o)
                    assert accepted == (o in full or split), o.text()
                    tried[what] += 1
                    tried["refused"] += not accepted
            side = g.current_side(d)
            g.apply(d, bots[side].choose(view.view_for((side,)), legal), Dice(rng=rng))
    assert tried["take"] > 20 and tried["retreat"] > 5 and tried["refused"] > 10, tried


def test_9_0_every_listed_part_holds_only_its_kind_and_the_random_bot_draws_as_from_the_plain_list():
    """The action and reaction lists (9.0, 9.1.1) say where each kind of order lies in them
    (``OrderList``): every labelled part holds only that kind, in every decision of two seeded
    random games, and the random bot draws the same order from them as from a plain copy."""
    g = narvik_game()
    labelled = seen = 0
    for seed in (3, 4):
        d = g.initial_state(seed, order_dice(seed, -1))
        rng, bot = random.Random(seed), RandomBot(seed)
        while not d.over:
            legal = g.legal_orders(d)
            if d.ask.what in ("action", "reaction"):
                assert type(legal) is OrderList and legal.parts is not None
                assert [o for _, part in legal.parts for o in part] == list(legal)
                for kind, part in legal.parts:
                    assert kind is None or {o.kind for o in part} == {kind}
                    labelled += kind is not None
                seen += 1
            twin = RandomBot()
            twin.rng.setstate(bot.rng.getstate())
            order = bot.choose(None, legal)
            assert twin.choose(None, list(legal)) == order
            g.apply(d, order, Dice(rng=rng))
    assert seen > 100 and labelled > 5 * seen  # each unit's and ship's lists are parts of their own


def test_15_1_assaults_are_listed_on_every_enemy_hex_with_attackers(states):
    """15.1: the listed assaults' targets are exactly the enemy-held hexes some free unit
    may attack (``attackers_for``, asked of every enemy hex), the listing asking only the hexes
    next to a free unit."""
    g, ds = states
    found = 0
    for d in ds:
        for side in (ALLIES, GERMANS):
            want = [t for t in sorted(g.occupied(d, GERMANS if side == ALLIES else ALLIES))
                    if any(not g.t(d.units[x]).is_artillery for x in assault.attackers_for(g, d, side, t))]
            assert sorted({o.target for o in assault.assault_orders(g, d, side)}) == want
            found += bool(want)
    assert found


def test_9_0_22_3_a_menu_gives_the_kinds_and_orders_of_the_full_list_at_every_decision():
    """A kind-first reader's menu (``legal_menu``, 9.0, 9.1) names the kinds of the full list
    and gives each kind's orders in list order, at every decision of a seeded random game,
    reading the state without changing it; its test for exits (22.3: ``may_exit``, a unit's
    region on the empty map) never rules out a unit that has one, and rules out units that
    have none."""
    g = narvik_game()
    seen = {"menus": 0, "exits": 0, "ruled out": 0}
    for seed in (3, 4, 5):
        d = g.initial_state(seed, order_dice(seed, -1))
        rng, bot = random.Random(seed), RandomBot(seed)
        _play_checking_menus(g, d, rng, bot, seen)
    assert seen["menus"] > 50 and seen["exits"] > 50 and seen["ruled out"] > 50, seen


def _play_checking_menus(g, d, rng, bot, seen):  # type: ignore[no-untyped-def]
    """Play a random game to its end, checking its menus at every decision (counted in ``seen``)."""
    while not d.over:
        before = d.to_json()
        menu = g.legal_menu(d)
        kinds = order_kinds(menu)
        full = g.legal_orders(d)
        assert kinds == order_kinds(full)
        for kind in kinds:
            assert list(orders_of_kind(g.legal_menu(d), kind)) == list(orders_of_kind(full, kind)), kind
        assert menu.orders() == full
        assert d.to_json() == before
        if d.ask.what in ("action", "reaction") and d.ask.side == ALLIES:
            seen["menus"] += 1
            g.caches.memo = {}  # a listing's memo, as legal_orders keeps one
            try:
                ctx, queries = g.side_context(d, ALLIES), {}
                for here in common.free_units(g, d, ALLIES).values():
                    for u in here:
                        exits = movement.unit_paths(g, d, ALLIES, u, ctx, queries)[1][1]
                        seen["exits"] += bool(exits)
                        assert movement.may_exit(g, d, u) or not exits, u.id
                        seen["ruled out"] += not movement.may_exit(g, d, u)
            finally:
                g.caches.memo = None
        g.apply(d, bot.choose(None, full), Dice(rng=rng))


def test_run_fast_gives_the_random_bot_a_menu_and_plays_the_game_of_the_full_list():
    """``run_fast`` hands a kind-first bot (the random bot) a menu: the game is the one it plays
    choosing from every order listed, order for order."""
    g = narvik_game()
    handed = set()

    class Spy(RandomBot):
        def choose(self, state, legal):  # type: ignore[no-untyped-def]
            handed.add(type(legal))
            return super().choose(state, legal)

    for seed in (6, 7):
        view, log = run_fast(g, seed, {s: Spy(seed) for s in (ALLIES, GERMANS)}, record=True)
        d = g.initial_state(seed, order_dice(seed, -1))
        rng, bots = random.Random(f"hexwar-fast:{seed}"), {s: RandomBot(seed) for s in (ALLIES, GERMANS)}
        played = []
        while not d.over:
            order = bots[g.current_side(d)].choose(None, g.legal_orders(d))
            played.append(order.to_dict())
            g.apply(d, order, Dice(rng=rng))
        assert [e.order for e in log.entries] == played and view.data.to_json() == d.to_json()
    assert handed == {Menu}
