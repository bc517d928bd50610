"""Issue 70: one rule for every writer (``hexwar.core.files``): a file is replaced only when
hexwar wrote it for the same job and nobody changed it since, or with ``--force``; a file is
written whole, under a temporary name that fits wherever its own name does."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexwar.core.files import Job, Refused, check, check_group, claim, marked, read_mark, write_text

POSITION = Job("position")
DRAWING = Job("map drawing")


@given(st.text(), st.sampled_from([".yaml", ".svg", ".md", ".html", ".txt"]))
def test_a_stamped_text_is_its_jobs_and_any_edit_makes_it_the_persons(text, suffix):
    stamped = POSITION.stamp(text, suffix)
    assert read_mark(stamped) == ("position", True)
    edited = stamped + "x"
    assert read_mark(edited) == ("position", False)


def test_a_drawing_keeps_its_first_line_and_a_page_its_doctype():
    svg = DRAWING.stamp('<svg xmlns="http://www.w3.org/2000/svg">\n<g/>\n</svg>\n', ".svg")
    assert svg.startswith("<svg") and svg.splitlines()[1].startswith("<!-- written by hexwar map drawing; sha256 ")
    page = Job("compare report").stamp("<!DOCTYPE html>\n<html></html>\n", ".html")
    assert page.startswith("<!DOCTYPE html>\n<!-- written by hexwar compare report")


def test_the_writer_replaces_only_its_own_unchanged_file(tmp_path):
    p = tmp_path / "pos.yaml"
    assert check(p, POSITION) == "new"
    assert write_text(p, "a: 1\n", POSITION) == f"wrote {p}"
    assert check(p, POSITION) == "replace"
    assert write_text(p, "a: 2\n", POSITION).startswith(f"replaced {p}")
    with pytest.raises(Refused, match="another job"):  # a file of another job is not this one's
        check(p, DRAWING)
    p.write_text(p.read_text() + "# my note\n")  # the person edited it: theirs now
    with pytest.raises(Refused, match="changed since hexwar position wrote it.*--force"):
        check(p, POSITION)
    assert check(p, POSITION, force=True) == "force"


@pytest.mark.parametrize("what", ["notes", "save", "folder", "link"])
def test_a_file_hexwar_did_not_write_is_refused_in_one_line_and_left_as_it_was(tmp_path, what):
    p = tmp_path / "target.yaml"
    if what == "notes":
        p.write_text("my notes\n")
    elif what == "save":
        p.write_bytes(b"SQLite format 3\x00" + b"\x00" * 100)
    elif what == "folder":
        p.mkdir()
    else:
        (tmp_path / "notes").write_text("mine\n")
        os.symlink(tmp_path / "notes", p)
    before = p.read_bytes() if p.is_file() else None
    with pytest.raises(Refused) as e:
        write_text(p, "a: 1\n", POSITION)
    assert "\n" not in str(e.value) and str(p) in str(e.value)
    assert (p.read_bytes() if p.is_file() else None) == before
    if what == "save":
        assert "a saved game" in str(e.value)
    if what in ("folder", "link"):  # even --force replaces only a regular file
        with pytest.raises(Refused):
            check(p, POSITION, force=True)


def test_a_name_that_fits_is_written_whatever_the_temporary_name(tmp_path):
    # issue 70: a 250-byte name failed on a temporary name 20 bytes longer than the user's
    p = tmp_path / ("é" * 125 + ".yaml")  # 255 bytes
    write_text(p, "a: 1\n", POSITION)
    assert marked(p) == ("position", True)
    assert sorted(x.name for x in tmp_path.iterdir()) == [p.name]  # no temporary file left
    with pytest.raises(Refused, match="file name is 256 bytes"):
        check(tmp_path / ("a" * 251 + ".yaml"), POSITION)


def test_a_report_folder_is_claimed_by_its_main_file(tmp_path):
    job = Job("compare report")
    main, fig = tmp_path / "report.md", tmp_path / "win-rates.png"
    fig.write_bytes(b"someone's picture")
    with pytest.raises(Refused, match="win-rates.png: already exists"):  # no report of ours beside it
        check_group(main, [fig], job)
    assert fig.read_bytes() == b"someone's picture"
    fig.unlink()
    how = check_group(main, [fig], job)
    claim(main, job, how, "# being written\n")  # a run cut short here leaves a folder the next finishes
    fig.write_bytes(b"our picture")
    assert check_group(main, [fig], job) == "replace"
