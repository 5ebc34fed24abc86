"""``AkSkAuth`` signs byte-identically to the official SDK core's ``SDK-HMAC-SHA256`` signer.

``huaweicloudsdkcore`` is a test-only dependency: the oracle, never used by the client.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from huaweicloudsdkcore.auth.credentials import BasicCredentials
from huaweicloudsdkcore.sdk_request import SdkRequest
from huaweicloudsdkcore.signer.signer import Signer
from modelarts_training_client import AkSkAuth, TrainingJobsClient

AK = "HPUAEXAMPLEAK0123456"
SK = "sEcReTsKeXaMpLe0123456789abcdefGHIJKLMN"
PROJECT_ID = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
SIGNING_TIME = datetime(2026, 11, 21, 22, 30, 5, tzinfo=UTC)


def sdk_authorization(request: httpx.Request) -> str:
    """What the SDK computes for the same method, URL, signed headers and body."""
    signed = request.headers["Authorization"].split("SignedHeaders=")[1].split(",")[0].split(";")
    headers = {name: request.headers[name] for name in signed}
    raw_path = request.url.raw_path.decode("ascii").split("?", 1)[0]
    sdk_request = SdkRequest(
        method=request.method,
        schema=request.url.scheme,
        host=request.url.netloc.decode("ascii"),
        resource_path=raw_path,
        query_params=list(request.url.params.multi_items()),
        header_params=headers,
        body=request.content or None,
    )
    signed_request = Signer(BasicCredentials(AK, SK)).sign(sdk_request)
    authorization: str = signed_request.header_params["Authorization"]
    return authorization


def signed(
    method: str, url: str, body: bytes | None, content_type: str | None, project: str | None
) -> httpx.Request:
    headers = {"Content-Type": content_type} if content_type else {}
    request = httpx.Request(method, url, content=body, headers=headers)
    AkSkAuth(AK, SK, project, clock=lambda: SIGNING_TIME).sign(request)
    return request


CASES = [
    ("GET", "https://modelarts.cn-north-4.myhuaweicloud.com/v2/p/training-jobs/j1", None, None),
    (
        "POST",
        "https://modelarts.cn-north-4.myhuaweicloud.com/v2/p/training-jobs",
        json.dumps({"kind": "job", "metadata": {"name": "a"}}).encode(),
        "application/json",
    ),
    (
        "POST",
        "https://modelarts.cn-north-4.myhuaweicloud.com/v2/p/training-jobs/j1/actions",
        b'{"action_type":"terminate"}',
        "application/json;charset=UTF-8",
    ),
    (
        "GET",
        "https://example.com:8443/v1/items?limit=10&offset=0&name=a%20b&name=%E4%B8%AD",
        None,
        None,
    ),
    ("DELETE", "https://example.com/v1/a%2Fb/%E4%B8%AD%E6%96%87/~tilde?x=1&x=0&empty=", None, None),
    ("PUT", "https://example.com/v1/upload/", b"\x00\x01binary", "application/octet-stream"),
    ("PATCH", "https://example.com/", '{"é": "ü"}'.encode(), "application/json"),
]


@pytest.mark.parametrize(("method", "url", "body", "content_type"), CASES)
@pytest.mark.parametrize("project", [None, PROJECT_ID])
def test_signature_matches_the_sdk(
    method: str, url: str, body: bytes | None, content_type: str | None, project: str | None
) -> None:
    request = signed(method, url, body, content_type, project)
    assert request.headers["Authorization"] == sdk_authorization(request)
    assert request.headers["X-Sdk-Date"] == "20261121T223005Z"
    assert request.headers["Authorization"].startswith(f"SDK-HMAC-SHA256 Access={AK}, ")
    signed_names = request.headers["Authorization"].split("SignedHeaders=")[1].split(",")[0]
    assert "host" in signed_names.split(";")
    assert ("x-project-id" in signed_names) is (project is not None)


def test_signature_changes_with_every_input() -> None:
    base = signed("GET", "https://example.com/v1/a?q=1", None, None, PROJECT_ID)
    variants = [
        signed("POST", "https://example.com/v1/a?q=1", None, None, PROJECT_ID),
        signed("GET", "https://example.com/v1/b?q=1", None, None, PROJECT_ID),
        signed("GET", "https://example.com/v1/a?q=2", None, None, PROJECT_ID),
        signed("GET", "https://example.org/v1/a?q=1", None, None, PROJECT_ID),
        signed("GET", "https://example.com/v1/a?q=1", None, None, "other-project"),
        signed("GET", "https://example.com/v1/a?q=1", b"{}", "application/json", PROJECT_ID),
    ]
    signatures = {r.headers["Authorization"].rsplit("Signature=", 1)[1] for r in variants}
    assert base.headers["Authorization"].rsplit("Signature=", 1)[1] not in signatures
    assert len(signatures) == len(variants)


def test_the_client_sends_sdk_identical_signatures(
    recorder: Any, create_job_example: dict[str, Any], show_job_example: dict[str, Any]
) -> None:
    answer = httpx.Response(200, content=json.dumps(show_job_example).encode())
    created = httpx.Response(201, content=json.dumps(show_job_example).encode())
    mock = recorder(created, answer, answer)
    auth = AkSkAuth(AK, SK, PROJECT_ID, clock=lambda: SIGNING_TIME)
    with TrainingJobsClient(
        project_id=PROJECT_ID, auth=auth, transport=httpx.MockTransport(mock)
    ) as client:
        client.create_training_job(create_job_example)
        client.show_training_job_details("job-1")
        client.stop_training_job("job-1", {"action_type": "terminate"})
    assert len(mock.requests) == 3
    for request in mock.requests:
        assert urlsplit(str(request.url)).hostname == "modelarts.cn-north-4.myhuaweicloud.com"
        assert request.headers["X-Project-Id"] == PROJECT_ID
        assert request.headers["Authorization"] == sdk_authorization(request)


def test_aksk_repr_and_errors_hide_secrets() -> None:
    auth = AkSkAuth(AK, SK, PROJECT_ID)
    assert AK not in repr(auth)
    assert SK not in repr(auth)
    client = TrainingJobsClient(project_id=PROJECT_ID, auth=auth)
    assert SK not in repr(client)
    assert AK not in repr(client)
    client.close()
    with pytest.raises(ValueError, match="sk must be") as caught:
        AkSkAuth(AK, "")
    assert AK not in str(caught.value)
