"""Saves made by an earlier version of hexwar still load. A save is replayed with each
order's events checked against the log (``engine.replay_entry``), so a change that only
tells a game differently must not change the events its orders make: every save holding
such an order would stop loading ("replay diverged"), unless the game declares what it tells
since (``Game.added_events``: an event or a field an older save lacks). Each file of ``tests/golden/saves``
is the first orders of a game recorded at the commit its name gives, by that game's own
bots; a change that alters them on purpose (a rule fixed) regenerates them and says in its
commit that older saves no longer load."""

from __future__ import annotations

from pathlib import Path

import pytest

from hexwar.core.engine import load_game
from hexwar.core.replay import told_before
from hexwar.core.log import EventLog, SaveFile
from hexwar import registry

SAVES = sorted((Path(__file__).resolve().parents[1] / "golden" / "saves").glob("*.json"))


def test_every_game_has_a_save_of_an_earlier_version():
    # every game hexwar ships (an installed plugin game, such as the example, keeps its own)
    assert {EventLog.from_json(p.read_text()).meta["game"] for p in SAVES} == set(registry.bundled())


@pytest.mark.parametrize("path", SAVES, ids=[p.stem for p in SAVES])
def test_a_save_made_by_an_earlier_version_still_loads_with_its_events_checked(path, tmp_path):
    log = EventLog.from_json(path.read_text())
    assert len(log) >= 18 and sum(len(e.events) for e in log.entries) >= 29
    SaveFile(tmp_path / "old.hexwar").create(log)
    _info, game = registry.from_meta(log.meta)
    st = load_game(game, tmp_path / "old.hexwar")
    try:
        new, old = [e.events for e in st.log.entries], [e.events for e in log.entries]
        assert len(new) == len(old) and all(a == b or told_before(a, b, game.added_events) for a, b in zip(new, old))
    finally:
        st.save.close()


def test_a_narvik_save_holds_a_ship_damaged_by_air_told_since_by_an_event_of_its_own(tmp_path):
    """The Narvik save's order 55 damages LC-1 from the air (18.1.3, 20.4). Telling that with
    a new event once broke every save holding one; the event is now declared as added since
    (``Game.added_events``), so this older save loads and its replay tells the damage."""
    path = next(p for p in SAVES if p.name.startswith("narvik-"))
    log = EventLog.from_json(path.read_text())
    assert any(ev["type"] == "air_ship_attack" and ev["naval"] == 1 for e in log.entries for ev in e.events)
    assert not any(ev["type"] == "ship_damaged" for e in log.entries for ev in e.events)  # the older version's telling
    SaveFile(tmp_path / "old.hexwar").create(log)
    _info, game = registry.from_meta(log.meta)
    st = load_game(game, tmp_path / "old.hexwar")
    try:
        assert any(ev["type"] == "ship_damaged" for e in st.log.entries for ev in e.events)
    finally:
        st.save.close()
    # a change that is no mere telling still refuses: other events than the log's
    from hexwar.core.replay import told_before as same

    assert not same([{"type": "vp", "vp": 5}], [{"type": "vp", "vp": 4}], game.added_events)
