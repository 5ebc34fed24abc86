"""A page's own words: the evidence of a rule is a quote of a page under ``spec/sources``
(the page file, where on it, the words), and a quote must stand in its page as the one page
reader, :mod:`modelarts_kit_spec.pagetext`, reads it (wrapped cells joined, markup and table
borders dropped). The schema model, the paging extension and the contract scenarios all cite
and check quotes through this module."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from modelarts_kit_spec.pagetext import read_page_words, stands_in

__all__ = ["Quote", "quote_problem"]


@dataclass(frozen=True)
class Quote:
    """A page's own words for a rule: the file under ``spec/sources``, where on the page
    (``Table 4 JobMetadata, row name``) and the words (a row's cells, or a sentence of its
    description), as :func:`~modelarts_kit_spec.pagetext.page_words` reads them.

    Written in ``x-modelarts-schema-model`` as one string, ``PAGE | LOCATOR | QUOTE``."""

    page: str
    locator: str
    quote: str

    @classmethod
    def parse(cls, text: str) -> Quote:
        page, _, rest = text.partition(" | ")
        locator, _, quote = rest.partition(" | ")
        return cls(page.strip(), locator.strip(), quote.strip())

    def __str__(self) -> str:
        return f"{self.page} | {self.locator} | {self.quote}"

    def as_dict(self) -> dict[str, str]:
        return {"page": self.page, "locator": self.locator, "quote": self.quote}

    def cite(self) -> str:
        return f'page {self.page}, {self.locator}: "{self.quote}"'


def quote_problem(quote: Quote, sources_dir: Path) -> str | None:
    """Why ``quote`` does not stand in its page under ``sources_dir`` (None: it does)."""
    words = read_page_words(sources_dir / quote.page)
    if words is None:
        return f"page {quote.page} is not under spec/sources"
    if not stands_in(quote.quote, words):
        return f"the quote {quote.quote!r} ({quote.locator}) does not stand in page {quote.page}"
    return None
