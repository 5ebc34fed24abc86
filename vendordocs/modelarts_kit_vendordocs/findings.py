"""Drift findings: what differs between the pages and the spec, and the change each asks for."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from modelarts_kit_wire.records import JsonField, JsonRecord

from modelarts_kit_vendordocs.settle import DROPPED
from modelarts_kit_vendordocs.types import parse_type

KINDS = ("presence", "type", "mandatory", "enum", "constraint", "name", "status-code", "example")
_SIDES = ("request", "response", "both")
_ARRAY_MARKER_RE = re.compile(r"\[(?:\d*|\*)\]")


def normalise_field(path: str) -> str:
    """A field path without array markers: ``a.b[].c`` and ``a.b[*].c`` both become ``a.b.c``."""
    return _ARRAY_MARKER_RE.sub("", path).strip()


@dataclass(frozen=True)
class DriftFinding(JsonRecord):
    operation: str
    kind: str
    side: str  # path | query | header | request | response
    status: int | None
    field: str
    direction: str  # "docs": the pages say it; "spec": only the spec says it; "both": they differ
    docs: str
    spec: str
    page: str | None
    line: int | None
    pointer: str | None
    value: str = ""  # the page's value as a comparison key (see value_key)
    reopened: str | None = None  # a ledger entry about this finding that recorded other values
    recorded: tuple[str, ...] = ()  # what that entry's sources said
    schema: str | None = None  # pointer of the object schema the field belongs (or would) to
    children: tuple[str, ...] = ()  # for a documented object the spec lacks: its fields
    written: str = ""  # the page's type cell, as written
    description: str = ""  # the page's description
    required: bool = False  # the page says Mandatory: Yes
    enum: tuple[str, ...] = ()  # the values the page lists
    table: str = ""  # the page table the row is in
    # For a documented object the spec lacks: every field under it on the page, as
    # (path relative to it, type as written, description, mandatory).
    subtree: tuple[tuple[str, str, str, bool], ...] = ()
    # The pages whose recorded evidence may settle it: its page and the pages that page
    # replaces; for a finding no single page makes, every page of the run (set by compare).
    evidence: tuple[str, ...] = ()

    json_fields: ClassVar[tuple[JsonField, ...]] = (
        "kind",
        "side",
        "status",
        "field",
        "direction",
        "docs",
        "spec",
        "page",
        "line",
        "pointer",
        "reopened",
        "recorded",
        "schema",
        ("action", "action_text"),
    )

    @property
    def action_text(self) -> str:
        """The change this finding asks for (see :func:`action`)."""
        return action(self)


def _short_type(written: str) -> str:
    schema = parse_type(written).schema()
    kind = schema.get("type", written)
    if kind == "array":
        items = schema.get("items") or {}
        return f"array of {items.get('type', 'object')}"
    return str(kind)


def action(finding: DriftFinding) -> str:
    """The change this finding asks for, in one sentence a maintainer can act on."""
    name = normalise_field(finding.field).rpartition(".")[2]
    where = f"`{finding.schema}`" if finding.schema else f"`{finding.pointer or finding.operation}`"
    decide = "or record a ledger decision"
    if finding.kind == "presence" and finding.direction == "docs":
        kind = _short_type(finding.written) if finding.written else "?"
        shape = kind
        if finding.children:
            shape = f"{kind}, {len(finding.children)} fields: {', '.join(finding.children)}"
        required = ", required" if finding.required else ""
        return f"add property `{name}` ({shape}{required}) to {where}"
    if finding.kind == "presence":
        why = "the new page dropped it" if finding.value == DROPPED else "no page mentions it"
        return f"remove or mark deprecated `{name}` in {where} ({why}) {decide}"
    if finding.kind == "type":
        return (
            f"change type of `{name}` in {where} from {finding.spec} to "
            f"{_short_type(finding.written) if finding.written else finding.docs} {decide}"
        )
    if finding.kind == "mandatory":
        want = "required" if finding.required else "optional"
        return f"make `{name}` {want} in {where} {decide}"
    if finding.kind == "enum":
        values = ", ".join(finding.enum)
        return f"set the documented values of `{name}` in {where} to {values} {decide}"
    if finding.kind == "constraint":
        keyword = finding.value.partition("=")[0]
        stated = finding.docs.partition(" ")[2]
        return f"set `{keyword}` of `{name}` in {where} to {stated} {decide}"
    if finding.kind == "name":
        return (
            f"record that the pages call {where} `{finding.docs.removeprefix('table ')}` {decide}"
        )
    if finding.kind == "status-code" and finding.direction == "docs":
        return f"add response {finding.field} to {finding.operation}"
    if finding.kind == "example":
        return (
            f"embed the {finding.side} example of {finding.page}:{finding.line} under {where} "
            f"{decide}"
        )
    if finding.kind == "status-code":
        return f"remove response {finding.field} from {finding.operation} {decide}"
    return decide


@dataclass(frozen=True)
class FindingGroup:
    """One decision: the same change of one schema, wherever the schema is reached."""

    schema: str
    action: str
    findings: tuple[DriftFinding, ...]

    @property
    def paths(self) -> tuple[str, ...]:
        return tuple(
            dict.fromkeys(
                f"{f.operation} {f.side}{'' if f.status is None else f' {f.status}'} {f.field}"
                for f in self.findings
            )
        )


def group_findings(findings: Iterable[DriftFinding]) -> list[FindingGroup]:
    """Findings grouped by spec schema, one group per distinct change."""
    groups: dict[tuple[str, str], list[DriftFinding]] = {}
    for finding in findings:
        schema = finding.schema or finding.pointer or finding.operation
        groups.setdefault((schema, action(finding)), []).append(finding)
    return [
        FindingGroup(schema, text, tuple(members))
        for (schema, text), members in sorted(groups.items())
    ]
