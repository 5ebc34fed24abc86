"""Paging through a listing: the offset and limit of each page, and when the pages are over.
Nothing here does I/O: the clients' ``iter_*`` methods send the requests."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pydantic

from ._http import UncheckedBody
from .errors import PagingError

__all__ = ["DEFAULT_MAX_PAGES", "PagePlan", "page_body"]

# The most pages one iteration asks for: a server whose pages never end (a page always full,
# a total never reached) ends the iteration with ``PagingError`` instead of looping forever.
DEFAULT_MAX_PAGES = 10_000


class PagePlan:
    """The pages of one listing: the ``offset`` and ``limit`` of the next page to ask for,
    and when the listing is over.

    ``offset_counts`` says what the API's offset counts: ``"items"`` (the position of the
    page's first item) or ``"pages"`` (the index of the page, 0 first). The listing is over
    when a page comes back shorter than asked (or empty), or once the answer's ``total``
    items were seen. At most ``max_pages`` pages are asked for.
    """

    def __init__(
        self, operation: str, page_size: int, max_pages: int, *, offset_counts: str
    ) -> None:
        if isinstance(page_size, bool) or not isinstance(page_size, int) or page_size < 1:
            raise ValueError(f"page_size must be a positive integer, got {page_size!r}")
        if isinstance(max_pages, bool) or not isinstance(max_pages, int) or max_pages < 1:
            raise ValueError(f"max_pages must be a positive integer, got {max_pages!r}")
        if offset_counts not in ("items", "pages"):
            raise ValueError(f"offset_counts must be 'items' or 'pages', got {offset_counts!r}")
        self.operation = operation
        self.limit = page_size
        self.max_pages = max_pages
        self._by_page = offset_counts == "pages"
        self.offset = 0
        self.pages = 0
        self.seen = 0

    def after(self, count: int, total: object) -> bool:
        """Record a page of ``count`` items (``total``: the answer's total, if it has one);
        True when the next page is to be asked for (``offset`` then names it).

        Raises ``PagingError`` when the listing goes on past ``max_pages`` pages."""
        self.pages += 1
        self.seen += count
        expected = _whole_number(total)
        if count < self.limit or (expected is not None and self.seen >= expected):
            return False
        if self.pages >= self.max_pages:
            raise PagingError(self.operation, self.max_pages, self.seen)
        self.offset += 1 if self._by_page else count
        return True


def _whole_number(value: object) -> int | None:
    """A total as the answer gives it (some pages document it as a string), or None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return None


def page_body(body: Any, offset_field: str, offset: int, limit_field: str, limit: int) -> Any:
    """The request body of one page: ``body`` (a model, a mapping, an ``UncheckedBody`` or
    None) with the page's offset and limit, which replace any the body has."""
    page = {offset_field: offset, limit_field: limit}
    if isinstance(body, UncheckedBody):
        document = body.document
        if isinstance(document, pydantic.BaseModel):
            document = document.model_dump(mode="json", by_alias=True, exclude_unset=True)
        if not isinstance(document, Mapping):
            raise TypeError("a paged body must be a JSON object")
        return UncheckedBody({**document, **page})
    if isinstance(body, pydantic.BaseModel):
        given: Mapping[str, Any] = body.model_dump(by_alias=True, exclude_unset=True)
    elif body is None:
        given = {}
    elif isinstance(body, Mapping):
        given = body
    else:
        raise TypeError(f"a paged body must be a model or a mapping, got {type(body).__name__}")
    return {**given, **page}
