"""The one exception tree of the vendor-docs package."""

from __future__ import annotations

from modelarts_kit_wire.errors import KitError


class VendorDocsError(KitError):
    """Base of every error this package raises on bad input (CLI exit code 2)."""


class PageError(VendorDocsError):
    """A page that cannot be made sense of; names the file and the line."""

    def __init__(self, source: str, line: int, message: str) -> None:
        super().__init__(f"{source}:{line}: {message}")
        self.source = source
        self.line = line
        self.message = message


class LedgerError(VendorDocsError):
    """A ledger entry the diff cannot use; names the entry and the field."""


class SpecShapeError(VendorDocsError):
    """The spec has a ``$ref`` that does not resolve; names the pointer."""
