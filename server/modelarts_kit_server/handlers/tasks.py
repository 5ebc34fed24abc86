"""Handlers of what a job produces: its events, and per task its log preview, log link and
metrics.

- **events** (:func:`job_events`): the stored phase transitions of the job that have happened
  (:mod:`modelarts_kit_server.events`), selected by the query parameters the spec documents
  (their defaults are the spec's); the page is the spec's ``x-modelarts-paging`` (what
  ``offset`` counts, the default of ``limit``); a job stored before events were recorded gets
  its history recorded on the first read.
- **logs preview, logs URL, metrics** (:func:`task_log_preview`, :func:`task_log_url`,
  :func:`task_metrics`): the task is the path parameter beside the project and the job (the
  spec's), one of the names in the job's ``status.tasks``; any other answers the meaning the
  spec lists for an unknown task (else the unknown-job error). The output is simulated
  (:mod:`modelarts_kit_server.tasks`); the metric names are the spec's documented values of
  the response's ``metric`` field, else those of its example.
- **log download** (:func:`task_log_download`): what a log link of the logs URL serves, the
  task's whole log now (:mod:`modelarts_kit_server.downloads` signs and checks the links).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from modelarts_kit_spec import Operation, Spec
from modelarts_kit_spec.paging import OperationPaging
from modelarts_kit_spec.values import documented_values

from modelarts_kit_server import errors, tasks
from modelarts_kit_server.catalogue import response_examples
from modelarts_kit_server.context import JobServer, JsonResponse, RequestContext, short
from modelarts_kit_server.downloads import LinkRefused, LogTarget
from modelarts_kit_server.errors import ApiError
from modelarts_kit_server.events import (
    EventQuery,
    format_time,
    parse_time,
    render_event,
    select_events,
)
from modelarts_kit_server.handlers import job_core as jobs
from modelarts_kit_server.handlers.job_records import paging_of, success_response
from modelarts_kit_server.lifecycle import Snapshot
from modelarts_kit_server.query import query_parameters
from modelarts_kit_server.store import JobRecord

__all__ = [
    "job_events",
    "metric_names",
    "task_log_download",
    "task_log_preview",
    "task_log_url",
    "task_metrics",
]

FALLBACK_EVENT_LIMIT = 50  # the events page: "The default value is 50"
DOWNLOAD_TYPE = "application/octet-stream"  # the logs URL page: asks for a download link
LINK_KIND = "Content-Type"  # the logs URL page's parameter choosing the kind of link
WINDOW = ("start_time", "end_time")


def _time(value: Any) -> int | None:
    """A window end, or None: the page types it String and only its example shows epoch
    milliseconds (a guidance format, which the strict end's envelope has already enforced);
    at the lenient end a time the server cannot read restricts nothing."""
    try:
        return parse_time(str(value))
    except ValueError:
        return None


def _event_query(parameters: Mapping[str, Any], paging: OperationPaging | None) -> EventQuery:
    """The events the query asks for; ``offset`` is the position of the page's first event
    (what the request's offset names, by what the spec says it counts)."""
    given = [name for name in WINDOW if parameters.get(name) not in (None, "")]  # "" = none
    if len(given) == 1:
        missing = next(name for name in WINDOW if name not in given)
        raise ApiError(
            errors.INVALID_PARAM,
            f"query parameter {missing}: required parameter is missing (rule: start_time and "
            "end_time are passed together)",
        )

    def text(name: str) -> str | None:
        value = parameters.get(name)
        return str(value) if value is not None and str(value) != "" else None

    offset_name = paging.offset.field if paging is not None else "offset"
    limit_name = paging.limit.field if paging is not None else "limit"
    fallback = FALLBACK_EVENT_LIMIT
    if paging is not None:
        fallback = paging.limit.default or paging.limit.largest
    offset, limit = parameters.get(offset_name, 0), parameters.get(limit_name, fallback)
    offset = offset if isinstance(offset, int) else 0
    limit = limit if isinstance(limit, int) else fallback
    first = paging.offset.first_entry(offset, limit) if paging is not None else offset
    start_ms = _time(parameters["start_time"]) if given else None
    end_ms = _time(parameters["end_time"]) if given else None
    if start_ms is None or end_ms is None:
        start_ms = end_ms = None
    return EventQuery(
        order="asc" if str(parameters.get("order", "desc")).lower() == "asc" else "desc",
        # The offset applied, and answered: a negative one (allowed by the page, refused by the
        # ledger's decision at the strict end) names no entry before the first, so it is read
        # as 0, never echoed.
        offset=max(0, first),
        limit=limit,
        start_ms=start_ms,
        end_ms=end_ms,
        level=text("level"),
        source=text("source"),
        pattern=text("pattern"),
    )


def job_events(context: RequestContext) -> JsonResponse:
    record = jobs.find_job(context)
    parameters = query_parameters(context)
    paging = paging_of(context)
    query = _event_query(parameters, paging)
    server = context.server
    stored = server.store.events(record.project_id, record.job_id)
    if not stored:  # a job of a store from before events were recorded
        jobs.record_events(server, record, record.timeline.created_ms)
        stored = server.store.events(record.project_id, record.job_id)
    total, page = select_events(stored, server.clock.now_ms(), query)
    # The answer's names for the paging fields are the request's (the spec's paging names
    # them once); the offset answered is the one applied, never a negative one as if valid.
    total_name = paging.total.field if paging is not None and paging.total else "total"
    offset_name = paging.offset.field if paging is not None else "offset"
    limit_name = paging.limit.field if paging is not None else "limit"
    offset = parameters.get(offset_name, 0)
    body: dict[str, Any] = {
        total_name: total,
        limit_name: query.limit,
        offset_name: max(0, offset) if isinstance(offset, int) else 0,
        "order": query.order,
    }
    if query.start_ms is not None and query.end_ms is not None:
        body["start_time"] = format_time(query.start_ms)
        body["end_time"] = format_time(query.end_ms)
    body[paging.items if paging is not None else "events"] = [render_event(e) for e in page]
    return success_response(context, body)


# -- tasks --------------------------------------------------------------------------------------


def _task_parameter(context: RequestContext) -> str:
    """The path parameter naming the task: the one beside the project and the job."""
    known = {"project_id", context.server.spec.meaning.roles.job_id_parameter}
    return next(name for name in context.path_params if name not in known)


def _task_state(
    server: JobServer, record: JobRecord, task: str
) -> tuple[Snapshot, int | None] | None:
    """The job's snapshot now and the task's exit code (None: running); None when the job
    has no such task."""
    now_ms = server.clock.now_ms()
    status = jobs.render_job(server, record, now_ms)["status"]
    if task not in status.get("tasks", ()):
        return None
    exit_code = next(
        (s.get("exit_code") for s in status.get("task_statuses", ()) if s.get("task") == task),
        None,
    )
    return server.simulation.snapshot_at(record.timeline, now_ms), exit_code


def _task(context: RequestContext) -> tuple[JobRecord, str, Snapshot, int | None]:
    """The job, the task, the job's snapshot now and the task's exit code (None: running)."""
    record = jobs.find_job(context)
    task = context.path_params[_task_parameter(context)]
    state = _task_state(context.server, record, task)
    if state is None:
        meaning = jobs.meaning_for(context, errors.TASK_NOT_FOUND_MEANINGS)
        raise ApiError(meaning, short(task), detail=f"The job has no task {short(task)!r}.")
    return record, task, *state


def task_log_preview(context: RequestContext) -> JsonResponse:
    record, task, snapshot, exit_code = _task(context)
    return success_response(context, tasks.log_preview(record.job_id, task, snapshot, exit_code))


def task_log_url(context: RequestContext) -> JsonResponse:
    record, task, snapshot, _ = _task(context)
    # The page's table calls it a header, its example sends it in the query: either counts.
    asked = query_parameters(context).get(LINK_KIND) or context.content_type or ""
    download = str(asked).split(";")[0].strip().lower() == DOWNLOAD_TYPE
    target = LogTarget(record.project_id, record.job_id, task, download)
    url = context.server.log_links.url(context.origin, target, snapshot.now_ms)
    return success_response(context, {"obs_url": url})


def task_log_download(server: JobServer, raw_path: str, query_string: str) -> tuple[LogTarget, str]:
    """The link's target and the task's whole log now, the bytes the preview shows;
    :class:`~modelarts_kit_server.downloads.LinkRefused` for a link past its expiry, edited,
    or naming a job or task that is gone."""
    target = server.log_links.check(raw_path, query_string, server.clock.now_ms())
    record = server.store.get(target.project_id, target.job_id)
    state = None if record is None else _task_state(server, record, target.task)
    if record is None or state is None:
        raise LinkRefused(404, "NoSuchKey", "The specified key does not exist.")
    snapshot, exit_code = state
    return target, tasks.log_text(record.job_id, target.task, snapshot, exit_code)


def _schemas_named(spec: Spec, schema: Any, name: str, depth: int = 0) -> Iterator[Any]:
    """The schemas of properties called ``name`` under ``schema`` (arrays' items included)."""
    if not isinstance(schema, Mapping) or depth > 8:
        return
    view = spec.walker.view(schema)
    for key, subschema in view.properties.items():
        if key == name:
            yield subschema
        yield from _schemas_named(spec, subschema, name, depth + 1)
    if view.items is not None:
        yield from _schemas_named(spec, view.items, name, depth + 1)


def _example_values(value: Any, name: str, depth: int = 0) -> Iterator[str]:
    if depth > 8:
        return
    if isinstance(value, Mapping):
        for key, item in value.items():
            if key == name and isinstance(item, str):
                yield item
            yield from _example_values(item, name, depth + 1)
    elif isinstance(value, list):
        for item in value:
            yield from _example_values(item, name, depth + 1)


def metric_names(spec: Spec, operation: Operation) -> tuple[str, ...]:
    """The metrics a task reports: the documented values of the response's ``metric`` field,
    else the names its examples show."""
    for schema in _schemas_named(spec, operation.success.schema, "metric"):
        documented = documented_values(spec.walker.view(schema).schema)
        if documented is not None and documented.values:
            return documented.values
    found = (v for e in response_examples(spec, operation) for v in _example_values(e, "metric"))
    return tuple(dict.fromkeys(found))


def task_metrics(context: RequestContext) -> JsonResponse:
    record, task, snapshot, _ = _task(context)
    names = metric_names(context.server.spec, context.operation)
    values = tasks.metrics(record.job_id, task, names, snapshot, record.timeline.created_ms)
    return success_response(context, {"metrics": values})
