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

import dataclasses
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from modelarts_kit_spec import (
    LedgerEntry,
    Operation,
    SpecError,
    ledger_for,
    load_spec,
    read_matchable_ledger,
)
from modelarts_kit_spec.values import documented_values
from modelarts_kit_spec.walker import SchemaView, SchemaWalker

from modelarts_kit_vendordocs.errors import LedgerError, SpecShapeError, VendorDocsError
from modelarts_kit_vendordocs.inventory import FieldEntry, Inventory
from modelarts_kit_vendordocs.settle import (
    ABSENT,
    DROPPED,
    PRESENT,
    enum_key,
    mandatory_key,
    name_key,
    recorded_by_page,
    says_recorded,
    status_item,
    type_key,
)
from modelarts_kit_vendordocs.types import parse_type

__all__ = [
    "Decision",
    "DriftReport",
    "Finding",
    "FindingGroup",
    "OperationDrift",
    "action",
    "compare",
    "group_findings",
    "load_decisions",
    "normalise_field",
]

KINDS = ("presence", "type", "mandatory", "enum", "name", "status-code")
_SIDES = ("request", "response", "both")
_ARRAY_MARKER_RE = re.compile(r"\[(?:\d*|\*)\]")


def normalise_field(path: str) -> str:
    """A field path without array markers: ``a.b[].c`` and ``a.b[*].c`` both become ``a.b.c``."""
    return _ARRAY_MARKER_RE.sub("", path).strip()


def _no_evidence() -> Mapping[str, frozenset[str]]:
    return MappingProxyType({})


def _ledger_side(side: str) -> str:
    return "response" if side == "response" else "request"


@dataclass(frozen=True)
class Decision:
    """A ledger entry, reduced to what matching needs: where it applies and what it recorded.

    ``evidence`` holds, per page file name, the values that page's sources recorded, as
    comparison keys (see :mod:`modelarts_kit_vendordocs.settle`): a finding is settled only
    when a page whose evidence it may use (:attr:`Finding.evidence`) recorded what it says.
    """

    id: str
    kind: str
    field: str
    side: str
    operations: frozenset[str] | None  # None: every operation
    aliases: frozenset[str]  # field paths this entry accounts for (normalised)
    pointer: str | None = None
    evidence: Mapping[str, frozenset[str]] = dataclasses.field(default_factory=_no_evidence)
    says: tuple[str, ...] = ()  # the sources' words, for the report
    todo: bool = False

    @property
    def recorded(self) -> frozenset[str]:
        """Every key any page recorded (what the report shows; settling goes per page)."""
        return frozenset(key for keys in self.evidence.values() for key in keys)

    def applies(self, finding: Finding) -> bool:
        """The entry is about this finding (same kind, field, side and operation)."""
        if self.operations is not None and finding.operation not in self.operations:
            return False
        if self.side != "both" and self.side != _ledger_side(finding.side):
            return False
        if finding.kind == "status-code":
            return self.kind == "status-code" and (
                self.field in ("", "(responses)") or self.field == finding.field
            )
        target = normalise_field(finding.field)
        if self.kind == finding.kind == "name" and self.pointer and self.pointer == finding.pointer:
            return True  # a schema's name is one decision wherever the schema is used
        if self.kind == finding.kind:
            return target == normalise_field(self.field)
        return self.kind == "name" and finding.kind == "presence" and target in self.aliases

    def settles(self, finding: Finding) -> bool:
        """The page says what this entry recorded (a TODO entry settles nothing)."""
        if self.todo or not self.applies(finding):
            return False
        if self.kind == "name" and finding.kind == "presence":
            return True  # the alias itself is what the entry recorded
        pages = finding.evidence or ((finding.page,) if finding.page else tuple(self.evidence))
        return any(
            says_recorded(self.kind, self.evidence.get(page, frozenset()), finding.value)
            for page in pages
        )

    def covers(self, finding: Finding) -> bool:
        return self.settles(finding)


@dataclass(frozen=True)
class Finding:
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

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "side": self.side,
            "status": self.status,
            "field": self.field,
            "direction": self.direction,
            "docs": self.docs,
            "spec": self.spec,
            "page": self.page,
            "line": self.line,
            "pointer": self.pointer,
            "reopened": self.reopened,
            "recorded": list(self.recorded),
            "schema": self.schema,
            "action": action(self),
        }


