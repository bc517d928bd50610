"""The trial's families of issue 70 that write and read files: ``overwrite``, ``positions``
and the command line's half of ``encodings``.

- ``overwrite``: every writer (``position -o``, ``map render -o``, ``map build -o``, ``replay
  --svg``, ``compare --out``, ``ladder --out``, ``simulate --out``, the analysis board's
  "save position" and "play on here", the play loop's map snapshot) pointed at what is not
  its own: a save, another save, someone's notes, a ``docker-compose.yml``, a ``README.md``,
  a position edited by hand, a folder, a symbolic link, a report of someone else's, names
  near the 255-byte limit. Refused in one line with the file as it was; its own unchanged
  output, a new name, or ``--force`` are written, and said.
- ``positions``: position files damaged as a careless or hostile hand would (aliases,
  nesting, a device, a pipe, a folder, 5 MB, UTF-16, an unknown phase, weather, hex or
  type, a counter twice, unknown keys at every depth, absurd values) given to ``play
  --from``, the rule queries and ``analyse``: one line naming the file, no hang, no game
  started; a good position plays.
- ``encodings`` (command lines): names that are no UTF-8 (a byte that decodes to nothing, a
  lone surrogate), given where a file is written or read: one line, never a traceback.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any, Callable

import yaml

from trial_base import Case, Ran, Runner, _base_save, _fingerprint, judge, refused_as_save, run_inprocess


# --- overwrite ------------------------------------------------------------------------------


def _foreign(work: Path) -> dict[str, Path]:
    """The files a careless command could destroy, made in ``work``; by name."""
    files = {"notes.yaml": "my notes: keep them\n", "docker-compose.yml": "services: {db: {image: postgres}}\n",
             "README.md": "# my project\n", "notes.txt": "my notes\n", "mine.svg": "<svg/>\n",
             "summary.json": '{"mine": true}\n', "notes.csv": "a,b\n1,2\n"}
    out = {}
    for name, text in files.items():
        (work / name).write_text(text, encoding="utf-8")
        out[name] = work / name
    shutil.copyfile(_base_save("narvik"), work / "g.hexwar")
    shutil.copyfile(_base_save("kampen"), work / "other.hexwar")
    out["g.hexwar"], out["other.hexwar"] = work / "g.hexwar", work / "other.hexwar"
    (work / "dir.yaml").mkdir()
    out["dir.yaml"] = work / "dir.yaml"
    os.symlink(work / "notes.yaml", work / "link.yaml")
    out["link.yaml"] = work / "link.yaml"
    return out


def _own_position(work: Path, runner: Runner, name: str = "own.yaml") -> Path:
    r = runner(["position", str(work / "g.hexwar"), "-o", str(work / name)], cwd=work)
    assert r.code == 0, r.err
    return work / name


def _unchanged(paths: dict[str, Path], before: dict[str, Any], but: tuple[str, ...] = ()) -> str | None:
    """The first file that changed, if any (a folder's listing stands for it)."""
    for name, p in paths.items():
        if name in but:
            continue
        now = sorted(os.listdir(p)) if p.is_dir() and not p.is_symlink() else _fingerprint(p)
        if now != before[name]:
            return name
    return None


def _snap(paths: dict[str, Path]) -> dict[str, Any]:
    return {n: sorted(os.listdir(p)) if p.is_dir() and not p.is_symlink() else _fingerprint(p) for n, p in paths.items()}


def _writes(args: Callable[[Path], list[str]], target: str, expect: str) -> Callable[[Path, Runner], tuple[str, str]]:
    """A command that writes ``target`` in the work folder: ``refuse`` (it is not its own: one
    line, every file as it was) or ``ok`` (written, and every other file as it was)."""
    def run(work: Path, runner: Runner) -> tuple[str, str]:
        files = _foreign(work)
        if target in ("own.yaml", "edited.yaml"):
            files[target] = _own_position(work, runner, target)
            if target == "edited.yaml":  # a position the person edited since hexwar wrote it
                p = files[target]
                p.write_text(p.read_text(encoding="utf-8").replace("fatigue: 0", "fatigue: 2", 1), encoding="utf-8")
        before = _snap(files)
        r = runner(args(work), cwd=work)
        changed = _unchanged(files, before, but=(target,) if expect == "ok" else ())
        if changed:
            return "lost", f"{changed} was changed"
        if expect == "refuse":
            return judge(r, "refuse")
        if r.code != 0:
            return judge(r, "ok")
        if "wrote" not in r.out and "replaced" not in r.out:
            return "accepted", f"did not say what it wrote: {r.out.strip()[:120]!r}"
        return "clean", ""
    return run


def overwrite_cases() -> list[Case]:
    cases: list[Case] = []
    pos = lambda t, *more: (lambda w: ["position", str(w / "g.hexwar"), "-o", str(w / t), *more])  # noqa: E731
    for t in ("g.hexwar", "other.hexwar", "notes.yaml", "docker-compose.yml", "edited.yaml", "dir.yaml", "link.yaml",
              "README.md", "notes.txt"):
        cases.append(Case("overwrite", f"position -o over {t}", _writes(pos(t), t, "refuse")))
    cases.append(Case("overwrite", "position -o over its own unchanged position", _writes(pos("own.yaml"), "own.yaml", "ok")))
    cases.append(Case("overwrite", "position -o a new name", _writes(pos("new.yaml"), "new.yaml", "ok")))
    cases.append(Case("overwrite", "position -o over notes.yaml --force",
                      _writes(pos("notes.yaml", "--force"), "notes.yaml", "ok")))
    cases.append(Case("overwrite", "position -o a name of 255 bytes", _writes(pos("p" * 250 + ".yaml"), "-", "ok")))
    cases.append(Case("overwrite", "position -o a name of 256 bytes", _writes(pos("p" * 251 + ".yaml"), "-", "refuse")))
    render = lambda t, *more: (lambda w: ["map", "render", "fixtures/skirmish", "-o", str(w / t), *more])  # noqa: E731
    for t in ("mine.svg", "README.md", "g.hexwar", "dir.yaml"):
        cases.append(Case("overwrite", f"map render -o over {t}", _writes(render(t), t, "refuse")))
    cases.append(Case("overwrite", "map render -o over mine.svg --force", _writes(render("mine.svg", "--force"), "mine.svg", "ok")))
    cases.append(Case("overwrite", "map render twice to one name", _twice(render("m.svg"))))
    build = lambda t: (lambda w: ["map", "build", "narvik", "-o", str(w / t)])  # noqa: E731
    for t in ("notes.yaml", "g.hexwar", "docker-compose.yml"):
        cases.append(Case("overwrite", f"map build -o over {t}", _writes(build(t), t, "refuse")))
    cases.append(Case("overwrite", "replay --svg into a folder holding a frame of someone else's", _frames(foreign=True)))
    cases.append(Case("overwrite", "replay --svg twice into one folder", _frames(foreign=False)))
    cases.append(Case("overwrite", "compare --out a folder with someone's report.md", _report("report.md")))
    cases.append(Case("overwrite", "compare --out a folder with someone's summary.json", _report("summary.json")))
    cases.append(Case("overwrite", "compare --out a folder with someone's win-rates.png", _report("win-rates.png")))
    cases.append(Case("overwrite", "ladder --out a folder with someone's README.md", _ladder("README.md")))
    cases.append(Case("overwrite", "ladder --out a folder with someone's ladder.png", _ladder("ladder.png")))
    sim = lambda t: (lambda w: ["simulate", "kampen", "--games", "1", "--workers", "1", "--out", str(w / t)])  # noqa: E731
    cases.append(Case("overwrite", "simulate --out someone's CSV", _writes(sim("notes.csv"), "notes.csv", "refuse")))
    cases.append(Case("overwrite", "simulate --out beside someone's summary.json", _writes(sim("summary.csv"), "summary.json", "refuse")))
    cases.append(Case("overwrite", "simulate --out a name of 250 bytes", _sim_long()))
    for t in ("notes.yaml", "docker-compose.yml", "edited.yaml", "dir.yaml", "link.yaml", "é" * 124):
        cases.append(Case("overwrite", f"the analysis board saves over {t[:20]}", _board_save(t, play=False)))
        cases.append(Case("overwrite", f"the analysis board plays on over {t[:20]}", _board_save(t, play=True)))
    cases.append(Case("overwrite", "the analysis board saves twice to one name", _board_twice()))
    cases.append(Case("overwrite", "the play loop's map snapshot where a file of someone's has its name", _snapshot()))
    return cases


def _twice(args: Callable[[Path], list[str]]) -> Callable[[Path, Runner], tuple[str, str]]:
    def run(work: Path, runner: Runner) -> tuple[str, str]:
        r1, r2 = runner(args(work), cwd=work), runner(args(work), cwd=work)
        if r1.code or r2.code:
            return judge(r2 if r1.code == 0 else r1, "ok")
        return ("clean", "") if "replaced" in r2.out else ("accepted", f"the second did not say it replaced: {r2.out[:100]!r}")
    return run


def _frames(foreign: bool) -> Callable[[Path, Runner], tuple[str, str]]:
    def run(work: Path, runner: Runner) -> tuple[str, str]:
        shutil.copyfile(_base_save("narvik"), work / "g.hexwar")
        frames = work / "frames"
        frames.mkdir()
        args = ["replay", str(work / "g.hexwar"), "--svg", str(frames)]
        if foreign:
            (frames / "00003-turn01.svg").write_text("<svg>my drawing</svg>\n", encoding="utf-8")
            before = _fingerprint(frames / "00003-turn01.svg")
            r = runner(args, cwd=work)
            if _fingerprint(frames / "00003-turn01.svg") != before:
                return "lost", "someone's frame was replaced"
            if sorted(os.listdir(frames)) != ["00003-turn01.svg"]:
                return "lost", "frames were written before it was refused"
            return judge(r, "refuse")
        r1 = runner(args, cwd=work)
        r2 = runner(args, cwd=work)
        return judge(r2 if r1.code == 0 else r1, "ok")
    return run


def _report(name: str) -> Callable[[Path, Runner], tuple[str, str]]:
    return _someones(name, lambda rep: ["compare", "kampen", "kampen@nordland-hex", "--games", "1", "--workers", "1",
                                        "--out", str(rep)])


def _ladder(name: str) -> Callable[[Path, Runner], tuple[str, str]]:
    return _someones(name, lambda lad: ["ladder", "kampen", "--rounds", "0", "--out", str(lad)])


def _someones(name: str, args: Callable[[Path], list[str]]) -> Callable[[Path, Runner], tuple[str, str]]:
    """A command that writes a folder of files (a report, a ladder) pointed at a folder that
    holds someone's ``name``: refused before it writes anything there."""
    def run(work: Path, runner: Runner) -> tuple[str, str]:
        folder = work / "out"
        folder.mkdir()
        (folder / name).write_bytes(b"someone's " + name.encode())
        before = _fingerprint(folder / name)
        r = runner(args(folder), cwd=work)
        if _fingerprint(folder / name) != before:
            return "lost", f"someone's {name} was replaced"
        if sorted(os.listdir(folder)) != [name]:
            return "lost", f"it wrote beside it before refusing: {sorted(os.listdir(folder))}"
        return judge(r, "refuse")
    return run


def _sim_long() -> Callable[[Path, Runner], tuple[str, str]]:
    def run(work: Path, runner: Runner) -> tuple[str, str]:
        out = work / ("s" * 246 + ".csv")  # the summary beside it takes 251 bytes: both fit
        r = runner(["simulate", "kampen", "--games", "2", "--workers", "1", "--out", str(out)], cwd=work)
        if r.code != 0:
            return judge(r, "ok")
        if not out.with_suffix(".json").is_file():
            return "lost", "the batch played, its summary was not written"
        return "clean", ""
    return run


def _analysis(work: Path) -> Any:
    from hexwar.registry import get
    from hexwar.ui.analysis import AnalysisBoard
    from hexwar.web.analysis import WebAnalysis

    info = get("narvik")
    g = info.build()
    head = {"game": "narvik", "scenario": info.default_scenario, "board": info.default_board, "switches": [], "seed": 0,
            "seen_by": "all"}
    return WebAnalysis(AnalysisBoard(info, g, g.new_state(0).data, head, work, "pos"))


def _board_save(name: str, play: bool) -> Callable[[Path, Runner], tuple[str, str]]:
    def run(work: Path, runner: Runner) -> tuple[str, str]:
        files = _foreign(work)
        if name == "edited.yaml":
            files[name] = _own_position(work, run_inprocess, name)
            files[name].write_text(files[name].read_text(encoding="utf-8") + "# mine now\n", encoding="utf-8")
        before = _snap(files)
        web = _analysis(work)
        try:
            got = web.play_on(name, "allies") if play else web.save(name, "")
        finally:
            if hasattr(web, "stop"):  # an engine before issue 70 leaves its play board running
                web.stop()
        changed = _unchanged(files, before)
        if changed:
            return "lost", f"{changed} was changed"
        if name.startswith("é"):  # a long name of its own: written, or refused in one line
            if "error" in got:
                return ("clean", "") if "\n" not in got["error"] else ("traceback", got["error"][:120])
            return ("clean", "") if Path(got["saved"]).is_file() else ("lost", "said saved, wrote nothing")
        if "error" not in got:
            return "accepted", f"saved over {name}: {got.get('said', '')[:100]}"
        return ("clean", "") if "\n" not in got["error"] else ("traceback", got["error"][:120])
    return run


def _board_twice() -> Callable[[Path, Runner], tuple[str, str]]:
    def run(work: Path, runner: Runner) -> tuple[str, str]:
        web = _analysis(work)
        a, b = web.save("twice", ""), web.save("twice", "")
        if "error" in a or "error" in b:
            return "traceback", f"refused its own position: {(a.get('error') or b.get('error'))[:120]}"
        return "clean", ""
    return run


def _snapshot() -> Callable[[Path, Runner], tuple[str, str]]:
    def run(work: Path, runner: Runner) -> tuple[str, str]:
        from hexwar.registry import get
        from hexwar.ui.commands import Commands
        from hexwar.ui.session import Session
        from rich.console import Console
        import io

        info = get("narvik")
        st = info.build().new_state(3)
        sess = Session(st, {"allies"}, {}, work / "s.hexwar", work)
        c = Commands(info.presenter(sess), Console(file=io.StringIO()))
        first = sess.snapshot_path(f"{c.presenter.turn_word}{st.data.turn:02d}")
        first.write_text("<svg>mine</svg>\n", encoding="utf-8")
        before = _fingerprint(first)
        path = c.snapshot()
        if _fingerprint(first) != before:
            return "lost", "someone's file was replaced by a snapshot"
        return ("clean", "") if path != first and path.is_file() else ("accepted", f"wrote {path}")
    return run


# --- positions ------------------------------------------------------------------------------


_POSITION: dict[str, str] = {}


def _position_text(work: Path, runner: Runner, game: str = "narvik") -> str:
    """A position a person could have written: a game of the priority bots 12 orders in, as
    everyone sees it (as ``hexwar position`` writes a watched game's), without hexwar's mark."""
    if game not in _POSITION:
        from hexwar.core.position import dump
        from hexwar.registry import get

        info = get(game)
        st = info.build().new_state(3)
        bots = {s: info.bot("priority", s, 3, 1.0) for s in info.sides}
        for _ in range(12):
            st.apply(bots[st.current_side()].choose(st, st.legal_orders()))
        _POSITION[game] = dump(dict(st.log.meta, game=game), st.data, "all", note="the trial's position")
    return _POSITION[game]


def _edit_doc(fn: Callable[[dict[str, Any]], None]) -> Callable[[str], str | bytes]:
    def edit(text: str) -> str:
        doc = yaml.safe_load(text)
        fn(doc)
        return yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)
    return edit


