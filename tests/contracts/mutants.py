"""Mutants of the reference server: realistic single-fault breaks the contract kit must catch.

Each :class:`Mutant` is a switch with exactly one fault. It never edits the server: it either
wraps the reference server's ASGI app in a middleware that rewrites responses
(:class:`ResponseRewrite`), or replaces one of the server's small named functions
(the steps of ``modelarts_kit_server.app`` and ``modelarts_kit_server.handlers`` are called by
name), one entry of the app's handler table (``app.handlers``), or one method of the app's store
instance, for the duration of a ``with`` block.

:func:`mutated_app` builds a fresh reference server, applies the mutant (or none: the correct
server) and yields the ASGI app to test; every patch is undone on exit.
"""

from __future__ import annotations

import copy
import json
import re
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Any
from unittest import mock

from modelarts_kit_contracts.server.target import ServerTarget
from modelarts_kit_contracts.server.timeline import SkippingTimeline
from modelarts_kit_server import LifecycleTimings, ServerSettings, create_app
from modelarts_kit_server import app as server_app
from modelarts_kit_server.app import ReferenceServer
from modelarts_kit_server.auth import Principal
from modelarts_kit_server.clock import Clock, SimulatedClock
from modelarts_kit_server.handlers import job_core as server_handlers
from modelarts_kit_server.store import JobRecord
from modelarts_kit_wire.asgi import ASGIApp, Message, Receive, Scope, Send, runs_on_any_loop

from .mutants_optional_operations import FAMILY_MUTANTS
from .mutants_optional_scenarios import POWER_MUTANTS

__all__ = [
    "LENIENT",
    "MUTANTS",
    "Mutant",
    "RequestRewrite",
    "ResponseRewrite",
    "mutant_names",
    "mutated_app",
    "mutated_target",
]

JOBS_SUFFIX = "/training-jobs"
ACTIONS_SUFFIX = "/actions"
SHOW_PATH = re.compile(r"/training-jobs/[^/]+$")
JOB_ROLES = ("create", "show", "terminate")  # the answers that are a job
# Jobs stay Terminating briefly, so the final-phase check has a final job to try.
MUTANT_TIMINGS = LifecycleTimings(terminating_s=0.3)


@dataclass
class Exchange:
    """A buffered response the middleware may rewrite (request fields are read-only)."""

    method: str
    path: str
    status: int
    headers: list[tuple[bytes, bytes]]
    body: bytes

    @property
    def role(self) -> str:
        if self.path.endswith(JOBS_SUFFIX) and self.method == "POST":
            return "create"
        if self.path.endswith(ACTIONS_SUFFIX) and self.method == "POST":
            return "terminate"
        # a job's own path, not its events, logs or metrics below it
        if SHOW_PATH.search(self.path) and self.method == "GET":
            return "show"
        return "other"

    def json(self) -> Any:
        return json.loads(self.body)

    def set_json(self, document: Any) -> None:
        self.body = json.dumps(document).encode("utf-8")

    def set_header(self, name: bytes, value: bytes) -> None:
        self.headers = [(k, v) for k, v in self.headers if k.lower() != name] + [(name, value)]


class ResponseRewrite:
    """ASGI middleware: buffer each HTTP response, let ``rewrite`` change it, send it on."""

    def __init__(self, app: ASGIApp, rewrite: Callable[[Exchange], None]) -> None:
        self.app = app
        self.rewrite = rewrite

    @property
    def modelarts_kit_runs_on_any_loop(self) -> bool:
        # A wrapper holds no state of its own: any loop may run it where any may run its app.
        return runs_on_any_loop(self.app)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start: dict[str, Any] = {}
        chunks: list[bytes] = []

        async def capture(message: Message) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(scope, receive, capture)
        exchange = Exchange(
            method=str(scope["method"]),
            path=str(scope["path"]),
            status=int(start["status"]),
            headers=list(start.get("headers", [])),
            body=b"".join(chunks),
        )
        self.rewrite(exchange)
        exchange.set_header(b"content-length", str(len(exchange.body)).encode())
        await send(
            {"type": "http.response.start", "status": exchange.status, "headers": exchange.headers}
        )
        await send({"type": "http.response.body", "body": exchange.body})


