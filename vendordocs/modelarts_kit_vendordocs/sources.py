"""``spec/sources/index.yaml``: which recorded page documents which operation, as data.

The README beside it is the human view; this index is what ``docs update`` reads to match a
new page to the recorded source it replaces, and what it extends when it records the page.
It is read through the one YAML reader and written through the one emitter.

Each entry: ``file`` (relative to ``spec/sources/``), ``operation`` (an ``operationId``, or
null for the reference pages every operation shares), ``language`` (``en``/``zh``),
``format`` (``webtext``/``rst``/``pipe``), ``revision`` (as the vendor dates it), and for a
page recorded as a later revision of another, ``replaces`` (that page's file). Ledger entries
cite a page by its bare file name, so bare names are unique across the folders.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath
from typing import Any

from modelarts_kit_spec.emit import dump_yaml
from modelarts_kit_spec.load import parse_yaml_text, read_input_text

from modelarts_kit_vendordocs.errors import VendorDocsError

__all__ = [
    "HEADER",
    "RecordedPage",
    "SourceIndex",
    "SourcesError",
    "language_of",
    "read_index",
    "revision_of",
]

HEADER = (
    "# The recorded vendor pages as data (README.md beside this file is the human view).\n"
    "# Written by `modelarts-kit docs update`; edit with care: file, operation, language,\n"
    "# format, revision, and replaces (the page a later revision replaces).\n"
)
_KEYS = ("file", "operation", "language", "format", "revision", "replaces")


class SourcesError(VendorDocsError):
    """The sources index cannot be read, or a page cannot be recorded in it."""


_UPDATED = re.compile(r"(?:Updated on|更新时间)\s*[:\uff1a]?\s*(\d{4}-\d{2}-\d{2})", re.IGNORECASE)


def revision_of(text: str) -> str:
    """The revision a page states (``Updated on 2025-03-14``, ``更新时间:2022-04-08``)."""
    found = _UPDATED.search(text)
    return f"updated {found.group(1)}" if found else "undated"


def language_of(text: str) -> str:
    """``zh`` for a page written mostly in Chinese (its headings and cells), else ``en``."""
    han = sum(1 for c in text if "\u4e00" <= c <= "\u9fff")
    letters = sum(1 for c in text if c.isascii() and c.isalpha())
    return "zh" if han * 4 > letters else "en"


@dataclass(frozen=True)
class RecordedPage:
    file: str  # relative to spec/sources/, posix
    operation: str | None
    language: str
    format: str
    revision: str
    replaces: str | None = None

    @property
    def name(self) -> str:
        """The bare file name a ledger entry cites."""
        return PurePosixPath(self.file).name

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {key: getattr(self, key) for key in _KEYS}
        if out["replaces"] is None:
            del out["replaces"]
        return out


def _entry(raw: Any, index: int, source: str) -> RecordedPage:
    if not isinstance(raw, Mapping):
        raise SourcesError(f"{source}: /pages/{index}: must be a mapping with {', '.join(_KEYS)}")
    for key in ("file", "language", "format", "revision"):
        if not isinstance(raw.get(key), str) or not raw[key]:
            raise SourcesError(f"{source}: /pages/{index}/{key}: must be a non-empty string")
    for key in ("operation", "replaces"):
        if raw.get(key) is not None and not isinstance(raw[key], str):
            raise SourcesError(f"{source}: /pages/{index}/{key}: must be a string or null")
    unknown = sorted(set(raw) - set(_KEYS))
    if unknown:
        raise SourcesError(f"{source}: /pages/{index}: unknown key {unknown[0]!r}")
    return RecordedPage(
        file=raw["file"],
        operation=raw.get("operation"),
        language=raw["language"],
        format=raw["format"],
        revision=raw["revision"],
        replaces=raw.get("replaces"),
    )


@dataclass(frozen=True)
class SourceIndex:
    folder: Path  # spec/sources/
    pages: tuple[RecordedPage, ...]

    @property
    def path(self) -> Path:
        return self.folder / "index.yaml"

    def current(self, operation: str) -> list[RecordedPage]:
        """The pages of ``operation`` no later recorded revision replaces."""
        replaced = {p.replaces for p in self.pages if p.replaces}
        return [p for p in self.pages if p.operation == operation and p.name not in replaced]

    def by_name(self, name: str) -> RecordedPage | None:
        return next((p for p in self.pages if p.name == name), None)

    def with_page(self, page: RecordedPage) -> SourceIndex:
        if self.by_name(page.name) is not None:
            raise SourcesError(
                f"{self.path}: a page named {page.name} is already recorded (rule: ledger "
                "entries cite pages by bare file name, so names are unique across folders)"
            )
        return replace(self, pages=(*self.pages, page))

    def text(self) -> str:
        return HEADER + dump_yaml({"pages": [p.to_json() for p in self.pages]}, flow=False)


def read_index(folder: Path) -> SourceIndex:
    path = folder / "index.yaml"
    if not path.is_file():
        raise SourcesError(
            f"{path}: no index of the recorded pages (rule: docs update matches a new page to "
            "the recorded source of its operation through spec/sources/index.yaml)"
        )
    document = parse_yaml_text(read_input_text(path), str(path))
    pages = document.get("pages") if isinstance(document, Mapping) else None
    if not isinstance(pages, list):
        raise SourcesError(f"{path}: /pages: must be a list of recorded pages")
    return SourceIndex(folder, tuple(_entry(raw, i, str(path)) for i, raw in enumerate(pages)))
