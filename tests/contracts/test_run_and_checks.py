"""Runner behaviour (reproducibility) and the ModelArts checks as plain functions."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import requests
from modelarts_kit_contracts.core import REGISTRY
from modelarts_kit_contracts.core.findings import RunReport
from modelarts_kit_contracts.core.wire import Exchange, Headers, WireRequest, WireResponse
from modelarts_kit_contracts.server.api_map import ApiMap
from modelarts_kit_contracts.server.bodies import minimal_instance
from modelarts_kit_contracts.server.breaks import constraint_breaks
from modelarts_kit_contracts.server.checks import SCENARIOS
from modelarts_kit_contracts.server.response_checks import (
    terminate_accepted_phase,
    valid_request_accepted,
    vendor_error_body,
)
from modelarts_kit_contracts.server.run import Budget, RunOptions, ServerTarget, run_server_contract
from modelarts_kit_contracts.transport_auth import Credentials
from modelarts_kit_server import DEV_PROJECT_ID, DEV_TOKEN, create_app
from modelarts_kit_spec.meaning import Role


def run(seed: int) -> RunReport:
    app = create_app()
    try:
        options = RunOptions(
            credentials=Credentials(token=DEV_TOKEN),
            project_id=DEV_PROJECT_ID,
            other_project_id="other",
            budget=Budget(max_examples=3, seed=seed),
            phases=("examples", "fuzzing"),
            scenarios=False,
        )
        return run_server_contract(ServerTarget.asgi(app), options)
    finally:
        app.close()


UUID = re.compile(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def sent_requests(monkeypatch: pytest.MonkeyPatch, seed: int) -> list[tuple[str, bytes, bytes]]:
    """What the run sends, with server-made job ids masked (the server draws them at random)."""
    sent: list[tuple[str, bytes, bytes]] = []
    original = requests.Session.send

    def send(self: requests.Session, request: requests.PreparedRequest, **kwargs: Any) -> Any:
        body = request.body if isinstance(request.body, bytes) else b""
        path = UUID.sub(b"<id>", str(request.url).encode())
        sent.append((str(request.method), path, UUID.sub(b"<id>", body)))
        return original(self, request, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(requests.Session, "send", send)
        run(seed)
    return sent


def test_same_seed_same_run(monkeypatch: pytest.MonkeyPatch) -> None:
    first = sent_requests(monkeypatch, 11)
    assert len(first) > 10
    assert sent_requests(monkeypatch, 11) == first
    assert sent_requests(monkeypatch, 12) != first


def test_every_check_is_registered_once_with_its_meaning() -> None:
    reported = {name for scenario in SCENARIOS for name in scenario.reports}
    server = REGISTRY.select("server")
    response_checks = {c.name for c in server if c.function is not None}
    assert reported | response_checks == {c.name for c in server}
    assert all(c.title and c.meaning for c in server)


def test_api_map_finds_the_operations_by_what_they_do() -> None:
    api = ApiMap.from_spec()
    assert (api.create.method, api.show.method, api.terminate.method) == ("post", "get", "post")
    assert api.role_of("GET", api.show.path) is Role.SHOW
    assert api.path(Role.TERMINATE, "p", "j").endswith("/p/training-jobs/j/actions")


def exchange(role: Role | None, status: int, body: object, **extra: object) -> Exchange:
    api = ApiMap.from_spec()
    op = api.operation(role) if role is not None else None
    content_type = str(extra.get("content_type", "application/json"))
    return Exchange(
        request=WireRequest(op.method.upper() if op else "POST", op.path if op else "/"),
        response=WireResponse(
            status,
            Headers({"Content-Type": content_type}),
            json.dumps(body).encode() if not isinstance(body, bytes) else body,
        ),
        operation=op.operation_id if op else "",
        path_params={"training_job_id": "j1"},
        positive=extra.get("positive"),  # type: ignore[arg-type]
    )


def test_response_checks_flag_exactly_the_broken_rule() -> None:
    api = ApiMap.from_spec()
    job = {"metadata": {"id": "j1"}, "status": {"phase": "Running"}}
    violation = terminate_accepted_phase(api, exchange(Role.TERMINATE, 202, job))
    assert violation is not None
    assert violation.pointer == "/status/phase"
    job["status"]["phase"] = "Terminating"
    assert terminate_accepted_phase(api, exchange(Role.TERMINATE, 202, job)) is None

    assert vendor_error_body(api, exchange(Role.SHOW, 400, {"error_code": "X"})) is not None
    good = {"error_code": "ModelArts.2775", "error_msg": "not found"}
    assert vendor_error_body(api, exchange(Role.SHOW, 400, good)) is None
    assert vendor_error_body(api, exchange(Role.SHOW, 401, b"Unauthorized")) is not None
    # The two fields are the response page's rule, quoted; the ModelArts.NNNN form of a code
    # is the ledger's decision, which binds no server (issue 31 item 4).
    missing = vendor_error_body(api, exchange(Role.SHOW, 400, {"error_msg": "no code"}))
    assert missing is not None
    assert 'reference/response.rst, Response Body: "If an error occurs' in missing.evidence
    other_form = {"error_code": "AS.0001", "error_msg": "The format of message is error"}
    assert vendor_error_body(api, exchange(Role.SHOW, 400, other_form)) is None

    rejected = {"error_code": "ModelArts.2788", "error_msg": "bad"}
    assert valid_request_accepted(api, exchange(Role.CREATE, 400, rejected, positive=True))
    assert valid_request_accepted(api, exchange(Role.SHOW, 400, good, positive=True)) is None
    assert valid_request_accepted(api, exchange(Role.CREATE, 400, rejected)) is None


@pytest.mark.parametrize("pointer", [("metadata", "name"), ("kind",)])
def test_constraint_breaks_cover_the_spec_rules(pointer: tuple[str, ...]) -> None:
    api = ApiMap.from_spec()
    paths = {path for path, _, _ in constraint_breaks(api.spec, api.create.request_schema)}
    assert pointer in paths


def test_minimal_instance_is_valid_for_the_create_schema() -> None:
    api = ApiMap.from_spec()
    body = minimal_instance(api.spec, api.create.request_schema)
    body["metadata"]["name"] = "minimal-job"
    assert api.spec.validator(api.create.request_schema).is_valid(body)
