"""Query parameters of a request, read and validated through the spec's parameter schemas.

:func:`query_parameters` answers, for each query parameter the operation documents, the value
the request gave (converted to the type its schema names: a query string carries only text)
or the schema's ``default``; a value that is not of the type, or that the schema refuses in
the envelope of the server's strictness, is ``invalid-parameter`` naming the parameter, the
value and the rule. Parameters the spec does not document are ignored, as the service does.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl

from modelarts_kit_spec import Spec
from modelarts_kit_spec.schemamodel import MUST_ACCEPT, MUST_REJECT

from modelarts_kit_server import errors
from modelarts_kit_server.context import RequestContext
from modelarts_kit_server.errors import ApiError
from modelarts_kit_server.settings import STRICT
from modelarts_kit_server.validation import describe_violation, redacted_value, validate_instance

__all__ = ["MAX_QUERY_FIELDS", "query_parameters", "schema_default"]

MAX_QUERY_FIELDS = 64  # a query string with more fields is refused, not parsed on
INTEGER = re.compile(r"-?[0-9]{1,18}")  # longer would not fit any integer format anyway
_MISSING: Any = object()


def schema_default(spec: Spec, schema: Any) -> Any:
    """The ``default`` of ``schema`` (``$ref`` and ``allOf`` followed), or None."""
    if not isinstance(schema, Mapping):
        return None
    return spec.walker.view(schema).schema.get("default")


def _types(spec: Spec, schema: Any) -> frozenset[str]:
    return frozenset(spec.walker.view(schema).types) if isinstance(schema, Mapping) else frozenset()


def _convert(name: str, text: str, types: frozenset[str]) -> Any:
    """``text`` as the JSON type the schema names (text where it allows a string)."""
    if not types or "string" in types:
        return text
    if "integer" in types and INTEGER.fullmatch(text.strip()):
        return int(text.strip())
    if "number" in types:
        try:
            number = float(text)
        except ValueError:
            number = float("nan")
        if number == number and abs(number) != float("inf"):
            return number
    if "boolean" in types and text in ("true", "false"):
        return text == "true"
    wanted = " or ".join(sorted(types))
    raise ApiError(
        errors.INVALID_PARAM,
        f"query parameter {name}: value {redacted_value(text, [name])} violates must be of type "
        f"{wanted}",
    )


def query_parameters(context: RequestContext) -> dict[str, Any]:
    """Each documented query parameter's value: the request's, else the spec's default."""
    pairs = parse_qsl(context.query_string, keep_blank_values=True)
    if len(pairs) > MAX_QUERY_FIELDS:
        raise ApiError(
            errors.INVALID_PARAM,
            f"query: {len(pairs)} fields violates at most {MAX_QUERY_FIELDS} query fields",
        )
    given: dict[str, str] = {}
    for name, value in pairs:
        given.setdefault(name, value)  # a repeated parameter: the first one counts
    spec = context.server.spec
    strict = context.server.settings.strictness == STRICT
    envelope = spec.envelope(MUST_ACCEPT if strict else MUST_REJECT)
    values: dict[str, Any] = {}
    # The envelope's own parameters: an enum value only the SDK has is in must-reject's, not
    # in must-accept's (the operation of the spec itself has every value).
    for parameter in envelope.operation(context.operation.operation_id).parameters:
        if parameter.location != "query":
            continue
        if parameter.name not in given:
            default = schema_default(spec, parameter.schema)
            if default is not None:
                values[parameter.name] = default
            elif parameter.required:
                raise ApiError(
                    errors.INVALID_PARAM,
                    f"query parameter {parameter.name}: required parameter is missing",
                )
            continue
        value = _convert(parameter.name, given[parameter.name], _types(spec, parameter.schema))
        violation = validate_instance(envelope, parameter.schema, value)
        if violation is not None:
            described = describe_violation(violation, prefix=[parameter.name])
            raise ApiError(errors.INVALID_PARAM, f"query parameter {described}")
        values[parameter.name] = value
    return values
