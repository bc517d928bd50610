"""A report as one HTML page beside its Markdown (issue 58): self-contained (its figures inline
as data, no script, no font or style from elsewhere), readable on a phone (the page fits the
screen's width, a wide table scrolls by itself). The Markdown is rendered by markdown-it-py,
which rich already brings."""

from __future__ import annotations

import base64
import html
import re
from pathlib import Path

STYLE = """
:root { color-scheme: light; }
body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0 auto; padding: 0 1rem 3rem;
       max-width: 60rem; color: #1d2430; background: #fbfaf7; }
h1 { font-size: 1.5rem; line-height: 1.25; margin: 1.2rem 0 0.6rem; }
h2 { font-size: 1.2rem; margin: 1.8rem 0 0.5rem; border-bottom: 1px solid #d8d2c4; }
h3 { font-size: 1.05rem; margin: 1.2rem 0 0.4rem; }
p, li { overflow-wrap: anywhere; }
code { font-size: 0.9em; background: #eeeae0; padding: 0 0.2em; border-radius: 3px; }
.table { overflow-x: auto; -webkit-overflow-scrolling: touch; margin: 0.6rem 0; }
table { border-collapse: collapse; font-size: 0.85rem; }
th, td { border: 1px solid #d8d2c4; padding: 0.25rem 0.5rem; text-align: left; vertical-align: top; }
th { background: #efe9dc; }
tr:nth-child(even) td { background: #f5f2ea; }
img { max-width: 100%; height: auto; display: block; margin: 0.8rem 0; }
"""


def page(markdown: str, folder: Path, title: str) -> str:
    """The HTML page of a report's Markdown; each figure it names in ``folder`` set inline."""
    from markdown_it import MarkdownIt

    markdown = re.sub(r"<!--.*?-->\n?", "", markdown, flags=re.S)  # the Markdown's notes to its editors
    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(markdown)
    body = body.replace("<table>", '<div class="table"><table>').replace("</table>", "</table></div>")

    def inline(m: re.Match[str]) -> str:
        name = html.unescape(m.group(1))
        path = folder / name
        if "/" in name or not name.endswith(".png") or not path.is_file():
            return m.group(0)  # not a figure of this report: left as it is
        data = base64.b64encode(path.read_bytes()).decode()
        return f'src="data:image/png;base64,{data}"'

    body = re.sub(r'src="([^"]+)"', inline, body)
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; style-src 'unsafe-inline'\">\n"
            f"<title>{html.escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n")


def write(markdown_path: Path, title: str) -> Path:
    """Write ``report.html`` beside a report's Markdown (through a temporary file)."""
    from hexwar.core.files import read_mark, write_text

    out = markdown_path.with_suffix(".html")
    text = markdown_path.read_text(encoding="utf-8")
    if read_mark(text) is not None:  # the report's mark is no part of its page
        text = text.split("\n", 1)[1]
    write_text(out, page(text, markdown_path.parent, title))
    return out
