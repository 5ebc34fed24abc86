"""An independent ModelArts training-job server, written from ``spec/sources`` alone.

It reads the vendor's pages (``pages.py``), never the curated spec, the ledger or the
reference server. Where the pages leave a choice open it takes the one the reference server
(as its README describes it) does not: a list request without a body is every job, an empty
query value is "not given" at the lenient end and refused at the strict end, job ids are
32 hex digits rather than UUIDs, errors carry no ``error_solution``, a field error is
``ModelArts.0101`` ("Invalid Argument."), a query error ``ModelArts.2764``
("QueryParamsError"), and every status and error code is a row of
``reference/error_codes.rst``.
"""

from __future__ import annotations

import json
import threading
import time
import urllib.parse
import uuid
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from . import pages
from .params import query_of
from .rules import Checker, Invalid, Mode

__all__ = ["PROJECT", "TOKEN", "IndependentServer"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

TOKEN = "independent-server-token"
PROJECT = "5a6b7c8d9e0f11223344556677889900"
MAX_BODY = 12 * 1024 * 1024  # a 12 MB ceiling; above it 413 "ModelArts.4104"
# The life of a job, from the show page's phase list (seeds/003, Status "phase": Creating,
# Pending, Running, Failed, Completed, Terminating, Terminated, Abnormal): seconds in each.
COURSE = (("Creating", 0.2), ("Pending", 0.3), ("Running", 0.8), ("Completed", None))
STOPPING = (("Terminating", 0.3), ("Terminated", None))
SECONDARY = {"Pending": "Queuing"}  # secondary_phase options: "Queuing: queuing"


class Refused(Exception):
    def __init__(self, code: str, message: str, allow: str = "") -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.allow = allow  # a 405's Allow header (RFC 9110: a 405 MUST carry one)
        self.status = pages.error_codes()[code]
        self.message = message


def invalid_body(error: Invalid) -> Refused:
    # error_codes.rst: "400 | ModelArts.0101 | Invalid Argument."
    return Refused("ModelArts.0101", f"Invalid Argument: {error}")


@dataclass
class Job:
    project: str
    body: dict[str, Any]
    created: float
    wall: float
    stopped: float | None = None
    description: str | None = None

    @property
    def id(self) -> str:
        return str(self.body["metadata"]["id"])

    def transitions(self, now: float) -> list[tuple[float, str]]:
        """(moment, phase) of every phase the job entered up to ``now``."""
        seen: list[tuple[float, str]] = []
        at = self.created
        for phase, seconds in COURSE:
            if self.stopped is not None and at > self.stopped:
                break
            if at > now:
                return seen
            seen.append((at, phase))
            if seconds is None:
                return seen
            at += seconds
        if self.stopped is None or self.stopped > now:
            return seen
        at = self.stopped
        for phase, seconds in STOPPING:
            if at > now:
                break
            seen.append((at, phase))
            at += seconds or 0
        return seen

    def phase(self, now: float) -> str:
        return self.transitions(now)[-1][1]

    def terminable(self, now: float) -> bool:
        return self.phase(now) in ("Creating", "Pending", "Running")

    def answer(self, now: float) -> dict[str, Any]:
        job: dict[str, Any] = json.loads(json.dumps(self.body))
        environments = job.get("algorithm", {}).get("environments")
        if isinstance(environments, dict):
            # The response tables type it "Array of Map<String,String> objects" (004
            # JobAlgorithmResponse), the request table "Map<String,String>".
            job["algorithm"]["environments"] = [environments] if environments else []
        for task in job.get("tasks", []):
            algorithm = task.get("algorithm", {})
            for channel in ("inputs", "outputs"):
                # The create page's TaskResponse algorithm: "inputs | inputs object",
                # "outputs | outputs object" (one channel), where the request has an array.
                if isinstance(algorithm.get(channel), list):
                    items = algorithm.pop(channel)
                    if items:
                        algorithm[channel] = items[0]
        if self.description is not None:
            job["metadata"]["description"] = self.description
        phase = self.phase(now)
        started = next((at for at, p in self.transitions(now) if p == "Running"), None)
        job["status"] = {
            "phase": phase,
            "secondary_phase": SECONDARY.get(phase, phase),
            "duration": 0 if started is None else int((now - started) * 1000),
            "start_time": 0 if started is None else self.epoch_ms(started),
            "node_count_metrics": None,
            "tasks": ["worker-0"],
        }
        return job

    def epoch_ms(self, moment: float) -> int:
        return int((self.wall + moment - self.created) * 1000)


@dataclass
class IndependentServer:
    """The ASGI app; ``mode`` is the end it plays."""

    mode: Mode = "lenient"
    jobs: dict[str, Job] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def checker(self) -> Checker:
        return Checker(self.mode)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        if scope["type"] != "http":
            return
        raw = await _read(receive)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        try:
            status, payload = self.handle(scope, headers, raw)
        except Refused as refused:
            status = refused.status
            payload = {"error_code": refused.code, "error_msg": refused.message}
            allow = refused.allow
        else:
            allow = ""
        await _answer(send, status, payload, allow)

    def handle(self, scope: Scope, headers: Mapping[str, str], raw: bytes) -> tuple[int, Any]:
        path = scope.get("raw_path", b"").decode("latin-1") or scope["path"]
        path = path.split("?", 1)[0]
        segments = path.split("/")
        if len(segments) < 4 or segments[:2] != ["", "v2"]:
            raise Refused("ModelArts.2836", "PathNotFound")
        project = urllib.parse.unquote(segments[2])
        route = route_of(segments[3:])
        if route is None:
            raise Refused("ModelArts.2836", "PathNotFound")
        _name, params, methods = route
        method = scope["method"]
        if method not in methods:
            raise Refused("ModelArts.2803", "MethodNotAllowed", ", ".join(methods))
        self.authenticate(headers)
        if not project:
            raise Refused("ModelArts.0101", "Invalid Argument: project_id")
        query = query_of(scope.get("query_string", b"").decode("latin-1"))
        handler = getattr(self, methods[method])
        return handler(project, params, query, headers, raw)  # type: ignore[no-any-return]

    def authenticate(self, headers: Mapping[str, str]) -> None:
        # authentication.rst: "the X-Auth-Token header must be added to requests"
        token = headers.get("x-auth-token")
        if token is None:
            raise Refused("ModelArts.0205", "No authorization request header.")
        if token != TOKEN:
            raise Refused("ModelArts.0203", "Invalid token.")

    def body_of(self, raw: bytes, headers: Mapping[str, str]) -> Any:
        if len(raw) > MAX_BODY:
            raise Refused("ModelArts.4104", "the size exceeds the maximum size allowed")
        if not raw.strip():
            return None
        try:
            return json.loads(raw)
        except (ValueError, UnicodeDecodeError) as error:
            raise Refused("ModelArts.2787", f"Invalid JSON request body: {error}") from None

    def job(self, project: str, job_id: str) -> Job:
        with self.lock:
            job = self.jobs.get(job_id)
        if job is None or job.project != project:
            # error_codes.rst: "400 | ModelArts.2775 | TrainingJobNotFound"
            raise Refused("ModelArts.2775", f"Training job (ID: {job_id}) not found.")
        return job

    # --- the twelve operations ------------------------------------------------------------
    def create(self, project: str, params: Any, query: Any, headers: Any, raw: bytes) -> Any:
        body = self.body_of(raw, headers)
        if body is None:
            raise Refused("ModelArts.0101", "Invalid Argument: a create needs a body")
        try:
            kept = self.checker.create(body)
        except Invalid as error:
            raise invalid_body(error) from None
        now = time.monotonic()
        job_id = uuid.uuid4().hex
        kept["metadata"] = {
            **kept["metadata"],
            "id": job_id,
            "create_time": int(time.time() * 1000),
            "workspace_id": "0",
            "user_name": "",
        }
        job = Job(project, kept, now, time.time())
        with self.lock:
            self.jobs[job_id] = job
        return 201, job.answer(now)

    def show(self, project: str, params: Any, query: Any, headers: Any, raw: bytes) -> Any:
        return 200, self.job(project, params["job"]).answer(time.monotonic())

    def terminate(self, project: str, params: Any, query: Any, headers: Any, raw: bytes) -> Any:
        job = self.job(project, params["job"])
        try:
            self.checker.terminate(self.body_of(raw, headers))
        except Invalid as error:
            if error.where == "action_type" and "one action" in error.why:
                # error_codes.rst: "400 | ModelArts.2812 | UnsupportedActionType"
                raise Refused("ModelArts.2812", f"UnsupportedActionType: {error}") from None
            raise invalid_body(error) from None
        now = time.monotonic()
        with self.lock:
            # error_codes.rst: "409 | ModelArts.2796 | NotAllowedToTerminate": a job that
            # has ended, or is already being stopped, is not terminated again.
            if job.stopped is not None or not job.terminable(now):
                raise Refused("ModelArts.2796", "NotAllowedToTerminate")
            job.stopped = now
        return 202, job.answer(now)

    def delete(self, project: str, params: Any, query: Any, headers: Any, raw: bytes) -> Any:
        job = self.job(project, params["job"])
        if self.mode == "strict":
            # "Request Parameters: None" (the delete page): the strict end refuses a field.
            body = self.body_of(raw, headers)
            if body not in (None, {}):
                raise Refused("ModelArts.0101", "Invalid Argument: the delete takes no body")
        with self.lock:
            self.jobs.pop(job.id, None)
        return 202, None

    def describe(self, project: str, params: Any, query: Any, headers: Any, raw: bytes) -> Any:
        job = self.job(project, params["job"])
        try:
            description = self.checker.description(self.body_of(raw, headers))
        except Invalid as error:
            raise invalid_body(error) from None
        if description is not None:
            with self.lock:
                job.description = description
        return 200, None

    def search(self, project: str, params: Any, query: Any, headers: Any, raw: bytes) -> Any:
        try:
            wanted = self.checker.search(self.body_of(raw, headers))
        except Invalid as error:
            raise invalid_body(error) from None
        from .family import search

        now = time.monotonic()
        with self.lock:
            mine = [job.answer(now) for job in self.jobs.values() if job.project == project]
        return 200, search(mine, wanted)

    def events(self, project: str, params: Any, query: Any, headers: Any, raw: bytes) -> Any:
        from .family import events
        from .params import events_query

        job = self.job(project, params["job"])
        wanted = events_query(query, self.mode)
        now = time.monotonic()
        moments = [(job.epoch_ms(at), phase) for at, phase in job.transitions(now)]
        return 200, events(moments, wanted)

    def logs_preview(self, project: str, params: Any, query: Any, headers: Any, raw: bytes) -> Any:
        from .family import logs_preview

        job = self.job(project, params["job"])
        return 200, logs_preview(self.task(job, params["task"]), job.phase(time.monotonic()))

    def logs_url(self, project: str, params: Any, query: Any, headers: Any, raw: bytes) -> Any:
        from .family import logs_url
        from .params import logs_content_type

        job = self.job(project, params["job"])
        logs_content_type(headers, self.mode)
        return 200, logs_url(job.id, self.task(job, params["task"]))

    def metrics(self, project: str, params: Any, query: Any, headers: Any, raw: bytes) -> Any:
        from .family import metrics

        job = self.job(project, params["job"])
        return 200, metrics(self.task(job, params["task"]))

    def flavors(self, project: str, params: Any, query: Any, headers: Any, raw: bytes) -> Any:
        from .family import flavors
        from .params import flavors_query

        return 200, flavors(flavors_query(query, self.mode))

    def engines(self, project: str, params: Any, query: Any, headers: Any, raw: bytes) -> Any:
        from .family import engines

        return 200, engines()

    def task(self, job: Job, task: str) -> str:
        # task_id: "You can obtain the value from the status.tasks field"
        if task not in job.answer(time.monotonic())["status"]["tasks"]:
            raise Refused("ModelArts.0104", f"Parameter error: no task {task}")
        return task


def route_of(tail: list[str]) -> tuple[str, dict[str, str], dict[str, str]] | None:
    """The operation a path (after ``/v2/{project_id}/``) names, from the pages' URIs."""
    match tail:
        case ["training-jobs"]:
            return "jobs", {}, {"POST": "create"}
        case ["training-job-searches"]:
            return "searches", {}, {"POST": "search"}
        case ["training-job-flavors"]:
            return "flavors", {}, {"GET": "flavors"}
        case ["training-job-engines"]:
            return "engines", {}, {"GET": "engines"}
        case ["training-jobs", job]:
            methods = {"GET": "show", "DELETE": "delete", "PUT": "describe"}
            return "job", {"job": urllib.parse.unquote(job)}, methods
        case ["training-jobs", job, "actions"]:
            return "actions", {"job": urllib.parse.unquote(job)}, {"POST": "terminate"}
        case ["training-jobs", job, "events"]:
            return "events", {"job": urllib.parse.unquote(job)}, {"GET": "events"}
        case ["training-jobs", job, "metrics", task]:
            found = {"job": urllib.parse.unquote(job), "task": urllib.parse.unquote(task)}
            return "metrics", found, {"GET": "metrics"}
        case ["training-jobs", job, "tasks", task, "logs", "preview"]:
            found = {"job": urllib.parse.unquote(job), "task": urllib.parse.unquote(task)}
            return "preview", found, {"GET": "logs_preview"}
        case ["training-jobs", job, "tasks", task, "logs", "url"]:
            found = {"job": urllib.parse.unquote(job), "task": urllib.parse.unquote(task)}
            return "url", found, {"GET": "logs_url"}
    return None


async def _read(receive: Receive) -> bytes:
    chunks = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b""
        chunk = message.get("body", b"")
        size += len(chunk)
        if size <= MAX_BODY + 1:
            chunks.append(chunk)
        if not message.get("more_body"):
            return b"".join(chunks)


async def _answer(send: Send, status: int, payload: Any, allow: str = "") -> None:
    body = b"" if payload is None else json.dumps(payload).encode()
    headers = [(b"content-length", str(len(body)).encode())]
    if allow:
        headers.append((b"allow", allow.encode()))
    if payload is not None:
        headers.append((b"content-type", b"application/json"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def iso(epoch_ms: int) -> str:
    """The events page's time: "2022-11-26T16:03:41+08:00" (seconds, with an offset)."""
    return datetime.fromtimestamp(epoch_ms / 1000, UTC).isoformat(timespec="seconds")
