"""An independent training-job server, written from the vendor's pages alone (issue 23).

It shares no code with the reference server and reads nothing of the curated spec: the
request fields, their types and ``Mandatory: Yes`` come from the create and terminate pages
(``spec/sources/seeds``, parsed by ``docs extract``); the few rules stated only in prose are
transcribed below with the page line they come from; the error codes are those of the
vendor's error-code table (``spec/sources/reference/error_codes.rst``).

Two modes, both correct servers, at the two ends of what the pages allow:

- ``lenient`` refuses only what a page states (a type, ``Mandatory: Yes``, a stated value list,
  pattern, length or range), ignores every field the pages do not document (an SDK-only
  ``access_method`` too), and accepts ``null`` where the pages' own examples show it;
- ``strict`` also refuses fields the pages do not document (objects are closed, the terminate
  body too), ``null`` anywhere (the tables say object), and enforces the prose's choose-one
  rules: an input's ``remote`` needs exactly one of ``dataset``, ``obs``; ``spec.resource``
  needs ``flavor_id`` or ``pool_id``.

``contract server`` must pass both and record their choices as observations.
"""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.parse
import uuid
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from modelarts_kit_vendordocs import extract_page

from . import pages_server_optional_operations as family

__all__ = ["PROJECT", "TOKEN", "Mode", "PagesServer"]

Mode = Literal["lenient", "strict"]
Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

SEEDS = Path(__file__).resolve().parents[2] / "spec" / "sources" / "seeds"
CREATE_PAGE = SEEDS / "004_126c216e710dc1ec.txt"  # "Creating a Training Job"
TERMINATE_PAGE = SEEDS / "000_8e5e63a75c0c5722.txt"  # "Terminating a Training Job"
TOKEN = "pages-server-token"
PROJECT = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"

# --- rules the pages state in prose (page 004 unless said otherwise) -----------------------------
# kind: the values page 002 lists (line 53 on); page 004 says only "the default value is job"
KINDS = ("job", "hetero_job", "autosearch_job", "mrs_job", "edge_job")
NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")  # metadata.name: "1 to 64 characters, letters, ..."
DESCRIPTION_MAX = 256  # metadata.description: "a maximum of 256 characters"
AT_LEAST_ONE = frozenset({"spec.resource.node_count", "tasks[].task_resource.node_count"})
# Value lists page 004 leaves out and the show page (003, lines 643 and 673 on) prints.
SEARCH = "algorithm.policies.auto_search"
VALUES: Mapping[str, tuple[str, ...]] = {
    f"{SEARCH}.reward_attrs[].mode": ("max", "min"),
    f"{SEARCH}.search_params[].param_type": ("continuous", "discrete"),
}
ACTIONS = ("terminate",)  # page 000, action_type: "terminate: terminating a training job"
INTEGER_RANGES = {"int32": (-(2**31), 2**31 - 1), "int64": (-(2**63), 2**63 - 1)}
# The pages' examples show null for these objects; their tables say object (strict refuses).
NULL_IN_EXAMPLES = frozenset({"i18n_description", "auto_search"})
# Choose-one rules of the prose (strict only): "dataset or obs", "flavor_id ... or pool_id".
ONE_OF: Mapping[str, tuple[str, ...]] = {
    "algorithm.inputs[].remote": ("dataset", "obs"),
    "tasks[].algorithm.job_config.inputs[].remote": ("dataset", "obs"),
}
AT_LEAST_ONE_OF: Mapping[str, tuple[str, ...]] = {"spec.resource": ("flavor_id", "pool_id")}

# --- the vendor's error table (reference/error_codes.rst) ---------------------------------------
INVALID = (400, "ModelArts.2788", "Invalid parameter({}).")
MALFORMED = (400, "ModelArts.2787", "Invalid JSON request body.")
NOT_FOUND = (400, "ModelArts.2775", "Training job (ID: {}) not found.")
UNSUPPORTED = (400, "ModelArts.2812", "Unsupported action type:{}")
NOT_TERMINABLE = (409, "ModelArts.2796", "The job cannot be terminated.")
TOKEN_MISSING = (401, "ModelArts.0201", "The token is empty.")
TOKEN_INVALID = (401, "ModelArts.4201", "The token is invalid.")
NO_PATH = (404, "ModelArts.2836", "The API does not exist or has not been published.")
NO_METHOD = (405, "ModelArts.2803", "Method not allowed.")
# A task the job does not have: no page or error-table row names an error of its own; the
# task_id path parameter is invalid for the job (the invalid-parameter row).
UNKNOWN_TASK = (400, "ModelArts.2788", "Invalid parameter(task_id: no task {} in this job).")

# The lifecycle of the show page's status table: seconds spent in each phase, then the next.
COURSE = (("Creating", 0.3), ("Pending", 0.3), ("Running", None))
STOP_COURSE = (("Terminating", 0.3), ("Terminated", None))
TERMINABLE = frozenset({"Creating", "Pending", "Running"})


