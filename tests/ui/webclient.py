"""A test client of the web board that is its own page: it asks at 127.0.0.1 with the
board's key, as the page the board serves does (hexwar/web/server.py, Guard)."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from hexwar.web.server import TOKEN_HEADER, WebGame, make_app


def board(player: Any) -> TestClient:
    """A client of a board over a terminal's game (its presenter), holding the board's key."""
    app = make_app(WebGame(player.presenter))
    return TestClient(app, base_url="http://127.0.0.1:8000", headers={TOKEN_HEADER: app.token})
