"""The generated ModelArts client against ``httpx.MockTransport``: every operation, every
error family, retries, tolerant and lossless responses, strict requests, no secrets."""

from __future__ import annotations

import copy
import json
from typing import Any

import httpx
import pytest
from modelarts_training_client import (
    ApiError,
    AsyncTrainingJobsClient,
    AuthenticationError,
    BadRequestError,
    ClientError,
    ConflictError,
    DecodeError,
    Job,
    JobResponse,
    ModelArtsError,
    NotFoundError,
    PermissionDeniedError,
    RateLimitError,
    RequestValidationError,
    ResponseValidationError,
    RetryPolicy,
    ServerError,
    TokenAuth,
    TrainingJobsClient,
    TransportError,
    UnprocessableEntityError,
)
from modelarts_training_client._http import DEFAULT_TIMEOUT

PROJECT_ID = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
BASE_URL = "https://modelarts.test-region.example.com"
JOB_ID = "3faf5c03-aaa1-4cbe-879d-24b05d997347"
TOKEN = "secret-iam-token-value-0123456789"
NO_JITTER = RetryPolicy(random=lambda: 1.0)


def json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.Response(status, content=json.dumps(body).encode(), headers=headers or {})


def error_body(code: str, msg: str, solution: str | None = None) -> dict[str, str]:
    body = {"error_code": code, "error_msg": msg}
    if solution is not None:
        body["error_solution"] = solution
    return body


def make_client(recorder: Any, sleep: Any = None, **kwargs: Any) -> TrainingJobsClient:
    return TrainingJobsClient(
        project_id=PROJECT_ID,
        base_url=BASE_URL,
        auth=TokenAuth(TOKEN),
        transport=httpx.MockTransport(recorder),
        sleep=sleep,
        retry=kwargs.pop("retry", NO_JITTER),
        **kwargs,
    )


# -- every operation ----------------------------------------------------------------


def test_create_training_job_sends_the_validated_body(
    recorder: Any, create_job_example: dict[str, Any], show_job_example: dict[str, Any]
) -> None:
    mock = recorder(json_response(201, show_job_example, {"X-Request-Id": "req-1"}))
    with make_client(mock) as client:
        job = client.create_training_job(Job.model_validate(create_job_example))
    (request,) = mock.requests
    assert request.method == "POST"
    assert request.url == f"{BASE_URL}/v2/{PROJECT_ID}/training-jobs"
    assert request.headers["Content-Type"] == "application/json"
    assert request.headers["X-Auth-Token"] == TOKEN
    assert json.loads(request.content) == create_job_example
    assert isinstance(job, JobResponse)
    assert job.metadata.id == show_job_example["metadata"]["id"]


def test_create_accepts_a_plain_mapping(
    recorder: Any, create_job_example: dict[str, Any], show_job_example: dict[str, Any]
) -> None:
    mock = recorder(json_response(201, show_job_example))
    with make_client(mock) as client:
        client.create_training_job(create_job_example)
    assert json.loads(mock.requests[0].content) == create_job_example


def test_show_training_job_details(recorder: Any, show_job_example: dict[str, Any]) -> None:
    mock = recorder(json_response(200, show_job_example))
    with make_client(mock) as client:
        job = client.show_training_job_details(JOB_ID)
    (request,) = mock.requests
    assert request.method == "GET"
    assert request.url.path == f"/v2/{PROJECT_ID}/training-jobs/{JOB_ID}"
    assert request.content == b""
    assert job.model_dump(mode="json", exclude_unset=True) == show_job_example


def test_stop_training_job(recorder: Any, show_job_example: dict[str, Any]) -> None:
    terminated = copy.deepcopy(show_job_example)
    terminated["status"]["phase"] = "Terminated"
    mock = recorder(json_response(202, terminated))
    with make_client(mock) as client:
        job = client.stop_training_job(JOB_ID, {"action_type": "terminate"})
    (request,) = mock.requests
    assert request.method == "POST"
    assert request.url.path == f"/v2/{PROJECT_ID}/training-jobs/{JOB_ID}/actions"
    assert json.loads(request.content) == {"action_type": "terminate"}
    assert job.status.phase == "Terminated"


