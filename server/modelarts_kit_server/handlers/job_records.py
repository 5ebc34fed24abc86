"""Handlers of the job operations beyond create, show and terminate: list, delete, describe.

- **list** (:func:`list_jobs`): the request's project's jobs (their documents and their phase
  at the clock's now, where the spec's lifecycle puts it), searched by
  :func:`modelarts_kit_server.search.search` (filters, sort,
  group, pages), run as SQL by the store (:meth:`JobStore.search`: only the page's jobs are
  read). How it pages is the spec's ``x-modelarts-paging`` (``spec.meaning.paging``):
  what ``offset`` counts, the default of ``limit`` (else its largest), the default order, and
  which answer field counts every job and which those that match; a spec without it keeps the
  request schema's defaults, else the page's. ``workspace_id`` (sent by real clients such as
  ``modelarts-macli``) keeps the jobs of that workspace (a job without one is in ``"0"``, the
  page's default); since the server acts on it, both ends refuse a value of another type than
  the spec's (the SDK's ``str``, the only evidence of its type) rather than answer another
  workspace's jobs (:data:`ACTED_ON_FIELDS`). The jobs of the page are rendered as show
  renders them, and the answer is shaped to the spec's success schema.
- **delete** (:func:`delete_job`): the job and its events are gone (show answers the unknown-job
  error, list leaves it out); deleting it again answers the meaning the spec lists for a
  deleted job (else the unknown-job error). A body of ``{}`` or no body is accepted.
- **describe** (:func:`describe_job`): ``description`` replaces ``metadata.description``; show and
  list show it.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable, Mapping
from typing import Any

from modelarts_kit_spec import Spec
from modelarts_kit_spec.document import pointer_join
from modelarts_kit_spec.load import unescape_pointer_token
from modelarts_kit_spec.meaning import Role
from modelarts_kit_spec.paging import OperationPaging, TotalCounts

from modelarts_kit_server import errors
from modelarts_kit_server.context import JsonResponse, RequestContext, short
from modelarts_kit_server.errors import ApiError
from modelarts_kit_server.handlers import job_core as jobs
from modelarts_kit_server.query import schema_default
from modelarts_kit_server.rendering import conform_to_schema
from modelarts_kit_server.search import (
    DEFAULT_SORT,
    DESCENDING,
    Filter,
    SearchQuery,
)
from modelarts_kit_server.search_budget import SearchOverBudget
from modelarts_kit_server.search_sql import phase_columns
from modelarts_kit_server.validation import describe_violation, validate_instance

__all__ = ["delete_job", "describe_job", "list_jobs", "search_query", "success_response"]

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


# The search body's fields the server acts on although no page documents them for the request
# (workspace_id: the list keeps that workspace's jobs). Acting on a value of another type
# would answer silently wrong (workspace "0"'s jobs for ``7``), so at both ends such a field
# is typed by the spec's schema of it, whose type is the vendor SDK's (the ledger entry
# ``sdk-added-list-request-workspace-id``, marked ``reference_server: acts-on``). A
# page-correct server may ignore the field and accept any value: the contract kit places such
# a body between its envelopes.
ACTED_ON_FIELDS = ("workspace_id",)


def enforced_document(spec: Spec) -> dict[str, Any]:
    """What the lenient end enforces, as a document (a copy): must-reject
    (``spec.obligations()``) with the spec's own schema of each field of the list body the
    server acts on (:data:`ACTED_ON_FIELDS`). Data valid against it the lenient end accepts."""
    document: dict[str, Any] = copy.deepcopy(dict(spec.obligations().document))
    operation = spec.meaning.roles.get(Role.LIST)
    schema = operation.request_schema if operation is not None else None
    if schema is None:
        return document
    for name in ACTED_ON_FIELDS:
        known = spec.walker.at_pointer(schema, pointer_join("", name))
        if known is None or not known.pointer:
            continue
        *parents, last = (unescape_pointer_token(t) for t in known.pointer.split("/")[1:])
        holder: Any = document
        for token in parents:
            holder = holder[token]
        holder[last] = copy.deepcopy(spec.at(known.pointer))
    return document


_JSON_TYPES = ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"),
               (list, "array"), (dict, "object"), (type(None), "null"))  # fmt: skip


def _check_acted_on_fields(context: RequestContext, body: Mapping[str, Any]) -> None:
    """``invalid-parameter`` naming the field, the value's JSON type and the rule when a field
    of :data:`ACTED_ON_FIELDS` in ``body`` breaks the spec's schema of it."""
    schema = context.operation.request_schema
    if not isinstance(schema, Mapping):
        return
    spec = context.server.spec
    properties = spec.walker.view(schema).properties
    for name in ACTED_ON_FIELDS:
        if name not in body or properties.get(name) is None:
            continue
        violation = validate_instance(spec, properties[name], body[name])
        if violation is not None:
            sent = next(label for kind, label in _JSON_TYPES if isinstance(body[name], kind))
            raise ApiError(
                errors.INVALID_PARAM,
                f"{describe_violation(violation, prefix=(name,))} (a JSON {sent} was sent; the "
                f"server acts on {name}, typed by the vendor SDK)",
            )


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

    ``offset`` is the request's, as sent; :func:`list_jobs` places it by the spec's paging."""
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


# The caps of one search body, checked before the body is validated or searched: generous
# (a search names a handful of filters of a few values each) but they bound the work, jobs
# times values; documented in the README and in the spec's description of the body.
MAX_SEARCH_FILTERS = 64
MAX_FILTER_VALUES = 256
# How long one search may take over the project's jobs (seconds of the budget's clock).
SEARCH_BUDGET_S = 2.0


def _counts(paging: OperationPaging | None, total: int, count: int) -> dict[str, int]:
    """The answer's counting fields, each counting what the spec says it counts."""
    if paging is None:
        return {"total": total, "count": count}
    counted = (c for c in (paging.total, paging.count) if c is not None)
    return {c.field: total if c.counts is TotalCounts.ALL else count for c in counted}