def _unit(doc: dict[str, Any]) -> dict[str, Any]:
    return next(u for u in doc["state"]["units"].values() if u.get("loc"))


def _deep(n: int) -> Callable[[str], str]:
    return lambda text: text + "\ndeep: " + "[" * n + "]" * n + "\n"


def _laughs(text: str) -> str:
    lines = ["lol0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"lol{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, 10)]
    return text + "\n" + "\n".join(lines) + "\n"


def _twice_unit(text: str) -> str:
    doc = yaml.safe_load(text)
    uid, u = next((k, v) for k, v in doc["state"]["units"].items() if v.get("loc"))
    other = next(v["loc"] for v in doc["state"]["units"].values() if v.get("loc") and v["loc"] != u["loc"])
    return text + "\n" if False else text.replace("  units:\n", f"  units:\n    {uid}:\n" + "".join(
        f"      {k}: {json.dumps(other if k == 'loc' else v)}\n" for k, v in u.items()), 1)


#: (what, how the person's text is changed: a new text, bytes, or a special file)
POSITIONS: list[tuple[str, Any]] = [
    ("a billion laughs (aliases)", _laughs),
    ("an alias of a unit", lambda t: t.replace("  units:\n", "  units:\n    extra: &u {id: x}\n    more: *u\n", 1)),
    ("nesting 10,000 deep", _deep(10_000)),
    ("nesting 40 deep", _deep(40)),
    ("5 MB of comments", lambda t: t + ("# " + "x" * 1000 + "\n") * 5000),
    ("UTF-16", lambda t: t.encode("utf-16")),
    ("latin-1", lambda t: t.replace("note:", "note: caf\u00e9", 1).encode("latin-1", "replace")),
    ("a byte that is no UTF-8", lambda t: t.encode() + b"# \xff\xfe\n"),
    ("binary garbage", lambda t: bytes(range(256)) * 8),
    ("empty", lambda t: ""),
    ("a list", lambda t: "- a\n- b\n"),
    ("the phase nuke", _edit_doc(lambda d: d["state"].__setitem__("phase", "nuke"))),
    ("the weather tornado", _edit_doc(lambda d: d["state"].__setitem__("weather", "tornado"))),
    ("a counter at hex 9999", _edit_doc(lambda d: _unit(d).__setitem__("loc", "9999"))),
    ("a counter of type death_star", _edit_doc(lambda d: _unit(d).__setitem__("type", "death_star"))),
    ("a counter of the other side", _edit_doc(lambda d: _unit(d).__setitem__("side", "germans" if _unit(d)["side"] == "allies" else "allies"))),
    ("a counter at a place and in a pool", _edit_doc(lambda d: _unit(d).__setitem__("pool", "eliminated"))),
    ("a counter nowhere", _edit_doc(lambda d: _unit(d).__setitem__("loc", None))),
    ("a counter in a pool that does not exist", _edit_doc(lambda d: _unit(d).update(loc=None, pool="valhalla"))),
    ("a counter not in the order of battle", _edit_doc(lambda d: d["state"]["units"].__setitem__(
        "NOBODY", dict(_unit(d), id="NOBODY")))),
    ("a counter filed under another id", _edit_doc(lambda d: d["state"]["units"].__setitem__(
        "ALIAS", dict(_unit(d))))),
    ("the same counter in two hexes", _twice_unit),
    ("fatigue -3", _edit_doc(lambda d: _unit(d).__setitem__("fatigue", -3))),
    ("fatigue as text", _edit_doc(lambda d: _unit(d).__setitem__("fatigue", "tired"))),
    ("turn 99", _edit_doc(lambda d: d["state"].__setitem__("turn", 99))),
    ("turn -1", _edit_doc(lambda d: d["state"].__setitem__("turn", -1))),
    ("the side to act sweden", _edit_doc(lambda d: d["state"].__setitem__("side", "sweden"))),
    ("a decision the game never asks", _edit_doc(lambda d: d["state"].__setitem__("ask", {"side": "allies", "what": "nuke"}))),
    ("a track below 0", _edit_doc(lambda d: d["state"]["tracks"].__setitem__("ap", -5))),
    ("a supply base off the map", _edit_doc(lambda d: d["state"].__setitem__("bases", ["9999"]))),
    ("the seed as text", _edit_doc(lambda d: d.__setitem__("seed", "lucky"))),
    ("another game named", _edit_doc(lambda d: d.__setitem__("game", "kampen"))),
    ("a game that does not exist", _edit_doc(lambda d: (d.__setitem__("game", "chess"), d["state"].__setitem__("game", "chess")))),
    ("a scenario that does not exist", _edit_doc(lambda d: d.__setitem__("scenario", "../../etc/passwd"))),
    ("a switch that does not exist", _edit_doc(lambda d: d.__setitem__("switches", ["nukes"]))),
    ("an unknown key at the top", _edit_doc(lambda d: d.__setitem__("cheat", True))),
    ("an unknown key in the state", _edit_doc(lambda d: d["state"].__setitem__("wether", "good"))),
    ("an unknown key in a counter", _edit_doc(lambda d: _unit(d).__setitem__("strength", 99))),
    ("an unknown key in the VP log", _edit_doc(lambda d: d["state"].__setitem__(
        "vp_log", [{"turn": 1, "side": "allies", "vp": 1, "cause": "x", "rule": "x", "bonus": 5}]))),
    ("a state that is a list", _edit_doc(lambda d: d.__setitem__("state", [1, 2]))),
    ("a unit that is a number", _edit_doc(lambda d: d["state"]["units"].__setitem__(next(iter(d["state"]["units"])), 7))),
]