# -- errors ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "expected"),
    [
        (400, BadRequestError),
        (401, AuthenticationError),
        (403, PermissionDeniedError),
        (404, NotFoundError),
        (409, ConflictError),
        (422, UnprocessableEntityError),
        (429, RateLimitError),
        (418, ClientError),
        (500, ServerError),
        (503, ServerError),
        (302, ApiError),
    ],
)
def test_every_status_family_maps_to_its_exception(
    recorder: Any, status: int, expected: type[ApiError]
) -> None:
    body = error_body("ModelArts.2796", "Not allowed to terminate.", "Check the job phase.")
    # POST: never retried, so each status is seen exactly once.
    mock = recorder(json_response(status, body, {"X-Request-Id": "req-42"}))
    with make_client(mock) as client, pytest.raises(expected) as caught:
        client.stop_training_job(JOB_ID, {"action_type": "terminate"})
    error = caught.value
    assert type(error) is expected
    assert isinstance(error, ApiError)
    assert isinstance(error, ModelArtsError)
    assert (error.status, error.error_code) == (status, "ModelArts.2796")
    assert error.error_msg == "Not allowed to terminate."
    assert error.error_solution == "Check the job phase."
    assert error.request_id == "req-42"
    assert error.operation == "stop_training_job"
    message = str(error)
    for part in ("stop_training_job", str(status), "ModelArts.2796", "req-42", "Check the job"):
        assert part in message
    assert len(mock.requests) == 1


def test_error_without_json_body_still_has_status_and_reason(recorder: Any) -> None:
    mock = recorder(httpx.Response(404, content=b"<html>gone</html>"))
    with make_client(mock) as client, pytest.raises(NotFoundError) as caught:
        client.stop_training_job(JOB_ID, {"action_type": "terminate"})
    assert caught.value.error_code is None
    assert caught.value.error_msg is None
    assert caught.value.reason == "Not Found"
    assert "HTTP 404: Not Found" in str(caught.value)
    assert caught.value.body == "<html>gone</html>"


def test_empty_error_msg_is_kept_exactly(recorder: Any) -> None:
    mock = recorder(json_response(400, error_body("ModelArts.2788", "")))
    with make_client(mock) as client, pytest.raises(BadRequestError) as caught:
        client.stop_training_job(JOB_ID, {"action_type": "terminate"})
    assert caught.value.error_msg == ""
    assert caught.value.error_code == "ModelArts.2788"
    assert "ModelArts.2788: Bad Request" in str(caught.value)


def test_undecodable_success_body_is_a_decode_error(recorder: Any) -> None:
    mock = recorder(httpx.Response(200, content=b"{not json", headers={"X-Request-Id": "r-9"}))
    with make_client(mock) as client, pytest.raises(DecodeError) as caught:
        client.show_training_job_details(JOB_ID)
    assert not isinstance(caught.value, ResponseValidationError)
    assert "not JSON" in str(caught.value)
    assert "r-9" in str(caught.value)


def test_empty_success_body_is_a_decode_error(recorder: Any) -> None:
    mock = recorder(httpx.Response(200, content=b""))
    with make_client(mock) as client, pytest.raises(DecodeError, match="empty body"):
        client.show_training_job_details(JOB_ID)


# -- retries --------------------------------------------------------------------------


def test_get_is_retried_on_503_with_exponential_backoff(
    recorder: Any, fake_sleep: Any, show_job_example: dict[str, Any]
) -> None:
    mock = recorder(
        json_response(503, error_body("ModelArts.0001", "busy")),
        json_response(502, {}),
        json_response(504, {}),
        json_response(200, show_job_example),
    )
    with make_client(mock, fake_sleep) as client:
        client.show_training_job_details(JOB_ID)
    assert len(mock.requests) == 4
    assert fake_sleep.delays == [0.5, 1.0, 2.0]