@dataclass
class OperationDrift:
    operation: str
    method: str
    path: str
    pages: list[str]
    findings: list[Finding] = field(default_factory=list)
    reconciled: list[tuple[Finding, str]] = field(default_factory=list)


@dataclass
class DriftReport:
    spec: str
    operations: list[OperationDrift]
    unmatched_pages: list[tuple[str, str, str]]  # (page, method, path) with no spec operation
    notes: list[str]  # page facts worth knowing (missing tables, unattached tables)

    @property
    def unreconciled_count(self) -> int:
        return sum(len(op.findings) for op in self.operations) + len(self.unmatched_pages)


# --- the ledger ------------------------------------------------------------------------------


def load_decisions(ledger_path: Path | None, spec_path: Path | None) -> list[Decision]:
    """The ledger next to the spec (or the given one); a custom spec without one has none."""
    if ledger_path is None:
        ledger_path = ledger_for(spec_path)
        if ledger_path is None:
            return []
    try:
        ledger = read_matchable_ledger(ledger_path)
    except SpecError as exc:
        raise LedgerError(str(exc)) from exc
    return decisions_from_entries(ledger.entries)


def decisions_from_entries(entries: Iterable[LedgerEntry]) -> list[Decision]:
    out: list[Decision] = []
    for entry in entries:
        field_path = normalise_field(entry.field)
        aliases = {field_path}
        parent = field_path.rpartition(".")[0]
        for says in entry.says():
            if re.fullmatch(r"[A-Za-z_][\w\-]*", says.strip()):
                aliases.add(f"{parent}.{says.strip()}" if parent else says.strip())
        out.append(
            Decision(
                id=entry.id,
                kind=entry.kind,
                field=entry.field,
                side=entry.side,
                operations=None if entry.operations is None else frozenset(entry.operations),
                aliases=frozenset(aliases),
                pointer=entry.pointer,
                # Only what pages said settles a page: SDK evidence ({sdk, model, attribute})
                # supports the decision but records no page value.
                evidence=recorded_by_page(
                    entry.kind,
                    ((src.seed, src.says) for src in entry.settling("page") if src.says),
                ),
                says=entry.says(),
                todo=entry.todo,
            )
        )
    return out


# --- the spec side -------------------------------------------------------------------------


@dataclass(frozen=True)
class SpecField:
    path: str
    schema: Mapping[str, Any]  # dereferenced, allOf merged
    required: bool
    pointer: str
    ref_name: str | None  # the component a $ref (or an array's items $ref) names
    owner: str = ""  # pointer of the object schema that declares this property
    inner: str = ""  # pointer of the object schema its own properties live in (if any)


def _base_type(schema: Mapping[str, Any]) -> str | None:
    kind = schema.get("type")
    if isinstance(kind, list):
        kinds = [k for k in kind if k != "null"]
        return str(kinds[0]) if kinds else None
    if kind is None and "properties" in schema:
        return "object"
    return None if kind is None else str(kind)


# The keywords a field's description takes from its first shape that states them when the
# node itself does not (``oneOf: [{$ref: Object}, {type: string}]`` reads as an object).
_SHAPE_KEYWORDS = ("type", "format", "items")


def _view(walker: SchemaWalker, node: Any, pointer: str) -> tuple[dict[str, Any], SchemaView]:
    """``node`` as docs diff reads it: the spec walker's view with every shape (``allOf``,
    ``anyOf``, ``oneOf``) united, as one schema mapping, and the view itself."""
    try:
        view = walker.view(node, pointer, alternatives=True)
    except SpecError as exc:
        raise SpecShapeError(f"{pointer or '/'}: {exc}") from exc
    merged = dict(view.schema)
    for key in _SHAPE_KEYWORDS:
        if key not in merged and (found := view.find(key)) is not None:
            merged[key] = found[0]
    return merged, view


def _fields(walker: SchemaWalker, root: Any, pointer: str) -> tuple[dict[str, SpecField], str]:
    """Every field under ``root`` by dotted path (``a.b``, ``list[].c``), and the root's pointer."""
    out: dict[str, SpecField] = {}
    schema, view = _view(walker, root, pointer)
    _walk(walker, schema, view, "", out, frozenset())
    return out, view.pointer


