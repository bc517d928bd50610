"""The event log: one entry per applied order, with its dice and events; crash-safe saves.

A game *is* its log: replaying the orders with the recorded rolls rebuilds the state
without an RNG; undo is a replay of the log minus its tail. Saves are SQLite databases
written one transaction per order, so killing the process at any moment loses at most
the order being entered.
"""

from __future__ import annotations

import json
import os
import shlex
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


class SaveError(ValueError):
    """A save that cannot be read or written as asked: one line naming the file (and entry);
    ``seq``: the order it stops replaying at, when one is to blame."""

    seq: int | None = None


class SaveLocked(SaveError):
    """Another process is playing this save."""


def read_only(path: Path) -> bool:
    """Whether a file or folder is read-only: not writable by us, or made so on purpose (no
    write bit for anyone: even a superuser, whom permissions do not stop, is refused)."""
    import stat

    return not os.access(path, os.W_OK) or not path.stat().st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)


#: what SQLite writes beside a save while it writes it (the rollback journal)
JOURNAL = "-journal"


def name_too_long(path: Path, suffix: str = "") -> str:
    """Why a file name (with ``suffix``: a file written beside it) does not fit the file
    system, or "" when it fits.

    >>> name_too_long(Path("a" * 300 + ".hexwar"))
    'the file name is 307 bytes; this file system takes at most 255'
    """
    folder = path.parent if str(path.parent) else Path(".")
    try:
        limit = os.pathconf(folder, "PC_NAME_MAX") if folder.is_dir() else 255
    except (OSError, ValueError):
        limit = 255
    size = len(os.fsencode(path.name + suffix))
    if size <= limit:
        return ""
    if suffix and len(os.fsencode(path.name)) <= limit:
        return f"the file name is {size - len(suffix)} bytes; a save's name may have at most {limit - len(suffix)}"
    return f"the file name is {size - len(suffix)} bytes; this file system takes at most {limit}"


def _uri(path: Path, immutable: bool = False) -> str:
    """A read-only SQLite URI for any file name (``#``, ``?``, ``%`` and spaces escaped)."""
    return path.resolve().as_uri() + "?mode=ro" + ("&immutable=1" if immutable else "")


