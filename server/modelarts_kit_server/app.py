"""The reference server as a raw ASGI application.

Routes, path-parameter schemas, request schemas and response schemas all come from the spec
(``modelarts_kit_spec.load_spec``). One request goes through these named steps, each a small
module-level function so tests and the contract kit's mutants can wrap or replace any of them:

1. :func:`match_route` - the operation for method + path (404 ``ModelArts.2836``, 405
   ``ModelArts.2803`` with ``Allow``);
2. :func:`read_body` - the raw body, at most ``max_body_bytes`` (413 ``ModelArts.4104``);
3. :func:`modelarts_kit_server.auth.authenticate` - token or AK/SK signature (401);
4. :func:`modelarts_kit_server.validation.validate_path_parameters` (400 ``ModelArts.2788``);
5. :func:`modelarts_kit_server.auth.check_project_access` (404 ``ModelArts.2786``);
6. the operation handler: :func:`create_job`, :func:`show_job`, :func:`terminate_job`, which
   parse and validate the body (:func:`validate_body`), build the stored job
   (:func:`build_job`), persist it (:class:`~modelarts_kit_server.store.JobStore`), move the
   lifecycle (:mod:`modelarts_kit_server.lifecycle`) and render it (:func:`render_job`);
7. :func:`send_json` - the response, with ``X-Request-Id`` and
   ``Content-Type: application/json; charset=utf-8``.

Steps are looked up as attributes of this module when a request runs, so to replace one
(a mutant, a fault) patch it here, e.g. ``modelarts_kit_server.app.authenticate`` or
``modelarts_kit_server.app.render_job``, not in the module that defines it.

Any :class:`~modelarts_kit_server.errors.ApiError` becomes the vendor error body
(:func:`render_error`); anything else is a server bug, logged with its traceback and answered
with 500 ``ModelArts.0010``.

Server-owned fields: ``metadata.id`` (a UUID), ``metadata.create_time`` (ms, simulated clock),
``metadata.user_name`` and ``status`` are always the server's; absent fields with a ``default``
in the request schema are filled; everything else the client sent comes back unchanged. A job
whose echo would violate the spec's response schema is refused with 400 ``ModelArts.2788``.
Test hook: the annotation ``metadata.annotations["modelarts-kit/simulate"] = "failed"`` makes
the job end Failed instead of Completed.
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import random
import re
import threading
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import unquote

from modelarts_kit_spec import Operation, Spec, load_spec

from modelarts_kit_server import errors
from modelarts_kit_server.auth import (
    Principal,
    RequestParts,
    authenticate,
    check_project_access,
)
from modelarts_kit_server.clock import Clock, SimulatedClock
from modelarts_kit_server.errors import ApiError, error_body
from modelarts_kit_server.faults import FaultKind, FaultPlan
from modelarts_kit_server.lifecycle import (
    SIMULATE_ANNOTATION,
    Outcome,
    Timeline,
    can_terminate,
    render_status,
    snapshot_at,
)
from modelarts_kit_server.rendering import conform_to_schema
from modelarts_kit_server.settings import ServerSettings
from modelarts_kit_server.store import DuplicateJobName, JobRecord, JobStore
from modelarts_kit_server.validation import (
    apply_defaults,
    describe_violation,
    parse_json_body,
    pointer,
    redacted_value,
    validate_instance,
    validate_path_parameters,
)

__all__ = [
    "ConnectionDropped",
    "JsonResponse",
    "ReferenceServer",
    "RequestContext",
    "Route",
    "build_job",
    "create_app",
    "create_job",
    "echo_as_stored",
    "inject_faults",
    "match_route",
    "read_body",
    "render_error",
    "render_job",
    "send_json",
    "show_job",
    "terminate_job",
    "validate_body",
]

logger = logging.getLogger("modelarts_kit_server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CONTENT_TYPE = "application/json; charset=utf-8"
MAX_ID_CHARS = 64
MAX_RENDERED_TASKS = 64  # node_count may be huge; the task list shown is capped
SERVER_OWNED_METADATA = ("id", "create_time", "user_name")

# The three operations, by method and path template (the vendor's URIs).
CREATE_PATH = "/v2/{project_id}/training-jobs"
SHOW_PATH = "/v2/{project_id}/training-jobs/{training_job_id}"
TERMINATE_PATH = "/v2/{project_id}/training-jobs/{training_job_id}/actions"


@dataclass(frozen=True)
class JsonResponse:
    status: int
    body: Any
    headers: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class RequestContext:
    """What a handler needs about the request and the server."""

    server: ReferenceServer
    operation: Operation
    path_params: Mapping[str, str]
    principal: Principal
    body: bytes
    content_type: str | None

    @property
    def project_id(self) -> str:
        return self.path_params["project_id"]


Handler = Callable[[RequestContext], JsonResponse]


@dataclass(frozen=True)
class Route:
    operation: Operation
    pattern: re.Pattern[str]
    handler: Handler


def _short(text: str) -> str:
    return text if len(text) <= MAX_ID_CHARS else text[: MAX_ID_CHARS - 3] + "..."


# -- routing ------------------------------------------------------------------------------------


def compile_path(template: str) -> re.Pattern[str]:
    """A regex over the raw (percent-encoded) path for a template; one group per segment."""
    parts = re.split(r"(\{[^}/]+\})", template)
    regex = "".join(
        f"(?P<{part[1:-1]}>[^/]*)" if part.startswith("{") else re.escape(part) for part in parts
    )
    return re.compile(f"^{regex}$")


def build_routes(spec: Spec) -> tuple[Route, ...]:
    handlers: dict[tuple[str, str], Handler] = {
        ("post", CREATE_PATH): create_job,
        ("get", SHOW_PATH): show_job,
        ("post", TERMINATE_PATH): terminate_job,
    }
    routes: list[Route] = []
    for operation in spec.operations:
        handler = handlers.get((operation.method, operation.path))
        if handler is None:
            logger.warning(
                "spec operation %s %s has no handler in the reference server",
                operation.method.upper(),
                operation.path,
            )
            continue
        routes.append(Route(operation, compile_path(operation.path), _dispatch(handler)))
    missing = set(handlers) - {(r.operation.method, r.operation.path) for r in routes}
    if missing:
        raise errors.ConfigError(f"the spec lacks operations the server implements: {missing}")
    return tuple(routes)


def _dispatch(handler: Handler) -> Handler:
    # Resolve the handler by name at call time, so replacing a module attribute takes effect.
    name = handler.__name__

    def call(context: RequestContext) -> JsonResponse:
        target: Handler = globals()[name]
        return target(context)

    call.__name__ = name
    return call


@dataclass(frozen=True)
class RouteMatch:
    route: Route
    path_params: dict[str, str]


def match_route(routes: tuple[Route, ...], method: str, raw_path: str) -> RouteMatch:
    """The route for the request; 404 for an unknown path, 405 (with Allow) for a wrong method."""
    allowed: list[str] = []
    for route in routes:
        found = route.pattern.match(raw_path)
        if found is None:
            continue
        if route.operation.method == method.lower():
            params = {name: unquote(value) for name, value in found.groupdict().items()}
            return RouteMatch(route, params)
        allowed.append(route.operation.method.upper())
    if allowed:
        raise ApiError(
            errors.METHOD_NOT_ALLOWED,
            detail=f"{method.upper()} is not supported here; allowed: {', '.join(allowed)}.",
            headers={"Allow": ", ".join(sorted(set(allowed)))},
        )
    raise ApiError(errors.PATH_NOT_FOUND)


# -- request body -------------------------------------------------------------------------------


async def read_body(receive: Receive, max_bytes: int) -> bytes:
    """The whole request body; 413 ``ModelArts.4104`` beyond ``max_bytes``."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > max_bytes:
            raise ApiError(errors.BODY_TOO_LARGE, detail=f"The limit is {max_bytes} bytes.")
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def validate_body(context: RequestContext) -> Any:
    """The parsed body, valid against the operation's request schema in the spec."""
    document = parse_json_body(context.body, context.content_type)
    schema = context.operation.request_schema
    if schema is None:
        return document
    violation = validate_instance(context.server.spec, schema, document)
    if violation is None:
        return document
    if context.operation.path == TERMINATE_PATH and _is_unsupported_action(violation):
        raise ApiError(errors.UNSUPPORTED_ACTION_TYPE, _short(str(violation.instance)))
    raise ApiError(errors.INVALID_PARAM, describe_violation(violation))


