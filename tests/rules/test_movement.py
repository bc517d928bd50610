"""Land movement: 14.0-14.2 and the ZoC exit costs of 12.1."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from hexwar.board import HexBoard
from hexwar.board.generate import random_hex_spec
from hexwar.rules.movement import (
    MoveQuery,
    explain_path,
    path_mp,
    compiled,
    reach,
    reach_reference,
    region_of,
    step_cost,
)
from hexwar.rules.zoc import projects_into
from hexwar.games.common import narvik_rules as NR
from tests.conftest import F, hex_board

GOLDEN = Path(__file__).parent.parent / "golden" / "reach_counts.json"


def R(board, tables, start, mp, mclass="leg", weather="winter", **kw):
    return reach(board, tables.terrain, weather, mclass, start, MoveQuery(F(mp), **kw))


def test_14_2_road_rate_only_along_a_connecting_road(board, tables):
    r = R(board, tables, "1710", 1)
    assert r.mp_left["1810"] == F(1, 2) and r.mp_left["1910"] == 0
    assert r.path("1910") == ["1710", "1810", "1910"]
    # 1710 -> 1711 has no road: full clear cost
    assert r.mp_left["1711"] == 0
    # 2306-2307 are adjacent but not joined by a road (14.2)
    assert step_cost(board, tables.terrain, "winter", "leg", "2306", "2307") == 1


def test_14_1_minimum_move_into_a_mountain(board, tables):
    # 14.1: a British bn (MA 3) may enter a mountain hex in Winter although it costs 4 MP
    assert step_cost(board, tables.terrain, "winter", "leg", "1913", "1914") == 4
    r = R(board, tables, "1913", 3)
    assert "1914" in r and r.mp_left["1914"] == 0 and "1914" in r.min_move
    # ...but not two hexes, and not into prohibited terrain
    assert "1504" not in R(board, tables, "1604", 3)  # sea


def test_14_1_minimum_move_never_into_a_prohibited_hex(board, tables):
    # 16.1: artillery may not enter a mountain hex except by road, even as a one-hex move
    r = R(board, tables, "1911", 3, "heavy")
    assert "2011" not in r and "2012" not in r
    r2 = R(board, tables, "1910", 3, "heavy")
    assert r2.mp_left["2010"] == F(5, 2)  # along the road 1910-2010


def test_16_1_river_hexsides_prohibited_to_artillery_and_tanks_but_not_infantry(board, tables):
    assert step_cost(board, tables.terrain, "winter", "heavy", "2008", "2009") is None
    assert step_cost(board, tables.terrain, "winter", "tank", "2008", "2009") is None
    assert step_cost(board, tables.terrain, "winter", "leg", "2008", "2009") == 2


def test_good_weather_section_after_thaw(board, tables):
    assert step_cost(board, tables.terrain, "winter", "leg", "1913", "1914") == 4
    assert step_cost(board, tables.terrain, "good", "leg", "1913", "1914") == 3


def test_14_1_never_into_enemy_occupied(board, tables):
    r = R(board, tables, "1710", 3, blocked=frozenset({"1810", "1711"}))
    assert "1810" not in r and "1711" not in r
    # not even as the one-hex minimum
    r = R(board, tables, "1913", 3, blocked=frozenset({"1914"}))
    assert "1914" not in r


def test_12_1_leaving_zoc_costs(tables):
    b = hex_board()
    zoc = frozenset({"0303", "0304"})
    # German/Norwegian infantry: +1 per ZoC hex left (0303 -> 0304 -> 0305 pays twice)
    r = reach(b, tables.terrain, "winter", "leg", "0303", MoveQuery(F(4), zoc=zoc, zoc_exit=F(1)))
    assert r.mp_left["0304"] == 2  # 1 to enter + 1 to leave 0303
    assert r.mp_left["0203"] == 2
    # other units +2
    r = reach(b, tables.terrain, "winter", "leg", "0303", MoveQuery(F(4), zoc=zoc, zoc_exit=F(2)))
    assert r.mp_left["0203"] == 1
    # tanks free
    r = reach(b, tables.terrain, "winter", "tank", "0303", MoveQuery(F(4), zoc=zoc, zoc_exit=F(0)))
    assert r.mp_left["0203"] == 3
    # no stop on entering a ZoC (A19): in a one-hex-wide corridor a unit moves through it
    corridor = hex_board(columns=(1, 1), rows=(1, 5))
    r = reach(corridor, tables.terrain, "winter", "leg", "0101", MoveQuery(F(4), zoc=frozenset({"0103"}), zoc_exit=F(1)))
    assert r.path("0104") == ["0101", "0102", "0103", "0104"] and r.mp_left["0104"] == 0
    assert "0105" not in r


def test_a19_minimum_move_overrides_zoc_exit_cost(tables):
    b = hex_board()
    zoc = frozenset({"0303"})
    r = reach(b, tables.terrain, "winter", "leg", "0303", MoveQuery(F(1), zoc=zoc, zoc_exit=F(2)))
    assert set(r.destinations()) == set(b.neighbours("0303")) and r.min_move == frozenset(r.destinations())


def test_12_1_artillery_leaves_zoc_only_with_friendly_infantry(tables):
    b = hex_board()
    zoc = frozenset({"0303", "0304"})
    q = dict(zoc=zoc, zoc_exit=F(2), artillery=True)
    # no friendly infantry in its hex: it may not leave at all
    r = reach(b, tables.terrain, "winter", "heavy", "0303", MoveQuery(F(6), **q))
    assert r.destinations() == []
    # friendly infantry in its hex: it may leave to a hex outside ZoC, not into 0304 (ZoC, no inf)
    r = reach(b, tables.terrain, "winter", "heavy", "0303", MoveQuery(F(6), friendly_inf=frozenset({"0303"}), **q))
    assert r.mp_left["0203"] == 3
    if "0304" in r:  # never by the direct step out of ZoC into ZoC without infantry
        assert len(r.path("0304")) > 2
    # ...or into a ZoC hex that holds friendly infantry
    r = reach(b, tables.terrain, "winter", "heavy", "0303", MoveQuery(F(6), friendly_inf=frozenset({"0303", "0304"}), **q))
    assert r.path("0304") == ["0303", "0304"]


def test_fractions_are_kept_with_halved_mp(board, tables):
    # Europa E4: halved ratings keep fractions; 3/2 MP = three road hexsides at 1/2
    r = R(board, tables, "1710", F(3, 2))
    assert r.mp_left["2010"] == 0 and r.path("2010") == ["1710", "1810", "1910", "2010"]


def test_explain_path_ledger(board, tables):
    led = explain_path(board, tables.terrain, "winter", "leg", ["1710", "1810", "1910", "1911"], MoveQuery(F(3), zoc=frozenset({"1910"}), zoc_exit=F(1)), NR.MOVE)
    text = led.render()
    assert "road 1710-1810" in text and "[14.2]" in text and "leave enemy ZoC at 1910" in text and "[12.1]" in text
    assert led.total == F(1, 2) + F(1, 2) + 1 + 1


def test_explain_path_refuses_prohibited(board, tables):
    led = explain_path(board, tables.terrain, "winter", "heavy", ["2008", "2009"], MoveQuery(F(3)), NR.MOVE)
    assert led.total is None and "river" in led.render()


def test_path_cost_is_sum_of_steps(board, tables):
    r = R(board, tables, "1710", 4)
    for d in r.destinations():
        if d in r.min_move:
            continue
        p = r.path(d)
        cost = explain_path(board, tables.terrain, "winter", "leg", p, MoveQuery(F(4)), NR.MOVE).total
        assert cost == 4 - r.mp_left[d]


@given(st.integers(0, 100_000), st.sampled_from(["leg", "heavy", "tank"]), st.integers(1, 8), st.booleans())
def test_fast_reach_equals_networkx_reference(seed, mclass, mp, art):
    import random

    from hexwar.data.loader import default_library
    from hexwar.data.tables import TerrainChart

    chart = TerrainChart.from_spec(default_library().load("tables", "fixtures/terrain"))
    b = HexBoard(random_hex_spec(seed, 12, 10))
    rng = random.Random(seed)
    hs = list(b.hexes())
    start = rng.choice(hs)
    enemies = frozenset(rng.sample(hs, 6)) - {start}
    zoc = frozenset(n for e in enemies for n in projects_into(b, e))
    finf = frozenset(rng.sample(hs, 10))
    q = MoveQuery(F(mp, rng.choice([1, 2])), zoc, enemies, F(rng.choice([0, 1, 2])), art and mclass == "heavy", finf)
    fast = reach(b, chart, "winter", mclass, start, q)
    ref = reach_reference(b, chart, "winter", mclass, start, q)
    assert fast.mp_left == ref


@given(st.integers(0, 100_000), st.sampled_from(["leg", "heavy", "tank"]), st.integers(1, 8), st.booleans(),
       st.sampled_from(["winter", "good"]))
def test_14_1_12_1_every_reach_lies_in_the_region_of_the_empty_map(seed, mclass, mp, art, weather):
    """``region_of`` bounds a unit's destinations whatever stands on the map: enemy units, their
    ZoC (12.1, its exit cost and artillery's condition) and the minimum move (14.1) only ever
    take locations away from what the unit's MP covers on an empty map (the priority bot's
    ``move_bound`` rests on it)."""
    import random

    from hexwar.data.loader import default_library
    from hexwar.data.tables import TerrainChart

    chart = TerrainChart.from_spec(default_library().load("tables", "fixtures/terrain"))
    b = HexBoard(random_hex_spec(seed, 12, 10))
    rng = random.Random(seed)
    hs = list(b.hexes())
    start = rng.choice(hs)
    enemies = frozenset(rng.sample(hs, rng.randrange(0, 8))) - {start}
    zoc = frozenset(n for e in enemies for n in projects_into(b, e))
    q = MoveQuery(F(mp, rng.choice([1, 2])), zoc, enemies, F(rng.choice([0, 1, 2])), art and mclass == "heavy",
                  frozenset(rng.sample(hs, 10)))
    cm = compiled(b, chart, weather, mclass)
    region = {cm.locs[i] for i in region_of(cm, start, q.mp, q.zoc_exit)}
    got = reach(b, chart, weather, mclass, start, q, cm)
    assert set(got.mp_left) <= region and start in region
    empty = reach(b, chart, weather, mclass, start, MoveQuery(q.mp, zoc_exit=q.zoc_exit))
    assert set(empty.mp_left) <= region  # and it is no wider than the empty map's reach and the start's neighbours
    assert region <= set(empty.mp_left) | set(b.neighbours(start)) | {start}


@given(st.integers(0, 100_000), st.sampled_from(["leg", "heavy", "tank"]), st.integers(1, 6), st.booleans(),
       st.sampled_from(["winter", "good"]), st.booleans())
def test_14_0_path_mp_is_the_ledgers_total(seed, mclass, mp, art, weather, min_move):
    """Applying a move costs it with path_mp, the ledger's arithmetic without its text: on
    random walks through random enemies and ZoC (12.1, 14.1, the minimum move), the same
    total, and None exactly where explain_path refuses a step."""
    import random

    from hexwar.data.loader import default_library
    from hexwar.data.tables import TerrainChart
    chart = TerrainChart.from_spec(default_library().load("tables", "fixtures/terrain"))
    b = HexBoard(random_hex_spec(seed, 12, 10))
    rng = random.Random(seed)
    hs = list(b.hexes())
    path = [rng.choice(hs)]
    for _ in range(rng.randint(1, 5)):
        path.append(rng.choice(list(b.neighbours(path[-1]))))
    enemies = frozenset(rng.sample(hs, 8)) - {path[0]}
    zoc = frozenset(n for e in enemies for n in projects_into(b, e))
    finf = frozenset(rng.sample(hs, 20))
    q = MoveQuery(F(mp, rng.choice([1, 2])), zoc, enemies, F(rng.choice([0, 1, 2])), art and mclass == "heavy", finf, min_move)
    assert path_mp(b, chart, weather, mclass, path, q) == explain_path(b, chart, weather, mclass, path, q, NR.MOVE).total


def test_14_1_path_mp_of_the_minimum_move_is_the_whole_allowance(board, tables):
    """14.1: a British battalion (MA 3) enters a 4 MP mountain hex as its one-hex minimum
    move and spends its 3 MP, as the ledger says; without the minimum move it may not."""
    q = MoveQuery(F(3))
    assert path_mp(board, tables.terrain, "winter", "leg", ["1913", "1914"], q) == 3
    assert explain_path(board, tables.terrain, "winter", "leg", ["1913", "1914"], q, NR.MOVE).total == 3
    q2 = MoveQuery(F(3), min_move=False)
    assert path_mp(board, tables.terrain, "winter", "leg", ["1913", "1914"], q2) == 4  # over MP: the caller refuses it


def golden_cases(board, tables):
    cases = {}
    for mclass in ("leg", "heavy", "tank"):
        for start in ("1710", "1913", "2008", "2209", "1612"):
            for mp in (1, 2, 3, 4, 6):
                cases[f"{mclass} {start} {mp}"] = len(R(board, tables, start, mp, mclass).destinations())
    return cases


def test_golden_reachability_counts(board, tables):
    """perft-style counts on the fixture map; a change here is a reviewed change of rules or map."""
    got = golden_cases(board, tables)
    want = json.loads(GOLDEN.read_text())
    assert got == want


def test_golden_small_counts_by_hand(tables):
    # on an open clear 7x7 board, MP n reaches exactly the 3n(n+1) hexes within n
    b = hex_board(columns=(1, 9), rows=(1, 9))
    for n in (1, 2, 3):
        assert len(reach(b, tables.terrain, "winter", "leg", "0505", MoveQuery(F(n))).destinations()) == 3 * n * (n + 1)
    # a forest ring at distance 1 (2 MP each): with 2 MP the unit reaches only the ring
    ring = {h: "forest" for h in b.neighbours("0505")}
    b2 = hex_board(columns=(1, 9), rows=(1, 9), terrain=ring)
    r = reach(b2, tables.terrain, "winter", "leg", "0505", MoveQuery(F(2)))
    assert set(r.destinations()) == set(ring)
    # with 1 MP it still reaches the ring, as one-hex minimum moves (14.1)
    r = reach(b2, tables.terrain, "winter", "leg", "0505", MoveQuery(F(1)))
    assert set(r.destinations()) == set(ring) == set(r.min_move)


_CACHE_BOARD = HexBoard(random_hex_spec(7, 14, 12))


@given(st.integers(0, 100_000), st.sampled_from(["leg", "heavy"]), st.integers(1, 5), st.booleans())
def test_14_1_reach_cached_by_neighbourhood_equals_a_fresh_search(seed, mclass, mp, art):
    """Enemies and friends outside a unit's region do not change its reach (14.1, 12.1):
    the cached answer is the reference answer whatever else changed on the board."""
    import random

    from hexwar.data.loader import default_library
    from hexwar.data.tables import TerrainChart
    from hexwar.rules.movement import compiled

    chart = TerrainChart.from_spec(default_library().load("tables", "fixtures/terrain"))
    b = _CACHE_BOARD
    rng = random.Random(seed)
    hs = sorted(b.hexes())
    start = rng.choice(hs)
    cm = compiled(b, chart, "winter", mclass)
    near = sorted(cm.locs[i] for i in cm.region(cm.index[start], mp * cm.scale, 0))
    far = [h for h in hs if h not in near]
    enemies = frozenset(rng.sample(hs, 8)) - {start}
    finf = frozenset(rng.sample(hs, 12))
    zoc = frozenset(n for e in enemies for n in projects_into(b, e))
    first = MoveQuery(F(mp), zoc, enemies, F(1), art and mclass == "heavy", finf)
    r1 = reach(b, chart, "winter", mclass, start, first)
    assert r1.mp_left == reach_reference(b, chart, "winter", mclass, start, first)
    # move the enemies far away about, and the friends: the same Reach comes back, and it is right
    moved = (enemies - set(far)) | frozenset(rng.sample(far, min(3, len(far))))
    zoc2 = frozenset(n for e in moved for n in projects_into(b, e))
    second = MoveQuery(F(mp), zoc2, moved, F(1), first.artillery, (finf - set(far)) | frozenset(far[:2]))
    r2 = reach(b, chart, "winter", mclass, start, second)
    assert r2.mp_left == reach_reference(b, chart, "winter", mclass, start, second)
    if (zoc2 & set(near)) == (zoc & set(near)):
        assert r2 is r1
    # every path built in one pass is the path walked back from its location
    assert r1.paths() == {loc: tuple(r1.path(loc)) for loc in r1.mp_left}


def test_14_1_passable_is_step_cost_not_none():
    """movement.passable (what retreats and assaults read) is step_cost's answer, kept."""
    from hexwar.data.loader import default_library
    from hexwar.data.tables import TerrainChart
    from hexwar.rules.movement import passable, step_cost

    chart = TerrainChart.from_spec(default_library().load("tables", "fixtures/terrain"))
    b = _CACHE_BOARD
    for mclass in ("leg", "heavy"):
        steps = passable(b, chart, "winter", mclass)
        for a in b.locations():
            assert steps[a] == {x for x in b.neighbours(a) if step_cost(b, chart, "winter", mclass, a, x) is not None}


