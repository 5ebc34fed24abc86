"""Query parameters of a request, read and validated through the spec's parameter schemas.

:func:`query_parameters` answers, for each query parameter the operation documents, the value
the request gave (converted to the type its schema names: a query string carries only text)
or the schema's ``default``; a value that is not of the type, or that the schema refuses in
the envelope of the server's strictness, is ``invalid-parameter`` naming the parameter, the
value and the rule. Parameters the spec does not document are ignored, as the service does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl

from modelarts_kit_spec import Spec
from modelarts_kit_spec.schemamodel import MUST_ACCEPT, MUST_REJECT
from modelarts_kit_spec.schemamodel.parameters import (
    given_values,
    parameter_breaks,
    parameter_value,
)

from modelarts_kit_server import errors
from modelarts_kit_server.context import RequestContext
from modelarts_kit_server.errors import ApiError
from modelarts_kit_server.settings import STRICT

__all__ = ["MAX_QUERY_FIELDS", "query_parameters", "schema_default"]

MAX_QUERY_FIELDS = 64  # a query string with more fields is refused, not parsed on


def schema_default(spec: Spec, schema: Any) -> Any:
    """The ``default`` of ``schema`` (``$ref`` and ``allOf`` followed), or None."""
    if not isinstance(schema, Mapping):
        return None
    return spec.walker.view(schema).schema.get("default")


def query_parameters(context: RequestContext) -> dict[str, Any]:
    """Each documented query parameter's value: the request's, else the spec's default."""
    pairs = parse_qsl(context.query_string, keep_blank_values=True)
    if len(pairs) > MAX_QUERY_FIELDS:
        raise ApiError(
            errors.INVALID_PARAM,
            f"query: {len(pairs)} fields violates at most {MAX_QUERY_FIELDS} query fields",
        )
    spec = context.server.spec
    strict = context.server.settings.strictness == STRICT
    # An empty value is not given at both ends (the third-party CLI sends level=&pattern=,
    # and what a real client sends the service accepts); the envelope of the server's end
    # judges the rest (the schema model's parameters, one reading for all).
    envelope = spec.envelope(MUST_ACCEPT if strict else MUST_REJECT)
    given = given_values(pairs)
    broken = parameter_breaks(envelope, context.operation, "query", given)
    if broken:
        raise ApiError(errors.INVALID_PARAM, f"query parameter {broken[0].message}")
    values: dict[str, Any] = {}
    # The envelope's own parameters: a guidance rule of an inline parameter schema (the
    # events' offset minimum) binds only the strict end, and an enum value only the SDK has
    # is in must-reject's, not in must-accept's (the spec's own operation has every value).
    for parameter in envelope.operation(context.operation.operation_id).parameters:
        if parameter.location != "query":
            continue
        if parameter.name not in given:
            default = schema_default(spec, parameter.schema)
            if default is not None:
                values[parameter.name] = default
            continue
        values[parameter.name] = parameter_value(spec, parameter.schema, given[parameter.name])
    return values
