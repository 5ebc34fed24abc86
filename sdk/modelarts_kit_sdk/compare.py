"""``sdk compare OLD NEW``: what the vendor changed in the operations' models between releases.

Fields are matched by operation, side and wire path (a renamed model class with the same
fields is no change on the wire). A type change is a change of the JSON type the SDK type maps
to (``str`` -> ``int``, ``list[str]`` -> ``str``), not of the model's class name.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import ClassVar

from modelarts_kit_wire.records import JsonField, JsonRecord

from modelarts_kit_sdk.models import (
    SdkField,
    SdkModels,
    SdkType,
    operation_model_names,
    walk_fields,
)
from modelarts_kit_sdk.sources import SdkSource

__all__ = ["CompareReport", "FieldChange", "OperationChanges", "compare_sdks", "wire_shape"]


def wire_shape(sdk_type: SdkType) -> str:
    """What a type means on the wire: ``array<object>`` for ``list[Input]``."""
    if sdk_type.kind == "list" and sdk_type.item is not None:
        return f"array<{wire_shape(sdk_type.item)}>"
    if sdk_type.kind == "dict" and sdk_type.item is not None:
        return f"map<{wire_shape(sdk_type.item)}>"
    if sdk_type.kind == "any":
        return "any"
    return sdk_type.json_type or sdk_type.raw


@dataclass(frozen=True)
class FieldChange(JsonRecord):
    operation: str
    side: str
    path: str
    old_sdk: str | None  # "Model.attribute: type" in the old release
    new_sdk: str | None
    nested: int = 0  # fields below this one, added or removed with it (not listed)

    json_fields: ClassVar[tuple[JsonField, ...]] = (
        "side",
        "path",
        ("old", "old_sdk"),
        ("new", "new_sdk"),
        "nested",
    )


@dataclass
class OperationChanges:
    operation: str
    old_fields: int
    new_fields: int
    added: list[FieldChange] = field(default_factory=list)
    removed: list[FieldChange] = field(default_factory=list)
    changed: list[FieldChange] = field(default_factory=list)
    # Whether each release has a model class of the operation (request or response).
    old_models: bool = True
    new_models: bool = True


@dataclass
class CompareReport:
    old: str
    old_origin: str
    new: str
    new_origin: str
    operations: list[OperationChanges]

    @property
    def change_count(self) -> int:
        return sum(len(o.added) + len(o.removed) + len(o.changed) for o in self.operations)


def _label(f: SdkField) -> str:
    return f"{f.attribute.model}.{f.attribute.attribute}: {f.attribute.type.raw}"


def _parent(path: str) -> str:
    head = path.rpartition(".")[0]
    while head.endswith(("[]", "{}")):
        head = head[:-2]
    return head


def _topmost(changes: list[FieldChange]) -> list[FieldChange]:
    """Only the topmost added (or removed) field of a subtree; the rest count as ``nested``."""
    paths = {(c.side, c.path) for c in changes}
    counts: dict[tuple[str, str], int] = {}
    top: list[FieldChange] = []
    for change in changes:
        ancestor, parent = None, _parent(change.path)
        while parent:
            if (change.side, parent) in paths:
                ancestor = parent
            parent = _parent(parent)
        if ancestor is None:
            top.append(change)
        else:
            key = (change.side, ancestor)
            counts[key] = counts.get(key, 0) + 1
    return [replace(c, nested=counts.get((c.side, c.path), 0)) for c in top]


def compare_sdks(old: SdkSource, new: SdkSource, operations: Iterable[str]) -> CompareReport:
    old_models, new_models = SdkModels(old), SdkModels(new)
    results: list[OperationChanges] = []
    for operation in operations:
        before = {(f.side, f.path): f for f in walk_fields(old_models, operation)}
        after = {(f.side, f.path): f for f in walk_fields(new_models, operation)}
        names = operation_model_names(operation)
        changes = OperationChanges(
            operation,
            len(before),
            len(after),
            old_models=any(name in old_models for name in names),
            new_models=any(name in new_models for name in names),
        )
        for key, f in after.items():
            was = before.get(key)
            if was is None:
                changes.added.append(FieldChange(operation, f.side, f.path, None, _label(f)))
            elif wire_shape(was.attribute.type) != wire_shape(f.attribute.type):
                changes.changed.append(
                    FieldChange(operation, f.side, f.path, _label(was), _label(f))
                )
        for key, f in before.items():
            if key not in after:
                changes.removed.append(FieldChange(operation, f.side, f.path, _label(f), None))
        changes.added = _topmost(changes.added)
        changes.removed = _topmost(changes.removed)
        results.append(changes)
    return CompareReport(old.label, old.origin, new.label, new.origin, results)
