"""The trial's ``http`` family (issue 51): the web board of every game, tried as another web
page, a program without the board's key, and a careless or hostile client would.

Each game's board is served for real (uvicorn on a loopback port, in a thread) over a saved
game, and sent, over real HTTP:

- requests another page could make: to every route, without the key, with a wrong key,
  from another origin (another site, another port, ``null``), cross-site by
  ``Sec-Fetch-Site``, at another host name (DNS rebinding); the browser's "simple request"
  of the attack (``text/plain``, no preflight) with ``undo``, ``save <path>`` and orders;
- bodies of the wrong type, huge (by ``Content-Length``, or chunked without one), deep,
  malformed, cut short; commands that name paths;
- unknown routes and methods, odd paths and query strings;
- two clients giving orders at once.

Each request is sorted as the other families are: clean (refused in one line with the
state, the log and the save as they were; or, for the board's own page, answered),
traceback (a 5xx, a traceback in the log or the answer, an answer of more than one line),
hang (no answer within the time limit), accepted (a foreign request obeyed: a 2xx, or the
state moved) or lost (the save changed, or lost an order).
"""

from __future__ import annotations

import hashlib
import http.client
import json
import logging
import random
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable

TIMEOUT = 20
EVIL = "http://evil.example"


class _Logs(logging.Handler):
    """Every log record of the server while the trial runs, to find tracebacks in."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def tracebacks(self) -> list[str]:
        return [f"{r.name}: {r.getMessage()[:150]}" for r in self.records
                if r.exc_info or "Traceback" in r.getMessage()]


class Board:
    """One game's board served for real on a loopback port, over a save in ``folder``."""

    def __init__(self, game: str, folder: Path, seed: int = 3):
        import uvicorn
        from hexwar.registry import get
        from hexwar.web.server import WebGame, listen, make_app

        info = get(game)
        g = info.build()
        self.state = s = g.new_state(seed)
        s.log.meta.update(seat=info.default_seat)
        self.folder = folder
        self.save = folder / f"{game}.hexwar"
        s.attach_save(self.save)
        humans = set(info.seats[info.default_seat])
        bots = {side: info.bot("priority" if "priority" in info.bots else info.default_bot, side, seed, 0.05)
                for side in info.sides if side not in humans}
        from hexwar.ui.session import Session

        self.app = make_app(WebGame(info.presenter(Session(s, humans, bots, self.save, folder))))
        self.token = self.app.token
        sock = listen(0)
        self.port = int(sock.getsockname()[1])
        self.host = f"127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(self.app, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]}, daemon=True)
        self.thread.start()
        guard = time.monotonic() + 300  # only a hang's guard: a busy machine starts it late, not never
        while not self.server.started and self.thread.is_alive() and time.monotonic() < guard:
            time.sleep(0.025)

    def close(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.state.close()

    def snapshot(self) -> tuple[str, int, str]:
        """The save's bytes (hashed), the log's length and the state: what a refusal keeps."""
        return hashlib.sha256(self.save.read_bytes()).hexdigest(), len(self.state.log), self.state.to_json()

    def request(self, method: str, path: str, headers: dict[str, str] | None = None, body: bytes | None = None,
                host: str | None = None) -> tuple[int, bytes] | None:
        """One request over real HTTP; None when no answer came within the time limit."""
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT)
        try:
            c.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            if host != "":  # "": a request with no Host header at all
                c.putheader("Host", self.host if host is None else host)
            for k, v in (headers or {}).items():
                c.putheader(k, v)
            if body is not None and not any(k.lower() in ("content-length", "transfer-encoding") for k in headers or {}):
                c.putheader("Content-Length", str(len(body)))
            c.endheaders(body)
            r = c.getresponse()
            return r.status, r.read()
        except socket.timeout:
            return None
        except (ConnectionError, http.client.HTTPException) as e:  # the server hung up: an answer of a kind
            return 499, str(e).encode()
        finally:
            c.close()

    def chunked(self, size: int, headers: dict[str, str]) -> tuple[int, bytes] | None:
        """POST a body of ``size`` bytes in chunks, with no Content-Length, stopping as soon as
        an answer comes; None when none comes."""
        sk = socket.create_connection(("127.0.0.1", self.port), timeout=TIMEOUT)
        head = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        sk.sendall(f"POST /api/command HTTP/1.1\r\nHost: {self.host}\r\n{head}Transfer-Encoding: chunked\r\n\r\n".encode())
        chunk, sent, answer = b"[" * 16384, 0, b""
        sk.settimeout(0.02)
        try:
            while sent < size and b"\r\n\r\n" not in answer:
                try:
                    sk.sendall(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
                    sent += len(chunk)
                except OSError:
                    break
                try:
                    answer += sk.recv(65536)
                except (socket.timeout, BlockingIOError):
                    pass
            sk.settimeout(TIMEOUT)
            while b"\r\n\r\n" not in answer:
                more = sk.recv(65536)
                if not more:
                    break
                answer += more
        except socket.timeout:
            return None
        except OSError:
            pass
        finally:
            sk.close()
        if not answer.startswith(b"HTTP/1.1 "):
            return None
        return int(answer[9:12]), answer.split(b"\r\n\r\n", 1)[-1]


def _one_line(body: bytes) -> str | None:
    """The one line of a refusal (the JSON's ``error``, or the text), or None if it is not one."""
    text = body.decode("utf-8", "replace").strip()
    if "\n" in text or not text or "Traceback" in text:
        return None
    try:
        js = json.loads(text)
    except ValueError:
        return text
    return js.get("error") if isinstance(js, dict) and isinstance(js.get("error"), str) and "\n" not in js["error"] else None


def foreign(token: str, port: int) -> list[tuple[str, str, str, dict[str, str], bytes | None, str | None]]:
    """Requests that must be refused whole: (name, method, path, headers, body, host)."""
    js = {"Content-Type": "application/json"}
    out: list[tuple[str, str, str, dict[str, str], bytes | None, str | None]] = []
    routes = [("GET", "/api/state", None), ("POST", "/api/command", b'{"line": "undo 2"}'),
              ("POST", "/api/command", b'{"line": "pass"}'), ("GET", "/api/pick?loc=2212", None),
              ("GET", "/api/about?loc=2212", None), ("GET", "/api/progress", None)]
    for method, path, body in routes:
        post = js if method == "POST" else {}
        key = {"X-Hexwar-Token": token}
        out += [
            (f"{method} {path}: no key", method, path, post, body, None),
            (f"{method} {path}: a wrong key", method, path, {**post, "X-Hexwar-Token": "x" * len(token)}, body, None),
            (f"{method} {path}: an empty key", method, path, {**post, "X-Hexwar-Token": ""}, body, None),
            (f"{method} {path}: the key in the query string", method, path + ("&" if "?" in path else "?") + f"token={token}",
             post, body, None),
            (f"{method} {path}: another site, with the key", method, path, {**post, **key, "Origin": EVIL}, body, None),
            (f"{method} {path}: another port of 127.0.0.1", method, path,
             {**post, **key, "Origin": f"http://127.0.0.1:{port + 1}"}, body, None),
            (f"{method} {path}: https at this port", method, path, {**post, **key, "Origin": f"https://127.0.0.1:{port}"},
             body, None),
            (f"{method} {path}: a sandboxed page (Origin null)", method, path, {**post, **key, "Origin": "null"}, body, None),
            (f"{method} {path}: Sec-Fetch-Site cross-site", method, path, {**post, **key, "Sec-Fetch-Site": "cross-site"},
             body, None),
            (f"{method} {path}: Sec-Fetch-Site same-site", method, path, {**post, **key, "Sec-Fetch-Site": "same-site"},
             body, None),
            (f"{method} {path}: DNS rebinding (Host evil.example)", method, path, {**post, **key}, body, f"evil.example:{port}"),
            (f"{method} {path}: no Host", method, path, {**post, **key}, body, ""),
        ]
    for ctype in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "",
                  "application/jsonx", "text/json", "application/json-patch+json"):
        out.append((f"POST /api/command as {ctype or 'no content type'!r}, with the key", "POST", "/api/command",
                    {"X-Hexwar-Token": token, **({"Content-Type": ctype} if ctype else {})}, b'{"line": "undo"}', None))
    for line in ("undo 2", "save /tmp/hexwar-trial-owned.hexwar", "pass", "quit"):
        out.append((f"the attack's simple request: {line}", "POST", "/api/command",
                    {"Content-Type": "text/plain", "Origin": EVIL}, json.dumps({"line": line}).encode(), None))
    out.append(("the page at / without the key", "GET", "/", {}, None, None))
    out.append(("the page at / with a wrong key", "GET", "/?token=" + "y" * len(token), {}, None, None))
    out.append(("the page at /, with its key, asked by another site's script", "GET", f"/?token={token}",
                {"Origin": EVIL}, None, None))
    return out


