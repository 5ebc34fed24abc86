"""The reports of ``spec diff``: JSON and Markdown."""

from __future__ import annotations

import json
from dataclasses import asdict

from modelarts_kit_spec.diff.model import Change, SpecSource, as_mapping
from modelarts_kit_spec.document import JSON

__all__ = ["render_json", "render_markdown", "render_markdown_sections"]


def render_json(changes: list[Change], old: SpecSource, new: SpecSource) -> str:
    payload = {
        "old": {"source": old.label, "version": _version(old.document)},
        "new": {"source": new.label, "version": _version(new.document)},
        "summary": {
            "changes": len(changes),
            "breaks_clients": sum(c.breaks_clients for c in changes),
            "breaks_servers": sum(c.breaks_servers for c in changes),
        },
        "changes": [asdict(c) for c in changes],
    }
    return json.dumps(payload, indent=2, ensure_ascii=False) + "\n"


def _version(document: JSON) -> str:
    return str(as_mapping(as_mapping(document).get("info")).get("version", ""))


def _md_line(change: Change) -> str:
    parties = [
        p
        for p, hit in (("clients", change.breaks_clients), ("servers", change.breaks_servers))
        if hit
    ]
    breaks = f" — **breaks {' and '.join(parties)}**" if parties else ""
    operations = change.operations or (change.operation,)
    where = f" ({change.endpoint})" if change.endpoint and len(operations) == 1 else ""
    names = ", ".join(f"`{name}`" for name in operations)
    return f"- {names}{where}: {change.message}{breaks} [`{change.rule}` at `{change.pointer}`]"


def render_markdown_sections(changes: list[Change], level: int = 2) -> str:
    """Breaking changes first, then the others; 'No changes.' when there are none."""
    if not changes:
        return "No changes.\n"
    hashes = "#" * level
    parts: list[str] = []
    breaking = [c for c in changes if c.breaking]
    other = [c for c in changes if not c.breaking]
    if breaking:
        parts.append(f"{hashes} Breaking changes\n\n" + "\n".join(map(_md_line, breaking)) + "\n")
    if other:
        parts.append(f"{hashes} Non-breaking changes\n\n" + "\n".join(map(_md_line, other)) + "\n")
    return "\n".join(parts)


def render_markdown(changes: list[Change], old: SpecSource, new: SpecSource) -> str:
    title = (
        f"# Spec changes: {old.label} ({_version(old.document)}) -> "
        f"{new.label} ({_version(new.document)})\n\n"
    )
    clients = sum(c.breaks_clients for c in changes)
    servers = sum(c.breaks_servers for c in changes)
    summary = f"{len(changes)} change(s): {clients} break clients, {servers} break servers.\n\n"
    return title + summary + render_markdown_sections(changes, level=2)
