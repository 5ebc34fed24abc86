"""``docs diff`` output: a text report for people, JSON for machines.

Unreconciled findings come first, grouped by the spec schema they touch: one group per
change, listing every operation and path that reaches the schema, with the action to take.
Reconciled findings are a count unless asked for.
"""

from __future__ import annotations

import json
from typing import Any

from modelarts_kit_vendordocs.drift import DriftFinding, DriftReport, FindingGroup, group_findings

__all__ = ["render_json", "render_text"]


def _where(finding: DriftFinding) -> str:
    side = finding.side if finding.status is None else f"{finding.side} {finding.status}"
    return f"{finding.operation} {side} {finding.field}"


def _evidence(finding: DriftFinding) -> str:
    source = finding.page or "spec"
    if finding.page and finding.line is not None:
        source = f"{finding.page}:{finding.line}"
    if finding.kind == "presence" and finding.direction == "docs":
        text = f"documented ({source}: {finding.docs}), not in the spec"
    elif finding.kind == "presence":
        text = f"in the spec ({finding.spec}), {finding.docs}"
    elif finding.kind == "status-code" and finding.direction == "docs":
        text = f"listed by {source}, not in the spec"
    elif finding.kind == "status-code":
        text = "in the spec, no page lists it"
    else:
        text = f"docs {finding.docs} ({source}) vs spec {finding.spec}"
    if finding.reopened is not None:
        recorded = "; ".join(finding.recorded) or "nothing"
        text += f"; REOPENS ledger entry {finding.reopened}, which recorded: {recorded}"
    return text


def _group_lines(group: FindingGroup) -> list[str]:
    lines = [f"  - {group.action}"]
    lines.extend(f"      {_where(f)}: {_evidence(f)}" for f in group.findings)
    return lines


def render_text(report: DriftReport, *, show_reconciled: bool = False) -> str:
    lines: list[str] = [f"spec: {report.spec}"]
    for page, method, path in report.unmatched_pages:
        lines.append(f"UNMATCHED  {page}: {method} {path} is not an operation of the spec")
    findings = [f for op in report.operations for f in op.findings]
    groups = group_findings(findings)
    if groups:
        lines.append("")
        lines.append(
            f"unreconciled: {len(findings)} finding(s), {len(groups)} change(s), by schema"
        )
    schema = None
    for group in groups:
        if group.schema != schema:
            schema = group.schema
            lines.append("")
            lines.append(schema)
        lines.extend(_group_lines(group))
    reconciled = [(f, entry) for op in report.operations for f, entry in op.reconciled]
    lines.append("")
    pages = "; ".join(f"{op.operation}: {', '.join(op.pages)}" for op in report.operations)
    lines.append(f"pages per operation: {pages or 'none'}")
    if show_reconciled:
        lines.append(f"reconciled by the ledger: {len(reconciled)}")
        lines.extend(f"  {f.kind:<11} {_where(f)}  [{entry}]" for f, entry in reconciled)
    else:
        lines.append(f"reconciled by the ledger: {len(reconciled)} (--show-reconciled lists them)")
    layout = [f for op in report.operations for f in op.layout]
    if layout:
        lines.append(
            f"recorded without asking: {len(layout)} (renamed tables and changed examples of "
            "revisions: no API change)"
        )
    if report.stale:
        lines.append("")
        lines.append(
            f"stale evidence: {len(report.stale)} ledger entry(ies) record a replaced page "
            "without a field the page replacing it documents (docs update cites the new page):"
        )
        lines.extend(f"  {stale.text()}" for stale in report.stale)
    if report.notes:
        lines.append("")
        lines.append("page notes (facts about the pages, not drift):")
        lines.extend(f"  {note}" for note in report.notes)
    lines.append("")
    total = report.unreconciled_count
    verdict = "no unreconciled drift" if total == 0 else f"{total} unreconciled finding(s)"
    lines.append(f"{verdict}; {len(reconciled)} reconciled by the ledger")
    return "\n".join(lines)


def _group_json(group: FindingGroup) -> dict[str, Any]:
    return {
        "schema": group.schema,
        "action": group.action,
        "paths": list(group.paths),
        "findings": [f.to_json() for f in group.findings],
    }


def render_json(report: DriftReport) -> str:
    findings = [f for op in report.operations for f in op.findings]
    document = {
        "spec": report.spec,
        "unreconciled": report.unreconciled_count,
        "reconciled": sum(len(op.reconciled) for op in report.operations),
        "unmatched_pages": [
            {"page": page, "method": method, "path": path}
            for page, method, path in report.unmatched_pages
        ],
        "changes": [_group_json(g) for g in group_findings(findings)],
        "operations": [
            {
                "operation": op.operation,
                "method": op.method,
                "path": op.path,
                "pages": op.pages,
                "findings": [f.to_json() for f in op.findings],
                "reconciled": [{**f.to_json(), "ledger": entry} for f, entry in op.reconciled],
            }
            for op in report.operations
        ],
        "notes": report.notes,
        "stale_evidence": [stale.to_json() for stale in report.stale],
    }
    return json.dumps(document, indent=2, ensure_ascii=False)
