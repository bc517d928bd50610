"""Find, load and validate the YAML data (maps/, oob/, tables/), reporting every problem.

Problems are reported as ``file:key.path: message``, all at once, through one
:class:`DataError`; nothing here ever lets a traceback reach the user.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

import yaml
from pydantic import BaseModel, ValidationError

from hexwar.data.schemas import SPECS

DATA_FOLDERS = ("maps", "oob", "tables")


@dataclass(frozen=True)
class Problem:
    """One thing wrong with one data file."""

    file: str
    key: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.key}: {self.message}" if self.key else f"{self.file}: {self.message}"


class DataError(ValueError):
    """One or more data problems; ``str()`` gives one line per problem."""

    def __init__(self, problems: Iterable[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class DataNameError(DataError):
    """A name that would lead outside the data folder (``../x``, ``/etc/x``): one line, the
    person's mistake rather than the data's."""

    def __init__(self, folder: str, name: str, why: str):
        self.line = f"{name!r} is not a name under {folder}/ ({why})"
        super().__init__([Problem(folder, "", self.line)])


def data_root() -> Path:
    """Return the folder holding maps/, oob/ and tables/ (checkout, wheel, or $HEXWAR_DATA)."""
    env = os.environ.get("HEXWAR_DATA")
    if env:
        return Path(env)
    here = Path(__file__).resolve()
    checkout = here.parents[2]
    if (checkout / "maps").is_dir() and (checkout / "tables").is_dir():
        return checkout
    bundled = here.parents[1] / "_bundled"
    if bundled.is_dir():
        return bundled
    raise DataError([Problem(str(checkout), "", "no maps/ and tables/ found (neither a checkout nor a wheel)")])


def _rel(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """YAML loader that refuses duplicate keys (a silent overwrite would hide a typo).

    It parses with libyaml when PyYAML has it (10x faster on the generated maps)."""


def _construct_mapping(loader: _Loader, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
    seen: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if not isinstance(key, (str, int, float, bool)) and key is not None:
            raise yaml.constructor.ConstructorError(None, None, "a key must be a plain value (a name or a number)",
                                                    key_node.start_mark)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r}", key_node.start_mark
            )
        seen[key] = loader.construct_object(value_node, deep=deep)
    return seen


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


#: limits on what a data file may be (no chart comes near them; a file past them is a mistake)
MAX_FILE_BYTES = 20_000_000
MAX_DEPTH = 40


def _depth(obj: Any) -> int:
    """How deeply lists and mappings nest (without recursion)."""
    deepest, stack = 0, [(obj, 1)]
    while stack:
        o, d = stack.pop()
        if isinstance(o, dict):
            children = list(o.values())
        elif isinstance(o, list):
            children = o
        else:
            continue
        deepest = max(deepest, d)
        if d > MAX_DEPTH:
            return d
        stack.extend((c, d + 1) for c in children)
    return deepest


def read_yaml(path: Path) -> Any:
    """Read a YAML file; anything but sound UTF-8 YAML of plain data becomes a
    :class:`DataError` naming the file (and the line)."""
    import stat

    rel = _rel(Path(path))
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            raise DataError([Problem(rel, "", "not a regular file (a folder, pipe or device): cannot be read as data")])
        if st.st_size > MAX_FILE_BYTES:
            raise DataError([Problem(rel, "", f"{st.st_size:,} bytes: larger than any data file may be ({MAX_FILE_BYTES:,})")])
        with open(path, "rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise DataError([Problem(rel, "", f"cannot read: {exc.strerror}")]) from None
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")) or (len(raw) > 1 and (raw[0] == 0 or raw[1] == 0)):
        raise DataError([Problem(rel, "", "UTF-16 or UTF-32 text: save the file as UTF-8")])
    key = hashlib.sha1(raw).digest()
    hit = _PARSED.get(key)
    if hit is not None:  # the same bytes read before: a copy of what they gave
        return pickle.loads(hit)
    data = _parse(raw, rel)
    if len(_PARSED) >= PARSED_KEPT:
        _PARSED.pop(next(iter(_PARSED)))
    _PARSED[key] = pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)
    return data


#: data files parsed in this process, by the sha1 of their bytes: their documents, pickled
#: (each read gets its own copy). A file is read once a process by the library; a data tree
#: validated again and again (the bad-input trial's copies, one file changed in each) is not
#: parsed again where its bytes did not change. Only documents that parsed are kept.
_PARSED: dict[bytes, bytes] = {}
PARSED_KEPT = 400


def _parse(raw: bytes, rel: str) -> Any:
    """A data file's bytes as plain data, or a one-line :class:`DataError` (``read_yaml``)."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise DataError([Problem(rel, f"line {line}", f"not UTF-8 text (byte {exc.start}): save the file as UTF-8")]) from None
    try:
        if "&" in text and "*" in text:  # anchors and aliases: a small file could expand without end
            for ev in yaml.parse(text, Loader=_Loader):
                if isinstance(ev, yaml.AliasEvent):
                    line = ev.start_mark.line + 1 if ev.start_mark is not None else 0
                    raise DataError([Problem(rel, f"line {line}", "YAML aliases (*name) are not allowed in data files")])
        data = yaml.load(text, Loader=_Loader)  # noqa: S506 - SafeLoader subclass
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else ""
        msg = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        if "nesting depth" in msg:  # libyaml (PyYAML 6.0.4 on) stops at its own limit, far past ours
            raise DataError([Problem(rel, where, f"nested deeper than {MAX_DEPTH} levels")]) from None
        raise DataError([Problem(rel, where, f"YAML syntax: {msg}")]) from None
    except RecursionError:
        raise DataError([Problem(rel, "", f"nested deeper than {MAX_DEPTH} levels")]) from None
    if _depth(data) > MAX_DEPTH:
        raise DataError([Problem(rel, "", f"nested deeper than {MAX_DEPTH} levels")])
    return data


