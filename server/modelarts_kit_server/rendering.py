"""Shaping a stored job into the spec's response schema.

The request and response schemas of the spec do not always agree (for example
``algorithm.environments`` is a map in a create request and a list of maps in a response, as
in the vendor's pages). :func:`conform_to_schema` walks a value along the response schema and
keeps everything that already fits unchanged; where it does not fit it converts the one shape
change the vendor documents (a map where a list of maps is expected becomes one single-entry map
per key, in order) and leaves out what the response cannot carry (a value of another type, a
property the schema forbids). So what the client sent comes back unchanged wherever the
response schema allows it, and every response validates. A number where the schema wants a
string is written as that string, and a string of digits where it wants an integer as that
integer (the events page types its counts as String in its table and as numbers in its
example: the spec decides, and the server answers as it says).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from modelarts_kit_spec import Spec

from modelarts_kit_server.validation import openapi_validator

__all__ = ["conform_to_schema"]

_DROP: Any = object()


def _conform(spec: Spec, schema: Any, value: Any) -> Any:
    if schema is True or schema is None:
        return value
    if schema is False:
        return _DROP
    if _is_valid(spec, schema, value):
        return value
    view = spec.walker.shared_view(schema)  # $ref followed, allOf merged; read only
    node, types = view.schema, view.types
    result: Any = _DROP
    if _is_number(value) and "string" in types:
        result = str(value)
    elif isinstance(value, str) and "integer" in types and _is_integer_text(value):
        result = int(value)
    elif isinstance(value, dict):
        if types and "object" not in types and "array" in types:
            items = node.get("items", True)
            result = [_conform(spec, items, {key: item}) for key, item in value.items()]
            result = [item for item in result if item is not _DROP]
        elif not types or "object" in types:
            result = _conform_object(spec, node, value)
    elif isinstance(value, list) and (not types or "array" in types):
        items = node.get("items", True)
        conformed = [_conform(spec, items, item) for item in value]
        result = [item for item in conformed if item is not _DROP]
    if result is _DROP or not _is_valid(spec, schema, result):
        return _DROP
    return result


def _is_valid(spec: Spec, schema: Any, value: Any) -> bool:
    # The quick Rust verdict where it is provably Python's (the list's pages are many jobs).
    return spec.surely_valid(schema, value) or bool(openapi_validator(spec, schema).is_valid(value))


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_integer_text(text: str) -> bool:
    digits = text[1:] if text.startswith("-") else text
    return digits.isascii() and digits.isdigit() and len(digits) < 19


def _conform_object(spec: Spec, node: Mapping[str, Any], value: dict[str, Any]) -> Any:
    properties = node.get("properties") or {}
    extra = node.get("additionalProperties", True)
    out: dict[str, Any] = {}
    for key, item in value.items():
        subschema = properties.get(key, extra)
        conformed = _conform(spec, subschema, item)
        if conformed is not _DROP:
            out[key] = conformed
    return out


def conform_to_schema(spec: Spec, schema: Any, value: Any) -> Any:
    """``value`` shaped to validate against ``schema`` (unchanged when it already does).

    Raises ValueError when no shaping can make it valid (a server bug: the server-owned
    fields are always valid).
    """
    result = _conform(spec, schema, value)
    if result is _DROP:
        raise ValueError("the job cannot be rendered in the response schema")
    return result