def test_jitter_spreads_the_delay(recorder: Any, fake_sleep: Any) -> None:
    policy = RetryPolicy(random=lambda: 0.0, jitter=0.5, max_attempts=2)
    mock = recorder(json_response(503, {}), json_response(503, {}))
    with make_client(mock, fake_sleep, retry=policy) as client, pytest.raises(ServerError):
        client.show_training_job_details(JOB_ID)
    assert fake_sleep.delays == [0.25]


def test_retry_after_is_honoured_on_429(
    recorder: Any, fake_sleep: Any, show_job_example: dict[str, Any]
) -> None:
    mock = recorder(
        json_response(429, error_body("ModelArts.2799", "Too many"), {"Retry-After": "7"}),
        json_response(200, show_job_example),
    )
    with make_client(mock, fake_sleep) as client:
        client.show_training_job_details(JOB_ID)
    assert fake_sleep.delays == [7.0]


def test_retries_stop_after_max_attempts(recorder: Any, fake_sleep: Any) -> None:
    mock = recorder(*(json_response(503, error_body("ModelArts.0002", "down")) for _ in range(4)))
    with make_client(mock, fake_sleep) as client, pytest.raises(ServerError) as caught:
        client.show_training_job_details(JOB_ID)
    assert caught.value.status == 503
    assert len(mock.requests) == 4
    assert len(fake_sleep.delays) == 3


@pytest.mark.parametrize("status", [429, 502, 503, 504])
def test_create_is_never_retried(
    recorder: Any, fake_sleep: Any, status: int, create_job_example: dict[str, Any]
) -> None:
    mock = recorder(json_response(status, {}, {"Retry-After": "1"}))
    with make_client(mock, fake_sleep) as client, pytest.raises(ApiError):
        client.create_training_job(create_job_example)
    assert len(mock.requests) == 1
    assert fake_sleep.delays == []


def test_connection_errors_are_retried_for_get(
    recorder: Any, fake_sleep: Any, show_job_example: dict[str, Any]
) -> None:
    mock = recorder(
        httpx.ConnectError("connection refused"),
        httpx.ReadTimeout("timed out"),
        json_response(200, show_job_example),
    )
    with make_client(mock, fake_sleep) as client:
        client.show_training_job_details(JOB_ID)
    assert len(mock.requests) == 3
    assert fake_sleep.delays == [0.5, 1.0]


def test_connection_error_on_create_is_a_transport_error_at_once(
    recorder: Any, fake_sleep: Any, create_job_example: dict[str, Any]
) -> None:
    mock = recorder(httpx.ConnectError("connection refused"))
    with make_client(mock, fake_sleep) as client, pytest.raises(TransportError) as caught:
        client.create_training_job(create_job_example)
    assert caught.value.attempts == 1
    assert "ConnectError: connection refused" in str(caught.value)
    assert caught.value.operation == "create_training_job"
    assert fake_sleep.delays == []


def test_transport_error_after_exhausted_retries(recorder: Any, fake_sleep: Any) -> None:
    mock = recorder(*(httpx.ConnectTimeout("slow") for _ in range(4)))
    with make_client(mock, fake_sleep) as client, pytest.raises(TransportError) as caught:
        client.show_training_job_details(JOB_ID)
    assert caught.value.attempts == 4
    assert "after 4 attempts" in str(caught.value)


def test_retry_after_http_date_and_cap() -> None:
    policy = RetryPolicy(max_retry_after=30.0, random=lambda: 1.0)
    assert policy.delay(1, "Wed, 21 Oct 2015 07:28:00 GMT") == 0.0  # in the past
    assert policy.delay(1, "3600") == 30.0
    assert policy.delay(3, "garbage") == 2.0  # unparseable: plain backoff
    assert policy.delay(10, None) == 20.0  # capped at backoff_max


# -- tolerant, lossless responses -------------------------------------------------------


