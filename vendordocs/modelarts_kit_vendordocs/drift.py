"""Compare page inventories with the spec, then set aside what the ledger already decided.

Per operation (pages and spec operations are matched by method and path template):

* ``presence`` -- a field the pages document that the spec lacks (``direction: docs``), or a
  spec field that no page of the operation mentions (``direction: spec``). Only the topmost
  missing path is reported; its children are implied.
* ``type`` -- the vendor type, mapped through :mod:`modelarts_kit_vendordocs.types`, differs
  from the spec's JSON Schema type (integers also by format, when the spec gives one).
* ``mandatory`` -- the page's Mandatory column disagrees with the spec's ``required``.
* ``enum`` -- the values the description lists differ from the spec's ``enum``.
* ``name`` -- the page calls a nested table X where the spec's ``$ref`` names another schema
  (compared without case, ``_`` and ``-``).
* ``status-code`` -- a status code the pages list that the spec lacks, or the other way round.
* ``example`` -- a JSON example of a page that is not among the spec's examples of that
  operation, side and status (:mod:`modelarts_kit_vendordocs.example_drift`).

A finding is *reconciled* by a ledger entry with the same kind, the same field (array markers
``[]`` ignored), a compatible side (``both`` matches either; path/query parameters are
``request``) and the operation in its ``operations``. A ``name`` entry also reconciles the
presence of a misspelt field it records in ``sources[].says``, and every ``name`` finding on
the schema its ``pointer`` names (one schema, one naming decision); a ``status-code`` entry whose
field is ``(responses)`` covers every status code of its operations, each code on its own.

An entry settles a finding only with its own evidence: a source records what the page it names
(``seed``) said, and a finding is settled only when a source naming the finding's page recorded
what that page says now. A finding no single page makes (a spec field no page mentions, a
status code no page lists) is settled by the evidence of any page of the run. A page given as
the new version of another (``--replaces OLD``) inherits OLD's evidence: what OLD said and the
new page still says stays settled, anything else is reported. Another page saying what one
page once said is a new statement, and is reported.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from modelarts_kit_spec import Spec, load_spec

from modelarts_kit_vendordocs.decisions import Decision, decisions_from_entries, load_decisions
from modelarts_kit_vendordocs.errors import VendorDocsError
from modelarts_kit_vendordocs.example_drift import example_findings
from modelarts_kit_vendordocs.findings import (
    KINDS,
    DriftFinding,
    FindingGroup,
    action,
    group_findings,
    normalise_field,
)
from modelarts_kit_vendordocs.inventory import Inventory
from modelarts_kit_vendordocs.matching import compare_operation, path_key
from modelarts_kit_vendordocs.sources import RecordedPage
from modelarts_kit_vendordocs.stale import StaleEvidence, stale_evidence

__all__ = [
    "KINDS",
    "LAYOUT_KINDS",
    "Decision",
    "DriftFinding",
    "DriftReport",
    "FindingGroup",
    "OperationDrift",
    "action",
    "compare",
    "decisions_from_entries",
    "group_findings",
    "load_decisions",
    "normalise_field",
]


# What a revision may change without changing the API: the names of its tables (no name is
# on the wire) and its examples.
LAYOUT_KINDS = frozenset({"name", "example"})


@dataclass
class OperationDrift:
    operation: str
    method: str
    path: str
    pages: list[str]
    findings: list[DriftFinding] = field(default_factory=list)
    reconciled: list[tuple[DriftFinding, str]] = field(default_factory=list)
    # A revision's renamed tables and changed examples: recorded, never asked (issue 33).
    layout: list[DriftFinding] = field(default_factory=list)


@dataclass
class DriftReport:
    spec: str
    operations: list[OperationDrift]
    unmatched_pages: list[tuple[str, str, str]]  # (page, method, path) with no spec operation
    notes: list[str]  # page facts worth knowing (missing tables, unattached tables)
    # Ledger entries recording that a replaced page lacks a field its replacement documents.
    stale: list[StaleEvidence] = field(default_factory=list)

    @property
    def unreconciled_count(self) -> int:
        return sum(len(op.findings) for op in self.operations) + len(self.unmatched_pages)


def _dropped(
    replaced: Iterable[tuple[Inventory, Inventory]],
) -> dict[tuple[str, int | None, str], tuple[str, int, str]]:
    """What each replacing page no longer lists that the page it replaces did: (old page, its
    line, the new page)."""
    out: dict[tuple[str, int | None, str], tuple[str, int, str]] = {}
    for new, old in replaced:
        kept = {(e.side, e.status, normalise_field(e.path)) for e in new.fields}
        for e in old.fields:
            key = (e.side, e.status, normalise_field(e.path))
            if key not in kept:
                out.setdefault(key, (Path(old.source).name, e.field.line, Path(new.source).name))
    return out


def _replaced_pages(pairs: Iterable[tuple[Inventory, Inventory]]) -> dict[str, tuple[str, ...]]:
    """Per page of the run, the pages whose evidence stands for it: itself and, for a new
    version given with ``--replaces``, the page it replaces."""
    out: dict[str, tuple[str, ...]] = {}
    for new, old in pairs:
        name = Path(new.source).name
        out[name] = (*out.get(name, (name,)), Path(old.source).name)
    return out


def compare(
    inventories: list[Inventory],
    spec_path: Path | Spec | None,
    decisions: list[Decision],
    replaced: Iterable[tuple[Inventory, Inventory]] = (),
) -> DriftReport:
    """Drift between the pages and the spec, minus what ``decisions`` settle.

    ``replaced`` pairs (new page, old page): the new page stands in place of the old one (which
    must not be among ``inventories``), and a field it dropped is reported even when another
    page of the operation still lists it. ``spec_path`` may be a spec already loaded (``docs
    update``'s staged one).
    """
    spec = spec_path if isinstance(spec_path, Spec) else load_spec(spec_path)
    walker = spec.walker
    by_key = {path_key(op.method, op.path): op for op in spec.operations}
    grouped: dict[str, list[Inventory]] = {}
    unmatched: list[tuple[str, str, str]] = []
    notes: list[str] = []
    for inventory in inventories:
        name = Path(inventory.source).name
        for ref in inventory.unresolved:
            notes.append(
                f"{name}:{ref.line}: {ref.table} field {ref.field!r} refers to table "
                f"{ref.target!r}, which the page does not print"
            )
        for table in inventory.unattached:
            notes.append(f"{name}:{table.line}: {table.label} is not referenced by any field")
        for broken in inventory.broken_examples:
            notes.append(
                f"{name}:{broken.line}: the {broken.side} example is {broken.reason}; "
                "not compared with the spec"
            )
        for row in inventory.repeated:
            notes.append(
                f"{name}:{row.line}: {row.table} repeats row {row.field!r} of line "
                f"{row.first_line} word for word; read once"
            )
        operation = by_key.get(path_key(inventory.method, inventory.path))
        if operation is None:
            unmatched.append((name, inventory.method, inventory.path))
            continue
        grouped.setdefault(operation.operation_id, []).append(inventory)
    results: list[OperationDrift] = []
    for operation in spec.operations:
        pages = grouped.get(operation.operation_id)
        if not pages:
            continue
        drift = OperationDrift(
            operation=operation.operation_id,
            method=operation.method.upper(),
            path=operation.path,
            pages=[Path(p.source).name for p in pages],
        )
        pairs = [
            (new, old)
            for new, old in replaced
            if by_key.get(path_key(new.method, new.path)) is operation
        ]
        replaced_by = _replaced_pages(pairs)
        names = [Path(p.source).name for p in pages]
        run_pages = tuple(dict.fromkeys(e for n in names for e in replaced_by.get(n, (n,))))
        found = [
            *compare_operation(walker, operation, pages, _dropped(pairs)),
            *example_findings(spec, operation, pages),
        ]
        for finding in found:
            own = replaced_by.get(finding.page, (finding.page,)) if finding.page else run_pages
            finding = replace(finding, evidence=own)
            decision = next((d for d in decisions if d.settles(finding)), None)
            if decision is not None:
                drift.reconciled.append((finding, decision.id))
                continue
            if finding.kind in LAYOUT_KINDS and len(own) > 1:
                drift.layout.append(finding)  # a revision of a recorded page: no API change
                continue
            about = next((d for d in decisions if d.applies(finding)), None)
            if about is not None:
                finding = replace(finding, reopened=about.id, recorded=about.says)
            drift.findings.append(finding)
        results.append(drift)
    return DriftReport(
        spec=str(spec.path), operations=results, unmatched_pages=unmatched, notes=notes
    )


def diff_pages(
    pages: Sequence[Path],
    *,
    replaces: Path | None = None,
    spec_path: Path | None = None,
    ledger_path: Path | None = None,
    find_replaced: bool = True,
) -> DriftReport:
    """``docs diff``: read the pages, then compare them with the spec minus the ledger.

    With ``replaces``, the first page is the new version of that page: the old page is left
    out of the run (also when a glob brought it in), and a field the new page dropped is
    drift even when another page of the operation still lists it. Without it (and with
    ``find_replaced``), a page the project's sources index does not record is taken as the
    new version of the recorded page it replaces (:mod:`modelarts_kit_vendordocs.predecessor`),
    unless that page is given too: it inherits that page's evidence, as ``docs update`` does.
    """
    from modelarts_kit_vendordocs.extract import extract_page

    if not pages:
        raise VendorDocsError("no page given")
    decisions = load_decisions(ledger_path, spec_path)
    replaced: list[tuple[Inventory, Inventory]] = []
    paths = list(pages)
    if replaces is not None:
        old = extract_page(replaces)
        new_path, old_path = Path(paths[0]), Path(replaces)
        if new_path.resolve() == old_path.resolve():
            raise VendorDocsError(f"--replaces {replaces}: a page cannot replace itself")
        paths = [new_path] + [p for p in paths[1:] if Path(p).resolve() != old_path.resolve()]
        new = extract_page(new_path)
        if path_key(new.method, new.path) != path_key(old.method, old.path):
            raise VendorDocsError(
                f"--replaces {replaces}: documents {old.method} {old.path}, but {new_path} "
                f"documents {new.method} {new.path}; a page replaces a page of the same operation"
            )
        replaced.append((new, old))
        inventories = [new] + [extract_page(p) for p in paths[1:]]
    else:
        inventories = [extract_page(p) for p in paths]
        if find_replaced:
            replaced = _recorded_predecessors(paths, inventories, spec_path)
    report = compare(inventories, spec_path, decisions, replaced)
    report.stale = _stale_evidence(ledger_path, spec_path, replaced)
    return report


def _stale_evidence(
    ledger_path: Path | None, spec_path: Path | None, replaced: list[tuple[Inventory, Inventory]]
) -> list[StaleEvidence]:
    """What the ledger records of the replaced pages that their replacements contradict."""
    from modelarts_kit_spec import ledger_for, read_matchable_ledger

    path = ledger_path or ledger_for(spec_path)
    if not replaced or path is None:
        return []
    return stale_evidence(read_matchable_ledger(path).entries, replaced)


def _recorded_predecessors(
    paths: list[Path], inventories: list[Inventory], spec_path: Path | None
) -> list[tuple[Inventory, Inventory]]:
    """(page, the recorded page it replaces) for every page given: a page not recorded and
    the current page it would replace, a recorded revision and the page it replaced, a page
    with the bytes of a recorded page under another name and that page."""
    from modelarts_kit_spec.load import read_input_bytes

    from modelarts_kit_vendordocs.extract import extract_page
    from modelarts_kit_vendordocs.predecessor import already_recorded, predecessor
    from modelarts_kit_vendordocs.project import project_for
    from modelarts_kit_vendordocs.sources import read_index

    sources = project_for(spec_path).sources
    if not (sources / "index.yaml").is_file():
        return []
    index = read_index(sources)
    spec = load_spec(spec_path)
    given = {Path(p).resolve() for p in paths}
    titles: dict[str, str] = {}

    def title(page: RecordedPage) -> str:
        if page.name not in titles:
            titles[page.name] = extract_page(sources / page.file).title
        return titles[page.name]

    out: list[tuple[Inventory, Inventory]] = []
    for path, inventory in zip(paths, inventories, strict=True):
        data = read_input_bytes(path)
        match = spec.match(inventory.method, inventory.path)
        if match is None or match.operation is None:
            continue
        recorded = already_recorded(index, data)
        if recorded is None:
            found = predecessor(
                index,
                match.operation.operation_id,
                data.decode("utf-8", "replace"),
                inventory.format,
                title,
                inventory.title,
            )
        elif (sources / recorded.file).resolve() != Path(path).resolve():
            found = recorded  # a recorded page under another name: the record's evidence
        else:
            # A recorded revision inherits the evidence of the page it replaced.
            found = index.by_name(recorded.replaces) if recorded.replaces else None
        if found is not None and (sources / found.file).resolve() not in given:
            out.append((inventory, extract_page(sources / found.file)))
    return out
