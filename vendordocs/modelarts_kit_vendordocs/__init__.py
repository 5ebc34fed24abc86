"""Vendor documentation pages: parse them into field inventories and diff them with the spec.

``extract_page`` reads one page (web-page text, reStructuredText or pipe tables) into an
:class:`Inventory`; ``compare`` reports drift between inventories and the curated spec, minus
what the ledger already decided. The diff side (and the spec loader it needs) is imported on
first use, so ``docs extract`` starts fast; so is the page parser, so that a reader of the
recorded sources alone (a contract run citing its pages) does not import it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from modelarts_kit_vendordocs.errors import LedgerError, PageError, VendorDocsError

if TYPE_CHECKING:
    from modelarts_kit_vendordocs.drift import DriftFinding, DriftReport, compare, load_decisions
    from modelarts_kit_vendordocs.extract import extract_page, extract_text
    from modelarts_kit_vendordocs.inventory import Inventory

    Finding = DriftFinding

__all__ = [
    "DriftFinding",
    "DriftReport",
    "Finding",
    "Inventory",
    "LedgerError",
    "PageError",
    "VendorDocsError",
    "compare",
    "extract_page",
    "extract_text",
    "load_decisions",
]

_LAZY = {"DriftFinding", "DriftReport", "compare", "load_decisions"}
# The drift finding's name before DriftFinding (issue 27: one name, one thing).
_FORMER_NAMES = {"Finding": "DriftFinding"}


# Imported on first use too: the page parser.
_PARSER = {
    "extract_page": "modelarts_kit_vendordocs.extract",
    "extract_text": "modelarts_kit_vendordocs.extract",
    "Inventory": "modelarts_kit_vendordocs.inventory",
}


def __getattr__(name: str) -> Any:
    if name in _PARSER:
        return getattr(importlib.import_module(_PARSER[name]), name)
    if name in _LAZY or name in _FORMER_NAMES:
        drift = importlib.import_module("modelarts_kit_vendordocs.drift")
        return getattr(drift, _FORMER_NAMES.get(name, name))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
