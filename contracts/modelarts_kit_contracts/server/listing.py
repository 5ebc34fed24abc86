"""Reading lists the way the spec shapes them: the array a list answer carries, and its pages.

How a list pages is the spec's ``x-modelarts-paging`` (``spec.meaning.paging``, the one
reader): the array holding the page, where ``offset`` and ``limit`` travel and their names,
what ``offset`` counts (the list page: "Number of pages for querying jobs"), the limit's range,
and each rule's quote of its page. An operation the spec does not say pages is read whole: its
array is the property of the success schema whose items are the show operation's job (else its
one array property).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from modelarts_kit_spec.meaning import Role
from modelarts_kit_spec.paging import OperationPaging
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
    paging: OperationPaging | None  # how it pages (None: the spec does not say it pages)

    @property
    def paged(self) -> bool:
        return self.paging is not None

    @property
    def max_limit(self) -> int | None:
        return self.paging.limit.maximum if self.paging is not None else None

    def entries_of(self, body: JSON) -> list[JSON] | None:
        found = member(body, self.entries)
        return found if isinstance(found, list) else None

    def next_offset(self, offset: int, entries: int) -> int:
        """The offset of the page after one at ``offset`` holding ``entries`` entries."""
        return self.paging.offset.after(offset, entries) if self.paging is not None else offset

    def evidence(self, *parts: str) -> str:
        """The page quotes of the paging rules ``parts`` (``offset``, ``limit``, ...)."""
        return self.paging.evidence(*parts) if self.paging is not None else ""


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
    paging = api.spec.meaning.paging.of(operation.operation_id)
    entries = paging.items if paging is not None else array_property(api, role)
    if entries is None:
        return None
    return ListShape(role=role, entries=entries, paging=paging)


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
    described = shape.paging
    offset_name = described.offset.field if described is not None else OFFSET
    limit_name = described.limit.field if described is not None else LIMIT
    paging = {offset_name: offset, limit_name: limit, **(extra or {})}
    in_body = described.location == "body" if described is not None else False
    if in_body:
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
    first: int = 0,
    max_pages: int = MAX_PAGES,
) -> list[Page]:
    """Pages from offset ``first``, each at the offset the spec says follows the one before,
    until one is short, is not a list, or ``max_pages`` were read."""
    pages: list[Page] = []
    offset = first
    while len(pages) < max_pages:
        page = fetch(probe, shape, offset=offset, limit=limit)
        pages.append(page)
        if page.ids is None or len(page.ids) < limit:
            break
        offset = shape.next_offset(offset, len(page.ids))
    return pages


def find_in_list(probe: Probe, shape: ListShape, job_id: str) -> tuple[bool, Page | None]:
    """Whether ``job_id`` is on the list, reading pages of the largest size the spec allows
    (newest first by default, so a new job is on the first page but for a crowded target);
    later pages are read one record at a time (offset 0 and limit 1 name the same entries
    whatever offset counts)."""
    limit = shape.max_limit or 1
    first = fetch(probe, shape, offset=0, limit=limit)
    if first.ids is None:
        return False, first
    if job_id in first.ids:
        return True, first
    if len(first.ids) < limit:
        return False, first
    for page in walk(probe, shape, limit=1, first=len(first.ids)):
        if page.ids is None:
            return False, page
        if job_id in page.ids:
            return True, page
    return False, first