def _walk(
    walker: SchemaWalker,
    schema: Mapping[str, Any],
    view: SchemaView,
    prefix: str,
    out: dict[str, SpecField],
    stack: frozenset[str],
) -> None:
    if view.pointer in stack:
        return
    stack = stack | {view.pointer}
    required = set(schema.get("required") or [])
    for name, raw in (schema.get("properties") or {}).items():
        declared = view.property_pointers.get(name) or f"{view.pointer}/properties/{name}"
        child, child_view = _view(walker, raw, declared)
        path = prefix + name
        items_ref: str | None = None
        node, node_view, markers = child, child_view, ""
        while _base_type(node) == "array" and isinstance(node.get("items"), Mapping):
            node, node_view = _view(walker, node["items"], f"{node_view.pointer}/items")
            items_ref = node_view.ref_name
            markers += "[]"
        out[path] = SpecField(
            path=path,
            schema=child,
            required=name in required,
            pointer=child_view.pointer if child_view.ref_name else declared,
            ref_name=child_view.ref_name or items_ref,
            owner=view.pointer,
            inner=node_view.pointer if node.get("properties") else "",
        )
        if node.get("properties"):
            _walk(walker, node, node_view, f"{path}{markers}.", out, stack)


# --- comparing -----------------------------------------------------------------------------


def _describe(schema: Mapping[str, Any]) -> str:
    kind = _base_type(schema) or "any"
    if kind == "array" and isinstance(schema.get("items"), Mapping):
        return f"array of {_describe(schema['items'])}"
    fmt = schema.get("format")
    return f"{kind}/{fmt}" if fmt else kind


def _types_agree(docs: Mapping[str, Any], spec: Mapping[str, Any], walker: SchemaWalker) -> bool:
    docs_kind = docs.get("type")
    spec_kind = _base_type(spec)
    if docs_kind is None or spec_kind is None:
        return docs_kind is None and spec_kind is None
    if docs_kind != spec_kind:
        return False
    if docs_kind == "integer":
        spec_format = spec.get("format")
        return spec_format is None or spec_format == docs.get("format")
    if docs_kind == "array":
        docs_items = docs.get("items") or {}
        spec_items_raw = spec.get("items")
        if not docs_items.get("type") or not isinstance(spec_items_raw, Mapping):
            return True
        spec_items, _ = _view(walker, spec_items_raw, "")
        return _types_agree(docs_items, spec_items, walker)
    return True


@dataclass
class _Container:
    """The fields of one side of an operation (parameters, request body, one response)."""

    side: str
    status: int | None
    fields: dict[str, SpecField]
    documented: bool = True  # False: the spec has no such response
    root: str = ""  # pointer of the body's root object schema


def _parameter_fields(operation: Operation, location: str, op_pointer: str) -> dict[str, SpecField]:
    return {
        p.name: SpecField(
            path=p.name,
            schema=p.schema if isinstance(p.schema, Mapping) else {},
            required=p.required,
            pointer=f"{op_pointer}/parameters",
            ref_name=None,
        )
        for p in operation.parameters
        if p.location == location
    }


def _containers(
    walker: SchemaWalker, operation: Operation, pages: list[Inventory]
) -> dict[tuple[str, int | None], _Container]:
    containers: dict[tuple[str, int | None], _Container] = {}
    for location in ("path", "query", "header"):
        containers[(location, None)] = _Container(
            location, None, _parameter_fields(operation, location, operation.pointer)
        )
    if operation.request_schema is not None:
        fields, root = _fields(walker, operation.request_schema, f"{operation.pointer}/requestBody")
        containers[("request", None)] = _Container("request", None, fields, root=root)
    else:
        containers[("request", None)] = _Container("request", None, {})
    statuses = {e.status for page in pages for e in page.fields if e.side == "response"}
    for status in sorted(s for s in statuses if s is not None):
        response = operation.response_for(status)
        if response is None:
            containers[("response", status)] = _Container("response", status, {}, False)
            continue
        spec_fields, root = (
            ({}, "")
            if response.schema is None
            else _fields(walker, response.schema, f"{response.pointer}/content")
        )
        containers[("response", status)] = _Container("response", status, spec_fields, root=root)
    return containers


def _has_missing_ancestor(path: str, missing: set[str]) -> bool:
    parts = normalise_field(path).split(".")
    return any(".".join(parts[:i]) in missing for i in range(1, len(parts)))