def malformed(token: str) -> list[tuple[str, str, str, dict[str, str], bytes | None]]:
    """Requests with the key from the page's own origin, wrong in their body, route or method:
    a 4xx in one line, nothing changed."""
    key = {"X-Hexwar-Token": token, "Content-Type": "application/json"}
    bodies = {
        "not JSON": b"not json", "cut short": b'{"line": "pa', "invalid UTF-8": b'{"line": "\xff\xfe"}',
        "null": b"null", "a list": b'["pass"]', "line null": b'{"line": null}', "line a number": b'{"line": 3}',
        "line a list": b'{"line": ["pass"]}', "line empty": b'{"line": "   "}', "line of 3000 characters":
        b'{"line": "' + b"x" * 3000 + b'"}', "line with a newline": b'{"line": "pass\\nundo"}',
        "deep array (60,000)": b"[" * 60_000, "deep object (12,000)": b'{"a":' * 12_000,
        "deep inside the line's object": b'{"line": "pass", "x": ' + b"[" * 20 + b"]" * 20 + b"}",
        "a huge number": b'{"line": ' + b"9" * 50_000 + b"}", "an empty body": b"",
    }
    out: list[tuple[str, str, str, dict[str, str], bytes | None]] = [
        (f"POST /api/command: {k}", "POST", "/api/command", key, v) for k, v in bodies.items()]
    out += [
        ("Content-Length of 200 MB (headers only)", "POST", "/api/command", {**key, "Content-Length": str(200 * 2**20)}, b"x"),
        ("Content-Length not a number", "POST", "/api/command", {**key, "Content-Length": "lots"}, b"x"),
        ("GET /api/nothing", "GET", "/api/nothing", key, None), ("GET /nothing", "GET", "/nothing", key, None),
        ("GET /api/command", "GET", "/api/command", key, None), ("PUT /api/command", "PUT", "/api/command", key, b"{}"),
        ("DELETE /api/state", "DELETE", "/api/state", key, None), ("POST /api/state", "POST", "/api/state", key, b"{}"),
        ("OPTIONS /api/command (a preflight)", "OPTIONS", "/api/command",
         {**key, "Access-Control-Request-Method": "POST"}, None),
        ("TRACE /", "TRACE", "/", key, None), ("GET /../../etc/passwd", "GET", "/../../etc/passwd", key, None),
        ("GET //api/state", "GET", "//api/state", key, None),
        ("GET /api/pick without a place", "GET", "/api/pick", key, None),
        ("GET /api/pick?loc=<2000 characters>", "GET", "/api/pick?loc=" + "9" * 2000, key, None),
        ("GET /api/pick?loc=%00", "GET", "/api/pick?loc=%00", key, None),
        ("GET /api/pick?unit=a hidden counter's id", "GET", "/api/pick?unit=KM-1", key, None),
        ("GET /api/about?loc=nowhere", "GET", "/api/about?loc=nowhere", key, None),
        ("GET /api/about?loc=%ff%fe", "GET", "/api/about?loc=%ff%fe", key, None),
    ]
    return out


