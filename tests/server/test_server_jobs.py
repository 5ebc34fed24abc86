"""Jobs: server-generated fields, echo, lifecycle on the manual clock, terminate, isolation."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

import httpx
import pytest
from modelarts_kit_server import (
    DEV_PROJECT_ID,
    SIMULATE_ANNOTATION,
    LifecycleTimings,
    ManualClock,
    ReferenceServer,
    ServerSettings,
    create_app,
)
from modelarts_kit_spec import Spec

from .server_support import Api, SyncASGITransport, check_error, job_body

OTHER_PROJECT = "f" * 32
TIMINGS = LifecycleTimings()
# The curated spec's normal course has two phases before the running one (Creating, Pending):
# they share the startup time.
PHASE_S = TIMINGS.startup_s / 2
RUNNING_AT_S = TIMINGS.startup_s
FINISHED_AT_S = RUNNING_AT_S + TIMINGS.running_s


def spec_defaults(spec: Spec, schema: Any, instance: Mapping[str, Any]) -> dict[str, Any]:
    """Absent properties with a ``default`` in the request schema, for objects the client sent."""
    node = spec.deref(schema)
    found: dict[str, Any] = {}
    for name, sub in (node.get("properties") or {}).items():
        resolved = spec.deref(sub)
        if name not in instance and "default" in resolved:
            found[name] = resolved["default"]
    return found


def test_create_fills_server_fields_and_echoes_the_request(
    api: Api, spec: Spec, clock: ManualClock
) -> None:
    body = job_body(
        "echo-1",
        algorithm={"command": "python train.py", "parameters": [{"name": "lr", "value": "0.1"}]},
        spec={"resource": {"flavor_id": "modelarts.vm.cpu.2u", "node_count": 2}},
    )
    body["metadata"]["description"] = "first job"
    response = api.create(body)
    assert response.status_code == 201
    job = response.json()
    metadata = job["metadata"]
    assert uuid.UUID(metadata["id"]).version == 4
    assert metadata["create_time"] == clock.now_ms()
    assert metadata["user_name"]
    assert job["kind"] == "job"
    assert job["algorithm"] == body["algorithm"]
    assert job["spec"] == body["spec"]
    assert metadata["name"] == "echo-1"
    assert metadata["description"] == "first job"
    # Every default the spec declares for the metadata object is filled in, from the spec.
    create = spec.operation("CreateTrainingJob")
    metadata_schema = spec.deref(create.request_schema)["properties"]["metadata"]
    for name, default in spec_defaults(spec, metadata_schema, body["metadata"]).items():
        assert metadata[name] == default
    assert job["status"]["tasks"] == ["worker-0", "worker-1"]


def test_show_returns_the_created_job(api: Api) -> None:
    created = api.create(job_body("show-1")).json()
    shown = api.show(created["metadata"]["id"]).json()
    assert shown == created


def test_server_owned_fields_are_not_taken_from_the_client(api: Api) -> None:
    body = job_body("owned-1")
    body["metadata"].update({"id": "mine", "create_time": 5, "user_name": "mallory"})
    body["status"] = {"phase": "Completed"}
    job = api.create(body).json()
    assert job["metadata"]["id"] != "mine"
    assert job["metadata"]["create_time"] != 5
    assert job["metadata"]["user_name"] != "mallory"
    assert job["status"]["phase"] == "Creating"


def test_environments_map_comes_back_in_the_response_shape(api: Api) -> None:
    env = {"NCCL_DEBUG": "INFO", "NCCL_IB_DISABLE": "0"}
    job = api.create(job_body("env-1", algorithm={"environments": env})).json()
    returned = job["algorithm"]["environments"]
    merged: dict[str, str] = {}
    for item in returned if isinstance(returned, list) else [returned]:
        merged.update(item)
    assert merged == env


def phase(api: Api, job_id: str) -> dict[str, Any]:
    return dict(api.show(job_id).json()["status"])


def test_lifecycle_creating_pending_running_completed(api: Api, clock: ManualClock) -> None:
    created_ms = clock.now_ms()
    job_id = api.created_id("life-1")
    status = phase(api, job_id)
    assert (status["phase"], status["secondary_phase"]) == ("Creating", "Creating")
    assert status["duration"] == 0
    assert status["start_time"] == 0
    assert status["task_statuses"] == []
    assert status["running_records"] == []

    clock.advance(PHASE_S)
    status = phase(api, job_id)
    assert (status["phase"], status["secondary_phase"]) == ("Pending", "Queuing")
    assert status["duration"] == 0
    assert status["start_time"] == 0

    clock.advance(PHASE_S + 7)
    status = phase(api, job_id)
    start_ms = created_ms + int(RUNNING_AT_S * 1000)
    assert (status["phase"], status["secondary_phase"]) == ("Running", "Running")
    assert status["start_time"] == start_ms
    assert status["duration"] == 7000
    assert status["running_records"] == [
        {"start_at": start_ms // 1000, "start_type": "init_or_rescheduled"}
    ]
    assert [t["task"] for t in status["task_statuses"]] == ["worker-0"]

    clock.advance(TIMINGS.running_s)
    status = phase(api, job_id)
    assert (status["phase"], status["secondary_phase"]) == ("Completed", "Completed")
    assert status["duration"] == int(TIMINGS.running_s * 1000)
    (record,) = status["running_records"]
    assert record["end_at"] == (start_ms + int(TIMINGS.running_s * 1000)) // 1000
    assert record["end_reason"] == "job completed"
    assert all(t["exit_code"] == 0 for t in status["task_statuses"])
    clock.advance(3600)
    assert phase(api, job_id) == status  # a finished job no longer changes


def test_failed_through_the_simulate_annotation(api: Api, clock: ManualClock) -> None:
    body = job_body("fail-1")
    body["metadata"]["annotations"] = {SIMULATE_ANNOTATION: "failed"}
    job_id = api.create(body).json()["metadata"]["id"]
    clock.advance(RUNNING_AT_S)
    assert phase(api, job_id)["phase"] == "Running"
    clock.advance(TIMINGS.running_s)
    status = phase(api, job_id)
    assert (status["phase"], status["secondary_phase"]) == ("Failed", "Failed")
    assert status["task_statuses"][0]["exit_code"] != 0
    assert status["running_records"][0]["end_reason"].startswith("exit with")


def test_unknown_simulate_value_is_an_invalid_parameter(api: Api) -> None:
    body = job_body("fail-2")
    body["metadata"]["annotations"] = {SIMULATE_ANNOTATION: "explode"}
    message = check_error(api.create(body), 400, "ModelArts.2788")
    assert "/metadata/annotations/modelarts-kit~1simulate" in message


@pytest.mark.parametrize("wait_s", [0, PHASE_S, RUNNING_AT_S + 1])
def test_terminate_in_creating_pending_running(api: Api, clock: ManualClock, wait_s: float) -> None:
    job_id = api.created_id("stop-1")
    clock.advance(wait_s)
    was_running = phase(api, job_id)["phase"] == "Running"
    response = api.terminate(job_id)
    assert response.status_code == 202
    status = response.json()["status"]
    assert (status["phase"], status["secondary_phase"]) == ("Terminating", "Terminating")
    assert response.json()["metadata"]["id"] == job_id
    clock.advance(TIMINGS.terminating_s)
    status = phase(api, job_id)
    assert status["phase"] == "Terminated"
    assert status["duration"] == (1000 if was_running else 0)
    assert bool(status["running_records"]) is was_running
    check_error(api.terminate(job_id), 409, "ModelArts.2796")
    clock.advance(3600)
    assert phase(api, job_id)["phase"] == "Terminated"


def test_terminate_while_terminating_is_a_conflict(api: Api) -> None:
    job_id = api.created_id("stop-2")
    assert api.terminate(job_id).status_code == 202
    message = check_error(api.terminate(job_id), 409, "ModelArts.2796")
    assert "Terminating" in message


@pytest.mark.parametrize("outcome", ["completed", "failed"])
def test_terminate_a_finished_job_is_a_conflict(api: Api, clock: ManualClock, outcome: str) -> None:
    body = job_body(f"done-{outcome}")
    body["metadata"]["annotations"] = {SIMULATE_ANNOTATION: outcome}
    job_id = api.create(body).json()["metadata"]["id"]
    clock.advance(FINISHED_AT_S)
    check_error(api.terminate(job_id), 409, "ModelArts.2796")
    assert phase(api, job_id)["phase"] == outcome.capitalize()


def test_unknown_job(api: Api) -> None:
    unknown = str(uuid.uuid4())
    message = check_error(api.show(unknown), 400, "ModelArts.2775")
    assert message == f"Training job (ID: {unknown}) not found."
    check_error(api.terminate(unknown), 400, "ModelArts.2775")


def test_projects_are_isolated(api: Api, app: ReferenceServer) -> None:
    job_id = api.created_id("mine-1")
    check_error(api.show(job_id, project_id=OTHER_PROJECT), 400, "ModelArts.2775")
    check_error(api.terminate(job_id, project_id=OTHER_PROJECT), 400, "ModelArts.2775")
    assert phase(api, job_id)["phase"] == "Creating"
    assert app.store.count(DEV_PROJECT_ID) == 1
    assert app.store.count(OTHER_PROJECT) == 0


def test_duplicate_name_within_a_project(api: Api, app: ReferenceServer) -> None:
    api.created_id("twin")
    message = check_error(api.create(job_body("twin")), 400, "ModelArts.2751")
    assert message == "Duplicate training job (name twin)."
    assert api.create(job_body("twin"), project_id=OTHER_PROJECT).status_code == 201
    assert app.store.count() == 2


def test_every_response_has_its_own_request_id(api: Api) -> None:
    ids = {api.show("nope").headers["x-request-id"] for _ in range(5)}
    assert len(ids) == 5


def test_id_seed_and_manual_clock_make_runs_reproducible(spec: Spec) -> None:
    def run() -> list[Any]:
        app = create_app(ServerSettings(clock=ManualClock(), id_seed=3))
        with httpx.Client(transport=SyncASGITransport(app), base_url="http://t") as client:
            api = Api(client, spec)
            bodies = [api.create(job_body(f"r{n}")).json() for n in range(3)]
        app.close()
        return bodies

    first = run()
    assert first == run()
    assert len({job["metadata"]["id"] for job in first}) == 3
    assert all(uuid.UUID(job["metadata"]["id"]).version == 4 for job in first)
