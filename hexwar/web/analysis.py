"""The analysis board on the web (issue 54): ``hexwar analyse GAME --web``.

The page (``analysis.html``) sets a position up by hand, as a player copies a table: pieces
dragged (or clicked) from the tray onto the map, between places and off it, a piece's menu
for its fields, the tracks; every figure the game's analyst and presenter give for what is
picked, live; the position's flags; save (a position file beside the others) and the command
that plays on from it. It sits behind the play board's :class:`~hexwar.web.server.Guard`:
loopback only, the board's key in its address and in every request, no other page's origin.
"""

from __future__ import annotations

import threading
import time
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from hexwar.ai.helpers import lend_cores
from hexwar.ui.analysis import AnalysisBoard, pick_of
from hexwar.web.server import Guard, JSONResponse, fault_line, read_json

#: the keys of a pick the page sends with a question, or under ``pick`` with an edit
PICK_KEYS = ("piece", "loc", "attackers", "cards", "defend_cards")


class WebAnalysis:
    """One analysis board served to one person: its edits one at a time."""

    def __init__(self, board: AnalysisBoard):
        self.board = board
        self.lock = threading.Lock()
        #: the play board "play on here" started last (one at a time: the next stops it)
        self.playing: PlayBoard | None = None

    def look(self, query: dict[str, Any]) -> dict[str, Any]:
        with self.lock:
            return self._look(query)

    def _look(self, query: dict[str, Any]) -> dict[str, Any]:
        b = self.board
        pick = pick_of(query)
        if pick.loc is not None and pick.loc not in b.game.board:
            raise KeyError(f"no place {pick.loc!r} on this board")
        try:
            return b.snapshot(pick)
        except ValueError as e:  # a pick the game cannot read (an attacker not next to the target)
            snap = b.snapshot(pick_of({}))
            snap["figures"] = [{"title": "this pick", "lines": [str(e)], "marks": {}, "labels": {}}]
            return snap

    def edit(self, body: dict[str, Any]) -> dict[str, Any]:
        with self.lock:
            try:
                said = self.board.edit(body)
            except ValueError as e:
                return {"error": str(e)}
            asked = dict(body["pick"]) if isinstance(body.get("pick"), dict) else {}
            if body.get("do") == "place":  # the piece placed is the one picked now
                asked.update(piece=self.board.placed, loc=None)
            asked = {k: asked.get(k) for k in PICK_KEYS}
            return {"said": said, "pick": {"piece": asked["piece"], "loc": asked["loc"]}, **self._look(asked)}

    def save(self, name: str, note: str) -> dict[str, Any]:
        with self.lock:
            try:
                path = self.board.save(name, note)
            except ValueError as e:
                return {"error": str(e)}
            problems = self.board.problems()
            play = f"hexwar play {self.board.info.name} --from {path} --web"
            return {"saved": str(path), "play": play,
                    "said": f"saved to {path}; play on from it: {play}"
                    + (f" (first mend what is flagged: {len(problems)})" if problems else "")}

    def play_on(self, name: str, seat: str) -> dict[str, Any]:
        """Save the position and start a play board from it on another port of this machine
        (the person's seat against the game's default bot; the game saved beside the
        position): its address, which carries that board's key."""
        from hexwar.core.log import SaveError
        from hexwar.ui.cli_common import UserError, free_name, state_from_position
        from hexwar.ui.session import Session
        from hexwar.web.server import WebGame, listen, make_app

        with self.lock:
            b, info = self.board, self.board.info
            if seat not in info.seats:
                return {"error": f"no seat {seat!r}; seats: {', '.join(info.seats)}"}
            problems = b.problems(of_file=False)  # a value the file gave twice: the later, which play keeps too
            if problems:
                return {"error": f"mend what is flagged first ({len(problems)}): {problems[0]}"}
            try:
                path = b.save(name, "")
                state = state_from_position(info, path, 0)
                save = free_name(path.with_suffix(".hexwar"))
                state.log.meta.update(seat=seat, opponent=info.default_bot, think=1.0)
                state.attach_save(save)
            except (ValueError, UserError, SaveError) as e:
                return {"error": str(e)}
            humans = set(info.seats[seat])
            bots = {s: info.bot(info.default_bot, s, 0, 1.0) for s in info.sides if s not in humans}
            before = ""
            if self.playing is not None:  # one play board at a time: the last one's game is saved
                before = f"; the board of the last play-on is closed (its game is saved to {self.playing.save})"
                self.stop()
            lend_cores(bots.values())
            presenter = info.presenter(Session(state, humans, bots, save, b.folder))
            sock = listen(0)
            app = make_app(WebGame(presenter))
            self.playing = PlayBoard(app, sock, state, list(bots.values()), save)
            return {"url": self.playing.url, "saved": str(path), "save": str(save),
                    "said": f"playing on from {path} as the {seat}; the game is saved to {save}{before}"}

    def stop(self) -> None:
        """Stop the play board "play on here" started, its bots' helpers and its save's lock."""
        if self.playing is not None:
            self.playing.stop()
            self.playing = None


