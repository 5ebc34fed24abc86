"""The reference server as a raw ASGI application: routing and request plumbing.

Routes, path-parameter schemas, request schemas and response schemas all come from the spec
(``modelarts_kit_spec.load_spec``). One request goes through these named steps, each a small
module-level function so tests and the contract kit's mutants can wrap or replace any of them:

1. :func:`resolve_route` - the operation for method + path (the spec's route rule,
   :mod:`modelarts_kit_spec.routes`; ``path-not-found``, ``method-not-allowed`` with ``Allow``);
2. :func:`modelarts_kit_server.auth.authenticate` - token or AK/SK signature, on the
   headers alone: an unauthenticated request is answered before its body is read;
3. :func:`read_body` - the raw body, at most ``max_body_bytes`` (``body-too-large``; a
   ``Content-Length`` above the limit is refused before reading), then, for a signed request,
   :func:`modelarts_kit_server.auth.verify_signature` over the body's hash. An answer
   given before a large body was read carries ``Connection: close``, so the rest is never
   received;
4. :func:`modelarts_kit_server.validation.validate_path_parameters` (``invalid-parameter``);
5. :func:`modelarts_kit_server.auth.check_project_access` (``project-mismatch``);
6. the operation's handler from the server's explicit table ``handlers`` (operation id ->
   handler; :func:`~modelarts_kit_server.handlers.default_handlers` binds the handlers of
   the package :mod:`~modelarts_kit_server.handlers` (``job_core``: create, show, terminate;
   ``job_records``, ``tasks``, ``catalogue``) by the spec's roles;
   ``create_app(settings, handlers=...)`` replaces the table);
7. :func:`send_json` - the response, with ``X-Request-Id`` and
   ``Content-Type: application/json; charset=utf-8`` (no body and no content type where the
   spec documents the answer without content: a delete's 202).

Large bodies do not hold up other clients: a handler whose body is larger than
:data:`INLINE_BODY_BYTES` runs (parsing, validation, storage and encoding of the answer) on
:data:`LARGE_BODY_WORKERS` worker thread, so the event loop keeps serving everyone else; at
most :data:`MAX_LARGE_BODIES` large bodies are admitted at once (one more is answered 429
``ModelArts.2799`` with ``Retry-After`` before it is read); the body size limit
(:data:`DEFAULT_MAX_BODY_BYTES`, 2 MiB, settable with ``ServerSettings.max_body_bytes`` up to
the vendor's documented 12 MB) bounds the work any one request can ask for
(``benchmarks/bench_large_bodies.py`` measures both).

Steps are looked up as attributes of their module when a request runs, so to replace one (a
mutant, a fault) patch it where it is called, e.g. ``modelarts_kit_server.app.authenticate`` or
``modelarts_kit_server.handlers.job_core.render_job``, not in the module that defines it; to
replace a handler, replace its entry in the app's ``handlers`` table (or pass ``handlers=``).

Any :class:`~modelarts_kit_server.errors.ApiError` names a meaning; :func:`render_error`
answers it with the first code the spec lists for that meaning on the request's operation
(``x-modelarts-error-codes``; before an operation is known, ``x-modelarts-gateway-errors``) and
the vendor's text from the spec's catalogue. A storage failure (a full disk, an I/O error) is
answered ``backend-unavailable`` (503) with one log line; anything else is a server bug, logged
with its traceback and answered as ``internal-error``. Log lines show request data (method,
path) with control characters escaped, so a request cannot forge a log line. Which operation
creates, shows and terminates comes from the spec's roles, the job lifecycle from its
``x-modelarts-lifecycle`` (:mod:`modelarts_kit_server.lifecycle`).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import random
import threading
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import quote

from modelarts_kit_spec import Operation, Spec, load_spec
from modelarts_kit_spec.routes import match_route
from modelarts_kit_spec.schemamodel import MUST_ACCEPT, MUST_REJECT
from modelarts_kit_wire.asgi import ASGIApp as ASGIApp
from modelarts_kit_wire.asgi import Message as Message
from modelarts_kit_wire.asgi import Receive as Receive
from modelarts_kit_wire.asgi import Scope as Scope
from modelarts_kit_wire.asgi import Send as Send
from modelarts_kit_wire.asgi import answer_lifespan
from modelarts_kit_wire.asgi import read_body as read_body_capped
from modelarts_kit_wire.headers import asgi_headers
from modelarts_kit_wire.recent import Recent
from modelarts_kit_wire.signing import RequestParts

from modelarts_kit_server import errors
from modelarts_kit_server.auth import (
    PendingSignature,
    Principal,
    authenticate,
    check_project_access,
    verify_signature,
)
from modelarts_kit_server.catalogue import load_catalogue
from modelarts_kit_server.clock import Clock, SimulatedClock
from modelarts_kit_server.context import Handler, JsonResponse, RequestContext
from modelarts_kit_server.downloads import (
    LinkRefused,
    LogLinks,
    is_download_path,
    request_origin,
)
from modelarts_kit_server.errors import ApiError, error_body, resolve_error
from modelarts_kit_server.faults import FaultKind, FaultPlan
from modelarts_kit_server.handlers import default_handlers
from modelarts_kit_server.handlers.tasks import task_log_download
from modelarts_kit_server.lifecycle import Simulation
from modelarts_kit_server.settings import DEFAULT_MAX_BODY_BYTES, STRICT, ServerSettings
from modelarts_kit_server.store import JobStore, StorageUnavailable
from modelarts_kit_server.validation import validate_path_parameters

__all__ = [
    "DEFAULT_MAX_BODY_BYTES",
    "INLINE_BODY_BYTES",
    "LARGE_BODY_WORKERS",
    "MAX_LARGE_BODIES",
    "ConnectionDropped",
    "JsonResponse",
    "ReferenceServer",
    "RequestContext",
    "Route",
    "Routes",
    "create_app",
    "inject_faults",
    "loggable",
    "read_body",
    "render_error",
    "resolve_route",
    "send_json",
]

logger = logging.getLogger("modelarts_kit_server")

CONTENT_TYPE = "application/json; charset=utf-8"
SERVER_OWNED_METADATA = ("id", "create_time", "user_name")
# A body above this size is handled on the worker pool, off the event loop (a create of this
# size, about 35 parameters, takes a few milliseconds; one at the 2 MiB limit, seconds).
INLINE_BODY_BYTES = 4 * 1024
# An answer rendering a stored job larger than this is also built and encoded on the worker
# pool (a show of a 2 MiB job took up to 300 ms of the event loop: bench_large_bodies).
INLINE_ANSWER_BYTES = 64 * 1024
# Threads for large bodies: one. It shares the GIL with the event loop, and a second thread
# competing for it made other clients wait longer (bench_large_bodies: probe median 40 ms
# against 11 ms with one); further large bodies wait their turn.
LARGE_BODY_WORKERS = 1
MAX_LOGGED_CHARS = 200
# Large bodies admitted at once (being read, waiting for the worker or handled): each holds up
# to max_body_bytes of memory. One more is answered 429 (with Retry-After) before it is read.
MAX_LARGE_BODIES = 8
# A request answered before its body was read (401, 413) keeps its connection only when the
# HTTP server has likely buffered the rest already (uvicorn reads 64 KiB ahead).
EARLY_ANSWER_READ_BYTES = 64 * 1024


# -- routing ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    """An operation the server answers; its handler is the server's ``handlers[operation_id]``."""

    operation: Operation