# The paths of the pages, by the segments after the project: (method, ...) each takes.
ROUTES: Mapping[str, tuple[str, ...]] = {
    "jobs": ("POST",),
    "job": ("GET", "PUT", "DELETE"),
    "actions": ("POST",),
    "events": ("GET",),
    "preview": ("GET",),
    "url": ("GET",),
    "metrics": ("GET",),
    "searches": ("POST",),
    "flavors": ("GET",),
    "engines": ("GET",),
}
DELETED = 202  # the delete page: "202 No Content"
DESCRIBED = 200  # the change-description page: "200 No Content"


def route_of(collection: str, tail: list[str]) -> str | None:
    """Which page's path ``/v2/{project}/<collection>/<tail...>`` is (None: none)."""
    if collection != "training-jobs":
        named = {
            "training-job-searches": "searches",
            "training-job-flavors": "flavors",
            "training-job-engines": "engines",
        }
        return named.get(collection) if not tail else None
    shapes = {
        0: "jobs",
        1: "job",
        2: {"actions": "actions", "events": "events"}.get(tail[1] if len(tail) > 1 else ""),
        3: "metrics" if len(tail) == 3 and tail[1] == "metrics" else None,
        5: (
            tail[4]
            if len(tail) == 5
            and (tail[1], tail[3]) == ("tasks", "logs")
            and tail[4] in ("preview", "url")
            else None
        ),
    }
    return shapes.get(len(tail))


def parse_qs(query: str) -> dict[str, str]:
    """The query string's parameters (the first value of each)."""
    parsed = urllib.parse.parse_qs(query, keep_blank_values=True)
    return {name: values[0] for name, values in parsed.items()}


class Refused(Exception):
    def __init__(self, error: tuple[int, str, str], detail: str = "", allow: str = "") -> None:
        super().__init__(detail)
        self.allow = allow  # the methods the path takes (405)
        self.status, self.code, template = error
        self.message = template.format(detail) if "{}" in template else template


@dataclass(frozen=True)
class PageField:
    path: str  # dotted from the body root, [] after an array of objects
    schema: Mapping[str, Any]  # the page's type, as docs extract reads it
    mandatory: bool


def page_fields(page: Path) -> dict[str, PageField]:
    """The request fields a page documents, by path.

    An object the request tables name but print no table for (the create page's
    ``log_export_path``) takes its fields from the page's response table of the same path;
    one no table describes at all (``auto_stop``) is left open: nothing says what it holds.
    """
    inventory = extract_page(page).to_json()
    fields = {
        entry["path"]: PageField(entry["path"], entry["schema"], entry["mandatory"] == "Yes")
        for entry in inventory["fields"]
        if entry["side"] == "request"
    }
    untabled = {ref["field"] for ref in inventory["unresolved_references"]}
    for path in [p for p in fields if p.rsplit(".", 1)[-1] in untabled]:
        borrowed = {
            entry["path"]: PageField(entry["path"], entry["schema"], False)
            for entry in inventory["fields"]
            if entry["side"] == "response" and entry["path"].startswith(f"{path}.")
        }
        fields.update(borrowed)
        if not borrowed:
            fields[path] = PageField(path, {"type": "object", "additionalProperties": {}}, False)
    return fields


