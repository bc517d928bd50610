"""What hexwar writes, and the one rule every writer keeps (issue 70).

A command never replaces a file it did not write for the same job: a position file, a
report, a map drawing, a replay's frames. Each text file hexwar writes carries a mark on its
first line (after an XML or HTML declaration) naming the job and the digest of everything
below it:

    # written by hexwar position; sha256 3f2a9c0d5e7b1a64

A writer replaces a file only while that mark names its job and the digest still matches,
that is, a file hexwar wrote for this job and nobody has changed since. Anything else (a save,
someone's notes, a report edited by hand, a folder) is refused in one line before any work,
unless the person gives ``--force``. Files that carry no text mark (a report's figures, its
summary) belong to the report whose main file does (:func:`check_group`).

A file is written whole or not at all: under a short temporary name in its folder, then
renamed into place, so a crash leaves the old file, and the temporary name never exceeds the
file system's limit when the file's own name fits.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

#: the words every mark starts with
MARK = "written by hexwar"
#: the most of a file read to find its mark (a mark is on the first lines)
HEAD = 4096
#: the most of a file read to check its digest; a larger file is no output of ours
MOST = 64 * 1024 * 1024
_MARK_RE = re.compile(r"(?:# |<!-- )written by hexwar ([a-z][a-z -]*[a-z]); sha256 ([0-9a-f]{16})(?: -->)?")


class Refused(ValueError):
    """A file a writer may not replace, or a name it cannot write: one line for the person."""


@dataclass(frozen=True)
class Job:
    """What a writer writes: its name, said in marks and refusals (``position``,
    ``compare report``, ``replay frames``, ``map drawing`` ...)."""

    name: str

    def mark_line(self, body: str, suffix: str) -> str:
        """The mark for ``body`` in a file of this ``suffix``, without its line end."""
        words = f"{MARK} {self.name}; sha256 {digest(body)}"
        if suffix in (".svg", ".md", ".html", ".xml"):
            return f"<!-- {words} -->"
        return f"# {words}"

    def stamp(self, text: str, suffix: str) -> str:
        """``text`` with this job's mark: on the first line, or after an XML or HTML
        declaration or an SVG's opening tag (a comment may not come before ``<?xml``, one
        before the doctype would put a browser in quirks mode, and a drawing starts ``<svg``).

        >>> print(Job("position").stamp("a: 1\\n", ".yaml"), end="")
        # written by hexwar position; sha256 37b128c59f1f5097
        a: 1
        """
        head, body = _split_declaration(text, suffix)
        return head + self.mark_line(head + body, suffix) + "\n" + body

    def wrote(self, path: Path) -> bool:
        """Whether ``path`` is a regular file this job wrote and nobody has changed since."""
        return marked(path) == (self.name, True)


def digest(text: str) -> str:
    """The first 16 hex digits of the SHA-256 of ``text`` (UTF-8): what a mark records."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _split_declaration(text: str, suffix: str) -> tuple[str, str]:
    """The line a mark goes after (an XML or HTML declaration, or an SVG's opening tag: a
    drawing still starts with ``<svg``), or nothing, and the rest."""
    if suffix in (".svg", ".xml", ".html") and text.lstrip().startswith(("<?xml", "<!DOCTYPE", "<!doctype", "<svg")):
        end = text.find("\n")
        if end >= 0:
            return text[: end + 1], text[end + 1:]
    return "", text


def marked(path: Path) -> tuple[str, bool] | None:
    """The job a regular file's mark names and whether its digest still holds (the file is
    as hexwar wrote it), or None for a file with no mark (or no regular file)."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode) or st.st_size > MOST:
        return None
    try:
        with open(path, "rb") as fh:
            text = fh.read(MOST + 1).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return read_mark(text)


def read_mark(text: str) -> tuple[str, bool] | None:
    """The job a text's mark names and whether its digest holds, or None (no mark on its
    first line, nor on its second after a declaration).

    >>> text = Job("map drawing").stamp("<?xml version='1.0'?>\\n<svg/>\\n", ".svg")
    >>> read_mark(text), read_mark(text.replace("svg/", "svg />"))
    (('map drawing', True), ('map drawing', False))
    """
    end = text.find("\n")
    if end < 0:
        return None
    m = _MARK_RE.fullmatch(text[:end])
    if m:
        return m.group(1), digest(text[end + 1:]) == m.group(2)
    second = text.find("\n", end + 1)
    if second < 0:
        return None
    m = _MARK_RE.fullmatch(text[end + 1: second])
    if m:
        return m.group(1), digest(text[: end + 1] + text[second + 1:]) == m.group(2)
    return None


def describe(path: Path) -> str:
    """What a file in the way is, in a few words (for a refusal)."""
    try:
        st = os.lstat(path)
    except OSError:
        return "it cannot be read"
    if stat.S_ISDIR(st.st_mode):
        return "it is a folder"
    if stat.S_ISLNK(st.st_mode):
        return "it is a symbolic link"
    if not stat.S_ISREG(st.st_mode):
        return "it is not a regular file"
    m = marked(path)
    if m is None:
        try:
            with open(path, "rb") as fh:
                if fh.read(16) == b"SQLite format 3\x00":
                    return "it is a saved game"
        except OSError:
            pass
        return "hexwar did not write it"
    job, intact = m
    if not intact:
        return f"it was changed since hexwar {job} wrote it"
    return f"hexwar wrote it for another job ({job})"


def fits(path: Path) -> str:
    """Why ``path``'s last name does not fit its file system, or "" when it fits."""
    from hexwar.core.log import name_too_long

    return name_too_long(path)