def _is_unsupported_action(violation: Any) -> bool:
    return (
        list(violation.absolute_path) == ["action_type"]
        and violation.validator in ("enum", "const")
        and isinstance(violation.instance, str)
    )


# -- jobs ---------------------------------------------------------------------------------------


def simulated_outcome(document: Mapping[str, Any]) -> Outcome:
    """The test hook: ``metadata.annotations["modelarts-kit/simulate"]`` = completed | failed."""
    metadata = document.get("metadata")
    annotations = metadata.get("annotations") if isinstance(metadata, Mapping) else None
    if not isinstance(annotations, Mapping) or SIMULATE_ANNOTATION not in annotations:
        return Outcome.COMPLETED
    value = annotations[SIMULATE_ANNOTATION]
    try:
        return Outcome(value)
    except ValueError:
        path = ["metadata", "annotations", SIMULATE_ANNOTATION]
        known = " or ".join(repr(o.value) for o in Outcome)
        raise ApiError(
            errors.INVALID_PARAM,
            f"{pointer(path)}: value {redacted_value(value, path)} violates must be {known}",
        ) from None


def build_job(context: RequestContext, document: Mapping[str, Any]) -> JobRecord:
    """The job to store: the client's document, spec defaults, and server-owned fields."""
    server = context.server
    schema = context.operation.request_schema
    job: dict[str, Any] = apply_defaults(server.spec, schema, copy.deepcopy(dict(document)))
    job.pop("status", None)  # the server owns the status
    metadata = dict(job.get("metadata") or {})
    now_ms = server.clock.now_ms()
    metadata["id"] = server.new_job_id()
    metadata["create_time"] = now_ms
    metadata["user_name"] = server.settings.user_name
    job["metadata"] = metadata
    return JobRecord(
        project_id=context.project_id,
        job_id=metadata["id"],
        name=str(metadata.get("name", "")),
        document=job,
        timeline=Timeline(created_ms=now_ms, outcome=simulated_outcome(job)),
    )


