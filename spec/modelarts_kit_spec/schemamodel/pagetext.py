"""A recorded page's words, as the schema model quotes them.

The schema model cites each rule with the page's own words (a table row, a sentence of a
description cell), and ``spec validate`` checks that every quote stands in its page. Both read
the page through :func:`page_words`: a small normalising reader, not a parser (``spec/`` does
not import ``vendordocs``; the field inventories in ``spec/sources/inventories`` are what the
documentation parser cross-checks). It

- joins the wrapped cells of reStructuredText grid tables (each column's lines of one row
  become one cell, so a description wrapped over five lines is one sentence again);
- drops table borders (``+---+``, ``---|---|``, the ``|`` between cells) and markup
  (``**bold**``, ````literal````, ``:ref:`Label <anchor>``` reads as ``Label``);
- collapses every run of whitespace, line breaks included, to one space.

So a row reads the same in the five formats of the pages (web text with one cell per
paragraph, pipe tables with one cell per line, grid tables): ``name Yes String Name of a
training job. ...``. :func:`normalise` applies the same to a quote.
"""

from __future__ import annotations

import functools
import itertools
import re
from pathlib import Path

from modelarts_kit_wire.errors import KitError

from modelarts_kit_spec.reader import read_input_text

__all__ = ["normalise", "page_words", "read_page_words", "stands_in"]

_REF = re.compile(r":ref:`([^`<]*?)\s*<[^`>]*>`|:ref:`([^`]*)`")
_PIPE_RULE = re.compile(r"^\s*(?:-{3,}\|)+\s*$", re.MULTILINE)
# Section underlines and the rules of simple tables (``=====  ====``).
_RULE_LINE = re.compile(r"^\s*[-=~^]{3,}(?:\s+[-=~^]{3,})*\s*$", re.MULTILINE)
_SPACE = re.compile(r"\s+")


def _is_grid_border(line: str) -> bool:
    stripped = line.strip()
    return len(stripped) > 2 and stripped[0] == "+" and set(stripped) <= set("+-=: ")


def _is_grid_line(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and (stripped[0] == "|" or _is_grid_border(line))


def _grid_rows(block: list[str]) -> list[str]:
    """The rows of one grid table, each as its cells joined by `` | `` (wrapped lines of a
    cell joined by spaces). A cell spanning columns is cut where the line has its ``|``."""
    rows: list[str] = []
    boundaries: list[int] = []
    cells: dict[int, list[str]] = {}

    def flush() -> None:
        if cells:
            texts = (" ".join(cells[start]).strip() for start in sorted(cells))
            rows.append(" | ".join(text for text in texts if text))
            cells.clear()

    for line in block:
        if _is_grid_border(line):
            flush()
            boundaries = [i for i, ch in enumerate(line) if ch == "+"]
            continue
        cuts = [b for b in boundaries if b < len(line) and line[b] == "|"]
        for start, end in itertools.pairwise(cuts):
            cells.setdefault(start, []).append(line[start + 1 : end].strip())
    flush()
    return rows


def _join_grid_tables(text: str) -> str:
    lines = text.splitlines()
    out: list[str] = []
    index = 0
    while index < len(lines):
        if not _is_grid_border(lines[index]):
            out.append(lines[index])
            index += 1
            continue
        end = index
        while end < len(lines) and _is_grid_line(lines[end]):
            end += 1
        out.extend(_grid_rows(lines[index:end]))
        index = end
    return "\n".join(out)


def normalise(text: str) -> str:
    """Markup, table borders and runs of whitespace flattened (a quote or a page's text)."""
    text = _REF.sub(lambda m: m.group(1) or m.group(2) or "", text)
    text = _PIPE_RULE.sub(" ", text)
    text = _RULE_LINE.sub(" ", text)
    text = text.replace("**", "").replace("``", "").replace("\\ ", "").replace("*", "")
    text = text.replace("|", " ")
    return _SPACE.sub(" ", text).strip()


def page_words(text: str) -> str:
    """A page's text as the schema model quotes it (grid cells joined, then normalised)."""
    return normalise(_join_grid_tables(text))


@functools.lru_cache(maxsize=128)
def read_page_words(path: Path) -> str | None:
    """:func:`page_words` of the page at ``path``, or ``None`` when it cannot be read."""
    try:
        return page_words(read_input_text(path))
    except (OSError, KitError):
        return None


def stands_in(quote: str, words: str) -> bool:
    """Whether ``quote`` (normalised here) stands in a page's :func:`page_words`."""
    wanted = normalise(quote)
    return bool(wanted) and wanted in words