#: special files in place of a position
SPECIAL = ("/dev/zero", "a FIFO", "a folder", "no such file")


def positions_cases() -> list[Case]:
    cases = []
    for what, fn in POSITIONS:
        for cmd in ("play", "fatigue", "analyse"):
            cases.append(Case("positions", f"{cmd} --from a position with {what}", _position_case(cmd, what, fn)))
    for what in SPECIAL:
        for cmd in ("play", "fatigue", "analyse"):
            cases.append(Case("positions", f"{cmd} --from {what}", _position_case(cmd, what, None)))
    cases.append(Case("positions", "play --from a good position", _position_case("play", "", lambda t: t, expect="ok")))
    for what, fn in POSITIONS[11:15] + POSITIONS[35:38]:  # as a user runs it: a process that has read no game yet
        cases.append(Case("positions", f"play --from a position with {what}, in a process of its own",
                          _position_case("play", what, fn, fresh=True)))
    cases.append(Case("positions", "a save played from a bad position, resumed", _bad_start_save()))
    return cases


def _args(cmd: str, path: str, work: Path) -> list[str]:
    if cmd == "play":
        return ["play", "narvik", "--from", path, "--side", "none", "--opponent", "priority", "--save", str(work / "new.hexwar")]
    if cmd == "analyse":
        return ["analyse", "narvik", "--no-web", "--from", path]
    return ["fatigue", path, "1/139"]