def _check_search_caps(body: Any) -> None:
    """``invalid-parameter`` naming the rule when a search body has more filters, or a
    filter more values, than the caps allow."""
    filters = body.get("filters") if isinstance(body, Mapping) else None
    if not isinstance(filters, list):
        return
    if len(filters) > MAX_SEARCH_FILTERS:
        raise ApiError(
            errors.INVALID_PARAM,
            f"/filters: {len(filters)} filters violates at most {MAX_SEARCH_FILTERS} filters "
            "per search",
        )
    for index, condition in enumerate(filters):
        values = condition.get("value") if isinstance(condition, Mapping) else None
        if isinstance(values, list) and len(values) > MAX_FILTER_VALUES:
            raise ApiError(
                errors.INVALID_PARAM,
                f"/filters/{index}/value: {len(values)} values violates at most "
                f"{MAX_FILTER_VALUES} values per filter",
            )


def _search_clock() -> float:
    """The clock of the search budget (a test replaces it with a counting one)."""
    return time.monotonic()


def _over_budget() -> Callable[[], bool]:
    """Whether the search begun now has spent :data:`SEARCH_BUDGET_S`: asked by the store
    while SQLite runs the search, so the budget holds whatever the filters cost."""
    end = _search_clock() + SEARCH_BUDGET_S
    return lambda: _search_clock() > end


def list_jobs(context: RequestContext) -> JsonResponse:
    body = jobs.validate_body(context, precheck=_check_search_caps)
    body = body if isinstance(body, Mapping) else {}
    _check_acted_on_fields(context, body)
    query = search_query(context, body)
    paging = paging_of(context)
    server = context.server
    now_ms = server.clock.now_ms()
    workspace = body.get("workspace_id")
    # Filters, order, groups and the page run in the store's SQL; the phase at now_ms is
    # computed there from each job's timeline, and only the page's jobs are read and rendered.
    # Where the page starts is the spec's paging (what offset counts; pages without it).
    start = (
        paging.offset.first_entry(query.offset, query.limit)
        if paging is not None
        else query.offset * query.limit
    )
    try:
        found = server.store.search(
            context.project_id,
            query,
            phase=phase_columns(server.simulation, now_ms),
            workspace=workspace if isinstance(workspace, str) and workspace else None,
            start=start,
            limit=query.limit,
            over_budget=_over_budget(),
        )
    except SearchOverBudget:
        raise ApiError(
            errors.INVALID_PARAM,
            f"/filters: the search violates its time budget of {SEARCH_BUDGET_S:g} s "
            "(narrow the filters or their values)",
        ) from None
    items = [jobs.render_job(server, record, now_ms) for record in found.records]
    answer: dict[str, Any] = {
        **_counts(paging, found.total, found.count),
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
