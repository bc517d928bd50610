"""The random bot: uniform over the order kinds offered, then uniform within the kind (its
docstring's rule, which keeps random games from drowning in moves; every seeded random game's
digest rests on it)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import ClassVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.ai.random_bot import RandomBot
from hexwar.core.orders import (
    Menu,
    Move,
    Order,
    OrderList,
    Pass,
    order_kinds,
    orders_of_kind,
)


@dataclass(frozen=True)
class Sail(Order):
    kind: ClassVar[str] = "naval_move"
    to: str = ""


@dataclass(frozen=True)
class SailAsGroup(Sail):
    """A second class of the same kind."""


def test_random_bot_picks_kinds_evenly_however_many_orders_each_has() -> None:
    legal = [Pass("allies")] + [Move("allies", f"u{i}", ("0101", "0102")) for i in range(300)]
    bot = RandomBot(3)
    picks = [bot.choose(None, legal).kind for _ in range(2000)]
    assert 850 < picks.count("pass") < 1150  # 1 order of 301, yet about half the draws


def test_random_bot_pools_the_classes_of_one_kind_and_draws_evenly_within_it() -> None:
    legal: list[Order] = [Pass("allies"), Sail("allies", "a"), Sail("allies", "b"), SailAsGroup("allies", "c")]
    bot = RandomBot(11)
    picks = Counter(bot.choose(None, legal) for _ in range(3000))
    assert 1350 < picks[legal[0]] < 1650  # two kinds, not three classes: pass about half the time
    for o in legal[1:]:
        assert 400 < picks[o] < 600  # each naval move about a third of the other half


def test_random_bot_is_seeded() -> None:
    legal = [Pass("allies")] + [Move("allies", f"u{i}", ("0101", "0102")) for i in range(50)]
    a, b = RandomBot(5), RandomBot(5)
    assert [a.choose(None, legal) for _ in range(50)] == [b.choose(None, legal) for _ in range(50)]


def test_random_bot_refuses_an_empty_list() -> None:
    with pytest.raises(ValueError, match="no legal orders"):
        RandomBot(1).choose(None, [])


# --- an OrderList's parts (issue 17): the same draws as a pass over every order ---------------

def _orders() -> st.SearchStrategy[list[tuple[str | None, list[Order]]]]:
    """Parts of a list of orders: each labelled with its kind, or None and of mixed kinds."""
    order = st.one_of(st.builds(Pass, st.just("allies")),
                      st.builds(Move, st.just("allies"), st.sampled_from(["1SG", "2SG"]), st.just(("0101", "0102"))),
                      st.builds(Sail, st.just("allies"), st.sampled_from("ab")),
                      st.builds(SailAsGroup, st.just("allies"), st.sampled_from("cd")))
    same = st.sampled_from([Pass("allies"), Move("allies", "1SG", ("0101", "0102")), Sail("allies", "a")]).flatmap(
        lambda o: st.lists(st.just(o), max_size=4).map(lambda os: (o.kind, os)))
    mixed = st.lists(order, max_size=4).map(lambda os: (None, os))
    return st.lists(st.one_of(same, mixed), max_size=6)


@given(parts=_orders(), seed=st.integers(0, 10**6))
@settings(max_examples=150, deadline=None)
def test_an_order_lists_kinds_and_draws_are_those_of_the_plain_list(parts, seed) -> None:
    legal = OrderList()
    for kind, orders in parts:
        legal.add(orders, kind)
    plain = list(legal)
    assert plain == [o for _, os in parts for o in os]
    assert order_kinds(legal) == order_kinds(plain) == sorted({o.kind for o in plain})
    for kind in order_kinds(legal):
        of = orders_of_kind(legal, kind)
        assert list(of) == [o for o in plain if o.kind == kind]
        assert [of[i] for i in range(-len(of), len(of))] == [o for o in plain if o.kind == kind] * 2
    if plain:
        a, b = RandomBot(seed), RandomBot(seed)
        assert [a.choose(None, legal) for _ in range(5)] == [b.choose(None, plain) for _ in range(5)]


def test_an_order_list_joined_from_others_keeps_their_parts_and_a_change_drops_them() -> None:
    moves = OrderList()
    moves.add([Move("allies", "1SG", ("0101", "0102"))], "move")
    legal = OrderList([Pass("allies")])
    legal.join(moves)
    legal.join([Sail("allies", "a"), Pass("allies")])  # a plain list: a part of mixed kinds
    assert legal.parts == [(None, [Pass("allies")]), ("move", moves), (None, [Sail("allies", "a"), Pass("allies")])]
    assert list(orders_of_kind(legal, "pass")) == [Pass("allies"), Pass("allies")]
    for change in (lambda x: x.append(Pass("germans")), lambda x: x.sort(key=str), lambda x: x.__setitem__(0, Pass("x")),
                   lambda x: x.__iadd__([Pass("x")]), lambda x: x.pop(), lambda x: x.reverse()):
        copy = OrderList()
        copy.join(legal)
        change(copy)
        assert copy.parts is None  # read as a plain list from now on
        assert order_kinds(copy) == sorted({o.kind for o in copy})
        assert list(orders_of_kind(copy, "pass")) == [o for o in copy if o.kind == "pass"]


# --- a Menu (issue 17): the kinds and draws of the whole list, working out only what is read ---

def _menu(parts: list[tuple[str | None, list[Order]]], deferred: list[bool], log: list[int]) -> Menu:
    """A menu of ``parts``: a run of labelled parts marked in ``deferred`` is one deferred part
    (its kinds those its chunks have); ``log`` records each chunk as it is worked out."""
    menu = Menu()
    run: list[tuple[int, str, list[Order]]] = []

    def flush() -> None:
        if run:
            chunks = list(run)

            def gen():  # type: ignore[no-untyped-def]
                for i, kind, orders in chunks:
                    log.append(i)
                    yield kind, orders
            menu.defer({k for _, k, _ in chunks} | {"pass"}, gen())  # a kind it may hold and does not
            run.clear()

    for i, ((kind, orders), lazy) in enumerate(zip(parts, deferred)):
        if lazy and kind is not None:
            run.append((i, kind, orders))
            continue
        flush()
        menu.add(orders, kind)
    flush()
    return menu


@given(parts=_orders(), deferred=st.lists(st.booleans(), min_size=6, max_size=6), seed=st.integers(0, 10**6))
@settings(max_examples=150, deadline=None)
def test_a_menu_gives_the_kinds_orders_and_draws_of_the_whole_list(parts, deferred, seed) -> None:
    legal = OrderList()
    for kind, orders in parts:
        legal.add(orders, kind)
    plain = list(legal)
    log: list[int] = []
    menu = _menu(parts, deferred, log)
    assert menu.kinds() == order_kinds(legal)
    for kind in order_kinds(legal) + ["no such kind"]:
        assert list(orders_of_kind(_menu(parts, deferred, []), kind)) == list(orders_of_kind(legal, kind))
    assert menu.orders() == plain and bool(_menu(parts, deferred, [])) == bool(plain)
    assert [o for _, os in menu.orders().parts for o in os] == plain  # type: ignore[union-attr]
    if plain:
        a, b = RandomBot(seed), RandomBot(seed)
        assert [a.choose(None, _menu(parts, deferred, [])) for _ in range(5)] == [b.choose(None, plain) for _ in range(5)]


def test_a_menu_works_a_deferred_part_out_only_as_far_as_a_question_needs() -> None:
    worked: list[str] = []

    def units():  # type: ignore[no-untyped-def]
        for u in ("1SG", "2SG", "3SG"):
            worked.append(u)
            yield "move", [Move("allies", u, ("0101", "0102"))] if u != "1SG" else []  # an empty chunk is skipped
            yield "exit", [Exit("allies", u)] if u == "3SG" else []

    def menu(knows=None):  # type: ignore[no-untyped-def]
        worked.clear()
        m = Menu()
        m.add([Pass("allies")], "pass")
        m.defer(["move", "exit"], units(), knows)
        return m

    m = menu()
    assert order_kinds(m) == ["exit", "move", "pass"] and worked == ["1SG", "2SG", "3SG"]  # an exit is the last unit's
    m = menu(lambda kind: True if kind == "exit" else None)  # knows there is an exit: only a move is looked for
    assert order_kinds(m) == ["exit", "move", "pass"] and worked == ["1SG", "2SG"]
    m = menu(lambda kind: False if kind == "exit" else None)
    assert order_kinds(m) == ["move", "pass"] and worked == ["1SG", "2SG"]
    assert list(orders_of_kind(m, "pass")) == [Pass("allies")] and worked == ["1SG", "2SG"]  # not a part of its kinds
    assert [o.unit for o in orders_of_kind(m, "move")] == ["2SG", "3SG"] and worked == ["1SG", "2SG", "3SG"]
    assert bool(menu()) and worked == []  # a pass before it: nothing worked out


@pytest.mark.parametrize("read", [Menu.kinds, Menu.orders, lambda m: m.of_kind("move")])
def test_a_deferred_part_that_lists_a_kind_it_did_not_declare_is_refused(read) -> None:  # type: ignore[no-untyped-def]
    m = Menu()
    m.defer(["move"], iter([("exit", [Exit("allies", "1SG")]), ("move", [Move("allies", "1SG", ("0101", "0102"))])]))
    with pytest.raises(ValueError, match="'exit' orders, not one of its kinds"):
        read(m)


@dataclass(frozen=True)
class Exit(Order):
    kind: ClassVar[str] = "exit"
    unit: str = ""
