"""Vendor documentation pages: parse them into field inventories and diff them with the spec.

``extract_page`` reads one page (web-page text, reStructuredText or pipe tables) into an
:class:`Inventory`; ``compare`` reports drift between inventories and the curated spec, minus
what the ledger already decided. The diff side (and the spec loader it needs) is imported on
first use, so ``docs extract`` starts fast.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from modelarts_kit_vendordocs.errors import LedgerError, PageError, VendorDocsError
from modelarts_kit_vendordocs.extract import extract_page, extract_text
from modelarts_kit_vendordocs.inventory import Inventory

if TYPE_CHECKING:
    from modelarts_kit_vendordocs.drift import DriftReport, Finding, compare, load_decisions

__all__ = [
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

_LAZY = {"DriftReport", "Finding", "compare", "load_decisions"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module("modelarts_kit_vendordocs.drift"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
