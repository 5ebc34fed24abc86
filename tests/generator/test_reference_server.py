"""The generated client against the reference server: async in-process over
``httpx.ASGITransport``, sync over real HTTP on 127.0.0.1, token and AK/SK auth."""

from __future__ import annotations

import copy
from typing import Any

import httpx
import pytest
from modelarts_kit_server import (
    DEV_PROJECT_ID,
    DEV_TOKEN,
    AkSkCredential,
    ManualClock,
    ServerSettings,
    create_app,
    serve_in_thread,
)
from modelarts_training_client import (
    AkSkAuth,
    AsyncTrainingJobsClient,
    AuthenticationError,
    BadRequestError,
    ClientError,
    ConflictError,
    PermissionDeniedError,
    RequestValidationError,
    TokenAuth,
    TrainingJobsClient,
)

AK = "REFERENCEAK000000001"
SK = "reference-secret-key-0000000000000000000"


def unique_job(example: dict[str, Any], name: str) -> dict[str, Any]:
    body = copy.deepcopy(example)
    body["metadata"]["name"] = name
    return body


@pytest.fixture
def app() -> Any:
    settings = ServerSettings(
        clock=ManualClock(),
        aksk=(AkSkCredential(AK, SK, DEV_PROJECT_ID),),
    )
    return create_app(settings)


def async_client(app: Any, auth: httpx.Auth) -> AsyncTrainingJobsClient:
    http = httpx.AsyncClient(transport=httpx.ASGITransport(app=app))
    return AsyncTrainingJobsClient(
        project_id=DEV_PROJECT_ID, base_url="http://modelarts.local", auth=auth, http_client=http
    )


async def test_async_client_full_lifecycle_with_token(
    app: Any, create_job_example: dict[str, Any]
) -> None:
    async with async_client(app, TokenAuth(DEV_TOKEN)) as client:
        created = await client.create_training_job(unique_job(create_job_example, "gen-async-1"))
        job_id = created.metadata.id
        shown = await client.show_training_job_details(job_id)
        assert shown.metadata.name == "gen-async-1"
        assert shown.metadata.id == job_id
        stopped = await client.stop_training_job(job_id, {"action_type": "terminate"})
        assert stopped.metadata.id == job_id
        assert stopped.status.phase in {"Terminating", "Terminated"}
        with pytest.raises(ClientError) as missing:
            await client.show_training_job_details("no-such-job-0000")
    assert missing.value.error_code is not None
    assert missing.value.error_code.startswith("ModelArts.")
    assert missing.value.request_id


async def test_async_client_with_aksk_signing(app: Any, create_job_example: dict[str, Any]) -> None:
    async with async_client(app, AkSkAuth(AK, SK, DEV_PROJECT_ID)) as client:
        created = await client.create_training_job(unique_job(create_job_example, "gen-aksk-1"))
        shown = await client.show_training_job_details(created.metadata.id)
    assert shown.metadata.name == "gen-aksk-1"


async def test_server_refuses_bad_credentials(app: Any) -> None:
    async with async_client(app, TokenAuth("not-the-dev-token")) as client:
        with pytest.raises((AuthenticationError, PermissionDeniedError)) as caught:
            await client.show_training_job_details("any-job")
    assert DEV_TOKEN not in str(caught.value)
    async with async_client(app, AkSkAuth(AK, "wrong-secret-key")) as client:
        with pytest.raises(ClientError):
            await client.show_training_job_details("any-job")


async def test_terminating_twice_conflicts_or_is_refused(
    app: Any, create_job_example: dict[str, Any]
) -> None:
    async with async_client(app, TokenAuth(DEV_TOKEN)) as client:
        created = await client.create_training_job(unique_job(create_job_example, "gen-twice"))
        await client.stop_training_job(created.metadata.id, {"action_type": "terminate"})
        app.clock.advance(3600)
        with pytest.raises((ConflictError, BadRequestError)) as caught:
            await client.stop_training_job(created.metadata.id, {"action_type": "terminate"})
    assert caught.value.status in {400, 409}


def test_sync_client_over_real_http(create_job_example: dict[str, Any]) -> None:
    with (
        serve_in_thread(ServerSettings(clock=ManualClock())) as base_url,
        TrainingJobsClient(
            project_id=DEV_PROJECT_ID, base_url=base_url, auth=TokenAuth(DEV_TOKEN)
        ) as client,
    ):
        created = client.create_training_job(unique_job(create_job_example, "gen-sync-1"))
        shown = client.show_training_job_details(created.metadata.id)
        assert shown.metadata.id == created.metadata.id
        with pytest.raises(RequestValidationError):
            client.create_training_job(unique_job(create_job_example, "bad name"))
