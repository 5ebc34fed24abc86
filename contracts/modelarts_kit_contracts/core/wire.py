"""Validate HTTP requests and responses against the spec, as they travel on the wire.

Shared by the mock (what a client sends), the client checker (what a client sends and what
the mock answered) and the proxy (both directions of live traffic). Each rule is a check of the
registry (product ``wire``): ``request_path``, ``request_method``, ``request_path_params``,
``request_query``, ``request_headers``, ``request_auth``, ``request_body`` look at a
:class:`RequestContext`; ``response_status``, ``response_headers``, ``response_body`` and
``response_page_size`` (a paged answer against the request's ``limit``, when the request is
known) at a :class:`ResponseContext`. :func:`validate_request` and :func:`validate_response`
run them all. A finding names the JSON pointer and the rule; credentials never appear in one
(auth problems describe the header, not its value).

Auth rule (from the vendor's authentication page): a request is authenticated when it carries a
non-empty ``X-Auth-Token`` header, or an ``Authorization: SDK-HMAC-SHA256 Access=..,
SignedHeaders=.., Signature=..`` header whose SignedHeaders include ``x-sdk-date``, together with
an ``X-Sdk-Date`` header of the form ``YYYYMMDDTHHMMSSZ``. The signature itself cannot be checked
without the secret key, so only its form is.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from jsonschema.exceptions import ValidationError
from modelarts_kit_spec.load import Operation, Parameter, Spec, pointer_join
from modelarts_kit_spec.routes import RouteMatch
from modelarts_kit_spec.schemamodel import MUST_ACCEPT, MUST_REJECT
from modelarts_kit_spec.schemamodel.parameters import given_values, parameter_breaks
from modelarts_kit_wire.headers import Headers
from modelarts_kit_wire.signing import parse_authorization
from modelarts_kit_wire.wirejson import WireJsonError, bounded_inflate, decode_wire_json

from modelarts_kit_contracts.core.envelopes import Envelopes
from modelarts_kit_contracts.core.findings import Finding, RunReport, short
from modelarts_kit_contracts.core.paging import LIMIT, paging_of
from modelarts_kit_contracts.core.registry import REGISTRY, SKIP, Check, CheckResult, check

__all__ = [
    "Exchange",
    "Headers",
    "RequestContext",
    "RequestVerdict",
    "ResponseContext",
    "RouteMatch",
    "Verdict",
    "WireRequest",
    "WireResponse",
    "decode_json_body",
    "parse_query",
    "request_checks",
    "response_checks",
    "schema_findings",
    "validate_request",
    "validate_response",
]

JSON = Any

AUTH_HEADERS = frozenset({"x-auth-token", "authorization", "x-sdk-date"})
_SDK_DATE = re.compile(r"^\d{8}T\d{6}Z$")
SIGNATURE_HEX_DIGITS = 64  # hex HMAC-SHA256


@dataclass(frozen=True)
class WireRequest:
    method: str
    path: str  # without the query string, percent-encoded as sent
    headers: Headers = field(default_factory=Headers)
    body: bytes = b""
    query: str = ""
    truncated: bool = False  # the body was larger than the cap: ``body`` holds its start only


@dataclass(frozen=True)
class WireResponse:
    status: int
    headers: Headers = field(default_factory=Headers)
    body: bytes = b""

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type") or ""

    def json(self) -> tuple[bool, JSON]:
        """(True, the decoded body) or (False, None) when it is not JSON."""
        body, problem = decode_json_body(self.body, self.headers)
        return problem is None, body


@dataclass(frozen=True)
class Exchange:
    """One request and its response, as every product sees it.

    ``operation`` is the operationId the request was routed to ("" when none matched);
    ``findings`` are what the wire checks found in the request (the mock and the proxy fill
    them); ``positive`` says whether the request was generated valid for the schema (None:
    unknown; schemathesis sets it).
    """

    request: WireRequest
    response: WireResponse
    operation: str = ""
    path_params: Mapping[str, str] = field(default_factory=dict)
    findings: tuple[Finding, ...] = ()
    checked: tuple[str, ...] = ()  # the checks evaluated on the request
    positive: bool | None = None
    index: int = 0
    elapsed_ms: float = 0.0  # how long the answer took

    @property
    def status(self) -> int:
        return self.response.status

    def json(self) -> tuple[bool, JSON]:
        return self.response.json()


# ---------------------------------------------------------------- schema findings


def schema_findings(
    spec: Spec,
    schema: JSON,
    instance: JSON,
    *,
    operation: str = "",
    base_pointer: str = "",
    check: str = "",
) -> list[Finding]:
    """Every JSON Schema error of ``instance`` against ``schema``: one finding per place."""
    out: list[Finding] = []
    seen: set[tuple[str, str, str]] = set()
    for error in sorted(spec.iter_errors(schema, instance), key=lambda e: list(e.absolute_path)):
        for finding in _explain(error, base_pointer):
            key = (finding.pointer, finding.rule, finding.expected)
            if key not in seen:  # jsonschema reports N missing properties N times
                seen.add(key)
                out.append(finding.but(check=check, operation=operation))
    return out


def _breaks(pointer: str, rule: str, expected: str, got: str) -> Finding:
    where = f" at {pointer}" if pointer else ""
    return Finding(
        title=f"breaks rule {rule!r}{where}", expected=expected, got=got, pointer=pointer, rule=rule
    )


def _explain(error: ValidationError, base: str) -> list[Finding]:
    pointer = pointer_join(base, *error.absolute_path)
    rule = str(error.validator)
    instance = error.instance
    if rule == "required" and isinstance(instance, Mapping):
        missing = [name for name in error.validator_value if name not in instance]
        return [
            _breaks(
                pointer_join(pointer, name),
                "required",
                f"property {name!r} (required)",
                "an object without it",
            )
            for name in missing
        ]
    if rule == "additionalProperties" and isinstance(instance, Mapping):
        extra = re.findall(r"'([^']*)' (?:was|were) unexpected", error.message)
        return [
            _breaks(
                pointer_join(pointer, name),
                "additionalProperties",
                f"no property {name!r} (additionalProperties: false)",
                "one",
            )
            for name in extra or ["?"]
        ]
    if rule in {"oneOf", "anyOf"} and error.context:
        # Name the closest branch's error: the deepest one is the most specific.
        best = max(error.context, key=lambda e: len(list(e.absolute_path)))
        return [f.but(rule=f"{rule}/{f.rule}") for f in _explain(best, base)]
    return [_breaks(pointer, rule, f"{rule}: {short(error.validator_value)}", short(instance))]


def decode_json_body(body: bytes, headers: Headers) -> tuple[JSON, str | None]:
    """Decode a JSON body (gunzipping when needed); the error string says why it is not JSON."""
    encoding = headers.get("content-encoding") or ""
    try:
        return decode_wire_json(bounded_inflate(body, encoding)), None
    except WireJsonError as exc:
        return None, exc.reason


def _media_type(headers: Headers) -> str:
    return (headers.get("content-type") or "").split(";")[0].strip().lower()


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


def parse_query(query: str) -> dict[str, str]:
    """A query string's parameters, decoded (the first value of a repeated name)."""
    out: dict[str, str] = {}
    for part in query.split("&"):
        if not part:
            continue
        key, _, value = part.partition("=")
        out.setdefault(unquote(key.replace("+", " ")), unquote(value.replace("+", " ")))
    return out


