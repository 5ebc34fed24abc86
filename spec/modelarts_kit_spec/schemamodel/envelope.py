"""The two envelopes a server is judged by, built from the schema model as OpenAPI documents
(``spec.envelope(name)`` parses them into a ``Spec`` with its own ``validator``).

- ``must-accept``: a body every correct server accepts. Every rule at every strength
  (documented and guidance), only fields the pages document (fields only the SDK or an
  example has are removed, and so are a ``null`` and an array form only an example or
  observed use shows), request objects closed (``additionalProperties: false``).
- ``must-reject``: a body outside it is refused by every correct server. Only ``documented``
  rules: guidance keywords are removed (a closed object opens), and a field only the SDK or an
  example has may hold anything.

Both state the ranges of ``int32``/``int64`` as ``minimum``/``maximum`` (the format is the
documented type, ``Integer``/``Long``): every reader of an envelope (the reference server, the
wire checks, the contract checks) then refuses ``2**40`` in an ``int32`` field alike, whatever
format checker its validator has. Pointers stay those of the spec, so a validator error's
schema path names the rule in ``spec.schema_model``.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from typing import Any, Final

from modelarts_kit_wire.pointers import unescape_pointer_token

from modelarts_kit_spec.document import pointer_join, resolve_pointer
from modelarts_kit_spec.refs import resolve_ref
from modelarts_kit_spec.schemamodel.model import SchemaModel
from modelarts_kit_spec.schemamodel.parameters import add_formats, allow_empty_query_values
from modelarts_kit_spec.schemamodel.rules import ARRAY_FORM, NULLABLE, PRESENCE, Strength
from modelarts_kit_spec.walker import iter_schemas, json_types

__all__ = [
    "ENVELOPES",
    "ENVELOPE_MARKER",
    "INTEGER_RANGES",
    "MUST_ACCEPT",
    "MUST_REJECT",
    "build_envelope",
    "request_objects",
]

JSON = Any
MUST_ACCEPT: Final = "must-accept"
MUST_REJECT: Final = "must-reject"
ENVELOPES = (MUST_ACCEPT, MUST_REJECT)
ENVELOPE_MARKER: Final = "x-modelarts-envelope"
INTEGER_RANGES = {"int32": (-(2**31), 2**31 - 1), "int64": (-(2**63), 2**63 - 1)}
LENIENT = (Strength.SDK, Strength.EXAMPLE)
HTTP_METHODS = ("get", "put", "post", "delete", "patch")


def build_envelope(document: JSON, name: str) -> JSON:
    """The ``must-accept`` or ``must-reject`` document of ``document`` (a new copy)."""
    if name not in ENVELOPES:
        raise ValueError(f"unknown envelope {name!r} (known: {', '.join(ENVELOPES)})")
    model = SchemaModel(document)
    if name == MUST_REJECT:
        from modelarts_kit_spec.meaning import strip_guidance

        envelope = strip_guidance(document)
        _open_lenient_properties(envelope, model)
        allow_empty_query_values(envelope)
        _drop_decisions(envelope, model)
    else:
        envelope = copy.deepcopy(document)
        # Read by Spec.validator: in must-accept an integer is a JSON integer, never 1.0.
        envelope[ENVELOPE_MARKER] = MUST_ACCEPT
        _close_request_objects(envelope)
        _drop_lenient_properties(envelope, model)
        _drop_lenient_nulls(envelope, model)
        _drop_lenient_array_forms(envelope, model)
        _keep_documented_values(envelope, model)
        add_formats(envelope)
    _state_integer_ranges(envelope)
    return envelope


def _lenient(model: SchemaModel, keyword: str) -> Iterator[str]:
    for (pointer, annotated), annotation in model.extension.annotations.items():
        if annotated == keyword and annotation.strength in LENIENT:
            yield pointer


def _split_property(pointer: str) -> tuple[str, str]:
    holder, _, name = pointer.rpartition("/properties/")
    return holder, unescape_pointer_token(name)


def _open_lenient_properties(envelope: JSON, model: SchemaModel) -> None:
    """A field only the SDK or an example has may hold anything (its type is not documented)."""
    for pointer in _lenient(model, PRESENCE):
        holder, name = _split_property(pointer)
        properties = _at(envelope, holder).get("properties")
        if isinstance(properties, dict) and name in properties:
            old = properties[name] if isinstance(properties[name], Mapping) else {}
            properties[name] = {k: v for k, v in old.items() if k == "description" or k[:2] == "x-"}


def _drop_lenient_properties(envelope: JSON, model: SchemaModel) -> None:
    for pointer in _lenient(model, PRESENCE):
        holder, name = _split_property(pointer)
        node = _at(envelope, holder)
        properties = node.get("properties")
        if isinstance(properties, dict):
            properties.pop(name, None)
        if isinstance(node.get("required"), list) and name in node["required"]:
            node["required"] = [n for n in node["required"] if n != name]


def _drop_lenient_nulls(envelope: JSON, model: SchemaModel) -> None:
    for pointer in _lenient(model, NULLABLE):
        node = _at(envelope, pointer)
        declared = node.get("type")
        if isinstance(declared, list) and "null" in declared:
            rest = [t for t in declared if t != "null"]
            node["type"] = rest[0] if len(rest) == 1 else rest
        for key in ("anyOf", "oneOf"):
            branches = node.get(key)
            if isinstance(branches, list):
                kept = [
                    b for b in branches if not (isinstance(b, Mapping) and b.get("type") == "null")
                ]
                node[key] = kept


def _drop_lenient_array_forms(envelope: JSON, model: SchemaModel) -> None:
    """A node documented as another type keeps only that type (the array form is the
    leniency): ``array`` leaves its ``type``, and ``items`` and ``array`` branches go."""
    for pointer in _lenient(model, ARRAY_FORM):
        node = _at(envelope, pointer)
        declared = node.get("type")
        if isinstance(declared, list) and "array" in declared:
            rest = [t for t in declared if t != "array"]
            node["type"] = rest[0] if len(rest) == 1 else rest
        node.pop("items", None)
        for key in ("anyOf", "oneOf"):
            branches = node.get(key)
            if isinstance(branches, list):
                node[key] = [b for b in branches if json_types(b) != {"array"}]


def _keep_documented_values(envelope: JSON, model: SchemaModel) -> None:
    """An enum whose values have strengths of their own offers only the documented ones: a
    value only the SDK has (flavors' ``Ascend``) or only the ledger decided is no value every
    server must accept."""
    for pointer in model.extension.values:
        accepted = model.accepted_values(pointer)
        node = _at(envelope, pointer)
        if accepted and isinstance(node.get("enum"), list):
            node["enum"] = list(accepted)


def _drop_decisions(envelope: JSON, model: SchemaModel) -> None:
    """What only the ledger decided binds no server: a rule of strength ``decision`` leaves
    must-reject, on a request (a body marked required, a minimum borrowed from another page,
    a closed enum no page gives) and on a response alike (a field the ledger made required in
    an answer, the ``error_code`` pattern, the form of ``Retry-After``). An answer is judged
    by must-reject, so a server is never failed on a decision; the contract kit observes
    what it chose (``modelarts_kit_contracts.server.choices``)."""
    for (pointer, keyword), annotation in model.extension.annotations.items():
        if annotation.strength is not Strength.DECISION:
            continue
        node = _at(envelope, pointer)
        if pointer.endswith("/requestBody") and keyword == "required":
            node["required"] = False
        else:
            node.pop(keyword, None)


def _at(document: JSON, pointer: str) -> dict[str, JSON]:
    try:
        node = resolve_pointer(document, pointer)
    except KeyError:
        return {}
    return node if isinstance(node, dict) else {}


def request_objects(document: JSON) -> list[str]:
    """Pointers of the object schemas a request body can reach (``$ref`` followed)."""
    starts: list[tuple[JSON, str]] = []
    for path, item in _mapping(document.get("paths")).items():
        for method in HTTP_METHODS:
            operation = _mapping(_mapping(item).get(method))
            body_pointer = pointer_join("/paths", path, method, "requestBody")
            if "requestBody" not in operation:
                continue
            body = resolve_ref(document, operation["requestBody"], body_pointer)
            media = _mapping(_mapping(_mapping(body.node).get("content")).get("application/json"))
            if "schema" in media:
                starts.append(
                    (
                        media["schema"],
                        pointer_join(body.pointer, "content", "application/json", "schema"),
                    )
                )
    found: list[str] = []
    seen: set[str] = set()
    while starts:
        raw, pointer = starts.pop()
        resolved = resolve_ref(document, raw, pointer)
        node, pointer = resolved.node, resolved.pointer
        if not isinstance(node, Mapping) or pointer in seen:
            continue
        seen.add(pointer)
        if isinstance(node.get("properties"), Mapping):
            found.append(pointer)
            for name, sub in node["properties"].items():
                starts.append((sub, pointer_join(pointer, "properties", name)))
        for key in ("items", "additionalProperties"):
            if isinstance(node.get(key), Mapping):
                starts.append((node[key], pointer_join(pointer, key)))
        for key in ("allOf", "anyOf", "oneOf"):
            for index, sub in enumerate(node.get(key) or []):
                starts.append((sub, pointer_join(pointer, key, index)))
    return sorted(found)


def _mapping(value: JSON) -> Mapping[str, JSON]:
    return value if isinstance(value, Mapping) else {}


def _branches_declare_properties(document: JSON, node: Mapping[str, JSON]) -> bool:
    for key in ("allOf", "anyOf", "oneOf"):
        for sub in node.get(key) or []:
            if "properties" in _mapping(resolve_ref(document, sub).node):
                return True
    return False


def _close_request_objects(envelope: JSON) -> None:
    """Request objects accept only their declared properties (closed objects are guidance:
    the pages list the fields and never say others are allowed), and only objects: a schema
    of properties without a ``type`` (the delete body, "Request Parameters: None") takes any
    JSON value in the spec, but no page shows a body other than an object."""
    for pointer in request_objects(envelope):
        node = _at(envelope, pointer)
        if "type" not in node and "$ref" not in node:
            node["type"] = "object"
        if "additionalProperties" in node or _branches_declare_properties(envelope, node):
            continue
        node["additionalProperties"] = False


def _state_integer_ranges(envelope: JSON) -> None:
    for _, schema in list(iter_schemas(envelope)):
        bounds = INTEGER_RANGES.get(str(schema.get("format")))
        if bounds is None or "integer" not in json_types(schema):
            continue
        assert isinstance(schema, dict)
        low, high = bounds
        if not isinstance(schema.get("minimum"), int | float) or schema["minimum"] < low:
            schema["minimum"] = low
        if not isinstance(schema.get("maximum"), int | float) or schema["maximum"] > high:
            schema["maximum"] = high
