"""The spec side: a schema node seen through ``$ref`` and ``allOf``/``anyOf``/``oneOf``.

Properties keep the JSON pointer of the schema that declares them, so a field of a shared
component (``/components/schemas/Input``) is one place however many paths reach it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from modelarts_kit_spec import Spec
from modelarts_kit_spec.load import json_type, pointer_join

__all__ = ["SchemaView", "describe_types", "view"]


@dataclass(frozen=True)
class SchemaView:
    pointer: str  # the schema node after following $refs
    types: frozenset[str]  # JSON types the node allows, null left out; empty = any
    properties: dict[str, tuple[Any, str]] = field(default_factory=dict)  # name -> (node, pointer)
    items: tuple[Any, str] | None = None
    values: tuple[Any, str] | None = None  # additionalProperties as a schema

    @property
    def is_object(self) -> bool:
        return not self.types or "object" in self.types


def describe_types(types: frozenset[str]) -> str:
    return " | ".join(sorted(types)) if types else "any"


def view(spec: Spec, node: Any, pointer: str) -> SchemaView:
    """Follow ``$ref``s and merge combinators into one view of the node at ``pointer``."""
    seen: set[str] = set()
    while isinstance(node, Mapping) and "$ref" in node:
        ref = str(node["$ref"])
        if ref in seen:
            break
        seen.add(ref)
        node = spec.at(ref)
        pointer = ref.removeprefix("#")
    if not isinstance(node, Mapping):
        return SchemaView(pointer, frozenset())
    types = _own_types(node)
    properties = {
        name: (sub, pointer_join(pointer, "properties", name))
        for name, sub in (node.get("properties") or {}).items()
    }
    items = (node["items"], pointer_join(pointer, "items")) if "items" in node else None
    extra = node.get("additionalProperties")
    values = (
        (extra, pointer_join(pointer, "additionalProperties"))
        if isinstance(extra, Mapping) and extra
        else None
    )
    alternative_types: set[str] = set()
    for combiner in ("allOf", "anyOf", "oneOf"):
        for index, part in enumerate(node.get(combiner) or []):
            sub = view(spec, part, pointer_join(pointer, combiner, index))
            for name, entry in sub.properties.items():
                properties.setdefault(name, entry)
            items = items or sub.items
            values = values or sub.values
            if combiner == "allOf":
                types = types & sub.types if types and sub.types else types or sub.types
            elif sub.types:
                alternative_types |= sub.types
            else:
                alternative_types.add("*")
    if alternative_types and "*" not in alternative_types and not types:
        types = frozenset(alternative_types)
    if not types and properties:
        types = frozenset({"object"})
    return SchemaView(pointer, types, properties, items, values)


def _own_types(node: Mapping[str, Any]) -> frozenset[str]:
    kind = node.get("type")
    if isinstance(kind, str):
        names = {kind}
    elif isinstance(kind, list):
        names = {str(k) for k in kind}
    elif isinstance(node.get("enum"), list):
        names = {json_type(v) for v in node["enum"]}
    elif "const" in node:
        names = {json_type(node["const"])}
    else:
        names = set()
    return frozenset(names - {"null"})
