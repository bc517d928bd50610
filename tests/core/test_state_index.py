"""The state's location and side indexes (issue 17) answer exactly what a scan of every unit
answers, whatever sequence of placements, removals, new units and direct writes came first."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hexwar.core.state import UnitState, Unit

LOCS = ["1810", "1811", "1910", "2010"]
SIDES = ["allies", "germans"]


def scan_at(d: UnitState, loc: str) -> list[str]:
    return sorted(u.id for u in d.units.values() if u.loc == loc)


def scan_on_map(d: UnitState, side: str) -> list[str]:
    return [u.id for u in d.units.values() if u.loc is not None and u.side == side]


step = st.one_of(
    st.tuples(st.just("place"), st.integers(0, 9), st.sampled_from(LOCS)),
    st.tuples(st.just("remove"), st.integers(0, 9), st.just("eliminated")),
    st.tuples(st.just("write"), st.integers(0, 9), st.sampled_from(LOCS + [None])),
    st.tuples(st.just("side"), st.integers(0, 9), st.sampled_from(SIDES)),
    st.tuples(st.just("new"), st.integers(10, 14), st.sampled_from(LOCS)),
    st.tuples(st.just("clone"), st.just(0), st.just("")),
)


@given(st.lists(step, max_size=40))
def test_index_equals_a_scan_of_every_unit(steps):
    d = UnitState(game="test", scenario="s", seed=0)
    for i in range(10):
        d.units[f"u{i}"] = Unit(f"u{i}", "inf", SIDES[i % 2], "n")
    for what, i, arg in steps:
        uid = f"u{i}"
        if what == "place" and uid in d.units:
            d.place(uid, arg)
        elif what == "remove" and uid in d.units:
            d.remove(uid, arg)
        elif what == "write" and uid in d.units:
            d.units[uid].loc = arg
        elif what == "side" and uid in d.units:
            d.units[uid].side = arg
        elif what == "new":
            d.units[uid] = Unit(uid, "inf", "allies", "n", loc=arg, pool=None)
        elif what == "clone":
            old = d
            d = d.clone()
            old.units[next(iter(old.units))].loc = "1810"  # the original changing leaves the copy alone
        for loc in LOCS:
            assert [u.id for u in d.at(loc)] == scan_at(d, loc)
        for side in SIDES:
            assert [u.id for u in d.on_map(side)] == scan_on_map(d, side)
            assert d.occupied_by(side) == {d.units[x].loc for x in scan_on_map(d, side)}
            assert [u.id for u in d.side_units(side)] == scan_on_map(d, side)
        assert set(d.sides_on_map()) == {u.side for u in d.units.values() if u.loc is not None}


def test_on_map_while_the_caller_removes_units_gives_what_a_scan_gives():
    """A loop that removes (or places) units as it goes sees each unit as a scan would."""
    d = UnitState(game="test", scenario="s", seed=0)
    for i in range(6):
        d.units[f"u{i}"] = Unit(f"u{i}", "inf", "allies", "n", loc="1810", pool=None)
    d.units["u5"].loc = None
    seen = []
    for u in d.on_map("allies"):
        seen.append(u.id)
        if u.id == "u0":
            d.remove("u3", "eliminated")  # not reached yet: a scan no longer yields it
            d.place("u5", "1811")  # later in the dict: a scan yields it
    assert seen == ["u0", "u1", "u2", "u4", "u5"]