# ---------------------------------------------------------------- request checks


@dataclass(frozen=True)
class RequestContext:
    """What a request check looks at: the request and the operation it was routed to."""

    spec: Spec
    request: WireRequest
    route: RouteMatch | None

    @property
    def operation(self) -> Operation | None:
        return self.route.operation if self.route is not None else None


def _param_findings(
    spec: Spec, params: Sequence[Parameter], location: str, values: Mapping[str, str] | Headers
) -> Iterator[Finding]:
    for param in params:
        if param.location != location:
            continue
        if location == "header" and param.name.lower() in AUTH_HEADERS:
            continue  # judged by request_auth, which allows either scheme
        value = values.get(param.name)
        what = f"{location} parameter {param.name!r}"
        if value is None:
            if param.required:
                yield _breaks("", "required", f"{what} (required)", "none")
            continue
        if param.schema:
            coerced = _coerce_param(spec, param.schema, value)
            for finding in schema_findings(spec, param.schema, coerced):
                yield finding.but(
                    title=f"{what} {finding.title}", expected=f"{what}: {finding.expected}"
                )


@check(
    product="wire",
    title="request to a path the spec does not document",
    meaning="a documented path, carrying the caller's project and job ids",
)
def request_path(ctx: RequestContext) -> CheckResult:
    if ctx.route is not None:
        return None
    known = sorted({op.path for op in ctx.spec.operations})
    return _breaks("", "path", f"a path of {', '.join(known)}", short(ctx.request.path))


