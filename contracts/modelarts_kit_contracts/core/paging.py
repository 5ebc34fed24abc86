"""Paged answers: which operations answer one page of a longer list, and how long a page may be.

The API pages the way its pages describe it: a request asks for at most ``limit`` entries,
starting at ``offset`` (the list search carries both in its JSON body, the events query in the
query string), and the success answer holds that page in its one top-level array (``items``,
``events``). Everything else is read from the spec: where ``limit`` travels, its ``default`` and
``maximum`` (the documented range), and which array holds the page. An operation with no
``limit`` parameter, or whose answer has no single top-level array, does not page.

The mock answers at most the page asked for, and the ``response_page_size`` wire check holds a
server to it (:mod:`~modelarts_kit_contracts.core.wire`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from modelarts_kit_spec.load import Operation, Spec

__all__ = ["LIMIT", "OFFSET", "Paging", "paging_of"]

JSON = Any
# The names the vendor's pages give the page size and the first entry's position.
LIMIT = "limit"
OFFSET = "offset"


@dataclass(frozen=True)
class Paging:
    """How one operation pages, as the spec states it."""

    operation_id: str
    location: Literal["query", "body"]  # where the request carries limit and offset
    page_field: str  # the top-level array of the success answer that holds the page
    default_limit: int | None  # the limit a request without one gets
    max_limit: int | None  # the documented maximum of limit
    limit_pointer: str  # the spec node of the limit parameter ("" when inline, unknown)

    def requested(self, query: Mapping[str, str], body: JSON, name: str = LIMIT) -> int | None:
        """The value of ``name`` (limit or offset) a request carries, when it is an integer."""
        if self.location == "query":
            raw: JSON = query.get(name)
        else:
            raw = body.get(name) if isinstance(body, Mapping) else None
        if isinstance(raw, int) and not isinstance(raw, bool):
            return raw
        if isinstance(raw, str) and re.fullmatch(r"-?\d{1,18}", raw.strip()):
            return int(raw.strip())
        return None

    def page_size(self, query: Mapping[str, str], body: JSON) -> int | None:
        """The most entries an answer to this request may hold: the limit it asks for (never
        more than the documented maximum), else the default, else the maximum; None when the
        spec bounds nothing."""
        limit = self.requested(query, body)
        if limit is not None and limit >= 1:
            return min(limit, self.max_limit) if self.max_limit is not None else limit
        return self.default_limit if self.default_limit is not None else self.max_limit


def paging_of(spec: Spec, op: Operation) -> Paging | None:
    """How ``op`` pages, or None when it does not."""
    found = _limit_schema(spec, op)
    page_field = _page_field(spec, op)
    if found is None or page_field is None:
        return None
    location, schema, pointer = found
    view = spec.walker.view(schema, pointer)
    return Paging(
        operation_id=op.operation_id,
        location=location,
        page_field=page_field,
        default_limit=_integer(view.find("default")),
        max_limit=_integer(view.find("maximum")),
        limit_pointer=view.pointer,
    )


def _limit_schema(spec: Spec, op: Operation) -> tuple[Literal["query", "body"], JSON, str] | None:
    """Where ``limit`` travels, its schema, and the spec node of that schema ("" if unknown)."""
    for parameter in op.parameters:
        if parameter.location == "query" and parameter.name == LIMIT:
            return "query", parameter.schema, _pointer_of(spec, op, parameter.schema)
    if op.request_schema is not None:
        body = spec.walker.view(op.request_schema, _pointer_of(spec, op, op.request_schema))
        schema = body.properties.get(LIMIT)
        if schema is not None:
            return "body", schema, body.property_pointers.get(LIMIT, "")
    return None


def _pointer_of(spec: Spec, op: Operation, node: JSON) -> str:
    """Where ``node`` (a parameter's schema, the request schema) is written inside ``op``."""
    candidates = [f"{op.pointer}/requestBody/content/application~1json/schema"]
    written = spec.at(op.pointer)
    parameters = written.get("parameters") if isinstance(written, Mapping) else None
    for index in range(len(parameters) if isinstance(parameters, list) else 0):
        candidates.append(f"{op.pointer}/parameters/{index}/schema")
    for pointer in candidates:
        try:
            if spec.at(pointer) is node:
                return pointer
        except KeyError:
            continue
    return ""


def _page_field(spec: Spec, op: Operation) -> str | None:
    schema = op.success.schema
    if schema is None:
        return None
    walker = spec.walker
    arrays = [
        name
        for name, child in walker.view(schema).properties.items()
        if _is_array(walker.view(child).types)
    ]
    return arrays[0] if len(arrays) == 1 else None


def _is_array(types: frozenset[str]) -> bool:
    return "array" in types and types <= {"array", "null"}


def _integer(found: tuple[JSON, str] | None) -> int | None:
    if found is None:
        return None
    value = found[0]
    return value if isinstance(value, int) and not isinstance(value, bool) else None
