"""A local web board for any game of the registry (issue 14, first slice; issue 51: closed
to other web pages).

The page talks to one game through the same commands the terminal reads
(``hexwar.ui.commands``: ``undo``, ``save``, ``explain``, ``status``, orders), the game's
presenter and its session: the same saves, bots and side's view. Only the person's own sides are shown; the SVG map is drawn from that
side's view (the other side's face-down counters stay '?').

The API answers with data, which the page renders: ``/api/state`` gives the decision (its
orders, the places they mark, their notes), the tracks, the hand, the bots' last turn and
the map; ``/api/command`` adds what came of an order as a record (``outcome``: given, with
its events; refused, with its reason and rule; to confirm; not understood, with why), from
which the terminal's words are made too (``hexwar.ui.commands.outcome_lines``). The map is
sent with its id (``svg_id``) and not again to a page that says it holds it (``have``).

Only the board's own page may use the board (:class:`Guard`, in front of every route):

- it is served on 127.0.0.1 only, and a request naming another host is refused (DNS
  rebinding);
- every server has a random key (``token``). The address printed at start carries it
  (``/?token=...``, as Jupyter does); the page is served only to that address, and sends
  the key back in the ``X-Hexwar-Token`` header of every request to ``/api/``. A page of
  another site knows no key, so it can neither read the state nor give an order;
- a request whose ``Origin`` (or ``Sec-Fetch-Site``) says it comes from another page is
  refused even with the key; an order must come as ``Content-Type: application/json``;
- bodies over :data:`MAX_BODY` bytes are refused before they are read (413), JSON nested
  deeper than :data:`MAX_DEPTH` before it is parsed (400);
- no page may frame the board (clickjacking), and nothing is cached;
- anything that goes wrong inside a request is one line in the log and one line to the
  page (500), never a traceback.

Every refusal is one line of JSON (``{"error": ...}``) and changes nothing.
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import secrets
import socket
import threading
from importlib import resources
from typing import Any, Awaitable, Callable, MutableMapping
from urllib.parse import parse_qs

from rich.console import Console
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.responses import JSONResponse as _JSONResponse
from starlette.routing import Route

from hexwar.ui.bots_turn import bot_summary, seen_marks
from hexwar.ui.commands import Commands
from hexwar.ui.crash import crash_log
from hexwar.ui.presenter import Presenter, briefing

LOOPBACK = ("127.0.0.1", "localhost", "::1")
#: the host names a request may give (the Host header without its port)
HOSTS = ("127.0.0.1", "localhost", "[::1]", "::1")
MAX_LINE = 2000  # a typed command longer than this is not a command
MAX_ORDERS = 5000  # orders sent to the page (it shows 150 a group; the filter finds the rest)
HISTORY = 400  # lines of history kept for the page
MAX_BODY = 64 * 1024  # bytes of a request body: a command is one line of at most MAX_LINE
MAX_DEPTH = 8  # nesting of a JSON body ({"line": ...} is 1)
TOKEN_HEADER = "x-hexwar-token"
#: headers on every answer: no other page may frame the board, guess a type or keep a copy
SAFE_HEADERS = [(b"x-frame-options", b"DENY"), (b"content-security-policy", b"frame-ancestors 'none'"),
                (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"no-referrer"),
                (b"cache-control", b"no-store")]
log = logging.getLogger("hexwar.web")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class JSONResponse(_JSONResponse):
    """Starlette's JSON answer that cannot fail on text: one string that is no UTF-8 (a lone
    surrogate that got past the door) is sent escaped, rather than breaking this answer and
    every later one that carries it (issue 70)."""

    def render(self, content: Any) -> bytes:
        try:
            return super().render(content)
        except UnicodeEncodeError:
            return json.dumps(content, ensure_ascii=True, allow_nan=False, indent=None, separators=(",", ":")).encode("ascii")


class WebGame:
    """One game served to one person: the game's commands, whose console writes into a buffer."""

    def __init__(self, presenter: Presenter):
        self.buf = io.StringIO()
        out = Console(file=self.buf, width=110, color_system=None, force_terminal=False, soft_wrap=True)
        # the page's save names a file beside the game's save, never a path
        self.c = Commands(presenter, out, copies_anywhere=False)
        self.p = presenter
        self.sess = presenter.session
        self.lock = threading.Lock()
        self.history: list[str] = []
        self.bot: dict[str, list[Any]] = {"locs": [], "lines": [], "steps": []}  # the bots' last turn
        self._bot_orders: list[Any] = []
        #: how a thinking search bot stands (time and playouts: progress_line), read without
        #: the lock while a command waits on the bots
        self.progress = ""
        #: the map last drawn, with what it was drawn from (:meth:`_map`)
        self._drawn: tuple[object, tuple[int, str | None], str, str] | None = None
        self.c.on_progress = self._heard
        if not any(e.order.get("side") in self.sess.humans for e in self.sess.s.log.entries):
            self.history = briefing(presenter)  # a game the person has not begun opens on its briefing

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
        s = self.sess.s
        moved = False
        while not s.is_over():
            if s.current_side() in self.sess.humans:
                if self.c.keep_waiting(s.legal_orders()):
                    continue  # a pass that ``wait`` gave: the bots answer it next
                break
            if not moved:
                self.bot = {"locs": [], "lines": [], "steps": []}
                self.progress = ""
                moved = True
            side = s.current_side()
            n = len(s.log)
            self.c.bot_move()
            view = self.sess.view()
            for e in s.log.entries[n:]:
                order = s.game.orders.from_dict(e.order)
                m = seen_marks(self.p, order, view)  # only the places the person may know of
                # the bots' turn step by step on the page: each order, where it acted, what came of it
                self.bot["steps"].append({"line": f"{side}: {self.p.order_line(order)}",
                                          "locs": [x for x in (m["f"], m["t"]) if x],
                                          "events": self.p.event_lines(e.events)[:12]})
                self._bot_orders.append(order)
        if moved:  # the whole turn: a sentence, then each order, and every place outlined
            steps = self.bot["steps"]
            self.bot["lines"] = [bot_summary(self.p, self._bot_orders)] + [st["line"] for st in steps]
            self.bot["locs"] = [x for st in steps for x in st["locs"]]
            self._bot_orders = []

    def state(self, have: str = "") -> dict[str, Any]:
        """The game as the page shows it (``have``: the id of the map the page holds; the map
        is sent only when it changed)."""
        with self.lock:
            self._bots()
            self._take()
            return self._state(have)

    def command(self, line: str, have: str = "") -> dict[str, Any]:
        """Carry out a line as the terminal would: the console's text (``output``), what came of
        an order as data (``outcome``: given with its events, refused with its reason and rule,
        to confirm, not understood; None for any other command) and the state after it."""
        with self.lock:
            self._bots()
            self._take()
            self.history.append(f"> {line}")  # what the person gave, as the terminal shows it typed
            self.c.outcome = None  # this line's, not the last one's (a line to a finished game gives none)
            word = line.split(" ", 1)[0].lower()
            if word not in ("status", "explain", "map", "help", "list"):
                self.bot = {"locs": [], "lines": [], "steps": []}
            s = self.sess.s
            if s.is_over() and word not in ("status", "explain", "map", "save", "help", "undo", "list"):
                self.c.say(f"the game is over: {self.p.final_line()}")
            else:
                self.c.command(line, s.legal_orders() if not s.is_over() else [])
                self._bots()
            out = self._take()
            return {"output": out, "outcome": self.c.outcome, **self._state(have)}

    def about(self, loc: str, unit: str | None) -> dict[str, Any]:
        """What the hover shows of a place (and whether the picked unit can get there)."""
        with self.lock:
            if loc not in self.p.game.board:
                raise KeyError(f"no place {loc!r} on this board")
            return {"about": self.p.about(loc, unit if unit is not None and self.p.sees_unit(unit) else None)}

    def pick(self, loc: str | None, unit: str | None) -> dict[str, Any]:
        """A place (and a unit) picked on the map: what is there, and the orders that act on
        it, each with its cost or odds (the orders of the unit alone when one is picked)."""
        with self.lock:
            p = self.p
            if loc is not None and loc not in p.game.board:
                raise KeyError(f"no place {loc!r} on this board")
            view = self.sess.view()
            if unit is not None and not p.sees_unit(unit):
                raise KeyError(f"no unit {unit!r} you can see")
            legal = self.sess.legal()
            out = []
            here = p.units_at(loc, view) if loc else set()
            for i, o in enumerate(legal[:MAX_ORDERS]):
                m = p.order_marks(o, view)
                if unit is not None:
                    hit = unit in m["u"]
                else:
                    hit = loc in (m["f"], m["t"]) or bool(here & set(m["u"]))
                if hit:
                    note, cost = p.order_note(o)
                    out.append({"i": i, "text": self.sess.order_text(o), "label": p.order_line(o), "note": note, "cost": cost, **m})
            return {"about": p.about(loc, unit) if loc else [], "orders": out,
                    "place": p.place_word(loc) if loc else ""}  # the place as the person reads it

    def _map(self) -> tuple[str, str]:
        """The map as the person sees it, and its id: drawn again only when the game has moved
        on (its data is replaced by every order and undo, never changed in place:
        ``PlayState``) or the seat has changed; a state call between orders reuses it."""
        s = self.sess.s
        key = (len(s.log), self.sess.viewer)
        if self._drawn is None or self._drawn[0] is not s.data or self._drawn[1] != key:
            svg = self.p.map_svg()
            self._drawn = (s.data, key, svg, hashlib.sha256(svg.encode()).hexdigest()[:16])
        return self._drawn[2], self._drawn[3]

    def _state(self, have: str = "") -> dict[str, Any]:
        p, sess = self.p, self.sess
        s = sess.s
        over = s.is_over()
        side = None if over else s.current_side()
        legal = sess.legal()
        svg, svg_id = self._map()
        view = sess.view()
        marks = [p.order_marks(o, view) for o in legal[:MAX_ORDERS]]
        texts = [sess.order_text(o) for o in legal[:MAX_ORDERS]]
        labels = [p.order_line(o) for o in legal[:MAX_ORDERS]]
        # where the play is: the places the person's orders start from or lead to (the page
        # frames them when a decision opens and none of them is in its window)
        focus = list(dict.fromkeys(x for m in marks for x in (m["f"], m["t"]) if x))[:60]
        return {
            "title": p.title,
            "heading": "game over: " + p.final_line() if over else p.heading(side or ""),
            "side": side,
            "yours": bool(legal),
            "over": over,
            "orders": texts,  # what a button sends
            "labels": labels if labels != texts else None,  # what it shows, where the presenter words it otherwise
            "marks": marks,
            "focus": focus,
            # the full list's notes: those of the orders that name no unit and no place, which
            # no pick on the map shows (a pass and what it leaves undone, evade or stand); a
            # unit's orders carry theirs when the unit or its place is picked
            "notes": {i: note for i, (o, m) in enumerate(zip(legal, marks))
                      if not m["u"] and m["t"] is None and (note := p.order_note(o)[0])},
            "tracks": p.tracks(),
            "hand": p.hand(),
            "bot": self.bot,
            "viewer": sess.viewer,
            "orders_total": len(legal),
            "history": self.history[-120:],
            # the map, unless the page holds it already (``have``: the id it was sent with)
            "svg": svg if have != svg_id else None,
            "svg_id": svg_id,
            "save": str(sess.save_path or ""),
        }


