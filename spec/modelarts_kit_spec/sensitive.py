"""Which values are secret: the spec's ``x-modelarts-sensitive`` marker, read in one place.

A schema node marked ``x-modelarts-sensitive: true`` holds a secret value, and so does
everything under it (environment variables, tokens). A property marked
``x-modelarts-sensitive: {when: /constraint/sensitive}`` is secret when, in the same object, the
value at that JSON pointer (relative to the object holding the property) is set: present and
neither ``false`` nor ``null`` (a flag of another type counts as set: when in doubt, mask).

Consumers never print a secret value: the generated client masks them in its validation
errors, the reference server in its error messages and logs. They read the marker only through
:func:`sensitive_fields` (where the secrets of one body are, as field paths from its root) or
:func:`is_sensitive` (whether one field path of a body is secret); :func:`marker_problems`
is what ``spec validate`` reports about malformed markers.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from modelarts_kit_spec.document import (
    SpecError,
    pointer_join,
    resolve_pointer,
    unescape_pointer_token,
)
from modelarts_kit_spec.walker import SchemaView, SchemaWalker, iter_schemas

__all__ = [
    "SENSITIVE_KEY",
    "FieldPath",
    "SensitiveField",
    "is_sensitive",
    "marker_problems",
    "sensitive_fields",
]

JSON = Any
SENSITIVE_KEY = "x-modelarts-sensitive"
# A field path from a body's root: property names, None for any item of an array or any value
# of a map (``additionalProperties``).
FieldPath = tuple[str | None, ...]
MAX_DEPTH = 64
_PROPERTY_POINTER = re.compile(r"^(?P<holder>.*)/properties/(?P<name>[^/]+)$")


@dataclass(frozen=True)
class SensitiveField:
    """One secret field of a body: always, or when the flag beside it is set."""

    path: FieldPath
    when: tuple[str, ...] | None  # the flag's path inside the object holding the field
    pointer: str  # the schema node that carries the marker

    def dotted(self) -> str:
        """``algorithm.parameters[].value``: the path as the vendor pages name fields."""
        text = ""
        for name in self.path:
            text += "[]" if name is None else (f".{name}" if text else name)
        return text


def _flag_path(raw: JSON) -> tuple[str, ...] | None:
    """The ``when`` pointer as a tuple of names, or None when the marker is not ``{when: /..}``."""
    if not isinstance(raw, Mapping) or set(raw) != {"when"}:
        return None
    pointer = raw["when"]
    if not isinstance(pointer, str) or not pointer.startswith("/") or pointer == "/":
        return None
    return tuple(unescape_pointer_token(t) for t in pointer.split("/")[1:])


def marker_problems(document: JSON) -> Iterator[tuple[str, str]]:
    """(pointer, message) for every malformed ``x-modelarts-sensitive`` marker."""
    walker = SchemaWalker(document)
    for pointer, schema in iter_schemas(document):
        if SENSITIVE_KEY not in schema:
            continue
        raw = schema[SENSITIVE_KEY]
        where = pointer_join(pointer, SENSITIVE_KEY)
        if raw is True:
            continue
        flag = _flag_path(raw)
        if flag is None:
            yield (
                where,
                (
                    f"{SENSITIVE_KEY} must be true or {{when: /json/pointer}} (the flag beside the "
                    f"field), got {raw!r}"
                ),
            )
            continue
        found = _PROPERTY_POINTER.match(pointer)
        if found is None:
            yield where, f"{SENSITIVE_KEY} with 'when' must be on a property of an object schema"
            continue
        try:
            holder = resolve_pointer(document, found.group("holder"))
            view = walker.at_pointer(holder, raw["when"], found.group("holder"))
        except (KeyError, SpecError) as exc:
            yield where, f"'when' {raw['when']!r} does not resolve: {exc}"
            continue
        if view is None or "boolean" not in view.types:
            yield (
                where,
                (
                    f"'when' {raw['when']!r} must name a boolean property of the object holding "
                    "this field"
                ),
            )


def sensitive_fields(
    walker: SchemaWalker, schema: JSON, pointer: str = ""
) -> tuple[SensitiveField, ...]:
    """Every secret field of a body described by ``schema`` (``$ref``, ``allOf``, ``anyOf``,
    ``oneOf``, array items and map values followed; recursive schemas visited once per path).

    Raises ``SpecError`` for a malformed marker (``spec validate`` names it first)."""
    found: dict[tuple[FieldPath, tuple[str, ...] | None], SensitiveField] = {}
    _collect(walker, walker.view(schema, pointer), (), frozenset(), found, None)
    return tuple(found.values())


def _collect(
    walker: SchemaWalker,
    view: SchemaView,
    path: FieldPath,
    seen: frozenset[str],
    found: dict[tuple[FieldPath, tuple[str, ...] | None], SensitiveField],
    when: tuple[str, ...] | None,
) -> None:
    if len(path) > MAX_DEPTH or (view.pointer and view.pointer in seen):
        return
    seen = seen | {view.pointer} if view.pointer else seen
    raw = view.schema.get(SENSITIVE_KEY)
    if raw is True or when is not None:
        found.setdefault((path, when), SensitiveField(path, when, view.pointer))
        return
    if raw is not None:
        raise SpecError(f"{view.pointer or '/'}: malformed {SENSITIVE_KEY} {raw!r}")

    def child(node: JSON, *tokens: str | int) -> SchemaView:
        base = view.pointer
        return walker.view(node, pointer_join(base, *tokens) if base else "")

    for name, node in view.properties.items():
        sub = child(node, "properties", name)
        flag = _flag_path(sub.schema.get(SENSITIVE_KEY))
        _collect(walker, sub, (*path, name), seen, found, flag)
    for keyword in ("items", "additionalProperties"):
        node = view.schema.get(keyword)
        if isinstance(node, Mapping):
            _collect(walker, child(node, keyword), (*path, None), seen, found, None)
    for keyword in ("anyOf", "oneOf"):
        for index, node in enumerate(view.schema.get(keyword) or []):
            _collect(walker, child(node, keyword, index), path, seen, found, None)


def is_sensitive(
    fields: Sequence[SensitiveField], document: JSON, path: Sequence[str | int]
) -> bool:
    """Whether the value at ``path`` (names and indexes from the root of ``document``, a body
    as received) must not be shown: it is secret, or it is an object or array where the spec
    places a secret below (whatever its shape: when in doubt, mask)."""
    value = document
    for key in path:
        value = _child(value, key)
    holds_values = isinstance(value, (Mapping, list)) and len(value) > 0
    for field in fields:
        if len(path) < len(field.path):
            prefix = all(w is None or w == g for w, g in zip(field.path, path, strict=False))
            if prefix and holds_values:
                return True
            continue
        holder = document
        matches = True
        for index, (want, got) in enumerate(zip(field.path, path, strict=False)):
            if want is not None and want != got:
                matches = False
                break
            if index < len(field.path) - 1:
                holder = _child(holder, got)
        if matches and (field.when is None or _flag_set(holder, field.when)):
            return True
    return False


def _child(node: JSON, key: str | int) -> JSON:
    if isinstance(node, Mapping):
        return node.get(key)
    if isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node):
        return node[key]
    return None


def _flag_set(holder: JSON, flag: tuple[str, ...]) -> bool:
    value = holder
    for name in flag:
        if not isinstance(value, Mapping):
            return False
        value = value.get(name)
    return value is not None and value is not False