@check(
    product="wire",
    title="request method not documented for the path",
    meaning="the documented method for the path",
)
def request_method(ctx: RequestContext) -> CheckResult:
    if ctx.route is None:
        return SKIP
    if ctx.route.operation is not None:
        return None
    return _breaks(
        "",
        "method",
        f"method {' or '.join(ctx.route.allowed_methods)} on this path",
        ctx.request.method.upper(),
    )


@check(
    product="wire",
    title="path parameter breaks its schema",
    meaning="path parameters match their schema",
)
def request_path_params(ctx: RequestContext) -> CheckResult:
    if ctx.route is None or ctx.operation is None:
        return SKIP
    return list(_param_findings(ctx.spec, ctx.operation.parameters, "path", ctx.route.path_params))


@check(
    product="wire",
    title="query parameter breaks its schema",
    meaning="query parameters match their schema",
)
def request_query(ctx: RequestContext) -> CheckResult:
    if ctx.operation is None:
        return SKIP
    query = parse_query(ctx.request.query)
    return _parameter_findings(ctx.spec, ctx.operation, "query", query)


def _parameter_findings(
    spec: Spec, op: Operation, location: str, values: Mapping[str, str] | Headers
) -> list[Finding]:
    """What a client's query or header parameters break in must-accept, read as the schema
    model's parameters read them (an empty value is not given; ``int32`` ranges; parameters
    passed together; a prose format as guidance)."""
    if isinstance(values, Headers):
        names = [p.name for p in op.parameters if p.location == location]
        values = {name: text for name in names if (text := values.get(name)) is not None}
    given = given_values(values.items())
    skip = (*AUTH_HEADERS, "content-type") if location == "header" else ()
    found: list[Finding] = []
    for broken in parameter_breaks(spec.envelope(MUST_ACCEPT), op, location, given, skip=skip):
        what = f"{location} parameter {broken.name!r}"
        note = f" {GUIDANCE_NOTE}" if broken.strength == "guidance" else ""
        found.append(
            Finding(
                title=f"{what} breaks rule {broken.rule!r}{note}",
                expected=f"{what}: {broken.message}",
                got=short(given.get(broken.name)),
                rule=broken.rule,
                evidence=broken.evidence,
            )
        )
    return found


@check(
    product="wire",
    title="request headers break the spec",
    meaning="documented headers; JSON bodies sent as application/json",
)
def request_headers(ctx: RequestContext) -> CheckResult:
    op = ctx.operation
    if op is None:
        return SKIP
    out = _parameter_findings(ctx.spec, op, "header", ctx.request.headers)
    if op.request_schema is not None and ctx.request.body.strip():
        media = _media_type(ctx.request.headers)
        if media != "application/json":
            out.append(
                _breaks("", "content-type", "Content-Type application/json", short(media or None))
            )
    return out


