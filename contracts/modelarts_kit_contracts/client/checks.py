"""The client checks: what a client puts on the wire and hands its caller, one function each.

Every check is registered in the core registry (product ``client``) and looks at one
:class:`ClientCall` (the case, what the client returned or raised, every request the mock
received for it) or at one request of it (:class:`SentRequest`). What the client sent is also
judged by the ``wire`` request checks (``request_path``, ``request_method``,
``request_path_params``, ``request_query``, ``request_headers``, ``request_auth``,
``request_body``), which the mock ran on each request.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from modelarts_kit_spec.load import Spec, json_type, pointer_join
from modelarts_kit_spec.walker import SchemaView

from modelarts_kit_contracts.client.adapters import ClientAdapter, ErrorInfo, adapter_method
from modelarts_kit_contracts.client.cases import Case
from modelarts_kit_contracts.core import SKIP, CheckResult, Finding, check, short
from modelarts_kit_contracts.core.wire import Exchange, decode_json_body, parse_query

__all__ = ["ClientCall", "Outcome", "SentRequest", "compare_json"]

JSON = Any


@dataclass
class Outcome:
    """What the client call did: returned ``result``, raised ``error``, or is still running."""

    result: object = None
    error: BaseException | None = None
    finished: bool = False
    unsupported: str | None = None  # why the client cannot make the call at all


@dataclass
class ClientCall:
    """One call through the adapter, with every request the mock received for it."""

    spec: Spec
    adapter: ClientAdapter
    case: Case
    outcome: Outcome
    exchanges: Sequence[Exchange]
    timeout_s: float

    @property
    def answered(self) -> Exchange | None:
        """The exchange whose answer the client finally acted on (the last one)."""
        return self.exchanges[-1] if self.exchanges else None

    @property
    def succeeded(self) -> bool:
        """The case expects a result and the mock finally answered with a success."""
        answered = self.answered
        return answered is not None and self.case.expect == "success" and answered.status < 400

    @cached_property
    def returned(self) -> tuple[JSON, BaseException | None]:
        """What the client handed its caller, as JSON (or why the adapter cannot read it)."""
        try:
            return self.adapter.to_dict(self.outcome.result), None
        except (TypeError, ValueError) as exc:
            return None, exc

    @cached_property
    def differences(self) -> list[tuple[str, str, str]]:
        """Every way what the client returned differs from what the mock sent."""
        answered = self.answered
        assert answered is not None
        got, _ = self.returned
        if not answered.response.body and got in (None, {}):
            return []  # an answer without content: nothing, or an empty result, loses nothing
        _, sent = answered.response.json() if answered.response.body else (True, None)
        schema = self.case.operation.success.schema
        return list(compare_json(self.spec, schema, sent, got))

    @cached_property
    def error_info(self) -> ErrorInfo | None:
        error = self.outcome.error
        return self.adapter.error_info(error) if error is not None else None

    def finding(self, title: str, expected: str, got: str, pointer: str = "") -> Finding:
        return Finding(
            title=title,
            expected=expected,
            got=got,
            pointer=pointer,
            operation=self.case.operation.operation_id,
            reproduce=f"case: {self.case.name}",
        )


@dataclass(frozen=True)
class SentRequest:
    """One request the client sent during a call."""

    call: ClientCall
    exchange: Exchange


def describe(exc: BaseException | None) -> str:
    if exc is None:
        return "nothing"
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text[:160]}" if text else type(exc).__name__


# ---------------------------------------------------------------- the call


@check(
    product="client",
    title="the client call did not return",
    meaning="the client call returns within the time limit",
)
def client_returns(call: ClientCall) -> CheckResult:
    if call.outcome.finished:
        return None
    return call.finding(
        "the client call did not return",
        f"the call to return within {call.timeout_s:.0f}s",
        "it is still running",
    )


@check(
    product="client",
    title="the client sent no request",
    meaning="the call puts a request on the wire",
)
def request_sent(call: ClientCall) -> CheckResult:
    if call.exchanges:
        return None
    op = call.case.operation
    raised = f" (the client raised {describe(call.outcome.error)})" if call.outcome.error else ""
    return call.finding(
        "the client sent no request", f"a {op.method.upper()} {op.path} request", f"none{raised}"
    )


# ---------------------------------------------------------------- each request


@check(
    product="client",
    title="the call reached another operation",
    meaning="the request reaches the operation the caller asked for",
)
def request_operation(sent: SentRequest) -> CheckResult:
    expected = sent.call.case.operation.operation_id
    if sent.exchange.operation in ("", expected):
        return None
    return sent.call.finding(
        f"the {adapter_method(sent.call.case.role)} call of {expected} reached another operation",
        expected,
        sent.exchange.operation,
    )


def path_values(sent: SentRequest) -> Finding | None:
    """The path carries the caller's project id and every other path parameter the caller gave
    (the job id, a task name), recorded as ``request_path``, the wire check's name: its
    meaning says both."""
    case = sent.call.case
    expected = {"project_id": case.project_id, **case.path_params}
    params = sent.exchange.path_params
    wrong = [(k, v, params.get(k)) for k, v in expected.items() if params.get(k) != v]
    if not wrong:
        return None
    name, value, got = wrong[0]
    return sent.call.finding(
        f"path parameter {name} is not the value the caller gave",
        f"{name}={short(value)}",
        short(got),
    )


@check(
    product="client",
    title="a query parameter on the wire is not the caller's",
    meaning="the query parameters on the wire are the caller's",
)
def request_query_fidelity(sent: SentRequest) -> CheckResult:
    case = sent.call.case
    if not case.query or sent.exchange.operation != case.operation.operation_id:
        return SKIP
    on_the_wire = parse_query(sent.exchange.request.query)
    out: list[Finding] = []
    for name, value in case.query.items():
        got = on_the_wire.get(name)
        if got is None or not _same_query_value(value, got):
            out.append(
                sent.call.finding(
                    f"query parameter {name} is not the value the caller gave",
                    f"{name}={short(value)}",
                    "none" if got is None else f"{name}={short(got)}",
                    pointer=f"?{name}",
                )
            )
    return out


def _same_query_value(value: JSON, text: str) -> bool:
    """Whether ``text`` on the wire spells the caller's ``value`` (5 as "5", true as "true")."""
    if isinstance(value, bool):
        return text == ("true" if value else "false")
    if isinstance(value, int | float):
        try:
            return float(text) == float(value)
        except ValueError:
            return False
    return text == str(value)