class PlayBoard:
    """A play board served in a thread of this process: its server, its game and its bots,
    stopped together (no server, helper or lock outlives the game it served)."""

    def __init__(self, app: Any, sock: Any, state: Any, bots: list[Any], save: Any):
        import uvicorn

        from hexwar.web.server import board_url

        self.state, self.bots, self.save = state, bots, save
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]}, daemon=True,
                                       name="hexwar-play-on")
        self.sock = sock
        self.thread.start()
        for _ in range(200):  # answering before its address is given
            if self.server.started:
                break
            time.sleep(0.02)
        self.url = board_url(int(sock.getsockname()[1]), app.token)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()
        for bot in self.bots:
            if bot.thinks:
                bot.close()  # its helper processes
        self.state.close()


def make_analysis_app(web: WebAnalysis, token: str | None = None) -> Guard:
    """The analysis page and its JSON API, behind the :class:`Guard`."""

    async def page(request: Request) -> HTMLResponse:
        html = resources.files("hexwar.web").joinpath("analysis.html").read_text(encoding="utf-8")
        return HTMLResponse(html.replace('<meta charset="utf-8">',
                                         f'<meta charset="utf-8">\n<meta name="hexwar-token" content="{guard.token}">', 1))

    async def icon(request: Request) -> Response:
        return Response(status_code=204)

    async def look(request: Request) -> JSONResponse:
        try:
            return JSONResponse(await run_in_threadpool(web.look, dict(request.query_params)))
        except KeyError as e:
            return JSONResponse({"error": str(e.args[0])}, status_code=404)

    async def body_of(request: Request) -> dict[str, Any] | JSONResponse:
        try:
            body = await read_json(request)
        except ValueError:
            return JSONResponse({"error": "the body must be JSON"}, status_code=400)
        if not isinstance(body, dict):
            return JSONResponse({"error": "the body must be a JSON object"}, status_code=422)
        return body

    async def edit(request: Request) -> JSONResponse:
        body = await body_of(request)
        if isinstance(body, JSONResponse):
            return body
        answer = await run_in_threadpool(web.edit, body)
        return JSONResponse(answer, status_code=422 if "error" in answer else 200)

    async def save(request: Request) -> JSONResponse:
        body = await body_of(request)
        if isinstance(body, JSONResponse):
            return body
        name, note = body.get("name"), body.get("note") or ""
        if not isinstance(name, str) or not isinstance(note, str) or len(name) > 200 or len(note) > 2000:
            return JSONResponse({"error": "\"name\": a file name (and \"note\": a line), as strings"}, status_code=422)
        answer = await run_in_threadpool(web.save, name, note)
        return JSONResponse(answer, status_code=422 if "error" in answer else 200)

    async def play(request: Request) -> JSONResponse:
        body = await body_of(request)
        if isinstance(body, JSONResponse):
            return body
        name, seat = body.get("name"), body.get("seat")
        if not isinstance(name, str) or not isinstance(seat, str) or len(name) > 200:
            return JSONResponse({"error": "\"name\": a file name, \"seat\": a seat, as strings"}, status_code=422)
        answer = await run_in_threadpool(web.play_on, name, seat)
        return JSONResponse(answer, status_code=422 if "error" in answer else 200)

    async def about(request: Request) -> JSONResponse:
        loc = request.query_params.get("loc") or ""
        if loc not in web.board.game.board:
            return JSONResponse({"error": f"no place {loc!r} on this board"}, status_code=404)
        return JSONResponse({"about": await run_in_threadpool(lambda: web.board.presenter.about(loc, None))})

    routes = [Route("/", page), Route("/favicon.ico", icon), Route("/api/analysis", look),
              Route("/api/edit", edit, methods=["POST"]), Route("/api/save", save, methods=["POST"]),
              Route("/api/play", play, methods=["POST"]),
              Route("/api/about", about)]

    async def fault(request: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"error": fault_line(exc)}, status_code=500)

    guard = Guard(Starlette(routes=routes, exception_handlers={Exception: fault}), token)
    return guard


def serve_analysis(board: AnalysisBoard, sock: Any, say: Any = print, open_browser: bool = True) -> None:
    """Serve the analysis board on a socket bound by ``server.listen`` until interrupted;
    print its address, which carries the board's key."""
    from hexwar.web.server import serve_app

    web = WebAnalysis(board)
    try:
        serve_app(make_analysis_app(web), sock, say, open_browser,
                  "the analysis board is at {url}  (Ctrl-C stops; save the position from the page)")
    finally:
        web.stop()