def check(path: Path, job: Job, force: bool = False, hint: str = "--force to replace it") -> str:
    """Whether ``job`` may write ``path``: ``"new"`` (nothing there), ``"replace"`` (a file
    it wrote, unchanged) or ``"force"`` (another file, replaced because the person said
    ``--force``); :class:`Refused` in one line otherwise, ending with ``hint`` (how the
    person may replace it anyway: a page that has no ``--force`` says so). Checks the name and
    the folder too, so a writer calls it before any work."""
    too_long = fits(path)
    if too_long:
        raise Refused(f"{_short(path)}: {too_long}")
    folder = path.absolute().parent
    if not folder.is_dir():
        raise Refused(f"{_short(path)}: no folder {_short(folder)} to write it in")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise Refused(f"{_short(path)}: not writable (the folder {_short(folder)} is read-only)")
    if not os.path.lexists(path):
        return "new"
    if os.path.isdir(path) and not os.path.islink(path):
        raise Refused(f"{_short(path)}: is a folder, not a file to write")
    if job.wrote(path):
        return "replace"
    if force:
        if not os.path.isfile(path) or os.path.islink(path):
            raise Refused(f"{_short(path)}: {describe(path)}; even --force replaces only a regular file")
        return "force"
    raise Refused(f"{_short(path)}: already exists and {describe(path)}; hexwar replaces only a file it wrote "
                  f"itself for the same job ({job.name}): give another name" + (f", or {hint}" if hint else ""))


def check_group(main: Path, others: Iterable[Path], job: Job, force: bool = False) -> str:
    """Whether ``job`` may write a group of files led by ``main`` (a report and its figures
    and summary): the others may be replaced only when ``main`` is the job's own, unchanged
    (or with ``--force``). Returns :func:`check`'s word for ``main``."""
    said = check(main, job, force)
    for p in others:
        too_long = fits(p)
        if too_long:
            raise Refused(f"{_short(p)}: {too_long}")
        if os.path.lexists(p):
            if os.path.isdir(p) and not os.path.islink(p):
                raise Refused(f"{_short(p)}: is a folder, where hexwar {job.name} writes a file")
            if said == "new":
                raise Refused(f"{_short(p)}: already exists, and no {main.name} hexwar wrote for the same job "
                              f"({job.name}) is beside it; give another folder, or --force to replace them")
    return said


def claim(main: Path, job: Job, how: str, words: str) -> None:
    """Mark a group's folder as the job's before its long work: a new main file is written at
    once as a placeholder (``words``, marked), so a run cut short leaves a folder the next run
    may finish rather than figures no report claims."""
    if how == "new":
        write_text(main, words, job, checked="new")


def said(path: Path, how: str) -> str:
    """What a writer tells the person it did."""
    return {"new": f"wrote {path}", "replace": f"replaced {path} (hexwar wrote it; it was unchanged)",
            "force": f"replaced {path} (--force)"}[how]


def _temporary(path: Path) -> Path:
    """A short temporary name in ``path``'s folder: never longer than the limit when the
    folder exists, whatever the file's own name."""
    return path.with_name(f".hexwar-{os.getpid()}-{secrets.token_hex(4)}.tmp")


def write_whole(path: Path, put: Callable[[Path], None]) -> None:
    """Write a file whole or not at all: ``put`` writes a temporary file beside ``path``,
    which is then renamed into place (a crash leaves the old file); an ``OSError`` is a
    :class:`Refused` naming ``path``."""
    tmp = _temporary(path)
    try:
        put(tmp)
        os.replace(tmp, path)
    except OSError as e:
        raise Refused(f"{_short(path)}: cannot write ({e.strerror or e})") from None
    finally:
        if os.path.lexists(tmp):
            try:
                os.unlink(tmp)
            except OSError:
                pass


def write_text(path: Path, text: str, job: Job | None = None, force: bool = False, checked: str | None = None) -> str:
    """Write ``text`` to ``path`` for ``job`` (marked, and checked with :func:`check`
    unless the caller did: ``checked``), whole or not at all; return what was done
    (:func:`said`). ``job`` None: a file with no mark, checked by its caller (a batch's
    summary, a report's page)."""
    how = checked or (check(path, job, force) if job is not None else "new")
    body = job.stamp(text, path.suffix.lower()) if job is not None else text

    def put(tmp: Path) -> None:
        with open(tmp, "w", encoding="utf-8", newline="") as fh:
            fh.write(body)
            fh.flush()
            os.fsync(fh.fileno())

    write_whole(path, put)
    return said(path, how)


def _short(p: Path | str, most: int = 100) -> str:
    text = str(p)
    return text if len(text) <= most else text[: most - 3] + "..."
