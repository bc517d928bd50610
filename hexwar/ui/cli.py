"""The ``hexwar`` command line (typer + rich). Every command takes ``--json``.

Data problems print one line each (``file:key: message``) and exit 1; bad arguments
print one line and exit 2. No command shows a traceback for a user's mistake. The commands
live in ``cli_data`` (data and rule queries) and ``cli_play`` (playing, replaying,
simulating and comparing games); they reach the games only through the game registry.
"""

from __future__ import annotations

import sys

from hexwar.board import BoardError
from hexwar.data.loader import DataError
from hexwar.ui import cli_data, cli_play  # noqa: F401 (the commands register themselves on the app)
from hexwar.ui.cli_common import UserError, app

__all__ = ["app", "main"]


def main() -> None:
    """Run the CLI, turning data and user errors into one-line messages."""
    try:
        app()
    except DataError as e:
        for p in e.problems:
            print(str(p), file=sys.stderr)
        sys.exit(1)
    except (UserError, BoardError, KeyError, ValueError) as e:
        msg = e.args[0] if e.args else str(e)
        print(f"error: {msg}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":  # pragma: no cover
    main()
