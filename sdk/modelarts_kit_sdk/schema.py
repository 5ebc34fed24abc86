"""The spec side: a schema node seen through ``$ref`` and ``allOf``/``anyOf``/``oneOf``, as the
spec's walker (:mod:`modelarts_kit_spec.walker`) resolves it, in the shape the SDK comparison uses.

Properties keep the JSON pointer of the schema that declares them, so a field of a shared
component (``/components/schemas/Input``) is one place however many paths reach it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from modelarts_kit_spec import Spec
from modelarts_kit_spec.load import pointer_join
from modelarts_kit_spec.walker import ALL_TYPES

__all__ = ["SchemaShape", "describe_types", "view"]


@dataclass(frozen=True)
class SchemaShape:
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


def view(spec: Spec, node: Any, pointer: str) -> SchemaShape:
    """The node at ``pointer`` through the spec's walker: ``$ref`` followed, every shape
    (``allOf``, ``anyOf``, ``oneOf``) united."""
    seen = spec.walker.view(node, pointer, alternatives=True)
    types = frozenset() if seen.types >= ALL_TYPES else seen.types - {"null"}
    properties = {
        name: (
            sub,
            seen.property_pointers.get(name) or pointer_join(seen.pointer, "properties", name),
        )
        for name, sub in seen.properties.items()
    }
    extra = seen.find("additionalProperties")
    values = extra if extra is not None and isinstance(extra[0], Mapping) and extra[0] else None
    return SchemaShape(seen.pointer, types, properties, seen.find("items"), values)
