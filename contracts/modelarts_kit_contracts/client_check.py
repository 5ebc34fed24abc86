"""The client check: does a Python client honour the spec, both ways?

The check drives a client through an adapter (:mod:`modelarts_kit_contracts.adapters`) against
the mock (:class:`~modelarts_kit_contracts.mock.MockServer`), on loopback or in-process. For
each case it queues the responses the mock will give, makes one call through the adapter, and
checks:

- what the client put on the wire (every request it sent): ``request_sent``,
  ``request_operation`` (the call reached the operation it was asked for), ``request_path``
  (the path and its values), ``request_method``, ``request_path_params``, ``request_headers``,
  ``request_auth``, ``request_body`` (against the spec), ``request_body_fidelity`` (the body is
  the one the caller gave, defaults aside);
- round-trip fidelity of what the client hands its caller (``to_dict``) against what the mock
  sent: ``response_accepted`` (a spec-valid answer is not refused), ``fidelity_dropped_field``,
  ``fidelity_null_to_absent``, ``fidelity_absent_to_null``, ``fidelity_coerced_type``,
  ``fidelity_value_changed``, ``fidelity_unknown_field`` (a field the spec does not name was
  lost);
- errors: ``error_surfaced`` (a documented error is raised as the client's API error),
  ``error_status``, ``error_code_intact``, ``error_msg_intact``;
- retries: ``retry_safe`` (a GET answered 429 or 503 is retried and then succeeds) and
  ``no_blind_retry`` (a create answered 429, 500 or 503 is not sent again).

Cases come from the spec: for each operation, success bodies drawn by hypothesis for every
:class:`~modelarts_kit_contracts.mock.Variant` (``max_examples`` in all per operation, at least
one per variant), every documented error status with each documented example body plus
generated ones (unicode, extra fields), and the retry probes. The same seed gives the same
cases. 503 is not in the spec: the check sends it only as a retry probe, as the vendor's API
gateway does.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from modelarts_kit_spec import load_spec
from modelarts_kit_spec.load import Operation, Spec, json_type, pointer_join

from modelarts_kit_contracts.adapters import (
    AdapterFactory,
    ClientAdapter,
    ClientTarget,
)
from modelarts_kit_contracts.findings import Failure, RunReport
from modelarts_kit_contracts.mock import (
    Exchange,
    MockServer,
    PlannedResponse,
    ResponseGenerator,
    Variant,
    draw_examples,
    serve_in_thread,
)
from modelarts_kit_contracts.wire_validation import (
    REQUEST_CHECKS,
    Headers,
    decode_json_body,
    record_violations,
    short,
)

__all__ = [
    "CHECK_MEANINGS",
    "CLIENT_CHECKS",
    "Case",
    "ClientCheckSettings",
    "build_cases",
    "compare_json",
    "merge_failures",
    "render_markdown",
    "run_client_check",
]

JSON = Any
Call = Literal["create", "show", "stop"]

DEV_PROJECT_ID = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
# Throw-away credentials the mock accepts; they only ever travel to the loopback mock.
CHECK_TOKEN = "modelarts-kit-client-check-token"
CHECK_AK = "MODELARTSKITCHECKAK00"
CHECK_SK = "modelarts-kit-client-check-sk"

FIDELITY_CHECKS = (
    "fidelity_dropped_field",
    "fidelity_null_to_absent",
    "fidelity_absent_to_null",
    "fidelity_coerced_type",
    "fidelity_value_changed",
    "fidelity_unknown_field",
)
ERROR_CHECKS = ("error_surfaced", "error_status", "error_code_intact", "error_msg_intact")
CLIENT_CHECKS = (
    "request_sent",
    "request_operation",
    *REQUEST_CHECKS,
    "request_body_fidelity",
    "response_accepted",
    *FIDELITY_CHECKS,
    *ERROR_CHECKS,
    "retry_safe",
    "no_blind_retry",
    "client_returns",
)

CHECK_MEANINGS = {
    "client_returns": "the client call returns within the time limit",
    "request_sent": "the call puts a request on the wire",
    "request_operation": "the request reaches the operation the caller asked for",
    "request_path": "a documented path, carrying the caller's project and job ids",
    "request_method": "the documented method for the path",
    "request_path_params": "path parameters match their schema",
    "request_query": "query parameters match their schema",
    "request_headers": "documented headers; JSON bodies sent as application/json",
    "request_auth": "X-Auth-Token, or a well-formed SDK-HMAC-SHA256 signature",
    "request_body": "the body matches the request schema",
    "request_body_fidelity": "the body on the wire is the caller's (defaults aside)",
    "response_accepted": "a spec-valid response is not refused",
    "fidelity_dropped_field": "no field the server sent goes missing",
    "fidelity_null_to_absent": "a null stays a null",
    "fidelity_absent_to_null": "an absent field stays absent",
    "fidelity_coerced_type": "no value changes JSON type (5 stays 5, not '5')",
    "fidelity_value_changed": "no value changes",
    "fidelity_unknown_field": "fields the spec does not name (yet) are kept",
    "error_surfaced": "a documented error raises the client's API error",
    "error_status": "the error carries the HTTP status",
    "error_code_intact": "the error carries the server's error_code",
    "error_msg_intact": "the error carries the server's error_msg",
    "retry_safe": "a GET answered 429/503 is retried",
    "no_blind_retry": "a create answered 429/500/503 is not sent again",
}

# Statuses a client may retry a GET on, and how often the check repeats such an error.
RETRIED = frozenset({429, 500, 502, 503, 504})
PERSISTENT_ERROR_REPEATS = 10


@dataclass(frozen=True)
class ClientCheckSettings:
    seed: int = 0
    max_examples: int = 20  # generated success responses per operation (>= one per variant)
    auth: Literal["token", "aksk"] = "token"
    in_process: bool = False  # serve the mock through an httpx transport instead of loopback
    call_timeout_s: float = 15.0
    time_budget_s: float = 60.0  # for generating the cases


@dataclass(frozen=True)
class Case:
    """One call the check makes, and the answers the mock gives it."""

    name: str
    operation: Operation
    call: Call
    responses: tuple[PlannedResponse, ...]
    expect: Literal["success", "error"]
    retry: Literal["required", "forbidden", "none"] = "none"
    project_id: str = DEV_PROJECT_ID
    job_id: str = ""
    body: JSON = None  # the create request body the caller hands the client


# ---------------------------------------------------------------- cases


def _call_of(op: Operation) -> Call:
    if op.method == "get":
        return "show"
    if op.method == "post" and op.path.rstrip("/").endswith("/actions"):
        return "stop"
    if op.method == "post":
        return "create"
    raise ValueError(f"{op.operation_id}: no adapter call for {op.method.upper()} {op.path}")


def build_cases(spec: Spec, settings: ClientCheckSettings) -> list[Case]:
    """Every case the check runs, deterministic for ``settings.seed``."""
    generator = ResponseGenerator(spec)
    deadline = time.monotonic() + settings.time_budget_s
    cases: list[Case] = []
    variants = list(Variant)
    per_variant = [
        settings.max_examples // len(variants)
        + (1 if i < settings.max_examples % len(variants) else 0)
        for i in range(len(variants))
    ]
    for op_index, op in enumerate(spec.operations):
        call = _call_of(op)
        success = op.success
        seed_base = settings.seed * 7919 + op_index * 104729
        job_ids = _job_ids(spec, op, generator, seed_base)
        bodies = _request_bodies(spec, op, generator, seed_base, settings.max_examples + 16)

        def inputs(
            i: int, _ids: list[str] = job_ids, _bodies: list[JSON] = bodies
        ) -> dict[str, Any]:
            return {
                "job_id": _ids[i % len(_ids)] if _ids else "",
                "body": _bodies[i % len(_bodies)] if _bodies else None,
            }

        counter = 0
        for v_index, variant in enumerate(variants):
            count = max(1, per_variant[v_index])
            remaining = max(0.5, deadline - time.monotonic())
            drawn = (
                generator.draw(
                    success.schema,
                    variant,
                    count=count,
                    seed_value=seed_base + v_index,
                    time_budget_s=min(remaining, settings.time_budget_s / 10),
                )
                if success.schema is not None
                else [None]
            )
            for n, body in enumerate(drawn):
                cases.append(
                    Case(
                        name=f"{op.operation_id} {success.status} {variant.value} #{n + 1}",
                        operation=op,
                        call=call,
                        responses=(
                            PlannedResponse(
                                int(success.status), body, has_body=success.schema is not None
                            ),
                        ),
                        expect="success",
                        **inputs(counter),
                    )
                )
                counter += 1
        for status, bodies_for_status, headers in _error_answers(spec, op, generator, seed_base):
            # A client may retry a GET on 429/5xx: the error repeats until it gives up, and
            # must then surface. (Retrying more often than this is reported as not surfacing.)
            repeats = PERSISTENT_ERROR_REPEATS if call == "show" and status in RETRIED else 1
            for n, error_body in enumerate(bodies_for_status):
                cases.append(
                    Case(
                        name=f"{op.operation_id} {status} error #{n + 1}",
                        operation=op,
                        call=call,
                        responses=(PlannedResponse(status, error_body, headers),) * repeats,
                        expect="error",
                        **inputs(counter),
                    )
                )
                counter += 1
        cases += _retry_cases(spec, op, call, generator, seed_base, inputs(counter))
    return cases


def _job_ids(spec: Spec, op: Operation, generator: ResponseGenerator, seed_base: int) -> list[str]:
    schema = next(
        (p.schema for p in op.parameters if p.location == "path" and p.name != "project_id"),
        None,
    )
    if schema is None:
        return []
    drawn = draw_examples(
        generator.strategy(schema, Variant.TYPICAL).filter(lambda v: isinstance(v, str) and v),
        8,
        seed_base + 97,
        time_budget_s=5,
    )
    return [str(v) for v in drawn] or ["3faf5c03-aaa1-4cbe-879d-24b05d997347"]


def _request_bodies(
    spec: Spec, op: Operation, generator: ResponseGenerator, seed_base: int, count: int
) -> list[JSON]:
    if _call_of(op) != "create" or op.request_schema is None:
        return []
    out: list[JSON] = []
    for index, variant in enumerate((Variant.TYPICAL, Variant.MINIMAL, Variant.FULL)):
        out += generator.draw(
            op.request_schema,
            variant,
            count=max(1, count // 3),
            seed_value=seed_base + 31 + index,
            time_budget_s=10,
        )
    return out


def _error_answers(
    spec: Spec, op: Operation, generator: ResponseGenerator, seed_base: int
) -> Iterator[tuple[int, list[JSON], tuple[tuple[str, str], ...]]]:
    for response in op.responses:
        if not (response.status.isdigit() and int(response.status) >= 400):
            continue
        status = int(response.status)
        bodies = list(generator.error_bodies(response))
        if response.schema is not None:
            for offset, variant in enumerate((Variant.UNICODE, Variant.EXTRA_FIELDS)):
                bodies += generator.draw(
                    response.schema,
                    variant,
                    count=1,
                    seed_value=seed_base + status * 10 + offset,
                    time_budget_s=5,
                )
        # Retry-After: 0 keeps a client that honours it fast; the spec allows minimum 0.
        headers = tuple((name, "0") for name in response.headers if name.lower() == "retry-after")
        yield status, bodies, headers


def _retry_cases(
    spec: Spec,
    op: Operation,
    call: Call,
    generator: ResponseGenerator,
    seed_base: int,
    inputs: Mapping[str, Any],
) -> list[Case]:
    success = op.success
    if success.schema is None:
        return []
    [body] = generator.draw(success.schema, Variant.TYPICAL, count=1, seed_value=seed_base + 5)
    ok = PlannedResponse(int(success.status), body)
    out: list[Case] = []
    transient = {
        429: {"error_code": "ModelArts.2799", "error_msg": "services too many requests"},
        503: {"error_code": "APIGW.0201", "error_msg": "Service temporarily unavailable"},
        500: {"error_code": "ModelArts.0010", "error_msg": "Internal error."},
    }
    if call == "show":
        for status in (429, 503):
            first = PlannedResponse(status, transient[status], (("Retry-After", "0"),))
            out.append(
                Case(
                    name=f"{op.operation_id} {status} then {success.status} (retry)",
                    operation=op,
                    call=call,
                    responses=(first, ok),
                    expect="success",
                    retry="required",
                    **inputs,
                )
            )
    if call == "create":
        for status in (429, 500, 503):
            first = PlannedResponse(status, transient[status], (("Retry-After", "0"),))
            out.append(
                Case(
                    name=f"{op.operation_id} {status} then {success.status} (no blind retry)",
                    operation=op,
                    call=call,
                    responses=(first, ok),
                    expect="error",
                    retry="forbidden",
                    **inputs,
                )
            )
    return out


# ---------------------------------------------------------------- running


@dataclass
class _Outcome:
    result: object = None
    error: BaseException | None = None
    finished: bool = False


def _invoke(adapter: ClientAdapter, case: Case, timeout_s: float) -> _Outcome:
    outcome = _Outcome()

    def run() -> None:
        try:
            if case.call == "create":
                outcome.result = adapter.create(case.project_id, case.body)
            elif case.call == "show":
                outcome.result = adapter.show(case.project_id, case.job_id)
            else:
                outcome.result = adapter.stop(case.project_id, case.job_id)
        except Exception as exc:  # noqa: BLE001 - the client's own error is what we inspect
            outcome.error = exc
        outcome.finished = True

    worker = threading.Thread(target=run, name="modelarts-kit-client-call", daemon=True)
    worker.start()
    worker.join(timeout_s)
    return outcome


def run_client_check(
    factory: AdapterFactory,
    *,
    settings: ClientCheckSettings | None = None,
    spec: Spec | None = None,
    target_name: str = "client",
    cases: Sequence[Case] | None = None,
) -> RunReport:
    """Run every case against the client the factory builds; the findings in a RunReport.

    ``cases`` defaults to :func:`build_cases` for ``settings``; pass them to reuse one set.
    """
    settings = settings or ClientCheckSettings()
    spec = spec or load_spec()
    started = time.monotonic()
    report = RunReport(target=target_name, seed=settings.seed)
    if cases is None:
        cases = build_cases(spec, settings)
    mock = MockServer(spec, seed_value=settings.seed, error_rate=0.0)
    if settings.in_process:
        target = _target(settings, "http://modelarts-mock.invalid", mock)
        _run_cases(factory, target, mock, cases, settings, report, spec)
    else:
        with serve_in_thread(mock) as base_url:
            _run_cases(
                factory, _target(settings, base_url, None), mock, cases, settings, report, spec
            )
    report.failures = merge_failures(report.failures)
    report.duration_s = time.monotonic() - started
    return report


MAX_PLACES_LISTED = 6


def merge_failures(failures: Sequence[Failure]) -> list[Failure]:
    """One failure per (check, operation): the first one, naming the other places it occurred.

    A client that drops unknown fields drops them at every level of every response; the
    report says so once, with the places, instead of once per field.
    """
    groups: dict[tuple[str, str], list[Failure]] = {}
    for failure in failures:
        groups.setdefault((failure.check, failure.operation), []).append(failure)
    merged: list[Failure] = []
    for group in groups.values():
        first = group[0]
        others = list(dict.fromkeys(f.pointer or f.reproduce for f in group[1:]))
        others = [o for o in others if o and o != (first.pointer or first.reproduce)]
        if not others:
            merged.append(first)
            continue
        listed = ", ".join(others[:MAX_PLACES_LISTED])
        more = len(others) - MAX_PLACES_LISTED
        suffix = f" and {more} more" if more > 0 else ""
        merged.append(
            Failure(
                check=first.check,
                title=first.title,
                message=f"{first.message}\nalso at: {listed}{suffix}",
                operation=first.operation,
                reproduce=first.reproduce,
                pointer=first.pointer,
            )
        )
    return merged


def _target(settings: ClientCheckSettings, base_url: str, mock: MockServer | None) -> ClientTarget:
    return ClientTarget(
        base_url=base_url,
        token=CHECK_TOKEN,
        access_key=CHECK_AK,
        secret_key=CHECK_SK,
        auth=settings.auth,
        timeout_s=settings.call_timeout_s,
        transport=mock.httpx_transport() if mock is not None else None,
    )


def _run_cases(
    factory: AdapterFactory,
    target: ClientTarget,
    mock: MockServer,
    cases: Sequence[Case],
    settings: ClientCheckSettings,
    report: RunReport,
    spec: Spec,
) -> None:
    adapter = factory(target)
    try:
        for case in cases:
            mock.reset()
            mock.enqueue(*case.responses)
            began = time.monotonic()
            outcome = _invoke(adapter, case, settings.call_timeout_s)
            report.record_time(case.operation.operation_id, (time.monotonic() - began) * 1000)
            if not outcome.finished:
                report.record(
                    "client_returns",
                    _failure(
                        "client_returns",
                        case,
                        "the client call did not return",
                        f"expected the call to return within {settings.call_timeout_s:.0f}s; "
                        "it is still running",
                    ),
                )
                continue
            report.record("client_returns", None)
            _judge(spec, adapter, case, outcome, mock, report)
    finally:
        adapter.close()
        mock.reset()


def _failure(check: str, case: Case, title: str, message: str, pointer: str = "") -> Failure:
    return Failure(
        check=check,
        title=title,
        message=message,
        operation=case.operation.operation_id,
        reproduce=f"case: {case.name}",
        pointer=pointer,
    )


def _judge(
    spec: Spec,
    adapter: ClientAdapter,
    case: Case,
    outcome: _Outcome,
    mock: MockServer,
    report: RunReport,
) -> None:
    exchanges = list(mock.exchanges)
    op = case.operation
    if not exchanges:
        report.record(
            "request_sent",
            _failure(
                "request_sent",
                case,
                "the client sent no request",
                f"expected a {op.method.upper()} {op.path} request; got none"
                + (f" (the client raised {_describe(outcome.error)})" if outcome.error else ""),
            ),
        )
        return
    report.record("request_sent", None)
    for exchange in exchanges:
        record_violations(
            report, REQUEST_CHECKS, exchange.violations, reproduce=f"case: {case.name}"
        )
        report.record(
            "request_operation",
            None
            if exchange.operation in ("", op.operation_id)
            else _failure(
                "request_operation",
                case,
                f"the {case.call} call reached another operation",
                f"expected {op.operation_id}; got {exchange.operation}",
            ),
        )
        if exchange.operation == op.operation_id:
            _check_path_values(case, exchange.path_params, report)
            if case.call == "create":
                _check_request_body(
                    spec, case, exchange.request.body, exchange.request.headers, report
                )
    _check_retries(case, exchanges, report)
    # The answer the client finally acted on is the last one the mock gave.
    answered = exchanges[-1].response
    if case.expect == "success" and answered.status < 400:
        _check_success(spec, adapter, case, outcome, answered.body, report)
    else:
        _check_error(adapter, case, outcome, answered.status, answered.body, report)


def _check_path_values(case: Case, params: Mapping[str, str], report: RunReport) -> None:
    expected = {"project_id": case.project_id}
    if case.call != "create":
        expected["training_job_id"] = case.job_id
    wrong = [(k, v, params.get(k)) for k, v in expected.items() if params.get(k) != v]
    report.record(
        "request_path",
        None
        if not wrong
        else _failure(
            "request_path",
            case,
            f"path parameter {wrong[0][0]} is not the value the caller gave",
            f"expected {wrong[0][0]}={short(wrong[0][1])}; got {short(wrong[0][2])}",
        ),
    )


def _check_request_body(
    spec: Spec, case: Case, raw: bytes, headers: Headers, report: RunReport
) -> None:
    sent, problem = decode_json_body(raw, headers)
    if problem is not None:
        report.record(
            "request_body_fidelity",
            _failure("request_body_fidelity", case, "the body is not JSON", f"got {problem}"),
        )
        return
    differences = list(
        compare_json(spec, case.operation.request_schema, case.body, sent, allow_defaults=True)
    )
    if not differences:
        report.record("request_body_fidelity", None)
    for _check, pointer, message in differences:
        report.record(
            "request_body_fidelity",
            _failure(
                "request_body_fidelity",
                case,
                f"the body on the wire differs from the caller's at {_general(pointer)}",
                message,
                _general(pointer),
            ),
        )


def _check_retries(case: Case, exchanges: Sequence[Exchange], report: RunReport) -> None:
    if case.retry == "required":
        retried = len(exchanges) >= 2
        report.record(
            "retry_safe",
            None
            if retried
            else _failure(
                "retry_safe",
                case,
                f"a {case.operation.method.upper()} answered {case.responses[0].status} "
                "was not retried",
                f"expected a second request after {case.responses[0].status} with Retry-After: 0; "
                "got none",
            ),
        )
    elif case.retry == "forbidden":
        report.record(
            "no_blind_retry",
            None
            if len(exchanges) == 1
            else _failure(
                "no_blind_retry",
                case,
                f"a create answered {case.responses[0].status} was sent again",
                f"expected exactly 1 request (a create is not idempotent); got {len(exchanges)}",
            ),
        )


def _describe(exc: BaseException | None) -> str:
    if exc is None:
        return "nothing"
    text = str(exc).splitlines()[0] if str(exc) else ""
    return f"{type(exc).__name__}: {text[:160]}" if text else type(exc).__name__


def _check_success(
    spec: Spec,
    adapter: ClientAdapter,
    case: Case,
    outcome: _Outcome,
    raw: bytes,
    report: RunReport,
) -> None:
    if outcome.error is not None:
        report.record(
            "response_accepted",
            _failure(
                "response_accepted",
                case,
                "the client refused a spec-valid response",
                f"expected a result; got {_describe(outcome.error)}",
            ),
        )
        return
    report.record("response_accepted", None)
    sent = json.loads(raw.decode("utf-8")) if raw else None
    try:
        got = adapter.to_dict(outcome.result)
    except (TypeError, ValueError) as exc:
        report.record(
            "response_accepted",
            _failure(
                "response_accepted",
                case,
                "the adapter cannot read the client's result",
                f"expected to_dict() to return JSON; got {_describe(exc)}",
            ),
        )
        return
    schema = case.operation.success.schema
    differences = list(compare_json(spec, schema, sent, got))
    found = {check for check, _, _ in differences}
    for check in FIDELITY_CHECKS:
        if check not in found:
            report.record(check, None)
    for check, pointer, message in differences:
        report.record(
            check,
            _failure(
                check,
                case,
                _FIDELITY_TITLES[check].format(_general(pointer)),
                message,
                _general(pointer),
            ),
        )


_FIDELITY_TITLES = {
    "fidelity_dropped_field": "a field the server sent is missing at {}",
    "fidelity_null_to_absent": "a null the server sent became an absent field at {}",
    "fidelity_absent_to_null": "a field the server did not send appears as null at {}",
    "fidelity_coerced_type": "a value changed type at {}",
    "fidelity_value_changed": "a value changed at {}",
    "fidelity_unknown_field": "an unknown field the server sent was lost at {}",
}


def _check_error(
    adapter: ClientAdapter,
    case: Case,
    outcome: _Outcome,
    status: int,
    raw: bytes,
    report: RunReport,
) -> None:
    sent = json.loads(raw.decode("utf-8")) if raw else {}
    if outcome.error is None:
        report.record(
            "error_surfaced",
            _failure(
                "error_surfaced",
                case,
                f"HTTP {status} did not raise the client's error",
                f"expected an API error with status {status}; got a result",
            ),
        )
        return
    info = adapter.error_info(outcome.error)
    if info is None:
        report.record(
            "error_surfaced",
            _failure(
                "error_surfaced",
                case,
                f"HTTP {status} raised something other than the client's API error",
                f"expected an API error with status {status}; got {_describe(outcome.error)}",
            ),
        )
        return
    report.record("error_surfaced", None)
    got_status, got_code, got_msg = info
    for check, expected, got in (
        ("error_status", status, got_status),
        ("error_code_intact", sent.get("error_code") if isinstance(sent, dict) else None, got_code),
        ("error_msg_intact", sent.get("error_msg") if isinstance(sent, dict) else None, got_msg),
    ):
        field_name = check.removeprefix("error_").removesuffix("_intact")
        report.record(
            check,
            None
            if expected == got
            else _failure(
                check,
                case,
                f"the error's {field_name} is not what the server sent",
                f"expected {short(expected)}; got {short(got)}",
            ),
        )


# ---------------------------------------------------------------- fidelity


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
    view = _SchemaView(known=set())
    if not isinstance(schema, Mapping):
        view.known = None
        return view
    pending = [schema]
    free_form = True
    seen = 0
    while pending and seen < 64:
        seen += 1
        node = spec.deref(pending.pop())
        if not isinstance(node, Mapping):
            continue
        if "default" in node and not view.has_default:
            view.default, view.has_default = node["default"], True
        for key in ("allOf", "anyOf", "oneOf"):
            pending.extend(node.get(key) or [])
        props = node.get("properties")
        if isinstance(props, Mapping):
            free_form = False
            view.properties.update(props)
        additional = node.get("additionalProperties")
        if isinstance(additional, Mapping) and additional:
            free_form = False
            view.additional = additional
        if "items" in node:
            view.items = node["items"]
    view.known = None if free_form else set(view.properties)
    return view


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


def render_markdown(report: RunReport, *, command: str) -> str:
    """The report as Markdown, without timings: the same seed renders the same document."""
    lines = [
        f"# Client check: {report.target}",
        "",
        f"Generated by `{command}` (seed {report.seed}). Do not edit; rerun the command.",
        "",
        f"Verdict: **{'passed' if report.exit_code == 0 else 'failed'}** "
        f"({len(report.failures)} finding(s), exit code {int(report.exit_code)}).",
        "",
        "| check | what it requires | passed | failed |",
        "| --- | --- | ---: | ---: |",
    ]
    for name, tally in sorted(report.tallies.items()):
        meaning = CHECK_MEANINGS.get(name, "")
        lines.append(f"| `{name}` | {meaning} | {tally.passed} | {tally.failed} |")
    if report.failures:
        lines += ["", "## Findings", ""]
    for index, failure in enumerate(report.failures, 1):
        where = f" ({failure.operation})" if failure.operation else ""
        lines += [f"### {index}. `{failure.check}`{where}: {failure.title}", ""]
        lines += ["```text", *failure.message.splitlines()]
        if failure.reproduce:
            lines.append(failure.reproduce)
        lines += ["```", ""]
    for error in report.errors:
        lines += [f"Error: {error}", ""]
    return "\n".join(lines).rstrip() + "\n"
