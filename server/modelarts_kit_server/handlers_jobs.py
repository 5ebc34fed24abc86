"""Handlers of the job operations beyond create, show and terminate: list, delete, describe.

- **list** (:func:`list_jobs`): the request's project's jobs (their documents and their phase
  at the clock's now, where the spec's lifecycle puts it), searched by
  :func:`modelarts_kit_server.search.search` (filters, sort,
  group, pages). How it pages is the spec's ``x-modelarts-paging`` (``spec.meaning.paging``):
  what ``offset`` counts, the default of ``limit`` (else its largest), the default order, and
  which answer field counts every job and which those that match; a spec without it keeps the
  request schema's defaults, else the page's. ``workspace_id`` (sent by real clients such as
  ``modelarts-macli``) keeps the jobs of that workspace (a job without one is in ``"0"``, the
  page's default). The jobs of the page are rendered as show renders them, and the answer is
  shaped to the spec's success schema.
- **delete** (:func:`delete_job`): the job and its events are gone (show answers the unknown-job
  error, list leaves it out); deleting it again answers the meaning the spec lists for a
  deleted job (else the unknown-job error). A body of ``{}`` or no body is accepted.
- **describe** (:func:`describe_job`): ``description`` replaces ``metadata.description``; show and
  list show it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from modelarts_kit_spec.paging import OffsetCounts, OperationPaging, TotalCounts

from modelarts_kit_server import errors
from modelarts_kit_server import handlers as jobs
from modelarts_kit_server.context import JobServer, JsonResponse, RequestContext, short
from modelarts_kit_server.errors import ApiError
from modelarts_kit_server.query import schema_default
from modelarts_kit_server.rendering import conform_to_schema
from modelarts_kit_server.search import (
    DEFAULT_SORT,
    DESCENDING,
    FILTER_FIELDS,
    Filter,
    SearchQuery,
    search,
)
from modelarts_kit_server.store import JobRecord

__all__ = ["delete_job", "describe_job", "list_jobs", "search_query", "success_response"]

PHASE_KEY = "phase"  # the list page's filter key for the job's phase
DEFAULT_WORKSPACE = "0"  # the list page: "The default value is 0"
FALLBACK_LIMIT = 50  # the page's largest limit, where the spec gives no default


def success_response(context: RequestContext, body: Any) -> JsonResponse:
    """``body`` shaped to the operation's success schema, with its documented status; no body
    at all where the spec documents the success without content."""
    response = context.operation.success
    if response.schema is None:
        return JsonResponse(int(response.status), None, empty=True)
    body = conform_to_schema(context.server.spec, response.schema, body)
    return JsonResponse(int(response.status), body)


def _request_default(context: RequestContext, name: str) -> Any:
    schema = context.operation.request_schema
    if not isinstance(schema, Mapping):
        return None
    view = context.server.spec.walker.view(schema)
    return schema_default(context.server.spec, view.properties.get(name))


def _integer(value: Any, fallback: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else fallback


def _text(value: Any, fallback: str) -> str:
    return value if isinstance(value, str) and value else fallback


def _filters(raw: Any) -> tuple[Filter, ...]:
    """The body's filters; a filter without an operator compares for equality (``in``)."""
    found = []
    for item in raw if isinstance(raw, list) else ():
        if not isinstance(item, Mapping):
            continue
        values = item.get("value")
        listed = values if isinstance(values, list) else [] if values is None else [values]
        found.append(
            Filter(
                key=str(item.get("key", "")),
                operator=str(item.get("operator", "in")),
                values=tuple(v if isinstance(v, str) else str(v) for v in listed),
            )
        )
    return tuple(found)


def paging_of(context: RequestContext) -> OperationPaging | None:
    """How the operation pages, as the spec says (None: it does not say)."""
    return context.server.spec.meaning.paging.of(context.operation.operation_id)


def search_query(context: RequestContext, body: Mapping[str, Any]) -> SearchQuery:
    """The search the list body asks for, with the spec's defaults for what it leaves out.

    ``offset`` is the request's, as sent; :func:`_page_of` places it."""
    paging = paging_of(context)
    offset_name = paging.offset.field if paging is not None else "offset"
    limit_name = paging.limit.field if paging is not None else "limit"
    order = paging.order if paging is not None else None

    def given(name: str) -> Any:
        return body[name] if name in body else _request_default(context, name)

    fallback_limit = FALLBACK_LIMIT
    if paging is not None:
        fallback_limit = paging.limit.default or paging.limit.largest
    return SearchQuery(
        filters=_filters(body.get("filters")),
        sort_by=_text(given("sort_by"), order.key if order is not None else DEFAULT_SORT),
        order=_text(given("order"), (order.direction if order else None) or DESCENDING),
        group_by=_text(given("group_by"), ""),
        offset=max(0, _integer(given(offset_name), 0)),
        limit=max(1, _integer(given(limit_name), fallback_limit)),
    )


