"""The recorded page a new page replaces, found from ``spec/sources/index.yaml``.

``docs diff NEW`` and ``docs update NEW`` both ask it: a page that is not recorded yet (by its
bytes) replaces the current recorded revision of its operation, the one in the same language
and format if there is one (of those, the one with the same title), else the same language,
else any current revision of that operation. A recorded page replaces nothing: its own
evidence is in the ledger.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from modelarts_kit_spec.load import read_input_bytes

from modelarts_kit_vendordocs.sources import RecordedPage, SourceIndex, language_of

__all__ = ["already_recorded", "predecessor"]


def already_recorded(
    index: SourceIndex,
    data: bytes,
    path_of: Callable[[RecordedPage], Path] | None = None,
    read: Callable[[Path], bytes] = read_input_bytes,
) -> RecordedPage | None:
    """The recorded page with these very bytes (a page recorded before, under any name);
    ``read`` reads a page (``docs update``: through its staged project, once per page)."""
    where = path_of or (lambda page: index.folder / page.file)
    for recorded in index.pages:
        path = where(recorded)
        if path.is_file() and read(path) == data:
            return recorded
    return None


def predecessor(
    index: SourceIndex,
    operation: str,
    text: str,
    page_format: str,
    title: Callable[[RecordedPage], str] | None = None,
    page_title: str = "",
) -> RecordedPage | None:
    """The current recorded page of ``operation`` that a new page (its ``text`` and format)
    replaces; ``title`` reads a recorded page's title, to tell pages of one language and
    format apart by the new page's title."""
    current = index.current(operation)
    language = language_of(text)
    same = [p for p in current if p.language == language and p.format == page_format]
    if len(same) > 1 and title is not None and page_title:
        titled = [p for p in same if title(p) == page_title]
        same = titled or same
    for found in (same, [p for p in current if p.language == language], current):
        if found:
            return found[-1]
    return None