class RequestRewrite:
    """ASGI middleware: let ``rewrite`` change each create body before the server stores it."""

    def __init__(self, app: ASGIApp, rewrite: Callable[[Any], None]) -> None:
        self.app = app
        self.rewrite = rewrite

    @property
    def modelarts_kit_runs_on_any_loop(self) -> bool:
        # A wrapper holds no state of its own: any loop may run it where any may run its app.
        return runs_on_any_loop(self.app)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        is_create = (
            scope["type"] == "http"
            and scope["method"] == "POST"
            and str(scope["path"]).endswith(JOBS_SUFFIX)
        )
        if not is_create:
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        try:
            document = json.loads(body)
        except ValueError:
            document = None
        if isinstance(document, dict):
            self.rewrite(document)
            body = json.dumps(document).encode("utf-8")
        headers = [(k, v) for k, v in scope["headers"] if k.lower() != b"content-length"]
        headers.append((b"content-length", str(len(body)).encode()))
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if delivered:
                return await receive()
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app({**scope, "headers": headers}, replay, send)


Install = Callable[[ReferenceServer, ExitStack], ASGIApp]


@dataclass(frozen=True)
class Mutant:
    name: str
    category: str
    fault: str
    install: Install


def _rewriting(rewrite: Callable[[Exchange], None]) -> Install:
    def install(app: ReferenceServer, stack: ExitStack) -> ASGIApp:
        return ResponseRewrite(app, rewrite)

    return install


def _storing(change: Callable[[Any], None]) -> Install:
    def install(app: ReferenceServer, stack: ExitStack) -> ASGIApp:
        return RequestRewrite(app, change)

    return install


def _patching(module: ModuleType, attribute: str, make: Callable[[Any], Any]) -> Install:
    """Replace ``<module>.<attribute>`` (a server step) by ``make(original)``."""

    def install(app: ReferenceServer, stack: ExitStack) -> ASGIApp:
        original = getattr(module, attribute)
        stack.enter_context(mock.patch.object(module, attribute, make(original)))
        return app

    return install


def _replacing_terminate(make: Callable[[Any], Any]) -> Install:
    """Replace the app's terminate handler (its table entry) by ``make(original)``."""

    def install(app: ReferenceServer, stack: ExitStack) -> ASGIApp:
        operation_id = app.spec.meaning.roles.terminate.operation_id
        original = app.handlers[operation_id]
        stack.enter_context(mock.patch.dict(app.handlers, {operation_id: make(original)}))
        return app

    return install


# --- response rewrites -------------------------------------------------------------------------


def _status_swap(role: str, documented: int, wrong: int) -> Callable[[Exchange], None]:
    def rewrite(exchange: Exchange) -> None:
        if exchange.role == role and exchange.status == documented:
            exchange.status = wrong

    return rewrite


def _on_success(role: str | None, change: Callable[[Any], None]) -> Callable[[Exchange], None]:
    def rewrite(exchange: Exchange) -> None:
        wanted = JOB_ROLES if role is None else (role,)
        if 200 <= exchange.status < 300 and exchange.role in wanted:
            document = exchange.json()
            change(document)
            exchange.set_json(document)

    return rewrite


def _create_time_as_text(job: Any) -> None:
    job["metadata"]["create_time"] = str(job["metadata"]["create_time"])


def _phase_lower_case(job: Any) -> None:
    job["status"]["phase"] = job["status"]["phase"].lower()


def _drop_job_id(job: Any) -> None:
    del job["metadata"]["id"]


def _node_metrics_as_text(job: Any) -> None:
    job["status"]["node_count_metrics"] = [[job["metadata"]["create_time"], "1"]]


def _terminate_shows_running(job: Any) -> None:
    job["status"]["phase"] = "Running"


def _error_without_code(exchange: Exchange) -> None:
    if exchange.status >= 400:
        document = exchange.json()
        document.pop("error_code", None)
        exchange.set_json(document)


def _auth_errors_as_text(exchange: Exchange) -> None:
    if exchange.status in (401, 403):
        exchange.body = b"Unauthorized"
        exchange.set_header(b"content-type", b"text/plain; charset=utf-8")


def _plain_text_success(exchange: Exchange) -> None:
    if 200 <= exchange.status < 300:
        exchange.set_header(b"content-type", b"text/plain; charset=utf-8")


def _validation_as_422(exchange: Exchange) -> None:
    if exchange.status == 400 and b"ModelArts.2788" in exchange.body:
        exchange.status = 422


def _truncated_json(exchange: Exchange) -> None:
    if 200 <= exchange.status < 300:
        exchange.body = exchange.body[:-1]


def _unknown_job_as_404(exchange: Exchange) -> None:
    if exchange.status == 400 and b"ModelArts.2775" in exchange.body:
        exchange.status = 404


# --- what the server stores (normalised on the way in) --------------------------------------------


