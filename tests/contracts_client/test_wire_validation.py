"""Request and response validation shared by the mock, the client check and the proxy."""

from __future__ import annotations

import json

import httpx
import pytest
from modelarts_kit_contracts.core import REGISTRY, RunReport
from modelarts_kit_contracts.core.wire import (
    Headers,
    WireRequest,
    WireResponse,
    request_checks,
    validate_request,
    validate_response,
)
from modelarts_kit_spec import load_spec
from modelarts_training_client import AkSkAuth

PROJECT = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
TOKEN = "secret-token-value-123"
JOBS = f"/v2/{PROJECT}/training-jobs"


def request(
    method: str, path: str, body: object = None, headers: dict[str, str] | None = None
) -> WireRequest:
    sent = {"X-Auth-Token": TOKEN} if headers is None else headers
    content = b"" if body is None else json.dumps(body).encode()
    if body is not None:
        sent = {"Content-Type": "application/json", **sent}
    return WireRequest(method, path, Headers(sent), content)


def problems(req: WireRequest) -> list[tuple[str, str, str]]:
    return [(f.check, f.pointer, f.rule) for f in validate_request(load_spec(), req).findings]


def test_routing_prefers_literal_segments_and_names_the_method() -> None:
    spec = load_spec()
    stop = spec.match("POST", f"{JOBS}/abc/actions")
    assert stop is not None
    assert stop.operation is not None
    assert stop.operation.operation_id == "StopTrainingJob"
    assert stop.path_params == {"project_id": PROJECT, "training_job_id": "abc"}
    wrong = spec.match("PATCH", f"{JOBS}/abc")
    assert wrong is not None
    assert wrong.operation is None
    show = spec.meaning.roles.show
    assert wrong.allowed_methods == tuple(
        op.method.upper() for op in spec.operations if op.path == show.path
    )
    assert "GET" in wrong.allowed_methods
    assert spec.match("GET", "/v1/whatever") is None


def test_valid_requests_have_no_violation() -> None:
    assert problems(request("GET", f"{JOBS}/abc")) == []
    assert problems(request("POST", f"{JOBS}/abc/actions", {"action_type": "terminate"})) == []
    assert problems(request("POST", JOBS, {"kind": "job", "metadata": {"name": "a-b_1"}})) == []


@pytest.mark.parametrize(
    ("req", "expected"),
    [
        (request("GET", "/v2/p/training_jobs/abc"), ("request_path", "", "path")),
        (request("PATCH", f"{JOBS}/abc"), ("request_method", "", "method")),
        (request("GET", f"{JOBS}/a%20b"), ("request_path_params", "", "pattern")),
        (request("GET", f"{JOBS}/abc", headers={}), ("request_auth", "", "auth")),
        (
            request("POST", f"{JOBS}/abc/actions", {"action_type": "stop"}),
            ("request_body", "/action_type", "enum"),
        ),
        (
            request("POST", f"{JOBS}/abc/actions", {"action_type": "terminate", "x": 1}),
            ("request_body", "/x", "additionalProperties"),
        ),
        (request("POST", JOBS, {"metadata": {"name": "n"}}), ("request_body", "/kind", "required")),
        (
            request("POST", JOBS, {"kind": "job", "metadata": {"name": "bad name!"}}),
            ("request_body", "/metadata/name", "pattern"),
        ),
        (request("POST", JOBS), ("request_body", "", "required")),
    ],
)
def test_each_request_problem_names_check_pointer_and_rule(
    req: WireRequest, expected: tuple[str, str, str]
) -> None:
    assert expected in problems(req)


def test_content_type_and_json_are_checked() -> None:
    form = WireRequest(
        "POST",
        f"{JOBS}/abc/actions",
        Headers({"X-Auth-Token": TOKEN, "Content-Type": "text/plain"}),
        b"{not json",
    )
    assert ("request_headers", "", "content-type") in problems(form)
    assert ("request_body", "", "json") in problems(form)


def signed(headers_change: dict[str, str | None]) -> WireRequest:
    outgoing = httpx.Request(
        "POST",
        f"http://127.0.0.1:1{JOBS}/abc/actions",
        json={"action_type": "terminate"},
    )
    flow = AkSkAuth("AKEXAMPLE", "sk-secret", project_id=PROJECT).auth_flow(outgoing)
    signed_request = next(flow)
    headers = dict(signed_request.headers)
    for name, value in headers_change.items():
        headers.pop(name, None)
        if value is not None:
            headers[name] = value
    return WireRequest("POST", signed_request.url.path, Headers(headers), signed_request.read())


def test_sdk_hmac_sha256_signatures_are_checked_for_form() -> None:
    assert problems(signed({})) == []
    assert ("request_auth", "", "auth") in problems(signed({"x-sdk-date": None}))
    assert ("request_auth", "", "auth") in problems(signed({"x-sdk-date": "yesterday"}))
    assert ("request_auth", "", "auth") in problems(
        signed({"authorization": "SDK-HMAC-SHA256 Credential=AK/2019, Signature=abc"})
    )


