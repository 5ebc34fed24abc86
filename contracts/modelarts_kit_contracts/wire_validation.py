"""Validate HTTP requests and responses against the spec, as they travel on the wire.

Shared by the mock server (checks what a client sends), the client check (checks what a
client sends and what the mock answered) and the validating proxy (checks both directions of
live traffic). Every problem is a :class:`Violation` naming the check, the JSON pointer and the
rule; credentials never appear in a violation (auth problems describe the header, not its value).

Auth rule (from the vendor's authentication page): a request is authenticated when it carries a
non-empty ``X-Auth-Token`` header, or an ``Authorization: SDK-HMAC-SHA256 Access=..,
SignedHeaders=.., Signature=..`` header whose SignedHeaders include ``x-sdk-date``, together with
an ``X-Sdk-Date`` header of the form ``YYYYMMDDTHHMMSSZ``. The signature itself cannot be checked
without the secret key, so only its form is.
"""

from __future__ import annotations

import json
import re
import zlib
from collections.abc import Awaitable, Callable, Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import unquote

from jsonschema.exceptions import ValidationError
from modelarts_kit_spec.load import Operation, Parameter, Spec, pointer_join

from modelarts_kit_contracts.findings import Failure, RunReport

__all__ = [
    "REQUEST_CHECKS",
    "RESPONSE_CHECKS",
    "Direction",
    "Headers",
    "RouteMatch",
    "Violation",
    "WireRequest",
    "WireResponse",
    "decode_json_body",
    "match_route",
    "record_violations",
    "schema_violations",
    "serve_asgi",
    "validate_request",
    "validate_response",
]

Direction = Literal["request", "response"]
JSON = Any

AUTH_HEADERS = frozenset({"x-auth-token", "authorization", "x-sdk-date"})
_SDK_DATE = re.compile(r"^\d{8}T\d{6}Z$")
_SIGNED_AUTH = re.compile(
    r"^SDK-HMAC-SHA256\s+Access=(?P<access>[^,\s]+),\s*SignedHeaders=(?P<signed>[^,\s]+),"
    r"\s*Signature=(?P<signature>[0-9a-fA-F]{64})$"
)
_MAX_VALUE_CHARS = 80


class Headers:
    """Case-insensitive, multi-valued HTTP headers, kept in wire order."""

    def __init__(self, items: Mapping[str, str] | Iterable[tuple[str, str]] = ()) -> None:
        pairs = items.items() if isinstance(items, Mapping) else items
        self.items: list[tuple[str, str]] = [(str(k), str(v)) for k, v in pairs]

    def get(self, name: str, default: str | None = None) -> str | None:
        lowered = name.lower()
        for key, value in self.items:
            if key.lower() == lowered:
                return value
        return default

    def get_all(self, name: str) -> list[str]:
        lowered = name.lower()
        return [value for key, value in self.items if key.lower() == lowered]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.get(name) is not None

    def __repr__(self) -> str:
        # Never print credential values.
        shown = [
            (k, "[REDACTED]" if k.lower() in {"x-auth-token", "authorization", "cookie"} else v)
            for k, v in self.items
        ]
        return f"Headers({shown!r})"


@dataclass(frozen=True)
class WireRequest:
    method: str
    path: str  # without the query string, percent-encoded as sent
    headers: Headers = field(default_factory=Headers)
    body: bytes = b""
    query: str = ""


@dataclass(frozen=True)
class WireResponse:
    status: int
    headers: Headers = field(default_factory=Headers)
    body: bytes = b""