MATCHED_PATHS = 256  # paths a server's routes keep matched (see Routes.matched)


class Routes(tuple[Route, ...]):
    """A server's routes, with the index every request's resolution reads, built once."""

    @functools.cached_property
    def operations(self) -> list[Operation]:
        return [route.operation for route in self]

    @functools.cached_property
    def by_operation(self) -> dict[str, Route]:
        return {route.operation.operation_id: route for route in self}

    @functools.cached_property
    def matched(self) -> Recent[tuple[str, str], tuple[Route, tuple[tuple[str, str], ...]]]:
        """The last paths matched to a route (most requests go to a few fixed paths): the
        route and its path parameters by the exact method and raw path."""
        return Recent(MATCHED_PATHS)


def build_routes(spec: Spec, handlers: Mapping[str, Handler]) -> Routes:
    """One route per spec operation that ``handlers`` (by operation id) has a handler for."""
    routes: list[Route] = []
    for operation in spec.operations:
        if operation.operation_id not in handlers:
            logger.warning(
                "spec operation %s %s has no role the reference server implements",
                operation.method.upper(),
                operation.path,
            )
            continue
        routes.append(Route(operation))
    return Routes(routes)


@dataclass(frozen=True)
class ResolvedRoute:
    route: Route
    path_params: dict[str, str]


