"""Reading lists the way the spec shapes them: the array a list answer carries, and its pages.

The list answer's array is found in the spec, not by name: the property of the success
schema whose items are the show operation's job (else its one array property). The paging
fields are the request's ``limit`` and ``offset`` (the list page's names); their bounds come
from the spec's schema.

The pages leave one thing open: whether ``offset`` counts records or pages ("Number of pages
for querying jobs ... 0: the query starts from the first page"). With ``limit`` 1 both readings
are the same, so :func:`walk` with ``limit=1`` gives the order every reading must agree with.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from modelarts_kit_spec.meaning import Role
from modelarts_kit_spec.walker import SchemaView

from modelarts_kit_contracts.server.api_map import JSON, ApiMap, member
from modelarts_kit_contracts.server.probe import Probe, ProbeResponse

LIMIT = "limit"
OFFSET = "offset"
MAX_PAGES = 60  # every walk of a list is bounded, whatever the target answers


@dataclass(frozen=True)
class ListShape:
    """Where a list answer keeps its entries, and how its request pages."""

    role: Role
    entries: str  # the success body's array property
    paged: bool  # the request has both limit and offset
    max_limit: int | None  # the schema's maximum for limit

    def entries_of(self, body: JSON) -> list[JSON] | None:
        found = member(body, self.entries)
        return found if isinstance(found, list) else None


def array_property(api: ApiMap, role: Role) -> str | None:
    """The array property of ``role``'s success body (the one holding jobs, if several)."""
    schema = api.operation(role).success.schema
    if schema is None:
        return None
    walker = api.spec.walker
    view = walker.view(schema)
    arrays = [name for name in view.properties if _is_array(walker.property(view, name))]
    job = _job_component(api)
    for name in arrays:
        items = walker.property(view, name)
        if (
            items is not None
            and items.items is not None
            and job is not None
            and walker.view(items.items).ref_name == job
        ):
            return name
    return arrays[0] if len(arrays) == 1 else None


def _is_array(view: SchemaView | None) -> bool:
    return view is not None and "array" in view.types


def _job_component(api: ApiMap) -> str | None:
    schema = api.show.success.schema
    return None if schema is None else api.spec.walker.view(schema).ref_name


def list_shape(api: ApiMap, role: Role) -> ListShape | None:
    """How ``role`` lists (None: the spec has no such operation, or no array in its answer)."""
    operation = api.get(role)
    if operation is None:
        return None
    entries = array_property(api, role)
    if entries is None:
        return None
    names = _request_fields(api, role)
    limit = names.get(LIMIT)
    maximum = limit.schema.get("maximum") if limit is not None else None
    return ListShape(
        role=role,
        entries=entries,
        paged=LIMIT in names and OFFSET in names,
        max_limit=maximum if isinstance(maximum, int) else None,
    )


def _request_fields(api: ApiMap, role: Role) -> Mapping[str, SchemaView]:
    """The paging fields of ``role``: its body's properties, else its query parameters."""
    operation = api.operation(role)
    walker = api.spec.walker
    if operation.request_schema is not None:
        view = walker.view(operation.request_schema)
        found = {name: walker.property(view, name) for name in view.properties}
        return {name: v for name, v in found.items() if v is not None}
    return {
        p.name: walker.view(p.schema)
        for p in operation.parameters
        if p.location == "query" and p.schema is not None
    }


@dataclass(frozen=True)
class Page:
    """One answer of a walk: the entries' ids (None where the answer is not a list)."""

    offset: int
    response: ProbeResponse
    ids: tuple[JSON, ...] | None


def fetch(
    probe: Probe,
    shape: ListShape,
    *,
    offset: int,
    limit: int,
    job_id: str | None = None,
    extra: Mapping[str, Any] | None = None,
) -> Page:
    """One page of ``shape``'s list: ``offset`` and ``limit`` in its body or its query."""
    operation = probe.api.operation(shape.role)
    paging = {OFFSET: offset, LIMIT: limit, **(extra or {})}
    if operation.request_schema is not None:
        response = probe.send(shape.role, job_id=job_id, body=paging)
    else:
        query = {name: str(value) for name, value in paging.items()}
        response = probe.send(shape.role, job_id=job_id, query=query)
    entries = shape.entries_of(response.json()) if 200 <= response.status < 300 else None
    ids = None if entries is None else tuple(_identity(probe.api, e) for e in entries)
    return Page(offset, response, ids)


def _identity(api: ApiMap, entry: JSON) -> JSON:
    job_id = api.job_id_of(entry)
    return job_id if job_id is not None else repr(entry)


def walk(
    probe: Probe,
    shape: ListShape,
    *,
    limit: int,
    step: int,
    first: int = 0,
    max_pages: int = MAX_PAGES,
) -> list[Page]:
    """Pages at offsets ``first``, ``first + step``, ... until one is short, is not a list,
    or ``max_pages`` were read."""
    pages: list[Page] = []
    offset = first
    while len(pages) < max_pages:
        page = fetch(probe, shape, offset=offset, limit=limit)
        pages.append(page)
        if page.ids is None or len(page.ids) < limit:
            break
        offset += step
    return pages


def find_in_list(probe: Probe, shape: ListShape, job_id: str) -> tuple[bool, Page | None]:
    """Whether ``job_id`` is on the list, reading pages of the largest size the spec allows
    (newest first by default, so a new job is on the first page but for a crowded target).

    Only the first page is read at an offset both readings of ``offset`` agree on; later
    pages are read one record at a time, where they agree too."""
    limit = shape.max_limit or 1
    first = fetch(probe, shape, offset=0, limit=limit)
    if first.ids is None:
        return False, first
    if job_id in first.ids:
        return True, first
    if len(first.ids) < limit:
        return False, first
    for page in walk(probe, shape, limit=1, step=1, first=len(first.ids)):
        if page.ids is None:
            return False, page
        if job_id in page.ids:
            return True, page
    return False, first
