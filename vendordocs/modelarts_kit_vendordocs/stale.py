"""Stale evidence: a ledger source recording that a page lacks a field, where the page that
replaced it documents the field.

``docs update`` records a new revision beside the page it replaces. A source of the old page
saying ``(absent)`` stays true of the old page, but the entry then describes the current
pages wrongly ("page X lacks Y" while X's replacement has Y). Each such entry gets a source of
the new page saying what it documents, and the update reports which entries it corrected.
``docs diff`` reports the same entries (:func:`stale_evidence`: the entry, the field, the page
it records and the page replacing it), for the page given alone or with ``--replaces``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from modelarts_kit_spec import LedgerEntry

from modelarts_kit_vendordocs.findings import normalise_field
from modelarts_kit_vendordocs.inventory import Inventory

__all__ = ["StaleEvidence", "stale_evidence", "stale_sources"]


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


@dataclass(frozen=True)
class StaleEvidence:
    """A ledger entry that records ``replaced`` lacking ``field``, which ``page`` (the page that
    replaces it) documents: ``says`` is what ``page`` writes (``field TYPE``, in ``table``)."""

    entry: str
    field: str
    replaced: str
    page: str
    table: str
    says: str

    def to_json(self) -> dict[str, str]:
        return {
            "entry": self.entry,
            "field": self.field,
            "replaced": self.replaced,
            "page": self.page,
            "table": self.table,
            "says": self.says,
        }

    def text(self) -> str:
        return (
            f"{self.entry}: records that {self.replaced} lacks {self.field}; {self.page}, "
            f"which replaces it, documents it ({self.table}: {self.says})"
        )


def stale_evidence(
    entries: Sequence[LedgerEntry], replaced: Iterable[tuple[Inventory, Inventory]]
) -> list[StaleEvidence]:
    """The stale evidence of ``entries`` for each (new page, page it replaces) of a run."""
    by_index = {entry.index: entry for entry in entries}
    out: list[StaleEvidence] = []
    for new, old in replaced:
        seed, was = Path(new.source).name, Path(old.source).name
        additions = stale_sources(entries, replaced=was, seed=seed, page=new)
        for index, sources in sorted(additions.items()):
            entry = by_index[index]
            for source in sources:
                out.append(
                    StaleEvidence(
                        entry.id,
                        normalise_field(entry.field),
                        was,
                        seed,
                        source["table"],
                        source["says"],
                    )
                )
    return out
