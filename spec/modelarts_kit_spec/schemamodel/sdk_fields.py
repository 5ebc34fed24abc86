"""What the vendor's SDK sends is evidence that the service accepts it (issue 31 item 7).

A body outside must-accept only for fields whose presence is an ``sdk`` rule (``workspace_id``
in a list body: the SDK's ``JobSearches`` sends it) is one a server at the strict end accepts
and no client check fails. Every reader asks here (the reference server; the wire checks ask
the contract kit's envelopes, which cite the same rules).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from modelarts_kit_spec.document import pointer_join
from modelarts_kit_spec.schemamodel.rules import PRESENCE, Strength

__all__ = ["example_nulls", "only_sdk_fields_break"]

# A ``Spec`` (typed loosely: the schema model sits below the loader).
Spec = Any


def example_nulls(spec: Spec, operation_pointer: str) -> frozenset[tuple[str, ...]]:
    """Where the request examples the spec embeds for an operation send ``null`` (array
    indices as ``-``): a page's own example request (seeds/004 sends
    ``"policies": {"auto_search": null}``) is a request the service accepts."""
    found: set[tuple[str, ...]] = set()
    body = spec.at(f"{operation_pointer}/requestBody") if operation_pointer else None
    body = spec.deref(body) if isinstance(body, Mapping) else {}
    media = (body.get("content") or {}).get("application/json") or {}
    for example in (media.get("examples") or {}).values():
        example = spec.deref(example) if isinstance(example, Mapping) else {}
        _nulls(example.get("value"), (), found)
    return frozenset(found)


def _nulls(value: Any, at: tuple[str, ...], found: set[tuple[str, ...]]) -> None:
    if value is None:
        found.add(at)
    elif isinstance(value, Mapping):
        for name, item in value.items():
            _nulls(item, (*at, str(name)), found)
    elif isinstance(value, list):
        for item in value:
            _nulls(item, (*at, "-"), found)


def only_sdk_fields_break(
    spec: Spec,
    envelope: Spec,
    schema: Any,
    document: Any,
    nulls: frozenset[tuple[str, ...]] = frozenset(),
) -> bool:
    """Whether every rule of ``envelope`` (must-accept) that ``document`` breaks is a field
    the spec knows only from the vendor's SDK, or a ``null`` where an embedded request
    example of the operation sends one (``nulls``, from :func:`example_nulls`)."""
    errors = list(envelope.validator(schema).iter_errors(document))
    if not errors:
        return False
    for error in errors:
        if error.instance is None:
            where = tuple("-" if isinstance(p, int) else str(p) for p in error.absolute_path)
            if where in nulls:
                continue
            return False
        if error.validator != "additionalProperties" or not isinstance(error.instance, Mapping):
            return False
        declared = error.schema.get("properties", {}) if isinstance(error.schema, Mapping) else {}
        at = pointer_join("", *error.absolute_path)
        for name in error.instance:
            if name in declared:
                continue
            known = spec.walker.at_pointer(schema, pointer_join(at, name))
            if known is None or not known.pointer:
                return False
            if spec.schema_model.rule_at(known.pointer, PRESENCE).strength is not Strength.SDK:
                return False
    return True