@dataclass(frozen=True)
class Violation:
    """One way a request or a response breaks the spec."""

    check: str  # e.g. "request_body", "response_status"
    direction: Direction
    operation: str  # operationId, or "" when no operation matched
    pointer: str  # JSON pointer into the body ("" for the whole body or a non-body problem)
    rule: str  # the JSON Schema keyword or the named wire rule that failed
    message: str  # "expected ...; got ..." - never a credential

    def to_failure(self, reproduce: str = "") -> Failure:
        where = f" at {self.pointer}" if self.pointer else ""
        return Failure(
            check=self.check,
            title=f"{self.direction} breaks rule {self.rule!r}{where}",
            message=self.message,
            operation=self.operation,
            reproduce=reproduce,
            pointer=self.pointer,
        )

    def to_json(self) -> dict[str, str]:
        return {
            "check": self.check,
            "direction": self.direction,
            "operation": self.operation,
            "pointer": self.pointer,
            "rule": self.rule,
            "message": self.message,
        }

    def __str__(self) -> str:
        op = f" [{self.operation}]" if self.operation else ""
        where = f" {self.pointer}" if self.pointer else ""
        return f"{self.check}{op}{where} ({self.rule}): {self.message}"


def short(value: JSON) -> str:
    """A JSON rendering of ``value`` cut to a readable length."""
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= _MAX_VALUE_CHARS else text[: _MAX_VALUE_CHARS - 3] + "..."


# ---------------------------------------------------------------- routing


@dataclass(frozen=True)
class RouteMatch:
    operation: Operation | None  # None: the path is known but not with this method
    path_params: dict[str, str]
    allowed_methods: tuple[str, ...]


def _template_regex(template: str) -> re.Pattern[str]:
    parts = re.split(r"(\{[^}/]+\})", template)
    pattern = "".join(
        f"(?P<{p[1:-1]}>[^/]+)" if p.startswith("{") and p.endswith("}") else re.escape(p)
        for p in parts
    )
    return re.compile(f"^{pattern}$")


_ROUTES: dict[int, list[tuple[re.Pattern[str], str, list[Operation]]]] = {}


def _routes(spec: Spec) -> list[tuple[re.Pattern[str], str, list[Operation]]]:
    key = id(spec)
    cached = _ROUTES.get(key)
    if cached is None:
        by_path: dict[str, list[Operation]] = {}
        for op in spec.operations:
            by_path.setdefault(op.path, []).append(op)
        # Literal segments win over templated ones (".../actions" before "...{id}").
        ordered = sorted(by_path.items(), key=lambda item: item[0].count("{"))
        cached = [(_template_regex(path), path, ops) for path, ops in ordered]
        _ROUTES[key] = cached
    return cached


def match_route(spec: Spec, method: str, path: str) -> RouteMatch | None:
    """The operation serving ``method path``; None when no path template matches."""
    for regex, _template, ops in _routes(spec):
        found = regex.match(path)
        if found is None:
            continue
        params = {name: unquote(value) for name, value in found.groupdict().items()}
        allowed = tuple(op.method.upper() for op in ops)
        for op in ops:
            if op.method.upper() == method.upper():
                return RouteMatch(op, params, allowed)
        return RouteMatch(None, params, allowed)
    return None


# ---------------------------------------------------------------- schema checks


def _error_pointer(base: str, error: ValidationError) -> str:
    return pointer_join(base, *error.absolute_path)


def schema_violations(
    spec: Spec,
    schema: JSON,
    instance: JSON,
    *,
    check: str,
    direction: Direction,
    operation: str,
    base_pointer: str = "",
) -> list[Violation]:
    """Every JSON Schema error of ``instance`` against ``schema``, one violation each."""
    out: list[Violation] = []
    validator = spec.validator(schema)
    for error in sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path)):
        out.extend(_explain(error, base_pointer, check, direction, operation))
    return out


