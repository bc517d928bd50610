"""Try hexwar as a careless or unlucky user would, and count what happens.

Five families of trials, each case with what a person should get:

- ``yaml``: the bundled data, one file damaged per case (wrong encodings, a FIFO or folder in
  place of a file, deep nesting, aliases, unhashable keys, absurd numbers, impossible set-ups,
  result words the rules do not know, a required file deleted ...), then ``hexwar validate``:
  it must refuse with ``file:key: message`` lines naming the file, and exit 1 (or 2).
- ``saves``: real saves of both games, truncated, overwritten, tampered row by row, of the
  wrong game, misused (read-only, locked, odd names), then ``hexwar replay`` / ``play --load``:
  one line naming the file, never a traceback, and the save left exactly as it was.
- ``cli``: command lines with bad numbers, paths and names (and every ``--help``): one line
  and exit 2 where refused, exit 0 where fine.
- ``orders``: orders of random games mangled field by field (wrong types, unknown hexes,
  duplicates, other kinds' fields), read as a save or the API would, and order objects
  built by hand with a list, a set or a dict in a field: ``IllegalOrder`` or a
  ``ValueError`` naming the field, the state unchanged, and nothing accepted that
  ``legal_orders()`` does not offer.
- ``http``: every game's web board served for real and sent what another page, a program
  without the board's key or a careless client would send (tools/trial_http.py).

Issue 70 added five (tools/trial_files.py, trial_http.py, trial_procs.py and ``offered``
here):

- ``overwrite``: every writer pointed at a file that is not its own (a save, notes, a
  ``README.md``, a position edited by hand, someone's report, a folder, a link, names near
  255 bytes): refused in one line with the file as it was; its own output, a new name or
  ``--force`` written and said.
- ``positions``: damaged position files (aliases, deep nesting, a device, a pipe, UTF-16, a
  phase, weather, hex or type the game does not have, a counter twice, unknown keys) given
  to ``play --from``, a rule query and ``analyse``: one line naming the file.
- ``encodings``: bodies and query strings that are no UTF-8 or hold lone surrogates and
  controls, each followed by the page's next ask (which must be answered as if the bad one
  had never come); command-line names that are no UTF-8.
- ``offered``: orders that vary a listed one in each field: applied only when listed or of a
  listed order's family (``Order.family``); and ``apply_unchecked`` given only listed orders.
- ``processes``: games against the search bot, a batch and a fork holding a helper's socket
  killed with ``kill -9``, and "play on here" asked 30 times: no helper, worker or server
  left (an orphan counts as a hang).

Each trial is counted as clean, traceback (or an internal error), hang, silently accepted
(bad input taken without a word, or a damaged save replayed as a different game), or lost
(a save or data file changed by a command that should only have read it, or a refused
order that changed the state).

    python tools/trial.py                 # every family, in-process (about 20 minutes on 2 cores)
    python tools/trial.py --ci            # every family on every core, data damages and order fuzz sampled
    python tools/trial.py --subprocess    # each command as its own process, as a user runs it
    python tools/trial.py --family saves --verbose

The test suite runs a seeded sample of every family (tests/test_trial.py).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterator

import yaml

from trial_base import (  # noqa: F401  (the families and the tests read them here too)
    HEADERS,
    LABELS,
    OUTCOMES,
    TIMEOUT,
    Case,
    Ran,
    Runner,
    Tally,
    _Hang,
    _base_save,
    _lines,
    _fingerprint,
    judge,
    make_save,
    refused_as_save,
    run_inprocess,
    run_subprocess,
)

FAMILIES = ("yaml", "saves", "cli", "orders", "http", "overwrite", "positions", "encodings", "offered", "processes")


# --- yaml -----------------------------------------------------------------------------------


def data_root() -> Path:
    from hexwar.data.loader import data_root as root

    return root()


#: files a game reads (deleting one must be reported); geographies, two fixture maps and the two
#: reference charts (naval, amphibious: read by players, not by the rules code) are not
def _required(rel: str) -> bool:
    # compare-presets.yaml: only ``hexwar compare --preset`` reads it (a data root of one's own
    # has none), and without it that command says so in a line
    return not (rel.endswith("geography.yaml") or rel in ("maps/fixtures/areas.yaml", "maps/fixtures/fjord.yaml",
                                                          "tables/narvik/amphibious.yaml", "tables/narvik/naval.yaml",
                                                          "tables/compare-presets.yaml"))


def _load(p: Path) -> Any:
    return yaml.safe_load(p.read_text(encoding="utf-8"))


def _dump(p: Path, d: Any) -> None:
    p.write_text(yaml.safe_dump(d, allow_unicode=True, sort_keys=False), encoding="utf-8")


def _edit(fn: Callable[[Any], None]) -> Callable[[Path], None]:
    def mutate(p: Path) -> None:
        d = _load(p)
        fn(d)
        _dump(p, d)
    return mutate


def _set(path: str, value: Any) -> Callable[[Path], None]:
    """Set a value at a dotted path (list indices as numbers)."""
    def fn(d: Any) -> None:
        keys = path.split(".")
        for k in keys[:-1]:
            d = d[int(k)] if isinstance(d, list) else d[k]
        last = keys[-1]
        if isinstance(d, list):
            d[int(last)] = value
        else:
            d[last] = value
    return _edit(fn)


def _drop(path: str) -> Callable[[Path], None]:
    def fn(d: Any) -> None:
        keys = path.split(".")
        for k in keys[:-1]:
            d = d[int(k)] if isinstance(d, list) else d[k]
        del d[int(keys[-1]) if isinstance(d, list) else keys[-1]]
    return _edit(fn)


def _append(text: str) -> Callable[[Path], None]:
    def mutate(p: Path) -> None:
        p.write_text(p.read_text(encoding="utf-8") + "\n" + text + "\n", encoding="utf-8")
    return mutate


def _write_bytes(data: bytes) -> Callable[[Path], None]:
    return lambda p: p.write_bytes(data)


def _fifo(p: Path) -> None:
    p.unlink()
    os.mkfifo(p)


def _folder(p: Path) -> None:
    p.unlink()
    p.mkdir()


def _utf16(p: Path) -> None:
    p.write_bytes(p.read_text(encoding="utf-8").encode("utf-16"))


def _latin1(p: Path) -> None:
    text = p.read_text(encoding="utf-8")
    p.write_bytes(text.replace("name:", "name: caf\u00e9 ", 1).encode("latin-1", errors="replace"))


def _bad_byte(p: Path) -> None:
    raw = p.read_bytes()
    cut = raw.find(b"\n") + 1
    p.write_bytes(raw[:cut] + b"# \xff\xfe\x80 not utf-8\n" + raw[cut:])


def _huge(p: Path) -> None:
    with open(p, "a", encoding="utf-8") as fh:
        line = "# " + "x" * 1000 + "\n"
        for _ in range(22_000):
            fh.write(line)


def _laughs(p: Path) -> None:
    lines = ["lol0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, 9):
        lines.append(f"lol{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]")
    _append("\n".join(lines))(p)


def _dup_key(p: Path) -> None:
    text = p.read_text(encoding="utf-8")
    m = re.search(r"^name: .*$", text, re.M) or re.search(r"^kind: .*$", text, re.M)
    assert m is not None
    p.write_text(text + "\n" + m.group(0) + "\n", encoding="utf-8")


GENERIC: dict[str, Callable[[Path], None]] = {
    "utf-16": _utf16,
    "latin-1": _latin1,
    "a non-UTF-8 byte": _bad_byte,
    "a FIFO in its place": _fifo,
    "a folder in its place": _folder,
    "nesting 10,000 deep": _append("deep: " + "[" * 10_000 + "]" * 10_000),
    "nesting 30 deep in a mapping": _append("deep: " + "{a: " * 60 + "1" + "}" * 60),
    "a billion laughs (aliases)": _laughs,
    "an unhashable key": _append("? [a, b]\n: 1"),
    "a list as a key": _append("? {a: 1}\n: 2"),
    "a number as a top-level key": _append("12: x"),
    "an unknown key": _append("junk_key_xyz: 1"),
    "its kind changed": _edit(lambda d: d.__setitem__("kind", "nonsense")),
    "its kind removed": _edit(lambda d: d.pop("kind")),
    "empty": _write_bytes(b""),
    "a list, not a mapping": _write_bytes(b"- a\n- b\n"),
    "binary garbage": lambda p: p.write_bytes(random.Random(p.name).randbytes(4096)),
    "21 MB": _huge,
    "a duplicated key": _dup_key,
    "a syntax error": _append("broken: [unclosed, list"),
    "a tab indentation": _append("tabbed:\n\tkey: 1"),
    "deleted": lambda p: p.unlink(),
}

#: (file, what, mutation): values that cannot be right in a named place
SEMANTIC: list[tuple[str, str, Callable[[Path], None]]] = [
    ("oob/narvik/unit-types.yaml", "negative MP", _set("types.brit_bn.mp", -3)),
    ("oob/narvik/unit-types.yaml", "MP 1/0", _set("types.brit_bn.mp", "1/0")),
    ("oob/narvik/unit-types.yaml", "MP 10^9", _set("types.brit_bn.mp", 10**9)),
    ("oob/narvik/unit-types.yaml", "strength 10^30", _set("types.brit_bn.strength", 10**30)),
    ("oob/narvik/unit-types.yaml", "strength 1e30 (float)", _set("types.brit_bn.strength", 1e30)),
    ("oob/narvik/unit-types.yaml", "strength as words", _set("types.brit_bn.strength", "three")),
    ("oob/narvik/unit-types.yaml", "negative fatigue limit", _set("types.brit_bn.fatigue_limit", -1)),
    ("oob/narvik/unit-types.yaml", "fatigue limit 10^12", _set("types.brit_bn.fatigue_limit", 10**12)),
    ("oob/narvik/unit-types.yaml", "strength true", _set("types.brit_bn.strength", True)),
    ("oob/narvik/unit-types.yaml", "negative bombard range", _set("types.BB.bombard_range", -2)),
    ("tables/stacking.yaml", "negative stacking limit", _set("limit", -1)),
    ("tables/stacking.yaml", "stacking limit 10^9", _set("limit", 10**9)),
    ("tables/stacking.yaml", "negative stacking points", _set("points.company", -2)),
    ("tables/stacking.yaml", "stacking points as text", _set("points.company", "two")),
    ("tables/narvik/fatigue.yaml", "fatigue 10^12 FP", _set("causes.assault.fp", 10**12)),
    ("tables/narvik/fatigue.yaml", "fatigue FP as text", _set("causes.assault.fp", "lots")),
    ("tables/narvik/fatigue.yaml", "negative recovery", _set("recovery_at_limit.fp", -99)),
    ("tables/narvik/terrain.yaml", "cost 1/0", _set("weather.winter.terrain.clear.leg", "1/0")),
    ("tables/narvik/terrain.yaml", "negative cost", _set("weather.winter.terrain.clear.leg", -1)),
    ("tables/narvik/terrain.yaml", "zero cost", _set("weather.winter.terrain.clear.leg", 0)),
    ("tables/narvik/terrain.yaml", "cost 10^12", _set("weather.winter.terrain.clear.leg", 10**12)),
    ("tables/narvik/terrain.yaml", "a terrain class with no cost", _drop("weather.winter.terrain.forest")),
    ("tables/narvik/crt.yaml", "dice 100000000D6", _set("dice", "100000000D6")),
    ("tables/narvik/crt.yaml", "a CRT result 10^9/0", _set("columns.0.results.0", "1000000000/0")),
    ("tables/narvik/crt.yaml", "a CRT column short of a die face", _edit(lambda d: d["columns"][0]["results"].pop())),
    ("tables/narvik/crt.yaml", "CRT columns that overlap", _set("columns.1.min", -5)),
    ("tables/narvik/crt.yaml", "a CRT result as junk", _set("columns.2.results.3", "win")),
    ("tables/narvik/air.yaml", "air AP range to 10^12", _set("columns.5.ap_max", 10**12)),
    ("tables/narvik/air.yaml", "air results one short", _edit(lambda d: d["columns"][0]["infantry"].pop())),
    ("tables/narvik/air.yaml", "negative air result", _set("columns.0.infantry.0", -4)),
    ("tables/narvik/weather.yaml", "a weather that does not exist", _set("entries.4.result", "sunny")),
    ("tables/narvik/weather.yaml", "weather dice 3D6", _set("dice", "3D6")),
    ("tables/narvik/weather.yaml", "die range to 10^12", _set("entries.4.roll", [11, 10**12])),
    ("tables/narvik/weather.yaml", "a roll that cannot be made", _set("entries.0.roll", 1)),
    ("tables/narvik/event-type.yaml", "an event type misspelt", _set("entries.1.result", "opne")),
    ("tables/narvik/allied-secret.yaml", "a secret the rules do not know", _set("entries.1.result", "win_the_war")),
    ("tables/narvik/german-secret.yaml", "a secret as a number", _set("entries.1.result", 7)),
    ("tables/narvik/random-events.yaml", "an open event misspelt", _set("entries.2.result", "german_reinforcement")),
    ("tables/narvik/random-events.yaml", "first/second read as 3D6", _set("dice", "3D6")),
    ("tables/narvik/german-reinforcements.yaml", "10^9 companies", _set("entries.1.result.infantry_coy", 10**9)),
    ("tables/narvik/german-reinforcements.yaml", "an unknown unit key", _set("entries.1.result", {"panzer_div": 1})),
    ("tables/narvik/british-redeployments.yaml", "a formation that does not exist", _set("entries.0.result.formation", "99 Gds")),
    ("tables/narvik/british-redeployments.yaml", "a ship type that does not exist", _set("entries.3.result.ships", {"CV": 2})),
    ("tables/narvik/british-redeployments.yaml", "returns as text", _set("entries.3.result.returns", "maybe")),
    ("tables/narvik/victory-levels.yaml", "levels with a gap", _set("levels.1.min", -8)),
    ("tables/narvik/victory-levels.yaml", "a winner that is no side", _set("levels.0.winner", "sweden")),
    ("tables/narvik/victory-points.yaml", "VP to no side", _set("awards.german_eliminated.to", "sweden")),
    ("tables/narvik/victory-points.yaml", "VP 10^30", _set("awards.german_eliminated.vp", 10**30)),
    ("oob/narvik/scenario.yaml", "a set-up doubled", _edit(lambda d: d["setup"].append(dict(d["setup"][-1])))),
    ("oob/narvik/scenario.yaml", "a land unit set up at sea", _edit(lambda d: d["setup"].__setitem__(-1, {"unit": d["setup"][-1]["unit"], "at": "0111"}))),
    ("oob/narvik/scenario.yaml", "a set-up over the stacking limit",
     _edit(lambda d: [e.__setitem__("at", "2903") for e in d["setup"] if e["at"] != "harstad"])),
    ("oob/narvik/scenario.yaml", "a set-up in a hex off the map", _edit(lambda d: d["setup"][-1].__setitem__("at", "9999"))),
    ("oob/narvik/scenario.yaml", "a set-up of a unit that does not exist", _edit(lambda d: d["setup"][-1].__setitem__("unit", "NOBODY"))),
    ("oob/narvik/scenario.yaml", "turns 10^9", _set("turns", 10**9)),
    ("oob/narvik/scenario.yaml", "turns 0", _set("turns", 0)),
    ("oob/narvik/scenario.yaml", "a first side that is no side", _set("first_side", "sweden")),
    ("oob/narvik/scenario.yaml", "a map outside the data root", _set("map", "../../../etc/passwd")),
    ("oob/narvik/scenario.yaml", "an absolute table path", _set("tables.terrain", "/etc/hostname")),
    ("oob/narvik/assault-on-narvik.yaml", "a unit of a type that does not exist", _set("units.0.type", "zeppelin")),
    ("oob/narvik/assault-on-narvik.yaml", "two units with one id", _edit(lambda d: d["units"].append(dict(d["units"][0])))),
    ("oob/narvik/assault-on-narvik.yaml", "a unit of no side", _set("units.0.side", "sweden")),
    ("oob/narvik/assault-on-narvik.yaml", "10^9 dummies", _set("dummies.germans", 10**9)),
    ("oob/kampen-cards.yaml", "a deck of 10^9 copies", _set("decks.germans.copies.0.count", 10**9)),
    ("oob/kampen-cards.yaml", "a deck size of 10^9", _set("decks.germans.size", 10**9)),
    ("oob/kampen-cards.yaml", "a card with 10^9 dice", _set("cards.artilleri.uses.0.dice", 10**9)),
    ("oob/kampen-cards.yaml", "a card with negative dice", _set("cards.artilleri.uses.0.dice", -1)),
    ("oob/kampen-cards.yaml", "a deck naming a card that does not exist", _set("decks.germans.copies.0.card", "zeppelin")),
    ("oob/kampen/intro-narvik.yaml", "a hand of -1", _set("hands.germans", -1)),
    ("oob/kampen/intro-narvik.yaml", "a hand of 10^9", _set("hands.germans", 10**9)),
    ("oob/kampen/intro-narvik.yaml", "10^9 battalions at the start", _set("start.germans.narvik", 10**9)),
    ("oob/kampen/intro-narvik.yaml", "a start in an area that does not exist", _edit(lambda d: d["start"]["germans"].__setitem__("atlantis", 1))),
    ("oob/kampen/intro-narvik.yaml", "a start at sea", _edit(lambda d: d["start"]["germans"].__setitem__("I", 1))),
    ("oob/kampen/intro-narvik.yaml", "a deck of 10^9 copies of a card", _set("decks.germans.gebirgsjager", 10**9)),
    ("oob/kampen/intro-narvik.yaml", "a faction that does not exist", _edit(lambda d: d["hands"].__setitem__("swedes", 3))),
    ("oob/kampen/basic.yaml", "an allied landing of 10^9", _set("allied_landing.battalions", 10**9)),
    ("maps/narvik.yaml", "a grid of 10^6 columns", _set("grid.columns", [1, 10**6])),
    ("maps/narvik.yaml", "a grid of 5 digits", _set("grid.digits", 5)),
    ("maps/narvik.yaml", "a terrain that does not exist", _edit(lambda d: d["terrain"].__setitem__("0101", "lava"))),
    ("maps/narvik.yaml", "a hex off the grid", _edit(lambda d: d["terrain"].__setitem__("9999", "clear"))),
    ("maps/narvik.yaml", "a place off the grid", _set("places.0.at", "9999")),
    ("maps/narvik.yaml", "a hexside of two hexes that do not touch", _edit(lambda d: d["hexsides"].__setitem__("0101/0909", ["road"]))),
    ("maps/narvik.yaml", "a hex of 10^12 km", _set("grid.hex_km", 1e12)),
    ("maps/norway.yaml", "a border to an area that does not exist", _set("borders.0.b", "atlantis")),
    ("maps/norway.yaml", "an area with no terrain", _drop("areas.oslo.terrain")),
    ("maps/fixtures/skirmish.yaml", "a grid with rows reversed", _set("grid.rows", [10, 1])),
    ("tables/fixtures/crt-odds.yaml", "an odds column 0:0", _set("columns.0.ratio", "0:0")),
    ("tables/fixtures/crt-odds.yaml", "an odds column 10^12:1", _set("columns.5.ratio", "1000000000000:1")),
    ("tables/fixtures/crt-odds.yaml", "a result code that does not exist", _set("columns.0.results.0", "ZZ")),
]


def _tree_copy(src: Path, dst: Path) -> None:
    for folder in ("maps", "oob", "tables"):
        shutil.copytree(src / folder, dst / folder)


def yaml_cases(sample: int | None = None, seed: int = 0) -> list[Case]:
    root = data_root()
    files = sorted(str(p.relative_to(root)) for f in ("maps", "oob", "tables") for p in (root / f).rglob("*.yaml"))
    gen = list(GENERIC)
    specs: list[tuple[str, str, Callable[[Path], None]]] = []
    for i, rel in enumerate(files):  # each file gets five generic damages, in rotation
        for k in range(5):
            what = gen[(i * 5 + k) % len(gen)]
            if what == "deleted" and not _required(rel):
                what = "an unknown key"
            specs.append((rel, what, GENERIC[what]))
    for rel in files:  # and every file a game reads is deleted once
        if _required(rel) and not any(r == rel and w == "deleted" for r, w, _ in specs):
            specs.append((rel, "deleted", GENERIC["deleted"]))
    specs += SEMANTIC
    if sample is not None:
        specs = random.Random(seed).sample(specs, min(sample, len(specs)))
    return [Case("yaml", f"{rel}: {what}", _yaml_case(rel, what, fn)) for rel, what, fn in specs]


def _yaml_case(rel: str, what: str, mutate: Callable[[Path], None]) -> Callable[[Path, Runner], tuple[str, str]]:
    def run(work: Path, runner: Runner) -> tuple[str, str]:
        root = work / "data"
        _tree_copy(data_root(), root)
        target = root / rel
        mutate(target)
        before = _fingerprint(target)
        by_file = what not in ("deleted", "a FIFO in its place", "a folder in its place") and rel.startswith("tables/narvik/d")
        args = ["validate", str(target if by_file else root)]
        r = runner(args, cwd=work)
        if _fingerprint(target) != before:
            return "lost", "validate changed the file it read"
        return judge(r, "refuse", names=(rel,))
    return run


# --- saves ----------------------------------------------------------------------------------


def _sql(path: Path, *statements: str) -> None:
    con = sqlite3.connect(str(path), isolation_level=None)
    try:
        for s in statements:
            con.execute(s)
    finally:
        con.close()


def _body(path: Path, seq: int, fn: Callable[[dict[str, Any]], None]) -> None:
    con = sqlite3.connect(str(path), isolation_level=None)
    try:
        (body,) = con.execute("SELECT body FROM entries WHERE seq=?", (seq,)).fetchone()
        d = json.loads(body)
        fn(d)
        con.execute("UPDATE entries SET body=? WHERE seq=?", (json.dumps(d), seq))
    finally:
        con.close()


def _order_field(d: dict[str, Any], value: Any, prefer: tuple[str, ...] = ("to", "at", "target", "unit", "area")) -> None:
    o = d["order"]
    keys = [k for k in o if k not in ("kind", "side")]
    key = next((k for k in prefer if k in o), keys[0] if keys else "side")
    o[key] = value


def _pick_seq(path: Path, want: Callable[[dict[str, Any]], bool]) -> int:
    con = sqlite3.connect(str(path))
    try:
        for seq, body in con.execute("SELECT seq, body FROM entries ORDER BY seq"):
            if want(json.loads(body)):
                return int(seq)
    finally:
        con.close()
    return 1


SAVE_DAMAGE: dict[str, Callable[[Path], None]] = {}


def _damage(name: str) -> Callable[[Callable[[Path], None]], Callable[[Path], None]]:
    def deco(fn: Callable[[Path], None]) -> Callable[[Path], None]:
        SAVE_DAMAGE[name] = fn
        return fn
    return deco


for _frac in (0, 0.1, 0.25, 0.5, 0.75, 0.95):
    _damage(f"truncated to {int(_frac * 100)}%")(lambda p, f=_frac: p.write_bytes(p.read_bytes()[: int(p.stat().st_size * f)]))
_damage("truncated by one byte")(lambda p: p.write_bytes(p.read_bytes()[:-1]))
_damage("truncated to the header")(lambda p: p.write_bytes(p.read_bytes()[:100]))
for _off in (0, 18, 28, 100, 1000):
    _damage(f"bytes overwritten at {_off}")(lambda p, o=_off: p.write_bytes(p.read_bytes()[:o] + b"\xde\xad\xbe\xef" * 4 + p.read_bytes()[o + 16:]))
_damage("every page past the first overwritten")(lambda p: p.write_bytes(p.read_bytes()[:4096] + b"\x00" * (p.stat().st_size - 4096)))
_damage("an order of an unknown kind")(lambda p: _body(p, 1, lambda d: d["order"].__setitem__("kind", "nuke")))
_damage("an order field of the wrong type")(lambda p: _body(p, 1, lambda d: _order_field(d, [1, 2, {"x": None}])))
_damage("an order to a hex that does not exist")(lambda p: _body(p, 1, lambda d: _order_field(d, "9999")))
_damage("an order with an extra field")(lambda p: _body(p, 1, lambda d: d["order"].__setitem__("cheat", True)))
_damage("an order with a field removed")(lambda p: _body(p, 1, lambda d: d["order"].pop(next(k for k in d["order"] if k not in ("kind",)))))
_damage("an order of the other side")(lambda p: _body(p, 1, lambda d: d["order"].__setitem__("side", "nobody")))
_damage("an order that is a list")(lambda p: _body(p, 1, lambda d: d.__setitem__("order", ["move", 1])))
_damage("an entry body that is not JSON")(lambda p: _sql(p, "UPDATE entries SET body='{not json' WHERE seq=1"))
_damage("an entry body that is JSON null")(lambda p: _sql(p, "UPDATE entries SET body='null' WHERE seq=1"))
_damage("an entry body that is a blob")(lambda p: _sql(p, "UPDATE entries SET body=x'00ff' WHERE seq=1"))
_damage("a row's sequence number changed")(lambda p: _sql(p, "UPDATE entries SET seq=999 WHERE seq=1"))
_damage("a row deleted in the middle")(lambda p: _sql(p, "DELETE FROM entries WHERE seq=1"))
_damage("a row inserted twice over")(lambda p: _sql(p, "INSERT INTO entries SELECT seq+1000, body FROM entries WHERE seq=0"))
_damage("two orders swapped")(lambda p: _sql(p, "UPDATE entries SET seq=-1 WHERE seq=0", "UPDATE entries SET seq=0 WHERE seq=1",
                                              "UPDATE entries SET seq=1 WHERE seq=-1"))
_damage("a die roll changed")(lambda p: _body(p, _pick_seq(p, lambda d: bool(d["rolls"])), lambda d: d["rolls"][0].__setitem__("faces", [7] * len(d["rolls"][0]["faces"]))))
_damage("a die roll removed")(lambda p: _body(p, _pick_seq(p, lambda d: bool(d["rolls"])), lambda d: d["rolls"].pop()))
_damage("a die roll added")(lambda p: _body(p, 0, lambda d: d["rolls"].append({"faces": [6], "why": "extra", "key": "x"})))
_damage("an event changed")(lambda p: _body(p, _pick_seq(p, lambda d: bool(d["events"])), lambda d: d["events"][0].__setitem__("type", "forged")))
_damage("an event removed")(lambda p: _body(p, _pick_seq(p, lambda d: bool(d["events"])), lambda d: d["events"].pop()))
_damage("rolls that are not a list")(lambda p: _body(p, 0, lambda d: d.__setitem__("rolls", "66")))
_damage("the meta names another game")(lambda p: _sql(p, """UPDATE meta SET value=(CASE value WHEN '"narvik"' THEN '"kampen"' ELSE '"narvik"' END) WHERE key='game'"""))
_damage("the meta names a game that does not exist")(lambda p: _sql(p, """UPDATE meta SET value='"chess"' WHERE key='game'"""))
_damage("the seed is text")(lambda p: _sql(p, """UPDATE meta SET value='"x"' WHERE key='seed'"""))
_damage("the seed changed")(lambda p: _sql(p, "UPDATE meta SET value='12345' WHERE key='seed'"))
_damage("the meta is not JSON")(lambda p: _sql(p, "UPDATE meta SET value='{' WHERE key='board'"))
_damage("the meta emptied")(lambda p: _sql(p, "DELETE FROM meta"))
_damage("the entries table dropped")(lambda p: _sql(p, "DROP TABLE entries"))
_damage("a scenario outside the data root")(lambda p: _sql(p, """UPDATE meta SET value='"../../../../etc/passwd"' WHERE key='scenario'"""))
_damage("a board that does not exist")(lambda p: _sql(p, """UPDATE meta SET value='"atlantis"' WHERE key='board'"""))
_damage("a switch that does not exist")(lambda p: _sql(p, """UPDATE meta SET value='["nukes"]' WHERE key='switches'"""))
_damage("switches that are not a list")(lambda p: _sql(p, """UPDATE meta SET value='7' WHERE key='switches'"""))
_damage("a seat that does not exist")(lambda p: _sql(p, """UPDATE meta SET value='"sweden"' WHERE key='seat'"""))
_damage("an opponent that does not exist")(lambda p: _sql(p, """UPDATE meta SET value='"deep_blue"' WHERE key='opponent'"""))
_damage("a think time of -1")(lambda p: _sql(p, "UPDATE meta SET value='-1' WHERE key='think'"))
_damage("a newer save format")(lambda p: _sql(p, "UPDATE meta SET value='99' WHERE key='schema_version'"))
_damage("set-up draws changed")(lambda p: _sql(p, """UPDATE meta SET value='[{"faces": [9], "why": "x", "key": "y"}]' WHERE key='setup_rolls'"""))


def save_cases(sample: int | None = None, seed: int = 0) -> list[Case]:
    specs: list[tuple[str, str, str]] = []
    for game in ("narvik", "kampen"):
        for name in SAVE_DAMAGE:
            for cmd in ("replay", "play"):
                specs.append((game, name, cmd))
    misuse = ["an empty file", "a text file", "a folder", "a FIFO", "no such file", "read-only: replay", "read-only: play",
              "read-only folder: replay", "read-only folder: play", "locked by another player", "a name with # ? % and spaces",
              "a name with unicode", "loaded as the other game", "a save of a finished game", "a file named like a save that is CSV"]
    for game in ("narvik", "kampen"):
        specs += [(game, m, "misuse") for m in misuse]
    if sample is not None:
        specs = random.Random(seed).sample(specs, min(sample, len(specs)))
    return [Case("saves", f"{g}: {n} ({c})", _save_case(g, n, c)) for g, n, c in specs]


def _rows(path: Path) -> tuple[list[Any], list[Any]] | None:
    """A save's meta and entries as stored (None if it is not readable as SQLite)."""
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            meta = sorted(con.execute("SELECT key, value FROM meta").fetchall())
            rows = con.execute("SELECT seq, body FROM entries ORDER BY seq").fetchall()
        finally:
            con.close()
    except sqlite3.Error:
        return None
    meta = [(k, v) for k, v in meta if k not in ("seat", "opponent")]  # resuming records who plays now
    return meta, rows


