"""Read a vendor page from disk and build its field inventory."""

from __future__ import annotations

from pathlib import Path

from modelarts_kit_vendordocs.errors import PageError
from modelarts_kit_vendordocs.formats import read_page_text
from modelarts_kit_vendordocs.inventory import Inventory, build_inventory

__all__ = ["extract_page", "extract_text"]


def _decode(source: str, data: bytes) -> str:
    if b"\x00" in data:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise PageError(source, line, "binary content (NUL byte): not a text page")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise PageError(source, line, f"not UTF-8 text (byte 0x{data[exc.start]:02x})") from exc
    if not text.strip():
        raise PageError(source, 1, "empty page")
    return text


def extract_text(source: str, text: str, page_format: str | None = None) -> Inventory:
    """The inventory of a page given as text (``source`` names it in errors)."""
    if not text.strip():
        raise PageError(source, 1, "empty page")
    return build_inventory(read_page_text(source, text, page_format))


def extract_page(path: Path | str, page_format: str | None = None) -> Inventory:
    """The inventory of the page stored at ``path``."""
    source = str(path)
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise PageError(source, 0, f"cannot read: {exc.strerror}") from exc
    return extract_text(source, _decode(source, data), page_format)
