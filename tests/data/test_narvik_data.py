"""The Assault on Narvik order of battle (27.0, 28.0, 30.0) and our charts against every stated fact."""

from __future__ import annotations

from collections import Counter

import pytest

from hexwar.core.state import UnitState, Unit
from hexwar.data.loader import default_library
from hexwar.scenario import load_scenario
from hexwar.data.tables import DieTable
from hexwar.rules import stacking
from hexwar.rules.combat import diff_outcomes
from hexwar.rules.movement import step_cost

LIB = default_library()


@pytest.fixture(scope="module")
def sc():
    return load_scenario("narvik/scenario")


def units(sc, **kw):
    return [u for u in sc.oob.units if all(getattr(u, k) == v for k, v in kw.items())]


def kinds(sc, us):
    return Counter(sc.tables.types[u.type].kind if sc.tables.types[u.type].kind != "ship" else u.type for u in us)


def test_27_0_initial_deployment(sc):
    t1 = [u for u in sc.oob.units if u.turn == 1 and u.pool is None]
    navy = Counter(u.type for u in t1 if sc.tables.types[u.type].kind == "ship")
    assert navy == {"BB": 1, "CL": 2, "DD": 2, "LC": 1, "Puffer": 1}
    guards = units(sc, formation="24 Gds", turn=1)
    assert len(guards) == 3 and {u.name for u in guards} == {"1st Scots Guards", "1st Irish Guards", "2nd South Wales Borderers"}
    assert len(units(sc, formation="6 Bde")) == 3 and len(units(sc, formation="7 Bde")) == 2
    nor_art = [u for u in t1 if u.nation == "norwegian" and sc.tables.types[u.type].is_artillery]
    assert len(nor_art) == 1
    ger = [u for u in t1 if u.side == "germans"]
    assert sum(1 for u in ger if u.type == "ger_km_bn" and not u.formation) == 4
    for bn in ("I/139", "II/139", "III/139"):
        coys = units(sc, formation=bn)
        assert len(coys) == 3 and all(sc.tables.types[u.type].size == "company" for u in coys)
    assert sum(1 for u in ger if u.type == "dummy") == 5 == sc.oob.dummies["germans"]  # 11.1


def test_28_0_reinforcement_schedule(sc):
    t2 = [u for u in sc.oob.units if u.turn == 2]
    assert {u.nation for u in t2} == {"british"}
    assert Counter(sc.tables.types[u.type].kind for u in t2) == {"tank": 1, "artillery": 2}
    t3 = [u for u in sc.oob.units if u.turn == 3]
    fr = [u for u in t3 if u.nation == "french"]
    assert len(units(sc, formation="27 DBCA", turn=3)) == 3 and len(units(sc, formation="13 DBLE", turn=3)) == 2
    assert Counter(sc.tables.types[u.type].kind for u in fr if not u.formation) == {"artillery": 2, "tank": 2}
    assert len([u for u in t3 if u.nation == "polish"]) == 4
    assert not [u for u in sc.oob.units if u.turn > 3]


def test_30_0_reinforcement_counters(sc):
    pool = [u for u in sc.oob.units if u.pool == "german_reinforcements"]
    assert {sc.tables.types[u.type].kind for u in pool} == {"infantry", "paratroop"}
    assert all(sc.tables.types[u.type].size == "company" for u in pool)


def test_31_0_formations_named_by_the_redeployment_table_exist(sc):
    t = DieTable.from_spec(LIB.load("tables", "narvik/british-redeployments"))
    for face in range(1, 7):
        res = t.lookup((face,))
        if "formation" in res:
            assert units(sc, formation=res["formation"])
    assert t.lookup((6,)) == {"ships": {"CL": 1}, "once": False, "returns": False}  # A40


def test_5_1_default_setup_respects_the_bands_and_stacking(sc):
    b = sc.board
    st = UnitState("narvik", sc.spec.name, 0)
    for u in sc.oob.units:
        st.units[u.id] = Unit(u.id, u.type, u.side, u.nation, u.formation, u.name)
    for s in sc.spec.setup:
        st.place(s.unit, s.at)
        u = st.units[s.unit]
        if u.nation == "norwegian":
            assert s.at in b.regions["norwegian_setup"], s
        elif u.side == "germans":
            assert s.at in b.regions["german_setup"] and s.concealed, s
        else:
            assert s.at == "harstad", s
    assert stacking.violations(b, st, sc.tables) == []
    ids = {s.unit for s in sc.spec.setup}
    assert ids == {u.id for u in sc.oob.units if u.turn == 1 and u.pool is None}


def test_t2_terrain_chart_stated_facts(sc):
    chart, b = sc.tables.terrain, sc.board
    w = chart.section("winter")
    assert w.terrain["mountain"].cost("leg") == 4  # 14.1: British bn, MA 3, mountain 4 in winter
    assert sc.tables.types["brit_bn"].mp == 3
    for weather in ("winter", "good"):
        sec = chart.section(weather)
        for mc in ("heavy", "tank"):  # 16.1, 16.2: no mountains, no rivers except by road
            assert sec.terrain["mountain"].cost(mc) is None and sec.hexsides["river"].cost(mc) is None
            assert sec.road.cost(mc) is not None
        for mc in chart.movement_classes:  # 13.1: land units never enter all-sea or cross fjords
            assert sec.terrain["sea"].cost(mc) is None and sec.hexsides["fjord"].cost(mc) is None
    # every terrain code of the map is on the chart
    assert {b.terrain(h) for h in b.hexes()} <= set(chart.terrain_classes)
    # 14.2 on the real map: along the road from Bjerkvik north the road rate applies
    road = [(a, c) for a in b.hexes() for c in b.neighbours(a) if b.border(a, c).has("road") and b.terrain(c) == "mountain"]
    for a, c in road[:3]:
        assert step_cost(b, chart, "winter", "heavy", a, c) == w.road.cost("heavy")


