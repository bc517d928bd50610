"""The ``hexwar`` command line (typer + rich). Every command takes ``--json``.

Data problems print one line each (``file:key: message``) and exit 1; bad arguments
print one line and exit 2. No command shows a traceback for a user's mistake; a bug says it
is one (exit 3, its traceback kept in a file), a ``ValueError`` from inside a builtin or a
library too, where only a ``raise`` of hexwar's own is a refusal (``refused``). The commands
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
        if not isinstance(e, (UserError, BoardError)) and not refused(e):
            _internal(e)  # max() of nothing, a library's parse: hexwar's bug, not the person's input
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


def refused(e: BaseException) -> bool:
    """Whether a ``ValueError`` is a refusal of hexwar's, raised by a ``raise`` statement
    of its code or a game's with its words for the person (a value given that the rules or
    the data do not allow), rather than raised inside a builtin or a library that hexwar's
    code called and did not expect to fail (``max()`` of nothing): a bug, said as one with
    its traceback kept. A ``ValueError`` that hexwar catches and raises again as its own
    refusal is a refusal."""
    import linecache

    tb = e.__traceback__
    if tb is None:
        return True  # made, not raised: nothing says where
    while tb.tb_next is not None:
        tb = tb.tb_next
    return linecache.getline(tb.tb_frame.f_code.co_filename, tb.tb_lineno).lstrip().startswith("raise")


def _internal(e: BaseException) -> None:
    """Say a bug of hexwar's in one line (the traceback goes to a file) and exit 3."""
    from hexwar.ui.crash import crash_log

    print(f"hexwar: internal error ({type(e).__name__}: {e}); please report it with {crash_log(e) or 'its message'}",
          file=sys.stderr)
    sys.exit(3)


if __name__ == "__main__":  # pragma: no cover
    main()