@dataclass
class Body:
    """A request body judged against the fields of one page."""

    fields: Mapping[str, PageField]
    mode: Mode

    def children(self, prefix: str) -> dict[str, PageField]:
        start = f"{prefix}." if prefix else ""
        return {
            path[len(start) :]: entry
            for path, entry in self.fields.items()
            if path.startswith(start) and "." not in path[len(start) :]
        }

    def check_object(self, value: Any, prefix: str) -> None:
        where = prefix or "body"
        if not isinstance(value, dict):
            raise Refused(INVALID, f"{where}: must be an object")
        known = self.children(prefix)
        for name, documented in known.items():
            if documented.mandatory and name not in value:
                raise Refused(INVALID, f"{documented.path}: mandatory")
        for name, item in value.items():
            entry = known.get(name)
            if entry is None:
                if self.mode == "strict":
                    raise Refused(INVALID, f"{where}: unknown field {name!r}")
                continue  # not on the pages: ignored
            self.check_value(item, entry)
        if self.mode == "strict":
            self.check_choices(value, prefix)

    def check_choices(self, value: Mapping[str, Any], prefix: str) -> None:
        present = set(value)
        if prefix in ONE_OF and len(present & set(ONE_OF[prefix])) != 1:
            raise Refused(INVALID, f"{prefix}: needs exactly one of {', '.join(ONE_OF[prefix])}")
        if prefix in AT_LEAST_ONE_OF and not present & set(AT_LEAST_ONE_OF[prefix]):
            wanted = ", ".join(AT_LEAST_ONE_OF[prefix])
            raise Refused(INVALID, f"{prefix}: needs one of {wanted}")

    def check_value(self, value: Any, entry: PageField) -> None:
        if value is None:
            name = entry.path.rsplit(".", 1)[-1]
            if self.mode == "lenient" and name in NULL_IN_EXAMPLES:
                return
            raise Refused(INVALID, f"{entry.path}: null")
        kind = entry.schema.get("type")
        if kind == "string" and not isinstance(value, str):
            raise Refused(INVALID, f"{entry.path}: must be a string")
        if kind == "boolean" and not isinstance(value, bool):
            raise Refused(INVALID, f"{entry.path}: must be a boolean")
        if kind == "integer":
            # JSON has one number type: 5.0 is the integer 5 (RFC 8259, section 6).
            low, high = INTEGER_RANGES[entry.schema.get("format") or "int64"]
            whole = isinstance(value, int) or (isinstance(value, float) and value.is_integer())
            if isinstance(value, bool) or not whole or not low <= value <= high:
                raise Refused(INVALID, f"{entry.path}: must be an integer in range")
        if kind == "object":
            self.check_map_or_object(value, entry)
        if kind == "array":
            if not isinstance(value, list):
                raise Refused(INVALID, f"{entry.path}: must be an array")
            items = entry.schema.get("items") or {}
            for item in value:
                if items.get("type") == "object":
                    self.check_object(item, f"{entry.path}[]")
                elif items.get("type") == "string" and not isinstance(item, str):
                    raise Refused(INVALID, f"{entry.path}: items must be strings")
        self.check_prose(value, entry.path)

    def check_map_or_object(self, value: Any, entry: PageField) -> None:
        values = entry.schema.get("additionalProperties")
        if values == {}:  # an object no page describes: anything inside
            if not isinstance(value, dict):
                raise Refused(INVALID, f"{entry.path}: must be an object")
            return
        if isinstance(values, Mapping):  # Map<String,String>
            if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
                raise Refused(INVALID, f"{entry.path}: must be a map of strings")
            return
        self.check_object(value, entry.path)

    def check_prose(self, value: Any, path: str) -> None:
        if path == "kind" and value not in KINDS:
            raise Refused(INVALID, f"kind: one of {', '.join(KINDS)}")
        if path == "metadata.name" and not NAME.fullmatch(value):
            raise Refused(INVALID, "metadata.name: 1 to 64 letters, digits, _ or -")
        if path == "metadata.description" and len(value) > DESCRIPTION_MAX:
            raise Refused(INVALID, f"metadata.description: at most {DESCRIPTION_MAX} characters")
        if path in AT_LEAST_ONE and value < 1:
            raise Refused(INVALID, f"{path}: at least 1")
        if path in VALUES and value not in VALUES[path]:
            raise Refused(INVALID, f"{path}: one of {', '.join(VALUES[path])}")


@dataclass
class Job:
    id: str
    project: str
    body: dict[str, Any]
    created: float  # time.monotonic()
    stopped: float | None = None
    wall_offset: float = field(default_factory=lambda: time.time() - time.monotonic())

    def phase(self, now: float) -> str:
        return self.history(now)[-1][1]

    def history(self, now: float) -> list[tuple[float, str]]:
        """(when, phase) of every phase the job entered by ``now``, in order."""
        entered: list[tuple[float, str]] = []
        at = self.created
        for phase, seconds in COURSE:
            if self.stopped is not None and at > self.stopped:
                break
            entered.append((at, phase))
            if seconds is None:
                break
            at += seconds
        if self.stopped is not None:
            at = self.stopped
            for phase, seconds in STOP_COURSE:
                if at > now:
                    break
                entered.append((at, phase))
                if seconds is None:
                    break
                at += seconds
        return [(when, phase) for when, phase in entered if when <= now] or entered[:1]

    def wall(self, moment: float) -> float:
        """A monotonic moment as seconds since the epoch."""
        return moment + self.wall_offset

    def answer(self, now: float) -> dict[str, Any]:
        metadata = self.body.get("metadata") or {}
        shown = {k: metadata[k] for k in ("name", "description") if k in metadata}
        created_ms = int(self.wall(self.created) * 1000)
        return {
            "kind": self.body.get("kind"),
            "metadata": {**shown, "id": self.id, "create_time": created_ms},
            "status": {"phase": self.phase(now), "tasks": family.task_names(self)},
        }