def test_t4_fatigue_table_stated_facts(sc):
    f = sc.tables.fatigue
    assert f.fp("crt_point") == 6 and f.source("crt_point") == "rules 15.2"
    assert f.fp("advance") == -1 and f.fp("unsupplied_attacked") == 6
    assert f.fp("air_interdiction_per_point") == 2 and f.fp("art_interdiction_per_strength") == 2
    assert f.fp("naval_interdiction_per_strength") == 2
    assert f.recovery_at_limit[0] == 4 and f.recovery_other[0] == 8
    assert f.fp("amphibious_assault") > f.fp("amphibious_landing") > 0  # 20.3.1
    for cause in ("movement_action", "assault", "retreat_hex", "amphibious_landing", "amphibious_assault"):
        assert f.fp(cause) > 0
    for u in sc.tables.types.values():  # 16.1, 16.2: tanks and artillery never take FP
        if u.is_tank or u.is_artillery:
            assert not u.infantry


def test_t5_crt_stated_facts(sc):
    crt = sc.tables.crt
    assert crt.drm("attacking_tank") == 1 and crt.drm("defending_tank") == -1  # 16.2
    assert crt.drm("formation") == 1 and crt.drm("artillery_alone") == 2  # 17.0, 16.1
    assert crt.drm("bad_weather_narvik") < 0
    # more differential is never worse for the attacker: expected points shift his way
    prev = None
    for ad in range(-6, 14):
        d = diff_outcomes(crt, ad)
        score = sum(p * (dd - a) for (a, dd), p in d)
        assert prev is None or score >= prev
        prev = score


def test_t6_air_table_stated_facts():
    air = LIB.load("tables", "narvik/air")
    assert air.columns[0].ap_min == 1 and air.columns[-1].ap_max == 30  # 18.1: max 30 AP
    for c in air.columns:
        assert set(c.naval) <= {0, 1, 2}
        assert c.infantry == sorted(c.infantry) and c.naval == sorted(c.naval)
    assert set(air.drms) == {"bad_weather_narvik", "allied_base", "mas"}
    assert all(d.value < 0 for d in air.drms.values())  # Base and MAS favour the Allies


def test_t7_naval_table_agrees_with_the_ship_counters(sc):
    nav = LIB.load("tables", "narvik/naval")
    for ship, row in nav.rows.items():
        t = sc.tables.types[ship]
        extra = row.model_extra
        assert (t.transport, t.bombard, t.bombard_range) == (extra["transport"], extra["bombard"], extra["bombard_range"]), ship
    assert nav.rows["BB"].model_extra["transport"] == 0  # 20.2: BB carries nothing
    assert "tank" in nav.rows["LC"].model_extra["carries"]
    assert {"fjord_crossing", "base"} <= set(nav.rows["Puffer"].model_extra["special"])  # 20.6


def test_t1_t3_die_tables():
    weather = DieTable.from_spec(LIB.load("tables", "narvik/weather"))
    results = {weather.lookup((a, b)) for a in range(1, 7) for b in range(1, 7)}
    assert {"bad_trondheim", "bad_narvik", "thaw"} <= results  # 7.0
    ev = DieTable.from_spec(LIB.load("tables", "narvik/random-events"))
    res = Counter(ev.lookup((a, b)) for a in range(1, 7) for b in range(1, 7))
    assert res["none"] > 18  # 8.0: 'No event' is frequent
    assert res["german_reinforcements"] and res["allied_redeployment"] and res["both"]
    assert res["game_end_relief_force"] and res["game_end_neutrality_pact"]  # 24.0, 1.0
    kind = DieTable.from_spec(LIB.load("tables", "narvik/event-type"))
    assert [kind.lookup((f,)) for f in range(1, 7)] == ["allied_secret"] + ["open"] * 4 + ["german_secret"]
    rf = DieTable.from_spec(LIB.load("tables", "narvik/german-reinforcements"))
    assert [rf.lookup((f,)) for f in range(1, 7)][3:] == [{"infantry_coy": 1}, {"paratroop_coy": 1}, {"infantry_coy": 1, "paratroop_coy": 1}]


def _sources(node):
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "source":
                yield v
            else:
                yield from _sources(v)
    elif isinstance(node, list):
        for v in node:
            yield from _sources(v)


def test_every_rules_citation_names_a_real_section():
    """A `source: rules N.N` must name a section of the digest, so no value borrows authority."""
    import re
    from pathlib import Path

    import yaml

    digest = Path(__file__).resolve().parents[3] / "shared" / "rules" / "assault-on-narvik.md"
    if not digest.exists():
        pytest.skip("shared/ rules digest not beside the checkout")
    sections = set(re.findall(r"^#{2,4} (\d+(?:\.\d+)+) ", digest.read_text(), flags=re.M))
    files = list((LIB.root / "tables").glob("narvik/*.yaml")) + list((LIB.root / "oob").glob("narvik/*.yaml"))
    files.append(LIB.root / "tables" / "stacking.yaml")
    n = 0
    for path in files:
        for src in _sources(yaml.safe_load(path.read_text())):
            for sec in re.findall(r"\b(\d+\.\d+(?:\.\d+)?)\b", src if src.startswith("rules") else ""):
                n += 1
                assert sec in sections, f"{path.name}: {src!r} cites {sec}, not a section of the rules"
            assert src.startswith(("rules", "authored", "checked")), f"{path.name}: {src!r}"
    assert n > 50