def node_count(document: Mapping[str, Any]) -> int:
    spec = document.get("spec")
    resource = spec.get("resource") if isinstance(spec, Mapping) else None
    count = resource.get("node_count") if isinstance(resource, Mapping) else None
    if isinstance(count, int) and not isinstance(count, bool) and count >= 1:
        return min(count, MAX_RENDERED_TASKS)
    return 1


def render_job(server: ReferenceServer, record: JobRecord, now_ms: int | None = None) -> Any:
    """The API representation of a stored job at ``now_ms`` (default: the clock's now)."""
    moment = server.clock.now_ms() if now_ms is None else now_ms
    snapshot = snapshot_at(record.timeline, server.settings.timings, moment)
    rendered: dict[str, Any] = {}
    for key, value in record.document.items():
        rendered[key] = value
        if key == "metadata":
            rendered["status"] = render_status(snapshot, node_count(record.document))
    if "status" not in rendered:
        rendered["status"] = render_status(snapshot, node_count(record.document))
    return rendered


def echo_as_stored(context: RequestContext, record: JobRecord) -> JobRecord:
    """The job as the server stores it: shaped to the documented success response schema."""
    schema = context.operation.success.schema
    if schema is None:
        return record
    rendered = render_job(context.server, record, record.timeline.created_ms)
    try:
        shaped = conform_to_schema(context.server.spec, schema, rendered)
    except ValueError:
        logger.error("job %s cannot be shaped to the response schema", record.job_id)
        raise
    document = {key: value for key, value in shaped.items() if key != "status"}
    return replace(record, document=document)


