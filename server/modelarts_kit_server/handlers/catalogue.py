"""Handlers of the catalogue operations: the training flavors and the training engines.

Both answer from :class:`~modelarts_kit_server.catalogue.Catalogue` (the spec's examples) in the
shape of their success schema: its array property holds the entries and its integer property
their number (``total_count`` and ``flavors``, ``total`` and ``items`` on the pages). Flavors
are filtered by the ``flavor_type`` query parameter (any case; all flavors without it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from modelarts_kit_server.context import JsonResponse, RequestContext
from modelarts_kit_server.handlers.job_records import success_response
from modelarts_kit_server.query import query_parameters

__all__ = ["list_engines", "list_flavors", "listing"]

FLAVOR_TYPE = "flavor_type"


def listing(context: RequestContext, entries: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The success body listing ``entries``: arrays get them, integers their number."""
    spec = context.server.spec
    schema = context.operation.success.schema
    body: dict[str, Any] = {}
    properties = spec.walker.view(schema).properties if isinstance(schema, Mapping) else {}
    for name, subschema in properties.items():
        types = spec.walker.view(subschema).types if isinstance(subschema, Mapping) else ()
        if "array" in types:
            body[name] = [dict(entry) for entry in entries]
        elif "integer" in types:
            body[name] = len(entries)
    return body


def list_flavors(context: RequestContext) -> JsonResponse:
    flavor_type = query_parameters(context).get(FLAVOR_TYPE)
    wanted = str(flavor_type) if flavor_type not in (None, "") else None
    flavors = context.server.catalogue.flavors_of_type(wanted)
    return success_response(context, listing(context, flavors))


def list_engines(context: RequestContext) -> JsonResponse:
    query_parameters(context)  # validates any the spec documents
    return success_response(context, listing(context, context.server.catalogue.engines))
