"""The shared step: from a :class:`RawPage` (any format) to the field inventory.

1. Sections: headings say which side each table documents (path/query parameters, request
   body, response body per status code) and which table is a body's root.
2. Nesting: a field typed ``X object`` / ``Array of X objects`` points to table X. With titles,
   X is the first table named X after the referencing one (else the nearest one before), so
   a table printed once is attached to every reference. Without titles, names and parents come
   from :func:`modelarts_kit_vendordocs.infer.infer_links`.
3. Paths: every field is listed with its dotted path from the body root; ``[]`` follows a
   name once per array level (``status.task_statuses[].exit_code``). Shared tables are
   expanded under each of their users.
4. Enums: values listed in descriptions (:mod:`modelarts_kit_vendordocs.enums`).

References to tables that are not on the page are reported, as are tables no field points to
and rows a table prints twice, word for word (read once: the logs preview page repeats its
three path parameters).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from modelarts_kit_vendordocs.enums import extract_enum
from modelarts_kit_vendordocs.errors import PageError
from modelarts_kit_vendordocs.examples import BrokenExample, PageExample
from modelarts_kit_vendordocs.infer import TableShape, infer_links, words
from modelarts_kit_vendordocs.model import Heading, HeadingKind, OperationLine, RawPage, RawTable
from modelarts_kit_vendordocs.types import VendorType, parse_type

__all__ = [
    "DocField",
    "DocTable",
    "FieldEntry",
    "Inventory",
    "StatusCode",
    "build_inventory",
]

_PARAMETER_CAPTIONS = {
    "path parameters": "path",
    "路径参数": "path",
    "query parameters": "query",
    "查询参数": "query",
    "request header parameters": "header",
    "请求header参数": "header",
}
_BODY_CAPTIONS = {
    "request body parameters": "request",
    "请求body参数": "request",
    "response body parameters": "response",
    "响应body参数": "response",
}
_RESPONSE_HEADER_CAPTIONS = {"response header parameters", "响应header参数"}


@dataclass
class DocField:
    name: str
    type: str  # as written
    mandatory: str | None  # as written; None when the table has no such column or cell
    description: str
    enum: list[str]
    line: int
    vendor_type: VendorType
    # The cross-references of its type and description cells, as (text, target): where a
    # page says which table holds its fields (``Array of :ref:`metrics <anchor>` objects``).
    refs: tuple[tuple[str, str], ...] = ()


@dataclass
class DocTable:
    index: int
    label: str
    name: str
    name_inferred: bool
    side: str  # path | query | header | request | response
    status: int | None
    root: bool
    line: int
    fields: list[DocField]
    used_by: list[tuple[int, int]] = field(default_factory=list)  # (table index, field index)
    anchors: tuple[str, ...] = ()  # the labels a cross-reference may name it by
    borrowed_from: int | None = None  # a copy of a table printed in another body of the page


@dataclass(frozen=True)
class FieldEntry:
    """A field at its dotted path from the body root (or a parameter by name)."""

    path: str
    side: str
    status: int | None
    table: DocTable
    field: DocField


@dataclass(frozen=True)
class StatusCode:
    code: int
    description: str
    line: int


@dataclass(frozen=True)
class UnresolvedReference:
    table: str
    field: str
    type: str
    target: str
    line: int


@dataclass(frozen=True)
class RepeatedRow:
    """A row a table prints again, cell for cell (kept once)."""

    table: str
    field: str
    line: int
    first_line: int


@dataclass
class Inventory:
    source: str
    format: str
    title: str
    method: str
    path: str
    operation_line: int
    status_codes: list[StatusCode]
    tables: list[DocTable]
    fields: list[FieldEntry]
    unresolved: list[UnresolvedReference]
    unattached: list[DocTable]
    cycles: list[str]
    repeated: list[RepeatedRow] = field(default_factory=list)
    examples: list[PageExample] = field(default_factory=list)  # the JSON examples
    broken_examples: list[BrokenExample] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        labels = {t.index: t for t in self.tables}
        return {
            "source": self.source,
            "format": self.format,
            "title": self.title,
            "operation": {"method": self.method, "path": self.path, "line": self.operation_line},
            "status_codes": [
                {"code": s.code, "description": s.description, "line": s.line}
                for s in self.status_codes
            ],
            "tables": [
                {
                    "label": t.label,
                    "name": t.name,
                    "name_inferred": t.name_inferred,
                    "side": t.side,
                    "status": t.status,
                    "root": t.root,
                    "line": t.line,
                    "borrowed_from": (
                        None
                        if t.borrowed_from is None
                        else f"{labels[t.borrowed_from].label} ({labels[t.borrowed_from].side})"
                    ),
                    "used_by": [
                        {"table": labels[ti].label, "field": labels[ti].fields[fi].name}
                        for ti, fi in t.used_by
                    ],
                    "fields": [
                        {
                            "name": f.name,
                            "type": f.type,
                            "mandatory": f.mandatory,
                            "description": f.description,
                            "enum": f.enum,
                            "line": f.line,
                        }
                        for f in t.fields
                    ],
                }
                for t in self.tables
            ],
            "fields": [
                {
                    "path": e.path,
                    "side": e.side,
                    "status": e.status,
                    "type": e.field.type,
                    "schema": e.field.vendor_type.schema(),
                    "mandatory": e.field.mandatory,
                    "enum": e.field.enum,
                    "line": e.field.line,
                    "table": e.table.label,
                }
                for e in self.fields
            ],
            "unresolved_references": [
                {
                    "table": u.table,
                    "field": u.field,
                    "type": u.type,
                    "target": u.target,
                    "line": u.line,
                }
                for u in self.unresolved
            ],
            "unattached_tables": [{"table": t.label, "line": t.line} for t in self.unattached],
            "repeated_rows": [
                {"table": r.table, "field": r.field, "line": r.line, "first_line": r.first_line}
                for r in self.repeated
            ],
            "cycles": self.cycles,
            "examples": [
                {"side": x.side, "status": x.status, "line": x.line, "value": x.value}
                for x in self.examples
            ],
            "broken_examples": [
                {"side": x.side, "line": x.line, "reason": x.reason} for x in self.broken_examples
            ],
        }


@dataclass
class _Section:
    side: str
    status: int | None
    tables: list[tuple[RawTable, bool]]  # (table, starts a body) in page order


def _caption_key(table: RawTable) -> str:
    return (table.caption_name or "").strip().lower()


def _sections(page: RawPage) -> tuple[OperationLine, list[_Section], RawTable | None]:
    operation: OperationLine | None = None
    sections: list[_Section] = []
    status_table: RawTable | None = None
    side = "path"
    status: int | None = None
    expect_root = False
    in_examples = False
    awaiting_status_codes = False
    for block in page.blocks:
        if isinstance(block, OperationLine):
            operation = block
            continue
        if operation is None:
            continue
        if isinstance(block, Heading):
            kind = block.kind
            if kind is HeadingKind.REQUEST and not in_examples:
                side, status, expect_root = "request", None, True
            elif kind is HeadingKind.RESPONSE and not in_examples:
                side, status, expect_root = "response", None, True
            elif kind is HeadingKind.STATUS and not in_examples:
                side, status, expect_root = "response", int(block.value), True
            elif kind is HeadingKind.EXAMPLES:
                in_examples = True
            elif kind is HeadingKind.STATUS_CODES:
                awaiting_status_codes = True
            elif kind is HeadingKind.ERROR_CODES:
                break
            continue
        if "status" in block.columns:
            if awaiting_status_codes or status_table is None:
                status_table = block
            continue
        if in_examples:
            continue
        caption = _caption_key(block)
        if caption in _RESPONSE_HEADER_CAPTIONS:
            continue
        table_side = _PARAMETER_CAPTIONS.get(caption) or _BODY_CAPTIONS.get(caption) or side
        starts_body = expect_root or caption in _BODY_CAPTIONS
        if table_side in ("path", "query", "header"):
            sections.append(_Section(table_side, None, [(block, False)]))
            continue
        expect_root = False
        if starts_body or not sections or sections[-1].side != table_side:
            sections.append(_Section(table_side, status, [(block, True)]))
        else:
            sections[-1].tables.append((block, False))
    if operation is None:
        raise PageError(
            page.source,
            page.line_count or 1,
            "no operation line ('METHOD /path', e.g. 'POST /v2/{project_id}/training-jobs') "
            "found: not an API reference page",
        )
    return operation, sections, status_table


def _doc_fields(page: RawPage, table: RawTable, repeated: list[RepeatedRow]) -> list[DocField]:
    out: list[DocField] = []
    columns = table.columns
    first_seen: dict[tuple[str, ...], int] = {}
    for row in table.rows:
        first = first_seen.setdefault(row.cells, row.line)
        if first != row.line:
            name = dict(zip(columns, row.cells, strict=True)).get("name", "").strip()
            repeated.append(RepeatedRow(table.label, name, row.line, first))
            continue
        values = dict(zip(columns, row.cells, strict=True))
        name = values.get("name", "").strip()
        written = values.get("type", "").strip()
        if not name:
            raise PageError(page.source, row.line, f"{table.label!r}: row without a parameter name")
        if not written:
            raise PageError(
                page.source, row.line, f"{table.label!r}: parameter {name!r} has no type"
            )
        vendor_type = parse_type(written)
        description = values.get("description", "").strip()
        pointing = {i for i, role in enumerate(columns) if role in ("type", "description")}
        refs = tuple((text, target) for i, text, target in row.refs if i in pointing)
        mandatory = values.get("mandatory", "").strip() or None
        out.append(
            DocField(
                name=name,
                type=written,
                mandatory=mandatory,
                description=description,
                enum=extract_enum(description, vendor_type),
                line=row.line,
                vendor_type=vendor_type,
                refs=refs,
            )
        )
    # Bullets naming the table's own fields ("id", "code_dir+boot_file") describe which
    # fields to combine, not values of this one.
    names = {f.name for f in out}
    for doc_field in out:
        if any(part in names for value in doc_field.enum for part in value.split("+")):
            doc_field.enum = []
    return out


def _resolve_titled(
    tables: list[DocTable], section_members: list[int], table: DocTable, target: str
) -> int | None:
    """First table named ``target`` after ``table`` in its section, else the nearest before."""
    for exact in (True, False):

        def matches(candidate: DocTable, exact: bool = exact) -> bool:
            return candidate.name == target if exact else candidate.name.lower() == target.lower()

        after = [i for i in section_members if i > table.index and matches(tables[i])]
        if after:
            return after[0]
        before = [i for i in section_members if i < table.index and matches(tables[i])]
        if before:
            return before[-1]
    return None


def _anchor_key(text: str) -> str:
    return re.sub(r"[\s_\-]+", "", text).casefold()


def _points_to_a_table(doc_field: DocField) -> bool:
    """An object (or array of objects) whose cells cross-reference something: the table
    holding its fields, when a reference names one (a description saying "see Table 3")."""
    schema = doc_field.vendor_type.schema()
    items = schema.get("items")
    kind = items.get("type") if isinstance(items, dict) else schema.get("type")
    return bool(doc_field.refs) and kind == "object"


def resolve_anchor(
    tables: list[DocTable],
    section_members: list[int],
    table: DocTable,
    refs: tuple[tuple[str, str], ...],
) -> int | None:
    """The table a cross-reference names by any of its anchors -- a label before the table,
    a label before the heading it is the first table under, its caption (``Table 3
    MetricObject``, ``Table 3``) or title (``MetricObject``) -- for a reference the table
    names do not resolve (a renamed table). Its own section first (after ``table``, then
    before), then the rest of the page; never ``table`` itself or a root table."""
    wanted = {_anchor_key(target) for _, target in refs} | {_anchor_key(text) for text, _ in refs}
    wanted.discard("")

    def named(candidate: DocTable) -> bool:
        label, name = candidate.label, candidate.name
        number = label.removesuffix(name) if name and label.endswith(name) else ""  # "Table 3"
        keys = {_anchor_key(a) for a in (*candidate.anchors, label, name, number)}
        return bool(wanted & keys)

    in_section = set(section_members)
    ordered = [
        *(i for i in section_members if i > table.index),
        *(i for i in reversed(section_members) if i < table.index),
        *(t.index for t in tables if t.index not in in_section),
    ]
    by_anchor = [i for i in ordered if i != table.index and not tables[i].root and named(tables[i])]
    return by_anchor[0] if by_anchor else None


def _link_field(
    tables: list[DocTable],
    indices: list[int],
    table: DocTable,
    fi: int,
    links: dict[tuple[int, int], int],
    *,
    titled: bool,
) -> UnresolvedReference | None:
    """Link field ``fi`` of ``table`` to the table holding its fields: by the name its type
    writes (``X object``), else by a cross-reference's anchor; the reference left unresolved,
    if any."""
    doc_field = table.fields[fi]
    target = doc_field.vendor_type.table_ref
    if target is None and not _points_to_a_table(doc_field):
        return None
    key = (table.index, fi)
    if key not in links and titled and target is not None:
        resolved = _resolve_titled(tables, indices, table, target)
        if resolved is not None:
            links[key] = resolved
    if key not in links:
        resolved = resolve_anchor(tables, indices, table, doc_field.refs)
        if resolved is not None:
            links[key] = resolved
    if key in links:
        tables[links[key]].used_by.append(key)
        return None
    if target is None:
        return None  # a description's reference to something else than a table of fields
    return UnresolvedReference(
        table=table.label,
        field=doc_field.name,
        type=doc_field.type,
        target=target,
        line=doc_field.line,
    )


def build_inventory(page: RawPage) -> Inventory:
    operation, sections, status_table = _sections(page)
    tables: list[DocTable] = []
    members: list[list[int]] = []
    repeated: list[RepeatedRow] = []
    for section in sections:
        indices: list[int] = []
        for raw, is_root in section.tables:
            index = len(tables)
            name = raw.caption_name or ("body" if is_root else "")
            tables.append(
                DocTable(
                    index=index,
                    label=raw.label,
                    name=name,
                    name_inferred=raw.caption_name is None and not is_root,
                    side=section.side,
                    status=section.status,
                    root=is_root or section.side in ("path", "query", "header"),
                    line=raw.line,
                    fields=_doc_fields(page, raw, repeated),
                    anchors=raw.anchors,
                )
            )
            indices.append(index)
        members.append(indices)

    links: dict[tuple[int, int], int] = {}  # (table, field) -> target table
    unresolved: list[UnresolvedReference] = []
    _link_untitled(tables, sections, members, links)
    for indices in members:
        titled = all(not tables[i].name_inferred for i in indices)
        for i in indices:
            table = tables[i]
            for fi in range(len(table.fields)):
                missing = _link_field(tables, indices, table, fi, links, titled=titled)
                if missing is not None:
                    unresolved.append(missing)

    entries, cycles = _expand(tables, links, _template_names(operation.path))
    unattached = [t for t in tables if not t.root and not t.used_by]
    status_codes = _status_codes(page, status_table, sections)
    if not entries:
        raise PageError(
            page.source,
            operation.line,
            "the page documents an operation but no parameter or field table was found",
        )
    return Inventory(
        source=page.source,
        format=page.format,
        title=page.title,
        method=operation.method,
        path=operation.path,
        operation_line=operation.line,
        status_codes=status_codes,
        tables=tables,
        fields=entries,
        unresolved=unresolved,
        unattached=unattached,
        cycles=cycles,
        repeated=repeated,
    )


def _shape(table: DocTable) -> TableShape:
    refs = tuple(
        (fi, ref)
        for fi, f in enumerate(table.fields)
        if (ref := f.vendor_type.table_ref) is not None
    )
    return TableShape(
        field_names=tuple(f.name for f in table.fields),
        field_words=tuple(
            words(f.name) | words(f.description.split("\n", 1)[0]) for f in table.fields
        ),
        refs=refs,
    )


def _link_untitled(
    tables: list[DocTable],
    sections: list[_Section],
    members: list[list[int]],
    links: dict[tuple[int, int], int],
) -> None:
    """Infer names and parents for body sections whose tables carry no titles."""
    inferred: dict[tuple[int, int], int] = {}
    for section, indices in zip(sections, members, strict=True):
        if section.side not in ("request", "response"):
            continue
        if not any(tables[i].name_inferred for i in indices):
            continue
        shapes = [_shape(tables[i]) for i in indices]
        for position, link in enumerate(infer_links(shapes, tables[indices[0]].name)):
            table = tables[indices[position]]
            if table.root:
                continue
            if table.name_inferred:
                table.name = link.name or ""
            for parent, field_index in link.parents:
                links[(indices[parent], field_index)] = table.index
                inferred[(indices[parent], field_index)] = table.index
    _restore_skipped_levels(tables, links, inferred)


def _columns(table: DocTable) -> frozenset[str]:
    return frozenset(f.name for f in table.fields)


def _restore_skipped_levels(
    tables: list[DocTable], links: dict[tuple[int, int], int], inferred: dict[tuple[int, int], int]
) -> None:
    """Re-insert a table a body skipped but another body of the page prints.

    The create page's response omits the ``volumes`` table ({nfs}) yet prints its ``nfs``
    table; the request prints both. When a reference to X got a table whose columns are those
    of the child of X elsewhere on the page (and not those of X), a copy of that X is put back
    between them, so the paths keep their level (``spec.volumes[].nfs.nfs_server_path``).
    """
    for (parent, field_index), target in list(inferred.items()):
        name = (tables[parent].fields[field_index].vendor_type.table_ref or "").lower()
        child = tables[target]
        for source in list(tables):
            if (
                source.name.lower() != name
                or (source.side, source.status) == (child.side, child.status)
                or _columns(source) == _columns(child)
            ):
                continue
            refs = [i for i, f in enumerate(source.fields) if f.vendor_type.table_ref]
            nested = [links.get((source.index, i)) for i in refs]
            if len(refs) != 1 or nested[0] is None:
                continue
            if _columns(tables[nested[0]]) != _columns(child):
                continue
            copy = DocTable(
                index=len(tables),
                label=source.label,
                name=source.name,
                name_inferred=source.name_inferred,
                side=child.side,
                status=child.status,
                root=False,
                line=source.line,
                fields=source.fields,
                borrowed_from=source.index,
            )
            tables.append(copy)
            links[(parent, field_index)] = copy.index
            links[(copy.index, refs[0])] = target
            child.used_by.append((copy.index, refs[0]))
            if child.name_inferred:
                child.name = tables[nested[0]].name
            break


def _template_names(path: str) -> set[str]:
    return set(re.findall(r"\{([^}]+)\}", path))


def _expand(
    tables: list[DocTable], links: dict[tuple[int, int], int], path_names: set[str]
) -> tuple[list[FieldEntry], list[str]]:
    entries: list[FieldEntry] = []
    cycles: list[str] = []

    def walk(table: DocTable, prefix: str, stack: tuple[int, ...]) -> None:
        for fi, doc_field in enumerate(table.fields):
            path = prefix + doc_field.name
            side = table.side
            if side == "path" and doc_field.name not in path_names:
                side = "query"  # an untitled URI table lists query parameters too
            entries.append(FieldEntry(path, side, table.status, table, doc_field))
            target = links.get((table.index, fi))
            if target is None:
                continue
            if target in stack:
                cycles.append(f"{path} -> {tables[target].label}")
                continue
            marker = "[]" * doc_field.vendor_type.array_depth
            walk(tables[target], f"{path}{marker}.", (*stack, target))

    for table in tables:
        if table.root:
            walk(table, "", (table.index,))
    return entries, cycles


def _status_codes(
    page: RawPage, status_table: RawTable | None, sections: list[_Section]
) -> list[StatusCode]:
    codes: dict[int, StatusCode] = {}
    if status_table is not None:
        for row in status_table.rows:
            values = dict(zip(status_table.columns, row.cells, strict=True))
            code = values.get("status", "").strip()
            if not code.isdigit():
                raise PageError(page.source, row.line, f"status code {code!r} is not a number")
            codes[int(code)] = StatusCode(int(code), values.get("description", ""), row.line)
    for section in sections:
        if section.status is not None and section.status not in codes:
            first = section.tables[0][0]
            codes[section.status] = StatusCode(section.status, "", first.line)
    return sorted(codes.values(), key=lambda s: s.code)
