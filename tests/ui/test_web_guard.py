"""The web board obeys only its own page (issue 51): every game's board refuses requests
from another page, without the board's key or with the wrong content type, in one line,
with its save, log and state exactly as they were; bodies are bounded before they are read;
nothing a page sends names a path; no request puts a traceback in the log. (A chunked body
without a length, over real HTTP, is the trial's: tools/trial_http.py, tests/test_trial.py.)"""

from __future__ import annotations

import logging
import threading

import pytest

pytest.importorskip("starlette.testclient")  # needs httpx2 (or httpx), from the test extra

from rich.console import Console  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from hexwar.core.log import EventLog, SaveFile  # noqa: E402
from hexwar import registry  # noqa: E402
from hexwar.ui.play import terminal  # noqa: E402
from hexwar.ui.session import Session  # noqa: E402
from hexwar.web.server import (  # noqa: E402
    MAX_BODY,
    MAX_DEPTH,
    TOKEN_HEADER,
    WebGame,
    board_url,
    json_depth,
    make_app,
)

GAMES = [g.name for g in registry.games()]
HOME = "http://127.0.0.1:8000"


def served(tmp_path, name: str, seed: int = 3):
    """A board over a new saved game of ``name`` as its default seat against its fast bot."""
    info = registry.get(name)
    g = info.build()
    s = g.new_state(seed)
    s.log.meta.update(seat=info.default_seat)
    path = tmp_path / f"{name}.hexwar"
    s.attach_save(path)
    humans = set(info.seats[info.default_seat])
    bots = {side: info.bot("priority" if "priority" in info.bots else info.default_bot, side, seed, 0.05)
            for side in info.sides if side not in humans}
    app = make_app(WebGame(info.presenter(Session(s, humans, bots, path, tmp_path))))
    return app, s, path


def stranger(app) -> TestClient:
    """A client that asks at the board's own address but holds no key."""
    return TestClient(app, base_url=HOME)


def own(app) -> TestClient:
    return TestClient(app, base_url=HOME, headers={TOKEN_HEADER: app.token})


def snapshot(s, path):
    return path.read_bytes(), len(s.log), s.to_json()


#: requests another page could make (or a program without the key), each with the status
#: the board answers: (name, method, path, headers, body)
def foreign_requests(token: str) -> list[tuple[str, str, str, dict[str, str], bytes | None]]:
    line = b'{"line": "undo 2"}'
    js = {"content-type": "application/json"}
    reqs: list[tuple[str, str, str, dict[str, str], bytes | None]] = []
    for path, method, body in (("/api/command", "POST", line), ("/api/state", "GET", None),
                               ("/api/pick?loc=2212", "GET", None), ("/api/about?loc=2212", "GET", None),
                               ("/api/progress", "GET", None)):
        post = js if method == "POST" else {}
        reqs += [
            (f"{method} {path} without the key", method, path, post, body),
            (f"{method} {path} with a wrong key", method, path, {**post, TOKEN_HEADER: token[:-2] + "xx"}, body),
            (f"{method} {path} from another origin, with the key", method, path,
             {**post, TOKEN_HEADER: token, "origin": "http://evil.example"}, body),
            (f"{method} {path} from another port of this machine", method, path,
             {**post, TOKEN_HEADER: token, "origin": "http://127.0.0.1:9"}, body),
            (f"{method} {path} cross-site by Sec-Fetch-Site", method, path,
             {**post, TOKEN_HEADER: token, "sec-fetch-site": "cross-site"}, body),
            (f"{method} {path} from a sandboxed page (Origin: null)", method, path,
             {**post, TOKEN_HEADER: token, "origin": "null"}, body),
        ]
    # the browser's "simple request" of the attack: text/plain needs no preflight
    for ctype in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""):
        reqs.append((f"POST /api/command as {ctype or 'no content type'}", "POST", "/api/command",
                     {TOKEN_HEADER: token, **({"content-type": ctype} if ctype else {})}, line))
    reqs.append(("the simple request of the attack", "POST", "/api/command",
                 {"content-type": "text/plain", "origin": "http://evil.example"}, b'{"line": "save /tmp/owned.hexwar"}'))
    reqs.append(("a save from another page", "POST", "/api/command",
                 {"content-type": "application/json", "origin": "http://evil.example"}, b'{"line": "save owned"}'))
    return reqs


