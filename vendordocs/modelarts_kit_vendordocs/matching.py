"""Matching: the spec's fields and status codes against the pages' of the same operation,
one finding per difference (before the ledger settles any)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from modelarts_kit_spec import Operation, SpecError
from modelarts_kit_spec.values import documented_values
from modelarts_kit_spec.walker import SchemaView, SchemaWalker

from modelarts_kit_vendordocs.constraints import prose_constraints
from modelarts_kit_vendordocs.errors import SpecShapeError
from modelarts_kit_vendordocs.findings import DriftFinding, normalise_field
from modelarts_kit_vendordocs.inventory import FieldEntry, Inventory
from modelarts_kit_vendordocs.settle import (
    ABSENT,
    DROPPED,
    PRESENT,
    enum_key,
    mandatory_key,
    name_key,
    status_item,
    type_key,
)

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
) -> list[DriftFinding]:
    findings: list[DriftFinding] = []
    doc = entry.field
    docs_schema = doc.vendor_type.schema()

    def finding(kind: str, docs: str, spec: str, value: str | None) -> DriftFinding:
        return DriftFinding(
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
    for stated in prose_constraints(doc.description, doc.vendor_type):
        spec_value = spec_field.schema.get(stated.keyword)
        # Only a limit the spec states is compared: the spec may leave one out on purpose
        # (a response tolerates what the service sends).
        if isinstance(spec_value, int | float) and spec_value != stated.value:
            findings.append(
                finding(
                    "constraint",
                    f"{stated.keyword} {stated.value:g} ({stated.quote!r})",
                    f"{stated.keyword} {spec_value:g}",
                    stated.key,
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


def compare_operation(
    walker: SchemaWalker,
    operation: Operation,
    pages: list[Inventory],
    dropped: Mapping[tuple[str, int | None, str], tuple[str, int, str]] | None = None,
) -> list[DriftFinding]:
    """``dropped``: (side, status, field) a replacing page no longer lists -> (old page, line,
    new page); no other page of the operation can vouch for those."""
    dropped = dropped or {}
    op_id = operation.operation_id
    containers = _containers(walker, operation, pages)
    findings: list[DriftFinding] = []
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
                    DriftFinding(
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
                DriftFinding(
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


def _status_findings(operation: Operation, pages: list[Inventory]) -> list[DriftFinding]:
    findings: list[DriftFinding] = []
    documented: dict[int, tuple[str, int]] = {}
    for page in pages:
        for status in page.status_codes:
            documented.setdefault(status.code, (Path(page.source).name, status.line))
    spec_codes = {r.status for r in operation.responses}
    for code, (page_name, line) in sorted(documented.items()):
        if operation.response_for(code) is None:
            findings.append(
                DriftFinding(
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
            DriftFinding(
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


def path_key(method: str, path: str) -> tuple[str, str]:
    # Match path templates regardless of parameter names: {id} and {training_job_id} align.
    return method.lower(), re.sub(r"\{[^}]*\}", "{}", path.rstrip("/"))
