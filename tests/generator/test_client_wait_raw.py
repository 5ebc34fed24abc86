"""The generated client's raw responses (``with_raw_response``) and ``wait_for_training_job``,
both read from the spec: the final phases are the spec's lifecycle."""

from __future__ import annotations

import copy
import json
from typing import Any

import httpx
import pytest
from modelarts_kit_spec import load_spec
from modelarts_training_client import (
    TRAINING_JOB_FINAL_PHASES,
    TRAINING_JOB_PHASES,
    ApiResponse,
    AsyncTrainingJobsClient,
    JobResponse,
    NotFoundError,
    TokenAuth,
    TrainingJobsClient,
    WaitTimeoutError,
)

PROJECT_ID = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
BASE_URL = "https://modelarts.test-region.example.com"
JOB_ID = "3faf5c03-aaa1-4cbe-879d-24b05d997347"


def job_in(example: dict[str, Any], phase: str) -> httpx.Response:
    body = copy.deepcopy(example)
    body["status"]["phase"] = phase
    return httpx.Response(200, content=json.dumps(body).encode(), headers={"X-Request-Id": phase})


def make_client(handler: Any, sleep: Any = None) -> TrainingJobsClient:
    return TrainingJobsClient(
        project_id=PROJECT_ID,
        base_url=BASE_URL,
        auth=TokenAuth("t"),
        transport=httpx.MockTransport(handler),
        sleep=sleep,
    )


def test_the_phase_constants_are_the_specs_lifecycle() -> None:
    lifecycle = load_spec().meaning.lifecycle
    assert lifecycle.phases == TRAINING_JOB_PHASES
    assert set(TRAINING_JOB_FINAL_PHASES) == lifecycle.final


def test_raw_response_carries_status_headers_request_id_body_and_model(
    recorder: Any, show_job_example: dict[str, Any]
) -> None:
    raw = json.dumps({**show_job_example, "x_new": 1}).encode()
    mock = recorder(httpx.Response(200, content=raw, headers={"X-Request-Id": "req-7"}))
    with make_client(mock) as client:
        response = client.with_raw_response.show_training_job_details(JOB_ID)
    assert isinstance(response, ApiResponse)
    assert response.status_code == 200
    assert response.request_id == "req-7"
    assert response.headers["x-request-id"] == "req-7"
    assert response.content == raw
    assert response.json()["x_new"] == 1
    assert isinstance(response.parsed, JobResponse)
    assert response.parsed.metadata.id == show_job_example["metadata"]["id"]


def test_raw_response_errors_are_the_same_exceptions(recorder: Any) -> None:
    body = {"error_code": "ModelArts.2786", "error_msg": "mismatch"}
    mock = recorder(httpx.Response(404, content=json.dumps(body).encode()))
    with make_client(mock) as client, pytest.raises(NotFoundError) as raised:
        client.with_raw_response.show_training_job_details(JOB_ID)
    assert raised.value.error_code == "ModelArts.2786"


def test_wait_polls_with_backoff_until_a_final_phase(
    recorder: Any, show_job_example: dict[str, Any], fake_sleep: Any
) -> None:
    course = ["Creating", "Pending", "Running", "Running", "Running", "Completed"]
    mock = recorder(*(job_in(show_job_example, phase) for phase in course))
    with make_client(mock, fake_sleep) as client:
        job = client.wait_for_training_job(JOB_ID, poll=1.0, max_poll=4.0, timeout=600)
    assert job.status.phase == "Completed"
    assert len(mock.requests) == len(course)
    assert fake_sleep.delays == [1.0, 2.0, 4.0, 4.0, 4.0]  # doubling, capped at max_poll


def test_wait_until_other_phases(
    recorder: Any, show_job_example: dict[str, Any], fake_sleep: Any
) -> None:
    mock = recorder(*(job_in(show_job_example, p) for p in ["Creating", "Pending", "Running"]))
    with make_client(mock, fake_sleep) as client:
        job = client.wait_for_training_job(JOB_ID, until={"Running"}, poll=0.5)
    assert job.status.phase == "Running"
    assert fake_sleep.delays == [0.5, 1.0]


def test_wait_times_out_with_the_last_response(
    recorder: Any, show_job_example: dict[str, Any], fake_sleep: Any
) -> None:
    mock = recorder(job_in(show_job_example, "Running"))
    with make_client(mock, fake_sleep) as client, pytest.raises(WaitTimeoutError) as raised:
        client.wait_for_training_job(JOB_ID, timeout=0)
    error = raised.value
    assert isinstance(error, TimeoutError)
    assert error.phase == "Running"
    assert error.last_response.parsed.status.phase == "Running"
    assert error.last_response.request_id == "Running"
    assert fake_sleep.delays == []
    assert JOB_ID in str(error)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [({"until": []}, "until"), ({"until": "Completed"}, "until"), ({"poll": -1}, "poll")],
)
def test_wait_rejects_bad_arguments(kwargs: dict[str, Any], words: str) -> None:
    client = make_client(lambda request: httpx.Response(500))
    with client, pytest.raises(ValueError, match=words):
        client.wait_for_training_job(JOB_ID, **kwargs)


async def test_async_wait_and_raw_response(
    show_job_example: dict[str, Any], fake_async_sleep: Any
) -> None:
    phases = iter(["Pending", "Failed"])

    def handler(request: httpx.Request) -> httpx.Response:
        return job_in(show_job_example, next(phases))

    async with AsyncTrainingJobsClient(
        project_id=PROJECT_ID,
        base_url=BASE_URL,
        auth=TokenAuth("t"),
        transport=httpx.MockTransport(handler),
        sleep=fake_async_sleep,
    ) as client:
        job = await client.wait_for_training_job(JOB_ID, poll=3.0)
        assert job.status.phase == "Failed"
        assert fake_async_sleep.delays == [3.0]
        phases = iter(["Running"])
        response = await client.with_raw_response.show_training_job_details(JOB_ID)
        assert response.parsed.status.phase == "Running"