def _paths() -> list[tuple[str, str]]:
    """Commands with the key that name a path: refused in the answer's one line ('not saved')."""
    return [(f"save {p}", p) for p in ("../hexwar-trial-up.hexwar", "/tmp/hexwar-trial-abs.hexwar", "sub/x.hexwar",
                                       ".hidden.hexwar", "..", "x" * 240 + ".hexwar")]


def http_trial(tally: Any, games: list[str] | None = None, sample: int | None = None, seed: int = 0,
               verbose: bool = False) -> Any:
    """Try every game's board over real HTTP (a sample of ``sample`` requests a game);
    add the outcomes to ``tally`` under the family ``http``."""
    from hexwar.registry import games as all_games

    rng = random.Random(seed)
    return _each_board(games or [g.name for g in all_games()], "hexwar-trial-http-",
                       lambda b, name, logs: _trial_board(b, name, tally, logs, rng, sample, verbose), tally)


def _each_board(games: list[str], prefix: str, trial: Callable[[Board, str, _Logs], None], tally: Any) -> Any:
    """Serve each game's board in a folder of its own and try it, every log record of the
    server kept to find tracebacks in."""
    logs = _Logs()
    watched = [logging.getLogger(n) for n in ("uvicorn", "uvicorn.error", "uvicorn.access", "hexwar.web", "")]
    for lg in watched:
        lg.addHandler(logs)
    try:
        for name in games:
            with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
                b = Board(name, Path(tmp))
                try:
                    trial(b, name, logs)
                finally:
                    b.close()
    finally:
        for lg in watched:
            lg.removeHandler(logs)
    return tally