@check(
    product="client",
    title="the body on the wire is not the caller's",
    meaning="the body on the wire is the caller's (defaults aside)",
)
def request_body_fidelity(sent: SentRequest) -> CheckResult:
    case = sent.call.case
    if case.body is None or sent.exchange.operation != case.operation.operation_id:
        return SKIP
    request = sent.exchange.request
    if not request.body and not case.operation.request_required and case.body in ({}, None):
        return None  # an optional body with nothing in it: sending none says the same
    body, problem = decode_json_body(request.body, request.headers)
    if problem is not None:
        return sent.call.finding("the body is not JSON", "a JSON body", problem)
    differences = compare_json(
        sent.call.spec, case.operation.request_schema, case.body, body, allow_defaults=True
    )
    return [
        sent.call.finding(
            f"the body on the wire differs from the caller's at {_general(pointer)}",
            *_expected_got(message),
            pointer=_general(pointer),
        )
        for _check, pointer, message in differences
    ]


# ---------------------------------------------------------------- retries


@check(
    product="client",
    title="a GET answered 429/503 was not retried",
    meaning="a GET answered 429/503 is retried",
)
def retry_safe(call: ClientCall) -> CheckResult:
    if call.case.retry != "required":
        return SKIP
    if len(call.exchanges) >= 2:
        return None
    first = call.case.responses[0].status
    return call.finding(
        f"a {call.case.operation.method.upper()} answered {first} was not retried",
        f"a second request after {first} with Retry-After: 0",
        "none",
    )


@check(
    product="client",
    title="a create answered 429/500/503 was sent again",
    meaning="a create answered 429/500/503 is not sent again",
)
def no_blind_retry(call: ClientCall) -> CheckResult:
    if call.case.retry != "forbidden":
        return SKIP
    if len(call.exchanges) == 1:
        return None
    return call.finding(
        f"a create answered {call.case.responses[0].status} was sent again",
        "exactly 1 request (a create is not idempotent)",
        str(len(call.exchanges)),
    )


# ---------------------------------------------------------------- success: fidelity


@check(
    product="client",
    title="the client refused a spec-valid response",
    meaning="a spec-valid response is not refused",
)
def response_accepted(call: ClientCall) -> CheckResult:
    if not call.succeeded:
        return SKIP
    if call.outcome.error is not None:
        return call.finding(
            "the client refused a spec-valid response",
            "a result",
            describe(call.outcome.error),
        )
    _, problem = call.returned
    if problem is not None:
        return call.finding(
            "the adapter cannot read the client's result",
            "to_dict() to return JSON",
            describe(problem),
        )
    return None


