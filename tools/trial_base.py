"""The bad-input trial's common ground (tools/trial.py): running hexwar in this process or
as its own, judging what came out (clean, traceback, hang, silently accepted, lost), the
cases and their tally, and the saves the families damage. The families' modules
(``trial.py``, ``trial_files.py``, ``trial_procs.py``, ``trial_http.py``) import this one;
it imports none of them."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable


OUTCOMES = ("clean", "traceback", "hang", "accepted", "lost")


HEADERS = {"clean": "clean", "traceback": "traceback", "hang": "hang", "accepted": "silently accepted", "lost": "lost"}


TIMEOUT = 60


@dataclass
class Ran:
    code: int
    out: str
    err: str
    hung: bool = False


class _Hang(BaseException):
    """Raised by the alarm in-process (a BaseException, so no ``except Exception`` hides it)."""


def run_inprocess(args: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: int = TIMEOUT) -> Ran:
    """Run ``hexwar ARGS`` in this process (``hexwar.ui.cli.main``, as the console script does)."""
    from hexwar.ui import cli

    out, err = io.StringIO(), io.StringIO()
    old_cwd, old_argv, old_env, old_in = os.getcwd(), sys.argv, dict(os.environ), sys.stdin
    os.environ.update(env or {})
    os.chdir(cwd)
    sys.argv, sys.stdin = ["hexwar", *args], io.StringIO("")

    def alarm(*_: Any) -> None:
        raise _Hang()

    old_handler = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(timeout)
    code, hung = 0, False
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            cli.main()
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except _Hang:
        hung = True
    except BaseException as e:  # noqa: BLE001 - what a user would see as a traceback
        code = 99
        err.write(f"Traceback (in-process): {type(e).__name__}: {e}\n")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old_handler)
        os.chdir(old_cwd)
        sys.argv, sys.stdin = old_argv, old_in
        os.environ.clear()
        os.environ.update(old_env)
    return Ran(code, out.getvalue(), err.getvalue(), hung)


def run_subprocess(args: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: int = TIMEOUT) -> Ran:
    """Run ``hexwar ARGS`` as its own process, stdin closed, as a user's shell would."""
    try:
        p = subprocess.run([sys.executable, "-m", "hexwar.ui.cli", *args], cwd=cwd, env={**os.environ, **(env or {})},
                           capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as e:
        return Ran(-1, str(e.stdout or ""), str(e.stderr or ""), hung=True)
    return Ran(p.returncode, p.stdout, p.stderr)


Runner = Callable[..., Ran]


_PROGRESS = re.compile(r"^\S.*\d+/\d+( [-:\d]+)?$")  # a rich progress bar line left on stderr


def _lines(text: str) -> list[str]:
    return [ln for ln in text.splitlines() if ln.strip() and not _PROGRESS.match(ln.strip())]


def judge(r: Ran, expect: str, names: tuple[str, ...] = ()) -> tuple[str, str]:
    """Sort one run: ``expect`` is "refuse" (bad input) or "ok" (it should just work)."""
    text = r.out + r.err
    if r.hung:
        return "hang", "no answer within the time limit"
    if "Traceback" in text or "internal error" in text or r.code not in (0, 1, 2):
        return "traceback", (_lines(r.err) or _lines(r.out) or ["?"])[-1][:200]
    if expect == "help":  # a command group without a command: its help, and click's exit 2
        return ("clean", "") if "Usage:" in text and r.code in (0, 2) else ("traceback", text[:200])
    if r.code == 2 and "Usage:" in r.err and len([ln for ln in _lines(r.err) if ln.startswith("Error:")]) == 1:
        return ("clean", "") if expect == "refuse" else ("traceback", f"refused a good command: {r.err[:200]!r}")
    if expect == "ok":
        return ("clean", "") if r.code == 0 else ("traceback", f"refused a good command: {(_lines(r.err) or ['?'])[0][:200]}")
    if r.code == 0:
        return "accepted", (_lines(r.out) or ["(no output)"])[-1][:200]
    if r.code == 2 and len(_lines(r.err)) != 1:
        return "traceback", f"{len(_lines(r.err))} lines instead of one: {r.err[:200]!r}"
    if r.code == 1:  # data problems: one `file:key: message` line each, then a count
        bad = [ln for ln in _lines(r.out) + _lines(r.err)
               if not re.match(r"^(\S*/\S*|\S+\.ya?ml)(:[^:]+)?: ", ln) and not re.match(r"^\d+ problem", ln)]
        if bad:
            return "traceback", f"not a file:key: line: {bad[0][:200]!r}"
    if names and not any(n in text for n in names):
        return "traceback", f"does not name {names[0]}: {text.strip()[:200]!r}"
    return "clean", ""


@dataclass
class Case:
    family: str
    name: str
    run: Callable[[Path, Runner], tuple[str, str]]


@dataclass
class Tally:
    counts: dict[str, dict[str, int]] = field(default_factory=dict)
    problems: list[tuple[str, str, str, str]] = field(default_factory=list)

    def add(self, family: str, name: str, outcome: str, detail: str) -> None:
        row = self.counts.setdefault(family, dict.fromkeys(("tried", *OUTCOMES), 0))
        row["tried"] += 1
        row[outcome] += 1
        if outcome != "clean":
            self.problems.append((family, name, outcome, detail))

    def table(self) -> str:
        cols = ["tried", *OUTCOMES]
        head = "| trial | " + " | ".join(HEADERS.get(c, c) for c in cols) + " |"
        rows = [head, "|" + "---|" * (len(cols) + 1)]
        for fam, row in self.counts.items():
            rows.append(f"| {LABELS[fam]} | " + " | ".join(f"{row[c]:,}" for c in cols) + " |")
        return "\n".join(rows)


LABELS = {"yaml": "mutated YAML files", "saves": "damaged or misused saves", "cli": "command lines", "orders": "fuzzed orders",
          "http": "requests to the web board", "overwrite": "writers pointed at files not theirs",
          "positions": "damaged position files", "encodings": "text that is no UTF-8 (web board, command lines)",
          "offered": "orders beyond the list, and unchecked applies", "processes": "helpers and servers after their game"}


def refused_as_save(path: Path, runner: Runner, work: Path) -> tuple[str, str]:
    """``replay`` and ``play --load`` of a file that is no save to play: each refused in one
    line naming it, and the file as it was."""
    before = _fingerprint(path)
    r = runner(["replay", str(path)], cwd=work)
    r2 = runner(["play", "--load", str(path)], cwd=work)
    if _fingerprint(path) != before:
        return "lost", "the file was changed"
    out = judge(r, "refuse", names=(str(path),))
    return out if out[0] != "clean" else judge(r2, "refuse", names=(str(path),))


def _fingerprint(p: Path) -> Any:
    if not os.path.lexists(p):
        return None
    st = os.lstat(p)
    if stat.S_ISREG(st.st_mode):
        return p.read_bytes()
    return stat.S_IFMT(st.st_mode)


def make_save(path: Path, game: str, orders: int, seed: int = 3, over: bool = False) -> Path:
    """Play a game with its priority bots into a save (``orders`` of them, or to the end)."""
    from hexwar.registry import get

    info = get(game)
    g = info.build()
    st = g.new_state(seed)
    st.log.meta.update(seat=info.default_seat, opponent="priority", think=1.0)
    st.attach_save(path)
    bots = {s: info.bot("priority", s, seed, 1.0) for s in info.sides}
    n = 0
    while not st.is_over() and (over or n < orders):
        st.apply(bots[st.current_side()].choose(st, st.legal_orders()))
        n += 1
    st.close()
    return path


_BASE: dict[tuple[str, bool], Path] = {}


def _base_save(game: str, over: bool = False) -> Path:
    key = (game, over)
    if key not in _BASE:
        import atexit

        folder = Path(tempfile.mkdtemp(prefix="hexwar-trial-base-"))
        atexit.register(shutil.rmtree, folder, True)
        _BASE[key] = make_save(folder / f"{game}.hexwar", game, 12, over=over)
    return _BASE[key]