def json_depth(body: bytes, stop: int = MAX_DEPTH) -> int:
    """The deepest nesting of arrays and objects in a JSON text (strings skipped), counted no
    further than one past ``stop``; read before the text is parsed, so a body nested
    100,000 deep never reaches the parser's recursion.

    >>> json_depth(b'{"line": "[[[{"}'), json_depth(b'[[1], {"a": [2]}]'), json_depth(b'3')
    (1, 3, 0)
    """
    depth = deepest = 0
    in_str = esc = False
    for c in body:
        if in_str:
            if esc:
                esc = False
            elif c == 0x5C:  # backslash
                esc = True
            elif c == 0x22:  # quote
                in_str = False
        elif c == 0x22:
            in_str = True
        elif c in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > stop:
                    break
        elif c in (0x5D, 0x7D):
            depth -= 1
    return deepest


def kept(exc: BaseException) -> str | None:
    """The crash log a fault's traceback is written to (``hexwar.ui.crash``; None: none could
    be written): written once, however many times it is asked (the page's handler, then the
    Guard the fault reaches)."""
    if hasattr(exc, "_hexwar_crash_log"):
        kept: str | None = getattr(exc, "_hexwar_crash_log")
        return kept
    where = crash_log(exc)
    try:
        setattr(exc, "_hexwar_crash_log", where)
    except AttributeError:  # an exception that takes no attribute: written again if asked again
        pass
    return where