def _explain(
    error: ValidationError, base: str, check: str, direction: Direction, operation: str
) -> list[Violation]:
    pointer = _error_pointer(base, error)
    rule = str(error.validator)
    instance = error.instance
    if rule == "required" and isinstance(instance, Mapping):
        missing = [name for name in error.validator_value if name not in instance]
        return [
            Violation(
                check,
                direction,
                operation,
                pointer_join(pointer, name),
                "required",
                f"expected property {name!r} (required); got an object without it",
            )
            for name in missing
        ]
    if rule == "additionalProperties" and isinstance(instance, Mapping):
        extra = re.findall(r"'([^']*)' (?:was|were) unexpected", error.message)
        names = extra or ["?"]
        return [
            Violation(
                check,
                direction,
                operation,
                pointer_join(pointer, name),
                "additionalProperties",
                f"expected no property {name!r} (additionalProperties: false); got one",
            )
            for name in names
        ]
    if rule in {"oneOf", "anyOf"} and error.context:
        # Name the closest branch's error: the deepest one is the most specific.
        best = max(error.context, key=lambda e: len(list(e.absolute_path)))
        nested = _explain(best, base, check, direction, operation)
        return [
            Violation(v.check, v.direction, v.operation, v.pointer, f"{rule}/{v.rule}", v.message)
            for v in nested
        ]
    expected = f"{rule}: {short(error.validator_value)}"
    return [
        Violation(
            check,
            direction,
            operation,
            pointer,
            rule,
            f"expected {expected}; got {short(instance)}",
        )
    ]


def decode_json_body(body: bytes, headers: Headers) -> tuple[JSON, str | None]:
    """Decode a JSON body (gunzipping when needed); the error string says why it is not JSON."""
    raw = body
    encoding = (headers.get("content-encoding") or "").strip().lower()
    try:
        if encoding == "gzip":
            raw = zlib.decompress(body, 16 + zlib.MAX_WBITS)
        elif encoding == "deflate":
            raw = zlib.decompress(body)
    except zlib.error as exc:
        return None, f"cannot decode {encoding} content: {exc}"
    try:
        return json.loads(raw.decode("utf-8")), None
    except UnicodeDecodeError as exc:
        return None, f"not UTF-8 at byte {exc.start}"
    except json.JSONDecodeError as exc:
        return None, f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"


def _media_type(headers: Headers) -> str:
    return (headers.get("content-type") or "").split(";")[0].strip().lower()


# ---------------------------------------------------------------- requests


def _auth_violations(headers: Headers, operation: str) -> list[Violation]:
    def bad(message: str) -> list[Violation]:
        return [Violation("request_auth", "request", operation, "", "auth", message)]

    token = headers.get("x-auth-token")
    authorization = headers.get("authorization")
    if token is not None:
        if not token.strip():
            return bad("expected a non-empty X-Auth-Token header; got an empty one")
        return []
    if authorization is None:
        return bad(
            "expected an X-Auth-Token header or an SDK-HMAC-SHA256 Authorization header; "
            "got neither"
        )
    scheme = authorization.split(" ", 1)[0]
    found = _SIGNED_AUTH.match(authorization.strip())
    if found is None:
        return bad(
            "expected Authorization: SDK-HMAC-SHA256 Access=<AK>, SignedHeaders=<h1;h2>, "
            f"Signature=<64 hex digits>; got a malformed header with scheme {scheme[:24]!r}"
        )
    signed = found["signed"].split(";")
    if signed != sorted(signed) or any(h != h.lower() for h in signed):
        return bad(
            "expected SignedHeaders in lower case, sorted and ';'-separated; "
            f"got {found['signed']!r}"
        )
    if "x-sdk-date" not in signed:
        return bad(f"expected SignedHeaders to include x-sdk-date; got {found['signed']!r}")
    missing = [h for h in signed if h != "host" and h not in headers]
    if missing:
        return bad(f"expected every signed header to be sent; missing {', '.join(missing)}")
    date = headers.get("x-sdk-date") or ""
    if not _SDK_DATE.match(date):
        return bad(f"expected X-Sdk-Date as YYYYMMDDTHHMMSSZ; got {short(date)}")
    return []


def _param_violations(
    spec: Spec,
    params: Sequence[Parameter],
    location: str,
    values: Mapping[str, str] | Headers,
    operation: str,
    check: str,
) -> list[Violation]:
    out: list[Violation] = []
    for param in params:
        if param.location != location:
            continue
        if location == "header" and param.name.lower() in AUTH_HEADERS:
            continue  # judged by the auth rule, which allows either scheme
        value = values.get(param.name)
        if value is None:
            if param.required:
                out.append(
                    Violation(
                        check,
                        "request",
                        operation,
                        "",
                        "required",
                        f"expected {location} parameter {param.name!r} (required); got none",
                    )
                )
            continue
        if param.schema:
            for violation in schema_violations(
                spec,
                param.schema,
                _coerce_param(spec, param.schema, value),
                check=check,
                direction="request",
                operation=operation,
            ):
                out.append(
                    Violation(
                        violation.check,
                        "request",
                        operation,
                        violation.pointer,
                        violation.rule,
                        f"{location} parameter {param.name!r}: {violation.message}",
                    )
                )
    return out


