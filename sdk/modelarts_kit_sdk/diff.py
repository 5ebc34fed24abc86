"""``sdk diff``: the spec against the SDK's models of the spec's operations.

Both sides are walked together from each operation's roots (the request body, the path,
query and header parameters, and the success response), so every finding has the SDK class
and attribute on one side and the spec's JSON pointer on the other:

* ``sdk-only`` -- the SDK model has a field the spec's schema lacks (the topmost one: the
  fields of a missing object are implied);
* ``spec-only`` -- the spec's schema has a field the SDK model lacks;
* ``type`` -- the SDK type, mapped to JSON Schema, is not a type the spec allows (the walk
  does not go below a mismatch); integer against string is flagged.

A field of a shared schema is one finding, listing every path that reaches it. A finding is
reconciled when every one of its occurrences is settled by a ledger entry
(:mod:`modelarts_kit_sdk.evidence`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal

from modelarts_kit_spec import Operation, Spec, ledger_for, load_spec
from modelarts_kit_spec.load import pointer_join
from modelarts_kit_wire.records import JsonField, JsonRecord

from modelarts_kit_sdk.evidence import SdkEvidence, load_sdk_evidence
from modelarts_kit_sdk.models import (
    MAX_MODEL_DEPTH,
    SdkAttribute,
    SdkModels,
    SdkType,
    operation_model_names,
    operation_roots,
    too_deep,
)
from modelarts_kit_sdk.schema import SchemaShape, describe_types, view
from modelarts_kit_sdk.sources import SdkSource

__all__ = [
    "ABSENT",
    "FindingKind",
    "MissingModels",
    "Occurrence",
    "SchemaDrift",
    "SdkDiffReport",
    "SdkFinding",
    "diff_sdk",
    "find_drift",
    "operations_without_models",
]

FindingKind = Literal["sdk-only", "spec-only", "type"]
LEDGER_KIND: dict[FindingKind, str] = {
    "sdk-only": "presence",
    "spec-only": "presence",
    "type": "type",
}
ABSENT = "absent"


@dataclass(frozen=True)
class Occurrence(JsonRecord):
    """One path at which a finding shows, with what each side says there."""

    operation: str
    side: str  # request | response | parameter
    path: str
    model: str  # the SDK class (that has the field, or that lacks it)
    attribute: str  # its attribute (the wire name when the SDK lacks the field)
    says: str  # the SDK's type expression, or "absent"
    spec: str  # the spec's JSON type(s), or "absent"
    pointer: str  # where the field is (or would be) in the spec

    json_fields: ClassVar[tuple[JsonField, ...]] = (
        "operation",
        "side",
        "path",
        "model",
        "attribute",
        ("sdk", "says"),
        "spec",
        "pointer",
    )


@dataclass(frozen=True)
class SdkFinding(JsonRecord):
    kind: FindingKind
    schema: str  # JSON pointer of the spec schema that declares (or lacks) the field
    field: str  # the wire name
    occurrences: tuple[Occurrence, ...]

    json_fields: ClassVar[tuple[JsonField, ...]] = (
        "kind",
        "schema",
        "field",
        "pointer",
        "sides",
        "integer_vs_string",
        "action",
        "occurrences",
    )

    @property
    def sides(self) -> frozenset[str]:
        return frozenset("request" if o.side == "parameter" else o.side for o in self.occurrences)

    @property
    def pointer(self) -> str:
        return self.occurrences[0].pointer

    @property
    def integer_vs_string(self) -> bool:
        if self.kind != "type":
            return False
        pairs = {(_json_of(o.says), o.spec) for o in self.occurrences}
        return any({a, b} == {"integer", "string"} for a, b in pairs)

    @property
    def action(self) -> str:
        first = self.occurrences[0]
        where = f"{first.model}.{first.attribute}"
        if self.kind == "sdk-only" and self.sides == {"response"}:
            return (
                f"add {self.field!r} to {self.schema} as an optional property "
                f"({_json_of(first.says)}) whose description cites the SDK ({where}), or record "
                "in the ledger why it stays out"
            )
        if self.kind == "sdk-only":
            return (
                f"if a page documents {self.field!r}, add it to {self.schema}; otherwise record "
                f"in the ledger that it stays out (kind presence, sdk source {where}: "
                f"{first.says})"
            )
        if self.kind == "spec-only":
            return (
                f"the SDK's {first.model} has no {self.field!r}: keep it if a page documents it "
                f"and record the SDK's silence in the ledger (kind presence, says: {ABSENT}), or "
                f"remove {self.pointer}"
            )
        note = " (integer vs string: check the examples)" if self.integer_vs_string else ""
        return (
            f"decide the type from the pages and examples{note}: change {self.pointer}, or "
            f"record in the ledger why the spec's type stands (kind type, says: {first.says})"
        )


def _json_of(says: str) -> str:
    """The JSON type an SDK type expression stands for (for messages and flags)."""
    from modelarts_kit_sdk.models import SCALARS

    scalar = SCALARS.get(says)
    if scalar is not None:
        return scalar[0]
    if says.startswith("list["):
        return "array"
    if says == "object":
        return "any"
    return ABSENT if says == ABSENT else "object"


@dataclass(frozen=True)
class MissingModels:
    """An operation of the spec the SDK release has no model for."""

    operation: str
    models: tuple[str, str]  # the request and response classes looked for

    @property
    def note(self) -> str:
        request, response = self.models
        return f"no SDK model: the SDK has no {request} or {response}; not compared"


def operations_without_models(spec: Spec, models: SdkModels) -> list[MissingModels]:
    """The spec's operations for which the release declares neither model class."""
    out: list[MissingModels] = []
    for op in spec.operations:
        names = operation_model_names(op.operation_id)
        if not any(name in models for name in names):
            out.append(MissingModels(op.operation_id, names))
    return out