def resolve_route(routes: tuple[Route, ...], method: str, raw_path: str) -> ResolvedRoute:
    """The route for the request (the spec's route rule); ``path-not-found`` for an unknown
    path, ``method-not-allowed`` (with ``Allow``) for a wrong method."""
    table = routes if isinstance(routes, Routes) else Routes(routes)
    known = table.matched.get((method, raw_path))
    if known is not None:
        return ResolvedRoute(known[0], dict(known[1]))
    found = match_route(table.operations, method, raw_path)
    if found is None:
        raise ApiError(errors.PATH_NOT_FOUND)
    if found.operation is None:
        allowed = found.allowed_methods
        raise ApiError(
            errors.METHOD_NOT_ALLOWED,
            detail=f"{method.upper()} is not supported here; allowed: {', '.join(allowed)}.",
            headers={"Allow": ", ".join(sorted(set(allowed)))},
        )
    route = table.by_operation[found.operation.operation_id]
    table.matched.put((method, raw_path), (route, tuple(found.path_params.items())))
    return ResolvedRoute(route, dict(found.path_params))


# -- request body -------------------------------------------------------------------------------


def body_too_large(max_bytes: int) -> ApiError:
    """``body-too-large`` (413), its solution naming this server's limit."""
    limit = f"{max_bytes // 2**20} MiB" if max_bytes % 2**20 == 0 else f"{max_bytes} bytes"
    return ApiError(
        errors.BODY_TOO_LARGE,
        detail=f"The limit is {max_bytes} bytes.",
        solution=f"Use a request body smaller than {limit}.",
    )


def declared_length(headers: Mapping[str, str]) -> int | None:
    """The ``Content-Length`` the client declared (None: absent or not a number)."""
    value = headers.get("content-length", "").strip()
    return int(value) if value.isascii() and value.isdigit() else None


async def read_body(receive: Receive, max_bytes: int) -> bytes:
    """The whole request body; ``body-too-large`` (413) as soon as it passes ``max_bytes``."""
    body = await read_body_capped(receive, max_bytes)
    if body.exceeded:
        raise body_too_large(max_bytes)
    return body.data


# -- responses ----------------------------------------------------------------------------------


def render_error(spec: Spec, error: ApiError) -> JsonResponse:
    """The vendor error response for ``error``: code, status and text from the spec."""
    entry = resolve_error(spec.meaning.errors, error)
    return JsonResponse(entry.status, error_body(entry, error), error.headers)


def encode_json(body: Any) -> bytes:
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


