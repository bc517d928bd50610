"""Where a bug of hexwar's is written down: the traceback of an internal error, kept in a
file the person can find and send (the command line and the web board both say its path)."""

from __future__ import annotations

import os
import tempfile
import traceback
from pathlib import Path


#: the size past which the crash log is set aside as ``crash.log.1`` (the one before it
#: dropped) and started afresh: a fault repeated by every request cannot fill a disk
MAX_LOG = 1 << 20


def crash_log(exc: BaseException) -> str | None:
    """Append the traceback of ``exc`` to ``$XDG_STATE_HOME/hexwar/crash.log`` (or the
    temporary folder's ``hexwar-crash.log`` where that cannot be made) and return its
    path, or None when no file can be written. The log is rotated past :data:`MAX_LOG`
    bytes, so it and the one before it hold at most twice that."""
    folder = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state") / "hexwar"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "crash.log"
    except OSError:
        path = Path(tempfile.gettempdir()) / "hexwar-crash.log"
    try:
        if path.is_file() and path.stat().st_size > MAX_LOG:
            os.replace(path, path.with_name(path.name + ".1"))
    except OSError:
        pass
    try:
        with open(path, "a", encoding="utf-8", errors="backslashreplace") as fh:
            fh.write("".join(traceback.format_exception(exc)) + "\n")
    except OSError:
        return None
    return str(path)
