"""The compiled engine: a game's hot modules compiled to C by mypyc, for batches.

What is compiled is a build list, not a mark in the rules: a package lists its modules to
compile in a file ``native.txt`` of its folder (:data:`LIST`; one module a line, named from
that folder, then the classes of it that stay Python classes, below; ``#`` for a comment); a
game lists its own inside its own package, and this module names no game. ``hexwar native build`` compiles every listed module, with mypyc and
the machine's C compiler, into a folder of the user's cache named by a key of the whole
``hexwar`` source (every ``.py`` file and every list, the Python and the platform): a build
is used only for exactly the sources it was made from, so an edited file never runs stale
code, it plays pure Python until built again.

``HEXWAR_NATIVE=1`` in the environment, read when ``hexwar`` is first imported, loads the
compiled modules in place of their sources (a finder on ``sys.meta_path``); a process
started by a batch inherits it. Without it, or without a build for these sources, every
module is the pure Python one: the reference, which the compiled build must match game
for game (tests/test_native.py plays the same seeds both ways and compares whole logs).

A class whose objects are copied is named on its module's line (``bots PriorityBot _Context``):
mypyc makes its own classes only through their constructors, so neither ``pickle`` nor
``copy.deepcopy`` could remake one, and a person's ``undo`` keeps a deep copy of each bot
while the search bot's helper processes are sent the game, the state and the bot's policy
pickled. Such a class stays a Python class whose methods are compiled: each game's rules
class, its bots, and the records a game, a state or a bot's memory holds (the hex grid, the
switches, the rules' results, the fatigue records). The build gives it mypyc's
``@mypyc_attr(native_class=False)`` in its copy of the sources (:func:`keep_python_classes`);
the rules' own files carry no mark of the build. Its methods hold no closure (mypyc's
build fails on one): a key at the module's top level, given what it reads by
``functools.partial``. tests/test_native.py copies and sends what play does, in every game.

A listed module binds a module that is not compiled by its full name, ``import pkg.mod as X``,
never ``from pkg import mod as X``: compiled code read such an ``X`` as None when no module of
the build had imported ``pkg.mod`` by name (tests/test_native.py checks every listed module).

``HEXWAR_NATIVE_DIR`` names another folder for the builds (the tests use a temporary one).
Only the standard library is imported here: this runs before any game module is loaded.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import platform
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from types import ModuleType
from typing import Any, Sequence

LIST = "native.txt"  # a package's build list
ROOT = Path(__file__).resolve().parent  # the hexwar package
GROUP = "hexwar_native"  # mypyc's shared library of the build: hexwar_native__mypyc
FORMAT = 1  # the layout of a build folder; bumped when it changes
#: mypy's options for the build, the same wherever hexwar is installed (an installed package
#: has no pyproject.toml beside it): a library without type hints is Any, as the project's
#: own check has it, and a "type: ignore" that this looser check does not need is no error
FLAGS = ["--config-file=", "--ignore-missing-imports", "--no-warn-unused-ignores"]


class NativeError(RuntimeError):
    """A compiled build could not be made or used (the message says why, in one line)."""


def sources(root: Path = ROOT) -> list[Path]:
    """Every ``.py`` file of the package and every build list, in a fixed order."""
    return sorted([*root.rglob("*.py"), *root.rglob(LIST)])


def listed(root: Path = ROOT) -> dict[str, tuple[str, ...]]:
    """What the build lists say (:data:`LIST`): each module to compile by its full name, with
    the classes of it that stay Python classes; a listed module with no source file is
    refused in one line naming the list."""
    out: dict[str, tuple[str, ...]] = {}
    for lst in sorted(root.rglob(LIST)):
        for line in lst.read_text(encoding="utf-8").splitlines():
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            name, classes = words[0], tuple(words[1:])
            src = lst.parent.joinpath(*name.split(".")).with_suffix(".py")
            if not src.is_file():
                raise NativeError(f"{lst}: {name}: no such module in {lst.parent.name} (a build list names modules of its folder)")
            out[".".join(src.relative_to(root.parent).with_suffix("").parts)] = classes
    return dict(sorted(out.items()))


def marked(root: Path = ROOT) -> list[str]:
    """The modules the build lists name, by their full names, in order."""
    return list(listed(root))


#: what the build puts before a class its list names (mypyc's own decorator)
KEEP = "@mypyc_attr(native_class=False)  # named in the build list: its objects are copied (hexwar/native.py)"


def keep_python_classes(text: str, classes: Sequence[str], where: str = "") -> str:
    r"""A module's source with mypyc's ``native_class=False`` on each top-level class named
    (before its other decorators) and the import it needs; a class the module does not
    define is refused in one line naming ``where`` (the list's line).

    >>> print(keep_python_classes("from __future__ import annotations\n\n@dataclass\nclass A:\n    x: int\n", ["A"]))
    from __future__ import annotations
    from mypy_extensions import mypyc_attr
    <BLANKLINE>
    @mypyc_attr(native_class=False)  # named in the build list: its objects are copied (hexwar/native.py)
    @dataclass
    class A:
        x: int
    <BLANKLINE>
    """
    import ast

    if not classes:
        return text
    tree = ast.parse(text)
    lines = text.split("\n")
    found = {n.name: min([n.lineno, *(d.lineno for d in n.decorator_list)]) for n in tree.body if isinstance(n, ast.ClassDef)}
    missing = [c for c in classes if c not in found]
    if missing:
        raise NativeError(f"{where}: no class {missing[0]} at the top of the module (a build list names its own classes)")
    for line in sorted((found[c] for c in classes), reverse=True):
        lines.insert(line - 1, KEEP)
    future = next((n.end_lineno for n in tree.body if isinstance(n, ast.ImportFrom) and n.module == "__future__"), 0)
    lines.insert(future or 0, "from mypy_extensions import mypyc_attr")
    return "\n".join(lines)


def source_key(root: Path = ROOT) -> str:
    """A key of the sources a build is made from: every file's path and bytes, the Python's
    ABI tag and the platform, so that a build is never used for other sources."""
    h = hashlib.sha256(f"{FORMAT} {sys.implementation.cache_tag} {sysconfig.get_platform()} "
                       f"{platform.machine()}".encode())
    for p in sources(root):
        h.update(str(p.relative_to(root)).encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def cache_dir() -> Path:
    """Where builds are kept: ``HEXWAR_NATIVE_DIR``, or ``hexwar/native`` in the user's cache."""
    if os.environ.get("HEXWAR_NATIVE_DIR"):
        return Path(os.environ["HEXWAR_NATIVE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "hexwar" / "native"


def build_dir(key: str | None = None) -> Path:
    """The folder of the build for these sources (it may not exist yet)."""
    return cache_dir() / (key or source_key())


def built(key: str | None = None) -> dict[str, Any] | None:
    """The manifest of the build for these sources, or None if there is none."""
    m = build_dir(key) / "manifest.json"
    if not m.exists():
        return None
    manifest: dict[str, Any] = json.loads(m.read_text())
    return manifest


_SCRIPT = """
import json, sys
from setuptools import setup
from mypyc.build import mypycify
a = json.loads(sys.argv[1])
exts = mypycify([*a["flags"], *a["paths"]], opt_level=a["opt"], group_name=a["group"], target_dir=a["c"])
for ext in exts:  # a warning only, and gcc's slowest on one C file this size: 70 of 100 s at level 0
    ext.extra_compile_args.append("-Wno-misleading-indentation")
setup(name="hexwar-native", packages=[], script_args=["build_ext", "--build-lib", a["out"], "--build-temp", a["temp"]],
      ext_modules=exts)
"""


def build(log: Path | None = None, opt_level: str = "3") -> Path:
    """Compile the listed modules for these sources (once: an existing build is kept) and
    return the build's folder. A failed build leaves nothing behind but its log.
    ``opt_level`` is the C compiler's optimisation (mypyc's, 0-3): the same semantics at
    every level; 3, the default, plays fastest, 0 compiles in about half the time (the
    tests' build, which checks the games, not their speed)."""
    key = source_key()
    out = build_dir(key)
    if (out / "manifest.json").exists():
        return out
    sweep()
    lists = listed()
    modules = list(lists)
    if not modules:
        raise NativeError(f"hexwar native: no package lists a module in a {LIST}: nothing to compile")
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        raise NativeError(f"hexwar native: no C compiler ({cc}) on this machine: the engine stays pure Python")
    if importlib.util.find_spec("mypyc") is None:
        raise NativeError("hexwar native: mypyc is not installed (pip install 'hexwar[native]')")
    import time

    started = time.monotonic()
    work = out.with_name(f"{key}.part-{os.getpid()}")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    # mypyc reads the sources from a copy of the package, in a folder of their own: in an
    # installed hexwar, the folder beside the package is site-packages, whose modules would
    # shadow the libraries mypy knows (mypy_extensions.py, ...)
    src = work / "src"
    shutil.copytree(ROOT, src / ROOT.name, ignore=lambda d, names: [
        n for n in names if not n.endswith(".py") and not (Path(d) / n).is_dir() or n in ("__pycache__", "_bundled")])
    paths = [str(Path(*m.split(".")).with_suffix(".py")) for m in modules]
    # the classes that stay Python classes, marked in the build's own copy of the sources
    # (made above in this build's fresh folder), never in the package's files
    for m, classes in lists.items():
        copy = src / Path(*m.split(".")).with_suffix(".py")
        copy.write_text(keep_python_classes(copy.read_text(encoding="utf-8"), classes, f"{m}: {' '.join(classes)}"),
                        encoding="utf-8")
    args = {"out": str(work / "lib"), "temp": str(work / "tmp"), "c": str(work / "c"), "group": GROUP, "paths": paths,
            "flags": FLAGS, "opt": opt_level}
    res = subprocess.run([sys.executable, "-c", _SCRIPT, json.dumps(args)], cwd=src, capture_output=True, text=True)
    log = log or cache_dir() / f"{key}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_text(res.stdout + res.stderr)
    if res.returncode != 0:
        shutil.rmtree(work, ignore_errors=True)
        last = [ln for ln in (res.stdout + res.stderr).splitlines() if "error" in ln.lower()][-1:] or ["(no error line)"]
        raise NativeError(f"hexwar native: mypyc failed ({last[0].strip()}); the whole log: {log}")
    files = {m: str(Path(*m.split(".")).with_suffix(_suffix())) for m in modules}
    files.update({p.name.split(".")[0]: p.name for p in (work / "lib").glob(f"{GROUP}__mypyc*")})
    missing = [f for f in files.values() if not (work / "lib" / f).exists()]
    if missing:
        shutil.rmtree(work, ignore_errors=True)
        raise NativeError(f"hexwar native: the build made no {missing[0]}; the whole log: {log}")
    mypy_version = importlib.import_module("mypy.version").__version__
    (work / "manifest.json").write_text(json.dumps(
        {"key": key, "modules": modules, "files": files, "python": sys.version.split()[0], "mypyc": mypy_version,
         "opt_level": opt_level, "seconds": round(time.monotonic() - started, 1)},
        indent=1))
    for scratch in ("tmp", "src", "c"):
        shutil.rmtree(work / scratch, ignore_errors=True)
    try:
        os.replace(work, out)  # whole or not at all: a reader never sees half a build
    except OSError:  # another process built it meanwhile: keep theirs
        shutil.rmtree(work, ignore_errors=True)
    return out


def sweep(folder: Path | None = None) -> list[Path]:
    """Remove the half builds (``KEY.part-PID``) that a process gone meanwhile left behind
    (a build killed mid-way: its folder was never renamed into place), and return them; a
    half build whose process still runs is another build under way, and is left alone."""
    gone = []
    for part in sorted((folder or cache_dir()).glob("*.part-*")):
        pid = part.name.rpartition("-")[2]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(part, ignore_errors=True)
            gone.append(part)
    return gone


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def _suffix() -> str:
    return importlib.machinery.EXTENSION_SUFFIXES[0]


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules of one build, in place of their sources."""

    def __init__(self, folder: Path, files: dict[str, str]) -> None:
        self.folder, self.files = folder, files

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        f = self.files.get(fullname)
        if f is None:
            return None
        where = str(self.folder / "lib" / f)
        return importlib.util.spec_from_file_location(
            fullname, where, loader=importlib.machinery.ExtensionFileLoader(fullname, where))


def enable() -> list[str]:
    """Load the compiled modules of the build for these sources in place of their sources
    (from now on); return their names, or [] with a line on stderr if there is no such build."""
    m = built()
    if m is None:
        print("hexwar: HEXWAR_NATIVE=1 but no compiled build for these sources (run `hexwar native build`): "
              "playing pure Python", file=sys.stderr)
        os.environ["HEXWAR_NATIVE"] = "0"  # said once: a batch's workers, which inherit it, play on without a word
        return []
    early = [name for name in m["modules"] if name in sys.modules]
    if early:
        raise NativeError(f"hexwar native: {early[0]} was imported before the compiled build was enabled")
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder(build_dir(m["key"]), m["files"]))
    return list(m["modules"])


def offer() -> str | None:
    """A line for a batch played in pure Python when a compiled build of these sources
    exists (None otherwise): how to play it compiled."""
    if os.environ.get("HEXWAR_NATIVE", "") not in ("", "0") or built() is None:
        return None
    return ("hexwar: a compiled engine is built for these sources; HEXWAR_NATIVE=1 before the command plays this "
            "batch with it (the same games, faster)")


def engine() -> str:
    """Which engine this process plays with: the compiled build (``enable`` was called with
    one for these sources) or pure Python."""
    finders = [f for f in sys.meta_path if isinstance(f, _Finder)]
    return f"compiled by mypyc, {sum(1 for n in finders[0].files if '.' in n)} modules" if finders else "pure Python"


def compiled(module: ModuleType) -> bool:
    """Whether a loaded module is a compiled one (its file is an extension module)."""
    return str(getattr(module, "__file__", "")).endswith(_suffix())
