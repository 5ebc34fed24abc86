"""One reader per page layout; each returns the same :class:`RawPage` model."""

from __future__ import annotations

import re
from collections.abc import Callable

from modelarts_kit_vendordocs.formats.pipe import SEPARATOR_RE, read_pipe
from modelarts_kit_vendordocs.formats.rst import read_rst
from modelarts_kit_vendordocs.formats.webtext import read_webtext
from modelarts_kit_vendordocs.model import RawPage

__all__ = ["READERS", "detect_format", "read_page_text"]

Reader = Callable[[str, str], RawPage]

READERS: dict[str, Reader] = {"webtext": read_webtext, "rst": read_rst, "pipe": read_pipe}

_RST_RE = re.compile(r"^\s*(?:\.\. table::|\+[-=]+\+)", re.MULTILINE)


def detect_format(text: str) -> str:
    """The layout of a page: reStructuredText, pipe tables, or web-page text."""
    if _RST_RE.search(text):
        return "rst"
    if any(SEPARATOR_RE.match(line) for line in text.splitlines()):
        return "pipe"
    return "webtext"


def read_page_text(source: str, text: str, page_format: str | None = None) -> RawPage:
    return READERS[page_format or detect_format(text)](source, text)