def _metadata_text(key: str, change: Callable[[str], str]) -> Callable[[Any], None]:
    def rewrite(job: Any) -> None:
        metadata = job.get("metadata")
        if isinstance(metadata, dict) and isinstance(metadata.get(key), str):
            metadata[key] = change(metadata[key])

    return rewrite


def _environment_keys_upper(job: Any) -> None:
    algorithm = job.get("algorithm")
    environments = algorithm.get("environments") if isinstance(algorithm, dict) else None
    if isinstance(environments, dict):
        algorithm["environments"] = {k.upper(): v for k, v in environments.items()}


def _parameter_values_trimmed(job: Any) -> None:
    algorithm = job.get("algorithm")
    parameters = algorithm.get("parameters") if isinstance(algorithm, dict) else None
    for parameter in parameters if isinstance(parameters, list) else []:
        if isinstance(parameter, dict) and isinstance(parameter.get("value"), str):
            parameter["value"] = parameter["value"].strip()


# --- patched server steps ------------------------------------------------------------------------


def _ignoring(pointer: tuple[str, ...], valid: Any) -> Callable[[Any], Any]:
    """validate_instance that skips the rules at ``pointer`` (it judges ``valid`` there instead)."""

    def make(original: Callable[..., Any]) -> Callable[..., Any]:
        def validate_instance(spec: Any, schema: Any, instance: Any) -> Any:
            return original(spec, schema, _with_value(instance, pointer, valid))

        return validate_instance

    return make


def _with_value(document: Any, pointer: tuple[str, ...], value: Any) -> Any:
    """A copy of ``document`` with ``value`` at ``pointer``, when every parent exists."""
    node = document
    for key in pointer[:-1]:
        if not isinstance(node, dict) or not isinstance(node.get(key), dict):
            return document
        node = node[key]
    if not isinstance(node, dict) or pointer[-1] not in node:
        return document
    patched = copy.deepcopy(document)
    target = patched
    for key in pointer[:-1]:
        target = target[key]
    target[pointer[-1]] = value
    return patched


def _required_metadata_not_checked(original: Callable[..., Any]) -> Callable[..., Any]:
    def validate_instance(spec: Any, schema: Any, instance: Any) -> Any:
        if isinstance(instance, dict) and "metadata" not in instance and "kind" in instance:
            instance = {**instance, "metadata": {"name": "unchecked-required"}}
        return original(spec, schema, instance)

    return validate_instance


def _no_credentials_accepted(original: Callable[..., Any]) -> Callable[..., Any]:
    def authenticate(settings: Any, request: Any) -> Any:
        headers = request.headers
        if not headers.get("x-auth-token") and not headers.get("authorization"):
            return Principal("token", None)
        return original(settings, request)

    return authenticate


def _any_token_accepted(original: Callable[..., Any]) -> Callable[..., Any]:
    def authenticate(settings: Any, request: Any) -> Any:
        if request.headers.get("x-auth-token"):
            return Principal("token", None)
        return original(settings, request)

    return authenticate


def _always_terminable(original: Callable[..., Any]) -> Callable[..., Any]:
    return lambda snapshot: True


def _terminate_not_stored(original: Callable[..., Any]) -> Callable[..., Any]:
    def terminate_job(context: Any) -> Any:
        server = context.server
        real_request = server.store.request_termination

        def dry_run(project_id: str, job_id: str, now_ms: int, allowed: Any) -> Any:
            record = server.store.get(project_id, job_id)
            if record is None or not allowed(record):
                return real_request(project_id, job_id, now_ms, lambda _: False)
            stopped = replace(record.timeline, terminate_requested_ms=now_ms)
            return replace(record, timeline=stopped), True

        with mock.patch.object(server.store, "request_termination", dry_run):
            return original(context)

    return terminate_job


def _store_wrapping(wrap: Callable[[ReferenceServer, dict[str, JobRecord]], None]) -> Install:
    """Patch the app's store instance; ``wrap`` sees every job inserted so far, by id."""

    def install(app: ReferenceServer, stack: ExitStack) -> ASGIApp:
        inserted: dict[str, JobRecord] = {}
        real_insert = app.store.insert

        def insert(record: JobRecord) -> None:
            real_insert(record)
            inserted[record.job_id] = record

        stack.enter_context(mock.patch.object(app.store, "insert", insert))
        wrap(app, inserted)
        return app

    return install


def _not_persisted(app: ReferenceServer, inserted: dict[str, JobRecord]) -> None:
    app.store.insert = lambda record: None  # type: ignore[method-assign]