def _compare_entry(
    op_id: str,
    entry: FieldEntry,
    page: str,
    spec_field: SpecField,
    walker: SchemaWalker,
) -> list[Finding]:
    findings: list[Finding] = []
    doc = entry.field
    docs_schema = doc.vendor_type.schema()

    def finding(kind: str, docs: str, spec: str, value: str | None) -> Finding:
        return Finding(
            operation=op_id,
            kind=kind,
            side=entry.side,
            status=entry.status,
            field=entry.path,
            direction="both",
            docs=docs,
            spec=spec,
            page=page,
            line=doc.line,
            pointer=spec_field.pointer,
            value=value or "",
            schema=spec_field.owner or None,
            written=doc.type,
            description=doc.description,
            required=mandatory_key(doc.mandatory) == "yes",
            enum=tuple(doc.enum),
            table=entry.table.label,
        )

    if not docs_schema:
        findings.append(
            finding(
                "type",
                f"{doc.type} (not a type this tool maps)",
                _describe(spec_field.schema),
                doc.type.strip(),
            )
        )
    elif not _types_agree(docs_schema, spec_field.schema, walker):
        findings.append(finding("type", doc.type, _describe(spec_field.schema), type_key(doc.type)))
    mandatory = mandatory_key(doc.mandatory)
    if mandatory is not None and (mandatory == "yes") != spec_field.required:
        findings.append(
            finding(
                "mandatory",
                f"Mandatory: {doc.mandatory}",
                "required" if spec_field.required else "optional",
                mandatory,
            )
        )
    if doc.enum:
        spec_enum = documented_values(spec_field.schema)
        if spec_enum is None:
            findings.append(finding("enum", ", ".join(doc.enum), "no enum", enum_key(doc.enum)))
        else:
            spec_values = list(spec_enum.values)
            docs_only = [v for v in doc.enum if v not in spec_values]
            spec_only = [v for v in spec_values if v not in doc.enum]
            if docs_only or spec_only:
                findings.append(
                    finding(
                        "enum",
                        ", ".join(doc.enum)
                        + (f" (not in spec: {', '.join(docs_only)})" if docs_only else ""),
                        ", ".join(spec_values)
                        + (f" (not on page: {', '.join(spec_only)})" if spec_only else ""),
                        enum_key(doc.enum),
                    )
                )
    docs_ref = doc.vendor_type.table_ref
    if docs_ref and spec_field.ref_name and name_key(docs_ref) != name_key(spec_field.ref_name):
        findings.append(
            finding(
                "name", f"table {docs_ref}", f"schema {spec_field.ref_name}", name_key(docs_ref)
            )
        )
    return findings


