"""What a lenient server keeps of a request: the fields the spec has, nothing else.

:func:`known_fields` drops, at every depth, the members of an object the request schema does
not declare (a map, ``additionalProperties: {...}``, keeps its keys). A server that ignores
unknown fields then neither stores nor echoes them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from modelarts_kit_spec.view import SpecView

__all__ = ["known_fields"]

JSON = Any
MAX_DEPTH = 128  # the wire decoder refuses deeper bodies; this bounds the walk all the same


def known_fields(spec: SpecView, schema: JSON, value: JSON, depth: int = 0) -> JSON:
    """A copy of ``value`` without the object members ``schema`` (``$ref``, ``allOf`` and
    ``anyOf``/``oneOf`` branches followed) does not declare."""
    if not isinstance(schema, Mapping) or depth > MAX_DEPTH:
        return value
    view = spec.walker.shared_view(schema, alternatives=True)  # read only
    if isinstance(value, Mapping):
        properties = view.properties
        extra = view.find("additionalProperties")
        extra_schema = extra[0] if extra is not None else None
        if not properties:
            if isinstance(extra_schema, Mapping):
                return {k: known_fields(spec, extra_schema, v, depth + 1) for k, v in value.items()}
            return dict(value)  # a free-form object: every key is the caller's
        kept: dict[str, JSON] = {}
        for key, item in value.items():
            if key in properties:
                kept[key] = known_fields(spec, properties[key], item, depth + 1)
            elif isinstance(extra_schema, Mapping):
                kept[key] = known_fields(spec, extra_schema, item, depth + 1)
        return kept
    if isinstance(value, list):
        items = view.find("items")
        if items is not None and isinstance(items[0], Mapping):
            return [known_fields(spec, items[0], item, depth + 1) for item in value]
    return value
