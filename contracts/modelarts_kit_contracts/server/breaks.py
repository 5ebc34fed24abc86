"""Bodies that break one rule of the request schema: an enforced constraint, or guidance."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping

from modelarts_kit_spec import Spec
from modelarts_kit_spec.load import pointer_join

from modelarts_kit_contracts.server.api_map import JSON, member
from modelarts_kit_contracts.server.bodies import minimal_instance

MAX_CONSTRAINT_BREAKS = 40
DROP = object()  # constraint_breaks: "remove this (required) field"
_PATTERN_BREAKERS = ("", "not valid!", "x" * 300, "\u00e9\u00e8")


def constraint_breaks(
    spec: Spec, schema: JSON, path: tuple[str, ...] = (), depth: int = 0, pointer: str = ""
) -> Iterator[tuple[tuple[str, ...], JSON, str]]:
    """(path, value, rule) for each single-field violation of the request schema's constraints.

    ``value`` is :data:`DROP` for a required property left out.
    Only leaves reachable through object properties are broken (enum, pattern, minimum,
    maximum, maxLength, minLength, integer type); the caller checks that the body built around
    each value is valid except at ``path``.
    """
    schema, pointer, _ = spec.walker.deref(schema, pointer)
    if not isinstance(schema, Mapping) or depth > 5:
        return
    guidance = spec.meaning.guidance.at(pointer)  # rules a server need not enforce
    for found in _enforced_breaks(schema, path):
        if found[2] not in guidance:
            yield found
    for name, child in (schema.get("properties") or {}).items():
        yield from constraint_breaks(
            spec, child, (*path, str(name)), depth + 1, _child(pointer, "properties", name)
        )
    if depth == 0:
        # Last, so the breaks above keep their turn under the cap: a mandatory text field of
        # another type (the page's Type column: a create's kind is "String", "Mandatory: Yes";
        # its value list is the ledger's decision, issue 31).
        properties = schema.get("properties") or {}
        for name in schema.get("required") or []:
            child = properties.get(name)
            resolved = spec.walker.deref(child, "")[0] if isinstance(child, Mapping) else None
            if isinstance(resolved, Mapping) and resolved.get("type") == "string":
                yield (*path, str(name)), 0, "type"


def _child(pointer: str, *tokens: str | int) -> str:
    """The pointer of a nested schema ("" stays "": an inline node without a known place)."""
    return pointer_join(pointer, *tokens) if pointer else ""


def _enforced_breaks(
    schema: Mapping[str, JSON], path: tuple[str, ...]
) -> Iterator[tuple[tuple[str, ...], JSON, str]]:
    if "enum" in schema and path:
        yield path, "not-a-listed-value", "enum"
    if "pattern" in schema and path:
        for candidate in _PATTERN_BREAKERS:
            yield path, candidate, "pattern"
    if "minimum" in schema and path:
        yield path, schema["minimum"] - 1, "minimum"
    if "maximum" in schema and path:
        yield path, schema["maximum"] + 1, "maximum"
    if "maxLength" in schema and path:
        yield path, "x" * (int(schema["maxLength"]) + 1), "maxLength"
    if schema.get("minLength", 0) > 0 and path:
        yield path, "", "minLength"
    if schema.get("type") == "integer" and path:
        yield path, "1", "type"
    for name in schema.get("required") or []:
        yield (*path, str(name)), DROP, "required"


UNKNOWN_FIELD = "x_unknown_field"


def guidance_breaks(
    spec: Spec, schema: JSON, path: tuple[str, ...] = (), depth: int = 0, pointer: str = ""
) -> Iterator[tuple[tuple[str, ...], str, dict[str, JSON]]]:
    """(path, keyword, fields to set in the object at path) breaking one guidance rule.

    Guidance rules are the keywords a schema node lists under ``x-modelarts-guidance``: an
    unknown field where ``additionalProperties`` is closed, both members of a ``not: {required:
    [a, b]}`` pair (also inside ``allOf``), one member of a ``dependentRequired`` pair alone.
    """
    schema, pointer, _ = spec.walker.deref(schema, pointer)
    if not isinstance(schema, Mapping) or depth > 5:
        return
    properties = schema.get("properties") or {}
    for keyword in spec.meaning.guidance.listed_at(pointer):
        if keyword == "additionalProperties" and schema.get("additionalProperties") is False:
            yield path, keyword, {UNKNOWN_FIELD: "1"}
        pairs: list[list[str]] = []
        if keyword == "not":
            pairs.append(list(member(schema, "not", "required") or []))
        if keyword == "allOf":
            pairs += [list(member(item, "not", "required") or []) for item in schema["allOf"]]
        if keyword == "dependentRequired":
            pairs += [[name] for name in schema.get("dependentRequired") or {}]
        for pair in pairs:
            if pair and all(name in properties for name in pair):
                yield (
                    path,
                    keyword,
                    {name: minimal_instance(spec, properties[name]) for name in pair},
                )
        if keyword == "anyOf" and path and _choose_one(schema):
            # Neither member of a choose-one: the object with its required fields alone.
            yield path[:-1], keyword, {path[-1]: minimal_instance(spec, schema) or {}}
    for name, child in properties.items():
        yield from guidance_breaks(
            spec, child, (*path, str(name)), depth + 1, _child(pointer, "properties", name)
        )


def node_by_node(
    breaks: Iterator[tuple[tuple[str, ...], str, dict[str, JSON]]],
) -> list[tuple[tuple[str, ...], str, dict[str, JSON]]]:
    """The breaks, one per place in turn (every object's rules get a try within the cap)."""
    by_path: dict[tuple[str, ...], list[tuple[tuple[str, ...], str, dict[str, JSON]]]] = {}
    for found in breaks:
        by_path.setdefault(found[0], []).append(found)
    rounds = itertools.zip_longest(*by_path.values())
    return [found for round_ in rounds for found in round_ if found is not None]


def _choose_one(schema: Mapping[str, JSON]) -> bool:
    """Whether ``anyOf`` is a choose-one: every branch only requires a property."""
    branches = schema.get("anyOf") or []
    return bool(branches) and all(
        isinstance(b, Mapping) and set(b) == {"required"} for b in branches
    )