def _another_job(app: ReferenceServer, inserted: dict[str, JobRecord]) -> None:
    real_get = app.store.get

    def get(project_id: str, job_id: str) -> JobRecord | None:
        record = real_get(project_id, job_id)
        if record is None:
            return None
        ids = [i for i, r in inserted.items() if r.project_id == project_id]
        if job_id in ids and ids.index(job_id) > 0:
            return real_get(project_id, ids[ids.index(job_id) - 1])
        return record

    app.store.get = get  # type: ignore[method-assign]


def _any_project(app: ReferenceServer, inserted: dict[str, JobRecord]) -> None:
    real_get = app.store.get

    def get(project_id: str, job_id: str) -> JobRecord | None:
        record = real_get(project_id, job_id)
        if record is None and job_id in inserted:
            return inserted[job_id]
        return record

    app.store.get = get  # type: ignore[method-assign]


MUTANTS: tuple[Mutant, ...] = (
    # wrong success status codes
    Mutant(
        "create_200",
        "status code",
        "create answers 200 instead of 201",
        _rewriting(_status_swap("create", 201, 200)),
    ),
    Mutant(
        "terminate_200",
        "status code",
        "terminate answers 200 instead of 202",
        _rewriting(_status_swap("terminate", 202, 200)),
    ),
    Mutant(
        "show_201",
        "status code",
        "show answers 201 instead of 200",
        _rewriting(_status_swap("show", 200, 201)),
    ),
    # schema breaks in responses
    Mutant(
        "create_time_string",
        "response schema",
        "metadata.create_time rendered as a string (type)",
        _rewriting(_on_success(None, _create_time_as_text)),
    ),
    Mutant(
        "phase_lower_case",
        "response schema",
        "status.phase outside its enum ('running')",
        _rewriting(_on_success("show", _phase_lower_case)),
    ),
    Mutant(
        "missing_job_id",
        "response schema",
        "required metadata.id missing from show",
        _rewriting(_on_success("show", _drop_job_id)),
    ),
    Mutant(
        "node_metrics_strings",
        "response schema",
        "status.node_count_metrics inner arrays hold strings (nested arrays)",
        _rewriting(_on_success(None, _node_metrics_as_text)),
    ),
    Mutant(
        "error_without_code",
        "response schema",
        "error bodies lack error_code",
        _rewriting(_error_without_code),
    ),
    # missing validation
    Mutant(
        "name_unchecked",
        "validation",
        "metadata.name pattern not validated",
        _patching(
            server_handlers, "validate_instance", _ignoring(("metadata", "name"), "valid-name")
        ),
    ),
    Mutant(
        "kind_enum_unchecked",
        "validation",
        "kind enum not validated",
        _patching(server_handlers, "validate_instance", _ignoring(("kind",), "job")),
    ),
    Mutant(
        "action_type_unchecked",
        "validation",
        "action_type enum not validated (any action terminates)",
        _patching(server_handlers, "validate_instance", _ignoring(("action_type",), "terminate")),
    ),
    Mutant(
        "metadata_required_unchecked",
        "validation",
        "required metadata not enforced on create",
        _patching(server_handlers, "validate_instance", _required_metadata_not_checked),
    ),
    Mutant(
        "node_count_unchecked",
        "validation",
        "spec.resource.node_count minimum not validated",
        _patching(
            server_handlers, "validate_instance", _ignoring(("spec", "resource", "node_count"), 1)
        ),
    ),
    # lifecycle bugs
    Mutant(
        "terminate_ignored",
        "lifecycle",
        "terminate answers 202 Terminating but the job keeps running",
        _replacing_terminate(_terminate_not_stored),
    ),
    Mutant(
        "terminate_twice",
        "lifecycle",
        "a job in any phase can be terminated (second terminate accepted)",
        _patching(server_handlers, "can_terminate", _always_terminable),
    ),
    Mutant(
        "terminate_reports_running",
        "lifecycle",
        "terminate answers 202 with phase Running",
        _rewriting(_on_success("terminate", _terminate_shows_running)),
    ),
    Mutant(
        "not_persisted",
        "lifecycle",
        "created jobs are not stored",
        _store_wrapping(_not_persisted),
    ),
    Mutant(
        "another_job",
        "lifecycle",
        "show returns the previously created job",
        _store_wrapping(_another_job),
    ),
    # isolation and auth
    Mutant(
        "project_leak",
        "isolation",
        "a job is found through any project's path",
        _store_wrapping(_any_project),
    ),
    Mutant(
        "no_auth_accepted",
        "auth",
        "a request without credentials is accepted",
        _patching(server_app, "authenticate", _no_credentials_accepted),
    ),
    Mutant(
        "any_token_accepted",
        "auth",
        "any X-Auth-Token value is accepted",
        _patching(server_app, "authenticate", _any_token_accepted),
    ),
    Mutant(
        "auth_errors_text",
        "error body",
        "401/403 answered with a plain-text body",
        _rewriting(_auth_errors_as_text),
    ),
    # wire format
    Mutant(
        "text_plain_success",
        "content type",
        "success responses declared text/plain",
        _rewriting(_plain_text_success),
    ),
    Mutant(
        "validation_422",
        "status code",
        "invalid parameters answered 422 (undocumented)",
        _rewriting(_validation_as_422),
    ),
    Mutant(
        "unknown_job_404",
        "status code",
        "unknown job answered 404 instead of 400 ModelArts.2775",
        _rewriting(_unknown_job_as_404),
    ),
    Mutant(
        "truncated_json",
        "malformed JSON",
        "success bodies lose their last byte",
        _rewriting(_truncated_json),
    ),
    # what is stored is not what was sent
    Mutant(
        "name_lower_cased",
        "stored value",
        "metadata.name stored lower-cased",
        _storing(_metadata_text("name", str.lower)),
    ),
    Mutant(
        "name_truncated",
        "stored value",
        "metadata.name stored truncated to 32 characters",
        _storing(_metadata_text("name", lambda text: text[:32])),
    ),
    Mutant(
        "description_trimmed",
        "stored value",
        "metadata.description stored with surrounding spaces trimmed",
        _storing(_metadata_text("description", str.strip)),
    ),
    Mutant(
        "description_truncated",
        "stored value",
        "metadata.description stored truncated to 200 characters",
        _storing(_metadata_text("description", lambda text: text[:200])),
    ),
    Mutant(
        "description_nfc",
        "stored value",
        "metadata.description stored Unicode-normalised (NFC)",
        _storing(_metadata_text("description", lambda text: unicodedata.normalize("NFC", text))),
    ),
    Mutant(
        "environment_keys_upper",
        "stored value",
        "algorithm.environments keys stored upper-cased",
        _storing(_environment_keys_upper),
    ),
    Mutant(
        "parameter_values_trimmed",
        "stored value",
        "algorithm.parameters values stored trimmed",
        _storing(_parameter_values_trimmed),
    ),
    # the optional operations: list, delete, describe, events, tasks (issue 26)
    *(Mutant(*entry) for entry in FAMILY_MUTANTS),
    # the nine further operations checked with power (issue 32)
    *(Mutant(*entry) for entry in POWER_MUTANTS),
)


