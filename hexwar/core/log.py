"""The event log: one entry per applied order, with its dice and events; crash-safe saves.

A game *is* its log: replaying the orders with the recorded rolls rebuilds the state
without an RNG; undo is a replay of the log minus its tail. Saves are SQLite databases
written one transaction per order, so killing the process at any moment loses at most
the order being entered.
"""

from __future__ import annotations

import json
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping

from hexwar.core.dice import Roll

SCHEMA_VERSION = 1


@dataclass
class Entry:
    """One applied order: who gave it, what it was, what the dice said, what happened."""

    seq: int
    order: dict[str, Any]
    rolls: list[Roll] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"seq": self.seq, "order": self.order, "rolls": [r.to_dict() for r in self.rolls], "events": self.events}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Entry":
        return cls(d["seq"], d["order"], [Roll.from_dict(r) for r in d["rolls"]], list(d["events"]))


@dataclass
class EventLog:
    """An append-only list of entries plus what is needed to start the game again."""

    meta: dict[str, Any]
    entries: list[Entry] = field(default_factory=list)

    def append(self, entry: Entry) -> None:
        if entry.seq != len(self.entries):
            raise ValueError(f"log entry {entry.seq} out of order (have {len(self.entries)})")
        self.entries.append(entry)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def to_json(self) -> str:
        return json.dumps({"meta": self.meta, "entries": [e.to_dict() for e in self.entries]}, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> "EventLog":
        d = json.loads(text)
        return cls(d["meta"], [Entry.from_dict(e) for e in d["entries"]])


class SaveFile:
    """A game saved as SQLite: ``meta`` rows and one ``entries`` row per order.

    Each :meth:`append` is its own committed transaction (journal on), so a crash mid-write
    leaves the file at the last complete order. :meth:`rewrite` (after undo) writes a new file
    next to the old one and renames it into place.
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        con = sqlite3.connect(str(path), isolation_level=None, timeout=5.0)
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=FULL")
        con.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        con.execute("CREATE TABLE IF NOT EXISTS entries (seq INTEGER PRIMARY KEY, body TEXT NOT NULL)")
        return con

    def create(self, log: EventLog) -> None:
        """Write a whole log to the save path, atomically replacing any older file."""
        tmp = self.path.with_name(self.path.name + ".tmp")
        for p in (tmp, Path(str(tmp) + "-wal"), Path(str(tmp) + "-shm")):
            if p.exists():
                p.unlink()
        con = self._connect(tmp)
        try:
            con.execute("BEGIN")
            meta = dict(log.meta, schema_version=SCHEMA_VERSION)
            con.executemany("INSERT INTO meta VALUES (?, ?)", [(k, json.dumps(v)) for k, v in meta.items()])
            con.executemany("INSERT INTO entries VALUES (?, ?)", [(e.seq, json.dumps(e.to_dict())) for e in log.entries])
            con.execute("COMMIT")
            con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            con.close()
        for suffix in ("-wal", "-shm"):
            old = Path(str(self.path) + suffix)
            if old.exists():
                old.unlink()
        os.replace(tmp, self.path)

    rewrite = create

    def append(self, entry: Entry) -> None:
        """Add one entry in its own transaction."""
        con = self._connect(self.path)
        try:
            con.execute("INSERT INTO entries VALUES (?, ?)", (entry.seq, json.dumps(entry.to_dict())))
        finally:
            con.close()

    def load(self) -> EventLog:
        """Read the log back; a file that is not a hexwar save raises ``ValueError``."""
        if not self.path.exists():
            raise ValueError(f"{self.path}: no such save file")
        try:
            con = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
            try:
                meta = {k: json.loads(v) for k, v in con.execute("SELECT key, value FROM meta")}
                rows = con.execute("SELECT body FROM entries ORDER BY seq").fetchall()
            finally:
                con.close()
        except sqlite3.DatabaseError as exc:
            raise ValueError(f"{self.path}: not a hexwar save file ({exc})") from None
        log = EventLog(meta)
        for (body,) in rows:
            log.append(Entry.from_dict(json.loads(body)))
        return log