def fault_line(exc: BaseException) -> str:
    """What the page is told of a fault of hexwar's inside a request: one line, with the
    file its traceback went to."""
    where = kept(exc)
    more = f"; the details are in {where}, to send with a report" if where else ""
    return f"hexwar could not answer this request ({type(exc).__name__}); every order given so far is saved{more}"


async def _say(send: Send, status: int, reason: str, plain: bool = False) -> None:
    """Answer with one line: JSON ``{"error": reason}`` (plain text for the page's address)."""
    body = (reason if plain else json.dumps({"error": reason})).encode("utf-8") + b"\n"
    ctype = b"text/plain; charset=utf-8" if plain else b"application/json"
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", ctype), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


class Guard:
    """ASGI middleware in front of the board: only its own page, with its key, may use it.

    ``token``: the board's key, which the page's address carries and the page sends back
    in the ``X-Hexwar-Token`` header; a new random one when not given.
    """

    def __init__(self, app: Any, token: str | None = None):
        self.app = app
        self.token = token or secrets.token_urlsafe(24)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # the server's lifespan messages
            await self.app(scope, receive, send)
            return
        started = False

        async def send_safe(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = dict(message, headers=[*message.get("headers", []), *SAFE_HEADERS])
            await send(message)

        try:
            refused = self.refusal(scope)
            if refused is None and scope["method"] == "POST":
                body, refused = await self._body(receive)
                receive = _replayed(body, receive)
            if refused is not None:
                await _say(send_safe, *refused, plain=scope["path"] == "/")
                return
            await self.app(scope, receive, send_safe)
        except Exception as e:  # noqa: BLE001 - one line in the log and to the page; the traceback to the crash log
            log.error("%s %s: %s: %s (traceback in %s)", scope.get("method"), scope.get("path"), type(e).__name__,
                      str(e)[:200], kept(e) or "no file")
            if not started:
                await _say(send_safe, 500, fault_line(e))

    def refusal(self, scope: Scope) -> tuple[int, str] | None:
        """Why a request is refused from its head alone (status and one line), or None."""
        headers: dict[str, str] = {}
        for k, v in scope.get("headers", []):
            name = k.decode("latin-1").lower()
            if name in headers and name in ("host", "origin", "sec-fetch-site", TOKEN_HEADER, "content-type",
                                            "content-length"):
                return 400, f"refused: the header {name} is given twice"
            headers[name] = v.decode("latin-1")
        host = headers.get("host", "")
        name = host[: host.index("]") + 1] if host.startswith("[") and "]" in host else host.rsplit(":", 1)[0]
        if name not in HOSTS:  # DNS rebinding: another site's name resolved to this machine
            return 400, f"refused: this board answers only at 127.0.0.1, not at the host {host!r}"
        origin = headers.get("origin")
        if origin is not None and origin != f"{scope.get('scheme', 'http')}://{host}":
            return 403, f"refused: the request comes from another page ({origin[:80]}); only the board's own page may use it"
        path = scope["path"]
        if path == "/":  # the page's address carries the key (a person opens it; no page of ours is framed)
            given = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token", [""])[0]
            if not secrets.compare_digest(given.encode("utf-8", "replace"), self.token.encode()):
                return 403, ("refused: this board opens only at the address hexwar printed when it started "
                             "(it carries the board's key: /?token=...)")
            return None
        site = headers.get("sec-fetch-site")
        if site is not None and site not in ("same-origin", "none"):
            return 403, f"refused: the request comes from another page (Sec-Fetch-Site: {site[:40]})"
        if path == "/favicon.ico":
            return None
        if not secrets.compare_digest(headers.get(TOKEN_HEADER, "").encode("utf-8", "replace"), self.token.encode()):
            return 403, "refused: no key, or not this board's (only the page at the address hexwar printed may ask)"
        if scope["method"] == "POST":
            ctype = headers.get("content-type", "").split(";", 1)[0].strip().lower()
            if ctype != "application/json":
                return 415, f"refused: an order is sent as Content-Type: application/json, not {ctype or 'none'!r}"
            length = headers.get("content-length")
            if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
                return 413, f"refused: a request body is at most {MAX_BODY} bytes"
        return None

    @staticmethod
    async def _body(receive: Receive) -> tuple[bytes, tuple[int, str] | None]:
        """Read a body of at most :data:`MAX_BODY` bytes (no more is read) and check it as
        text before anything reads it (:func:`body_problem`)."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return b"", (400, "refused: the request was cut off")
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > MAX_BODY:
                return b"", (413, f"refused: a request body is at most {MAX_BODY} bytes")
            chunks.append(chunk)
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        problem = body_problem(body)
        return (b"", (400, problem)) if problem else (body, None)


def body_problem(body: bytes) -> str | None:
    """Why a request's body is no command, in one line, or None: it must be UTF-8 JSON (no
    other encoding, which ``json.loads`` would guess, hiding its nesting from the count), nest
    no deeper than :data:`MAX_DEPTH`, and hold only text a person can type (no lone surrogate
    ``\\ud800``, no control character: one such line kept in the history broke every later
    answer, issue 70).

    >>> body_problem(b'{"line": "move 1SG 2212"}') is None
    True
    >>> body_problem('{"line": "x"}'.encode("utf-16"))
    'refused: a request body is JSON in UTF-8'
    >>> body_problem(b'{"line": "\\\\ud800"}')
    'refused: the command holds a character that is no text (a lone surrogate or a control character)'
    """
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return "refused: a request body is JSON in UTF-8"
    if text.startswith("\ufeff"):
        return "refused: a request body is JSON in UTF-8, without a byte order mark"
    if json_depth(body) > MAX_DEPTH:
        return f"refused: JSON nested deeper than {MAX_DEPTH} levels is no command"
    try:
        value = json.loads(text)
    except ValueError:
        return None  # the route says what its body must be
    if not all(typable(x) for x in _strings(value)):
        return "refused: the command holds a character that is no text (a lone surrogate or a control character)"
    return None


def _strings(value: Any) -> list[str]:
    """Every string in a parsed JSON value (keys too), at most :data:`MAX_DEPTH` deep."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (k, *_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def typable(text: str) -> bool:
    """Whether ``text`` is text a person can type: encodable in UTF-8 and free of control
    characters (a tab and a line end aside).

    >>> typable("move 1SG Bjørnfjell"), typable("\\ud800"), typable("a\\x00b")
    (True, False, False)
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return not any(ord(c) < 32 and c not in "\t\n\r" or 0x7F <= ord(c) < 0xA0 for c in text)


async def read_json(request: Request) -> Any:
    """A request's body as the :class:`Guard` checked it: JSON read from UTF-8 text (never
    ``request.json()``, which guesses other encodings from the bytes); ``ValueError`` if
    it is not JSON."""
    return json.loads((await request.body()).decode("utf-8"))


def _replayed(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the body already read, then waits as the server's does."""
    given = False

    async def again() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again