@dataclass
class SchemaDrift:
    schema: str
    findings: list[SdkFinding] = field(default_factory=list)
    reconciled: list[tuple[SdkFinding, tuple[str, ...]]] = field(default_factory=list)


@dataclass
class SdkDiffReport:
    sdk: str  # "huaweicloudsdkmodelarts 3.1.219"
    sdk_version: str
    origin: str
    spec: str
    schemas: list[SchemaDrift]
    fields_compared: int
    # Operations of the spec the release has no model class for (neither request nor
    # response): not compared, and said so, not a finding.
    without_models: list[MissingModels] = field(default_factory=list)

    @property
    def unreconciled_count(self) -> int:
        return sum(len(s.findings) for s in self.schemas)

    @property
    def reconciled_count(self) -> int:
        return sum(len(s.reconciled) for s in self.schemas)


# --- the walk --------------------------------------------------------------------------------


class _Walk:
    def __init__(self, spec: Spec, models: SdkModels) -> None:
        self.spec = spec
        self.models = models
        self.found: dict[tuple[FindingKind, str, str], list[Occurrence]] = {}
        self.compared = 0

    def emit(self, kind: FindingKind, schema: str, name: str, occurrence: Occurrence) -> None:
        bucket = self.found.setdefault((kind, schema, name), [])
        if occurrence not in bucket:
            bucket.append(occurrence)

    def operation(self, op: Operation) -> None:
        parameters = dict(_parameter_pointers(self.spec, op))
        sdk_parameters: set[str] = set()
        for side, attr in operation_roots(self.models, op.operation_id):
            if side == "request":
                if op.request_schema is None:
                    self._absent(op, side, attr, "", f"{op.pointer}/requestBody", attr.wire)
                else:
                    pointer = f"{op.pointer}/requestBody/content/application~1json/schema"
                    self.value(
                        op.operation_id, side, attr, attr.type, op.request_schema, pointer, ""
                    )
            elif side == "parameter":
                sdk_parameters.add(attr.wire)
                found = parameters.get(attr.wire)
                if found is None:
                    self._absent(op, side, attr, attr.wire, f"{op.pointer}/parameters", attr.wire)
                else:
                    schema, pointer = found
                    self.value(
                        op.operation_id,
                        side,
                        attr,
                        attr.type,
                        schema,
                        f"{pointer}/schema",
                        attr.wire,
                    )
        request_class, response_class = operation_model_names(op.operation_id)
        for name, (_, pointer) in parameters.items():
            if name not in sdk_parameters and request_class in self.models:
                occurrence = Occurrence(
                    op.operation_id,
                    "parameter",
                    name,
                    request_class,
                    name,
                    ABSENT,
                    "parameter",
                    pointer,
                )
                self.emit("spec-only", pointer, name, occurrence)
        success = op.success
        if response_class in self.models and success.schema is not None:
            pointer = f"{success.pointer}/content/application~1json/schema"
            self.model(op.operation_id, "response", response_class, success.schema, pointer, "", ())

    def _absent(
        self, op: Operation, side: str, attr: SdkAttribute, path: str, where: str, name: str
    ) -> None:
        self.emit(
            "sdk-only",
            where,
            name,
            Occurrence(
                op.operation_id,
                side,
                path or name,
                attr.model,
                attr.attribute,
                attr.type.raw,
                ABSENT,
                where,
            ),
        )

    def value(
        self,
        operation: str,
        side: str,
        attr: SdkAttribute,
        sdk_type: SdkType,
        node: Any,
        pointer: str,
        path: str,
        stack: tuple[tuple[str, str], ...] = (),
    ) -> None:
        """Compare one SDK type with the spec node at ``pointer``, then what lies below."""
        self.compared += 1
        seen = view(self.spec, node, pointer)
        if not _agrees(sdk_type, seen):
            self.emit(
                "type",
                _owner(pointer),
                attr.wire,
                Occurrence(
                    operation,
                    side,
                    path or attr.wire,
                    attr.model,
                    attr.attribute,
                    attr.type.raw,
                    describe_types(seen.types),
                    pointer,
                ),
            )
            return
        if sdk_type.kind == "model" and sdk_type.model is not None:
            self.model(operation, side, sdk_type.model, node, pointer, path, stack)
        elif sdk_type.kind == "list" and sdk_type.item is not None and seen.items is not None:
            items, items_pointer = seen.items
            self.value(
                operation, side, attr, sdk_type.item, items, items_pointer, f"{path}[]", stack
            )
        elif sdk_type.kind == "dict" and sdk_type.item is not None and seen.values is not None:
            values, values_pointer = seen.values
            self.value(
                operation, side, attr, sdk_type.item, values, values_pointer, f"{path}{{}}", stack
            )

    def model(
        self,
        operation: str,
        side: str,
        model_name: str,
        node: Any,
        pointer: str,
        path: str,
        stack: tuple[tuple[str, str], ...],
    ) -> None:
        seen = view(self.spec, node, pointer)
        key = (model_name, seen.pointer)
        if key in stack:
            return
        if len(stack) >= MAX_MODEL_DEPTH:  # distinct models under a recursive spec schema
            raise too_deep(
                self.models.source.where, operation, (*(name for name, _ in stack), model_name)
            )
        stack = (*stack, key)
        model = self.models.get(model_name)
        prefix = f"{path}." if path else ""
        wires = set()
        for attr in model.attributes:
            wires.add(attr.wire)
            child = prefix + attr.wire
            entry = seen.properties.get(attr.wire)
            if entry is None:
                self.emit(
                    "sdk-only",
                    seen.pointer,
                    attr.wire,
                    Occurrence(
                        operation,
                        side,
                        child,
                        model_name,
                        attr.attribute,
                        attr.type.raw,
                        ABSENT,
                        pointer_join(seen.pointer, "properties", attr.wire),
                    ),
                )
                continue
            sub, sub_pointer = entry
            self.value(operation, side, attr, attr.type, sub, sub_pointer, child, stack)
        for name, (sub, sub_pointer) in seen.properties.items():
            if name in wires:
                continue
            self.emit(
                "spec-only",
                _owner(sub_pointer),
                name,
                Occurrence(
                    operation,
                    side,
                    prefix + name,
                    model_name,
                    name,
                    ABSENT,
                    describe_types(view(self.spec, sub, sub_pointer).types),
                    sub_pointer,
                ),
            )