def _replay_text(path: Path, runner: Runner, work: Path) -> Ran:
    return runner(["replay", str(path)], cwd=work)  # through the eyes of its seat: it is unfinished


def _save_case(game: str, name: str, cmd: str) -> Callable[[Path, Runner], tuple[str, str]]:
    def run(work: Path, runner: Runner) -> tuple[str, str]:
        base = _base_save(game)
        path = work / "game.hexwar"
        shutil.copyfile(base, path)
        if cmd != "misuse":
            good = _replay_text(path, runner, work)
            SAVE_DAMAGE[name](path)
            before, rows = _fingerprint(path), _rows(path)
            if cmd == "replay":
                r = _replay_text(path, runner, work)
            else:
                r = runner(["play", "--load", str(path)], cwd=work)
            if cmd == "replay" or r.code != 0:
                if _fingerprint(path) != before:
                    return "lost", "the damaged save was modified"
            else:  # resumed: the bots may have played on, but every row saved before is still there
                after = _rows(path)
                if rows is None or after is None or after[0] != rows[0] or after[1][: len(rows[1])] != rows[1]:
                    return "lost", "resuming changed what the save held"
            if r.code == 0 and cmd == "replay" and r.out != good.out:
                return "accepted", "replayed a different game without a word"
            if r.code == 0 and cmd == "play" and "resuming" not in r.out and "game saved" not in r.out:
                return "accepted", (_lines(r.out) or ["?"])[-1][:200]
            if r.code == 0:  # the damage did not touch the game: it replays as it was
                return judge(r, "ok") if cmd == "replay" or r.out else ("clean", "")
            return judge(r, "refuse", names=(str(path),))
        return _misuse(game, name, path, work, runner)
    return run