@pytest.mark.parametrize("name", GAMES)
def test_every_route_of_every_board_refuses_foreign_and_keyless_requests_and_changes_nothing(tmp_path, name):
    app, s, path = served(tmp_path, name)
    own(app).get("/api/state")  # the bots play until the person's decision: the state then waits
    before = snapshot(s, path)
    assert before[1] >= 0
    client = stranger(app)
    for what, method, url, headers, body in foreign_requests(app.token):
        r = client.request(method, url, headers=headers, content=body)
        assert r.status_code in (403, 415), (what, r.status_code, r.text)
        error = r.json()["error"]
        assert error.startswith("refused: ") and "\n" not in error, what
        assert snapshot(s, path) == before, what
    assert not list(tmp_path.glob("owned*")) and not (tmp_path.parent / "owned.hexwar").exists()
    # and the same order with the key, from the page's own origin, is obeyed
    r = own(app).post("/api/command", json={"line": "status"}, headers={"origin": HOME})
    assert r.status_code == 200 and r.json()["output"]


def test_the_attack_of_the_issue_is_refused_and_the_save_keeps_every_order(tmp_path):
    # 51: a cross-origin POST as text/plain from http://evil.example, obeyed before: undo 2
    # cut a save from 7 to 1 entries, and save <path> wrote where the attacker chose
    app, s, path = served(tmp_path, "narvik")
    page = own(app)
    st = page.get("/api/state").json()
    while len(s.log) < 7 and st["yours"]:
        st = page.post("/api/command", json={"line": st["orders"][0]}).json()
    n = len(SaveFile(path).load())
    assert n >= 7
    evil = {"origin": "http://evil.example", "content-type": "text/plain"}
    for line in ("undo 2", f"save {tmp_path / 'attacker.hexwar'}", "pass"):
        r = stranger(app).post("/api/command", content=f'{{"line": "{line}"}}', headers=evil)
        assert r.status_code == 403
    assert len(SaveFile(path).load()) == n and not (tmp_path / "attacker.hexwar").exists()


def test_the_page_is_served_only_at_the_address_that_carries_the_key_and_holds_the_key(tmp_path):
    app, _, _ = served(tmp_path, "narvik")
    client = stranger(app)
    nokey = client.get("/")
    assert nokey.status_code == 403 and "address hexwar printed" in nokey.text and app.token not in nokey.text
    assert client.get("/", params={"token": "guess"}).status_code == 403
    page = client.get("/", params={"token": app.token})
    assert page.status_code == 200 and f'content="{app.token}"' in page.text
    # no other page may frame it, and nothing is cached
    assert page.headers["x-frame-options"] == "DENY" and "frame-ancestors 'none'" in page.headers["content-security-policy"]
    assert page.headers["cache-control"] == "no-store"
    assert board_url(8000, app.token) == f"http://127.0.0.1:8000/?token={app.token}"
    assert client.get("/favicon.ico").status_code == 204  # a browser asks without the key


def test_every_board_has_its_own_key(tmp_path):
    a, _, _ = served(tmp_path, "narvik")
    (tmp_path / "b").mkdir()
    b, _, _ = served(tmp_path / "b", "kampen")
    assert a.token != b.token and len(a.token) >= 32
    assert own(a).get("/api/progress").status_code == 200
    assert TestClient(b, base_url=HOME, headers={TOKEN_HEADER: a.token}).get("/api/progress").status_code == 403


def test_foreign_hosts_are_refused_even_with_the_key(tmp_path):
    # DNS rebinding: another site's name resolved to 127.0.0.1
    app, _, _ = served(tmp_path, "narvik")
    r = own(app).get("/api/state", headers={"host": "evil.example:8000"})
    assert r.status_code == 400 and "127.0.0.1" in r.json()["error"]
    for host in ("localhost:8000", "[::1]:8000", "127.0.0.1"):
        assert own(app).get("/api/progress", headers={"host": host}).status_code == 200, host