def _coerce_param(spec: Spec, schema: JSON, value: str) -> JSON:
    """Parameters travel as text; read them as the type their schema names."""
    resolved = spec.deref(schema)
    kind = resolved.get("type") if isinstance(resolved, Mapping) else None
    kinds = kind if isinstance(kind, list) else [kind]
    try:
        if "integer" in kinds and re.fullmatch(r"-?\d+", value):
            return int(value)
        if "number" in kinds:
            return float(value)
        if "boolean" in kinds and value in {"true", "false"}:
            return value == "true"
    except ValueError:
        return value
    return value


def validate_request(
    spec: Spec, request: WireRequest
) -> tuple[Operation | None, dict[str, str], list[Violation]]:
    """Route ``request`` and check it against its operation: path, params, auth, body."""
    route = match_route(spec, request.method, request.path)
    if route is None:
        known = sorted({op.path for op in spec.operations})
        return (
            None,
            {},
            [
                Violation(
                    "request_path",
                    "request",
                    "",
                    "",
                    "path",
                    f"expected a path of {', '.join(known)}; got {short(request.path)}",
                )
            ],
        )
    if route.operation is None:
        return (
            None,
            route.path_params,
            [
                Violation(
                    "request_method",
                    "request",
                    "",
                    "",
                    "method",
                    f"expected method {' or '.join(route.allowed_methods)} on this path; "
                    f"got {request.method.upper()}",
                )
            ],
        )
    op = route.operation
    name = op.operation_id
    out: list[Violation] = []
    out += _param_violations(
        spec, op.parameters, "path", route.path_params, name, "request_path_params"
    )
    query = _parse_query(request.query)
    out += _param_violations(spec, op.parameters, "query", query, name, "request_query")
    out += _param_violations(
        spec, op.parameters, "header", request.headers, name, "request_headers"
    )
    out += _auth_violations(request.headers, name)
    out += _request_body_violations(spec, op, request)
    return op, route.path_params, out