def _misuse(game: str, name: str, path: Path, work: Path, runner: Runner) -> tuple[str, str]:
    other = "kampen" if game == "narvik" else "narvik"
    if name == "an empty file":
        path.write_bytes(b"")
    elif name == "a text file":
        path.write_text("my notes\n", encoding="utf-8")
    elif name == "a folder":
        path.unlink()
        path.mkdir()
    elif name == "a FIFO":
        path.unlink()
        os.mkfifo(path)
    elif name == "no such file":
        path.unlink()
    elif name == "a file named like a save that is CSV":
        path.write_text("setup,index\nx,1\n", encoding="utf-8")
    if name in ("an empty file", "a text file", "a folder", "a FIFO", "no such file", "a file named like a save that is CSV"):
        return refused_as_save(path, runner, work)
    if name.startswith("read-only"):
        target = path if "folder" not in name else work
        good = _replay_text(path, runner, work)
        mode = os.stat(target).st_mode
        os.chmod(target, mode & ~0o222)
        try:
            before = _fingerprint(path)
            if name.endswith("replay"):
                r = _replay_text(path, runner, work)
                res = ("clean", "") if r.code == 0 and r.out == good.out else judge(r, "ok")
            else:
                r = runner(["play", "--load", str(path)], cwd=work)
                res = judge(r, "refuse", names=(str(path),))
            if _fingerprint(path) != before or sorted(os.listdir(work)) != ["game.hexwar"]:
                return "lost", f"a read-only save or folder was written: {sorted(os.listdir(work))}"
            return res
        finally:
            os.chmod(target, mode)
    if name == "locked by another player":
        from hexwar.core.log import SaveFile

        holder = SaveFile(path)
        holder.lock()
        try:
            before = _fingerprint(path)
            r = run_subprocess(["play", "--load", str(path)], cwd=work)  # another process, as another player
            if _fingerprint(path) != before:
                return "lost", "a locked save was written"
            return judge(r, "refuse", names=(str(path),))
        finally:
            holder.close()
    if name.startswith("a name with"):
        odd = work / ("my #game ?%20 x.hexwar" if "#" in name else "партия-ø.hexwar")
        r = runner(["play", game, "--side", "none", "--opponent", "priority", "--seed", "5", "--save", str(odd)], cwd=work)
        if r.code != 0:
            return judge(r, "ok")
        r2 = _replay_text(odd, runner, work)
        left = sorted(os.listdir(work))
        if left != sorted(["game.hexwar", odd.name]):
            return "lost", f"stray files: {left}"
        return judge(r2, "ok")
    if name == "loaded as the other game":
        r = runner(["play", other, "--load", str(path)], cwd=work)
        # the save names its game: loading it under another game's name is refused or resumes its own game
        if r.code == 0 and "the save keeps its own" not in r.out and "resuming" not in r.out:
            return "accepted", "loaded under another game's name without a word"
        return judge(r, "refuse", names=(str(path),)) if r.code else ("clean", "")
    if name == "a save of a finished game":
        shutil.copyfile(_base_save(game, over=True), path)
        before = _fingerprint(path)
        r = runner(["play", "--load", str(path)], cwd=work)
        if _fingerprint(path) != before:
            return "lost", "a finished game's save was changed"
        return judge(r, "ok")
    raise AssertionError(name)