@check(
    product="wire",
    title="request not authenticated as the API requires",
    meaning="X-Auth-Token, or a well-formed SDK-HMAC-SHA256 signature",
)
def request_auth(ctx: RequestContext) -> CheckResult:
    if ctx.operation is None:
        return SKIP
    headers = ctx.request.headers

    def bad(expected: str, got: str) -> Finding:
        return _breaks("", "auth", expected, got)

    token = headers.get("x-auth-token")
    authorization = headers.get("authorization")
    if token is not None:
        return bad("a non-empty X-Auth-Token header", "an empty one") if not token.strip() else None
    if authorization is None:
        return bad("an X-Auth-Token header or an SDK-HMAC-SHA256 Authorization header", "neither")
    scheme = authorization.split(" ", 1)[0]
    found = parse_authorization(authorization)
    if found is None or len(found.signature) != SIGNATURE_HEX_DIGITS:
        return bad(
            "Authorization: SDK-HMAC-SHA256 Access=<AK>, SignedHeaders=<h1;h2>, "
            f"Signature=<{SIGNATURE_HEX_DIGITS} hex digits>",
            f"a malformed header with scheme {scheme[:24]!r}",
        )
    signed = list(found.signed_headers)
    sent = ";".join(signed)
    if signed != sorted(signed) or any(h != h.lower() for h in signed):
        return bad("SignedHeaders in lower case, sorted and ';'-separated", repr(sent))
    if "x-sdk-date" not in signed:
        return bad("SignedHeaders to include x-sdk-date", repr(sent))
    missing = [h for h in signed if h != "host" and h not in headers]
    if missing:
        return bad("every signed header to be sent", f"missing {', '.join(missing)}")
    date = headers.get("x-sdk-date") or ""
    if not _SDK_DATE.match(date):
        return bad("X-Sdk-Date as YYYYMMDDTHHMMSSZ", short(date))
    return None


@check(
    product="wire",
    title="request body breaks the request schema",
    meaning="the body matches the request schema",
)
def request_body(ctx: RequestContext) -> CheckResult:
    op = ctx.operation
    if op is None:
        return SKIP
    if op.request_schema is None:
        return None
    if not ctx.request.body.strip():
        if op.request_required:
            return _breaks(
                "", "required", "a JSON request body (requestBody.required)", "an empty body"
            )
        return None
    body, problem = decode_json_body(ctx.request.body, ctx.request.headers)
    if problem is not None:
        return _breaks("", "json", "JSON", problem)
    # What a client sends must be inside the must-accept envelope (the schema model's rules at
    # every strength, documented fields only); a finding that only guidance makes is named so.
    must_accept = ctx.spec.envelope(MUST_ACCEPT)
    found = schema_findings(must_accept, op.request_schema, body)
    if found:
        # What the vendor's own SDK sends is evidence that the service accepts it
        # (workspace_id in a list body): no client is failed for it.
        sent_by_sdk = {
            rule.instance_pointer
            for rule in Envelopes(ctx.spec).broken(must_accept, op.operation_id, body)
            if rule.strength == "sdk"
        }
        found = [f for f in found if f.pointer not in sent_by_sdk]
    found = _cited(ctx.spec, op.request_schema, found)
    return _name_guidance(ctx.spec, op, body, found) if found else found


GUIDANCE_NOTE = "(guidance: a client must not send it; a server need not reject it)"


def _name_guidance(spec: Spec, op: Operation, body: JSON, found: list[Finding]) -> list[Finding]:
    """Say which findings break only a guidance rule (``x-modelarts-guidance``): a client
    breaks the spec all the same, but the must-reject envelope (the documented rules only)
    would accept the body there."""
    must_reject = spec.envelope(MUST_REJECT)
    obliged = must_reject.operation(op.operation_id)
    binding = {
        (f.pointer, f.rule) for f in schema_findings(must_reject, obliged.request_schema, body)
    }
    return [
        f if (f.pointer, f.rule) in binding else f.but(title=f"{f.title} {GUIDANCE_NOTE}")
        for f in found
    ]


