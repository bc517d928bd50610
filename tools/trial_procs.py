"""The trial's ``processes`` family (issue 70): no helper, worker or server outlives the game
that started it.

- a game against the search bot (in the terminal and on the web board), killed with
  ``kill -9`` while its helper searches: the helper ends within seconds;
- a batch killed with ``kill -9``: its pool's workers end;
- the analysis board's "play on here" asked 30 times: one play board at a time (threads,
  open files and listening sockets stay where they were), all of it gone when it stops.

An orphan is counted as a hang (a process that never ends); a leak as lost.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable

from trial_base import Case, Runner

#: how long an orphan may take to notice its parent died (a helper looks twice a second)
GRACE = 20.0
#: a hang's guard for the waits below (they end with what they wait for)
GUARD = 300.0


def _children(pid: int) -> list[int]:
    """Every process below ``pid``."""
    out: list[int] = []
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            kids = [int(x) for t in os.listdir(f"/proc/{p}/task")
                    for x in Path(f"/proc/{p}/task/{t}/children").read_text().split()]
        except OSError:
            continue
        out += kids
        todo += kids
    return out


def _alive(pids: list[int]) -> list[int]:
    alive = []
    for k in pids:
        try:
            if Path(f"/proc/{k}/stat").read_text().split()[2] != "Z":
                alive.append(k)
        except OSError:
            pass
    return alive


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _killed(args: list[str], want: Callable[[list[int]], bool], what: str) -> Callable[[Path, Runner], tuple[str, str]]:
    """Start ``hexwar ARGS``, wait until its children are what ``want`` asks (a helper, a
    pool), ``kill -9`` it, and see its children end."""
    def run(work: Path, runner: Runner) -> tuple[str, str]:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(Path(__file__).resolve().parents[1]),
                                                                         os.environ.get("PYTHONPATH")]))}
        p = subprocess.Popen([sys.executable, "-m", "hexwar.ui.cli", *args], cwd=work, env=env, stdin=subprocess.PIPE,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        guard = time.monotonic() + GUARD
        kids: list[int] = []
        try:
            while p.poll() is None and time.monotonic() < guard:
                kids = _children(p.pid)
                if want(kids):
                    break
                time.sleep(0.1)
            if not want(kids):
                return "traceback", f"{what} never started (exit {p.poll()})"
            time.sleep(0.5)  # let it get to work
        finally:
            os.kill(p.pid, signal.SIGKILL)
            p.wait()
        until = time.monotonic() + GRACE
        alive = _alive(kids)
        while alive and time.monotonic() < until:
            time.sleep(0.1)
            alive = _alive(kids)
        for k in alive:  # the harness cleans up what hexwar left
            os.kill(k, signal.SIGKILL)
        return ("clean", "") if not alive else ("hang", f"{len(alive)} orphaned: {_cmdline(alive[0])[:100]}")
    return run


#: a game's process that lends its search bot a helper, then forks a child that holds every
#: file it has open (as a forked batch worker or server does), and waits: killed with kill -9,
#: its helper's socket stays open in that child, so only the helper's own watch can end it
HELD_OPEN = """
import os, sys, time
from hexwar.ai.helpers import lend_cores
from hexwar.registry import get
bot = get("narvik").bot("search", "germans", 1, 5.0)
lend_cores([bot], 1)
if os.fork() == 0:
    time.sleep(600)
    os._exit(0)
time.sleep(600)
"""


def _held_open() -> Callable[[Path, Runner], tuple[str, str]]:
    def run(work: Path, runner: Runner) -> tuple[str, str]:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(Path(__file__).resolve().parents[1]),
                                                                         os.environ.get("PYTHONPATH")]))}
        p = subprocess.Popen([sys.executable, "-c", HELD_OPEN], cwd=work, env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        guard = time.monotonic() + GUARD
        kids: list[int] = []
        while p.poll() is None and time.monotonic() < guard and not (_helper(kids) and len(kids) >= 2):
            time.sleep(0.1)
            kids = _children(p.pid)
        os.kill(p.pid, signal.SIGKILL)
        p.wait()
        helpers = [k for k in kids if "hexwar.ai.helper_main" in _cmdline(k)]
        others = [k for k in kids if k not in helpers]
        if not helpers:
            for k in others:
                os.kill(k, signal.SIGKILL)
            return "traceback", "no helper started"
        until = time.monotonic() + GRACE
        alive = _alive(helpers)
        while alive and time.monotonic() < until:
            time.sleep(0.1)
            alive = _alive(helpers)
        for k in alive + _alive(others):
            os.kill(k, signal.SIGKILL)
        return ("clean", "") if not alive else ("hang", "the helper outlived its game (its socket held open by a fork)")
    return run


def _helper(kids: list[int]) -> bool:
    return any("hexwar.ai.helper_main" in _cmdline(k) for k in kids)


def _pool(kids: list[int]) -> bool:
    return len(kids) >= 2


def _threads() -> int:
    return threading.active_count()


def _fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def _listening() -> int:
    """Listening TCP sockets of this process."""
    inodes = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    n = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        n += sum(1 for ln in lines if ln.split()[3] == "0A" and ln.split()[9] in inodes)
    return n


def _play_on(times: int) -> Callable[[Path, Runner], tuple[str, str]]:
    def run(work: Path, runner: Runner) -> tuple[str, str]:
        from trial_files import _analysis

        web = _analysis(work)
        base = (_threads(), _fds(), _listening())
        try:
            for i in range(times):
                got = web.play_on(f"p{i}", "allies")
                if "error" in got:
                    return "traceback", f"play on {i}: {got['error'][:120]}"
            during = (_threads(), _fds(), _listening())
        finally:
            if hasattr(web, "stop"):  # an engine before issue 70 cannot stop them: counted below
                web.stop()
        after = (_threads(), _fds(), _listening())
        # one play board at a time: its server's threads, files and socket, whatever the count
        if during[2] > base[2] + 1 or during[0] > base[0] + 4 or during[1] > base[1] + 12:
            return "lost", f"after {times} play-ons: threads {base[0]}->{during[0]}, files {base[1]}->{during[1]}, " \
                           f"listening {base[2]}->{during[2]}"
        if after[2] > base[2] or after[0] > base[0] + 1:
            return "lost", f"after it stopped: threads {base[0]}->{after[0]}, listening {base[2]}->{after[2]}"
        return "clean", ""
    return run


def processes_cases() -> list[Case]:
    if not Path("/proc/self/task").is_dir():  # not Linux: nothing to read the processes from
        return []
    cases = [
        Case("processes", "a game against the search bot killed with kill -9 (terminal)",
             _killed(["play", "narvik", "--side", "germans", "--opponent", "search", "--think", "5", "--save", "t.hexwar"],
                     _helper, "a search helper")),
        Case("processes", "a game against the search bot killed with kill -9 (web board)",
             _killed(["play", "kampen", "--web", "--side", "norwegians", "--opponent", "search", "--think", "5",
                      "--save", "w.hexwar"], _helper, "a search helper")),
        Case("processes", "a game killed with kill -9 while a fork of it holds its helper's socket", _held_open()),
        Case("processes", "a batch killed with kill -9",
             _killed(["simulate", "narvik", "--games", "400", "--workers", "2", "--out", "b.csv"], _pool, "the pool")),
        Case("processes", "the analysis board's play on here, 30 times", _play_on(30)),
    ]
    return cases
