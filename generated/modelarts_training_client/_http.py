"""What the sync and the async client share: endpoint, retry policy, request building,
error mapping, response decoding, secret masking, the raw response and the wait plan. Nothing here does I/O."""

from __future__ import annotations

import contextvars
import math
import random
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Generic, TypeVar
from urllib.parse import quote, urlsplit, urlunsplit

import httpx
import pydantic
import pydantic_core

from .errors import (
    DeadlineExceededError,
    DecodeError,
    RequestValidationError,
    ResponseTooLargeError,
    ResponseValidationError,
    TransportError,
    WaitTimeoutError,
    error_class_for,
)

__all__ = [
    "CALL_END",
    "DEFAULT_DEADLINE",
    "DEFAULT_MAX_POLL",
    "DEFAULT_MAX_RESPONSE_BYTES",
    "DEFAULT_POLL",
    "DEFAULT_TIMEOUT",
    "DEFAULT_WAIT_TIMEOUT",
    "MASK",
    "ApiResponse",
    "Call",
    "Deadline",
    "Received",
    "RetryPolicy",
    "Sensitive",
    "UncheckedBody",
    "WaitPlan",
    "build_request",
    "content_encoding_error",
    "deadline_error",
    "decode_response",
    "encode_body",
    "raise_for_status",
    "redact_url",
    "resolve_base_url",
    "transport_error",
    "validate_body",
    "validate_parameters",
]

# The deadline of the synchronous call in progress (on its client's clock); ``_deadline``
# caps every network wait of the client's transport at the time it leaves.
CALL_END: contextvars.ContextVar[Deadline | None] = contextvars.ContextVar("CALL_END", default=None)

Model = TypeVar("Model", bound=pydantic.BaseModel)
Parsed = TypeVar("Parsed")

# Timeouts are on by default: 10 s to connect, 60 s for the rest. A read timeout restarts on
# every byte, so each call also has an overall deadline (retries and waits included).
DEFAULT_TIMEOUT = httpx.Timeout(60.0, connect=10.0)
DEFAULT_DEADLINE = 300.0
# The largest answer read (the API's bodies are a few KB); a larger one is refused unread.
DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024
USER_AGENT = "modelarts-training-client/3.0.0"
REQUEST_ID_HEADER = "X-Request-Id"
BASE_URL_TEMPLATE: str | None = "https://modelarts.{region}.myhuaweicloud.com"
SERVER_VARIABLE_DEFAULTS: dict[str, str | None] = {
    "region": "cn-north-4",
}


