"""Stale evidence: a ledger source recording that a page lacks a field, where the page that
replaced it documents the field.

``docs update`` records a new revision beside the page it replaces. A source of the old page
saying ``(absent)`` stays true of the old page, but the entry then describes the current
pages wrongly ("page X lacks Y" while X's replacement has Y). Each such entry gets a source of
the new page saying what it documents, and the update reports which entries it corrected.
"""

from __future__ import annotations

from collections.abc import Iterable

from modelarts_kit_spec import LedgerEntry

from modelarts_kit_vendordocs.findings import normalise_field
from modelarts_kit_vendordocs.inventory import Inventory

__all__ = ["stale_sources"]


def _side(side: str) -> str:
    return "response" if side == "response" else "request"


def stale_sources(
    entries: Iterable[LedgerEntry], *, replaced: str, seed: str, page: Inventory
) -> dict[int, list[dict[str, str]]]:
    """Per ledger entry index, the source of ``seed`` (the new page, read as ``page``) to add
    to each presence entry whose source of ``replaced`` says the field is absent while the new
    page documents it, and that has no source of ``seed`` yet."""
    documented: dict[tuple[str, str], tuple[str, str]] = {}
    for row in page.fields:
        key = (_side(row.side), normalise_field(row.path))
        documented.setdefault(key, (row.table.label, row.field.type))
    out: dict[int, list[dict[str, str]]] = {}
    for entry in entries:
        if entry.kind != "presence" or entry.todo:
            continue
        sources = entry.settling("page")
        if any(s.seed == seed for s in sources):
            continue
        absent = [s for s in sources if s.seed == replaced and (s.says or "").startswith("(absent")]
        if not absent:
            continue
        sides = ("request", "response") if entry.side == "both" else (_side(entry.side),)
        field = normalise_field(entry.field)
        found = next((documented[(s, field)] for s in sides if (s, field) in documented), None)
        if found is not None:
            table, written = found
            out[entry.index] = [{"seed": seed, "table": table, "says": f"{field} {written}"}]
    return out