# --- command lines --------------------------------------------------------------------------


def _commands() -> list[str]:
    from hexwar.ui.cli import app

    import typer.main

    click_app = typer.main.get_command(app)
    out = []
    for name, cmd in click_app.commands.items():  # type: ignore[attr-defined]
        subs = getattr(cmd, "commands", None)
        if subs:
            out += [f"{name} {s}" for s in subs]
        out.append(name)
    return out


#: (arguments, "ok" or "refuse"); {w} is the work folder, {ro} a read-only folder in it
CLI: list[tuple[str, str]] = [
    ("--help", "ok"),
    ("reach fixtures/skirmish 1SG --mp -3", "refuse"),
    ("reach fixtures/skirmish 1SG --mp 1/0", "refuse"),
    ("reach fixtures/skirmish 1SG --mp 1e308", "refuse"),
    ("reach fixtures/skirmish 1SG --mp nan", "refuse"),
    ("reach fixtures/skirmish 1SG --mp inf", "refuse"),
    ("reach fixtures/skirmish 1SG --mp 10000000000", "refuse"),
    ("reach fixtures/skirmish 1SG --mp 3/2", "ok"),
    ("reach fixtures/skirmish 1SG --weather monsoon", "refuse"),
    ("reach fixtures/skirmish 1SG --to 9999", "refuse"),
    ("reach fixtures/skirmish 1SG --to harstad", "refuse"),
    ("reach fixtures/skirmish NOPE", "refuse"),
    ("reach ../../../../etc/passwd 1SG", "refuse"),
    ("reach /etc/hostname 1SG", "refuse"),
    ("reach narvik/scenario 1SG", "ok"),
    ("reach narvik/unit-types 1SG", "refuse"),
    ("reach fixtures 1SG", "refuse"),
    ("supply fixtures/skirmish NOPE", "refuse"),
    ("supply ../oob/narvik/scenario", "refuse"),
    ("supply narvik/scenario", "ok"),
    ("fatigue fixtures/skirmish NOPE", "refuse"),
    ("fatigue narvik/scenario --recover", "ok"),
    ("odds fixtures/skirmish", "refuse"),
    ("odds fixtures/skirmish --ad 1000000000000", "refuse"),
    ("odds fixtures/skirmish --ad -1000000000000", "refuse"),
    ("odds fixtures/skirmish --ad 3 --drm 1000000000", "refuse"),
    ("odds fixtures/skirmish --attack -5 --defence 2", "refuse"),
    ("odds fixtures/skirmish --attack 5 --defence 0", "ok"),  # nothing to defend with: the highest column
    ("odds fixtures/skirmish --attack 1000000000000 --defence 1", "refuse"),
    ("odds fixtures/skirmish --attack 5 --defence 2 --shift 1000000000", "refuse"),
    ("odds fixtures/skirmish --target 9999 --attackers 1SG", "refuse"),
    ("odds fixtures/skirmish --target 1812 --attackers NOPE", "refuse"),
    ("odds fixtures/skirmish --ad 2", "ok"),
    ("odds kampen", "refuse"),
    ("odds kampen --defend 1", "refuse"),
    ("odds kampen --attack 3 --defend 2", "ok"),
    ("odds kampen --attack 3 --defend 2 --cards panzer=1000000000", "refuse"),
    ("odds kampen --attack 3 --defend 2 --cards panzer=-1", "refuse"),
    ("odds kampen --attack 3 --defend 2 --cards panzer=x", "refuse"),
    ("odds kampen --attack 3 --defend 2 --cards zeppelin", "refuse"),
    ("odds kampen --attack 3 --defend 2 --cards artilleri,artilleri", "refuse"),
    ("odds kampen --attack 1000000000 --defend 2", "refuse"),
    ("odds kampen --attack 3 --defend -2", "refuse"),
    ("odds kampen --attack 3 --defend 2 --defend-cards bakhold=999999999", "refuse"),
    ("analyse narvik --no-web", "ok"),
    ("analyse narvik --no-web --from {save}", "ok"),
    ("analyse narvik --no-web --from {w}/nowhere.yaml", "refuse"),
    ("analyse narvik --no-web --from {w}/notes.txt", "refuse"),
    ("analyse kampen --no-web --from {save}", "refuse"),
    ("analyse chess --no-web", "refuse"),
    ("analyse narvik --no-web --scenario nowhere", "refuse"),
    ("analyse narvik --no-web --folder {w}/nodir", "refuse"),
    ("analyse narvik --port 99999", "refuse"),
    ("play narvik --web --port -1", "refuse"),
    ("explain narvik/scenario 1SG", "ok"),
    ("explain {save} 1SG", "ok"),
    ("explain {w}/notes.txt 1SG", "refuse"),
    ("explain {w}/nowhere.yaml 1SG", "refuse"),
    ("map show nowhere", "refuse"),
    ("map show ../../../../etc/passwd", "refuse"),
    ("map show fixtures/skirmish", "ok"),
    ("map render fixtures/skirmish -o {w}/m.svg --scale 1e308", "refuse"),
    ("map render fixtures/skirmish -o {w}/m.svg --scale -1", "refuse"),
    ("map render fixtures/skirmish -o {w}/m.svg --scale 0", "refuse"),
    ("map render fixtures/skirmish -o {w}/m.svg --scale nan", "refuse"),
    ("map render fixtures/skirmish -o {w}/nodir/m.svg", "refuse"),
    ("map render fixtures/skirmish -o {ro}/m.svg", "refuse"),
    ("map render fixtures/skirmish -o {w}", "refuse"),
    ("map render fixtures/skirmish -o {w}/m.svg", "ok"),
    ("map build ../../../../etc/passwd -o {w}/x.yaml", "refuse"),
    ("map build nowhere -o {w}/x.yaml", "refuse"),
    ("map build narvik -o {w}/nodir/x.yaml", "refuse"),
    ("validate {w}/nowhere", "refuse"),
    ("validate {w}", "refuse"),
    ("validate /etc/hostname", "refuse"),
    ("validate", "ok"),
    ("play chess", "refuse"),
    ("play narvik --side sweden", "refuse"),
    ("play narvik --opponent deep_blue", "refuse"),
    ("play narvik --scenario ../../../../etc/passwd", "refuse"),
    ("play narvik --scenario nowhere", "refuse"),
    ("play kampen --board atlantis", "refuse"),
    ("play narvik --switch nukes", "refuse"),
    ("play narvik --seed -1", "refuse"),
    ("play narvik --seed 100000000000000000000000", "refuse"),
    ("play narvik --think -1", "refuse"),
    ("play narvik --think 1e308", "refuse"),
    ("play narvik --save {w}/nodir/g.hexwar", "refuse"),
    ("play narvik --save {ro}/g.hexwar", "refuse"),
    ("play narvik --save {w}/notes.txt", "refuse"),
    ("play narvik --snapshots {ro}/snaps --side none --opponent priority --save {w}/s1.hexwar", "ok"),
    ("play narvik --load {w}/nowhere.hexwar", "refuse"),
    ("play kampen --side none --opponent priority --save {w}/k.hexwar", "ok"),
    ("replay {w}/nowhere.hexwar", "refuse"),
    ("replay {w}/notes.txt", "refuse"),
    ("replay {save} --side sweden", "refuse"),
    ("replay {save} --svg {ro}/svgs", "refuse"),
    ("replay {save} --svg {w}/notes.txt", "refuse"),
    ("replay {save} --svg {w}/svgs --per-turn", "ok"),
    ("simulate chess", "refuse"),
    ("simulate narvik --games 1000000000000", "refuse"),
    ("simulate narvik --games 0", "refuse"),
    ("simulate narvik --games -5", "refuse"),
    ("simulate narvik --workers 0 --games 1", "refuse"),
    ("simulate narvik --workers 100000 --games 1", "refuse"),
    ("simulate narvik --games 1 --out {w}/nodir/x.csv", "refuse"),
    ("simulate narvik --games 1 --out {ro}/x.csv", "refuse"),
    ("simulate narvik --games 1 --out {w}", "refuse"),
    ("simulate narvik --games 1 --out {w}/notes.txt", "refuse"),
    ("simulate kampen:nobot --games 1", "refuse"),
    ("simulate kampen@atlantis --games 1", "refuse"),
    ("simulate kampen/../../x --games 1", "refuse"),
    ("simulate kampen --games 2 --workers 1 --out {w}/k.csv", "ok"),
    # issue 51: a batch writes only its own files; names too long; empty card lists; switches
    ("simulate kampen --games 1 --workers 1 --out {w}/settings", "refuse"),
    ("simulate kampen --games 1 --workers 1 --out {w}/res.txt", "refuse"),
    ("simulate kampen --games 1 --workers 1 --out {w}/notes.csv", "ok"),
    ("simulate kampen --games 1 --out {w}/" + "b" * 300 + ".csv", "refuse"),
    ("play narvik --save {w}/" + "a" * 248 + ".hexwar", "refuse"),
    ("play narvik --save {w}/" + "a" * 300 + ".hexwar", "refuse"),
    ("play --load {w}/" + "a" * 300 + ".hexwar", "refuse"),
    ("replay {save} --svg {w}/" + "c" * 300, "refuse"),
    ("replay {save} --switch nope", "refuse"),
    ("replay {save} --switch random_setup", "refuse"),
    ("replay {save} --side germans", "refuse"),
    ("replay {save} --side all", "refuse"),
    ("play --load {save} --side germans", "refuse"),
    ("play narvik --side germans --show-secrets --save {w}/n.hexwar", "refuse"),
    ("odds kampen --attack 3 --defend 2 --cards ,,,", "refuse"),
    ("odds kampen --attack 3 --defend 2 --defend-cards bakhold,", "refuse"),
    ("compare narvik", "refuse"),
    ("compare narvik kampen --games 1000000000000", "refuse"),
    ("compare --preset nothing", "refuse"),
    ("compare narvik chess", "refuse"),
    ("compare narvik kampen --games 1 --out {ro}/rep", "refuse"),
    ("compare narvik kampen --games 1 --out {w}/notes.txt", "refuse"),
    ("map", "help"),
    ("nonsense", "refuse"),
]