def request_checks() -> tuple[str, ...]:
    """The names of the wire checks on a request, in the order they run."""
    return tuple(c.name for c in REGISTRY.select("wire", prefix="request_"))


@dataclass(frozen=True)
class Verdict:
    """What the wire checks made of one request or response."""

    findings: list[Finding]
    checked: tuple[str, ...]  # the checks that applied (each passed or failed once)

    def record(self, report: RunReport, *, reproduce: str = "") -> None:
        """Count one evaluation of each applicable check in ``report``."""
        stamped = [f.but(reproduce=reproduce) if reproduce else f for f in self.findings]
        report.record_all(self.checked, stamped)


@dataclass(frozen=True)
class RequestVerdict(Verdict):
    operation: Operation | None = None
    path_params: dict[str, str] = field(default_factory=dict)


def _run(
    checks: tuple[Check, ...], ctx: object, operation: str, side: str
) -> tuple[list[Finding], tuple[str, ...]]:
    findings: list[Finding] = []
    checked: list[str] = []
    for entry in checks:
        found = entry.run(ctx)
        if found is None:
            continue
        checked.append(entry.name)
        findings += [
            f.but(operation=f.operation or operation, title=f"{side} {f.title}") for f in found
        ]
    return findings, tuple(checked)


def validate_request(spec: Spec, request: WireRequest) -> RequestVerdict:
    """Route ``request`` and run every request check on it."""
    route = spec.match(request.method, request.path)
    ctx = RequestContext(spec, request, route)
    op = ctx.operation
    checks = REGISTRY.select("wire", prefix="request_")
    findings, checked = _run(checks, ctx, op.operation_id if op else "", "request")
    params = dict(route.path_params) if route is not None else {}
    return RequestVerdict(findings, checked, op, params)


# ---------------------------------------------------------------- response checks


@dataclass(frozen=True)
class ResponseContext:
    """What a response check looks at: the response, the operation that answered it and,
    when known, the request it answers."""

    spec: Spec
    operation: Operation
    response: WireResponse
    request: WireRequest | None = None


@check(
    product="wire",
    title="response status not documented for the operation",
    meaning="the status is one the operation documents",
)
def response_status(ctx: ResponseContext) -> CheckResult:
    if ctx.operation.response_for(ctx.response.status) is not None:
        return None
    listed = ", ".join(r.status for r in ctx.operation.responses)
    return _breaks("", "status", f"a documented status ({listed})", str(ctx.response.status))


@check(
    product="wire",
    title="response headers break the spec",
    meaning="documented headers match their schema; JSON bodies declared as application/json",
)
def response_headers(ctx: ResponseContext) -> CheckResult:
    documented = ctx.operation.response_for(ctx.response.status)
    if documented is None:
        return SKIP
    status = ctx.response.status
    out: list[Finding] = []
    # Judged by must-reject, as bodies are: the form of Retry-After is the ledger's decision.
    must_reject = ctx.spec.envelope(MUST_REJECT)
    judged = must_reject.operation(ctx.operation.operation_id).response_for(status)
    for header_name, header in (judged or documented).headers.items():
        value = ctx.response.headers.get(header_name)
        if value is None:
            if isinstance(header, Mapping) and header.get("required"):
                out.append(
                    _breaks(
                        "", "required", f"header {header_name!r} on {status} (required)", "none"
                    )
                )
            continue
        schema = header.get("schema") if isinstance(header, Mapping) else None
        if schema:
            coerced = _coerce_param(must_reject, schema, value)
            for finding in schema_findings(must_reject, schema, coerced):
                out.append(finding.but(expected=f"header {header_name!r}: {finding.expected}"))
    if documented.schema is not None:
        media = _media_type(ctx.response.headers)
        if media != "application/json":
            out.append(
                _breaks(
                    "",
                    "content-type",
                    f"Content-Type application/json on {status}",
                    short(media or None),
                )
            )
    return out