def test_a_header_given_twice_is_refused(tmp_path):
    app, s, path = served(tmp_path, "narvik")
    before = snapshot(s, path)
    r = own(app).post("/api/command", content=b'{"line": "pass"}',
                      headers=[("content-type", "application/json"), ("origin", HOME), ("origin", "http://evil.example")])
    assert r.status_code == 400 and snapshot(s, path) == before


@pytest.mark.parametrize("size", [MAX_BODY + 1, 200 * 2**20])
def test_a_body_over_the_limit_is_refused_from_its_length_before_it_is_read(tmp_path, size):
    app, s, path = served(tmp_path, "narvik")
    before = snapshot(s, path)
    r = own(app).post("/api/command", content=b"x", headers={"content-type": "application/json",
                                                              "content-length": str(size)})
    assert r.status_code == 413 and str(MAX_BODY) in r.json()["error"]
    assert snapshot(s, path) == before


def test_a_deep_body_is_refused_before_it_is_parsed_and_no_traceback_reaches_the_log(tmp_path, caplog):
    app, s, path = served(tmp_path, "narvik")
    before = snapshot(s, path)
    caplog.set_level(logging.DEBUG)
    for body in (b"[" * 60_000, b'{"line": ' + b"[" * 9 + b"]" * 9 + b"}", b'{"a":' * 12_000):
        r = own(app).post("/api/command", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 400 and "nested deeper" in r.json()["error"]
    ok = own(app).post("/api/command", content=b'{"line": "status", "x": [[[[1]]]]}', headers={"content-type": "application/json"})
    assert ok.status_code == 200
    assert snapshot(s, path) == before
    assert "Traceback" not in caplog.text and "RecursionError" not in caplog.text


def test_json_depth_skips_strings_and_stops_counting_past_the_limit():
    assert json_depth(b'{"line": "[[[[[[[[[[[[[[["}') == 1
    assert json_depth(b'{"line": "\\"[[[[[[[[[[[[["}') == 1  # an escaped quote does not end the string
    assert json_depth(b"[" * 10**6) == MAX_DEPTH + 1
    assert json_depth(b"[[]]") == 2 and json_depth(b"") == 0


def test_a_fault_inside_a_request_is_one_line_to_the_page_and_to_the_log(tmp_path, caplog, monkeypatch):
    """One line to the page and to the server's log, each naming the crash log, where the
    traceback is kept to be sent with a report (as the command line keeps it)."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    app, s, path = served(tmp_path, "narvik")
    before = snapshot(s, path)

    def broken(*_a, **_k):
        raise RuntimeError("a fault of hexwar's")

    monkeypatch.setattr(WebGame, "command", broken)
    caplog.set_level(logging.DEBUG)
    r = TestClient(app, base_url=HOME, headers={TOKEN_HEADER: app.token}, raise_server_exceptions=False).post(
        "/api/command", json={"line": "pass"})
    assert r.status_code == 500 and "RuntimeError" in r.json()["error"] and "saved" in r.json()["error"]
    assert "Traceback" not in caplog.text and caplog.text.count("RuntimeError") == 1
    crash = tmp_path / "state" / "hexwar" / "crash.log"
    assert str(crash) in r.json()["error"] and str(crash) in caplog.text
    kept = crash.read_text()
    assert kept.count("Traceback") == 1 and "RuntimeError: a fault of hexwar's" in kept and "in broken" in kept
    assert snapshot(s, path) == before


def test_unknown_routes_and_methods_are_answered_in_one_line(tmp_path):
    app, s, path = served(tmp_path, "narvik")
    before = snapshot(s, path)
    c = own(app)
    assert c.get("/api/nothing").status_code == 404
    assert c.get("/api/command").status_code == 405
    assert c.request("OPTIONS", "/api/command", headers={"origin": "http://evil.example",
                                                         "access-control-request-method": "POST"}).status_code == 403
    assert c.delete("/api/state").status_code == 405
    assert stranger(app).get("/api/nothing").status_code == 403  # nothing is told to a stranger, not even a 404
    assert snapshot(s, path) == before


@pytest.mark.parametrize("name,reason", [("../escape.hexwar", "plain file name"), ("/tmp/abs.hexwar", "plain file name"),
                                          (".hidden", "plain file name"), ("sub/dir.hexwar", "plain file name"),
                                          ("..", "plain file name"), ("x" * 250, "at most 200 bytes")])
def test_the_pages_save_names_only_a_plain_file_beside_the_games_save(tmp_path, name, reason):
    app, s, path = served(tmp_path, "narvik")
    c = own(app)
    out = c.post("/api/command", json={"line": f"save {name}"}).json()["output"]
    assert "not saved" in out and reason in out
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".hexwar") == ["narvik.hexwar"]
    out = c.post("/api/command", json={"line": "save copy"}).json()["output"]
    assert "saved to" in out and (tmp_path / "copy.hexwar").is_file()  # beside the save, as .hexwar
    assert SaveFile(tmp_path / "copy.hexwar").load().entries == SaveFile(path).load().entries


def test_the_terminal_still_saves_a_copy_anywhere(tmp_path):
    app, s, path = served(tmp_path, "narvik")
    info = registry.get("narvik")
    player = terminal(info.presenter, s, {"allies"}, {}, Console(file=open("/dev/null", "w")), path, lambda _: "quit")
    (tmp_path / "sub").mkdir()
    player.command(f"save {tmp_path / 'sub' / 'there.hexwar'}", [])
    assert (tmp_path / "sub" / "there.hexwar").is_file()


def test_two_pages_at_once_give_orders_one_at_a_time(tmp_path):
    # two clients of one board (two tabs): every order lands whole, the save follows the game
    app, s, path = served(tmp_path, "kampen")
    a, b = own(app), own(app)
    errors: list[str] = []

    def play(c):
        for _ in range(6):
            st = c.get("/api/state").json()
            if not st["yours"]:
                return
            r = c.post("/api/command", json={"line": "1"})
            if r.status_code != 200:
                errors.append(r.text)

    ts = [threading.Thread(target=play, args=(c,)) for c in (a, b)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(120)
    assert not errors
    saved = SaveFile(path).load()
    assert [e.to_dict() for e in saved] == [e.to_dict() for e in EventLog.from_json(s.log.to_json())]
    assert len(s.log) >= 6


# --- issue 70: text that is no UTF-8 never reaches the game, and one bad request never the next --


@pytest.mark.parametrize("body", [
    b'{"line": "\\ud800"}',  # a lone surrogate, escaped: it broke every later answer until a restart
    b'{"line": "status", "\\udfff": 1}',
    b'{"line": "status\\u0000"}',
    '{"line": "status"}'.encode("utf-16"),
    ("[" * 5000 + "]" * 5000).encode("utf-16"),  # nested 5,000 deep, hidden from the count by UTF-16
    ("[" * 5000 + "]" * 5000).encode("utf-16-be"),
    b"\xef\xbb\xbf" + b'{"line": "status"}',
])
def test_a_command_that_is_no_typed_text_is_refused_and_the_next_answer_is_as_before(tmp_path, body):
    app, s, path = served(tmp_path, "narvik")
    c = own(app)
    before = c.get("/api/state").json()
    r = c.post("/api/command", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code in (400, 422) and "\n" not in r.json()["error"]
    after = c.get("/api/state")
    assert after.status_code == 200
    assert after.json()["history"] == before["history"] and after.json()["orders"] == before["orders"]


def test_the_crash_log_is_rotated_so_a_repeated_fault_cannot_fill_the_disk(tmp_path, monkeypatch):
    from hexwar.ui import crash

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    monkeypatch.setattr(crash, "MAX_LOG", 10_000)
    for _ in range(200):
        try:
            raise RuntimeError("x" * 500)
        except RuntimeError as e:
            where = crash.crash_log(e)
    log = tmp_path / "hexwar" / "crash.log"
    assert where == str(log)
    assert log.stat().st_size <= 10_000 + 2_000 and (tmp_path / "hexwar" / "crash.log.1").stat().st_size <= 12_000