def cli_cases(sample: int | None = None, seed: int = 0) -> list[Case]:
    specs = [(f"{c} --help", "ok") for c in _commands()] + CLI
    if sample is not None:
        specs = random.Random(seed).sample(specs, min(sample, len(specs)))
    return [Case("cli", line, _cli_case(line, expect)) for line, expect in specs]


def _cli_case(line: str, expect: str) -> Callable[[Path, Runner], tuple[str, str]]:
    def run(work: Path, runner: Runner) -> tuple[str, str]:
        ro = work / "ro"
        ro.mkdir()
        (work / "notes.txt").write_text("my notes\n", encoding="utf-8")
        save = work / "g.hexwar"
        if "{save}" in line:
            shutil.copyfile(_base_save("narvik"), save)
        args = [a.format(w=work, ro=ro, save=save) for a in line.split()]
        before = _fingerprint(work / "notes.txt")
        os.chmod(ro, 0o555)
        try:
            r = runner(args, cwd=work, env={"HEXWAR_SNAPSHOTS": str(work / "snapshots"), "XDG_STATE_HOME": str(work / "state")})
        finally:
            os.chmod(ro, 0o755)
        if _fingerprint(work / "notes.txt") != before or os.listdir(ro):
            return "lost", "wrote over a file or into a read-only folder"
        return judge(r, expect)
    return run


