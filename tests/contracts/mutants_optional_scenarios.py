"""Single-fault mutants of the nine further operations that ``contract server`` could not see
before issue 32: each is killed by one of its scenarios, with a page quote as evidence.

Each is an :class:`~.mutants_optional_operations.Intercept` at the HTTP boundary (the reference
server's code is untouched): a list that ignores its filters, its default order or its project,
events that ignore ``limit`` or read ``offset`` as a page number, job operations that serve any
project, a description cut to the limit instead of refused, metrics values as text, a flavors
filter ignored. ``mutants.py`` turns the entries of :data:`POWER_MUTANTS` into ``Mutant``
objects."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any
from urllib.parse import parse_qsl, urlencode

from modelarts_kit_server import DEV_PROJECT_ID
from modelarts_kit_server.app import ReferenceServer

from .mutants_optional_operations import (
    EVENTS,
    JOB,
    SEARCH,
    TASK,
    Answer,
    Call,
    Handle,
    Install,
    Server,
)
from .mutants_optional_operations import _intercepting as intercepting
from .mutants_optional_operations import _searching as searching

__all__ = ["POWER_MUTANTS"]

FLAVORS = re.compile(r"^/v2/(?P<project>[^/]+)/training-job-flavors$")
METRICS = re.compile(r"^/v2/[^/]+/training-jobs/[^/]+/metrics/[^/]+$")
DESCRIPTION_LIMIT = 256  # the modify-description page: "0 to 256 characters"


def _search_body(change: Callable[[dict[str, Any]], None]) -> Install:
    """``change`` rewrites every list request body before the server reads it."""
    return intercepting(searching(change))


def _filters_dropped(request: dict[str, Any]) -> None:
    request.pop("filters", None)


def _ascending_by_default(request: dict[str, Any]) -> None:
    request.setdefault("order", "asc")


def _query(pattern: re.Pattern[str], change: Callable[[dict[str, str]], None]) -> Install:
    """``change`` rewrites the query of every GET whose path matches ``pattern``."""

    def make(app: ReferenceServer) -> Handle:
        async def handle(call: Call, server: Server) -> Answer:
            if call.method == "GET" and pattern.match(call.path):
                query = dict(parse_qsl(call.query.decode("latin-1"), keep_blank_values=True))
                change(query)
                return await server(replace(call, query=urlencode(query).encode("latin-1")))
            return await server(call)

        return handle

    return intercepting(make)


def _limit_dropped(query: dict[str, str]) -> None:
    query.pop("limit", None)


def _offset_as_page(query: dict[str, str]) -> None:
    offset, limit = query.get("offset", "0"), query.get("limit", "1")
    if offset.isdigit() and limit.isdigit():
        query["offset"] = str(int(offset) * int(limit))


def _flavor_type_dropped(query: dict[str, str]) -> None:
    query.pop("flavor_type", None)


def _own_project(path: str, project: str) -> str:
    return path.replace(f"/v2/{project}/", f"/v2/{DEV_PROJECT_ID}/", 1)


def _lists_the_first_project(app: ReferenceServer) -> Handle:
    """Every project's search answers the run's project's jobs."""

    async def handle(call: Call, server: Server) -> Answer:
        found = SEARCH.match(call.path)
        if call.method == "POST" and found:
            return await server(replace(call, path=_own_project(call.path, found["project"])))
        return await server(call)

    return handle


def _job_operations_any_project(app: ReferenceServer) -> Handle:
    """Events, logs, metrics, describe and delete serve a job through any project's path."""

    async def handle(call: Call, server: Server) -> Answer:
        job = JOB.match(call.path)
        other = EVENTS.match(call.path) or TASK.match(call.path)
        changing = job is not None and call.method in ("PUT", "DELETE")
        found = other or (job if changing else None)
        if found is not None:
            return await server(replace(call, path=_own_project(call.path, found["project"])))
        return await server(call)

    return handle


def _description_cut(app: ReferenceServer) -> Handle:
    """A description beyond the limit is cut to it and accepted."""

    async def handle(call: Call, server: Server) -> Answer:
        request = call.json()
        text = request.get("description") if isinstance(request, dict) else None
        if call.method == "PUT" and JOB.match(call.path) and isinstance(text, str):
            return await server(
                call.with_json({**request, "description": text[:DESCRIPTION_LIMIT]})
            )
        return await server(call)

    return handle


def _metrics_as_text(app: ReferenceServer) -> Handle:
    """Each metric's values are answered as strings."""

    async def handle(call: Call, server: Server) -> Answer:
        answer = await server(call)
        if call.method == "GET" and METRICS.match(call.path) and answer.ok:
            document = answer.json()
            for metric in document.get("metrics") or []:
                metric["value"] = [str(v) for v in metric.get("value") or []]
            answer.set_json(document)
        return answer

    return handle


# (name, category, fault, install): mutants.py makes each a Mutant.
POWER_MUTANTS: tuple[tuple[str, str, str, Install], ...] = (
    (
        "list_filters_ignored",
        "list",
        "the list ignores its filters (answers every job)",
        _search_body(_filters_dropped),
    ),
    (
        "list_ascending_by_default",
        "list",
        "without an order the list is oldest first (the page's default is desc)",
        _search_body(_ascending_by_default),
    ),
    (
        "list_shows_other_projects",
        "list",
        "every project's list answers the first project's jobs",
        intercepting(_lists_the_first_project),
    ),
    (
        "events_ignore_limit",
        "events",
        "the events ignore limit (answer the default page)",
        _query(EVENTS, _limit_dropped),
    ),
    (
        "events_offset_counts_pages",
        "events",
        "the events read offset as a page number (the page says a data entry)",
        _query(EVENTS, _offset_as_page),
    ),
    (
        "job_operations_any_project",
        "isolation",
        "events, logs, metrics, describe and delete serve a job through any project's path",
        intercepting(_job_operations_any_project),
    ),
    (
        "description_cut_not_refused",
        "describe",
        "a description beyond 256 characters is cut to 256 and accepted",
        intercepting(_description_cut),
    ),
    (
        "metrics_values_as_text",
        "tasks",
        "the values of a task's metrics are strings",
        intercepting(_metrics_as_text),
    ),
    (
        "flavors_filter_ignored",
        "flavors",
        "the flavors ignore flavor_type (answer every flavor)",
        _query(FLAVORS, _flavor_type_dropped),
    ),
)
