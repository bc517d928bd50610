"""A local web board for any game of the registry (issue 14, first slice).

The page talks to one game through the same :class:`hexwar.ui.play.Player` the terminal
uses: the same orders, commands (``undo``, ``save``, ``explain``, ``status``), saves, bots
and side's view. Only the person's own sides are shown; the SVG map is drawn from that
side's view (the other side's face-down counters stay '?').

Served on 127.0.0.1 only (a non-loopback host is refused), with a Host-header check against
DNS rebinding. Malformed requests get a 4xx with a one-line reason.
"""

from __future__ import annotations

import io
import socket
import threading
from importlib import resources
from typing import Any

from rich.console import Console
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route

from hexwar.ui.play import Player

LOOPBACK = ("127.0.0.1", "localhost", "::1")
MAX_LINE = 2000  # a typed command longer than this is not a command
MAX_ORDERS = 5000  # orders sent to the page (it shows 150 a group; the filter finds the rest)
HISTORY = 400  # lines of history kept for the page


class WebGame:
    """One game served to one person: a Player whose console writes into a buffer."""

    def __init__(self, player: Player):
        self.p = player
        self.buf = io.StringIO()
        player.out = Console(file=self.buf, width=110, color_system=None, force_terminal=False, soft_wrap=True)
        player.read = lambda prompt: "quit"  # the page sends commands; nothing reads stdin
        self.lock = threading.Lock()
        self.history: list[str] = []

    def _take(self) -> str:
        text = self.buf.getvalue()
        self.buf.seek(0)
        self.buf.truncate()
        lines = [ln for ln in text.splitlines() if ln.strip()]
        self.history = (self.history + lines)[-HISTORY:]
        return "\n".join(lines)

    def _bots(self) -> None:
        s = self.p.s
        while not s.is_over() and s.current_side() not in self.p.humans:
            self.p.bot_move()

    def state(self) -> dict[str, Any]:
        with self.lock:
            self._bots()
            self._take()
            return self._state()

    def command(self, line: str) -> dict[str, Any]:
        with self.lock:
            self._bots()
            self._take()
            word = line.split(" ", 1)[0].lower()
            s = self.p.s
            if s.is_over() and word not in ("status", "explain", "map", "save", "help", "undo", "list"):
                self.p.out.print(f"the game is over: {self.p.final_line()}")
            else:
                self.p.command(line, s.legal_orders() if not s.is_over() else [])
                self._bots()
            out = self._take()
            return {"output": out, **self._state()}

    def _state(self) -> dict[str, Any]:
        p, s = self.p, self.p.s
        over = s.is_over()
        side = None if over else s.current_side()
        legal = [] if over or side not in p.humans else s.legal_orders()
        from hexwar.games.registry import get

        info = get(p.game.name)
        view = p.view()
        svg = info.render(p.game, view, viewer=p.viewer, title=p.heading(side) if side else "game over")
        return {
            "title": p.title,
            "heading": "game over: " + p.final_line() if over else p.heading(side or ""),
            "side": side,
            "yours": bool(legal),
            "over": over,
            "orders": [p.order_text(o) for o in legal[:MAX_ORDERS]],
            "orders_total": len(legal),
            "history": self.history[-120:],
            "svg": svg,
            "save": str(p.save_path or ""),
        }


def make_app(game: WebGame) -> Starlette:
    """The page and its JSON API over one game."""

    async def page(request: Request) -> HTMLResponse:
        return HTMLResponse(resources.files("hexwar.web").joinpath("page.html").read_text(encoding="utf-8"))

    def state(request: Request) -> JSONResponse:
        return JSONResponse(game.state())

    async def command(request: Request) -> JSONResponse:
        try:
            body = await request.json()
        except ValueError:
            return JSONResponse({"error": "the body must be JSON: {\"line\": \"<command or order>\"}"}, status_code=400)
        line = body.get("line") if isinstance(body, dict) else None
        if not isinstance(line, str) or not line.strip():
            return JSONResponse({"error": "\"line\" must be a non-empty string (an order or a command)"}, status_code=422)
        if len(line) > MAX_LINE or "\n" in line:
            return JSONResponse({"error": f"\"line\" is one line of at most {MAX_LINE} characters"}, status_code=422)
        from starlette.concurrency import run_in_threadpool

        return JSONResponse(await run_in_threadpool(game.command, line.strip()))

    routes = [Route("/", page), Route("/api/state", state), Route("/api/command", command, methods=["POST"])]
    hosts = ["127.0.0.1", "localhost", "[::1]", "::1", "testserver"]
    return Starlette(routes=routes, middleware=[Middleware(TrustedHostMiddleware, allowed_hosts=hosts)])


def free_port(host: str = "127.0.0.1") -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sk:
        sk.bind((host, 0))
        return int(sk.getsockname()[1])


def serve(player: Player, host: str = "127.0.0.1", port: int = 0, open_browser: bool = True,
          say: Any = print) -> None:
    """Serve the game on the loopback interface until interrupted; print the address."""
    import uvicorn

    if host not in LOOPBACK:
        raise ValueError(f"the web board serves on the loopback interface only (127.0.0.1), not {host!r}: "
                         "it has no login")
    port = port or free_port()
    url = f"http://127.0.0.1:{port}/"
    say(f"the board is at {url}  (Ctrl-C stops; every order is already saved)")
    import os
    import sys

    if open_browser and (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or sys.platform in ("darwin", "win32")):
        import webbrowser  # only where a browser can show a window

        threading.Timer(0.8, lambda: webbrowser.open(url)).start()
    uvicorn.run(make_app(WebGame(player)), host="127.0.0.1", port=port, log_level="warning")
