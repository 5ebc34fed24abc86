"""Single-fault mutants of the reference server's optional operations (issue 26).

Each is an :class:`Intercept`: an ASGI middleware that sees one request and may answer it
itself, change it before the server sees it, ask the server something first (show the job,
through the same credentials) or change the answer. None touches the server's code: the
faults are the ones a list, delete, describe, events or task handler could have, played at
the HTTP boundary (``mutants.py`` turns the entries of :data:`FAMILY_MUTANTS` into its
``Mutant`` objects).
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from typing import Any

from modelarts_kit_server.app import ReferenceServer
from modelarts_kit_wire.asgi import ASGIApp, Message, Receive, Scope, Send, runs_on_any_loop

__all__ = ["FAMILY_MUTANTS", "Answer", "Call", "Intercept"]

JOB = re.compile(r"^/v2/(?P<project>[^/]+)/training-jobs/(?P<job>[^/]+)$")
SEARCH = re.compile(r"^/v2/(?P<project>[^/]+)/training-job-searches$")
EVENTS = re.compile(r"^/v2/(?P<project>[^/]+)/training-jobs/(?P<job>[^/]+)/events$")
TASK = re.compile(
    r"^/v2/(?P<project>[^/]+)/training-jobs/(?P<job>[^/]+)/"
    r"(?:tasks/(?P<log_task>[^/]+)/logs/(?:preview|url)|metrics/(?P<metric_task>[^/]+))$"
)
ITEMS = "items"  # the list page's array of jobs
EVENT_LIST = "events"  # the events page's array
BODY_HEADERS = (b"content-length", b"content-type")
NOT_FOUND_STATUS = 400  # the unknown-job error's status (ModelArts.2775)


@dataclass(frozen=True)
class Call:
    """A buffered request."""

    method: str
    path: str
    query: bytes
    headers: tuple[tuple[bytes, bytes], ...]
    body: bytes = b""

    def json(self) -> Any:
        try:
            return json.loads(self.body)
        except ValueError:
            return None

    def with_json(self, document: Any) -> Call:
        return replace(self, body=json.dumps(document).encode("utf-8"))

    def show(self, job_id: str, project: str) -> Call:
        """A show of ``job_id`` with this request's credentials."""
        headers = tuple((k, v) for k, v in self.headers if k.lower() not in BODY_HEADERS)
        return Call("GET", f"/v2/{project}/training-jobs/{job_id}", b"", headers)


@dataclass
class Answer:
    status: int
    headers: list[tuple[bytes, bytes]]
    body: bytes

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    def json(self) -> Any:
        try:
            return json.loads(self.body)
        except ValueError:
            return None

    def set_json(self, document: Any) -> None:
        self.body = json.dumps(document).encode("utf-8")
        self.headers = [(k, v) for k, v in self.headers if k.lower() != b"content-length"]
        self.headers.append((b"content-length", str(len(self.body)).encode()))


Server = Callable[[Call], Awaitable[Answer]]
Handle = Callable[[Call, Server], Awaitable[Answer]]


class Intercept:
    """ASGI middleware: ``handle(call, server)`` answers each HTTP request; ``server(call)``
    asks the wrapped app."""

    def __init__(self, app: ASGIApp, handle: Handle) -> None:
        self.app = app
        self.handle = handle

    @property
    def modelarts_kit_runs_on_any_loop(self) -> bool:
        # A wrapper holds no state of its own: any loop may run it where any may run its app.
        return runs_on_any_loop(self.app)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        call = Call(
            method=str(scope["method"]),
            path=str(scope["path"]),
            query=bytes(scope.get("query_string", b"")),
            headers=tuple(scope["headers"]),
            body=b"".join(chunks),
        )

        async def server(sent: Call) -> Answer:
            return await self._ask(scope, sent)

        answer = await self.handle(call, server)
        await send(
            {"type": "http.response.start", "status": answer.status, "headers": answer.headers}
        )
        await send({"type": "http.response.body", "body": answer.body})

    async def _ask(self, scope: Scope, call: Call) -> Answer:
        headers = [(k, v) for k, v in call.headers if k.lower() != b"content-length"]
        if call.body:
            headers.append((b"content-length", str(len(call.body)).encode()))
        inner = {
            **scope,
            "method": call.method,
            "path": call.path,
            "raw_path": call.path.encode(),
            "query_string": call.query,
            "headers": headers,
        }
        delivered = False

        async def receive() -> Message:
            nonlocal delivered
            if delivered:
                return {"type": "http.disconnect"}
            delivered = True
            return {"type": "http.request", "body": call.body, "more_body": False}

        start: dict[str, Any] = {}
        chunks: list[bytes] = []

        async def capture(message: Message) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(inner, receive, capture)
        return Answer(int(start["status"]), list(start.get("headers", [])), b"".join(chunks))