@given(st.integers(0, 100_000), st.integers(1, 5))
def test_14_1_every_class_and_weather_reads_one_conversion_of_the_same_sets(seed, mp):
    """A listing asks for units of several movement classes with the same ZoC, enemy and
    friendly-infantry sets: the board's compiled maps share one conversion of them, and each
    class's reach (given its compiled map, as a listing does) is still the reference answer."""
    import random

    from hexwar.data.loader import default_library
    from hexwar.data.tables import TerrainChart
    from hexwar.rules.movement import compiled

    chart = TerrainChart.from_spec(default_library().load("tables", "fixtures/terrain"))
    b = _CACHE_BOARD
    rng = random.Random(seed)
    hs = sorted(b.hexes())
    enemies = frozenset(rng.sample(hs, 8))
    zoc = frozenset(n for e in enemies for n in projects_into(b, e))
    finf = frozenset(rng.sample(hs, 12))
    maps = [(w, c, compiled(b, chart, w, c)) for w in ("winter", "good") for c in ("leg", "heavy", "tank")]
    assert len({id(cm._ctx) for _, _, cm in maps}) == 1
    for weather, mclass, cm in maps:
        start = rng.choice([h for h in hs if h not in enemies])
        q = MoveQuery(F(mp), zoc, enemies, F(1), mclass == "heavy", finf)
        r = reach(b, chart, weather, mclass, start, q, cm)
        assert r.mp_left == reach_reference(b, chart, weather, mclass, start, q)