def _page_of(paging: OperationPaging | None, query: SearchQuery) -> tuple[SearchQuery, int]:
    """The search to run for the requested page, and how many of its first entries to drop:
    an offset counting pages is the search's own; one counting entries asks for the entries
    up to the page's end and drops those before it."""
    if paging is None or paging.offset.counts is OffsetCounts.PAGES:
        return query, 0
    first = paging.offset.first_entry(query.offset, query.limit)
    return replace(query, offset=0, limit=first + query.limit), first


def _counts(paging: OperationPaging | None, total: int, count: int) -> dict[str, int]:
    """The answer's counting fields, each counting what the spec says it counts."""
    if paging is None:
        return {"total": total, "count": count}
    counted = (c for c in (paging.total, paging.count) if c is not None)
    return {c.field: total if c.counts is TotalCounts.ALL else count for c in counted}


def _phase_path(server: JobServer) -> tuple[str, ...]:
    """Where the phase is in a job: the spec's lifecycle pointer (e.g. ``/status/phase``)."""
    pointer = server.spec.meaning.lifecycle.phase_field
    return tuple(part.replace("~1", "/").replace("~0", "~") for part in pointer.split("/")[1:])


def _searchable(
    server: JobServer, record: JobRecord, now_ms: int, phase_path: tuple[str, ...]
) -> dict[str, Any]:
    """The job's document with its phase at ``now_ms`` where the spec puts it (the only
    computed field a search reads)."""
    phase: Any = server.simulation.snapshot_at(record.timeline, now_ms).phase
    for part in reversed(phase_path[1:]):
        phase = {part: phase}
    return {**record.document, phase_path[0]: phase} if phase_path else dict(record.document)


def _workspace(document: Mapping[str, Any]) -> str:
    metadata = document.get("metadata")
    value = metadata.get("workspace_id") if isinstance(metadata, Mapping) else None
    return value if isinstance(value, str) and value else DEFAULT_WORKSPACE


def list_jobs(context: RequestContext) -> JsonResponse:
    body = jobs.validate_body(context)
    body = body if isinstance(body, Mapping) else {}
    query = search_query(context, body)
    paging = paging_of(context)
    run, dropped = _page_of(paging, query)
    server = context.server
    now_ms = server.clock.now_ms()
    records = server.store.jobs(context.project_id)
    workspace = body.get("workspace_id")
    if isinstance(workspace, str) and workspace:
        records = [record for record in records if _workspace(record.document) == workspace]
    # Search over each job's document and phase; only the page is rendered whole.
    phase_path = _phase_path(server)
    fields = {**FILTER_FIELDS, PHASE_KEY: phase_path}
    searchable = [_searchable(server, record, now_ms, phase_path) for record in records]
    by_id = {id(document): record for document, record in zip(searchable, records, strict=True)}
    result = search(searchable, run, fields)
    page = result.items[dropped:]
    items = [jobs.render_job(server, by_id[id(job)], now_ms) for job in page]
    answer: dict[str, Any] = {
        **_counts(paging, result.total, result.count),
        paging.limit.field if paging is not None else "limit": query.limit,
        paging.offset.field if paging is not None else "offset": query.offset,
        "sort_by": query.sort_by,
        "order": query.order,
        "group_by": query.group_by,
        "workspace_id": workspace if isinstance(workspace, str) and workspace else None,
        "ai_project": None,  # the response schema's default, if it has one
        paging.items if paging is not None else "items": items,
    }
    if answer["workspace_id"] is None:
        answer["workspace_id"] = _request_default(context, "workspace_id")
    if answer["ai_project"] is None:
        answer["ai_project"] = _response_default(context, "ai_project")
    return success_response(context, {k: v for k, v in answer.items() if v is not None})


def _response_default(context: RequestContext, name: str) -> Any:
    schema = context.operation.success.schema
    if not isinstance(schema, Mapping):
        return None
    view = context.server.spec.walker.view(schema)
    return schema_default(context.server.spec, view.properties.get(name))


def _unknown_job(context: RequestContext) -> ApiError:
    """The error for a job the project does not have: a deleted one's meaning, if the spec
    gives one, else the unknown-job error."""
    job_id = context.job_id
    if context.server.store.was_deleted(context.project_id, job_id):
        return ApiError(jobs.meaning_for(context, errors.DELETED_JOB_MEANINGS), short(job_id))
    return ApiError(errors.JOB_NOT_FOUND, short(job_id))


def delete_job(context: RequestContext) -> JsonResponse:
    jobs.validate_body(context)
    server = context.server
    if server.store.delete(context.project_id, context.job_id, server.clock.now_ms()) is None:
        raise _unknown_job(context)
    return success_response(context, None)


def describe_job(context: RequestContext) -> JsonResponse:
    body = jobs.validate_body(context)
    body = body if isinstance(body, Mapping) else {}

    def describe(document: dict[str, Any]) -> dict[str, Any]:
        if "description" in body:
            metadata = document.get("metadata")
            changed = dict(metadata) if isinstance(metadata, Mapping) else {}
            changed.pop("description", None)
            if body["description"] is not None:  # null: no description (the page's default)
                changed["description"] = body["description"]
            document["metadata"] = changed
        return document

    if context.server.store.change_document(context.project_id, context.job_id, describe) is None:
        raise _unknown_job(context)
    return success_response(context, None)