def _trial_board(b: Board, game: str, tally: Any, logs: _Logs, rng: random.Random, sample: int | None,
                 verbose: bool) -> None:
    def add(name: str, outcome: str, detail: str = "") -> None:
        tally.add("http", f"{game}: {name}", outcome, detail)
        if verbose:
            print(f"{outcome:>9}  http: {game}: {name}  {detail}", flush=True)

    key = {"X-Hexwar-Token": b.token}
    first = b.request("GET", "/api/state", key)  # the bots play to the person's decision
    if first is None or first[0] != 200:
        add("the board's own page asks for the state", "traceback", f"answered {first and first[0]}")
        return
    cases: list[tuple[str, Callable[[], tuple[str, str]]]] = []
    for name, method, path, headers, body, host in foreign(b.token, b.port):
        cases.append((name, _refusal(b, logs, method, path, headers, body, host, foreign=True)))
    for name, method, path, headers, body in malformed(b.token):
        cases.append((name, _refusal(b, logs, method, path, headers, body, None, foreign=False)))
    cases.append(("a chunked body of 50 MB, no Content-Length", lambda: _chunked(b, logs)))
    for line, path in _paths():
        cases.append((f"the page's {line[:40]}", lambda line=line: _path_refused(b, logs, line)))
    cases.append(("two pages giving orders at once", lambda: _two_at_once(b, logs)))
    if sample is not None and sample < len(cases):
        keep = set(rng.sample(range(len(cases)), sample))
        cases = [c for i, c in enumerate(cases) if i in keep or c[0] == "two pages giving orders at once"]
    for name, run in cases:
        before = len(logs.records)
        try:
            outcome, detail = run()
        except Exception as e:  # noqa: BLE001 - a fault of the harness or of hexwar
            outcome, detail = "traceback", f"{type(e).__name__}: {e}"[:200]
        tb = [t for t in logs.tracebacks() if t in {f"{r.name}: {r.getMessage()[:150]}" for r in logs.records[before:]}]
        if outcome == "clean" and tb:
            outcome, detail = "traceback", f"in the log: {tb[0]}"
        add(name, outcome, detail)


