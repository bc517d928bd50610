"""Issue 70: a save whose last write was cut off by ``kill -9`` (a hot rollback journal beside
it) is read as SQLite rolls it back, never past the journal: ``immutable=1`` read the pages
the killed commit had written, and answered "not a hexwar save" or "malformed" for a save
whose every order but the one being written was sound. The save is left to its next writer,
who rolls it back in place."""

from __future__ import annotations

import random
import shutil
import signal
import subprocess
import sys

from hexwar.core.log import JOURNAL, Entry, SaveFile
from hexwar import registry

#: a writer that commits a large last order (4 MB of pages) and says when it begins to
WRITER = """
import sqlite3, sys
con = sqlite3.connect(sys.argv[1], isolation_level=None)
con.execute("PRAGMA journal_mode=DELETE"); con.execute("PRAGMA synchronous=FULL")
con.execute("BEGIN")
for i in range(6, 200):
    con.execute("INSERT INTO entries VALUES (?, ?)", (i, '{"seq": %d, "order": {}, "x": "%s"}' % (i, "y" * 20000)))
con.execute("UPDATE meta SET value=? WHERE key='seed'", ('"half written"',))
print("commit", flush=True)
con.execute("COMMIT")
"""


def _cut_saves(tmp_path, want: int = 3, tries: int = 200) -> list:
    """Saves of 6 orders whose writer was killed (kill -9) while committing more: each with its
    hot journal, as such a crash leaves it."""
    info = registry.get("kampen")
    s = info.build().new_state(4)
    base = tmp_path / "base.hexwar"
    s.attach_save(base)
    for _ in range(6):
        s.apply(s.legal_orders()[0])
    s.close()
    rng = random.Random(70)
    cut = []
    for k in range(tries):  # until enough kills land inside a commit (nearly all do)
        p = tmp_path / f"g{k}.hexwar"
        shutil.copyfile(base, p)
        w = subprocess.Popen([sys.executable, "-c", WRITER, str(p)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        w.stdout.readline()
        if rng.random() < 0.5:
            subprocess.run([sys.executable, "-c", "pass"])  # a moment, as long as the machine takes to start one
        w.send_signal(signal.SIGKILL)
        w.wait()
        w.stdout.close()
        journal = p.with_name(p.name + JOURNAL)
        if journal.exists() and journal.stat().st_size > 0:
            cut.append(p)
            if len(cut) >= want:
                break
    assert cut, "no kill landed inside a commit"
    return cut


def test_a_save_cut_off_mid_order_is_read_as_it_stood_before_that_order(tmp_path):
    for p in _cut_saves(tmp_path):
        journal = p.with_name(p.name + JOURNAL)
        before = (p.read_bytes(), journal.read_bytes())
        log = SaveFile(p).load()
        assert len(log) == 6 and log.meta["seed"] == 4  # the order half written is not read
        assert (p.read_bytes(), journal.read_bytes()) == before  # a reader changes nothing


def test_its_next_writer_rolls_it_back_and_plays_on(tmp_path):
    p = _cut_saves(tmp_path, want=1)[0]
    sf = SaveFile(p)
    sf.lock()
    log = sf.load()
    sf.append(Entry(6, {"kind": "pass", "side": "germans"}, [], []))
    sf.close()
    assert not p.with_name(p.name + JOURNAL).exists()
    assert len(SaveFile(p).load()) == len(log) + 1
