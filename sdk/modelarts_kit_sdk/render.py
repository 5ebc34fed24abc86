"""``sdk diff`` and ``sdk compare`` output: text for people, JSON for machines."""

from __future__ import annotations

import json

from modelarts_kit_sdk.compare import CompareReport, FieldChange
from modelarts_kit_sdk.diff import SdkDiffReport, SdkFinding

__all__ = ["render_compare_json", "render_compare_text", "render_json", "render_text"]


def _sides(finding: SdkFinding) -> str:
    sides = finding.sides
    return "both" if len(sides) > 1 else next(iter(sides))


def _evidence(finding: SdkFinding) -> list[str]:
    """One line per distinct (path, SDK attribute, types), with the operations it shows in."""
    rows: dict[tuple[str, str, str, str], list[str]] = {}
    for o in finding.occurrences:
        sdk = f"{o.model}.{o.attribute}: {o.says}"
        rows.setdefault((o.path, sdk, o.spec, o.pointer), []).append(o.operation)
    return [
        f"{path}  (SDK {sdk}; spec {spec} at {pointer}; {', '.join(ops)})"
        for (path, sdk, spec, pointer), ops in rows.items()
    ]


def _headline(finding: SdkFinding) -> str:
    flag = "  INTEGER vs STRING" if finding.integer_vs_string else ""
    return f"{finding.kind:<9} {_sides(finding):<8} {finding.field}{flag}"


def render_text(report: SdkDiffReport) -> str:
    lines = [
        f"sdk: {report.sdk} ({report.origin})",
        f"spec: {report.spec} ({report.fields_compared} fields compared)",
    ]
    lines.extend(f"{m.operation}: {m.note}" for m in report.without_models)
    for group in report.schemas:
        lines.append("")
        lines.append(group.schema)
        lines.append(f"  unreconciled: {len(group.findings)}")
        for finding in group.findings:
            lines.append(f"    {_headline(finding)}")
            lines.extend(f"      at {row}" for row in _evidence(finding))
            lines.append(f"      action: {finding.action}")
        lines.append(f"  reconciled by the ledger: {len(group.reconciled)}")
        lines.extend(f"    {_headline(f)}  [{', '.join(ids)}]" for f, ids in group.reconciled)
    lines.append("")
    total = report.unreconciled_count
    verdict = "no unreconciled drift" if total == 0 else f"{total} unreconciled finding(s)"
    lines.append(f"{verdict}; {report.reconciled_count} reconciled by the ledger")
    return "\n".join(lines)


def render_json(report: SdkDiffReport) -> str:
    document = {
        "sdk": report.sdk,
        "sdk_version": report.sdk_version,
        "origin": report.origin,
        "spec": report.spec,
        "fields_compared": report.fields_compared,
        "unreconciled": report.unreconciled_count,
        "reconciled": report.reconciled_count,
        "operations_without_models": [
            {"operation": m.operation, "models": list(m.models)} for m in report.without_models
        ],
        "schemas": [
            {
                "schema": group.schema,
                "findings": [f.to_json() for f in group.findings],
                "reconciled": [{**f.to_json(), "ledger": list(ids)} for f, ids in group.reconciled],
            }
            for group in report.schemas
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False)


def _nested(change: FieldChange) -> str:
    return f" with {change.nested} nested field(s)" if change.nested else ""


def render_compare_text(report: CompareReport) -> str:
    lines = [f"old: {report.old} ({report.old_origin})", f"new: {report.new} ({report.new_origin})"]
    for op in report.operations:
        lines.append("")
        if not (op.old_models or op.new_models):
            lines.append(f"{op.operation}: no SDK model in either release; not compared")
            continue
        lines.append(
            f"{op.operation}: {op.old_fields} -> {op.new_fields} fields; "
            f"{len(op.added)} added, {len(op.removed)} removed, {len(op.changed)} type changed"
        )
        lines.extend(f"  + {c.side:<9} {c.path}  ({c.new_sdk}){_nested(c)}" for c in op.added)
        lines.extend(f"  - {c.side:<9} {c.path}  ({c.old_sdk}){_nested(c)}" for c in op.removed)
        lines.extend(f"  ~ {c.side:<9} {c.path}  ({c.old_sdk} -> {c.new_sdk})" for c in op.changed)
    lines.append("")
    total = report.change_count
    lines.append("no changes in the operations' models" if total == 0 else f"{total} change(s)")
    return "\n".join(lines)


def render_compare_json(report: CompareReport) -> str:
    document = {
        "old": report.old,
        "old_origin": report.old_origin,
        "new": report.new,
        "new_origin": report.new_origin,
        "changes": report.change_count,
        "operations": [
            {
                "operation": op.operation,
                "old_fields": op.old_fields,
                "new_fields": op.new_fields,
                "old_models": op.old_models,
                "new_models": op.new_models,
                "added": [c.to_json() for c in op.added],
                "removed": [c.to_json() for c in op.removed],
                "changed": [c.to_json() for c in op.changed],
            }
            for op in report.operations
        ],
    }
    return json.dumps(document, indent=2, ensure_ascii=False)