Install = Callable[[ReferenceServer, ExitStack], ASGIApp]


def _intercepting(make: Callable[[ReferenceServer], Handle]) -> Install:
    def install(app: ReferenceServer, stack: ExitStack) -> ASGIApp:
        return Intercept(app, make(app))

    return install


# --- delete -------------------------------------------------------------------------------------


@dataclass
class Deleted:
    """What the mutant remembers of the jobs it saw deleted: their last show, by id."""

    jobs: dict[str, Any] = field(default_factory=dict)
    answers: dict[str, Answer] = field(default_factory=dict)

    async def delete(self, call: Call, server: Server) -> Answer:
        found = JOB.match(call.path)
        assert found is not None
        shown = await server(call.show(found["job"], found["project"]))
        answer = await server(call)
        if answer.ok:
            self.jobs[found["job"]] = shown.json() if shown.ok else None
            self.answers[found["job"]] = answer
        return answer


def _delete_keeps_listed(app: ReferenceServer) -> Handle:
    """A deleted job stays on the first page of the list."""
    deleted = Deleted()

    async def handle(call: Call, server: Server) -> Answer:
        if call.method == "DELETE" and JOB.match(call.path):
            return await deleted.delete(call, server)
        answer = await server(call)
        request = call.json()
        first_page = not isinstance(request, dict) or not request.get("offset")
        if call.method == "POST" and SEARCH.match(call.path) and answer.ok and first_page:
            document = answer.json()
            document[ITEMS] = [*(j for j in deleted.jobs.values() if j), *document[ITEMS]]
            answer.set_json(document)
        return answer

    return handle


def _delete_twice_accepted(app: ReferenceServer) -> Handle:
    """A second delete of a job gets the first one's success answer."""
    deleted = Deleted()

    async def handle(call: Call, server: Server) -> Answer:
        found = JOB.match(call.path)
        if call.method == "DELETE" and found and found["job"] in deleted.answers:
            answer = await server(call)  # credentials are still checked
            return deleted.answers[found["job"]] if answer.status == NOT_FOUND_STATUS else answer
        if call.method == "DELETE" and found:
            return await deleted.delete(call, server)
        return await server(call)

    return handle


def _show_after_delete(app: ReferenceServer) -> Handle:
    """Show of a deleted job answers 200 with the job as it was."""
    deleted = Deleted()

    async def handle(call: Call, server: Server) -> Answer:
        found = JOB.match(call.path)
        if call.method == "DELETE" and found:
            return await deleted.delete(call, server)
        answer = await server(call)  # credentials are still checked
        gone = call.method == "GET" and found and deleted.jobs.get(found["job"])
        if gone and answer.status == NOT_FOUND_STATUS:
            answer = Answer(200, [(b"content-type", b"application/json")], b"")
            answer.set_json(gone)
        return answer

    return handle


# --- describe -----------------------------------------------------------------------------------


def _description_not_stored(app: ReferenceServer) -> Handle:
    """A change of description is answered as accepted but the job keeps its old one."""

    async def handle(call: Call, server: Server) -> Answer:
        found = JOB.match(call.path)
        if call.method != "PUT" or not found:
            return await server(call)
        shown = await server(call.show(found["job"], found["project"]))
        metadata = (shown.json() or {}).get("metadata") or {} if shown.ok else {}
        kept = {"description": metadata.get("description", "")}
        return await server(call.with_json(kept) if isinstance(call.json(), dict) else call)

    return handle


# --- list -----------------------------------------------------------------------------------------


def _searching(change: Callable[[dict[str, Any]], None]) -> Callable[[ReferenceServer], Handle]:
    """``change`` rewrites every list request body before the server reads it."""

    def make(app: ReferenceServer) -> Handle:
        async def handle(call: Call, server: Server) -> Answer:
            request = call.json()
            if call.method == "POST" and SEARCH.match(call.path) and isinstance(request, dict):
                change(request)
                return await server(call.with_json(request))
            return await server(call)

        return handle

    return make


def _offset_shift(by: int) -> Callable[[dict[str, Any]], None]:
    def change(request: dict[str, Any]) -> None:
        offset = request.get("offset")
        if isinstance(offset, int) and not isinstance(offset, bool) and offset > 0:
            request["offset"] = offset + by

    return change