@dataclass(frozen=True)
class _Fidelity:
    """One way a returned value can differ from what the server sent: a check of its own,
    named by the difference ``compare_json`` reports."""

    name: str
    title: str
    meaning: str
    finding: str  # the finding's title, "{}" standing for the general pointer

    def __call__(self, call: ClientCall) -> CheckResult:
        if not call.succeeded or call.outcome.error is not None or call.returned[1] is not None:
            return SKIP
        return [
            call.finding(
                self.finding.format(_general(pointer)), *_expected_got(message), _general(pointer)
            )
            for found, pointer, message in call.differences
            if found == self.name
        ]


# In the order they are reported.
_FIDELITY = (
    _Fidelity(
        "fidelity_dropped_field",
        "a field the server sent is missing",
        "no field the server sent goes missing",
        "a field the server sent is missing at {}",
    ),
    _Fidelity(
        "fidelity_null_to_absent",
        "a null the server sent became an absent field",
        "a null stays a null",
        "a null the server sent became an absent field at {}",
    ),
    _Fidelity(
        "fidelity_absent_to_null",
        "a field the server did not send appears as null",
        "an absent field stays absent",
        "a field the server did not send appears as null at {}",
    ),
    _Fidelity(
        "fidelity_coerced_type",
        "a value changed type",
        "no value changes JSON type (5 stays 5, not '5')",
        "a value changed type at {}",
    ),
    _Fidelity(
        "fidelity_value_changed",
        "a value changed",
        "no value changes",
        "a value changed at {}",
    ),
    _Fidelity(
        "fidelity_unknown_field",
        "an unknown field the server sent was lost",
        "fields the spec does not name (yet) are kept",
        "an unknown field the server sent was lost at {}",
    ),
)
for _rule in _FIDELITY:
    check(product="client", title=_rule.title, meaning=_rule.meaning, name=_rule.name)(_rule)


# ---------------------------------------------------------------- errors


def _error_sent(call: ClientCall) -> JSON:
    answered = call.answered
    assert answered is not None
    raw = answered.response.body
    ok, sent = answered.response.json() if raw else (True, {})
    return sent if ok else None


@check(
    product="client",
    title="a documented error did not raise the client's API error",
    meaning="a documented error raises the client's API error",
)
def error_surfaced(call: ClientCall) -> CheckResult:
    if call.succeeded or call.answered is None:
        return SKIP
    status = call.answered.status
    if call.outcome.error is None:
        return call.finding(
            f"HTTP {status} did not raise the client's error",
            f"an API error with status {status}",
            "a result",
        )
    if call.error_info is None:
        return call.finding(
            f"HTTP {status} raised something other than the client's API error",
            f"an API error with status {status}",
            describe(call.outcome.error),
        )
    return None


def _error_field(call: ClientCall, name: str, expected: JSON, got: JSON) -> CheckResult:
    if expected == got:
        return None
    return call.finding(
        f"the error's {name} is not what the server sent", short(expected), short(got)
    )


@check(
    product="client",
    title="the error does not carry the HTTP status",
    meaning="the error carries the HTTP status",
)
def error_status(call: ClientCall) -> CheckResult:
    if call.succeeded or call.answered is None or call.error_info is None:
        return SKIP
    return _error_field(call, "status", call.answered.status, call.error_info[0])


@dataclass(frozen=True)
class _ErrorBodyField:
    """A field of the server's error body the client's error must carry as it was sent."""

    key: str  # in the error body: error_code, error_msg
    name: str  # in the finding: code, msg
    index: int  # in the adapter's ErrorInfo (status, code, msg)

    def __call__(self, call: ClientCall) -> CheckResult:
        if call.succeeded or call.answered is None or call.error_info is None:
            return SKIP
        sent = _error_sent(call)
        expected = sent.get(self.key) if isinstance(sent, dict) else None
        return _error_field(call, self.name, expected, call.error_info[self.index])


for _field in (_ErrorBodyField("error_code", "code", 1), _ErrorBodyField("error_msg", "msg", 2)):
    check(
        product="client",
        title=f"the error does not carry the server's {_field.key}",
        meaning=f"the error carries the server's {_field.key}",
        name=f"{_field.key}_intact",
    )(_field)


