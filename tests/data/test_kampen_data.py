"""Kampen om Norge data: cards and scenarios are validated with file, key and rule."""

from __future__ import annotations

import shutil
from pathlib import Path

from hexwar.data.loader import default_library
from hexwar.registry import validate_tree

ROOT = default_library().root


def tree(tmp_path: Path) -> Path:
    for d in ("maps", "oob", "tables"):
        shutil.copytree(ROOT / d, tmp_path / d)
    return tmp_path


def test_2_4_a_deck_that_does_not_add_up_is_refused_naming_file_key_and_rule(tmp_path):
    root = tree(tmp_path)
    f = root / "oob" / "kampen-cards.yaml"
    f.write_text(f.read_text().replace("{card: ubat, count: 1, symbols: 2", "{card: ubat, count: 2, symbols: 2"))
    probs, _ = validate_tree(root)
    msgs = [str(p) for p in probs]
    assert any("kampen-cards.yaml" in m and "decks.allies" in m and "29 cards" in m and "rules 2.4" in m for m in msgs), msgs


def test_S1_a_start_area_not_on_the_board_is_refused(tmp_path):
    root = tree(tmp_path)
    f = root / "oob" / "kampen" / "intro-narvik.yaml"
    f.write_text(f.read_text().replace("bjornfjell: 2, mosjoen", "bjornfell: 2, mosjoen"))
    probs, _ = validate_tree(root)
    assert [str(p) for p in probs if "bjornfell" in str(p)] == [
        f"{root / 'oob/kampen/intro-narvik.yaml'}:start.germans.bjornfell: not a land area of board norway (S1 / rules 3)"]


def test_card_timing_slots_and_cancels_must_name_real_things(tmp_path):
    root = tree(tmp_path)
    f = root / "oob" / "kampen-cards.yaml"
    f.write_text(f.read_text().replace("cancels: [bakhold]", "cancels: [bakhol]"))
    probs, _ = validate_tree(root)
    assert any("'bakhol' is not a card type" in str(p) for p in probs)