def test_unknown_fields_are_kept(recorder: Any, show_job_example: dict[str, Any]) -> None:
    body = copy.deepcopy(show_job_example)
    body["brand_new_top_level"] = {"nested": [1, 2]}
    body["status"]["brand_new_status_field"] = "x"
    mock = recorder(json_response(200, body))
    with make_client(mock) as client:
        job = client.show_training_job_details(JOB_ID)
    dumped = job.model_dump(mode="json", exclude_unset=True)
    assert dumped["brand_new_top_level"] == {"nested": [1, 2]}
    assert dumped["status"]["brand_new_status_field"] == "x"
    assert dumped == body


def test_unknown_enum_value_is_accepted_and_visible(
    recorder: Any, show_job_example: dict[str, Any]
) -> None:
    body = copy.deepcopy(show_job_example)
    body["status"]["phase"] = "Hibernating"
    mock = recorder(json_response(200, body))
    with make_client(mock) as client:
        job = client.show_training_job_details(JOB_ID)
    assert job.status.phase == "Hibernating"


def test_null_stays_distinct_from_absent(recorder: Any, show_job_example: dict[str, Any]) -> None:
    with_null = copy.deepcopy(show_job_example)
    with_null["metadata"]["description"] = None
    without = copy.deepcopy(show_job_example)
    del without["metadata"]["description"]
    mock = recorder(json_response(200, with_null), json_response(200, without))
    with make_client(mock) as client:
        first = client.show_training_job_details(JOB_ID)
        second = client.show_training_job_details(JOB_ID)
    assert "description" in first.metadata.model_fields_set
    assert "description" not in second.metadata.model_fields_set
    assert first.model_dump(mode="json", exclude_unset=True) == with_null
    assert second.model_dump(mode="json", exclude_unset=True) == without


@pytest.mark.parametrize(
    ("field", "value", "path"),
    [
        (("metadata", "create_time"), "1636447346315", "metadata.create_time"),
        (("metadata", "name"), 5, "metadata.name"),
        (("status", "duration"), 1.5, "status.duration"),
        (("status", "phase"), 3, "status.phase"),
    ],
)
def test_wrong_types_are_errors_not_coerced(
    recorder: Any,
    show_job_example: dict[str, Any],
    field: tuple[str, str],
    value: Any,
    path: str,
) -> None:
    body = copy.deepcopy(show_job_example)
    body[field[0]][field[1]] = value
    mock = recorder(json_response(200, body))
    with make_client(mock) as client, pytest.raises(ResponseValidationError) as caught:
        client.show_training_job_details(JOB_ID)
    assert path in str(caught.value)
    assert any(error[0].startswith(path) for error in caught.value.errors)


# -- strict requests --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda body: body["metadata"].update(name="bad name!"), "body.metadata.name"),
        (lambda body: body["metadata"].update(name="x" * 65), "body.metadata.name"),
        (lambda body: body["metadata"].update(name=123), "body.metadata.name"),
        (lambda body: body.update(kind="not-a-kind"), "body.kind"),
        (lambda body: body.pop("metadata"), "body.metadata"),
    ],
)
def test_invalid_request_is_refused_before_sending(
    recorder: Any, create_job_example: dict[str, Any], change: Any, path: str
) -> None:
    body = copy.deepcopy(create_job_example)
    change(body)
    mock = recorder()
    with make_client(mock) as client, pytest.raises(RequestValidationError) as caught:
        client.create_training_job(body)
    assert mock.requests == []
    assert path in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_invalid_path_parameter_is_refused(recorder: Any) -> None:
    mock = recorder()
    with make_client(mock) as client, pytest.raises(RequestValidationError) as caught:
        client.show_training_job_details("../etc/passwd")
    assert "training_job_id" in str(caught.value)
    assert mock.requests == []


def test_invalid_action_is_refused(recorder: Any) -> None:
    mock = recorder()
    with make_client(mock) as client, pytest.raises(RequestValidationError, match="action_type"):
        client.stop_training_job(JOB_ID, {"action_type": "pause"})
    assert mock.requests == []