def _limit_ignored(request: dict[str, Any]) -> None:
    request.pop("limit", None)


def _newest_not_listed(app: ReferenceServer) -> Handle:
    """The first page of the list leaves out its first job."""

    async def handle(call: Call, server: Server) -> Answer:
        answer = await server(call)
        request = call.json()
        first_page = not isinstance(request, dict) or not request.get("offset")
        if call.method == "POST" and SEARCH.match(call.path) and answer.ok and first_page:
            document = answer.json()
            document[ITEMS] = document[ITEMS][1:]
            answer.set_json(document)
        return answer

    return handle


# --- events ---------------------------------------------------------------------------------------


def _events_answer(change: Callable[[ReferenceServer, list[Any]], list[Any]]) -> Install:
    def make(app: ReferenceServer) -> Handle:
        async def handle(call: Call, server: Server) -> Answer:
            answer = await server(call)
            if call.method == "GET" and EVENTS.match(call.path) and answer.ok:
                document = answer.json()
                document[EVENT_LIST] = change(app, list(document[EVENT_LIST]))
                answer.set_json(document)
            return answer

        return handle

    return _intercepting(make)


def _two_swapped(app: ReferenceServer, events: list[Any]) -> list[Any]:
    """The first two neighbouring events with different times change places (of three or
    more events in time order, that leaves them in none)."""
    for index in range(1, len(events)):
        if events[index].get("time") != events[index - 1].get("time"):
            events[index - 1], events[index] = events[index], events[index - 1]
            break
    return events


def _stopping_dropped(app: ReferenceServer, events: list[Any]) -> list[Any]:
    """The events naming the stopping phase (the terminate's) are left out."""
    stopping = re.compile(rf"\b{re.escape(app.spec.meaning.lifecycle.stopping)}\b", re.IGNORECASE)
    return [e for e in events if not stopping.search(json.dumps(e))]


# --- tasks --------------------------------------------------------------------------------------


def _any_task_answered(app: ReferenceServer) -> Handle:
    """Logs and metrics of a task the job does not have answer those of its first task."""

    async def handle(call: Call, server: Server) -> Answer:
        found = TASK.match(call.path)
        if call.method != "GET" or not found:
            return await server(call)
        task = found["log_task"] or found["metric_task"]
        shown = await server(call.show(found["job"], found["project"]))
        tasks = ((shown.json() or {}).get("status") or {}).get("tasks") if shown.ok else None
        if not tasks or task in tasks:
            return await server(call)
        start, end = found.span("log_task") if found["log_task"] else found.span("metric_task")
        return await server(replace(call, path=call.path[:start] + tasks[0] + call.path[end:]))

    return handle


# (name, category, fault, install): mutants.py makes each a Mutant.
FAMILY_MUTANTS: tuple[tuple[str, str, str, Install], ...] = (
    (
        "delete_keeps_listed",
        "delete",
        "a deleted job stays listed",
        _intercepting(_delete_keeps_listed),
    ),
    (
        "delete_twice_accepted",
        "delete",
        "a second delete of the same job is answered as the first (success)",
        _intercepting(_delete_twice_accepted),
    ),
    (
        "show_after_delete_200",
        "delete",
        "show of a deleted job answers 200 with the job",
        _intercepting(_show_after_delete),
    ),
    (
        "description_not_stored",
        "describe",
        "a change of description is accepted but not stored",
        _intercepting(_description_not_stored),
    ),
    (
        "list_pages_overlap",
        "list",
        "a list page after the first starts one entry early (pages overlap by one)",
        _intercepting(_searching(_offset_shift(-1))),
    ),
    (
        "list_pages_skip",
        "list",
        "a list page after the first starts one entry late (one entry skipped)",
        _intercepting(_searching(_offset_shift(+1))),
    ),
    (
        "list_ignores_limit",
        "list",
        "the list ignores limit (answers its default page size)",
        _intercepting(_searching(_limit_ignored)),
    ),
    (
        "created_not_listed",
        "list",
        "the first page of the list leaves out the newest job",
        _intercepting(_newest_not_listed),
    ),
    (
        "events_unordered",
        "events",
        "two events of a job change places (not in time order)",
        _events_answer(_two_swapped),
    ),
    (
        "events_miss_transition",
        "events",
        "the events leave out the transition to the stopping phase",
        _events_answer(_stopping_dropped),
    ),
    (
        "unknown_task_answered",
        "tasks",
        "logs and metrics of an unknown task answer 200 with the first task's",
        _intercepting(_any_task_answered),
    ),
)