# --- a correct but lenient variant ------------------------------------------------------------

# Rules the vendor pages never say a server enforces: unknown fields (a closed object such as the
# terminate body) and "choose one of" pairs. A lenient server ignores them; it is still correct.
LENIENT_IGNORES = ("additionalProperties", "not")


def _lenient_validation(original: Callable[..., Any]) -> Callable[..., Any]:
    from modelarts_kit_server.validation import best_violation, openapi_validator

    def validate_instance(spec: Any, schema: Any, instance: Any) -> Any:
        errors = openapi_validator(spec, schema).iter_errors(instance)
        return best_violation(e for e in errors if e.validator not in LENIENT_IGNORES)

    return validate_instance


LENIENT = Mutant(
    "lenient",
    "correct variant",
    "ignores unknown fields and accepts both members of a choose-one pair (must PASS)",
    _patching(server_handlers, "validate_instance", _lenient_validation),
)


def mutant_names() -> list[str]:
    return [mutant.name for mutant in MUTANTS]


@contextmanager
def mutated_app(
    mutant: Mutant | None, *, strictness: str = "lenient", clock: Clock | None = None
) -> Iterator[ASGIApp]:
    """A fresh reference server at the ``strictness`` end with ``mutant`` applied (None: the
    correct server), on ``clock`` (None: a simulated clock of its own)."""
    app = create_app(ServerSettings(clock=clock, timings=MUTANT_TIMINGS, strictness=strictness))
    try:
        with ExitStack() as stack:
            yield app if mutant is None else mutant.install(app, stack)
    finally:
        app.close()


@contextmanager
def mutated_target(mutant: Mutant | None, *, strictness: str = "lenient") -> Iterator[ServerTarget]:
    """:func:`mutated_app` as the embedded default target is: in-process, its clock the run's
    to move forward while a scenario waits for a job's phases (no sleep)."""
    clock = SimulatedClock()
    with mutated_app(mutant, strictness=strictness, clock=clock) as app:
        yield ServerTarget.asgi(app, timeline=SkippingTimeline(clock.advance))
