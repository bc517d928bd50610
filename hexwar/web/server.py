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
from starlette.concurrency import run_in_threadpool
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
        self.bot: dict[str, list[str]] = {"locs": [], "lines": []}  # the bots' last turn
        self._bot_orders: list[Any] = []
        #: how a thinking search bot stands (time and playouts: progress_line), read without
        #: the lock while a command waits on the bots
        self.progress = ""
        player.on_progress = self._heard

    def _take(self) -> str:
        text = self.buf.getvalue()
        self.buf.seek(0)
        self.buf.truncate()
        lines = [ln for ln in text.splitlines() if ln.strip()]
        self.history = (self.history + lines)[-HISTORY:]
        return "\n".join(lines)

    def _heard(self, line: str) -> None:
        self.progress = line

    def _bots(self) -> None:
        """Let the bots play until it is the person's turn; remember where they acted."""
        s = self.p.s
        moved = False
        while not s.is_over() and s.current_side() not in self.p.humans:
            if not moved:
                self.bot = {"locs": [], "lines": []}
                self.progress = ""
                moved = True
            side = s.current_side()
            n = len(s.log)
            self.p.bot_move()
            view = self.p.view()
            for e in s.log.entries[n:]:
                order = s.game.orders.from_dict(e.order)
                m = self.p.order_marks(order, view)
                self.bot["locs"] += [x for x in (m["f"], m["t"]) if x]
                self.bot["lines"].append(f"{side}: {self.p.order_text(order)}")
                self._bot_orders.append(order)
        if moved:
            self.bot["lines"].insert(0, self.p.bot_summary(self._bot_orders))
            self._bot_orders = []

    def state(self) -> dict[str, Any]:
        with self.lock:
            self._bots()
            self._take()
            return self._state()

    def command(self, line: str) -> dict[str, Any]:
        with self.lock:
            self._bots()
            self._take()
            self.history.append(f"> {line}")  # what the person gave, as the terminal shows it typed
            word = line.split(" ", 1)[0].lower()
            if word not in ("status", "explain", "map", "help", "list"):
                self.bot = {"locs": [], "lines": []}
            s = self.p.s
            if s.is_over() and word not in ("status", "explain", "map", "save", "help", "undo", "list"):
                self.p.out.print(f"the game is over: {self.p.final_line()}")
            else:
                self.p.command(line, s.legal_orders() if not s.is_over() else [])
                self._bots()
            out = self._take()
            return {"output": out, **self._state()}

    def _sees(self, unit: str | None) -> bool:
        """Whether the person may see this unit (their own, or one face up: 11.0)."""
        units = getattr(self.p.view(), "units", {})
        return unit is not None and unit in units and self.p.visible(units[unit])

    def about(self, loc: str, unit: str | None) -> dict[str, Any]:
        """What the hover shows of a place (and whether the picked unit can get there)."""
        with self.lock:
            p = self.p
            if loc not in p.game.board:
                raise KeyError(f"no place {loc!r} on this board")
            return {"about": p.about(loc, unit if self._sees(unit) else None)}

    def pick(self, loc: str | None, unit: str | None) -> dict[str, Any]:
        """A place (and a unit) picked on the map: what is there, and the orders that act on
        it, each with its cost or odds (the orders of the unit alone when one is picked)."""
        with self.lock:
            p, s = self.p, self.p.s
            board = p.game.board
            if loc is not None and loc not in board:
                raise KeyError(f"no place {loc!r} on this board")
            view = p.view()
            if unit is not None and not self._sees(unit):
                raise KeyError(f"no unit {unit!r} you can see")
            legal = [] if s.is_over() or s.current_side() not in p.humans else s.legal_orders()
            out = []
            here = {u.id for u in view.at(loc)} if hasattr(view, "at") and loc else set()
            for i, o in enumerate(legal[:MAX_ORDERS]):
                m = p.order_marks(o, view)
                if unit is not None:
                    hit = unit in m["u"]
                else:
                    hit = loc in (m["f"], m["t"]) or bool(here & set(m["u"]))
                if hit:
                    note, cost = p.order_note(o)
                    out.append({"i": i, "text": p.order_text(o), "note": note, "cost": cost, **m})
            return {"about": p.about(loc, unit) if loc else [], "orders": out}

    def _state(self) -> dict[str, Any]:
        p, s = self.p, self.p.s
        over = s.is_over()
        side = None if over else s.current_side()
        legal = [] if over or side not in p.humans else s.legal_orders()
        svg = p.map_svg()
        view = p.view()
        marks = [p.order_marks(o, view) for o in legal[:MAX_ORDERS]]
        return {
            "title": p.title,
            "heading": "game over: " + p.final_line() if over else p.heading(side or ""),
            "side": side,
            "yours": bool(legal),
            "over": over,
            "orders": [p.order_text(o) for o in legal[:MAX_ORDERS]],
            "marks": marks,
            # the full list's notes: those of the orders that name no unit and no place, which
            # no pick on the map shows (a pass and what it leaves undone, evade or stand); a
            # unit's orders carry theirs when the unit or its place is picked
            "notes": {i: note for i, (o, m) in enumerate(zip(legal, marks))
                      if not m["u"] and m["t"] is None and (note := p.order_note(o)[0])},
            "tracks": p.tracks(),
            "hand": p.hand(),
            "bot": self.bot,
            "viewer": p.viewer,
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
        return JSONResponse(await run_in_threadpool(game.command, line.strip()))

    async def pick(request: Request) -> JSONResponse:
        loc, unit = request.query_params.get("loc"), request.query_params.get("unit")
        if not loc and not unit:
            return JSONResponse({"error": "pick a place (?loc=2212) or a unit (?unit=1SG)"}, status_code=422)
        try:
            return JSONResponse(await run_in_threadpool(game.pick, loc or None, unit or None))
        except KeyError as e:
            return JSONResponse({"error": str(e.args[0])}, status_code=404)

    async def about(request: Request) -> JSONResponse:
        loc, unit = request.query_params.get("loc"), request.query_params.get("unit")
        if not loc:
            return JSONResponse({"error": "hover a place: ?loc=2212"}, status_code=422)
        try:
            return JSONResponse(await run_in_threadpool(game.about, loc, unit or None))
        except KeyError as e:
            return JSONResponse({"error": str(e.args[0])}, status_code=404)

    async def progress(request: Request) -> JSONResponse:
        """How the bot's search stands while a command waits on it (the page polls this)."""
        return JSONResponse({"line": game.progress})

    routes = [Route("/", page), Route("/api/state", state), Route("/api/command", command, methods=["POST"]),
              Route("/api/pick", pick), Route("/api/about", about), Route("/api/progress", progress)]
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