def _position_case(cmd: str, what: str, fn: Any, expect: str = "refuse", fresh: bool = False
                   ) -> Callable[[Path, Runner], tuple[str, str]]:
    def run(work: Path, runner: Runner) -> tuple[str, str]:
        if fresh:
            from trial_base import run_subprocess

            runner = run_subprocess
        path = work / "pos.yaml"
        if fn is None:
            target = {"/dev/zero": "/dev/zero", "a FIFO": str(path), "a folder": str(path), "no such file": str(path)}[what]
            if what == "a FIFO":
                os.mkfifo(path)
            elif what == "a folder":
                path.mkdir()
        else:
            body = fn(_position_text(work, run_inprocess))
            if isinstance(body, str):
                path.write_text(body, encoding="utf-8")
            else:
                path.write_bytes(body)
            target = str(path)
        before = _fingerprint(path)
        r = runner(_args(cmd, target, work), cwd=work)
        if _fingerprint(path) != before:
            return "lost", "the position file was changed"
        if expect == "ok":
            return judge(r, "ok")
        if r.code == 0 and cmd == "play" and (work / "new.hexwar").exists():
            return "accepted", "started a game from it"
        if cmd == "play" and (work / "new.hexwar").exists():
            return "lost", "left a save of a game that was refused"
        if cmd == "analyse" and r.code == 0 and "given twice" in r.out:
            return "clean", ""  # the analysis board sets a position up by hand: it flags a value given twice
        return judge(r, "refuse", names=(target,))
    return run