def create_job(context: RequestContext) -> JsonResponse:
    document = validate_body(context)
    record = echo_as_stored(context, build_job(context, document))
    try:
        context.server.store.insert(record)
    except DuplicateJobName:
        raise ApiError(errors.DUPLICATE_JOB_NAME, _short(record.name)) from None
    return JsonResponse(201, render_job(context.server, record, record.timeline.created_ms))


def show_job(context: RequestContext) -> JsonResponse:
    job_id = context.path_params["training_job_id"]
    record = context.server.store.get(context.project_id, job_id)
    if record is None:
        raise ApiError(errors.JOB_NOT_FOUND, _short(job_id))
    return JsonResponse(200, render_job(context.server, record))


def terminate_job(context: RequestContext) -> JsonResponse:
    validate_body(context)
    server = context.server
    job_id = context.path_params["training_job_id"]
    now_ms = server.clock.now_ms()

    def allowed(record: JobRecord) -> bool:
        return can_terminate(snapshot_at(record.timeline, server.settings.timings, now_ms))

    record, recorded = server.store.request_termination(context.project_id, job_id, now_ms, allowed)
    if record is None:
        raise ApiError(errors.JOB_NOT_FOUND, _short(job_id))
    if not recorded:
        phase = snapshot_at(record.timeline, server.settings.timings, now_ms).phase
        raise ApiError(
            errors.NOT_ALLOWED_TO_TERMINATE,
            detail=f"It is {phase.value}; only Creating, Pending or Running jobs can be.",
        )
    return JsonResponse(202, render_job(server, record, now_ms))


# -- responses ----------------------------------------------------------------------------------


def render_error(error: ApiError) -> JsonResponse:
    return JsonResponse(error.status, error_body(error), error.headers)


def encode_json(body: Any) -> bytes:
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