def _parse_query(query: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in query.split("&"):
        if not part:
            continue
        key, _, value = part.partition("=")
        out.setdefault(unquote(key.replace("+", " ")), unquote(value.replace("+", " ")))
    return out


def _request_body_violations(spec: Spec, op: Operation, request: WireRequest) -> list[Violation]:
    name = op.operation_id
    if op.request_schema is None:
        return []
    if not request.body.strip():
        if op.request_required:
            return [
                Violation(
                    "request_body",
                    "request",
                    name,
                    "",
                    "required",
                    "expected a JSON request body (requestBody.required); got an empty body",
                )
            ]
        return []
    out: list[Violation] = []
    media = _media_type(request.headers)
    if media != "application/json":
        out.append(
            Violation(
                "request_headers",
                "request",
                name,
                "",
                "content-type",
                f"expected Content-Type application/json; got {short(media or None)}",
            )
        )
    body, problem = decode_json_body(request.body, request.headers)
    if problem is not None:
        out.append(
            Violation("request_body", "request", name, "", "json", f"expected JSON; got {problem}")
        )
        return out
    out += schema_violations(
        spec, op.request_schema, body, check="request_body", direction="request", operation=name
    )
    return out


# ---------------------------------------------------------------- responses


def validate_response(spec: Spec, operation: Operation, response: WireResponse) -> list[Violation]:
    """Check a response against what ``operation`` documents for its status."""
    name = operation.operation_id
    documented = operation.response_for(response.status)
    if documented is None:
        listed = ", ".join(r.status for r in operation.responses)
        return [
            Violation(
                "response_status",
                "response",
                name,
                "",
                "status",
                f"expected a documented status ({listed}); got {response.status}",
            )
        ]
    out: list[Violation] = []
    for header_name, header in documented.headers.items():
        value = response.headers.get(header_name)
        if value is None:
            if isinstance(header, Mapping) and header.get("required"):
                out.append(
                    Violation(
                        "response_headers",
                        "response",
                        name,
                        "",
                        "required",
                        f"expected header {header_name!r} on {response.status} (required); "
                        "got none",
                    )
                )
            continue
        schema = header.get("schema") if isinstance(header, Mapping) else None
        if schema:
            for violation in schema_violations(
                spec,
                schema,
                _coerce_param(spec, schema, value),
                check="response_headers",
                direction="response",
                operation=name,
            ):
                out.append(
                    Violation(
                        "response_headers",
                        "response",
                        name,
                        violation.pointer,
                        violation.rule,
                        f"header {header_name!r}: {violation.message}",
                    )
                )
    if documented.schema is None:
        return out
    media = _media_type(response.headers)
    if media != "application/json":
        out.append(
            Violation(
                "response_headers",
                "response",
                name,
                "",
                "content-type",
                f"expected Content-Type application/json on {response.status}; "
                f"got {short(media or None)}",
            )
        )
    body, problem = decode_json_body(response.body, response.headers)
    if problem is not None:
        out.append(
            Violation(
                "response_body", "response", name, "", "json", f"expected JSON; got {problem}"
            )
        )
        return out
    out += schema_violations(
        spec, documented.schema, body, check="response_body", direction="response", operation=name
    )
    return out


REQUEST_CHECKS = (
    "request_path",
    "request_method",
    "request_path_params",
    "request_query",
    "request_headers",
    "request_auth",
    "request_body",
)
RESPONSE_CHECKS = ("response_status", "response_headers", "response_body")


def record_violations(
    report: RunReport,
    checks: Sequence[str],
    violations: Sequence[Violation],
    *,
    reproduce: str = "",
) -> None:
    """Count one evaluation of each of ``checks`` in ``report``; keep each violation once."""
    by_check: dict[str, list[Violation]] = {}
    for violation in violations:
        by_check.setdefault(violation.check, []).append(violation)
    for check in dict.fromkeys([*checks, *by_check]):
        found = by_check.get(check)
        if not found:
            report.record(check, None)
        for violation in found or []:
            report.record(check, violation.to_failure(reproduce))


# ---------------------------------------------------------------- ASGI plumbing

ASGIReceive = Callable[[], Awaitable[MutableMapping[str, Any]]]
ASGISend = Callable[[MutableMapping[str, Any]], Awaitable[None]]
WireHandler = Callable[[WireRequest], Awaitable[WireResponse]]


async def serve_asgi(
    scope: MutableMapping[str, Any],
    receive: ASGIReceive,
    send: ASGISend,
    handler: WireHandler,
    on_shutdown: Callable[[], Awaitable[None]] | None = None,
) -> None:
    """Run one ASGI connection: read the whole request, answer with ``handler``'s response.

    Lifespan events are acknowledged (``on_shutdown`` runs at shutdown); other scope types are
    ignored. Header names go out in lower case, as ASGI requires.
    """
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                if on_shutdown is not None:
                    await on_shutdown()
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["type"] != "http":
        return
    body = bytearray()
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body", False):
            break
    raw_path = (scope.get("raw_path") or scope["path"].encode("utf-8")).decode("latin-1")
    request = WireRequest(
        method=scope["method"],
        path=raw_path.split("?", 1)[0],
        headers=Headers(
            (k.decode("latin-1"), v.decode("latin-1")) for k, v in scope.get("headers", [])
        ),
        body=bytes(body),
        query=scope.get("query_string", b"").decode("latin-1"),
    )
    answer = await handler(request)
    await send(
        {
            "type": "http.response.start",
            "status": answer.status,
            "headers": [
                (k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in answer.headers.items
            ],
        }
    )
    await send({"type": "http.response.body", "body": answer.body})
