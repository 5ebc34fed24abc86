"""The kit reads the API's meaning from the spec: change a temporary copy of the spec (a new
phase, a newly accepted error code, new enum values) and the reference server and the generated
client follow, with no code change."""

from __future__ import annotations

import copy
import inspect
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
from modelarts_kit_server import LifecycleTimings, ManualClock, ServerSettings, create_app
from modelarts_kit_spec import SPEC_PATH, Spec, load_spec

from .server_support import Api, SyncASGITransport, job_body
from .spec_copies import generated_client, write_spec_copy

NEW_PHASE = "Queued"
NEW_CODE = "ModelArts.1120"  # "Parameter verification failed." (400) in the vendor's table
NEW_FLAVOR_TYPE = "QPU"
NEW_KIND = "quantum_job"
PACKAGE = "changed_spec_client"


def changed_document() -> Any:
    document = copy.deepcopy(load_spec().document)
    schemas = document["components"]["schemas"]
    # 1. a phase between Pending and Running, terminable, with its own secondary phase
    schemas["Status"]["properties"]["phase"]["enum"].append(NEW_PHASE)
    lifecycle = document["x-modelarts-lifecycle"]
    lifecycle["transitions"]["Pending"][0] = NEW_PHASE
    lifecycle["transitions"][NEW_PHASE] = ["Running", "Terminating", "Failed", "Abnormal"]
    lifecycle["terminable"].append(NEW_PHASE)
    lifecycle["secondary-phases"][NEW_PHASE] = ["Queuing"]
    # 2. a newly accepted (and preferred) code for an invalid parameter on create
    create_400 = document["paths"]["/v2/{project_id}/training-jobs"]["post"]["responses"]["400"]
    create_400["x-modelarts-error-codes"]["invalid-parameter"].insert(0, NEW_CODE)
    document["x-modelarts-error-catalogue"].append(
        {
            "code": NEW_CODE,
            "status": 400,
            "name": "Parameter verification failed.",
            "message": "Parameter verification failed.",
            "solution": "System error. Contact technical support.",
        }
    )
    # 3. new enum values: a documented value of an open response enum, a request enum value
    schemas["FlavorDetail"]["properties"]["flavor_type"]["anyOf"][0]["enum"].append(NEW_FLAVOR_TYPE)
    schemas["Job"]["properties"]["kind"]["enum"].append(NEW_KIND)
    schemas["JobResponse"]["properties"]["kind"]["anyOf"][0]["enum"].append(NEW_KIND)
    return document


@pytest.fixture(scope="module")
def changed_spec_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_spec_copy(tmp_path_factory, "changed-spec", changed_document())


@pytest.fixture
def changed(changed_spec_path: Path) -> Iterator[tuple[Api, ManualClock, Spec]]:
    clock = ManualClock()
    timings = LifecycleTimings(startup_s=30, running_s=60, terminating_s=3)
    app = create_app(ServerSettings(clock=clock, spec_path=changed_spec_path, timings=timings))
    spec = load_spec(changed_spec_path)
    with httpx.Client(transport=SyncASGITransport(app), base_url="http://127.0.0.1") as client:
        yield Api(client, spec), clock, spec
    app.close()


def test_the_changed_spec_is_valid(changed_spec_path: Path) -> None:
    from modelarts_kit_spec.meaning import meaning_problems

    spec = load_spec(changed_spec_path)
    assert meaning_problems(spec) == []
    assert spec.meaning.lifecycle.normal_course == ("Creating", "Pending", NEW_PHASE, "Running",
                                                    "Completed")  # fmt: skip


def test_the_server_walks_the_new_phase_and_terminates_in_it(
    changed: tuple[Api, ManualClock, Spec],
) -> None:
    api, clock, _ = changed
    job = api.create(job_body("phases-1")).json()
    job_id = job["metadata"]["id"]
    seen = [job["status"]["phase"]]
    for _ in range(40):
        clock.advance(1)
        seen.append(api.show(job_id).json()["status"]["phase"])
    assert list(dict.fromkeys(seen)) == ["Creating", "Pending", NEW_PHASE, "Running"]
    queued = api.create(job_body("phases-2")).json()["metadata"]["id"]
    clock.advance(25)  # startup 30 s over three phases: the third starts at 20 s
    assert api.show(queued).json()["status"]["phase"] == NEW_PHASE
    stopped = api.terminate(queued, {"action_type": "terminate"})
    assert stopped.status_code == 202
    assert stopped.json()["status"]["phase"] == "Terminating"


def test_the_server_answers_the_newly_preferred_code(
    changed: tuple[Api, ManualClock, Spec],
) -> None:
    api, _, _ = changed
    body = job_body("bad-1")
    body["metadata"]["name"] = "no spaces allowed"
    response = api.create(body)
    assert response.status_code == 400
    assert response.json()["error_code"] == NEW_CODE
    assert "metadata" in response.json()["error_msg"]  # the detail still names the field


def test_the_server_accepts_the_new_request_enum_value(
    changed: tuple[Api, ManualClock, Spec],
) -> None:
    api, _, _ = changed
    body = job_body("kind-1")
    body["kind"] = NEW_KIND
    response = api.create(body)
    assert response.status_code == 201
    assert response.json()["kind"] == NEW_KIND
    # ...which the curated spec refuses
    assert NEW_KIND not in load_spec().at("/components/schemas/Job/properties/kind")["enum"]


@pytest.fixture(scope="module")
def changed_client(
    changed_spec_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ModuleType]:
    with generated_client(changed_spec_path, tmp_path_factory, PACKAGE, "changed-spec-client") as m:
        yield m


def test_the_generated_client_follows(changed_client: Any) -> None:
    assert NEW_PHASE in changed_client.TRAINING_JOB_PHASES
    assert set(changed_client.TRAINING_JOB_FINAL_PHASES) == load_spec().meaning.lifecycle.final
    models = changed_client.models
    detail = models.FlavorDetail.model_fields["flavor_type"].annotation
    assert NEW_FLAVOR_TYPE in repr(detail)
    assert models.Job.model_validate({"kind": NEW_KIND, "metadata": {"name": "a"}}).kind == NEW_KIND
    doc = inspect.getdoc(changed_client.TrainingJobsClient.create_training_job) or ""
    assert NEW_CODE in doc
    assert NEW_CODE not in SPEC_PATH.read_text(encoding="utf-8")  # new to the spec, not the code