@check(
    product="wire",
    title="response body breaks the response schema",
    meaning="the body matches the schema documented for its status",
)
def response_body(ctx: ResponseContext) -> CheckResult:
    documented = ctx.operation.response_for(ctx.response.status)
    if documented is None:
        return SKIP
    if documented.schema is None:
        return None
    body, problem = decode_json_body(ctx.response.body, ctx.response.headers)
    if problem is not None:
        return _breaks("", "json", "JSON", problem)
    # A response fails only against what a page states: the must-reject envelope.
    found = schema_findings(ctx.spec.envelope(MUST_REJECT), documented.schema, body)
    return _cited(ctx.spec, documented.schema, found)


# Rules stated on the object that holds the offending property, not on the property's schema.
_PARENT_RULES = frozenset({"required", "additionalProperties"})


def _cited(spec: Spec, schema: JSON, findings: list[Finding]) -> list[Finding]:
    """Each body finding with the evidence of the rule it names: where the schema model says
    the rule comes from (the page and table, the SDK model, the ledger entry)."""
    if not findings:
        return findings
    envelopes = Envelopes(spec)
    out: list[Finding] = []
    for finding in findings:
        keyword = finding.rule.rsplit("/", 1)[-1]
        at = finding.pointer
        if keyword in _PARENT_RULES:
            at = at.rsplit("/", 1)[0] if "/" in at else ""
        view = spec.walker.at_pointer(schema, at) if keyword else None
        if view is None or not view.pointer or finding.evidence:
            out.append(finding)
            continue
        out.append(finding.but(evidence=envelopes.rule(view.pointer, keyword)[1]))
    return out


@check(
    product="wire",
    title="page holds more entries than the request's limit",
    meaning="a paged answer holds at most the limit asked for (the spec's default or maximum "
    "when none)",
)
def response_page_size(ctx: ResponseContext) -> CheckResult:
    paging = paging_of(ctx.spec, ctx.operation)
    if ctx.request is None or paging is None or not 200 <= ctx.response.status < 300:
        return SKIP
    answer, problem = decode_json_body(ctx.response.body, ctx.response.headers)
    page = answer.get(paging.page_field) if isinstance(answer, Mapping) else None
    if problem is not None or not isinstance(page, list):
        return SKIP  # response_body says what is wrong with the answer's shape
    request = ctx.request
    sent, _ = decode_json_body(request.body, request.headers) if request.body else (None, None)
    bound = paging.page_size(parse_query(request.query), sent)
    if bound is None or len(page) <= bound:
        return None if bound is not None else SKIP
    asked = paging.requested(parse_query(request.query), sent)
    why = f"limit {asked}" if asked is not None else "no limit: the spec's default or maximum"
    pointer = f"/{paging.page_field}"
    evidence = Envelopes(ctx.spec).rule(paging.limit_pointer, "maximum")[1]
    return Finding(
        title=f"page at {pointer} holds more entries than the request's limit",
        expected=f"at most {bound} entries ({why}, {paging.location})",
        got=f"{len(page)} entries",
        pointer=pointer,
        rule=LIMIT,
        evidence=evidence if paging.limit_pointer else "",
    )


def response_checks() -> tuple[str, ...]:
    """The names of the wire checks on a response, in the order they run."""
    return tuple(c.name for c in REGISTRY.select("wire", prefix="response_"))


def validate_response(
    spec: Spec, operation: Operation, response: WireResponse, request: WireRequest | None = None
) -> Verdict:
    """Run every response check on what ``operation`` answered (to ``request``, when given:
    the checks that compare the two need it)."""
    ctx = ResponseContext(spec, operation, response, request)
    checks = REGISTRY.select("wire", prefix="response_")
    return Verdict(*_run(checks, ctx, operation.operation_id, "response"))