# --- orders ---------------------------------------------------------------------------------


def _mangle(o: Any, rng: random.Random, hexes: list[str]) -> Iterator[dict[str, Any]]:
    """Orders that differ from a legal one in one field (or its kind, or its shape)."""
    d = o.to_dict()
    fields = [k for k in d if k != "kind"]
    junk: list[Any] = [None, True, -1, 0, 10**18, 1.5, "", "XX99", "9999", rng.choice(hexes), [], [None], {"a": 1},
                       ["9999"], [1, 2], "' OR 1=1 --", "\u00f8" * 3]
    for k in fields:
        for v in rng.sample(junk, 5):
            yield {**d, k: v}
        v0 = d[k]
        if isinstance(v0, list) and v0:
            yield {**d, k: v0 + v0[:1]}  # a duplicate
            yield {**d, k: v0[:-1]}
            yield {**d, k: list(reversed(v0))}
            yield {**d, k: [rng.choice(hexes) if isinstance(x, str) else x for x in v0]}
        if isinstance(v0, str):
            yield {**d, k: rng.choice(hexes)}
            yield {**d, k: v0.upper() + "x"}
        if isinstance(v0, int) and not isinstance(v0, bool):
            yield {**d, k: v0 + 1}
            yield {**d, k: -v0 - 1}
    yield {k: v for k, v in d.items() if k != fields[0]} if fields else {"kind": d["kind"]}
    yield {**d, "extra": 1}
    yield {**d, "kind": d["kind"] + "x"}
    yield [d]  # type: ignore[misc]