@dataclass(frozen=True)
class RetryPolicy:
    """When and how long to wait before trying an idempotent request again.

    Only idempotent operations are retried (a create is never repeated blindly), on the
    ``retry_statuses`` and on connection errors and timeouts, at most ``max_attempts``
    times in all. The wait is exponential with jitter, or the server's ``Retry-After``
    (capped at ``max_retry_after``) when it sends one.
    """

    max_attempts: int = 4
    backoff_base: float = 0.5
    backoff_max: float = 20.0
    jitter: float = 0.5
    max_retry_after: float = 60.0
    retry_statuses: frozenset[int] = frozenset({429, 502, 503, 504})
    random: Callable[[], float] = field(default=random.random, repr=False)

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError(f"max_attempts must be at least 1, got {self.max_attempts}")
        if self.backoff_base < 0 or self.backoff_max < 0 or self.max_retry_after < 0:
            raise ValueError("backoff_base, backoff_max and max_retry_after must be >= 0")
        if not 0 <= self.jitter <= 1:
            raise ValueError(f"jitter must be between 0 and 1, got {self.jitter}")

    def should_retry(self, status: int) -> bool:
        return status in self.retry_statuses

    def delay(self, attempt: int, retry_after: str | None) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (1-based)."""
        server_delay = parse_retry_after(retry_after)
        if server_delay is not None:
            return min(server_delay, self.max_retry_after)
        backoff = min(self.backoff_max, self.backoff_base * 2.0 ** (attempt - 1))
        return backoff * (1 - self.jitter + self.jitter * float(self.random()))


def parse_retry_after(value: str | None) -> float | None:
    """``Retry-After`` as seconds: delta-seconds or an HTTP date; None when absent/invalid."""
    if value is None:
        return None
    text = value.strip()
    if text.isascii() and text.isdigit():  # "²" is a digit to str.isdigit, not to float()
        return float(text)
    import email.utils  # only an HTTP-date needs it; keeps the package import light

    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


# What an error message shows instead of a secret value.
MASK = "***"
SecretPath = tuple[str | None, ...]


class _Secrets:
    """One level of a ``Sensitive`` tree: the secret fields below a point of a document."""

    def __init__(self) -> None:
        self.always = False
        self.when: list[tuple[str, ...]] = []
        self.fields: dict[str, _Secrets] = {}
        self.any: _Secrets | None = None  # any item of an array, any value of a map

    def child(self, name: str | None) -> _Secrets:
        if name is None:
            self.any = self.any or _Secrets()
            return self.any
        return self.fields.setdefault(name, _Secrets())


class Sensitive:
    """Where a document (parameters, a request body, an answer) holds secret values, as the
    spec marks them (``x-modelarts-sensitive``): ``always`` lists the field paths that are
    always secret, ``when`` the ones that are secret when a flag in the same object is set
    (present, and neither false nor null). A path is field names from the document's root,
    ``None`` for any item of an array or value of a map; a secret's whole value is masked."""

    def __init__(
        self,
        always: tuple[SecretPath, ...] = (),
        when: tuple[tuple[SecretPath, tuple[str, ...]], ...] = (),
    ) -> None:
        self.always = always
        self.when = when
        self._root = _Secrets()
        for path in always:
            self._node(path).always = True
        for path, flag in when:
            self._node(path).when.append(flag)

    def _node(self, path: SecretPath) -> _Secrets:
        node = self._root
        for name in path:
            node = node.child(name)
        return node

    def __repr__(self) -> str:
        return f"Sensitive(always={self.always!r}, when={self.when!r})"

    def mask(self, document: Any) -> Any:
        """A copy of ``document`` (plain JSON values) with every secret value replaced by
        ``MASK``. Where the spec places secrets below a value of another shape than it
        describes, the whole value is masked: when in doubt, mask."""
        return _masked(_plain(document), self._root)


def _plain(value: Any) -> Any:
    if isinstance(value, pydantic.BaseModel):
        value = value.model_dump(by_alias=True, exclude_unset=True)
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value


def _flag_set(holder: dict[Any, Any], flag: tuple[str, ...]) -> bool:
    value: Any = holder
    for name in flag:
        if not isinstance(value, dict):
            return False
        value = value.get(name)
    return value is not None and value is not False


def _masked(value: Any, node: _Secrets | None) -> Any:
    if node is None or not (node.always or node.fields or node.any):
        return value  # no secret at or below this point
    if node.always:
        return MASK
    if isinstance(value, dict):
        masked = {}
        for key, item in value.items():
            child = node.fields.get(key) if isinstance(key, str) else None
            child = child or node.any
            if child is not None and any(_flag_set(value, flag) for flag in child.when):
                masked[key] = MASK
            else:
                masked[key] = _masked(item, child)
        return masked
    if isinstance(value, list):
        return MASK if node.any is None else [_masked(item, node.any) for item in value]
    if value is None or isinstance(value, (str, int, float)):
        return value
    return MASK


NO_SECRETS = Sensitive()


@dataclass(frozen=True)
class Call:
    """One operation, as the spec describes it."""

    operation: str
    method: str
    path: str
    path_names: tuple[str, ...] = ()
    query_names: tuple[str, ...] = ()
    header_names: tuple[str, ...] = ()
    retryable: bool = False
    parameter_secrets: Sensitive = NO_SECRETS
    body_secrets: Sensitive = NO_SECRETS
    answer_secrets: Sensitive = NO_SECRETS