def test_violations_never_carry_credentials() -> None:
    bad = signed({"authorization": "Basic sk-secret-in-the-wrong-place"})
    violations = validate_request(load_spec(), bad).findings
    assert violations
    assert all("sk-secret" not in str(v) for v in violations)
    empty = request("GET", f"{JOBS}/abc", headers={"X-Auth-Token": " "})
    assert problems(empty) == [("request_auth", "", "auth")]
    assert TOKEN not in repr(Headers({"X-Auth-Token": TOKEN}))


def test_responses_are_checked_against_their_status() -> None:
    spec = load_spec()
    show = spec.operation("ShowTrainingJobDetails")
    json_headers = Headers({"Content-Type": "application/json"})
    undocumented = WireResponse(418, json_headers, b"{}")
    assert [(v.check, v.rule) for v in validate_response(spec, show, undocumented).findings] == [
        ("response_status", "status")
    ]
    # A job answer without metadata and status departs only from the ledger's decision
    # (required-response-*): a decision binds no server (issue 31 item 4). A phase outside its
    # documented values breaks what the page states.
    missing = WireResponse(200, json_headers, json.dumps({"kind": "job"}).encode())
    assert validate_response(spec, show, missing).findings == []
    lower = {"kind": "job", "metadata": {"id": "j"}, "status": {"phase": "running"}}
    wrong = WireResponse(200, json_headers, json.dumps(lower).encode())
    pointers = {(v.pointer, v.rule) for v in validate_response(spec, show, wrong).findings}
    assert pointers == {("/status/phase", "enum")}
    # The form of Retry-After (delay-seconds) is a decision too: "soon" fails no server, and
    # a missing error_msg breaks the response page's rule.
    error = {"error_code": "ModelArts.2799", "error_msg": "slow down"}
    too_many = WireResponse(
        429,
        Headers({"Content-Type": "application/json", "Retry-After": "soon"}),
        json.dumps(error).encode(),
    )
    assert validate_response(spec, show, too_many).findings == []
    no_message = WireResponse(429, json_headers, json.dumps({"error_code": "X"}).encode())
    assert [(v.check, v.rule) for v in validate_response(spec, show, no_message).findings] == [
        ("response_body", "required")
    ]


def test_each_applicable_check_counts_once_per_exchange() -> None:
    report = RunReport(target="t")
    validate_request(load_spec(), request("PATCH", f"{JOBS}/abc")).record(report)
    assert report.tallies["request_method"].failed == 1
    # No operation answers PATCH: the checks of an operation's parameters, auth and body do not
    # apply, so they neither pass nor fail.
    assert set(report.tallies) == {"request_path", "request_method"}
    assert int(report.exit_code) == 1


def test_missing_required_properties_are_each_reported_once() -> None:
    # jsonschema reports N missing properties N times, each time listing all N: once read as
    # N x N violations (issue 14). Each missing property is one finding, and the request is
    # one failed evaluation of request_body.
    spec = load_spec()
    create = spec.operation("CreateTrainingJob")
    required = spec.deref(create.request_schema)["required"]
    assert len(required) >= 2
    verdict = validate_request(spec, request("POST", JOBS, {}))
    assert sorted(f.pointer for f in verdict.findings) == sorted(f"/{n}" for n in required)
    report = RunReport(target="t")
    verdict.record(report)
    assert report.tallies["request_body"].failed == 1
    assert len(report.failures) == len(required)


def test_wire_checks_are_registered_with_title_and_meaning() -> None:
    names = request_checks()
    assert names[:2] == ("request_path", "request_method")
    for name in names:
        assert REGISTRY[name].product == "wire"
        assert REGISTRY[name].title
        assert REGISTRY[name].meaning


def test_wire_checks_and_the_reference_server_agree_on_integer_ranges() -> None:
    """node_count is int32: 2**40 breaks the wire checks as it breaks the server (one model)."""
    from modelarts_kit_server import ManualClock, ServerSettings, create_app

    from tests.server.server_support import Api, SyncASGITransport

    body = {"kind": "job", "metadata": {"name": "big"}}
    body["spec"] = {"resource": {"flavor_id": "f", "node_count": 2**40}}
    assert problems(request("POST", JOBS, body)) == [
        ("request_body", "/spec/resource/node_count", "maximum")
    ]
    server = create_app(ServerSettings(clock=ManualClock()))
    try:
        transport = SyncASGITransport(server)
        with httpx.Client(transport=transport, base_url="http://127.0.0.1") as client:
            assert Api(client, load_spec()).create(body).status_code == 400
    finally:
        server.close()


def test_a_client_sending_what_only_the_sdk_has_is_not_failed_for_it() -> None:
    """The vendor SDK sends it, so the service accepts it (issue 31 item 7)."""
    output = {"name": "o", "remote": {"obs": {"obs_url": "obs://b/o/"}}, "access_method": "x"}
    body = {"kind": "job", "metadata": {"name": "sdk"}, "algorithm": {"outputs": [output]}}
    assert validate_request(load_spec(), request("POST", JOBS, body)).findings == []
    output["not_even_the_sdk"] = "x"
    [finding] = validate_request(load_spec(), request("POST", JOBS, body)).findings
    assert (finding.pointer, finding.rule) == (
        "/algorithm/outputs/0/not_even_the_sdk",
        "additionalProperties",
    )
    assert "guidance" in finding.title  # a server need not reject it
