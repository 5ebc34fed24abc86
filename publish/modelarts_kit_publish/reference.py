"""The static HTML reference: a view model built in Python, rendered by one Jinja2 template.

Everything the page shows is computed here (types, links, constraints, error codes); the
template only loops and escapes. The page is self-contained: CSS and JS are inlined from
this package's ``assets/``, nothing is fetched from the network.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from importlib.resources import files

import jinja2
from modelarts_kit_spec.ledger import LedgerEntry
from modelarts_kit_spec.load import JSON, Operation, Spec, unescape_pointer_token

from modelarts_kit_publish.changelog import Block, Inline, changelog_blocks

__all__ = ["Page", "build_page", "render_page"]

ERROR_CODE = re.compile(r"ModelArts\.\d{3,5}")
CODE_SPAN = re.compile(r"`([^`]*)`")


@dataclass(frozen=True)
class TypePart:
    text: str
    anchor: str | None = None


@dataclass(frozen=True)
class FieldRow:
    anchor: str
    name: str
    depth: int
    type: tuple[TypePart, ...]
    required: bool
    description: tuple[Inline, ...]
    constraints: tuple[str, ...]


@dataclass(frozen=True)
class ExampleView:
    name: str
    summary: str
    body: str


@dataclass(frozen=True)
class BodyView:
    required: bool
    type: tuple[TypePart, ...]
    rows: tuple[FieldRow, ...]
    examples: tuple[ExampleView, ...]


@dataclass(frozen=True)
class ParameterView:
    name: str
    location: str
    required: bool
    type: tuple[TypePart, ...]
    description: tuple[Inline, ...]
    constraints: tuple[str, ...]


@dataclass(frozen=True)
class LinkView:
    name: str
    target: str
    anchor: str | None
    description: str


@dataclass(frozen=True)
class ResponseView:
    anchor: str
    status: str
    description: tuple[Inline, ...]
    body: BodyView | None
    headers: tuple[ParameterView, ...]
    error_codes: tuple[str, ...]
    links: tuple[LinkView, ...]


@dataclass(frozen=True)
class OperationView:
    anchor: str
    operation_id: str
    method: str
    path: str
    summary: str
    description: tuple[Inline, ...]
    security: tuple[str, ...]
    parameters: tuple[ParameterView, ...]
    request: BodyView | None
    responses: tuple[ResponseView, ...]


@dataclass(frozen=True)
class SchemaSection:
    anchor: str
    name: str
    description: tuple[Inline, ...]
    type: tuple[TypePart, ...]
    constraints: tuple[str, ...]
    variants: tuple[tuple[str, tuple[TypePart, ...]], ...]
    rows: tuple[FieldRow, ...]
    examples: tuple[ExampleView, ...]
    used_by: tuple[TypePart, ...]


@dataclass(frozen=True)
class ErrorCodeView:
    code: str
    statuses: tuple[str, ...]
    operations: tuple[TypePart, ...]
    message: str


@dataclass(frozen=True)
class LedgerView:
    anchor: str
    entry_id: str
    field: str
    kind: str
    side: str
    operations: tuple[TypePart, ...]
    pointer: str
    pointer_anchor: str | None
    sources: tuple[str, ...]
    decision: str
    reason: str


@dataclass(frozen=True)
class Page:
    title: str
    version: str
    summary: str
    description: tuple[Inline, ...]
    sha256: str
    operations: tuple[OperationView, ...]
    schemas: tuple[SchemaSection, ...]
    error_codes: tuple[ErrorCodeView, ...]
    ledger: tuple[LedgerView, ...]
    changelog: tuple[Block, ...]
    css: str
    js: str


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-") or "x"


@dataclass
class Anchors:
    """Unique element ids, so every internal link has exactly one target."""

    taken: set[str] = field(default_factory=set)

    def new(self, *parts: str) -> str:
        base = "-".join(_slug(p) for p in parts)
        candidate, counter = base, 2
        while candidate in self.taken:
            candidate, counter = f"{base}-{counter}", counter + 1
        self.taken.add(candidate)
        return candidate


def _inline(text: str) -> tuple[Inline, ...]:
    """Prose with `code` spans; single line breaks (YAML folding) join, blank lines stay."""
    text = re.sub(r"(?<!\n)\n(?!\n)", " ", text.strip())
    parts: list[Inline] = []
    position = 0
    for match in CODE_SPAN.finditer(text):
        if match.start() > position:
            parts.append(Inline("text", text[position : match.start()]))
        parts.append(Inline("code", match.group(1)))
        position = match.end()
    if position < len(text):
        parts.append(Inline("text", text[position:]))
    return tuple(parts)


def _pretty(value: JSON) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


def _scalar(value: JSON) -> str:
    return json.dumps(value, ensure_ascii=False)


class PageBuilder:
    """Walks the spec once and produces the :class:`Page` view model."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.anchors = Anchors()
        for section in ("operations", "schemas", "errors", "ledger", "changelog", "top"):
            self.anchors.new(section)
        components = self.spec.document.get("components") or {}
        self.schema_names: list[str] = list(components.get("schemas") or {})
        self.schema_anchor = {name: self.anchors.new("schema", name) for name in self.schema_names}
        self.op_anchor = {
            op.operation_id: self.anchors.new("op", op.operation_id) for op in spec.operations
        }
        self.used_by: dict[str, list[str]] = {name: [] for name in self.schema_names}
        self.row_anchors: set[str] = set()

    # ---- types and fields

    def _component(self, ref: str) -> str | None:
        prefix = "#/components/schemas/"
        if not ref.startswith(prefix):
            return None
        return unescape_pointer_token(ref[len(prefix) :].split("/")[0])

    def type_parts(self, schema: JSON) -> tuple[TypePart, ...]:
        if not isinstance(schema, Mapping):
            return (TypePart("any" if schema is True or schema is None else "never"),)
        ref = schema.get("$ref")
        if isinstance(ref, str):
            name = self._component(ref)
            if name is not None and name in self.schema_anchor:
                return (TypePart(name, self.schema_anchor[name]),)
            return self.type_parts(self.spec.deref(schema))
        for keyword, joiner in (("oneOf", " | "), ("anyOf", " | "), ("allOf", " & ")):
            members = schema.get(keyword)
            if isinstance(members, list) and members:
                parts: list[TypePart] = []
                for index, member in enumerate(members):
                    if index:
                        parts.append(TypePart(joiner))
                    parts.extend(self.type_parts(member))
                return tuple(parts)
        raw = schema.get("type")
        types = [raw] if isinstance(raw, str) else list(raw) if isinstance(raw, list) else []
        if not types:
            return (TypePart("object" if "properties" in schema else "any"),)
        out: list[TypePart] = []
        for index, kind in enumerate(types):
            if index:
                out.append(TypePart(" | "))
            if kind == "array":
                out.append(TypePart("array of "))
                out.extend(self.type_parts(schema.get("items", True)))
            elif kind == "object" and isinstance(schema.get("additionalProperties"), Mapping):
                if "properties" in schema:
                    out.append(TypePart("object"))
                else:
                    out.append(TypePart("map of "))
                    out.extend(self.type_parts(schema["additionalProperties"]))
            else:
                fmt = schema.get("format")
                out.append(TypePart(f"{kind} ({fmt})" if fmt and kind != "null" else str(kind)))
        return tuple(out)

    @staticmethod
    def constraints(schema: JSON) -> tuple[str, ...]:
        if not isinstance(schema, Mapping):
            return ()
        notes: list[str] = []
        if isinstance(schema.get("enum"), list):
            notes.append("one of: " + ", ".join(_scalar(v) for v in schema["enum"]))
        if "const" in schema:
            notes.append(f"always {_scalar(schema['const'])}")
        for keyword in (
            "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf",
            "minLength", "maxLength", "pattern", "minItems", "maxItems", "uniqueItems",
            "minProperties", "maxProperties", "default",
        ):  # fmt: skip
            if keyword == "pattern" and isinstance(schema.get(keyword), str):
                notes.append(f"pattern: {schema[keyword]}")  # a regex reads best unquoted
            elif keyword in schema:
                notes.append(f"{keyword}: {_scalar(schema[keyword])}")
        for flag in ("readOnly", "writeOnly", "deprecated"):
            if schema.get(flag) is True:
                notes.append(flag)
        if schema.get("additionalProperties") is False:
            notes.append("no other properties")
        return tuple(notes)

    def _properties(self, schema: Mapping[str, JSON]) -> tuple[dict[str, JSON], set[str]]:
        """Properties and required names of a schema and of its inline allOf members."""
        properties: dict[str, JSON] = dict(schema.get("properties") or {})
        required = set(schema.get("required") or [])
        for member in schema.get("allOf") or []:
            if isinstance(member, Mapping) and "$ref" not in member:
                inner, inner_required = self._properties(member)
                properties.update(inner)
                required |= inner_required
        return properties, required

    def rows(self, schema: JSON, owner: str, prefix: str = "", depth: int = 0) -> list[FieldRow]:
        """One row per property; inline objects (not $refs) are expanded beneath their row."""
        if not isinstance(schema, Mapping) or "$ref" in schema or depth > 8:
            return []
        properties, required = self._properties(schema)
        out: list[FieldRow] = []
        for name, prop in properties.items():
            path = f"{prefix}{name}"
            anchor = self.anchors.new(owner, path)
            self.row_anchors.add(anchor)
            resolved = self.spec.deref(prop) if isinstance(prop, Mapping) else prop
            description = ""
            if isinstance(prop, Mapping):
                description = str(prop.get("description") or resolved.get("description") or "")
            out.append(
                FieldRow(
                    anchor=anchor,
                    name=path,
                    depth=depth,
                    type=self.type_parts(prop),
                    required=name in required,
                    description=_inline(description),
                    constraints=self.constraints(resolved if isinstance(prop, Mapping) else {}),
                )
            )
            if isinstance(prop, Mapping) and "$ref" not in prop:
                out.extend(self.rows(prop, owner, f"{path}.", depth + 1))
                items = prop.get("items")
                if isinstance(items, Mapping) and "$ref" not in items:
                    out.extend(self.rows(items, owner, f"{path}[].", depth + 1))
        return out

    # ---- operations

    def _examples(self, holder: Mapping[str, JSON]) -> tuple[ExampleView, ...]:
        out: list[ExampleView] = []
        if "example" in holder:
            out.append(ExampleView("example", "", _pretty(holder["example"])))
        for name, example in (holder.get("examples") or {}).items():
            resolved = self.spec.deref(example)
            if isinstance(resolved, Mapping) and "value" in resolved:
                summary = str(resolved.get("summary") or resolved.get("description") or "")
                out.append(ExampleView(str(name), summary, _pretty(resolved["value"])))
        return tuple(out)

    def _body(self, holder: JSON, required: bool, owner: str, op_id: str) -> BodyView | None:
        holder = self.spec.deref(holder) if holder is not None else None
        if not isinstance(holder, Mapping):
            return None
        media = (holder.get("content") or {}).get("application/json")
        if not isinstance(media, Mapping):
            return None
        schema = media.get("schema")
        self._note_usage(schema, op_id)
        return BodyView(
            required=required,
            type=self.type_parts(schema),
            rows=tuple(self.rows(schema, owner)),
            examples=self._examples(media),
        )

    def _note_usage(self, schema: JSON, op_id: str) -> None:
        if isinstance(schema, Mapping) and isinstance(schema.get("$ref"), str):
            name = self._component(schema["$ref"])
            if name in self.used_by and op_id not in self.used_by[name]:
                self.used_by[name].append(op_id)

    def _parameter(self, name: str, location: str, required: bool, raw: JSON) -> ParameterView:
        raw = self.spec.deref(raw) if isinstance(raw, Mapping) else {}
        schema = raw.get("schema", {})
        return ParameterView(
            name=name,
            location=location,
            required=required,
            type=self.type_parts(schema),
            description=_inline(str(raw.get("description") or "")),
            constraints=self.constraints(self.spec.deref(schema)),
        )

    def _error_codes(self, response: Mapping[str, JSON]) -> tuple[str, ...]:
        found = ERROR_CODE.findall(str(response.get("description") or ""))
        media = (response.get("content") or {}).get("application/json") or {}
        for example in self._examples(media):
            found.extend(ERROR_CODE.findall(example.body))
        return tuple(dict.fromkeys(found))

    def operation(self, op: Operation) -> OperationView:
        raw = self.spec.at(op.pointer)
        anchor = self.op_anchor[op.operation_id]
        parameters = tuple(
            self._parameter(
                p.name, p.location, p.required, self._raw_parameter(raw, op, p.name, p.location)
            )
            for p in op.parameters
        )
        request = self._body(
            raw.get("requestBody"), op.request_required, f"{anchor}-request", op.operation_id
        )
        responses: list[ResponseView] = []
        for response in op.responses:
            resolved = self.spec.deref(self.spec.at(response.pointer))
            response_anchor = self.anchors.new(anchor, response.status)
            headers = tuple(
                self._parameter(name, "header", bool(header.get("required")), header)
                for name, header in response.headers.items()
            )
            links = tuple(
                self._link(name, link) for name, link in (resolved.get("links") or {}).items()
            )
            responses.append(
                ResponseView(
                    anchor=response_anchor,
                    status=response.status,
                    description=_inline(response.description),
                    body=self._body(resolved, False, response_anchor, op.operation_id),
                    headers=headers,
                    error_codes=()
                    if response.status.startswith("2")
                    else self._error_codes(resolved),
                    links=links,
                )
            )
        security = raw.get("security", self.spec.document.get("security") or [])
        return OperationView(
            anchor=anchor,
            operation_id=op.operation_id,
            method=op.method.upper(),
            path=op.path,
            summary=op.summary,
            description=_inline(op.description),
            security=tuple(" + ".join(req) or "none" for req in security),
            parameters=parameters,
            request=request,
            responses=tuple(responses),
        )

    def _raw_parameter(
        self, raw_op: Mapping[str, JSON], op: Operation, name: str, location: str
    ) -> JSON:
        path_item = self.spec.at(op.pointer.rsplit("/", 1)[0])
        for candidate in [*(raw_op.get("parameters") or []), *(path_item.get("parameters") or [])]:
            resolved = self.spec.deref(candidate)
            if resolved.get("name") == name and resolved.get("in") == location:
                return resolved
        return {}

    def _link(self, name: str, link: JSON) -> LinkView:
        link = self.spec.deref(link)
        target = str(link.get("operationId") or link.get("operationRef") or "")
        return LinkView(
            name, target, self.op_anchor.get(target), str(link.get("description") or "")
        )

    # ---- schemas, errors, ledger

    def schema(self, name: str) -> SchemaSection:
        schema = self.spec.schemas[name]
        anchor = self.schema_anchor[name]
        variants: list[tuple[str, tuple[TypePart, ...]]] = []
        for keyword in ("oneOf", "anyOf", "allOf"):
            for member in schema.get(keyword) or []:
                variants.append((keyword, self.type_parts(member)))
        examples = tuple(
            ExampleView(f"example {index + 1}", "", _pretty(value))
            for index, value in enumerate(schema.get("examples") or [])
        )
        return SchemaSection(
            anchor=anchor,
            name=name,
            description=_inline(str(schema.get("description") or "")),
            type=self.type_parts(
                {k: v for k, v in schema.items() if k not in ("oneOf", "anyOf", "allOf")}
            ),
            constraints=self.constraints(schema),
            variants=tuple(variants),
            rows=tuple(self.rows(schema, anchor)),
            examples=examples,
            used_by=(),
        )

    def error_codes(self, operations: Iterable[OperationView]) -> tuple[ErrorCodeView, ...]:
        statuses: dict[str, list[str]] = {}
        users: dict[str, list[OperationView]] = {}
        messages: dict[str, str] = {}
        for view in operations:
            for response in view.responses:
                for code in response.error_codes:
                    statuses.setdefault(code, [])
                    if response.status not in statuses[code]:
                        statuses[code].append(response.status)
                    users.setdefault(code, [])
                    if view not in users[code]:
                        users[code].append(view)
                for example in response.body.examples if response.body else ():
                    value = json.loads(example.body)
                    if isinstance(value, Mapping) and isinstance(value.get("error_code"), str):
                        messages.setdefault(value["error_code"], str(value.get("error_msg") or ""))
        return tuple(
            ErrorCodeView(
                code=code,
                statuses=tuple(statuses[code]),
                operations=tuple(TypePart(v.operation_id, v.anchor) for v in users[code]),
                message=messages.get(code, ""),
            )
            for code in sorted(statuses, key=lambda c: int(c.split(".")[1]))
        )

    def pointer_anchor(self, pointer: str) -> str | None:
        """The most precise element a ledger pointer can link to."""
        tokens = [
            unescape_pointer_token(t) for t in pointer.removeprefix("#").strip("/").split("/")
        ]
        if (
            tokens[:2] == ["components", "schemas"]
            and len(tokens) > 2
            and tokens[2] in self.schema_anchor
        ):
            anchor = self.schema_anchor[tokens[2]]
            path: list[str] = []
            rest = tokens[3:]
            while len(rest) >= 2 and rest[0] == "properties":
                path.append(rest[1])
                rest = rest[2:]
                if rest[:1] == ["items"]:
                    path[-1] += "[]"
                    rest = rest[1:]
            field_anchor = "-".join([anchor, _slug(".".join(path))]) if path else None
            return field_anchor if field_anchor in self.row_anchors else anchor
        for op in self.spec.operations:
            if pointer.removeprefix("#").startswith(op.pointer):
                return self.op_anchor[op.operation_id]
        return None

    def ledger(self, entries: Iterable[LedgerEntry]) -> tuple[LedgerView, ...]:
        out: list[LedgerView] = []
        for entry in entries:
            sources = tuple(
                " · ".join(
                    str(part)
                    for part in (source.seed or source.label, source.table, source.says)
                    if part is not None
                )
                for source in entry.sources
            )
            operations = tuple(
                TypePart(op_id, self.op_anchor.get(op_id)) for op_id in entry.operations or ()
            )
            pointer = entry.pointer or ""
            out.append(
                LedgerView(
                    anchor=self.anchors.new("ledger", entry.id),
                    entry_id=entry.id,
                    field=entry.field,
                    kind=entry.kind,
                    side=entry.side,
                    operations=operations,
                    pointer=pointer,
                    pointer_anchor=self.pointer_anchor(pointer),
                    sources=sources,
                    decision=entry.decision,
                    reason=entry.reason,
                )
            )
        return tuple(out)


