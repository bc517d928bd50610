"""One conformance suite for every registered game (OpenSpiel's random simulation test is the
model): a game gets it by registering, and its author runs it with ``conformance_tests``.

For every game and each of its variants (scenario, board, switches), random legal play to
the end from several seeds (``GameInfo.test_games`` for the game's first variant, half as many
for each other: another board or a few switches changes some rules, the first variant plays
all the others), checking after every order that:

- the game asks a known side, offers orders unless it is over, and none once it is;
- every order ``legal_orders()`` offers is accepted by ``apply()`` (a sample, on copies);
- orders it does not offer (the other side's, stale ones from earlier decisions, junk) are
  refused with ``IllegalOrder`` and leave the state exactly as it was;
- a copy is independent of its original both ways;
- the state survives a JSON round trip and plays on the same from it;
- every event matches the game's event schema, and events never change after the fact;
- the game's rules that always hold (``GameInfo.broken``: every counter in one place, the
  state's indexes true, and the game's own ``invariants``, such as a stacking limit);

and at the end that undo gives back every earlier state, that the log replays to the same
state without an RNG (also through a save file and after a JSON round trip of the log), that
``run_fast`` plays the same game for the same seed and bots, and that its own log replays too.

The game's own fast bots (its priority bots) then play it, the invariants checked after every
order: a rule only a purposeful player breaks is never met by random play (the Allied
priority bot of Assault on Narvik overstacked its landings in 33 of 40 games while random
play never did).

Each check is a function that raises ``AssertionError`` naming what broke; none needs pytest.
"""

from __future__ import annotations

import dataclasses
import json
import random
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterable

from hexwar.ai.random_bot import RandomBot
from hexwar.core.engine import load_game, run_fast
from hexwar.core.play import PlayState
from hexwar.core.replay import replay
from hexwar.core.events import check_event
from hexwar.core.game import Game
from hexwar.core.log import EventLog
from hexwar.core.orders import IllegalOrder, Order, Pass
from hexwar.core.state import GameState
from hexwar import registry
from hexwar.registry import GameInfo

#: a game's variant: (game, scenario, board, switches)
Variant = tuple[str, str, str, tuple[str, ...]]


def variants(games: Iterable[str] = ()) -> list[Variant]:
    """Every variant the named games (every registered game if none) ask the suite to play."""
    infos = [registry.get(g) for g in games] or registry.games()
    return [(info.name, sc, bd, tuple(sw)) for info in infos for sc, bd, sw in info.conformance_variants()]


def variant_id(v: Variant, bot: str = "") -> str:
    """``game/scenario@board+switch``, and ``/bot`` for a bot's game: the case's name."""
    name, scenario, board, switches = v
    return f"{name}/{scenario}@{board}" + "".join(f"+{s}" for s in switches) + (f"/{bot}" if bot else "")


