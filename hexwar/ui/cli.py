"""The ``hexwar`` command line (typer + rich). Every command takes ``--json``.

Data problems print one line each (``file:key: message``) and exit 1; bad arguments
print one line and exit 2. No command shows a traceback for a user's mistake. The commands
live in ``cli_data`` (data and rule queries), ``cli_play`` (playing, simulating and
comparing games), ``cli_saves`` (replaying a save, writing a position) and ``cli_ladder`` (the bot
ladder); they reach the games only through the game registry.
"""

from __future__ import annotations

import errno
import sys

from hexwar.board import BoardError
from hexwar.data.loader import DataError, DataNameError
from hexwar.ui import cli_data, cli_ladder, cli_play, cli_saves  # noqa: F401 (the commands register themselves on the app)
from hexwar.ui.cli_common import UserError, app, shortened

__all__ = ["app", "main"]


def main() -> None:
    """Run the CLI, turning data and user errors into one-line messages."""
    try:
        if "--help" in sys.argv or len(sys.argv) < 2:  # a help page: the summaries and examples
            import typer

            from hexwar.ui.cli_help import with_help

            with_help(typer.main.get_command(app))(prog_name="hexwar")
        else:
            app()
    except DataNameError as e:
        print(f"error: {e.line}", file=sys.stderr)
        sys.exit(2)
    except DataError as e:
        for p in e.problems:
            print(str(p), file=sys.stderr)
        sys.exit(1)
    except (UserError, BoardError, ValueError) as e:
        msg = e.args[0] if e.args else str(e)
        print(f"error: {msg}", file=sys.stderr)
        sys.exit(2)
    except OSError as e:
        if e.errno != errno.ENAMETOOLONG:  # a name too long anywhere the checks above missed
            _internal(e)
        print(f"error: {shortened(str(e.filename))}: the file name is too long for the file system", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        print("interrupted (every order already given is saved)", file=sys.stderr)
        sys.exit(130)
    except Exception as e:  # a bug, not the user's mistake: one line, the details in a file
        _internal(e)


def _internal(e: BaseException) -> None:
    """Say a bug of hexwar's in one line (the traceback goes to a file) and exit 3."""
    print(f"hexwar: internal error ({type(e).__name__}: {e}); please report it with {_crash_log(e)}", file=sys.stderr)
    sys.exit(3)


def _crash_log(exc: BaseException) -> str:
    """Write the traceback of an internal error where the person can find and send it."""
    import os
    import tempfile
    import traceback
    from pathlib import Path

    folder = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state") / "hexwar"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "crash.log"
    except OSError:
        path = Path(tempfile.gettempdir()) / "hexwar-crash.log"
    try:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write("".join(traceback.format_exception(exc)) + "\n")
    except OSError:
        return "its message"
    return str(path)


if __name__ == "__main__":  # pragma: no cover
    main()