def _asset(name: str) -> str:
    return files("modelarts_kit_publish").joinpath("assets", name).read_text(encoding="utf-8")


def build_page(
    spec: Spec, ledger: Iterable[LedgerEntry], changelog_markdown: str, sha256: str
) -> Page:
    builder = PageBuilder(spec)
    operations = tuple(builder.operation(op) for op in spec.operations)
    schemas = tuple(builder.schema(name) for name in builder.schema_names)
    schemas = tuple(
        # "Used by" is known only once every operation has been walked.
        replace(
            s, used_by=tuple(TypePart(op, builder.op_anchor[op]) for op in builder.used_by[s.name])
        )
        for s in schemas
    )
    info = spec.document.get("info") or {}
    return Page(
        title=spec.title,
        version=spec.version,
        summary=str(info.get("summary") or ""),
        description=_inline(str(info.get("description") or "")),
        sha256=sha256,
        operations=operations,
        schemas=schemas,
        error_codes=builder.error_codes(operations),
        ledger=builder.ledger(ledger),
        changelog=tuple(changelog_blocks(changelog_markdown)),
        css=_asset("reference.css"),
        js=_asset("reference.js"),
    )


def render_page(page: Page) -> str:
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("modelarts_kit_publish", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    return environment.get_template("reference.html.j2").render(page=page)