def _have(value: object) -> str:
    """The id of the map a page says it holds (anything else: none, and the map is sent)."""
    return value if isinstance(value, str) and len(value) == 16 and all(c in "0123456789abcdef" for c in value) else ""


def make_app(game: WebGame, token: str | None = None) -> Guard:
    """The page and its JSON API over one game, behind the :class:`Guard` (``token``: the
    board's key, ``app.token``; a new random one when not given)."""

    async def page(request: Request) -> HTMLResponse:
        html = resources.files("hexwar.web").joinpath("page.html").read_text(encoding="utf-8")
        # the key the page sends back with every request (the Guard let only its address here)
        return HTMLResponse(html.replace('<meta charset="utf-8">',
                                         f'<meta charset="utf-8">\n<meta name="hexwar-token" content="{guard.token}">', 1))

    async def icon(request: Request) -> Response:
        return Response(status_code=204)  # no icon: said without a refusal in the browser's console

    def state(request: Request) -> JSONResponse:
        return JSONResponse(game.state(_have(request.query_params.get("have"))))

    async def command(request: Request) -> JSONResponse:
        try:
            body = await read_json(request)
        except ValueError:
            return JSONResponse({"error": "the body must be JSON: {\"line\": \"<command or order>\"}"}, status_code=400)
        line = body.get("line") if isinstance(body, dict) else None
        if not isinstance(line, str) or not line.strip():
            return JSONResponse({"error": "\"line\" must be a non-empty string (an order or a command)"}, status_code=422)
        if len(line) > MAX_LINE or "\n" in line or not typable(line):
            return JSONResponse({"error": f"\"line\" is one line of at most {MAX_LINE} characters a person can type"},
                                status_code=422)
        return JSONResponse(await run_in_threadpool(game.command, line.strip(), _have(body.get("have"))))

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

    routes = [Route("/", page), Route("/favicon.ico", icon), Route("/api/state", state),
              Route("/api/command", command, methods=["POST"]), Route("/api/pick", pick), Route("/api/about", about),
              Route("/api/progress", progress)]

    async def fault(request: Request, exc: Exception) -> JSONResponse:
        # the page's one line; the Guard, which the fault then reaches, writes the log's
        return JSONResponse({"error": fault_line(exc)}, status_code=500)

    guard = Guard(Starlette(routes=routes, exception_handlers={Exception: fault}), token)
    return guard


