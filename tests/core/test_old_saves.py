"""Saves made by an earlier version of hexwar still load. A save is replayed with each
order's events checked against the log (``engine.replay_entry``), so a change that only
tells a game differently must not change the events its orders make: every save holding
such an order would stop loading ("replay diverged"). Each file of ``tests/golden/saves``
is the first orders of a game recorded at the commit its name gives, by that game's own
bots; a change that alters them on purpose (a rule fixed) regenerates them and says in its
commit that older saves no longer load."""

from __future__ import annotations

from pathlib import Path

import pytest

from hexwar.core.engine import load_game
from hexwar.core.log import EventLog, SaveFile
from hexwar.games import registry

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
        assert [e.events for e in st.log.entries] == [e.events for e in log.entries]
    finally:
        st.save.close()


def test_a_narvik_save_holds_a_ship_damaged_by_air_whose_events_must_not_change():
    """The Narvik save's order 55 damages LC-1 from the air (18.1.3, 20.4): telling that
    with a new event broke every save holding one once, and this file caught it."""
    log = EventLog.from_json(next(p for p in SAVES if p.name.startswith("narvik-")).read_text())
    assert any(ev["type"] == "air_ship_attack" and ev["naval"] == 1 for e in log.entries for ev in e.events)
