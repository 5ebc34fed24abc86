"""Paged answers: which operations answer one page of a longer list, and how long a page may be.

The API pages the way its pages describe it: a request asks for at most ``limit`` entries,
starting at ``offset`` (the list search carries both in its JSON body, the events query in the
query string), and the success answer holds that page in one top-level array (``items``,
``events``). All of it is the spec's ``x-modelarts-paging`` (``spec.meaning.paging``, the one
reader): where ``limit`` travels, its ``default`` and ``maximum`` (the documented range), and
which array holds the page. An operation the spec does not say pages does not page.

The mock answers at most the page asked for, and the ``response_page_size`` wire check holds a
server to it (:mod:`~modelarts_kit_contracts.core.wire`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from modelarts_kit_spec.load import Operation, Spec
from modelarts_kit_spec.meaning import uses_meaning

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
    limit_field: str = LIMIT  # the request's names for them (x-modelarts-paging)
    offset_field: str = OFFSET

    def requested(self, query: Mapping[str, str], body: JSON, name: str = LIMIT) -> int | None:
        """The value of ``name`` (limit or offset) a request carries, when it is an integer."""
        name = {LIMIT: self.limit_field, OFFSET: self.offset_field}.get(name, name)
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
    """How ``op`` pages, as its ``x-modelarts-paging`` says (``spec.meaning.paging``), or None
    when the spec does not say it pages."""
    if not uses_meaning(spec):
        return None
    described = spec.meaning.paging.of(op.operation_id)
    if described is None:
        return None
    found = _limit_schema(spec, op, described.location, described.limit.field)
    return Paging(
        operation_id=op.operation_id,
        location="query" if described.location == "query" else "body",
        page_field=described.items,
        default_limit=described.limit.default,
        max_limit=described.limit.maximum,
        limit_pointer=found,
        limit_field=described.limit.field,
        offset_field=described.offset.field,
    )


def _limit_schema(spec: Spec, op: Operation, location: str, name: str) -> str:
    """The spec node of the limit's schema ("" if unknown): a rule's evidence is read there."""
    if location == "query":
        for parameter in op.parameters:
            if parameter.location == "query" and parameter.name == name:
                return _pointer_of(spec, op, parameter.schema)
        return ""
    if op.request_schema is None:
        return ""
    body = spec.walker.view(op.request_schema, _pointer_of(spec, op, op.request_schema))
    return body.property_pointers.get(name, "")


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