def _refusal(b: Board, logs: _Logs, method: str, path: str, headers: dict[str, str], body: bytes | None,
             host: str | None, foreign: bool) -> Callable[[], tuple[str, str]]:
    def run() -> tuple[str, str]:
        before = b.snapshot()
        r = b.request(method, path, headers, body, host)
        after = b.snapshot()
        if r is None:
            return "hang", f"no answer within {TIMEOUT} s"
        status, text = r
        if after[0] != before[0] and after[1] < before[1]:
            return "lost", f"the save lost orders ({before[1]} -> {after[1]})"
        if after != before:
            return ("accepted" if foreign else "lost"), f"the state moved (answered {status})"
        if status >= 500:
            return "traceback", f"answered {status}: {text[:120]!r}"
        if 200 <= status < 300:
            return ("accepted" if foreign else "clean" if method in ("GET",) else "accepted"), f"answered {status}"
        if _one_line(text) is None and status != 499:
            return "traceback", f"answered {status} in more than one line: {text[:120]!r}"
        return "clean", ""

    return run


def _chunked(b: Board, logs: _Logs) -> tuple[str, str]:
    before = b.snapshot()
    r = b.chunked(50 * 2**20, {"X-Hexwar-Token": b.token, "Content-Type": "application/json"})
    if r is None:
        return "hang", "no answer"
    if b.snapshot() != before:
        return "lost", "the state moved"
    return ("clean", "") if r[0] == 413 else ("accepted", f"answered {r[0]}")


def _path_refused(b: Board, logs: _Logs, line: str) -> tuple[str, str]:
    before = b.snapshot()
    outside = {p: p.exists() for p in (Path("/tmp/hexwar-trial-abs.hexwar"), b.folder.parent / "hexwar-trial-up.hexwar")}
    r = b.request("POST", "/api/command", {"X-Hexwar-Token": b.token, "Content-Type": "application/json"},
                  json.dumps({"line": line}).encode())
    if r is None:
        return "hang", "no answer"
    made = [p for p, was in outside.items() if p.exists() and not was] + \
        [p for p in b.folder.rglob("*") if p.is_file() and p.name not in (b.save.name,) and p.suffix == ".hexwar"]
    for p in made:
        p.unlink()
    if made:
        return "accepted", f"wrote {made[0]}"
    if b.snapshot() != before:
        return "lost", "the state moved"
    out = json.loads(r[1]).get("output", "") if r[0] == 200 else ""
    return ("clean", "") if "not saved" in out else ("accepted", f"answered {r[0]}: {out[:120]!r}")