async def send_json(send: Send, response: JsonResponse, request_id: str) -> None:
    payload = encode_json(response.body)
    headers = [
        (b"content-type", CONTENT_TYPE.encode()),
        (b"content-length", str(len(payload)).encode()),
        (b"x-request-id", request_id.encode()),
    ]
    for name, value in response.headers.items():
        headers.append((name.lower().encode("latin-1"), value.encode("latin-1")))
    await send({"type": "http.response.start", "status": response.status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


def new_request_id() -> str:
    return str(uuid.uuid4())


def _decode_header(value: bytes) -> str:
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError:
        return value.decode("latin-1")


def request_headers(scope: Scope) -> dict[str, str]:
    """Lower-case header names; repeated headers are joined with ',' (RFC 9110)."""
    headers: dict[str, str] = {}
    for raw_name, raw_value in scope.get("headers", []):
        name = raw_name.decode("latin-1").lower()
        value = _decode_header(raw_value)
        headers[name] = f"{headers[name]},{value}" if name in headers else value
    return headers


# -- the application ----------------------------------------------------------------------------


class ReferenceServer:
    """The ASGI application; attributes ``settings``, ``spec``, ``store``, ``clock``, ``routes``."""

    def __init__(
        self,
        settings: ServerSettings,
        spec: Spec,
        store: JobStore,
        clock: Clock,
    ) -> None:
        self.settings = settings
        self.spec = spec
        self.store = store
        self.clock = clock
        self.routes = build_routes(spec)
        self._ids = random.Random(settings.id_seed) if settings.id_seed is not None else None
        self._ids_lock = threading.Lock()

    def new_job_id(self) -> str:
        """A UUID4 job id: random, or from the ``id_seed`` generator (reproducible)."""
        if self._ids is None:
            return str(uuid.uuid4())
        with self._ids_lock:
            bits = self._ids.getrandbits(128)
        return str(uuid.UUID(int=bits, version=4))

    def __repr__(self) -> str:
        return f"ReferenceServer(store={self.store!r}, clock={self.clock!r})"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        if self.settings.faults is not None and await inject_faults(self.settings.faults, send):
            return
        request_id = new_request_id()
        started = time.perf_counter()
        try:
            response = await self.handle(scope, receive)
        except ApiError as error:
            response = render_error(error)
        except Exception:  # a server bug: keep the cause in the log, answer like the vendor
            logger.exception("request %s failed", request_id)
            response = render_error(ApiError(errors.INTERNAL_ERROR))
        await send_json(send, response, request_id)
        logger.info(
            "%s %s -> %d (%s, %.1f ms)",
            scope.get("method", "?"),
            scope.get("path", "?")[:200],
            response.status,
            request_id,
            (time.perf_counter() - started) * 1000,
        )

    async def handle(self, scope: Scope, receive: Receive) -> JsonResponse:
        method = str(scope.get("method", "GET"))
        raw_path = _raw_path(scope)
        found = match_route(self.routes, method, raw_path)
        body = await read_body(receive, self.settings.max_body_bytes)
        headers = request_headers(scope)
        parts = RequestParts(
            method=method,
            raw_path=raw_path,
            query_string=scope.get("query_string", b"").decode("latin-1"),
            headers=headers,
            body=body,
        )
        principal = authenticate(self.settings, parts)
        validate_path_parameters(self.spec, found.route.operation, found.path_params)
        check_project_access(principal, found.path_params["project_id"])
        context = RequestContext(
            server=self,
            operation=found.route.operation,
            path_params=found.path_params,
            principal=principal,
            body=body,
            content_type=headers.get("content-type"),
        )
        return found.route.handler(context)

    def close(self) -> None:
        self.store.close()


def _raw_path(scope: Scope) -> str:
    raw = scope.get("raw_path")
    if isinstance(raw, bytes | bytearray):
        return bytes(raw).split(b"?", 1)[0].decode("latin-1")
    return str(scope.get("path", "/"))


async def _lifespan(receive: Receive, send: Send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


# -- fault injection ----------------------------------------------------------------------------


class ConnectionDropped(errors.ServerError):
    """Raised after the response has started, so the server closes the connection (a fault)."""


async def inject_faults(plan: FaultPlan, send: Send) -> bool:
    """Apply this request's faults (see :mod:`~modelarts_kit_server.faults`); True if answered."""
    for fault in plan.draw():
        if fault.kind is FaultKind.LATENCY:
            await asyncio.sleep(fault.parameter)
        elif fault.kind is FaultKind.TOO_MANY_REQUESTS:
            retry_after = str(max(0, round(fault.parameter)))
            error = ApiError(errors.TOO_MANY_REQUESTS, headers={"Retry-After": retry_after})
            await send_json(send, render_error(error), new_request_id())
            return True
        elif fault.kind is FaultKind.UNAVAILABLE:
            error = ApiError(errors.SERVICE_UNAVAILABLE)
            await send_json(send, render_error(error), new_request_id())
            return True
        elif fault.kind is FaultKind.DROP:
            headers = [(b"content-length", b"1024"), (b"x-request-id", new_request_id().encode())]
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            raise ConnectionDropped("fault injection: connection dropped")
    return False


# -- factory ------------------------------------------------------------------------------------


def create_app(settings: ServerSettings | None = None) -> ReferenceServer:
    """A reference server for ``settings`` (default: in-memory, development token, real time).

    The app's ``store`` and ``clock`` attributes are there for tests' assertions.
    """
    settings = settings or ServerSettings()
    spec = load_spec(settings.spec_path)
    store = JobStore(settings.database)
    clock = settings.clock or SimulatedClock(
        settings.clock_speed, not_before_ms=store.latest_time_ms()
    )
    return ReferenceServer(settings, spec, store, clock)
