"""The one rule for documented values: which values a schema node lists, and whether the list is
open (the service may send others) or closed (anything else is invalid).

Encoding (see ``spec/README.md``, "Documented values"):

- closed: ``enum: [a, b]`` (or ``const: a``), as JSON Schema means it. Request enums are closed.
- open: ``anyOf: [{enum: [a, b]}, {type: string}]`` (the node may also say ``type: string``).
  A standard validator accepts any string; readers and tools see the documented values.
- nullable: a ``null`` in the ``enum``, or a ``{type: 'null'}`` branch of the ``anyOf``; null is
  never a documented value (:attr:`DocumentedValues.nullable` says whether it is allowed).

:func:`documented_values` does not follow ``$ref``: pass the node a walker or
``Spec.deref`` resolved.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["DocumentedValues", "documented_values", "open_enum_schema"]

JSON = Any


@dataclass(frozen=True)
class DocumentedValues:
    """The values a schema node documents, in the spec's order."""

    values: tuple[str, ...]
    open: bool  # True: other values may appear (a response the vendor may extend)
    nullable: bool = False

    def accepts(self, value: object) -> bool:
        """Whether ``value`` is allowed: a listed value, any string if open, null if nullable."""
        if value is None:
            return self.nullable
        if not isinstance(value, str):
            return False
        return self.open or value in self.values


def _strings(values: Iterable[JSON]) -> tuple[str, ...] | None:
    listed = [v for v in values if v is not None]
    if not all(isinstance(v, str) for v in listed):
        return None
    return tuple(dict.fromkeys(listed))


def _is_null_branch(node: JSON) -> bool:
    return isinstance(node, Mapping) and node.get("type") == "null" and len(node) <= 2


def _is_any_string_branch(node: JSON) -> bool:
    """``{type: string}`` (optionally described): accepts every string."""
    return (
        isinstance(node, Mapping)
        and node.get("type") == "string"
        and set(node) <= {"type", "description"}
    )


def _closed(node: Mapping[str, JSON]) -> DocumentedValues | None:
    if isinstance(node.get("enum"), list):
        raw: Sequence[JSON] = node["enum"]
    elif "const" in node:
        raw = [node["const"]]
    else:
        return None
    values = _strings(raw)
    if values is None:
        return None
    return DocumentedValues(values, open=False, nullable=None in raw)


def documented_values(node: JSON) -> DocumentedValues | None:
    """The documented string values of ``node`` (open or closed), or None if it lists none."""
    if not isinstance(node, Mapping):
        return None
    closed = _closed(node)
    if closed is not None:
        return closed
    branches = node.get("anyOf")
    if not isinstance(branches, list) or not branches:
        return None
    listed: list[str] = []
    open_ = nullable = False
    for branch in branches:
        if _is_null_branch(branch):
            nullable = True
        elif _is_any_string_branch(branch):
            open_ = True
        elif isinstance(branch, Mapping) and (found := _closed(branch)) is not None:
            listed.extend(found.values)
            nullable = nullable or found.nullable
        else:
            return None  # some other union: not a value list
    if not listed or not open_:
        return None
    return DocumentedValues(tuple(dict.fromkeys(listed)), open=True, nullable=nullable)


def open_enum_schema(values: Sequence[str], *, nullable: bool = False) -> dict[str, JSON]:
    """The spec's encoding of an open enum with ``values`` (without description)."""
    branches: list[JSON] = [{"enum": list(values)}, {"type": "string"}]
    if nullable:
        branches.append({"type": "null"})
    return {"type": ["string", "null"] if nullable else "string", "anyOf": branches}