def _expected_got(message: str) -> tuple[str, str]:
    """Split a comparison's "expected X; got Y" into its two halves."""
    expected, _, got = message.partition("; got ")
    return expected.removeprefix("expected "), got


# ---------------------------------------------------------------- comparing JSON


def _general(pointer: str) -> str:
    """The pointer with array indexes as '-': one report line per field, not per element."""
    return re.sub(r"/\d+(?=/|$)", "/-", pointer)


@dataclass
class _SchemaView:
    """What the spec says about one node: its named properties, its map/item schemas."""

    known: set[str] | None = None  # None: free-form, every key is data
    properties: dict[str, JSON] = field(default_factory=dict)
    additional: JSON = None
    items: JSON = None
    default: JSON = None
    has_default: bool = False


def _view(spec: Spec, schema: JSON) -> _SchemaView:
    """What the spec's walker says about ``schema`` with every shape (``allOf``, ``anyOf``,
    ``oneOf``) united: any of them may describe the value."""
    if not isinstance(schema, Mapping):
        return _SchemaView(known=None)
    seen = spec.walker.view(schema, alternatives=True)
    view = _SchemaView(known=set(), properties=dict(seen.properties))
    default = seen.find("default")
    if default is not None:
        view.default, view.has_default = default[0], True
    additional = seen.find("additionalProperties")
    if additional is not None and isinstance(additional[0], Mapping) and additional[0]:
        view.additional = additional[0]
    items = seen.find("items")
    if items is not None:
        view.items = items[0]
    free_form = not _declares_properties(seen) and view.additional is None
    view.known = None if free_form else set(view.properties)
    return view


def _declares_properties(view: SchemaView) -> bool:
    """Whether the node or one of its shapes names its properties (even none: ``{}``)."""
    return isinstance(view.schema.get("properties"), Mapping) or any(
        _declares_properties(branch) for branch in view.branches
    )


def compare_json(
    spec: Spec,
    schema: JSON,
    sent: JSON,
    got: JSON,
    pointer: str = "",
    *,
    allow_defaults: bool = False,
) -> Iterator[tuple[str, str, str]]:
    """Every way ``got`` differs from ``sent``, as (fidelity check, pointer, message).

    Types are compared strictly (5 and "5", 1 and 1.0, 1 and true all differ). A key in
    ``sent`` that the schema does not name and ``got`` lacks is an unknown-field loss. With
    ``allow_defaults``, a key ``got`` adds with the schema's default value is not a change.
    """
    sent_type, got_type = json_type(sent), json_type(got)
    if sent_type != got_type:
        # A value turned into null is a changed value; anything else is a coerced type.
        check = "fidelity_value_changed" if got is None else "fidelity_coerced_type"
        yield (
            check,
            pointer,
            f"expected {short(sent)} ({sent_type}); got {short(got)} ({got_type})",
        )
        return
    if isinstance(sent, dict) and isinstance(got, dict):
        view = _view(spec, schema)
        for key, value in sent.items():
            child = pointer_join(pointer, key)
            sub = view.properties.get(key, view.additional)
            if key not in got:
                if view.known is not None and key not in view.known and view.additional is None:
                    check = "fidelity_unknown_field"
                elif value is None:
                    check = "fidelity_null_to_absent"
                else:
                    check = "fidelity_dropped_field"
                yield check, child, f"expected {key!r}: {short(value)}; got no {key!r}"
                continue
            yield from compare_json(
                spec, sub, value, got[key], child, allow_defaults=allow_defaults
            )
        for key, value in got.items():
            if key in sent:
                continue
            child = pointer_join(pointer, key)
            if allow_defaults:
                sub_view = _view(spec, view.properties.get(key))
                if sub_view.has_default and sub_view.default == value:
                    continue
            check = "fidelity_absent_to_null" if value is None else "fidelity_value_changed"
            yield check, child, f"expected no {key!r}; got {key!r}: {short(value)}"
        return
    if isinstance(sent, list) and isinstance(got, list):
        if len(sent) != len(got):
            yield (
                "fidelity_value_changed",
                pointer,
                f"expected {len(sent)} item(s); got {len(got)}",
            )
            return
        items = _view(spec, schema).items
        for index, (a, b) in enumerate(zip(sent, got, strict=True)):
            yield from compare_json(
                spec, items, a, b, pointer_join(pointer, index), allow_defaults=allow_defaults
            )
        return
    if sent != got:
        yield "fidelity_value_changed", pointer, f"expected {short(sent)}; got {short(got)}"
