"""Read a vendor page from disk and build its field inventory."""

from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path

from modelarts_kit_spec.load import InputError, decode_text, read_input_bytes
from modelarts_kit_wire.recent import Recent

from modelarts_kit_vendordocs.errors import PageError
from modelarts_kit_vendordocs.examples import page_examples
from modelarts_kit_vendordocs.formats import read_page_text
from modelarts_kit_vendordocs.inventory import Inventory, build_inventory

__all__ = ["extract_page", "extract_text", "page_text", "read_page"]


def read_page(path: Path | str) -> str:
    """The text of a page, through the kit's one reader (size cap, strict UTF-8)."""
    try:
        data = read_input_bytes(path)
    except InputError as exc:
        raise PageError(str(path), exc.line, exc.rule) from exc
    return page_text(data, str(path))


def page_text(data: bytes, source: str) -> str:
    """The text of a page read as ``data`` (strict UTF-8, not empty)."""
    try:
        text = decode_text(data, source)
    except InputError as exc:
        raise PageError(source, exc.line, exc.rule) from exc
    if not text.strip():
        raise PageError(source, 1, "empty page")
    return text


# The inventories built last, by the page's text and format (an inventory depends on nothing
# else but the ``source`` it is named by, set on each copy): the recorded pages every run of
# `docs update` or `docs diff` in one process reads again cost a copy, not a parse.
CACHED_PAGES = 64
_BUILT: Recent[tuple[str, str | None], Inventory] = Recent(CACHED_PAGES)


def extract_text(source: str, text: str, page_format: str | None = None) -> Inventory:
    """The inventory of a page given as text (``source`` names it in errors)."""
    if not text.strip():
        raise PageError(source, 1, "empty page")
    key = (text, page_format)
    built = _BUILT.get(key)
    if built is None:
        inventory = build_inventory(read_page_text(source, text, page_format))
        examples, broken = page_examples(text)
        built = replace(inventory, examples=examples, broken_examples=broken)
        _BUILT.put(key, built)
    return replace(copy.deepcopy(built), source=source)


def extract_page(path: Path | str, page_format: str | None = None) -> Inventory:
    """The inventory of the page stored at ``path``."""
    return extract_text(str(path), read_page(path), page_format)