def _by_hand(o: Any) -> Iterator[Any]:
    """A legal order with one field holding what no order's field holds (a dict, a set, a
    list of lists), built as a dataclass directly: no reading from JSON checks it first."""
    import dataclasses

    for f in dataclasses.fields(o):
        if f.name != "side":
            for wrong in ({"a": 1}, {"XX99"}, [["XX99"]]):
                yield dataclasses.replace(o, **{f.name: wrong})


def _random_games(games: int, seed: int, most: int, every: int) -> Iterator[tuple[Any, Any, Any, list[Any], list[str]]]:
    """Random games of every registered game (``games`` of each, over its conformance
    variants), yielding every ``every``-th decision of each, at most ``most`` orders in:
    (its record, the game, the state, the legal orders, up to 200 of the board's places).
    The state moves on by a random bot's order after each yield."""
    from hexwar.ai.random_bot import RandomBot
    from hexwar import registry

    for info in registry.games():
        variants = info.conformance_variants()
        for k in range(games):
            sc, bd, sw = variants[k % len(variants)]
            game = info.build(sc, bd, sw)
            state = game.new_state(seed * 100 + k)
            bot = RandomBot(k)
            hexes = sorted(map(str, getattr(game.board, "locations", lambda: [])()))[:200] or ["x"]
            for steps in range(1, most + 1):
                if state.is_over():
                    break
                legal = state.legal_orders()
                if steps % every == 0:
                    yield info, game, state, legal, hexes
                state.apply(bot.choose(state, legal))


def orders_trial(games: int = 6, per_state: int = 4, seed: int = 0, tally: Tally | None = None,
                 stop_after: int | None = None) -> Tally:
    """Fuzz the orders of random games of every registered game; add the outcomes to a tally."""
    from hexwar.core.orders import IllegalOrder

    tally = tally or Tally()
    rng = random.Random(seed)
    n = 0
    for info, game, state, legal, hexes in _random_games(games, seed, 400, every=3):
        offered = {json.dumps(o.to_dict(), sort_keys=True) for o in legal}
        for o in rng.sample(legal, min(per_state, len(legal))):
            for d in _mangle(o, rng, hexes):
                n += 1
                before, logged = state.data.to_json(), len(state.log)
                name = f"{info.name}: {json.dumps(d)[:120]}"
                signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(_Hang()))
                signal.alarm(20)
                try:
                    order = game.orders.from_dict(d)  # as a save is read
                    try:
                        state.clone().apply(order)  # the API path, on a copy
                    except IllegalOrder:
                        state.apply(order)  # refused on the copy: the real state must refuse too
                        raise AssertionError("accepted by the state but not by its copy") from None
                    if json.dumps(order.to_dict(), sort_keys=True) not in offered and \
                            _family(order) not in {_family(o) for o in legal if _family(o) is not None}:
                        tally.add("orders", name, "accepted", "applied an order legal_orders() never offers, "
                                  "nor any of its family")
                    else:
                        tally.add("orders", name, "clean", "")
                except IllegalOrder:
                    if state.data.to_json() != before or len(state.log) != logged:
                        tally.add("orders", name, "lost", "a refused order changed the state")
                    else:
                        tally.add("orders", name, "clean", "")
                except _Hang:
                    tally.add("orders", name, "hang", "")
                except Exception as e:  # noqa: BLE001
                    tally.add("orders", name, "traceback", f"{type(e).__name__}: {e}"[:200])
                finally:
                    signal.alarm(0)
                if stop_after and n >= stop_after:
                    return tally
            for bad in _by_hand(o):  # objects built by hand, as the API's user may
                n += 1
                before, logged = state.data.to_json(), len(state.log)
                name = f"{info.name}: by hand {bad!r}"[:160]
                try:
                    state.apply(bad)
                    tally.add("orders", name, "accepted", "applied an order object of no order's type")
                except IllegalOrder:
                    same = state.data.to_json() == before and len(state.log) == logged
                    tally.add("orders", name, "clean" if same else "lost", "" if same else "a refused order changed the state")
                except Exception as e:  # noqa: BLE001
                    tally.add("orders", name, "traceback", f"{type(e).__name__}: {e}"[:200])
                if stop_after and n >= stop_after:
                    return tally
    return tally


# --- offered: orders beyond the list, and the unchecked path (issue 70) ----------------------


def _family(o: Any) -> Any:
    """An order's family (``Order.family``; None for an engine that has none: every order
    beyond the list is then counted)."""
    family = getattr(o, "family", None)
    return family() if family is not None else None