@dataclass
class PagesServer:
    """The ASGI app (see the module's docstring)."""

    mode: Mode = "lenient"
    jobs: dict[str, Job] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    create_fields: dict[str, PageField] = field(default_factory=lambda: page_fields(CREATE_PAGE))
    terminate_fields: dict[str, PageField] = field(
        default_factory=lambda: page_fields(TERMINATE_PAGE)
    )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return
        chunks = []
        while True:
            message = await receive()
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        try:
            status, document, extra = self.handle(
                scope["method"],
                scope["path"],
                headers,
                b"".join(chunks),
                bytes(scope.get("query_string", b"")).decode("latin-1"),
            )
        except Refused as refused:
            status, extra = refused.status, []
            document = {"error_code": refused.code, "error_msg": refused.message}
            if refused.allow:
                extra = [(b"allow", refused.allow.encode())]
        # "No Content" (delete, change description): no body at all.
        payload = b"" if document is None else json.dumps(document).encode("utf-8")
        typed = [(b"content-type", b"application/json")] if payload else []
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [*typed, (b"content-length", str(len(payload)).encode()), *extra],
            }
        )
        await send({"type": "http.response.body", "body": payload})

    def handle(
        self, method: str, path: str, headers: Mapping[str, str], raw: bytes, query: str = ""
    ) -> tuple[int, Any, list[tuple[bytes, bytes]]]:
        parts = path.split("/")
        if len(parts) < 4 or parts[:2] != ["", "v2"]:
            raise Refused(NO_PATH)
        route = route_of(parts[3], parts[4:])
        if route is None:
            raise Refused(NO_PATH)
        if method not in ROUTES[route]:
            raise Refused(NO_METHOD, allow=", ".join(ROUTES[route]))
        token = headers.get("x-auth-token")
        if not token:
            raise Refused(TOKEN_MISSING)
        if token != TOKEN:
            raise Refused(TOKEN_INVALID)
        project, tail = parts[2], parts[4:]
        try:
            return self.answer(route, method, project, tail, headers, raw, parse_qs(query))
        except family.Unacceptable as refused:
            raise Refused(INVALID, str(refused)) from refused

    def answer(
        self,
        route: str,
        method: str,
        project: str,
        tail: list[str],
        headers: Mapping[str, str],
        raw: bytes,
        query: Mapping[str, str],
    ) -> tuple[int, Any, list[tuple[bytes, bytes]]]:
        now = time.monotonic()
        strict = self.mode == "strict"
        if route == "jobs":
            return 201, self.create(project, self.json_body(headers, raw)), []
        if route == "searches":
            # The page's request is a JSON body (Table 2): each field optional, not the body.
            found = family.check_search(self.json_body(headers, raw), strict)
            with self.lock:
                jobs = [job for job in self.jobs.values() if job.project == project]
            return 200, family.search(jobs, found, now), []
        if route == "flavors":
            return 200, family.flavors(query), []
        if route == "engines":
            return 200, family.engines(), []
        job = self.find(project, tail[0])
        if route == "job" and method == "GET":
            return 200, job.answer(now), []
        if route == "job" and method == "DELETE":
            with self.lock:
                self.jobs.pop(job.id, None)
            return DELETED, None, []
        if route == "job":
            text = family.check_description(self.json_body(headers, raw), strict)
            job.body.setdefault("metadata", {})["description"] = text
            return DESCRIBED, None, []
        if route == "actions":
            return 202, self.terminate(job, self.json_body(headers, raw)), []
        if route == "events":
            return 200, family.events(job, query, now, job.wall), []
        task = tail[2]  # .../metrics/{task_id} and .../tasks/{task_id}/logs/...
        if task not in family.task_names(job):
            raise Refused(UNKNOWN_TASK, task)
        return 200, family.TASK_ANSWERS[route](job, task), []

    def json_body(self, headers: Mapping[str, str], raw: bytes) -> Any:
        if "json" not in headers.get("content-type", ""):
            raise Refused(MALFORMED)
        try:
            return json.loads(raw)
        except (ValueError, RecursionError) as exc:
            raise Refused(MALFORMED) from exc

    def find(self, project: str, job_id: str) -> Job:
        with self.lock:
            job = self.jobs.get(job_id)
        if job is None or job.project != project:
            raise Refused(NOT_FOUND, job_id)
        return job

    def create(self, project: str, body: Any) -> dict[str, Any]:
        Body(self.create_fields, self.mode).check_object(body, "")
        job = Job(str(uuid.uuid4()), project, body, time.monotonic())
        with self.lock:
            self.jobs[job.id] = job
        return job.answer(job.created)

    def terminate(self, job: Job, body: Any) -> dict[str, Any]:
        action = body.get("action_type") if isinstance(body, dict) else None
        if isinstance(action, str) and action not in ACTIONS:
            raise Refused(UNSUPPORTED, action)
        Body(self.terminate_fields, self.mode).check_object(body, "")
        now = time.monotonic()
        with self.lock:
            if job.phase(now) not in TERMINABLE:
                raise Refused(NOT_TERMINABLE)
            job.stopped = now
        return job.answer(now)
