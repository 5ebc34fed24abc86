"""A page's own words: the evidence of a rule is a quote of a page under ``spec/sources``
(the page file, where on it, the words), and a quote must stand in its page as a reader reads
it: emphasis markup dropped, table borders and the blanks of a wrapped cell flattened."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from modelarts_kit_wire.errors import KitError

from modelarts_kit_spec.reader import read_input_text

__all__ = ["Quote", "quote_problem"]


@dataclass(frozen=True)
class Quote:
    """A page's own words: the file under ``spec/sources``, where on it, and the words."""

    page: str
    locator: str
    quote: str

    def cite(self) -> str:
        return f'page {self.page}, {self.locator}: "{self.quote}"'


@functools.lru_cache(maxsize=32)
def _page_words(path: Path) -> str | None:
    """The page's text as a reader reads it, or None when it cannot be read."""
    try:
        text = read_input_text(path)
    except (OSError, KitError):
        return None
    return _words(text.replace("**", "").replace("|", " "))


def _words(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def quote_problem(quote: Quote, sources_dir: Path) -> str | None:
    """Why ``quote`` does not stand in its page under ``sources_dir`` (None: it does)."""
    words = _page_words(sources_dir / quote.page)
    if words is None:
        return f"page {quote.page} is not under spec/sources"
    if _words(quote.quote.replace("**", "")) not in words:
        return f"the quote {quote.quote!r} ({quote.locator}) does not stand in page {quote.page}"
    return None