def _bad_start_save() -> Callable[[Path, Runner], tuple[str, str]]:
    """A save whose starting position (its meta's ``start``) no game could play: resuming or
    replaying it is one line, never an internal error a few orders in."""
    def run(work: Path, runner: Runner) -> tuple[str, str]:
        import sqlite3

        text = _position_text(work, run_inprocess)
        (work / "pos.yaml").write_text(text, encoding="utf-8")
        save = work / "from.hexwar"
        r = runner(["play", "narvik", "--from", str(work / "pos.yaml"), "--side", "none", "--opponent", "priority",
                    "--save", str(save)], cwd=work)
        if r.code != 0 or not save.exists():
            return judge(r, "ok")
        con = sqlite3.connect(str(save), isolation_level=None)
        (start,) = con.execute("SELECT value FROM meta WHERE key='start'").fetchone()
        st = json.loads(json.loads(start))
        st["phase"] = "nuke"
        next(u for u in st["units"].values() if u.get("loc"))["loc"] = "9999"
        con.execute("UPDATE meta SET value=? WHERE key='start'", (json.dumps(json.dumps(st)),))
        con.close()
        return refused_as_save(save, runner, work)
    return run


# --- encodings (command lines) --------------------------------------------------------------


def encodings_cli_cases() -> list[Case]:
    """Names that are no UTF-8 where a command reads or writes a file (as a shell passes a
    byte the file system allows and no text has: Python reads it as a lone surrogate)."""
    bad = ("\udcff\udcfe", "caf\udce9")
    specs: list[tuple[str, Callable[[Path, str], list[str]], str]] = [
        ("position -o", lambda w, b: ["position", str(w / "g.hexwar"), "-o", str(w / f"{b}.yaml")], "either"),
        ("replay of a save so named", lambda w, b: ["replay", str(w / f"{b}.hexwar")], "refuse"),
        ("play --save", lambda w, b: ["play", "narvik", "--side", "none", "--opponent", "priority", "--save",
                                      str(w / f"{b}.hexwar")], "either"),
        ("map render -o", lambda w, b: ["map", "render", "fixtures/skirmish", "-o", str(w / f"{b}.svg")], "either"),
        ("play --from", lambda w, b: ["play", "narvik", "--from", str(w / f"{b}.yaml")], "refuse"),
        ("a scenario name", lambda w, b: ["reach", f"fixtures/{b}", "1SG"], "refuse"),
        ("a unit id", lambda w, b: ["reach", "fixtures/skirmish", b], "refuse"),
        ("simulate --out", lambda w, b: ["simulate", "kampen", "--games", "1", "--workers", "1", "--out",
                                         str(w / f"{b}.csv")], "either"),
    ]
    cases = []
    for name, args, expect in specs:
        for b in bad:
            cases.append(Case("encodings", f"{name} with {b.encode('unicode_escape').decode()}", _enc_cli(args, b, expect)))
    return cases


def _enc_cli(args: Callable[[Path, str], list[str]], bad: str, expect: str) -> Callable[[Path, Runner], tuple[str, str]]:
    def run(work: Path, runner: Runner) -> tuple[str, str]:
        shutil.copyfile(_base_save("narvik"), work / "g.hexwar")
        before = _fingerprint(work / "g.hexwar")
        r = runner(args(work, bad), cwd=work)
        if _fingerprint(work / "g.hexwar") != before:
            return "lost", "the save was changed"
        if expect == "either" and r.code == 0:
            return "clean", ""
        return judge(r, "refuse")
    return run


def files_families() -> dict[str, Callable[[], list[Case]]]:
    """The case makers of this module's families, by family."""
    return {"overwrite": overwrite_cases, "positions": positions_cases}


__all__ = ["Ran", "encodings_cli_cases", "files_families", "overwrite_cases", "positions_cases"]