def _variants(o: Any, rng: random.Random, hexes: list[str]) -> Iterator[Any]:
    """Orders of a listed order's kind that differ from it in one field: within its family
    (its free part: another route, AP, split or group) or outside it (another target, unit,
    place). Built as the order's dataclass, as a program using the API would."""
    import dataclasses

    for f in dataclasses.fields(o):
        if f.name == "side":
            continue
        v = getattr(o, f.name)
        options: list[Any] = []
        if isinstance(v, bool):
            options = [not v]
        elif isinstance(v, int):
            options = [v + 1, v - 1, max(0, v // 2), v * 3 + 1, 1]
        elif isinstance(v, str):
            options = [rng.choice(hexes), v + "x"] if v else [rng.choice(hexes)]
        elif isinstance(v, tuple) and v and all(isinstance(x, str) for x in v):
            options = [v[:-1], v + (rng.choice(hexes),), tuple(reversed(v)), v[:1] + (rng.choice(hexes),) + v[1:]]
        elif isinstance(v, tuple) and v and all(isinstance(x, tuple) for x in v):
            options = [tuple((a, b + 1) for a, b in v), v[:-1], tuple((a, max(1, b // 2)) for a, b in v)]
        for w in options:
            try:
                yield dataclasses.replace(o, **{f.name: w})
            except (TypeError, ValueError):
                continue


def offered_trial(games: int = 2, per_state: int = 3, seed: int = 0, tally: Tally | None = None,
                  stop_after: int | None = None) -> Tally:
    """Two checks of what the engine carries out (issue 70): an order beyond the list is
    applied only when it is of a listed order's family (``Order.family``: the rules' free
    choice within it); and the unchecked path (``apply_unchecked``: run_fast, the search's
    rollouts) is given only orders of the listing they were chosen from."""
    from hexwar.core.orders import IllegalOrder

    tally = tally or Tally()
    rng = random.Random(seed)
    n = 0
    last = None
    for info, game, state, legal, hexes in _random_games(games, seed, 300, every=2):
        if last is not None and last[0] is not info:
            n += _unchecked(*last, tally, seed)
        last = (info, game)
        families = {f for o in legal if (f := _family(o)) is not None}
        listed = set(legal)
        for o in rng.sample(legal, min(per_state, len(legal))):
            for v in _variants(o, rng, hexes):
                n += 1
                name = f"{info.name}: {v.text()[:100]}"
                before = state.data.to_json()
                try:
                    state.clone().apply(v)
                except IllegalOrder:
                    tally.add("offered", name, "clean" if state.data.to_json() == before else "lost",
                              "" if state.data.to_json() == before else "a refused order changed the state")
                except Exception as e:  # noqa: BLE001
                    tally.add("offered", name, "traceback", f"{type(e).__name__}: {e}"[:200])
                else:
                    ok = v in listed or _family(v) in families
                    tally.add("offered", name, "clean" if ok else "accepted",
                              "" if ok else "applied an order neither listed nor of a listed order's family")
                if stop_after and n >= stop_after:
                    return tally
    if last is not None:
        _unchecked(*last, tally, seed)
    return tally


def _unchecked(info: Any, game: Any, tally: Tally, seed: int) -> int:
    """Play fast games and search decisions of ``game`` with its ``apply_unchecked`` watched:
    each order it is given must be one the game lists at that moment."""
    from hexwar.core.engine import run_fast

    cls = type(game)  # a rules object is frozen once built (issue 73): the watch goes on its class
    real = cls.__dict__.get("apply_unchecked")
    unwatched = cls.apply_unchecked
    seen = {"n": 0, "bad": []}

    def watched(self: Any, data: Any, order: Any, dice: Any, events: Any) -> None:
        seen["n"] += 1
        if order not in self.legal_orders(data):
            seen["bad"].append(order.text())
        unwatched(self, data, order, dice, events)

    cls.apply_unchecked = watched
    try:
        bots = {side: info.bot(info.batch_bot, side, seed) for side in info.sides}
        run_fast(game, seed, bots)
        if "search" in info.bots:
            st = game.new_state(seed)
            for _ in range(3):
                if st.is_over():
                    break
                side = st.current_side()
                search = info.bot("search", side, seed, 0.2)
                search.max_iterations = 12
                st.apply(search.choose(st.view_for((side,)), st.legal_orders()))
                search.close()
    finally:
        if real is None:
            del cls.apply_unchecked  # the class inherits it again
        else:
            cls.apply_unchecked = real
    for text in seen["bad"][:20]:
        tally.add("offered", f"{info.name}: unchecked {text[:100]}", "accepted", "apply_unchecked was given an unlisted order")
    for _ in range(seen["n"] - len(seen["bad"])):
        tally.add("offered", f"{info.name}: an unchecked apply", "clean", "")
    return seen["n"]


# --- driver ---------------------------------------------------------------------------------


def run_cases(cases: list[Case], runner: Runner, tally: Tally, verbose: bool = False) -> Tally:
    for c in cases:
        with tempfile.TemporaryDirectory(prefix="hexwar-trial-") as tmp:
            work = Path(tmp)
            try:
                outcome, detail = c.run(work, runner)
            except Exception as e:  # noqa: BLE001 - a fault of the harness or of hexwar's API
                outcome, detail = "traceback", f"{type(e).__name__}: {e}"[:200]
            finally:
                for p in work.rglob("*"):  # give back what a case made read-only, so it can be removed
                    with contextlib.suppress(OSError):
                        if p.is_dir() and not p.is_symlink():
                            os.chmod(p, 0o755)
        tally.add(c.family, c.name, outcome, detail)
        if verbose:
            print(f"{outcome:>9}  {c.family}: {c.name}  {detail}", flush=True)
    return tally


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--family", action="append", choices=FAMILIES, help="families to run (default: all)")
    ap.add_argument("--subprocess", action="store_true", help="run each command as its own process")
    ap.add_argument("--orders-games", type=int, default=6, help="random games per registered game for the order fuzz")
    ap.add_argument("--orders-limit", type=int, default=None, help="stop the order fuzz after this many orders")
    ap.add_argument("--offered-games", type=int, default=2, help="random games per registered game for the offered family")
    ap.add_argument("--ci", action="store_true",
                    help="every family, the order fuzz cut to a sample, on every core (what CI runs: .ci/run)")
    ap.add_argument("--jobs", type=int, default=1, help="families run at once, each in a process of its own")
    ap.add_argument("--yaml-sample", type=int, default=None, help="damage this many data files (a seeded sample)")
    ap.add_argument("--saves-sample", type=int, default=None, help="damage or misuse this many saves (a seeded sample)")
    ap.add_argument("--offered-limit", type=int, default=None, help="stop the offered family after this many orders")
    ap.add_argument("--tally-out", help=argparse.SUPPRESS)  # a job's tally, as JSON, for the process that merges
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args(argv)
    if a.ci:  # every family; the large ones sampled (CI ran this as its third step until issue 73)
        a.orders_games, a.orders_limit, a.offered_games = 1, a.orders_limit or 1_500, 1
        a.yaml_sample, a.saves_sample = a.yaml_sample or 30, a.saves_sample or 50
        a.offered_limit = a.offered_limit or 2_000
        a.jobs = max(a.jobs, os.cpu_count() or 1)
    fams = a.family or list(FAMILIES)
    tally = _jobs(a, fams) if a.jobs > 1 and len(fams) > 1 else _run_families(a, fams)
    if a.tally_out:
        Path(a.tally_out).write_text(json.dumps({"counts": tally.counts, "problems": tally.problems}), encoding="utf-8")
        return 0
    print(tally.table())
    for fam, name, outcome, detail in tally.problems:
        print(f"- {outcome}: {fam}: {name}: {detail}")
    return 1 if tally.problems else 0


def _run_families(a: Any, fams: list[str]) -> Tally:
    from trial_files import encodings_cli_cases, overwrite_cases, positions_cases
    from trial_procs import processes_cases

    runner = run_subprocess if a.subprocess else run_inprocess
    tally = Tally()
    makers = {"yaml": lambda: yaml_cases(sample=a.yaml_sample), "saves": lambda: save_cases(sample=a.saves_sample),
              "cli": cli_cases, "overwrite": overwrite_cases,
              "positions": positions_cases, "encodings": encodings_cli_cases, "processes": processes_cases}
    for fam in fams:
        if fam == "orders":
            orders_trial(a.orders_games, tally=tally, stop_after=a.orders_limit)
        elif fam == "offered":
            offered_trial(a.offered_games, tally=tally, stop_after=a.offered_limit)
        elif fam == "http":
            from trial_http import http_trial

            http_trial(tally, verbose=a.verbose)
        else:
            if fam == "encodings":
                from trial_http import encodings_trial

                encodings_trial(tally, verbose=a.verbose)
            run_cases(makers[fam](), runner, tally, a.verbose)
        print(f"{fam}: done", file=sys.stderr, flush=True)
    return tally


#: about how long each family takes with --ci, in seconds on one core here (the order jobs start in)
COST = {"yaml": 120, "orders": 55, "saves": 60, "positions": 60, "offered": 45, "processes": 35, "cli": 20,
        "encodings": 20, "http": 15, "overwrite": 10}


def _jobs(a: Any, fams: list[str]) -> Tally:
    """Run each family in a process of its own, ``a.jobs`` at once, and merge their tallies in
    the families' order."""
    import concurrent.futures as cf

    passed = [f"--orders-games={a.orders_games}", f"--offered-games={a.offered_games}"]
    passed += [f"--yaml-sample={a.yaml_sample}"] if a.yaml_sample else []
    passed += [f"--saves-sample={a.saves_sample}"] if a.saves_sample else []
    passed += [f"--offered-limit={a.offered_limit}"] if a.offered_limit else []
    passed += [f"--orders-limit={a.orders_limit}"] if a.orders_limit else []
    passed += ["--subprocess"] if a.subprocess else []
    passed += ["--verbose"] if a.verbose else []
    with tempfile.TemporaryDirectory(prefix="hexwar-trial-jobs-") as tmp:
        def one(fam: str) -> str:
            out = Path(tmp) / f"{fam}.json"
            p = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--family", fam, *passed,
                                "--tally-out", str(out)])
            if p.returncode != 0 or not out.exists():
                raise SystemExit(f"trial: the {fam} family's process ended with {p.returncode}")
            return out.read_text(encoding="utf-8")

        slow_first = sorted(fams, key=lambda f: -COST.get(f, 0))  # the longest first: the jobs end together
        with cf.ThreadPoolExecutor(a.jobs) as pool:
            done = dict(zip(slow_first, pool.map(one, slow_first)))
        got = [done[f] for f in fams]
    tally = Tally()
    for text in got:
        part = json.loads(text)
        tally.counts.update(part["counts"])
        tally.problems += [tuple(p) for p in part["problems"]]
    return tally


if __name__ == "__main__":
    raise SystemExit(main())