def _compare_operation(
    walker: SchemaWalker,
    operation: Operation,
    pages: list[Inventory],
    dropped: Mapping[tuple[str, int | None, str], tuple[str, int, str]] | None = None,
) -> list[Finding]:
    """``dropped``: (side, status, field) a replacing page no longer lists -> (old page, line,
    new page); no other page of the operation can vouch for those."""
    dropped = dropped or {}
    op_id = operation.operation_id
    containers = _containers(walker, operation, pages)
    findings: list[Finding] = []
    mentioned: dict[tuple[str, int | None], set[str]] = {key: set() for key in containers}
    for page in pages:
        name = Path(page.source).name
        # Per side: a subtree the request lacks says nothing about the same path in a response.
        missing: dict[tuple[str, int | None], set[str]] = {key: set() for key in containers}
        for entry in page.fields:
            key = (entry.side, entry.status)
            container = containers.get(key)
            if container is None or not container.documented:
                continue  # an undocumented status is reported once, as a status code
            mentioned[key].add(normalise_field(entry.path))
            if _has_missing_ancestor(entry.path, missing[key]):
                continue
            spec_field = _lookup(container.fields, entry.path)
            if spec_field is None:
                missing[key].add(normalise_field(entry.path))
                parent_path = normalise_field(entry.path).rpartition(".")[0]
                parent = _lookup(container.fields, parent_path) if parent_path else None
                owner = container.root if parent is None else parent.inner
                prefix = normalise_field(entry.path) + "."
                below = [
                    e
                    for e in page.fields
                    if (e.side, e.status) == key and normalise_field(e.path).startswith(prefix)
                ]
                children = tuple(
                    dict.fromkeys(
                        normalise_field(e.path)[len(prefix) :].split(".")[0] for e in below
                    )
                )
                subtree = tuple(
                    (
                        normalise_field(e.path)[len(prefix) :],
                        e.field.type,
                        e.field.description,
                        mandatory_key(e.field.mandatory) == "yes",
                    )
                    for e in below
                )
                findings.append(
                    Finding(
                        operation=op_id,
                        kind="presence",
                        side=entry.side,
                        status=entry.status,
                        field=entry.path,
                        direction="docs",
                        docs=f"{entry.field.type} ({entry.table.label})",
                        spec="absent",
                        page=name,
                        line=entry.field.line,
                        pointer=None,
                        value=PRESENT,
                        schema=owner or None,
                        children=children,
                        subtree=subtree,
                        table=entry.table.label,
                        written=entry.field.type,
                        description=entry.field.description,
                        required=mandatory_key(entry.field.mandatory) == "yes",
                    )
                )
                continue
            findings.extend(_compare_entry(op_id, entry, name, spec_field, walker))
    documented_sides = {(e.side, e.status) for page in pages for e in page.fields}
    # A field whose table the page does not print says nothing about its children.
    opaque: dict[tuple[str, int | None], set[str]] = {key: set() for key in containers}
    for page in pages:
        printed = {normalise_field(e.path) for e in page.fields}
        for e in page.fields:
            plain = normalise_field(e.path)
            if (
                (e.side, e.status) in opaque
                and e.field.vendor_type.table_ref
                and not any(p.startswith(plain + ".") for p in printed)
            ):
                opaque[(e.side, e.status)].add(plain)
    for (side, status, plain_path), _ in dropped.items():
        mentioned.get((side, status), set()).discard(plain_path)
    for key, prefixes in opaque.items():
        opaque[key] = {
            o for o in prefixes if not any(m.startswith(o + ".") for m in mentioned[key])
        }
    for key, container in containers.items():
        if key not in documented_sides or not container.documented:
            continue
        reported: set[str] = set()
        for path, spec_field in container.fields.items():
            plain = normalise_field(path)
            if plain in mentioned[key] or _has_missing_ancestor(path, reported):
                continue
            if _has_missing_ancestor(path, opaque[key]):
                continue
            reported.add(plain)
            gone = dropped.get((*key, plain))
            findings.append(
                Finding(
                    operation=op_id,
                    kind="presence",
                    side=container.side,
                    status=container.status,
                    field=path,
                    direction="spec",
                    docs=(
                        "no page of this operation mentions it"
                        if gone is None
                        else f"dropped by the new page ({gone[0]}:{gone[1]} listed it)"
                    ),
                    spec=_describe(spec_field.schema),
                    # A drop is a statement of the page that dropped it: its evidence settles it.
                    page=None if gone is None else gone[2],
                    line=None,
                    pointer=spec_field.pointer,
                    value=ABSENT if gone is None else DROPPED,
                    schema=spec_field.owner or None,
                )
            )
    findings.extend(_status_findings(operation, pages))
    return findings


def _lookup(fields: Mapping[str, SpecField], path: str) -> SpecField | None:
    found = fields.get(path)
    if found is not None:
        return found
    plain = normalise_field(path)
    for candidate, spec_field in fields.items():
        if normalise_field(candidate) == plain:
            return spec_field
    return None


def _status_findings(operation: Operation, pages: list[Inventory]) -> list[Finding]:
    findings: list[Finding] = []
    documented: dict[int, tuple[str, int]] = {}
    for page in pages:
        for status in page.status_codes:
            documented.setdefault(status.code, (Path(page.source).name, status.line))
    spec_codes = {r.status for r in operation.responses}
    for code, (page_name, line) in sorted(documented.items()):
        if operation.response_for(code) is None:
            findings.append(
                Finding(
                    operation.operation_id,
                    "status-code",
                    "response",
                    code,
                    str(code),
                    "docs",
                    f"status {code} documented",
                    "absent",
                    page_name,
                    line,
                    f"{operation.pointer}/responses",
                    value=status_item(code, listed=True),
                )
            )
    for spec_code in sorted(c for c in spec_codes if c.isdigit() and int(c) not in documented):
        findings.append(
            Finding(
                operation.operation_id,
                "status-code",
                "response",
                int(spec_code),
                spec_code,
                "spec",
                "no page lists it",
                f"response {spec_code}",
                None,
                None,
                f"{operation.pointer}/responses/{spec_code}",
                value=status_item(int(spec_code), listed=False),
            )
        )
    return findings


