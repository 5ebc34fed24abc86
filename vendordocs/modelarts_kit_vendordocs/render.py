"""``docs diff`` output: a text report for people, JSON for machines."""

from __future__ import annotations

import json

from modelarts_kit_vendordocs.drift import DriftReport, Finding

__all__ = ["render_json", "render_text"]


def _where(finding: Finding) -> str:
    side = finding.side if finding.status is None else f"{finding.side} {finding.status}"
    return f"{finding.kind:<11} {side:<12} {finding.field}"


def _detail(finding: Finding) -> str:
    source = f"{finding.page}:{finding.line}" if finding.page else "spec"
    if finding.kind == "presence" and finding.direction == "docs":
        return f"documented ({source}: {finding.docs}), not in the spec"
    if finding.kind == "presence":
        return f"in the spec ({finding.spec}, {finding.pointer}), no page mentions it"
    if finding.kind == "status-code" and finding.direction == "docs":
        return f"listed by {source}, not in the spec"
    if finding.kind == "status-code":
        return f"in the spec ({finding.pointer}), no page lists it"
    return f"docs {finding.docs!s} ({source}) vs spec {finding.spec} ({finding.pointer})"


def render_text(report: DriftReport) -> str:
    lines: list[str] = [f"spec: {report.spec}"]
    for page, method, path in report.unmatched_pages:
        lines.append(f"UNMATCHED  {page}: {method} {path} is not an operation of the spec")
    for op in report.operations:
        lines.append("")
        lines.append(f"{op.operation}  {op.method} {op.path}  (pages: {', '.join(op.pages)})")
        lines.append(f"  unreconciled: {len(op.findings)}")
        lines.extend(f"    {_where(f)}  {_detail(f)}" for f in op.findings)
        lines.append(f"  reconciled by the ledger: {len(op.reconciled)}")
        lines.extend(f"    {_where(f)}  [{entry}]" for f, entry in op.reconciled)
    if report.notes:
        lines.append("")
        lines.append("page notes (facts about the pages, not drift):")
        lines.extend(f"  {note}" for note in report.notes)
    lines.append("")
    total = report.unreconciled_count
    reconciled = sum(len(op.reconciled) for op in report.operations)
    verdict = "no unreconciled drift" if total == 0 else f"{total} unreconciled finding(s)"
    lines.append(f"{verdict}; {reconciled} reconciled by the ledger")
    return "\n".join(lines)


def render_json(report: DriftReport) -> str:
    document = {
        "spec": report.spec,
        "unreconciled": report.unreconciled_count,
        "unmatched_pages": [
            {"page": page, "method": method, "path": path}
            for page, method, path in report.unmatched_pages
        ],
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
    }
    return json.dumps(document, indent=2, ensure_ascii=False)