# -- secrets, endpoint, lifecycle ---------------------------------------------------------


def test_secrets_never_appear_in_reprs_or_errors(recorder: Any) -> None:
    mock = recorder(json_response(401, error_body("ModelArts.2784", "Invalid token")))
    client = make_client(mock)
    assert TOKEN not in repr(client)
    assert TOKEN not in repr(TokenAuth(TOKEN))
    with client, pytest.raises(AuthenticationError) as caught:
        client.stop_training_job(JOB_ID, {"action_type": "terminate"})
    assert TOKEN not in str(caught.value)
    assert TOKEN not in repr(caught.value)


def test_endpoint_from_region_or_base_url() -> None:
    with TrainingJobsClient(project_id=PROJECT_ID, region="ap-southeast-1") as client:
        assert client.base_url == "https://modelarts.ap-southeast-1.myhuaweicloud.com"
    with TrainingJobsClient(project_id=PROJECT_ID) as client:
        assert client.base_url == "https://modelarts.cn-north-4.myhuaweicloud.com"
    with TrainingJobsClient(project_id=PROJECT_ID, base_url="http://127.0.0.1:9/") as client:
        assert client.base_url == "http://127.0.0.1:9"
    with pytest.raises(ValueError, match="either base_url or region"):
        TrainingJobsClient(project_id=PROJECT_ID, base_url=BASE_URL, region="x")
    with pytest.raises(ValueError, match="http"):
        TrainingJobsClient(project_id=PROJECT_ID, base_url="modelarts.example.com")


def test_timeouts_are_on_by_default_and_owned_client_is_closed() -> None:
    client = TrainingJobsClient(project_id=PROJECT_ID)
    assert client._http.timeout == DEFAULT_TIMEOUT
    with client:
        pass
    assert client._http.is_closed


def test_injected_http_client_is_used_and_not_closed(
    recorder: Any, show_job_example: dict[str, Any]
) -> None:
    mock = recorder(json_response(200, show_job_example))
    http = httpx.Client(transport=httpx.MockTransport(mock))
    with TrainingJobsClient(project_id=PROJECT_ID, base_url=BASE_URL, http_client=http) as client:
        client.show_training_job_details(JOB_ID)
    assert len(mock.requests) == 1
    assert not http.is_closed
    http.close()


# -- async: the same template, the same behaviour -----------------------------------------


def make_async_client(recorder: Any, sleep: Any) -> AsyncTrainingJobsClient:
    return AsyncTrainingJobsClient(
        project_id=PROJECT_ID,
        base_url=BASE_URL,
        auth=TokenAuth(TOKEN),
        transport=httpx.MockTransport(recorder),
        sleep=sleep,
        retry=NO_JITTER,
    )


async def test_async_client_every_operation(
    recorder: Any,
    fake_async_sleep: Any,
    create_job_example: dict[str, Any],
    show_job_example: dict[str, Any],
) -> None:
    mock = recorder(
        json_response(201, show_job_example),
        json_response(503, {}),
        json_response(200, show_job_example),
        json_response(202, show_job_example),
    )
    async with make_async_client(mock, fake_async_sleep) as client:
        created = await client.create_training_job(create_job_example)
        shown = await client.show_training_job_details(JOB_ID)
        stopped = await client.stop_training_job(JOB_ID, {"action_type": "terminate"})
    assert created == shown == stopped
    assert [r.method for r in mock.requests] == ["POST", "GET", "GET", "POST"]
    assert fake_async_sleep.delays == [0.5]


async def test_async_client_errors(recorder: Any, fake_async_sleep: Any) -> None:
    mock = recorder(json_response(409, error_body("ModelArts.2796", "Not allowed")))
    async with make_async_client(mock, fake_async_sleep) as client:
        with pytest.raises(ConflictError, match=r"ModelArts\.2796"):
            await client.stop_training_job(JOB_ID, {"action_type": "terminate"})
        with pytest.raises(RequestValidationError):
            await client.show_training_job_details("bad id")
