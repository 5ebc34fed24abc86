"""AK/SK signing against the official SDK's signer (the oracle), and credential handling."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

import httpx
import pytest
import requests
from huaweicloudsdkcore.sdk_request import SdkRequest
from huaweicloudsdkcore.signer.signer import Signer
from modelarts_kit_contracts.server.run import RunOptions, ServerTarget, run_server_contract
from modelarts_kit_contracts.transport_auth import (
    AkSkHttpxAuth,
    AkSkRequestsAuth,
    CredentialError,
    Credentials,
    sign_request,
)
from modelarts_kit_server import AkSkCredential, ServerSettings, create_app

from tests.fresh_process import printed_in_a_fresh_process

AK, SK = "TESTACCESSKEY0001", "test-secret-key-do-not-use"
DATE = "20261121T101459Z"
CASES = [
    ("POST", "/v2/p1/training-jobs", [], b'{"kind":"job","metadata":{"name":"a"}}'),
    ("GET", "/v2/p1/training-jobs/3faf5c03-aaa1", [], b""),
    ("POST", "/v2/p1/training-jobs/id%20with%20space/actions", [], b'{"action_type":"x"}'),
    ("GET", "/v2/p1/training-jobs", [("z", "1"), ("a", "x y"), ("a~", "~")], b""),
]


def oracle(method: str, path: str, query: list[tuple[str, str]], body: bytes) -> str:
    headers = {
        "Content-Type": "application/json",
        "X-Project-Id": "p1",
        "X-Sdk-Date": DATE,
        "Host": "127.0.0.1:8000",
    }
    if not body:
        del headers["Content-Type"]
    request = SdkRequest(
        method=method,
        schema="http",
        host="127.0.0.1:8000",
        resource_path=path,
        query_params=list(query),
        header_params=headers,
        body=body,
    )
    Signer(SimpleNamespace(ak=AK, sk=SK)).sign(request)
    return str(request.header_params["Authorization"])


@pytest.mark.parametrize(("method", "path", "query", "body"), CASES)
def test_signature_matches_the_vendor_sdk(
    method: str, path: str, query: list[tuple[str, str]], body: bytes
) -> None:
    url = "http://127.0.0.1:8000" + path
    if query:
        url += "?" + "&".join(f"{k}={v.replace(' ', '%20')}" for k, v in query)
    headers = {"X-Project-Id": "p1", "X-Sdk-Date": DATE}
    if body:
        headers["Content-Type"] = "application/json"
    added = sign_request(method, url, headers, body, ak=AK, sk=SK)
    assert added["Authorization"] == oracle(method, path, query, body)
    assert added["Host"] == "127.0.0.1:8000"


def test_date_header_is_added_when_absent() -> None:
    now = datetime(2026, 11, 21, 10, 14, 59, tzinfo=UTC)
    added = sign_request("GET", "http://h/v2/p/x", {}, None, ak=AK, sk=SK, now=now)
    assert added["X-Sdk-Date"] == DATE


def test_requests_and_httpx_adapters_sign_the_final_body() -> None:
    prepared = requests.Request(
        "POST", "http://127.0.0.1:8000/v2/p1/training-jobs", data=b'{"a":1}'
    ).prepare()
    AkSkRequestsAuth(AK, SK)(prepared)
    signed = dict(prepared.headers)
    expected = sign_request(
        "POST",
        "http://127.0.0.1:8000/v2/p1/training-jobs",
        {"X-Sdk-Date": str(signed["X-Sdk-Date"])},
        b'{"a":1}',
        ak=AK,
        sk=SK,
    )
    assert signed["Authorization"] == expected["Authorization"]

    request = httpx.Request("POST", "http://127.0.0.1:8000/v2/p1/training-jobs", content=b'{"a":1}')
    flow = AkSkHttpxAuth(AK, SK).auth_flow(request)
    sent = next(flow)
    assert sent.headers["Authorization"].startswith("SDK-HMAC-SHA256 Access=" + AK)


def test_secrets_never_in_repr() -> None:
    credentials = Credentials(ak=AK, sk=SK, project_id="p1")
    for text in (
        repr(credentials),
        repr(credentials.requests_auth()),
        repr(credentials.httpx_auth()),
    ):
        assert SK not in text
        assert AK not in text
    assert "tok-secret" not in repr(Credentials(token="tok-secret"))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"token": "t", "ak": AK, "sk": SK}, "not both"),
        ({"ak": AK}, "--sk is required"),
        ({"sk": SK}, "--ak is required"),
        ({"token": " padded "}, "--token"),
    ],
)
def test_bad_credential_combinations(kwargs: dict[str, str], message: str) -> None:
    with pytest.raises(CredentialError, match=message):
        Credentials(**kwargs)


def test_aksk_run_against_the_reference_server() -> None:
    """Every scenario request is signed at the transport; a wrong SK is refused."""
    project = "aksk0project"
    settings = ServerSettings(aksk=(AkSkCredential(AK, SK, project),))
    app = create_app(settings)
    try:
        options = RunOptions(
            credentials=Credentials(ak=AK, sk=SK, project_id=project),
            project_id=project,
            other_project_id=project[::-1],
            phases=("examples",),
            final_phase_wait_s=0.0,
        )
        report = run_server_contract(ServerTarget.asgi(app), options)
    finally:
        app.close()
    assert report.failures == [], [f"{f.check}: {f.title}" for f in report.failures]
    assert report.tallies["create_then_show_returns_sent"].passed == 4  # 2 bodies: create, show
    assert report.tallies["credentials_required"].passed >= 6
    assert "ignored_auth" not in report.tallies  # cannot work with transport signing


def test_a_server_run_loads_neither_httpx_nor_the_reporters() -> None:
    """A server run sends through requests and renders nothing: importing it loads no httpx
    (its command-line module pulls in click, rich and pygments), nor the reporters (rich);
    the httpx signer is still there for whoever asks for it."""

    code = (
        "import sys\n"
        "import modelarts_kit_contracts.server.run\n"
        "import modelarts_kit_contracts.transport_auth as t\n"
        "heavy = ('httpx', 'rich', 'modelarts_kit_contracts.core.reporters')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
        "print(t.AkSkHttpxAuth.__name__, 'httpx' in sys.modules)\n"
    )
    assert printed_in_a_fresh_process(code)[:2] == ["[]", "AkSkHttpxAuth True"]