def _owner(pointer: str) -> str:
    """The schema that declares the property at ``pointer`` (or the pointer itself)."""
    head, sep, _ = pointer.rpartition("/properties/")
    return head if sep and "/" not in pointer[len(head) + len(sep) :] else pointer


def _agrees(sdk_type: SdkType, seen: SchemaShape) -> bool:
    if sdk_type.kind == "any" or not seen.types:
        return True
    return sdk_type.json_type is not None and sdk_type.json_type in seen.types


def _parameter_pointers(spec: Spec, op: Operation) -> Iterator[tuple[str, tuple[Any, str]]]:
    """Each path/query/header parameter's schema and the pointer of the parameter."""
    path_item = op.pointer.rsplit("/", 1)[0]
    for base in (path_item, op.pointer):
        for index, raw in enumerate(spec.at(base).get("parameters") or []):
            pointer = pointer_join(base, "parameters", index)
            node = raw
            if isinstance(raw, Mapping) and "$ref" in raw:
                pointer = str(raw["$ref"]).removeprefix("#")
                node = spec.deref(raw)
            if node.get("in") in ("path", "query", "header"):
                yield str(node["name"]), (node.get("schema", {}), pointer)


# --- the report ------------------------------------------------------------------------------


def find_drift(spec: Spec, models: SdkModels) -> tuple[list[SdkFinding], int]:
    """Every finding between the spec and one SDK release, in a stable order."""
    walk = _Walk(spec, models)
    for op in spec.operations:
        walk.operation(op)
    findings = [
        SdkFinding(kind, schema, name, tuple(occurrences))
        for (kind, schema, name), occurrences in walk.found.items()
    ]
    findings.sort(key=lambda f: (f.schema, f.field, f.kind))
    return findings, walk.compared