def _two_at_once(b: Board, logs: _Logs) -> tuple[str, str]:
    """Two clients, each giving the first listed order (or undo) as fast as it can: every
    answer one of the two's, the save the state's log, order for order."""
    from hexwar.core.log import EventLog, SaveFile

    key = {"X-Hexwar-Token": b.token, "Content-Type": "application/json"}
    bad: list[str] = []

    def play(k: int) -> None:
        for i in range(8):
            line = "undo" if (i + k) % 5 == 4 else "1"
            r = b.request("POST", "/api/command", key, json.dumps({"line": line}).encode())
            if r is None or r[0] != 200:
                bad.append(f"answered {r and r[0]}")

    ts = [threading.Thread(target=play, args=(k,)) for k in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(4 * TIMEOUT)
    if any(t.is_alive() for t in ts):
        return "hang", "a client waited for ever"
    if bad:
        return "traceback", bad[0]
    saved = [e.to_dict() for e in SaveFile(b.save).load()]
    live = [e.to_dict() for e in EventLog.from_json(b.state.log.to_json())]
    return ("clean", "") if saved == live else ("lost", f"the save holds {len(saved)} orders, the game {len(live)}")


# --- encodings (issue 70): text that is no UTF-8, then the next request ----------------------

#: bodies of a command that are no UTF-8 JSON text, or hold what no person types
ENCODED: dict[str, bytes] = {
    "UTF-16 with a BOM": '{"line": "pass"}'.encode("utf-16"),
    "UTF-16-LE without a BOM": '{"line": "pass"}'.encode("utf-16-le"),
    "UTF-16-BE without a BOM": '{"line": "pass"}'.encode("utf-16-be"),
    "UTF-32": '{"line": "pass"}'.encode("utf-32"),
    "UTF-16, 5,000 deep": ("[" * 5000 + "]" * 5000).encode("utf-16"),
    "UTF-16-BE, 5,000 deep, no BOM": ("[" * 5000 + "]" * 5000).encode("utf-16-be"),
    "UTF-8 with a BOM": b"\xef\xbb\xbf" + b'{"line": "status"}',
    "a NUL first": b'\x00{"line": "status"}',
    "an overlong slash": b'{"line": "save \xc0\xaf"}',
    "a surrogate's bytes (CESU)": b'{"line": "\xed\xa0\x80"}',
    "latin-1": '{"line": "save caf\u00e9"}'.encode("latin-1"),
    "a lone high surrogate, escaped": b'{"line": "\\ud800"}',
    "a lone low surrogate, escaped": b'{"line": "status \\udfff"}',
    "a lone surrogate in a key": b'{"line": "status", "\\ud800": 1}',
    "a NUL, escaped": b'{"line": "status\\u0000"}',
    "a bell, escaped": b'{"line": "status\\u0007"}',
    "a C1 control, escaped": b'{"line": "status\\u0085"}',
    "a right-to-left override": b'{"line": "status \\u202e"}',
    "a pair of surrogates (one character)": b'{"line": "status \\ud83d\\ude00"}',
}
#: query strings that are no UTF-8, or hold controls
QUERIES = ("/api/pick?loc=%ed%a0%80", "/api/pick?unit=%ff", "/api/about?loc=%c0%af", "/api/pick?loc=%00",
           "/api/about?loc=2212%0a", "/api/pick?unit=%ed%b0%80%ed%a0%80")


def encodings_trial(tally: Any, games: list[str] | None = None, verbose: bool = False) -> Any:
    """Each board sent text that is no UTF-8 or no typed text, each request followed by the
    page's own ask for the state: the bad one refused or answered in one line, the next one
    answered as if the bad one had never come (issue 70: one lone surrogate broke every later
    answer until the board was restarted), and the crash log no larger."""
    return _each_board(games or ["narvik", "kampen"], "hexwar-trial-enc-",
                       lambda b, name, logs: _encodings(b, name, tally, logs, verbose), tally)


def _encodings(b: Board, game: str, tally: Any, logs: _Logs, verbose: bool) -> None:
    key = {"X-Hexwar-Token": b.token}
    post = {**key, "Content-Type": "application/json"}
    good = b.request("GET", "/api/state", key)
    assert good is not None and good[0] == 200, good
    cases = [(f"POST /api/command: {k}", "POST", "/api/command", post, v) for k, v in ENCODED.items()]
    cases += [(f"GET {q}", "GET", q, key, None) for q in QUERIES]
    for name, method, path, headers, body in cases:
        before_log = len(logs.records)
        r = b.request(method, path, headers, body)
        after = b.request("GET", "/api/state", key)
        outcome, detail = "clean", ""
        if r is None or after is None:
            outcome, detail = "hang", "no answer"
        elif r[0] >= 500:
            outcome, detail = "traceback", f"answered {r[0]}: {r[1][:100]!r}"
        elif after[0] != 200:
            outcome, detail = "lost", f"the next ask for the state answered {after[0]}: {after[1][:100]!r}"
        else:
            try:
                json.loads(after[1])
            except ValueError:
                outcome, detail = "lost", "the next state is no JSON"
            if r[0] >= 400 and _one_line(r[1]) is None:
                outcome, detail = "traceback", f"answered {r[0]} in more than one line"
        tb = [t for t in logs.tracebacks() if t in {f"{x.name}: {x.getMessage()[:150]}" for x in logs.records[before_log:]}]
        if outcome == "clean" and tb:
            outcome, detail = "traceback", f"in the log: {tb[0]}"
        tally.add("encodings", f"{game}: {name}", outcome, detail)
        if verbose:
            print(f"{outcome:>9}  encodings: {game}: {name}  {detail}", flush=True)