_KEYED = re.compile(r"^([\w\-/]+(?:\.[\w\-/]+)*): (.*)$")


def _loc(loc: tuple[Any, ...]) -> str:
    parts = []
    for p in loc:
        if isinstance(p, str) and ("[" in p or p in {"int", "str", "tuple[int,int]", "function-after"}):
            continue  # union/validator branch names, not keys
        parts.append(str(p))
    return ".".join(parts)


def parse(raw: Any, file: str) -> BaseModel:
    """Validate a loaded YAML document against the schema its ``kind`` names."""
    if not isinstance(raw, dict):
        raise DataError([Problem(file, "", "top level must be a mapping with a 'kind' key")])
    kind = raw.get("kind")
    if kind not in SPECS:
        raise DataError([Problem(file, "kind", f"unknown kind {kind!r}; expected one of {sorted(SPECS)}")])
    try:
        return SPECS[kind].model_validate(raw)
    except ValidationError as exc:
        probs = []
        for e in exc.errors():
            msg = e["msg"].removeprefix("Value error, ")
            if e["type"] == "missing":
                msg = "required key is missing"
            elif e["type"] == "extra_forbidden":
                msg = "unknown key (typo?)"
            key = _loc(e["loc"])
            m = _KEYED.match(msg)
            if m:  # a model-level check that names its own key path: "columns.0: ..."
                key = f"{key}.{m.group(1)}" if key else m.group(1)
                msg = m.group(2)
            probs.append(Problem(file, key, msg))
        raise DataError(probs) from None


class Library:
    """The data under one root: look files up by folder and name, parsed and cached."""

    def __init__(self, root: Path | None = None):
        self.root = Path(root) if root is not None else data_root()
        self._cache: dict[Path, BaseModel] = {}

    def path(self, folder: str, name: str) -> Path:
        """Return the file for ``name`` under ``folder`` (``name`` may contain a subfolder).

        Names resolve only inside the data root: an absolute path, ``..`` or a link that
        leads out of it is refused.
        """
        base = (self.root / folder).resolve()
        p = Path(name)
        if p.is_absolute() or ".." in p.parts or not name or "\x00" in name:
            raise DataNameError(folder, name, "names are relative and stay inside the data folder")
        cand = (base / f"{name}.yaml").resolve()
        if not cand.is_relative_to(base):
            raise DataNameError(folder, name, f"it leads out of the data folder {folder}/")
        if not cand.exists():
            known = ", ".join(sorted(self.names(folder))) or "none"
            raise DataError([Problem(_rel(base / f"{name}.yaml"), "", f"no such {folder} file; known: {known}")])
        return cand

    def names(self, folder: str) -> list[str]:
        """Return the names of the YAML files under ``folder``."""
        base = self.root / folder
        return [str(p.relative_to(base).with_suffix("")) for p in sorted(base.rglob("*.yaml"))]

    def load(self, folder: str, name: str, kind: str | tuple[str, ...] | None = None) -> Any:
        """Load and validate one file, checking its kind."""
        path = self.path(folder, name).resolve()
        if path not in self._cache:
            self._cache[path] = parse(read_yaml(path), _rel(path))
        spec = self._cache[path]
        kinds = (kind,) if isinstance(kind, str) else kind
        if kinds and getattr(spec, "kind") not in kinds:
            raise DataError([Problem(_rel(path), "kind", f"is {getattr(spec, 'kind')!r}, expected {' or '.join(kinds)}")])
        return spec

    def files(self) -> list[Path]:
        """Return every YAML file under the data folders."""
        out: list[Path] = []
        for folder in DATA_FOLDERS:
            out.extend(sorted((self.root / folder).rglob("*.yaml")))
        return out


@lru_cache(maxsize=4)
def default_library() -> Library:
    """Return the library over the bundled data."""
    return Library()