def _settled_by(finding: SdkFinding, evidence: list[SdkEvidence]) -> tuple[str, ...] | None:
    kind = LEDGER_KIND[finding.kind]
    entries: list[str] = []
    for o in finding.occurrences:
        match = next(
            (e for e in evidence if e.settles(kind, o.side, o.model, o.attribute, o.says)), None
        )
        if match is None:
            return None
        if match.entry not in entries:
            entries.append(match.entry)
    return tuple(entries)


def diff_sdk(
    source: SdkSource,
    spec_path: Path | None = None,
    ledger_path: Path | None = None,
) -> SdkDiffReport:
    """Compare the spec with one SDK release and set aside what the ledger settles."""
    spec = load_spec(spec_path)
    if ledger_path is None:
        ledger_path = ledger_for(spec_path)
    evidence = [] if ledger_path is None else load_sdk_evidence(ledger_path)
    models = SdkModels(source)
    findings, compared = find_drift(spec, models)
    groups: dict[str, SchemaDrift] = {}
    for finding in findings:
        group = groups.setdefault(finding.schema, SchemaDrift(finding.schema))
        entries = _settled_by(finding, evidence)
        if entries is None:
            group.findings.append(finding)
        else:
            group.reconciled.append((finding, entries))
    return SdkDiffReport(
        sdk=source.label,
        sdk_version=source.version,
        origin=source.origin,
        spec=str(spec.path),
        schemas=sorted(groups.values(), key=lambda g: g.schema),
        fields_compared=compared,
        without_models=operations_without_models(spec, models),
    )