def free_port(host: str = "127.0.0.1") -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sk:
        sk.bind((host, 0))
        return int(sk.getsockname()[1])


class PortInUse(OSError):
    """The port asked for is taken: one line for the person."""


def listen(port: int = 0, host: str = "127.0.0.1") -> socket.socket:
    """Bind the board's socket now (``port`` 0: a free one), before anything is written, so a
    port in use is one line and not a save left behind; the server then serves on it."""
    if host not in LOOPBACK:
        raise ValueError(f"the web board serves on the loopback interface only (127.0.0.1), not {host!r}: "
                         "it has no login")
    if not 0 <= port <= 65535:
        raise PortInUse(f"--port {port}: a port is from 1 to 65535 (or 0, or none, for a free one)")
    sk = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sk.bind(("127.0.0.1", port))
    except OSError as e:
        sk.close()
        raise PortInUse(f"--port {port}: {e.strerror or 'cannot listen there'}; give another --port, "
                        "or none for a free one") from None
    sk.listen(64)
    return sk


def board_url(port: int, token: str) -> str:
    """The address a person opens: the board's key rides in it (``/?token=...``)."""
    return f"http://127.0.0.1:{port}/?token={token}"


def serve(presenter: Presenter, host: str = "127.0.0.1", port: int = 0, open_browser: bool = True,
          say: Any = print, sock: socket.socket | None = None) -> None:
    """Serve the game on the loopback interface until interrupted; print its address, which
    carries the board's key (``sock``: a socket bound by :func:`listen`)."""
    sock = sock or listen(port, host)  # a host off the loopback is refused before anything is built
    serve_app(make_app(WebGame(presenter)), sock, say, open_browser,
              "the board is at {url}  (Ctrl-C stops; every order is already saved)")


def serve_app(app: Guard, sock: socket.socket, say: Any = print, open_browser: bool = True,
              line: str = "the board is at {url}") -> None:
    """Serve a board (its app behind the :class:`Guard`) on a bound socket until interrupted:
    say ``line`` with its address, which carries the key, and open a browser where one can
    show a window."""
    import os
    import sys

    import uvicorn

    url = board_url(int(sock.getsockname()[1]), app.token)
    say(line.format(url=url))
    if open_browser and (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or sys.platform in ("darwin", "win32")):
        import webbrowser  # only where a browser can show a window

        threading.Timer(0.8, lambda: webbrowser.open(url)).start()
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    server.run(sockets=[sock])
