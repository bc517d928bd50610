"""What every ``hexwar`` command shares: the typer app, the consoles, one-line errors."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import typer
from rich.console import Console

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="hexwar: rules engine for the 1940 Narvik wargames.")
map_app = typer.Typer(no_args_is_help=True, help="Show, render and build maps.")
app.add_typer(map_app, name="map")
out = Console()
err = Console(stderr=True)

JSON = typer.Option(False, "--json", help="Print machine-readable JSON instead of tables.")


class UserError(Exception):
    """A mistake in what the user asked for: one line, exit 2."""


def emit(obj: Any) -> None:
    """Print JSON (sorted keys; fractions as strings)."""
    out.print_json(json.dumps(obj, default=_default, sort_keys=True))


def _default(v: Any) -> Any:
    if isinstance(v, Fraction):
        return str(v) if v.denominator != 1 else int(v)
    if isinstance(v, (set, frozenset)):
        return sorted(v)
    if hasattr(v, "to_dict"):
        return v.to_dict()
    raise TypeError(f"cannot serialise {type(v).__name__}")


def registry_game(name: str) -> Any:
    """Return a game's registry record; an unknown name is a one-line error."""
    from hexwar.games.registry import UnknownGame, get

    try:
        return get(name)
    except UnknownGame as e:
        raise UserError(str(e)) from None