async def send_json(
    send: Send, response: JsonResponse, request_id: str, payload: bytes | None = None
) -> None:
    """Send ``response`` (``payload``: its body already encoded, e.g. off the event loop);
    an ``empty`` response has no body and no content type."""
    if response.empty:
        payload = b""
    elif payload is None:
        payload = encode_json(response.body)
    headers = [] if response.empty else [(b"content-type", CONTENT_TYPE.encode())]
    headers += [
        (b"content-length", str(len(payload)).encode()),
        (b"x-request-id", request_id.encode()),
    ]
    headers += asgi_headers(response.headers.items())
    await send({"type": "http.response.start", "status": response.status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


async def _send_bytes(
    send: Send,
    status: int,
    headers: list[tuple[bytes, bytes]],
    body: bytes,
    request_id: str,
    method: str,
) -> None:
    """A response that is not the API's JSON (a log download, the storage's refusal)."""
    headers = [
        *headers,
        (b"content-length", str(len(body)).encode()),
        (b"x-request-id", request_id.encode()),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": b"" if method == "HEAD" else body})


def _log_request(scope: Scope, status: int, request_id: str, started: float) -> None:
    """One line per request: method, path (never the query: a link's signature), status."""
    if not logger.isEnabledFor(logging.INFO):
        return  # the line's parts are built for nothing
    logger.info(
        "%s %s -> %d (%s, %.1f ms)",
        loggable(str(scope.get("method", "?"))),
        loggable(_raw_path(scope)),
        status,
        request_id,
        (time.perf_counter() - started) * 1000,
    )


def loggable(text: str, limit: int = MAX_LOGGED_CHARS) -> str:
    """``text`` for a log line: non-printable characters escaped (``\\n``, ``\\x1b``...), capped."""
    if len(text) > limit:
        text = text[:limit] + "..."
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


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
    """The ASGI application; attributes ``settings``, ``spec``, ``store``, ``clock``,
    ``catalogue`` (flavors and engines, from the spec's examples), ``handlers`` (operation id ->
    handler, looked up per request) and ``routes``."""

    def __init__(
        self,
        settings: ServerSettings,
        spec: Spec,
        store: JobStore,
        clock: Clock,
        handlers: Mapping[str, Handler] | None = None,
    ) -> None:
        self.settings = settings
        self.spec = spec
        self.store = store
        self.clock = clock
        self.handlers: dict[str, Handler] = dict(
            default_handlers(spec.meaning.roles) if handlers is None else handlers
        )
        self.routes = build_routes(spec, self.handlers)
        self.simulation = Simulation(spec.meaning.lifecycle, settings.timings)
        self.catalogue = load_catalogue(spec)
        self.log_links = LogLinks()
        self._ids = random.Random(settings.id_seed) if settings.id_seed is not None else None
        self._ids_lock = threading.Lock()
        self._workers = ThreadPoolExecutor(
            max_workers=LARGE_BODY_WORKERS, thread_name_prefix="modelarts-kit-large-body"
        )
        self._large_bodies = threading.BoundedSemaphore(MAX_LARGE_BODIES)
        # Path parameters the envelope took, by end, operation and values (most requests name
        # the same project, and a run's jobs again and again): each is validated once.
        self._valid_paths: Recent[tuple[str, str, tuple[tuple[str, str], ...]], bool]
        self._valid_paths = Recent(MATCHED_PATHS)

    @property
    def envelope(self) -> Spec:
        """The envelope of the end this server plays: must-accept (strict) or must-reject
        (lenient), by which path parameters, query parameters and bodies are judged."""
        strict = self.settings.strictness == STRICT
        return self.spec.envelope(MUST_ACCEPT if strict else MUST_REJECT)

    def new_job_id(self) -> str:
        """A UUID4 job id: random, or from the ``id_seed`` generator (reproducible)."""
        if self._ids is None:
            return str(uuid.uuid4())
        with self._ids_lock:
            bits = self._ids.getrandbits(128)
        return str(uuid.UUID(int=bits, version=4))

    # Its handlers are synchronous, its shared state is guarded by threading locks, and its
    # lifespan is only acknowledged: any thread's event loop may run it (in-process clients
    # then skip the hop to one shared event-loop thread).
    modelarts_kit_runs_on_any_loop = True

    def __repr__(self) -> str:
        return f"ReferenceServer(store={self.store!r}, clock={self.clock!r})"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await answer_lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        faults = self.settings.faults
        if faults is not None and await inject_faults(
            self.spec, faults, scope, send, self.settings.fault_sleep
        ):
            return
        request_id = new_request_id()
        started = time.perf_counter()
        if is_download_path(_raw_path(scope)):  # a log link the logs URL handed out
            status = await self._download(scope, send, request_id)
            _log_request(scope, status, request_id, started)
            return
        payload: bytes | None = None
        body = BodyTracker(receive)
        try:
            response, payload = await self.handle(scope, body)
        except ApiError as error:
            response = render_error(self.spec, error)
        except StorageUnavailable as exc:  # a full disk, an I/O error: one line, no traceback
            logger.error("request %s: storage failure: %s", request_id, exc)
            response = render_error(
                self.spec,
                ApiError(
                    errors.BACKEND_UNAVAILABLE,
                    detail="The job store failed; nothing was changed. Try again later.",
                ),
            )
        except Exception:  # a server bug: keep the cause in the log, answer like the vendor
            logger.exception("request %s failed", request_id)
            response = render_error(self.spec, ApiError(errors.INTERNAL_ERROR))
        if body.left_large(scope):  # answered early: do not read a large body to discard it
            response = replace(response, headers={**response.headers, "Connection": "close"})
        await send_json(send, response, request_id, payload)
        _log_request(scope, response.status, request_id, started)

    async def _download(self, scope: Scope, send: Send, request_id: str) -> int:
        """Serve a log link (no credentials: the link is presigned); its status."""
        method = str(scope.get("method", "GET"))
        query_string = scope.get("query_string", b"").decode("latin-1")
        try:
            if method not in ("GET", "HEAD"):
                raise LinkRefused(405, "MethodNotAllowed", "The method is not allowed.")
            target, text = task_log_download(self, _raw_path(scope), query_string)
        except LinkRefused as refused:
            body = refused.xml()
            headers = [(b"content-type", b"application/xml")]
            await _send_bytes(send, refused.status, headers, body, request_id, method)
            return refused.status
        disposition = "attachment" if target.download else "inline"
        file_name = quote(f"{target.task}.log", safe="")
        headers = [
            (b"content-type", b"text/plain; charset=utf-8"),
            (b"content-disposition", f"{disposition}; filename*=UTF-8''{file_name}".encode()),
        ]
        await _send_bytes(send, 200, headers, text.encode("utf-8"), request_id, method)
        return 200

    async def handle(self, scope: Scope, receive: Receive) -> tuple[JsonResponse, bytes | None]:
        """The response, and its encoded body when it was encoded off the event loop."""
        method = str(scope.get("method", "GET"))
        raw_path = _raw_path(scope)
        found = resolve_route(self.routes, method, raw_path)
        try:
            return await self._handle_operation(scope, receive, found, method, raw_path)
        except ApiError as error:  # answered with the codes the spec lists for the operation
            error.operation_id = error.operation_id or found.route.operation.operation_id
            raise

    async def _handle_operation(
        self, scope: Scope, receive: Receive, found: ResolvedRoute, method: str, raw_path: str
    ) -> tuple[JsonResponse, bytes | None]:
        headers = request_headers(scope)
        scheme = str(scope.get("scheme", "http"))
        parts = RequestParts(
            method=method,
            raw_path=raw_path,
            query_string=scope.get("query_string", b"").decode("latin-1"),
            headers=headers,
            body=b"",
        )
        identity = authenticate(self.settings, parts)  # before any byte of the body is read
        limit = self.settings.max_body_bytes
        length = declared_length(headers)
        if length is not None and length > limit:
            raise body_too_large(limit)
        large = length > INLINE_BODY_BYTES if length is not None else "transfer-encoding" in headers
        if not large:
            return await self._handle_read(found, parts, identity, receive, scheme)
        if not self._large_bodies.acquire(blocking=False):
            raise ApiError(
                errors.TOO_MANY_REQUESTS,
                detail=f"{MAX_LARGE_BODIES} large request bodies are already being handled.",
                headers={"Retry-After": "1"},
            )
        try:
            return await self._handle_read(found, parts, identity, receive, scheme)
        finally:
            self._large_bodies.release()

    async def _handle_read(
        self,
        found: ResolvedRoute,
        parts: RequestParts,
        identity: Principal | PendingSignature,
        receive: Receive,
        scheme: str,
    ) -> tuple[JsonResponse, bytes | None]:
        """The rest of :meth:`handle`, from reading the body on."""
        headers = parts.headers
        body = await read_body(receive, self.settings.max_body_bytes)
        parts = replace(parts, body=body)
        principal = (
            identity if isinstance(identity, Principal) else verify_signature(identity, parts)
        )
        self._validate_path(found)
        check_project_access(principal, found.path_params["project_id"])
        context = RequestContext(
            server=self,
            operation=found.route.operation,
            path_params=found.path_params,
            principal=principal,
            body=body,
            content_type=headers.get("content-type"),
            query_string=parts.query_string,
            origin=request_origin(scheme, headers.get("host")),
        )
        handler = self.handlers[found.route.operation.operation_id]
        if len(body) <= INLINE_BODY_BYTES and not self._renders_large_job(context):
            return handler(context), None
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._workers, _handle_encoded, handler, context)

    def _validate_path(self, found: ResolvedRoute) -> None:
        operation = found.route.operation
        key = (self.settings.strictness, operation.operation_id, tuple(found.path_params.items()))
        if self._valid_paths.get(key) is None:
            validate_path_parameters(self.envelope, operation, found.path_params)
            self._valid_paths.put(key, True)

    def _renders_large_job(self, context: RequestContext) -> bool:
        """Whether the answer renders a stored job too large to load and encode on the loop."""
        if self.spec.meaning.roles.job_id_parameter not in context.path_params:
            return False
        size = self.store.document_size(context.project_id, context.job_id)
        return size is not None and size > INLINE_ANSWER_BYTES

    def close(self) -> None:
        self._workers.shutdown(wait=True, cancel_futures=True)
        self.store.close()


class BodyTracker:
    """The ASGI ``receive`` of one request, noting whether the whole body was read."""

    def __init__(self, receive: Receive) -> None:
        self._receive = receive
        self.complete = False

    async def __call__(self) -> Message:
        message = await self._receive()
        if message["type"] == "http.disconnect" or not message.get("more_body", False):
            self.complete = True
        return message

    def left_large(self, scope: Scope) -> bool:
        """Whether more than :data:`EARLY_ANSWER_READ_BYTES` of the body may be left unread.

        The server answers such a request with ``Connection: close`` (as nginx does with a
        413), instead of the HTTP server reading the rest only to throw it away.
        """
        if self.complete:
            return False
        headers = request_headers(scope)
        length = declared_length(headers)
        if length is None:
            return "transfer-encoding" in headers
        return length > EARLY_ANSWER_READ_BYTES


def _handle_encoded(handler: Handler, context: RequestContext) -> tuple[JsonResponse, bytes]:
    """Run a handler and encode its answer (on a worker thread, for a large body)."""
    response = handler(context)
    return response, encode_json(response.body)


def _raw_path(scope: Scope) -> str:
    raw = scope.get("raw_path")
    if isinstance(raw, bytes | bytearray):
        return bytes(raw).split(b"?", 1)[0].decode("latin-1")
    return str(scope.get("path", "/"))


# -- fault injection ----------------------------------------------------------------------------


class ConnectionDropped(errors.ServerError):
    """Raised after the response has started, so the server closes the connection (a fault)."""


async def inject_faults(
    spec: Spec,
    plan: FaultPlan,
    scope: Scope,
    send: Send,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> bool:
    """Apply this request's faults (see :mod:`~modelarts_kit_server.faults`); True if answered.

    A dropped connection is one log line here; the server closes the connection on
    :class:`ConnectionDropped` (:mod:`~modelarts_kit_server.runner` keeps uvicorn from logging
    it as a crash).
    """
    for fault in plan.draw():
        if fault.kind is FaultKind.LATENCY:
            await sleep(fault.parameter)
        elif fault.kind is FaultKind.TOO_MANY_REQUESTS:
            retry_after = str(max(0, round(fault.parameter)))
            error = ApiError(errors.TOO_MANY_REQUESTS, headers={"Retry-After": retry_after})
            await send_json(send, render_error(spec, error), new_request_id())
            return True
        elif fault.kind is FaultKind.UNAVAILABLE:
            error = ApiError(errors.SERVICE_UNAVAILABLE)
            await send_json(send, render_error(spec, error), new_request_id())
            return True
        elif fault.kind is FaultKind.DROP:
            request_id = new_request_id()
            headers = [(b"content-length", b"1024"), (b"x-request-id", request_id.encode())]
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            logger.info(
                "%s %s -> connection dropped (fault injection, %s)",
                loggable(str(scope.get("method", "?"))),
                loggable(_raw_path(scope)),
                request_id,
            )
            raise ConnectionDropped("fault injection: connection dropped")
    return False


# -- factory ------------------------------------------------------------------------------------


def create_app(
    settings: ServerSettings | None = None,
    *,
    spec: Spec | None = None,
    store: JobStore | None = None,
    clock: Clock | None = None,
    handlers: Mapping[str, Handler] | None = None,
) -> ReferenceServer:
    """A reference server for ``settings`` (default: in-memory, development token, real time).

    Its collaborators are built from ``settings`` unless given: the ``spec`` (from
    ``settings.spec_path``), the job ``store`` (``settings.database``), the ``clock``
    (``settings.clock``, else a simulated clock) and the ``handlers`` table (operation id ->
    handler; default :func:`~modelarts_kit_server.handlers.default_handlers`). The app's
    ``store``, ``clock`` and ``handlers`` attributes are there for tests.
    """
    settings = settings or ServerSettings()
    spec = spec if spec is not None else load_spec(settings.spec_path)
    store = store if store is not None else JobStore(settings.database)
    clock = (
        clock
        or settings.clock
        or SimulatedClock(settings.clock_speed, not_before_ms=store.latest_time_ms())
    )
    return ReferenceServer(settings, spec, store, clock, handlers)
