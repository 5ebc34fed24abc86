"""Vendor documentation pages: parse them into field inventories and diff them with the spec.

``extract_page`` reads one page (web-page text, reStructuredText or pipe tables) into an
:class:`Inventory`; ``compare`` reports drift between inventories and the curated spec, minus
what the ledger already decided.
"""

from modelarts_kit_vendordocs.drift import DriftReport, Finding, compare, load_decisions
from modelarts_kit_vendordocs.errors import LedgerError, PageError, VendorDocsError
from modelarts_kit_vendordocs.extract import extract_page, extract_text
from modelarts_kit_vendordocs.inventory import Inventory

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
