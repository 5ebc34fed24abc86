"""The spec-driven mock: generated answers, request validation, scenarios, CLI."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from modelarts_kit_contracts.core.wire import Headers, WireRequest, WireResponse, validate_response
from modelarts_kit_contracts.mock import (
    INT64_MAX,
    INT64_MIN,
    MockServer,
    ResponseGenerator,
    ScenarioError,
    Variant,
    load_scenario,
)
from modelarts_kit_spec import load_spec

from tests.virtual_clock import VirtualClock

from .cli_helpers import announced_url

PROJECT = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
JOBS = f"/v2/{PROJECT}/training-jobs"
AUTH = {"X-Auth-Token": "any-token"}
SECONDARY_PHASES = {
    "Creating", "Queuing", "Running", "Failed", "Completed", "Terminating", "Terminated",
    "CreateFailed", "TerminatedFailed", "Unknown", "Lost",
}  # fmt: skip


def leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [leaf for item in value.values() for leaf in leaves(item)]
    if isinstance(value, list):
        return [leaf for item in value for leaf in leaves(item)]
    return [value]


def keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for item in value.values() for k in keys(item)}
    if isinstance(value, list):
        return {k for item in value for k in keys(item)}
    return set()


@pytest.fixture(scope="module")
def drawn() -> dict[Variant, list[Any]]:
    spec = load_spec()
    schema = spec.operation("ShowTrainingJobDetails").success.schema
    generator = ResponseGenerator(spec)
    return {v: generator.draw(schema, v, count=3, seed_value=11) for v in Variant}


def test_every_variant_draws_spec_valid_bodies(drawn: dict[Variant, list[Any]]) -> None:
    spec = load_spec()
    validator = spec.validator(spec.operation("ShowTrainingJobDetails").success.schema)
    for variant, bodies in drawn.items():
        assert len(bodies) == 3, variant
        for body in bodies:
            assert list(validator.iter_errors(body)) == [], variant


def test_variants_cover_their_edge_case(drawn: dict[Variant, list[Any]]) -> None:
    assert all(set(b) == {"kind", "metadata", "status"} for b in drawn[Variant.MINIMAL])
    assert all(b["status"]["node_count_metrics"] is None for b in drawn[Variant.NULLS])
    assert all(b["status"]["tasks"] == [] for b in drawn[Variant.EMPTY_ARRAYS])
    assert all(len(b["status"]["tasks"]) == 40 for b in drawn[Variant.LONG_ARRAYS])
    assert all(any(k.startswith("x_future_") for k in b) for b in drawn[Variant.EXTRA_FIELDS])
    for body in drawn[Variant.UNKNOWN_ENUMS]:
        assert body["status"]["secondary_phase"] not in SECONDARY_PHASES  # open: may grow
        assert body["status"]["phase"] in {
            "Creating",
            "Pending",
            "Running",
            "Failed",
            "Completed",
            "Terminating",
            "Terminated",
            "Abnormal",
        }
    for body in drawn[Variant.INT64_EXTREMES]:
        numbers = {x for x in leaves(body) if isinstance(x, int) and not isinstance(x, bool)}
        assert numbers & {INT64_MAX, INT64_MIN, 2**53 + 1, -(2**53) - 1}
    for body in drawn[Variant.UNICODE]:
        assert any(isinstance(x, str) and not x.isascii() for x in leaves(body))
    full_keys = keys(drawn[Variant.FULL][0])
    assert {"workspace_id", "user_name", "secondary_phase", "duration"} <= full_keys


def test_generation_is_deterministic_for_a_seed() -> None:
    spec = load_spec()
    schema = spec.operation("CreateTrainingJob").request_schema
    first = ResponseGenerator(spec).draw(schema, Variant.TYPICAL, count=4, seed_value=5)
    again = ResponseGenerator(spec).draw(schema, Variant.TYPICAL, count=4, seed_value=5)
    other = ResponseGenerator(spec).draw(schema, Variant.TYPICAL, count=4, seed_value=6)
    assert first == again
    assert first != other


async def test_mock_validates_requests_and_answers_from_the_spec() -> None:
    spec = load_spec()
    mock = MockServer(spec, seed_value=4, error_rate=0.0)
    transport = httpx.ASGITransport(app=mock)
    async with httpx.AsyncClient(transport=transport, base_url="http://mock") as client:
        for _ in range(5):
            answer = await client.get(f"{JOBS}/job-1", headers=AUTH)
            assert answer.status_code == 200
            show = spec.operation("ShowTrainingJobDetails")
            wire = WireResponse(200, Headers(answer.headers.multi_items()), answer.content)
            assert validate_response(spec, show, wire).findings == []
        bad = await client.post(f"{JOBS}/job-1/actions", json={"action_type": "restart"})
        assert bad.status_code == 401  # no credentials: the documented 401, vendor body
        assert re.fullmatch(r"ModelArts\.\d{4}", bad.json()["error_code"])
        recorded = (await client.get("/__mock__/violations")).json()
        assert recorded["requests"] == 6
        assert {(v["check"], v["pointer"], v["rule"]) for v in recorded["violations"]} == {
            ("request_auth", "", "auth"),
            ("request_body", "/action_type", "enum"),
        }
        assert (await client.delete("/__mock__/violations")).status_code == 204
        assert mock.violations == []
        # Unknown paths and methods: the errors the spec documents at its gateway.
        errors = load_spec().meaning.errors
        unknown = await client.get("/v3/nothing", headers=AUTH)
        path_not_found = errors.gateway_error("path-not-found")
        assert unknown.status_code == path_not_found.status
        assert unknown.json()["error_code"] == path_not_found.code
        wrong = await client.patch(f"{JOBS}/j1", headers=AUTH)
        assert wrong.status_code == errors.gateway_error("method-not-allowed").status
        route = spec.match("PATCH", f"{JOBS}/j1")
        assert route is not None
        assert "GET" in route.allowed_methods
        assert wrong.headers["Allow"] == ", ".join(route.allowed_methods)


async def test_documented_errors_carry_vendor_body_and_retry_after() -> None:
    spec = load_spec()
    mock = MockServer(spec, seed_value=2, error_rate=1.0)
    statuses: dict[int, httpx.Response] = {}
    errors = spec.meaning.errors
    stop = spec.meaning.roles.terminate.operation_id
    # A valid request is never told it broke a rule: not one of these codes.
    broken = {
        code
        for meaning in ("invalid-parameter", "malformed-body", "unsupported-action")
        for code in errors.codes_for(stop, meaning)
    } - errors.codes_for(stop, "not-found")
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=mock), base_url="http://m") as c:
        for n in range(60):
            answer = await c.post(
                f"{JOBS}/job-{n}/actions", json={"action_type": "terminate"}, headers=AUTH
            )
            statuses.setdefault(answer.status_code, answer)
            code = answer.json()["error_code"]
            assert errors.accepts(stop, answer.status_code, code), (answer.status_code, code)
            assert code not in broken
    # 413 (body too large) is earned by a request, never drawn for a valid one.
    assert set(statuses) == {400, 401, 403, 404, 409, 429, 500, 503}
    assert int(statuses[429].headers["Retry-After"]) >= 0
    for answer in statuses.values():
        assert set(answer.json()) <= {"error_code", "error_msg", "error_solution"}
        assert answer.json()["error_msg"]


def write(tmp_path: Path, document: object) -> Path:
    path = tmp_path / "scenario.yaml"
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_scenario_answers_in_order_then_reports_exhaustion(tmp_path: Path) -> None:
    spec = load_spec()
    body = {"kind": "job", "metadata": {"id": "j1", "name": "n", "create_time": 1},
            "status": {"phase": "Running"}}  # fmt: skip
    scenario = load_scenario(
        write(
            tmp_path,
            {
                "steps": [
                    {"operation": "ShowTrainingJobDetails", "status": 429,
                     "headers": {"Retry-After": "0"}},
                    {"operation": "ShowTrainingJobDetails", "status": 200, "body": body},
                    {"operation": "StopTrainingJob", "status": 202, "generate": "nulls"},
                ]
            },
        ),
        spec,
    )  # fmt: skip
    mock = MockServer(spec, scenario=scenario)
    transport = mock.httpx_transport()
    with httpx.Client(transport=transport, base_url="http://mock", headers=AUTH) as client:
        first = client.get(f"{JOBS}/j1")
        assert (first.status_code, first.headers["Retry-After"]) == (429, "0")
        assert first.json()["error_code"] == "ModelArts.2799"  # the spec's example
        assert client.get(f"{JOBS}/j1").json() == body
        # Step 3 expects a stop; a show arrives: answered, and recorded as out of order.
        third = client.get(f"{JOBS}/j1")
        assert third.status_code == 202
        assert third.json()["status"]["node_count_metrics"] is None
        assert client.get(f"{JOBS}/j1").status_code == 500
    assert [v.check for v in mock.violations] == ["scenario_order", "scenario_exhausted"]


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ({"steps": []}, "/steps: expected a non-empty list"),
        ({"steps": [{"status": 99}]}, "/steps/0/status: expected an HTTP status"),
        ({"steps": [{"status": 200, "generate": "full"}]}, "/steps/0/generate: needs 'operation'"),
        (
            {"steps": [{"operation": "StopTrainingJob", "status": 202, "generate": "weird"}]},
            "/steps/0/generate: expected one of typical",
        ),
        (
            {"steps": [{"operation": "StopTrainingJob", "status": 202, "body": {"kind": 5}}]},
            "/steps/0/body/kind: expected type",
        ),
        ({"steps": [{"status": 200, "colour": "red"}]}, "/steps/0/colour: unknown key"),
        ({"steps": [{"status": 200}], "on_exhausted": "x"}, "/on_exhausted: expected one of"),
    ],
)
def test_scenario_errors_name_the_pointer(tmp_path: Path, document: object, message: str) -> None:
    with pytest.raises(ScenarioError, match=re.escape(message)):
        load_scenario(write(tmp_path, document))


def test_off_spec_steps_are_allowed_when_marked(tmp_path: Path) -> None:
    step = {"operation": "StopTrainingJob", "status": 202, "body": {"kind": 5}, "off_spec": True}
    scenario = load_scenario(write(tmp_path, {"steps": [step]}))
    assert len(scenario.steps) == 1


def test_mock_cli_prints_violations_and_exits_1(tmp_path: Path) -> None:
    report = tmp_path / "mock.json"
    process = subprocess.Popen(
        [sys.executable, "-m", "modelarts_kit", "contract", "mock", "--seed", "3",
         "--max-requests", "1", "--max-time", "60", "--report", f"json:{report}"],
        stderr=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    assert process.stderr is not None
    url = announced_url(process.stderr)
    answer = httpx.post(f"{url}{JOBS}", json={"metadata": {"name": "x"}}, headers=AUTH)
    _, err = process.communicate(timeout=60)
    assert answer.status_code == 400
    assert process.returncode == 1
    assert "request_body [CreateTrainingJob] /kind (required)" in err
    document = json.loads(report.read_text())
    assert [(f["check"], f["pointer"]) for f in document["failures"]] == [("request_body", "/kind")]


def test_mock_cli_counts_each_violation_once_and_times_the_session(tmp_path: Path) -> None:
    # Issue 14: N missing required properties gave N x N lines, each printed twice, and the
    # JSON report said duration_s 0.0 with no response_times, however long the session. What
    # the duration counts is pinned on a virtual clock below, not by sleeping here.
    required = load_spec().deref(load_spec().operation("CreateTrainingJob").request_schema)[
        "required"
    ]
    report = tmp_path / "mock.json"
    process = subprocess.Popen(
        [sys.executable, "-m", "modelarts_kit", "contract", "mock", "--seed", "3",
         "--max-requests", "2", "--max-time", "60", "--report", f"json:{report}"],
        stderr=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    assert process.stderr is not None
    url = announced_url(process.stderr)
    empty = httpx.post(f"{url}{JOBS}", json={}, headers=AUTH)
    shown = httpx.get(f"{url}{JOBS}/job-1", headers=AUTH)
    _, err = process.communicate(timeout=60)
    assert empty.status_code == 400
    assert shown.status_code < 600
    lines = [line for line in err.splitlines() if "violation:" in line]
    assert sorted(line.split("] ")[1].split(" ")[0] for line in lines) == sorted(
        f"/{name}" for name in required
    )
    assert f"2 request(s), {len(required)} violation(s)" in err
    document = json.loads(report.read_text())
    checks = {c["check"]: (c["passed"], c["failed"]) for c in document["checks"]}
    assert checks["request_body"] == (1, 1)  # two requests: one broke the schema
    # One fault (a create without its required fields), one failure: its places and cases.
    (failure,) = document["failures"]
    assert failure["cases"] == 1
    assert len(failure["also_at"]) == len(required) - 1
    assert document["duration_s"] > 0  # measured, not the 0.0 of issue 14
    assert set(document["response_times"]) == {"CreateTrainingJob", "ShowTrainingJobDetails"}
    assert document["response_times"]["CreateTrainingJob"]["count"] == 1


async def test_invalid_request_gets_the_error_that_fits_and_names_the_rule() -> None:
    # Issue 14: the mock answered {} with a random documented 400 ("Duplicate training job").
    spec = load_spec()
    mock = MockServer(spec, seed_value=0, error_rate=0.0)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=mock), base_url="http://m") as c:
        for _ in range(5):
            empty = await c.post(JOBS, json={}, headers=AUTH)
            assert empty.status_code == 400
            assert empty.json()["error_code"] == "ModelArts.2788"
            assert "/kind" in empty.json()["error_msg"]
            assert "required" in empty.json()["error_msg"]
        not_json = await c.post(
            JOBS, content=b"{", headers={**AUTH, "Content-Type": "application/json"}
        )
        assert not_json.json()["error_code"] == "ModelArts.2787"
        restart = await c.post(f"{JOBS}/j1/actions", json={"action_type": "restart"}, headers=AUTH)
        assert restart.json()["error_code"] == "ModelArts.2812"
        assert "restart" in restart.json()["error_msg"]
    rules = {(f.check, f.pointer, f.rule) for f in mock.violations}
    assert ("request_body", "/kind", "required") in rules
    assert ("request_body", "", "json") in rules
    assert ("request_body", "/action_type", "enum") in rules


def test_mock_cli_rejects_a_bad_scenario(tmp_path: Path) -> None:
    bad = write(tmp_path, {"steps": [{"status": 1000}]})
    result = subprocess.run(
        [sys.executable, "-m", "modelarts_kit", "contract", "mock", "--scenario", str(bad)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert "/steps/0/status" in result.stderr


def test_random_answers_are_deterministic_for_a_seed() -> None:
    def answers(seed_value: int) -> list[tuple[int, bytes]]:
        mock = MockServer(load_spec(), seed_value=seed_value, pool_size=4)
        with httpx.Client(transport=mock.httpx_transport(), base_url="http://m") as client:
            return [
                (r.status_code, r.content)
                for r in (client.get(f"{JOBS}/j{n}", headers=AUTH) for n in range(8))
            ]

    assert answers(7) == answers(7)
    assert answers(7) != answers(8)


@pytest.mark.parametrize("name", ["JobAlgorithm", "JobEngine"])
@pytest.mark.parametrize("variant", [Variant.FULL, Variant.TYPICAL, Variant.MINIMAL])
def test_all_of_presence_rules_hold_in_drawn_objects(name: str, variant: Variant) -> None:
    """``allOf`` parts that forbid pairs (``not: {required: [a, b]}``) constrain which fields a
    drawn object carries: even an object with every field present breaks none of them."""
    spec = load_spec()
    schema = {"$ref": f"#/components/schemas/{name}"}
    assert spec.walker.view(schema).parts  # the schema merges allOf parts
    validator = spec.validator(schema)
    for body in ResponseGenerator(spec).draw(schema, variant, count=5, seed_value=3):
        assert list(validator.iter_errors(body)) == [], body


def test_the_session_lasts_from_its_start_to_its_report(monkeypatch: pytest.MonkeyPatch) -> None:
    """The report's duration counts from ``begin`` (the mock announcing its URL) to the report,
    waits for the client included: read on a virtual clock, so it is exact."""
    spec = load_spec()
    mock = MockServer(spec, seed_value=3, error_rate=0.0)
    clock = VirtualClock()
    monkeypatch.setattr(time, "monotonic", clock.peek)  # the mock reads no other clock
    clock.advance(30)  # before the session: not counted
    mock.begin()
    clock.advance(90)  # the client's first request comes late
    mock.handle(WireRequest("GET", f"{JOBS}/job-1", Headers(AUTH.items())))
    clock.advance(5)
    report = mock.report("t")
    assert report.duration_s == 95.0
    assert len(report.response_times_ms["ShowTrainingJobDetails"]) == 1


def test_a_draw_does_not_depend_on_the_machines_load(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same seed draws the same values however slow the machine: a draw is bounded by its
    count, never cut short by the clock (which made answers and the saved vendor report differ
    between a quiet and a loaded machine)."""
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    generator = ResponseGenerator(load_spec())
    quiet = generator.draw(schema, Variant.TYPICAL, count=12, seed_value=5)
    clock = iter(range(0, 10**9, 1000))  # every reading of the clock is 1000 s later
    monkeypatch.setattr(time, "monotonic", lambda: float(next(clock)))
    loaded = generator.draw(schema, Variant.TYPICAL, count=12, seed_value=5)
    assert len(quiet) == 12
    assert loaded == quiet


def test_contract_mock_on_a_busy_port_fails_before_drawing_any_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 34 item 10: on a busy port ``contract mock`` failed only after 75 s of drawing
    its answers. The order, not the time: the port is bound first, nothing is drawn."""
    import socket

    from click.testing import CliRunner
    from modelarts_kit.main import cli
    from modelarts_kit_contracts.mock import MockServer

    drawn: list[str] = []

    def warm(self: MockServer) -> None:
        drawn.append("warm")

    monkeypatch.setattr(MockServer, "warm", warm)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = CliRunner().invoke(cli, ["contract", "mock", "--port", str(port)])
    assert result.exit_code == 2, result.output
    assert result.output.splitlines() == [
        f"error: cannot serve on 127.0.0.1:{port}: Address already in use"
    ]
    assert drawn == []