def redact_url(url: str) -> str:
    """``url`` with any ``user:password@`` replaced by ``***@`` (for messages and reprs)."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc="***@" + parts.netloc.rsplit("@", 1)[1]))


def _redact_userinfo(text: str, url: httpx.URL) -> str:
    for secret in (url.userinfo.decode("ascii", "replace"), url.password, url.username):
        if secret:
            text = text.replace(secret, "***")
    return text


class Deadline:
    """The overall deadline of one call (``None`` or ``math.inf``: none)."""

    def __init__(self, seconds: float | None, clock: Callable[[], float] = time.monotonic) -> None:
        if seconds is not None and not seconds > 0:
            raise ValueError(f"deadline must be a positive number of seconds, got {seconds!r}")
        self.seconds = seconds
        self._clock = clock
        self._end = math.inf if seconds is None else clock() + seconds

    def remaining(self) -> float:
        return max(0.0, self._end - self._clock())

    def expired(self) -> bool:
        return self._clock() >= self._end

    def cap(self, request: httpx.Request) -> None:
        """Bound every wait of ``request`` (connect, write, read, pool) by the time left."""
        timeouts = dict(request.extensions.get("timeout") or {})
        left = self.remaining()
        if left != math.inf:
            timeouts = {
                name: left if value is None else min(value, left)
                for name, value in {
                    **dict.fromkeys(("connect", "read", "write", "pool")),
                    **timeouts,
                }.items()
            }
        request.extensions["timeout"] = timeouts


class Received:
    """The bytes of an answer as they arrive, within the deadline and the size limit."""

    def __init__(
        self,
        call: Call,
        request: httpx.Request,
        response: httpx.Response,
        limit: int,
        deadline: Deadline,
        attempts: int,
    ) -> None:
        self.call = call
        self.request = request
        self.limit = limit
        self.deadline = deadline
        self.attempts = attempts
        self.chunks: list[bytes] = []
        self.size = 0
        declared = response.headers.get("Content-Length", "")
        if declared.isascii() and declared.isdigit() and float(declared) > limit:
            raise self.too_large()

    def too_large(self) -> ResponseTooLargeError:
        url = redact_url(str(self.request.url.copy_with(query=None)))
        return ResponseTooLargeError(
            self.call.operation, self.call.method, url, self.limit, self.attempts
        )

    def add(self, chunk: bytes) -> None:
        self.size += len(chunk)
        if self.size > self.limit:
            raise self.too_large()
        if self.deadline.expired():
            raise deadline_error(self.call, self.request, self.deadline, self.attempts)
        self.chunks.append(chunk)

    def response(self, streamed: httpx.Response) -> httpx.Response:
        """A complete response holding the (decoded) bytes read."""
        # The raw byte pairs: a decoded value with an obs-text byte (0x80-0xFF) cannot be
        # re-encoded as ASCII by httpx.Response(headers=...).
        headers = [
            (name, value)
            for name, value in streamed.headers.raw
            if name.lower() not in (b"content-encoding", b"content-length", b"transfer-encoding")
        ]
        return httpx.Response(
            streamed.status_code,
            headers=headers,
            content=b"".join(self.chunks),
            request=self.request,
            extensions={
                name: streamed.extensions[name]
                for name in ("http_version", "reason_phrase")
                if name in streamed.extensions
            },
        )


def content_encoding_error(
    call: Call, response: httpx.Response, exc: httpx.DecodingError
) -> DecodeError:
    """An answer whose body does not match its ``Content-Encoding`` (e.g. ``gzip`` over plain
    bytes): httpx raises ``DecodingError`` while reading it, which is not a ``ModelArtsError``."""
    reason = f"the body does not match its Content-Encoding ({exc})"
    return DecodeError(
        call.operation, response.status_code, reason, response.headers.get(REQUEST_ID_HEADER)
    )


def deadline_error(
    call: Call, request: httpx.Request, deadline: Deadline, attempts: int
) -> DeadlineExceededError:
    url = redact_url(str(request.url.copy_with(query=None)))
    return DeadlineExceededError(
        call.operation, call.method, url, deadline.seconds or 0.0, attempts
    )


@dataclass(frozen=True)
class ApiResponse(Generic[Parsed]):
    """A successful answer: the parsed model, with everything HTTP said about it."""

    http_response: httpx.Response
    parsed: Parsed

    @property
    def status_code(self) -> int:
        return self.http_response.status_code

    @property
    def headers(self) -> httpx.Headers:
        return self.http_response.headers

    @property
    def request_id(self) -> str | None:
        """The ``X-Request-Id`` the service answered with (quote it to its support)."""
        value = self.http_response.headers.get(REQUEST_ID_HEADER)
        return None if value is None else str(value)

    @property
    def content(self) -> bytes:
        """The raw body, exactly as received."""
        return self.http_response.content

    @property
    def text(self) -> str:
        return self.http_response.text

    def json(self) -> Any:
        """The body as plain JSON values (unknown fields included)."""
        return parse_json(self.http_response.content)


# wait_for_*: the first wait, its ceiling (it doubles after each poll), and the default limit.
DEFAULT_POLL = 2.0
DEFAULT_MAX_POLL = 30.0
DEFAULT_WAIT_TIMEOUT = 3600.0
PHASE_POINTER = "/status/phase"


def _at_pointer(document: Any, pointer: str) -> Any:
    for token in pointer.strip("/").split("/"):
        if not isinstance(document, dict):
            return None
        document = document.get(token.replace("~1", "/").replace("~0", "~"))
    return document


class WaitPlan:
    """When a wait is over, and how long to sleep before the next poll (no I/O)."""

    def __init__(
        self,
        operation: str,
        resource_id: str,
        until: Collection[str],
        timeout: float,
        poll: float,
        max_poll: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if isinstance(until, str) or not until:
            raise ValueError(f"until must be a non-empty collection of phases, got {until!r}")
        for name, value in (("timeout", timeout), ("poll", poll), ("max_poll", max_poll)):
            if value < 0:
                raise ValueError(f"{name} must be >= 0, got {value!r}")
        self.operation = operation
        self.resource_id = resource_id
        self.until = frozenset(until)
        self.timeout = timeout
        self._delay = poll
        self._max_poll = max(poll, max_poll)
        self._clock = clock
        self._deadline = clock() + timeout

    def after(self, response: ApiResponse[Any]) -> float | None:
        """None when ``response`` is in an awaited phase; else the seconds to sleep.

        Raises ``WaitTimeoutError`` (carrying ``response``) once the deadline has passed.
        """
        remaining = self.left(response)
        if remaining is None:
            return None
        delay = min(self._delay, remaining)
        self._delay = min(self._delay * 2, self._max_poll)
        return delay

    def left(self, response: ApiResponse[Any]) -> float | None:
        """The seconds left before the deadline (more than 0), for a call made within the
        wait (``deadline=``); None when ``response`` is in an awaited phase (the last poll).

        Raises ``WaitTimeoutError`` (carrying ``response``, the last poll's answer) once the
        deadline has passed.
        """
        if _phase(response) in self.until:
            return None
        remaining = self._deadline - self._clock()
        if remaining <= 0:
            raise WaitTimeoutError(
                self.operation,
                self.resource_id,
                _phase(response),
                sorted(self.until),
                self.timeout,
                response,
            )
        return remaining


def _phase(response: ApiResponse[Any]) -> Any:
    """The phase an answer of the show operation gives (None when it gives none)."""
    parsed = response.parsed
    dumped = parsed.model_dump(mode="json", by_alias=True) if parsed is not None else None
    return _at_pointer(dumped, PHASE_POINTER)


def resolve_base_url(base_url: str | None, variables: Mapping[str, str | None]) -> str:
    """An explicit ``base_url`` wins; otherwise the spec's server URL with its variables."""
    given = {name: value for name, value in variables.items() if value is not None}
    if base_url is not None:
        if given:
            names = ", ".join(sorted(given))
            raise ValueError(f"pass either base_url or {names}, not both")
        if not base_url.startswith(("http://", "https://")):
            raise ValueError(
                f"base_url must start with http:// or https://, got {redact_url(base_url)!r}"
            )
        return base_url.rstrip("/")
    if BASE_URL_TEMPLATE is None:
        raise ValueError("base_url is required: the spec names no absolute server URL")
    url = BASE_URL_TEMPLATE
    for name, default in SERVER_VARIABLE_DEFAULTS.items():
        value = given.get(name, default)
        if value is None:
            raise ValueError(f"{name} is required to build the endpoint {BASE_URL_TEMPLATE}")
        url = url.replace("{" + name + "}", quote(value, safe=""))
    return url


def _at(document: Any, loc: tuple[int | str, ...]) -> Any:
    """The value at pydantic's error location: its parts that name no member of the document
    (a union's branch, a missing field) are skipped."""
    for part in loc:
        if isinstance(document, dict) and part in document:
            document = document[part]
        elif isinstance(document, list) and isinstance(part, int) and 0 <= part < len(document):
            document = document[int(part)]
    return document


def _problems(
    exc: pydantic.ValidationError, prefix: str, document: Any, secrets: Sensitive
) -> list[tuple[str, str, Any]]:
    """(field path, rule, rejected value) of each error; the values come from ``document``
    with its secrets masked, never from pydantic's copy of the input."""
    masked = secrets.mask(document)
    problems = []
    for error in exc.errors(include_url=False, include_input=False):
        loc = _members(document, error["loc"], missing=error["type"] == "missing")
        path = ".".join(str(part) for part in (prefix, *loc) if part != "")
        problem = (path or "(root)", error["msg"], _at(masked, loc))
        if problem not in problems:  # two shapes of one value may fail alike
            problems.append(problem)
    return problems


def _members(document: Any, loc: tuple[int | str, ...], *, missing: bool) -> tuple[int | str, ...]:
    """The parts of pydantic's error location that name members of ``document``: the name
    pydantic gives a shape of a value that may take several (``dict[str,str]``) is left out;
    a missing field's name, the last part of its location, is kept."""
    kept: list[int | str] = []
    for index, part in enumerate(loc):
        if isinstance(document, dict) and part in document:
            document = document[part]
        elif isinstance(document, list) and isinstance(part, int) and 0 <= part < len(document):
            document = document[int(part)]
        elif not (missing and index == len(loc) - 1):
            continue
        kept.append(part)
    return tuple(kept)


def validate_parameters(
    call: Call, model: type[pydantic.BaseModel] | None, values: Mapping[str, Any]
) -> dict[str, Any]:
    """Check the parameters against the spec's rules; wire name -> JSON value."""
    if model is None:
        return {}
    given = {name: value for name, value in values.items() if value is not None}
    try:
        checked = model.model_validate(given)
    except pydantic.ValidationError as exc:
        problems = _problems(exc, "", given, call.parameter_secrets)
    else:
        dumped: dict[str, Any] = checked.model_dump(mode="json", by_alias=True, exclude_unset=True)
        return dumped
    # Raised outside the handler: pydantic's error (which holds the input) is not its context.
    raise RequestValidationError(call.operation, problems)


class UncheckedBody:
    """A request body sent exactly as given: no rule of the spec is checked.

    For a body the service accepts although it breaks a rule the client checks, e.g. one
    stated only as guidance (a job copied with ``engine_id`` and ``engine_name`` together).
    ``document`` is plain JSON values or a model; its repr shows none of it (it may hold
    secrets)."""

    __slots__ = ("document",)

    def __init__(self, document: Any) -> None:
        self.document = document

    def __repr__(self) -> str:
        return "UncheckedBody(...)"


def _unchecked_json(call: Call, body: UncheckedBody) -> bytes:
    import json  # only an unchecked body needs it

    try:
        text = json.dumps(_plain(body.document), allow_nan=False, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):  # not JSON: a type, NaN, a cycle
        problem = ("body", "an UncheckedBody must hold JSON values (no NaN, no cycle)", MASK)
    else:
        return text.encode("utf-8")
    # Raised outside the handler: the serialiser's error may quote the value.
    raise RequestValidationError(call.operation, [problem])


def encode_body(call: Call, model: type[Model], body: Model | UncheckedBody | Any) -> bytes | None:
    """The JSON request body, validated against the spec before anything is sent (an
    ``UncheckedBody`` is sent as it is)."""
    if body is None:
        return None
    if isinstance(body, UncheckedBody):
        return _unchecked_json(call, body)
    given = body.model_dump(by_alias=True, exclude_unset=True) if isinstance(body, model) else body
    checked = validate_body(call, model, given)
    return checked.model_dump_json(by_alias=True, exclude_unset=True).encode("utf-8")


def validate_body(call: Call, model: type[Model], given: Any) -> Model:
    """``given`` (plain values) as ``model``; ``RequestValidationError`` (secrets masked) when
    it breaks a rule of the spec."""
    try:
        return model.model_validate(given)
    except pydantic.ValidationError as exc:
        problems = _problems(exc, "body", given, call.body_secrets)
    # Raised outside the handler: pydantic's error (which holds the input) is not its context.
    raise RequestValidationError(call.operation, problems)


def _text(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(_text(item) for item in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def build_request(
    http: httpx.Client | httpx.AsyncClient,
    base_url: str,
    call: Call,
    parameters: Mapping[str, Any],
    content: bytes | None,
    headers: Mapping[str, str],
) -> httpx.Request:
    path = call.path
    for name in call.path_names:
        path = path.replace("{" + name + "}", quote(_text(parameters[name]), safe=""))
    query: list[tuple[str, str | int | float | bool | None]] = [
        (name, _text(item))
        for name in call.query_names
        if name in parameters
        for item in (parameters[name] if isinstance(parameters[name], list) else [parameters[name]])
    ]
    request_headers = {"Accept": "application/json", "User-Agent": USER_AGENT, **headers}
    request_headers.update(
        {name: _text(parameters[name]) for name in call.header_names if name in parameters}
    )
    if content is not None:
        request_headers["Content-Type"] = "application/json"
    return http.build_request(
        call.method, base_url + path, params=query, headers=request_headers, content=content
    )


def transport_error(
    call: Call, request: httpx.Request, exc: httpx.RequestError, attempts: int
) -> TransportError:
    reason = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    url = redact_url(str(request.url.copy_with(query=None)))
    return TransportError(
        call.operation, call.method, url, _redact_userinfo(reason, request.url), attempts
    )


def parse_json(content: bytes) -> Any:
    """Plain JSON values of a body from the wire; ``ValueError`` when it is not JSON.

    pydantic's parser, as for the models: strict UTF-8, no NaN/Infinity, and a nesting limit
    that raises ``ValueError`` (``json.loads`` raises ``RecursionError`` on deep nesting).
    """
    return pydantic_core.from_json(content, allow_inf_nan=False)


def raise_for_status(operation: str, response: httpx.Response) -> None:
    """Raise the ``ApiError`` subclass for a non-2xx answer."""
    if 200 <= response.status_code < 300:
        return
    body: Any = None
    fields: dict[str, str | None] = {}
    try:
        body = parse_json(response.content) if response.content else None
    except ValueError:  # not JSON (too deep included): the text is the body
        body = response.text[:500]
    if isinstance(body, dict):
        for name in ("error_code", "error_msg", "error_solution"):
            value = body.get(name)
            fields[name] = None if value is None else str(value)
    # The body's fields are kept exactly (an empty error_msg stays ""); the reason phrase
    # only completes the message.
    raise error_class_for(response.status_code)(
        operation=operation,
        status=response.status_code,
        request_id=response.headers.get(REQUEST_ID_HEADER),
        body=body,
        reason=response.reason_phrase or None,
        **fields,
    )


def strict_json(call: Call, response: httpx.Response) -> Any:
    """The body as plain JSON values; a ``DecodeError`` when it is not JSON (``NaN``)."""
    try:
        return parse_json(response.content)
    except ValueError as exc:
        reason = f"not JSON ({exc})"
    # Raised outside the handler: the parser's error is not the caller's business.
    raise DecodeError(
        call.operation, response.status_code, reason, response.headers.get(REQUEST_ID_HEADER)
    )


def decode_response(call: Call, response: httpx.Response, model: type[Model]) -> Model:
    """Parse a 2xx body into ``model``: strict types, unknown fields kept.

    The success path is ``model_validate_json`` on the bytes and nothing else (pydantic's
    own floor): headers are read only to name a failure."""
    content = response.content
    if content:
        try:
            decoded = model.model_validate_json(content)
        except pydantic.ValidationError as exc:
            failure: pydantic.ValidationError | None = exc
        else:
            # The models' parser takes NaN and Infinity, which are not JSON: the strict parser
            # looks again only at a body where those words appear (a byte search, not a parse).
            if b"NaN" in content or b"Infinity" in content:
                strict_json(call, response)
            return decoded
    else:
        failure = None
    operation = call.operation
    request_id = response.headers.get(REQUEST_ID_HEADER)
    if failure is None:
        raise DecodeError(operation, response.status_code, "empty body", request_id)
    errors = failure.errors(include_url=False, include_input=False)
    if any(error["type"] == "json_invalid" for error in errors):
        error: DecodeError = DecodeError(
            operation, response.status_code, f"not JSON ({errors[0]['msg']})", request_id
        )
    else:
        document = strict_json(call, response)
        problems = _problems(failure, "", document, call.answer_secrets)
        error = ResponseValidationError(operation, response.status_code, problems, request_id)
    # Raised outside the handler: pydantic's error (which holds the body) is not its context.
    raise error