def seeds_for(info: GameInfo[Any, Any], v: Variant) -> int:
    """Random games a variant plays: ``test_games`` for the game's first variant, half as many
    (at least one) for each other."""
    scenario, board, switches = info.conformance_variants()[0]
    return info.test_games if v[1:] == (scenario, board, tuple(switches)) else max(1, -(-info.test_games // 2))


def _build(v: Variant) -> tuple[GameInfo[Any, Any], Game[Any]]:
    name, scenario, board, switches = v
    info = registry.get(name)
    return info, info.build(scenario, board, switches)


def _junk(side: str, legal: list[Order], rng: random.Random) -> list[Order]:
    """Orders the game cannot accept now: the other side's, or a legal order's fields mangled."""
    out: list[Order] = []
    o = rng.choice(legal)
    fields = {k: v for k, v in o.to_dict().items() if k not in ("kind", "side")}
    out.append(type(o)(side="nobody", **fields))
    for k, v in fields.items():
        bad = "XX99" if isinstance(v, str) else -7 if isinstance(v, int) and not isinstance(v, bool) \
            else ("XX99",) if isinstance(v, tuple) else v
        if bad != v:
            out.append(type(o)(side=o.side, **dict(fields, **{k: bad})))
        # an order object built by hand with a field of no order's type (a list, a set or a
        # dict once raised TypeError from apply, not IllegalOrder)
        wrongs: tuple[Any, ...] = ({"a": 1}, {"XX99"}, [["XX99"]], object())
        for wrong in wrongs:
            out.append(dataclasses.replace(o, **{k: wrong}))
    listed = set(legal)
    return [x for x in out if not _listed(x, listed, legal)]


def _listed(order: Order, listed: set[Order], legal: list[Order]) -> bool:
    """Whether ``order`` is one of the legal orders (by hash; an order built with a field of
    no hashable type, which no legal order has, by comparison with each)."""
    try:
        return order in listed
    except TypeError:
        return order in legal


def _refused_unchanged(state: PlayState, order: Order, before: str | None = None) -> None:
    """``order`` is refused and leaves the state as it was (``before``: the state's JSON now,
    when the caller has it: each refusal at one state is held to the same text)."""
    before, n = before if before is not None else state.data.to_json(), len(state.log)
    try:
        state.apply(order)
    except IllegalOrder:
        pass
    else:
        raise AssertionError(f"{order} was not offered and was carried out")
    assert state.data.to_json() == before and len(state.log) == n, f"{order} changed the state although refused"


def _played_or_refused(state: PlayState, order: Order) -> None:
    copy = state.clone()
    before, n = copy.data.to_json(), len(copy.log)
    try:
        copy.apply(order)
    except IllegalOrder:
        assert copy.data.to_json() == before and len(copy.log) == n, f"{order} changed the state although refused"
    else:
        assert len(copy.log) == n + 1


def random_play_keeps_every_guarantee(v: Variant, folder: Path | None = None) -> None:
    """Random legal play of one variant to the end, every guarantee checked (the module's
    list); ``folder`` takes the save files (a temporary folder if None)."""
    if folder is None:
        with tempfile.TemporaryDirectory(prefix="hexwar-conformance-") as tmp:
            return random_play_keeps_every_guarantee(v, Path(tmp))
    info, game = _build(v)
    schemas = game.events or None  # the contract's: empty when the game declares none
    sides = set(info.sides)
    for seed in range(seeds_for(info, v)):
        _one_random_game(info, game, schemas, sides, seed, folder)
    return None


def _one_random_game(info: GameInfo[Any, Any], game: Game[Any], schemas: Any, sides: set[str], seed: int, folder: Path) -> None:
    rng = random.Random(seed)
    state = game.new_state(seed)
    bots = {s: RandomBot(seed * 7 + i) for i, s in enumerate(info.sides)}
    stale: list[Order] = []
    emitted: list[tuple[int, str]] = []  # (log index, events as JSON when they were applied)
    stood: dict[int, str] = {}  # orders played -> the state as JSON then (what undo must give back)
    steps = 0
    while not state.is_over():
        steps += 1
        assert steps < 20_000, "the game does not end"
        side = state.current_side()
        legal = state.legal_orders()
        assert side in sides and legal, (side, legal)
        assert all(o.side == side for o in legal)
        if steps % 3 == 0:
            _offered_and_refused(state, legal, stale, side, rng)
        if steps % 10 == 0:
            stood[len(state.log)] = state.data.to_json()
            back = GameState.from_json(stood[len(state.log)])
            assert type(back) is type(state.data) and back.to_json() == state.data.to_json()
            assert game.legal_orders(back) == legal  # it plays on the same from JSON
        stale += rng.sample(legal, min(2, len(legal)))
        stale = stale[-40:]
        order = bots[side].choose(state, legal)
        events = state.apply(order)
        if schemas is not None:
            for e in events:
                probs = check_event(json.loads(json.dumps(e)), schemas)
                assert not probs, probs
        emitted.append((len(state.log) - 1, json.dumps(events, sort_keys=True)))
        broken = info.broken(game, state.data)
        assert not broken, f"seed {seed}, order {steps} ({order}): {broken[0]}"
    _the_end_holds(info, game, state, seed, stood, emitted, rng, folder)


def _offered_and_refused(state: PlayState, legal: list[Order], stale: list[Order], side: str,
                         rng: random.Random) -> None:
    # offered orders are accepted (on copies, a sample)
    for o in rng.sample(legal, min(3, len(legal))):
        state.clone().apply(o)
    # not offered: refused, the state untouched; a stale order the rules still allow beyond a
    # capped list (``offers``) is either played (on a copy) or refused with the state untouched
    listed = set(legal)
    others = [o for o in stale if o not in listed]
    now = state.data.to_json()  # every refusal below leaves exactly this
    for o in rng.sample(others, min(2, len(others))):
        if state.offers(o):
            _played_or_refused(state, o)
        else:
            _refused_unchanged(state, o, now)
    for o in _junk(side, legal, rng):
        _refused_unchanged(state, o, now)
    # copies are independent both ways
    copy = state.clone()
    copy.apply(rng.choice(legal))
    assert state.data.to_json() == now


def _the_end_holds(info: GameInfo[Any, Any], game: Game[Any], state: PlayState, seed: int, stood: dict[int, str],
                   emitted: list[tuple[int, str]], rng: random.Random, folder: Path) -> None:
    res = state.result()
    assert res.over and (res.winner is None or res.winner in info.sides) and res.level
    # undo gives back the state as it stood, from the data it kept or from the log, however far
    # back (a copy each time: the copies share what undo keeps)
    for at in sorted(stood)[-1:] + rng.sample(sorted(stood), min(3, len(stood))):
        back_to = state.clone()
        back_to.undo(len(state.log) - at)
        assert back_to.data.to_json() == stood[at] and len(back_to.log) == at, f"seed {seed}: undo to {at}"
    assert state.legal_orders() == []
    _refused_unchanged(state, Pass(info.sides[0]))
    # events are snapshots: the log still says what apply said
    for i, text in emitted:
        assert json.dumps(state.log.entries[i].events, sort_keys=True) == text, f"event {i} changed after it was logged"
    # the log replays without an RNG, also after a JSON round trip and through a save
    assert replay(game, state.log).data.to_json() == state.data.to_json()
    assert replay(game, EventLog.from_json(state.log.to_json())).data.to_json() == state.data.to_json()
    path = folder / f"{info.name}-{seed}.hexwar"
    state.attach_save(path)
    assert load_game(game, path).data.to_json() == state.data.to_json()


def fast_play_replays(v: Variant) -> None:
    """``run_fast`` plays the same game for the same seed and bots, and its log replays."""
    info, game = _build(v)
    for seed in range(min(2, info.test_games)):  # a game of one test game (a long one): one seed
        def bots() -> dict[str, RandomBot]:
            return {s: RandomBot(seed * 5 + i) for i, s in enumerate(info.sides)}

        a, log = run_fast(game, seed, bots(), record=True)
        b, _ = run_fast(game, seed, bots())
        assert a.data.to_json() == b.data.to_json()  # the same seed and bots, the same game
        assert log is not None and replay(game, log).data.to_json() == a.data.to_json()


def bot_games(games: Iterable[str] = ()) -> list[tuple[Variant, str]]:
    """Each variant with each of its game's fast bots but the random one."""
    return [(v, kind) for v in variants(games) for kind, bot in sorted(registry.get(v[0]).bots.items())
            if bot.fast and kind != "random"]


def own_bots_keep_invariants(v: Variant, kind: str) -> None:
    """The game's own ``kind`` bots play it twice to the end, the invariants checked after
    every order."""
    info, game = _build(v)
    for seed in range(2):
        orders: list[int] = []
        broken: list[str] = []

        def check(view: Any, events: Any) -> None:
            orders.append(1)
            if not broken:
                broken.extend(f"order {len(orders)}: {b}" for b in info.broken(game, view.data))

        view, _ = run_fast(game, seed, {s: info.bot(kind, s, seed) for s in info.sides}, observe=check)
        assert view.data.over and orders, (seed, len(orders))
        assert not broken, f"{kind} bots, seed {seed}, {broken[0]}"


def declares_events_and_orders(info: GameInfo[Any, Any]) -> None:
    """The game names itself, declares its event schemas, seats known sides and builds every
    bot it lists."""
    g = info.build()
    assert g.name == info.name and g.orders.game == info.name
    assert g.events, f"{info.name} declares no event schemas"
    assert set(info.default_seat and info.seats[info.default_seat]) <= set(info.sides)
    for kind in info.bots:
        assert info.bot(kind, info.sides[0], 1) is not None


def conformance_tests(*games: str) -> dict[str, Callable[..., None]]:
    """The suite as pytest tests over the named games (every registered game if none): a
    test module takes them in with ``globals().update(conformance_tests("mygame"))``."""
    import pytest

    vs = variants(games)
    ids = [variant_id(v) for v in vs]
    bg = bot_games(games)

    @pytest.mark.parametrize("variant", vs, ids=ids)
    def test_random_play_keeps_every_engine_guarantee(variant: Variant, tmp_path: Path) -> None:
        random_play_keeps_every_guarantee(variant, tmp_path)

    @pytest.mark.parametrize("variant", vs, ids=ids)
    def test_run_fast_and_play_state_give_games_that_replay(variant: Variant) -> None:
        fast_play_replays(variant)

    @pytest.mark.parametrize("variant,kind", bg, ids=[variant_id(v, k) for v, k in bg])
    def test_the_games_own_bots_never_break_its_invariants(variant: Variant, kind: str) -> None:
        own_bots_keep_invariants(variant, kind)

    infos = [registry.get(g) for g in games] or registry.games()

    @pytest.mark.parametrize("info", infos, ids=[i.name for i in infos])
    def test_every_game_declares_its_events_and_orders(info: GameInfo[Any, Any]) -> None:
        declares_events_and_orders(info)

    return {f.__name__: f for f in (test_random_play_keeps_every_engine_guarantee,
                                    test_run_fast_and_play_state_give_games_that_replay,
                                    test_the_games_own_bots_never_break_its_invariants,
                                    test_every_game_declares_its_events_and_orders)}