def _path_key(method: str, path: str) -> tuple[str, str]:
    # Match path templates regardless of parameter names: {id} and {training_job_id} align.
    return method.lower(), re.sub(r"\{[^}]*\}", "{}", path.rstrip("/"))


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
    spec_path: Path | None,
    decisions: list[Decision],
    replaced: Iterable[tuple[Inventory, Inventory]] = (),
) -> DriftReport:
    """Drift between the pages and the spec, minus what ``decisions`` settle.

    ``replaced`` pairs (new page, old page): the new page stands in place of the old one (which
    must not be among ``inventories``), and a field it dropped is reported even when another
    page of the operation still lists it.
    """
    spec = load_spec(spec_path)
    walker = spec.walker
    by_key = {_path_key(op.method, op.path): op for op in spec.operations}
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
        operation = by_key.get(_path_key(inventory.method, inventory.path))
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
            if by_key.get(_path_key(new.method, new.path)) is operation
        ]
        replaced_by = _replaced_pages(pairs)
        names = [Path(p.source).name for p in pages]
        run_pages = tuple(dict.fromkeys(e for n in names for e in replaced_by.get(n, (n,))))
        for finding in _compare_operation(walker, operation, pages, _dropped(pairs)):
            own = replaced_by.get(finding.page, (finding.page,)) if finding.page else run_pages
            finding = replace(finding, evidence=own)
            decision = next((d for d in decisions if d.settles(finding)), None)
            if decision is not None:
                drift.reconciled.append((finding, decision.id))
                continue
            about = next((d for d in decisions if d.applies(finding)), None)
            if about is not None:
                finding = replace(finding, reopened=about.id, recorded=about.says)
            drift.findings.append(finding)
        results.append(drift)
    return DriftReport(
        spec=str(spec.path), operations=results, unmatched_pages=unmatched, notes=notes
    )


# --- what a maintainer does about it -------------------------------------------------------


def _short_type(written: str) -> str:
    schema = parse_type(written).schema()
    kind = schema.get("type", written)
    if kind == "array":
        items = schema.get("items") or {}
        return f"array of {items.get('type', 'object')}"
    return str(kind)


def action(finding: Finding) -> str:
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
    if finding.kind == "name":
        return (
            f"record that the pages call {where} `{finding.docs.removeprefix('table ')}` {decide}"
        )
    if finding.kind == "status-code" and finding.direction == "docs":
        return f"add response {finding.field} to {finding.operation}"
    if finding.kind == "status-code":
        return f"remove response {finding.field} from {finding.operation} {decide}"
    return decide


@dataclass(frozen=True)
class FindingGroup:
    """One decision: the same change of one schema, wherever the schema is reached."""

    schema: str
    action: str
    findings: tuple[Finding, ...]

    @property
    def paths(self) -> tuple[str, ...]:
        return tuple(
            dict.fromkeys(
                f"{f.operation} {f.side}{'' if f.status is None else f' {f.status}'} {f.field}"
                for f in self.findings
            )
        )


def group_findings(findings: Iterable[Finding]) -> list[FindingGroup]:
    """Findings grouped by spec schema, one group per distinct change."""
    groups: dict[tuple[str, str], list[Finding]] = {}
    for finding in findings:
        schema = finding.schema or finding.pointer or finding.operation
        groups.setdefault((schema, action(finding)), []).append(finding)
    return [
        FindingGroup(schema, text, tuple(members))
        for (schema, text), members in sorted(groups.items())
    ]


def diff_pages(
    pages: Sequence[Path],
    *,
    replaces: Path | None = None,
    spec_path: Path | None = None,
    ledger_path: Path | None = None,
) -> DriftReport:
    """``docs diff``: read the pages, then compare them with the spec minus the ledger.

    With ``replaces``, the first page is the new version of that page: the old page is left
    out of the run (also when a glob brought it in), and a field the new page dropped is
    drift even when another page of the operation still lists it.
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
        if _path_key(new.method, new.path) != _path_key(old.method, old.path):
            raise VendorDocsError(
                f"--replaces {replaces}: documents {old.method} {old.path}, but {new_path} "
                f"documents {new.method} {new.path}; a page replaces a page of the same operation"
            )
        replaced.append((new, old))
        inventories = [new] + [extract_page(p) for p in paths[1:]]
    else:
        inventories = [extract_page(p) for p in paths]
    return compare(inventories, spec_path, decisions, replaced)