class SaveFile:
    """A game saved as SQLite: ``meta`` rows and one ``entries`` row per order.

    - :meth:`create` writes a new save and never replaces an existing file;
    - :meth:`append` adds each order in its own committed transaction (a rollback journal
      with full sync), so a crash mid-write leaves the file at the last complete order and
      no ``-wal``/``-shm`` files stay behind;
    - :meth:`truncate` takes orders back in place, in one transaction (undo);
    - :meth:`lock` makes this process the save's only writer until :meth:`close` (an OS lock
      on the file, released if the process dies): a second player gets :class:`SaveLocked`;
    - :meth:`load` reads a save read-only, from read-only files and folders too, and answers
      anything that is not a sound hexwar save with one :class:`SaveError` line.
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._lock_fd: int | None = None

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        con = sqlite3.connect(str(path), isolation_level=None, timeout=5.0)
        con.execute("PRAGMA journal_mode=DELETE")
        con.execute("PRAGMA synchronous=FULL")
        return con

    def create(self, log: EventLog) -> None:
        """Write a whole log as a new save; an existing file of that name is never touched,
        and a save that cannot be written whole leaves no file behind."""
        too_long = name_too_long(self.path, JOURNAL)
        if too_long:
            raise SaveError(f"{self.path}: {too_long}")
        try:
            fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)  # claim the name
        except FileExistsError:
            raise SaveError(f"{self.path}: already exists; a new game never overwrites a file") from None
        except OSError as e:
            raise SaveError(f"{self.path}: cannot create the save ({e.strerror})") from None
        os.close(fd)
        try:
            self._fill(log)
        except BaseException:
            self.path.unlink(missing_ok=True)  # the name was ours: nothing half-made stays
            raise

    def _fill(self, log: EventLog) -> None:
        """Write the tables and rows of a new save into the empty file just claimed."""
        try:
            con = self._connect(self.path)
            try:
                con.execute("BEGIN")
                con.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
                con.execute("CREATE TABLE entries (seq INTEGER PRIMARY KEY, body TEXT NOT NULL)")
                meta = dict(log.meta, schema_version=SCHEMA_VERSION)
                con.executemany("INSERT INTO meta VALUES (?, ?)", [(k, json.dumps(v)) for k, v in meta.items()])
                con.executemany("INSERT INTO entries VALUES (?, ?)", [(e.seq, json.dumps(e.to_dict())) for e in log.entries])
                con.execute("COMMIT")
            finally:
                con.close()
        except sqlite3.Error as e:
            raise SaveError(f"{self.path}: cannot write the save ({e})") from None

    def lock(self) -> None:
        """Become the save's only writer (until :meth:`close` or the end of the process)."""
        import fcntl

        if self._lock_fd is not None:
            return
        if self.path.exists() and read_only(self.path):
            raise SaveError(f"{self.path}: read-only; replay it with: hexwar replay {shlex.quote(str(self.path))}, "
                            "or copy it somewhere writable to play on")
        try:
            fd = os.open(self.path, os.O_RDWR)
        except PermissionError:
            raise SaveError(f"{self.path}: read-only (the file or its folder); replay it with: hexwar replay "
                            f"{shlex.quote(str(self.path))}, or copy it somewhere writable to play on") from None
        except OSError as e:
            raise SaveError(f"{self.path}: cannot open the save ({e.strerror})") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise SaveLocked(f"{self.path}: another hexwar is playing this save; close it first") from None
        if read_only(self.path.resolve().parent):
            os.close(fd)
            raise SaveError(f"{self.path}: its folder is read-only, so orders cannot be saved; replay it with: "
                            f"hexwar replay {shlex.quote(str(self.path))}, or copy it somewhere writable") from None
        self._lock_fd = fd

    def close(self) -> None:
        """Release the writer's lock."""
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def __del__(self) -> None:  # pragma: no cover - the OS releases it anyway
        self.close()

    def _write(self, sql: str, *rows: tuple[Any, ...]) -> None:
        """Run one statement for each row, in one transaction."""
        try:
            con = self._connect(self.path)
            try:
                con.execute("BEGIN IMMEDIATE")
                con.executemany(sql, rows)
                con.execute("COMMIT")
            finally:
                con.close()
        except sqlite3.Error as e:
            raise SaveError(f"{self.path}: cannot save ({e})") from None

    def append(self, entry: Entry) -> None:
        """Add one entry in its own transaction."""
        self._write("INSERT INTO entries VALUES (?, ?)", (entry.seq, json.dumps(entry.to_dict())))

    def update_meta(self, values: Mapping[str, Any]) -> None:
        """Set some of the save's meta rows (a seat taken over: ``seat``, ``seat_changes``),
        in one transaction."""
        self._write("INSERT OR REPLACE INTO meta VALUES (?, ?)", *[(k, json.dumps(v)) for k, v in values.items()])

    def truncate(self, keep: int) -> None:
        """Keep the first ``keep`` entries (undo), in one transaction."""
        self._write("DELETE FROM entries WHERE seq >= ?", (keep,))

    @staticmethod
    def _read(p: Path) -> tuple[list[tuple[Any, Any]], list[tuple[Any, Any]]]:
        """The meta and entry rows of a save with no journal beside it, read-only."""
        for immutable in (False, True):  # a read-only folder: read the file as it is (nothing to roll back)
            try:
                con = sqlite3.connect(_uri(p, immutable), uri=True)
                try:
                    meta_rows = con.execute("SELECT key, value FROM meta").fetchall()
                    rows = con.execute("SELECT seq, body FROM entries ORDER BY seq").fetchall()
                finally:
                    con.close()
                return meta_rows, rows
            except sqlite3.OperationalError as exc:
                if immutable or "no such table" in str(exc):
                    raise SaveError(f"{p}: not a hexwar save file ({exc})") from None
            except sqlite3.DatabaseError as exc:
                raise SaveError(f"{p}: damaged ({exc})") from None
        raise AssertionError("unreachable")  # pragma: no cover

    @classmethod
    def _read_rolled_back(cls, p: Path, journal: Path) -> tuple[list[tuple[Any, Any]], list[tuple[Any, Any]]]:
        """The rows of a save whose last write was cut off (a hot journal beside it: kill -9
        mid-order), as SQLite rolls it back: read from a copy of both files, so the order
        half written is not read and the save itself is left to its next writer, who rolls
        it back in place (issue 70: ``immutable=1`` read past the journal)."""
        import shutil
        import tempfile

        with tempfile.TemporaryDirectory(prefix="hexwar-save-") as tmp:
            copy = Path(tmp) / "save.hexwar"
            try:
                shutil.copyfile(p, copy)
                shutil.copyfile(journal, copy.with_name(copy.name + JOURNAL))
            except OSError as e:
                raise SaveError(f"{p}: its last order was cut off and it cannot be read to roll it back "
                                f"({e.strerror})") from None
            try:
                con = sqlite3.connect(str(copy), isolation_level=None)
                try:
                    meta_rows = con.execute("SELECT key, value FROM meta").fetchall()
                    rows = con.execute("SELECT seq, body FROM entries ORDER BY seq").fetchall()
                finally:
                    con.close()
            except sqlite3.DatabaseError as exc:
                raise SaveError(f"{p}: damaged ({exc})") from None
        return meta_rows, rows

    def load(self) -> EventLog:
        """Read the log back; anything but a sound hexwar save raises :class:`SaveError`."""
        p = self.path
        too_long = name_too_long(p)
        if too_long:
            raise SaveError(f"{p}: no such save file ({too_long})")
        if not p.exists():
            raise SaveError(f"{p}: no such save file")
        if not p.is_file():
            raise SaveError(f"{p}: not a file")
        try:
            with open(p, "rb") as fh:
                head = fh.read(16)
        except OSError as e:
            raise SaveError(f"{p}: cannot read ({e.strerror})") from None
        if head != b"SQLite format 3\x00":
            raise SaveError(f"{p}: not a hexwar save file (not an SQLite database)")
        journal = p.with_name(p.name + JOURNAL)
        if journal.is_file() and journal.stat().st_size > 0:
            meta_rows, rows = self._read_rolled_back(p, journal)
        else:
            meta_rows, rows = self._read(p)
        meta: dict[str, Any] = {}
        for k, v in meta_rows:
            try:
                meta[str(k)] = json.loads(v)
            except (TypeError, ValueError):
                raise SaveError(f"{p}: meta {k!r} is damaged") from None
        if not isinstance(meta.get("game"), str) or type(meta.get("seed")) is not int:
            raise SaveError(f"{p}: not a hexwar save file (no game or seed in its meta)")
        version = meta.get("schema_version", SCHEMA_VERSION)
        if type(version) is not int or version > SCHEMA_VERSION:
            raise SaveError(f"{p}: written by a newer hexwar (save format {version!r}; this one reads up to {SCHEMA_VERSION})")
        log = EventLog(meta)
        for n, (seq, body) in enumerate(rows):
            try:
                entry = Entry.from_dict(json.loads(body))
            except (TypeError, ValueError, KeyError, AttributeError) as exc:
                raise SaveError(f"{p}: entry {seq} is damaged ({exc})") from None
            if seq != n or entry.seq != n or not isinstance(entry.order, dict) or not isinstance(entry.events, list):
                raise SaveError(f"{p}: entry {seq} is damaged (out of order or malformed)")
            log.append(entry)
        return log
