"""Authentication: tokens (global and project-bound) and SDK-HMAC-SHA256 signatures.

The AK/SK tests sign requests with the official SDK's signer (``huaweicloudsdkcore``) as the
oracle: what it signs must verify, and any change to what it signed must not.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from huaweicloudsdkcore.auth.credentials import BasicCredentials
from huaweicloudsdkcore.sdk_request import SdkRequest
from modelarts_kit_server import (
    DEV_PROJECT_ID,
    DEV_TOKEN,
    ManualClock,
    ServerSettings,
    TokenGrant,
    create_app,
)
from modelarts_kit_server.errors import ConfigError
from modelarts_kit_spec import Spec

from .server_support import Api, SyncASGITransport, check_documented, check_error, job_body

GLOBAL_TOKEN = "global-token-value-1"
BOUND_TOKEN = "bound-token-value-2"
AK = "AKTESTACCESSKEY0001"
SK = "sk-very-secret-signing-key-0001"
OTHER_PROJECT = "f" * 32
HOST = "127.0.0.1"


@pytest.fixture
def secured(caplog: pytest.LogCaptureFixture) -> Iterator[tuple[httpx.Client, Spec]]:
    caplog.set_level(logging.DEBUG)
    settings = ServerSettings(
        clock=ManualClock(),
        tokens=(GLOBAL_TOKEN, f"{BOUND_TOKEN}:{DEV_PROJECT_ID}"),
        aksk=(f"{AK}:{SK}:{DEV_PROJECT_ID}",),
    )
    server = create_app(settings)
    with httpx.Client(transport=SyncASGITransport(server), base_url=f"http://{HOST}") as client:
        yield client, server.spec
    server.close()
    for secret in (GLOBAL_TOKEN, BOUND_TOKEN, SK, DEV_TOKEN + "x"):
        assert secret not in caplog.text


def api_with(secured: tuple[httpx.Client, Spec], token: str | None) -> Api:
    client, spec = secured
    return Api(client, spec, token=token)


def test_missing_token_is_401(secured: tuple[httpx.Client, Spec]) -> None:
    response = api_with(secured, None).show("x")
    message = check_error(response, 401, "ModelArts.0201")
    assert "X-Auth-Token" in message


@pytest.mark.parametrize("token", ["wrong", DEV_TOKEN, " ", GLOBAL_TOKEN + "x"])
def test_unknown_token_is_401(secured: tuple[httpx.Client, Spec], token: str) -> None:
    response = api_with(secured, token).create(job_body("n"))
    assert response.status_code == 401
    assert token.strip() == "" or token not in response.text


def test_global_token_opens_every_project(secured: tuple[httpx.Client, Spec]) -> None:
    api = api_with(secured, GLOBAL_TOKEN)
    assert api.create(job_body("g1")).status_code == 201
    assert api.create(job_body("g1"), project_id=OTHER_PROJECT).status_code == 201


def test_bound_token_opens_only_its_project(secured: tuple[httpx.Client, Spec]) -> None:
    api = api_with(secured, BOUND_TOKEN)
    assert api.create(job_body("b1")).status_code == 201
    message = check_error(
        api.create(job_body("b2"), project_id=OTHER_PROJECT), 404, "ModelArts.2786"
    )
    assert message == (
        f"The project ID ({OTHER_PROJECT}) in the request does not match"
        f" that({DEV_PROJECT_ID}) in the token."
    )
    check_error(api.show("x", project_id=OTHER_PROJECT), 404, "ModelArts.2786")


def test_dev_token_only_without_configured_tokens(api: Api) -> None:
    assert api.create(job_body("dev")).status_code == 201
    assert api.create(job_body("dev"), project_id=OTHER_PROJECT).status_code == 201


def test_credentials_never_appear_in_reprs() -> None:
    settings = ServerSettings(tokens=(GLOBAL_TOKEN,), aksk=(f"{AK}:{SK}:{DEV_PROJECT_ID}",))
    text = repr(settings)
    for secret in (GLOBAL_TOKEN, AK, SK):
        assert secret not in text
    assert GLOBAL_TOKEN not in repr(TokenGrant.parse(GLOBAL_TOKEN))


@pytest.mark.parametrize(
    "bad",
    [
        {"tokens": ("",)},
        {"tokens": ("a b",)},
        {"tokens": ("tok:not/a/project",)},
        {"aksk": ("ak:sk",)},
        {"aksk": (f"{AK}:{SK}:p", f"{AK}:other:p")},
        {"clock_speed": 0},
        {"clock_speed": float("inf")},
        {"clock_speed": float("nan")},
    ],
)
def test_bad_settings_are_refused_without_echoing_secrets(bad: dict[str, Any]) -> None:
    with pytest.raises(ConfigError) as raised:
        ServerSettings(**bad)
    assert SK not in str(raised.value)


# -- AK/SK --------------------------------------------------------------------------------------


def sdk_signed(
    method: str,
    path: str,
    body: bytes = b"",
    *,
    ak: str = AK,
    sk: str = SK,
    project_id: str | None = DEV_PROJECT_ID,
    sdk_date: datetime | None = None,
    query: list[tuple[str, Any]] | None = None,
) -> SdkRequest:
    """A request signed by the official SDK (the oracle)."""
    headers = {"Content-Type": "application/json"} if body else {}
    if sdk_date is not None:
        headers["X-Sdk-Date"] = sdk_date.strftime("%Y%m%dT%H%M%SZ")
    request = SdkRequest(
        method=method,
        schema="http",
        host=HOST,
        resource_path=path,
        query_params=list(query or []),
        header_params=headers,
        body=body,
    )
    return BasicCredentials(ak, sk, project_id).sign_request(request)


def send(client: httpx.Client, request: SdkRequest, *, body: bytes | None = None) -> httpx.Response:
    headers = {k: str(v) for k, v in request.header_params.items()}
    content = request.body if body is None else body
    return client.request(
        request.method, f"http://{HOST}{request.uri}", content=content or b"", headers=headers
    )


JOBS = f"/v2/{DEV_PROJECT_ID}/training-jobs"


def test_sdk_signed_create_show_terminate_verify(secured: tuple[httpx.Client, Spec]) -> None:
    client, spec = secured
    body = json.dumps(job_body("signed-1")).encode()
    response = send(client, sdk_signed("POST", JOBS, body))
    check_documented(spec, spec.operation("CreateTrainingJob"), response)
    assert response.status_code == 201, response.text
    job_id = response.json()["metadata"]["id"]
    response = send(client, sdk_signed("GET", f"{JOBS}/{job_id}"))
    assert response.status_code == 200, response.text
    action = json.dumps({"action_type": "terminate"}).encode()
    response = send(client, sdk_signed("POST", f"{JOBS}/{job_id}/actions", action))
    assert response.status_code == 202, response.text


def test_sdk_signed_query_string_verifies(secured: tuple[httpx.Client, Spec]) -> None:
    client, _ = secured
    query = [("b", "x y/z"), ("a", "1"), ("a", "0~"), ("c", True)]
    response = send(client, sdk_signed("GET", f"{JOBS}/nope", query=query))
    check_error(response, 400, "ModelArts.2775")  # authenticated, then not found


def test_tampered_body_fails(secured: tuple[httpx.Client, Spec]) -> None:
    client, _ = secured
    body = json.dumps(job_body("signed-2")).encode()
    request = sdk_signed("POST", JOBS, body)
    response = send(client, request, body=body.replace(b"signed-2", b"signed-3"))
    check_error(response, 401, "ModelArts.0208")


@pytest.mark.parametrize("part", ["method", "path", "header", "signature"])
def test_any_signed_part_changed_fails(secured: tuple[httpx.Client, Spec], part: str) -> None:
    client, _ = secured
    request = sdk_signed("GET", f"{JOBS}/job-1")
    headers = {k: str(v) for k, v in request.header_params.items()}
    url = f"http://{HOST}{request.uri}"
    method = "GET"
    if part == "method":
        method = "POST"
        url += "/actions"
    elif part == "path":
        url = url.replace("job-1", "job-2")
    elif part == "header":
        headers["X-Project-Id"] = OTHER_PROJECT
    else:
        signature = headers["Authorization"][-64:]
        flipped = ("0" if signature[0] != "0" else "1") + signature[1:]
        headers["Authorization"] = headers["Authorization"][:-64] + flipped
    response = client.request(method, url, headers=headers, content=b"")
    assert response.status_code == 401, response.text


def test_wrong_secret_fails(secured: tuple[httpx.Client, Spec]) -> None:
    client, _ = secured
    response = send(client, sdk_signed("GET", f"{JOBS}/x", sk=SK + "x"))
    check_error(response, 401, "ModelArts.0208")


def test_unknown_access_key_fails(secured: tuple[httpx.Client, Spec]) -> None:
    client, _ = secured
    response = send(client, sdk_signed("GET", f"{JOBS}/x", ak="AKUNKNOWN"))
    message = check_error(response, 401, "ModelArts.3801")
    assert "AKUNKNOWN" not in response.text
    assert "AKUNKNOWN" not in message


@pytest.mark.parametrize("skew_minutes", [-16, 16, 60 * 24])
def test_skewed_date_fails(secured: tuple[httpx.Client, Spec], skew_minutes: int) -> None:
    client, _ = secured
    when = datetime.now(UTC) + timedelta(minutes=skew_minutes)
    response = send(client, sdk_signed("GET", f"{JOBS}/x", sdk_date=when))
    message = check_error(response, 401, "ModelArts.4203")
    assert "X-Sdk-Date" in message


def test_slightly_skewed_date_passes(secured: tuple[httpx.Client, Spec]) -> None:
    client, _ = secured
    when = datetime.now(UTC) - timedelta(minutes=14)
    response = send(client, sdk_signed("GET", f"{JOBS}/x", sdk_date=when))
    check_error(response, 400, "ModelArts.2775")


@pytest.mark.parametrize(
    "authorization",
    [
        "SDK-HMAC-SHA256",
        "SDK-HMAC-SHA256 Credential=AK/20190307/cn/apig, SignedHeaders=host, Signature=ab",
        "SDK-HMAC-SHA256 Access=AK, SignedHeaders=, Signature=abcd",
        "SDK-HMAC-SHA256 Access=AK, SignedHeaders=host, Signature=not-hex",
    ],
)
def test_malformed_authorization_fails(
    secured: tuple[httpx.Client, Spec], authorization: str
) -> None:
    client, _ = secured
    response = client.get(f"{JOBS}/x", headers={"Authorization": authorization})
    check_error(response, 401, "ModelArts.0206")


def test_date_must_be_signed(secured: tuple[httpx.Client, Spec]) -> None:
    client, _ = secured
    request = sdk_signed("GET", f"{JOBS}/x")
    headers = {k: str(v) for k, v in request.header_params.items()}
    headers["Authorization"] = headers["Authorization"].replace("x-sdk-date", "x-sdk-datum")
    response = client.get(f"{JOBS}/x", headers=headers)
    check_error(response, 401, "ModelArts.0206")


def test_signed_project_binds(secured: tuple[httpx.Client, Spec]) -> None:
    client, _ = secured
    path = f"/v2/{OTHER_PROJECT}/training-jobs/x"
    response = send(client, sdk_signed("GET", path, project_id=None))
    check_error(response, 404, "ModelArts.2786")


def test_signature_without_configured_keys_fails(api: Api) -> None:
    request = sdk_signed("GET", f"{JOBS}/x")
    response = send(api.client, request)
    check_error(response, 401, "ModelArts.3801")
