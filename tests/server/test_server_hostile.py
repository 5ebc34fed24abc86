"""Hostile clients: bodies read only after authentication and never past the limit, large
bodies off the event loop, log lines that a request cannot forge, no 500 for a client's mistake.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import string
import threading
import time
import tracemalloc
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from huaweicloudsdkcore.auth.credentials import BasicCredentials
from huaweicloudsdkcore.sdk_request import SdkRequest
from hypothesis import given
from hypothesis import strategies as st
from modelarts_kit_server import (
    DEV_PROJECT_ID,
    DEV_TOKEN,
    ConfigError,
    ManualClock,
    ReferenceServer,
    ServerSettings,
    create_app,
    serve_in_thread,
)
from modelarts_kit_server.app import (
    INLINE_BODY_BYTES,
    MAX_LARGE_BODIES,
    Receive,
    Scope,
    Send,
    loggable,
)
from modelarts_kit_server.settings import DEFAULT_MAX_BODY_BYTES, VENDOR_MAX_BODY_BYTES

from .server_support import SyncASGITransport, check_error, job_body

JOBS = f"/v2/{DEV_PROJECT_ID}/training-jobs"
AK = "AKHOSTILE0000000001"
SK = "sk-hostile-secret-0001"
TWELVE_MB = 12_000_000
CHUNK = 64 * 1024


@dataclass
class Exchange:
    """One request driven straight into the ASGI app, counting the body bytes it pulled."""

    status: int = 0
    headers: dict[str, str] = field(default_factory=dict)
    body: Any = None
    bytes_pulled: int = 0


def exchange(
    app: ReferenceServer,
    method: str,
    path: str,
    headers: Mapping[str, str],
    body_size: int,
    *,
    body: bytes | None = None,
) -> Exchange:
    """Offer a body of ``body_size`` bytes (``body``, or filler) in 64 KiB chunks."""
    result = Exchange()
    source = body if body is not None else b" " * body_size
    asyncio.run(_drive(app, method, path, headers, source, result))
    return result


async def _drive(
    app: ReferenceServer,
    method: str,
    path: str,
    headers: Mapping[str, str],
    source: bytes,
    result: Exchange,
) -> None:
    offset = 0

    async def receive() -> dict[str, Any]:
        nonlocal offset
        chunk = source[offset : offset + CHUNK]
        offset += len(chunk)
        result.bytes_pulled += len(chunk)
        return {"type": "http.request", "body": chunk, "more_body": offset < len(source)}

    async def send(message: Mapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            result.headers = {k.decode(): v.decode() for k, v in message["headers"]}
            result.status = message["status"]
        else:
            result.body = json.loads(message["body"])

    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
    }
    await app(scope, receive, send)


@pytest.fixture(scope="module")
def secured() -> Any:
    server = create_app(ServerSettings(clock=ManualClock(), aksk=(f"{AK}:{SK}:{DEV_PROJECT_ID}",)))
    yield server
    server.close()


def signed_headers(body: bytes, *, ak: str = AK, date: datetime | None = None) -> dict[str, str]:
    """Headers the official SDK signs for a create with ``body`` (the oracle)."""
    header_params = {"Content-Type": "application/json"}
    if date is not None:
        header_params["X-Sdk-Date"] = date.strftime("%Y%m%dT%H%M%SZ")
    request = SdkRequest(
        method="POST",
        schema="http",
        host="127.0.0.1",
        resource_path=JOBS,
        query_params=[],
        header_params=header_params,
        body=body,
    )
    signed = BasicCredentials(ak, SK, DEV_PROJECT_ID).sign_request(request)
    return {k: str(v) for k, v in signed.header_params.items()}


# -- authenticate before reading the body ------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "code"),
    [
        ({}, "ModelArts.0201"),
        ({"X-Auth-Token": "not-the-token"}, "ModelArts.4201"),
        ({"Authorization": "SDK-HMAC-SHA256 garbage"}, "ModelArts.0206"),
        (signed_headers(b"{}", ak="AKUNKNOWN0000000000"), "ModelArts.3801"),
        (signed_headers(b"{}", date=datetime(2001, 1, 1, tzinfo=UTC)), "ModelArts.4203"),
    ],
    ids=["no-token", "bad-token", "malformed-signature", "unknown-ak", "stale-date"],
)
def test_an_unauthenticated_body_is_never_read(
    secured: ReferenceServer, headers: dict[str, str], code: str
) -> None:
    declared = {**headers, "Content-Length": str(TWELVE_MB)}
    result = exchange(secured, "POST", JOBS, declared, TWELVE_MB)
    assert (result.status, result.body["error_code"]) == (401, code)
    assert result.bytes_pulled == 0
    assert result.headers["connection"] == "close"  # the rest is never received


def test_an_early_answer_keeps_the_connection_when_the_body_is_small(
    secured: ReferenceServer,
) -> None:
    headers = {"X-Auth-Token": "not-the-token", "Content-Length": "1000"}
    result = exchange(secured, "POST", JOBS, headers, 1000)
    assert result.status == 401
    assert "connection" not in result.headers


def test_a_declared_oversize_body_is_refused_before_reading(secured: ReferenceServer) -> None:
    headers = {"X-Auth-Token": DEV_TOKEN, "Content-Length": str(TWELVE_MB)}
    result = exchange(secured, "POST", JOBS, headers, TWELVE_MB)
    assert (result.status, result.body["error_code"]) == (413, "ModelArts.4104")
    assert result.body["error_solution"] == "Use a request body smaller than 2 MiB."
    assert result.bytes_pulled == 0
    assert result.headers["connection"] == "close"


def test_a_signed_body_is_read_only_up_to_the_limit(secured: ReferenceServer) -> None:
    body = json.dumps(job_body("signed-big", description="x" * TWELVE_MB)).encode()
    headers = signed_headers(body)  # a valid signature over the whole 12 MB, no Content-Length
    result = exchange(secured, "POST", JOBS, headers, len(body), body=body)
    assert (result.status, result.body["error_code"]) == (413, "ModelArts.4104")
    assert result.bytes_pulled <= DEFAULT_MAX_BODY_BYTES + CHUNK
    assert "connection" not in result.headers  # no length declared, no chunked encoding
    chunked = {**headers, "Transfer-Encoding": "chunked"}
    result = exchange(secured, "POST", JOBS, chunked, len(body), body=body)
    assert result.status == 413
    assert result.headers["connection"] == "close"


def test_a_signed_body_at_the_limit_is_verified_and_a_tampered_one_refused(
    secured: ReferenceServer,
) -> None:
    body = json.dumps(job_body("signed-ok")).encode()
    ok = exchange(secured, "POST", JOBS, signed_headers(body), len(body), body=body)
    assert ok.status == 201, ok.body
    tampered = body.replace(b"signed-ok", b"signed-no")
    bad = exchange(secured, "POST", JOBS, signed_headers(body), len(body), body=tampered)
    assert (bad.status, bad.body["error_code"]) == (401, "ModelArts.0208")


def test_thirty_unauthenticated_12_mb_uploads_are_answered_on_their_headers() -> None:
    """Real HTTP: each client sends its head and 1 MB of a declared 12 MB body, then waits.

    The answer (401) must come without the rest of the body; the process's traced memory
    stays far below what buffering even one upload would take.
    """
    head = (
        f"POST {JOBS} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {TWELVE_MB}\r\n\r\n"
    ).encode()
    first_megabyte = b" " * 1_000_000
    with serve_in_thread(ServerSettings()) as url:
        host, port = url.removeprefix("http://").split(":")
        tracemalloc.start()
        try:
            clients = [socket.create_connection((host, int(port)), timeout=10) for _ in range(30)]
            for client in clients:
                client.sendall(head + first_megabyte)
            answers = [_read_head(client) for client in clients]
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
            for client in clients:
                client.close()
    assert all(answer.startswith(b"HTTP/1.1 401") for answer in answers), answers[:1]
    assert all(b"ModelArts.0201" in answer for answer in answers)
    assert all(b"\r\nconnection: close\r\n" in answer.lower() for answer in answers)
    assert peak < 8_000_000, f"traced peak {peak} bytes"


def _read_head(client: socket.socket) -> bytes:
    received = b""
    deadline = time.monotonic() + 10
    while b"ModelArts" not in received and time.monotonic() < deadline:
        try:
            data = client.recv(4096)
        except TimeoutError:
            break
        if not data:
            break
        received += data
    return received


def test_body_limit_setting_is_bounded_by_the_vendor_limit() -> None:
    assert ServerSettings().max_body_bytes == DEFAULT_MAX_BODY_BYTES == 2 * 1024 * 1024
    assert ServerSettings(max_body_bytes=VENDOR_MAX_BODY_BYTES).max_body_bytes > 0
    for bad in (0, -1, VENDOR_MAX_BODY_BYTES + 1):
        with pytest.raises(ConfigError, match="max_body_bytes"):
            ServerSettings(max_body_bytes=bad)


# -- large bodies run off the event loop -------------------------------------------------------


def large_create(name: str, parameters: int) -> bytes:
    body = job_body(name)
    body["algorithm"] = {
        "image_url": "swr.example.com/team/train:1",
        "command": "python train.py",
        "parameters": [
            {"name": f"param_{i:06d}", "value": "v" * 48, "description": "d" * 16}
            for i in range(parameters)
        ],
    }
    body["spec"] = {"resource": {"flavor_id": "modelarts.vm.cpu.2u", "node_count": 1}}
    return json.dumps(body).encode()


def test_a_large_stored_job_is_shown_from_a_worker_thread_and_answers_the_same(
    app: ReferenceServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: a show of a stored 2 MiB job was loaded, rendered and encoded on the event loop
    (other clients waited up to 313 ms; bench_large_bodies --scenario show)."""
    import modelarts_kit_server.app as server_app
    import modelarts_kit_server.handlers.job_core as server_handlers

    threads: list[str] = []
    original = server_handlers.render_job

    def recording(*args: Any, **kwargs: Any) -> Any:
        threads.append(threading.current_thread().name)
        return original(*args, **kwargs)

    headers = {"X-Auth-Token": DEV_TOKEN, "Content-Type": "application/json"}
    client = httpx.Client(transport=SyncASGITransport(app), base_url="http://t")
    small = client.post(JOBS, content=large_create("small-job", 2), headers=headers)
    large = client.post(JOBS, content=large_create("large-job", 1200), headers=headers)
    assert [small.status_code, large.status_code] == [201, 201]
    assert len(large.content) > server_app.INLINE_ANSWER_BYTES > len(small.content)
    monkeypatch.setattr(server_handlers, "render_job", recording)
    shown = [
        client.get(f"{JOBS}/{r.json()['metadata']['id']}", headers=headers) for r in (small, large)
    ]
    assert [s.status_code for s in shown] == [200, 200]
    assert threads[0] == "MainThread"
    assert threads[1].startswith("modelarts-kit-large-body")
    assert shown[1].json()["algorithm"] == large.json()["algorithm"]
    missing = client.get(f"{JOBS}/{'0' * 8}-0000-4000-8000-{'0' * 12}", headers=headers)
    check_error(missing, 400, "ModelArts.2775")


def test_a_large_body_is_handled_on_a_worker_thread_and_answers_the_same(
    app: ReferenceServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    import modelarts_kit_server.handlers.job_core as server_handlers

    threads: list[str] = []
    original = server_handlers.validate_body

    def recording(context: Any) -> Any:
        import threading

        threads.append(threading.current_thread().name)
        return original(context)

    monkeypatch.setattr(server_handlers, "validate_body", recording)
    headers = {"X-Auth-Token": DEV_TOKEN, "Content-Type": "application/json"}
    small = large_create("small-one", 2)
    large = large_create("large-one", 400)
    assert len(small) <= INLINE_BODY_BYTES < len(large)
    client = httpx.Client(transport=SyncASGITransport(app), base_url="http://t")
    answers = [client.post(JOBS, content=body, headers=headers) for body in (small, large)]
    assert [a.status_code for a in answers] == [201, 201]
    assert threads[0] == "MainThread"
    assert threads[1].startswith("modelarts-kit-large-body")
    assert (
        answers[1].json()["algorithm"]["parameters"] == json.loads(large)["algorithm"]["parameters"]
    )
    invalid = large.replace(b'"node_count": 1', b'"node_count": "one"')
    check_error(client.post(JOBS, content=invalid, headers=headers), 400, "ModelArts.2788")


def test_other_clients_are_served_while_a_large_body_is_processed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Over HTTP: a show is answered while a large create is still being validated.

    The create's validation waits until the show has its answer (at most 10 s): if it ran on
    the event loop, the show could not be answered before it. The figures are in
    ``benchmarks/bench_large_bodies.py``.
    """
    import modelarts_kit_server.handlers.job_core as server_handlers

    shown, validating = threading.Event(), threading.Event()
    original = server_handlers.validate_body

    def slow(context: Any) -> Any:
        if len(context.body) > INLINE_BODY_BYTES:
            validating.set()
            shown.wait(10)
        return original(context)

    monkeypatch.setattr(server_handlers, "validate_body", slow)
    headers = {"X-Auth-Token": DEV_TOKEN, "Content-Type": "application/json"}
    finished: list[str] = []
    with serve_in_thread(ServerSettings()) as url:

        def create() -> None:
            response = httpx.post(url + JOBS, content=large_create("big", 400), headers=headers)
            assert response.status_code == 201
            finished.append("create")

        creator = threading.Thread(target=create)
        creator.start()
        # The create is in validation (on the worker thread, or blocking the loop if the
        # server validated there): an event, not a guess at how long that takes.
        assert validating.wait(30)
        response = httpx.get(f"{url}{JOBS}/unknown", headers=headers, timeout=30)
        finished.append("show")
        shown.set()
        creator.join(30)
    assert response.status_code == 400
    assert finished == ["show", "create"]


def test_large_bodies_beyond_the_admitted_number_are_429_before_reading(
    app: ReferenceServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each admitted large body holds memory: one more than MAX_LARGE_BODIES waits nowhere."""
    import modelarts_kit_server.handlers.job_core as server_handlers

    release = threading.Event()
    original = server_handlers.validate_body

    def held(context: Any) -> Any:
        release.wait(30)
        return original(context)

    monkeypatch.setattr(server_handlers, "validate_body", held)
    bodies = [large_create(f"queued-{index}", 400) for index in range(MAX_LARGE_BODIES + 1)]
    results = [Exchange() for _ in bodies]

    async def one(body: bytes, result: Exchange) -> None:
        headers = {
            "X-Auth-Token": DEV_TOKEN,
            "Content-Type": "application/json",
            "Content-Length": str(len(body)),
        }
        await _drive(app, "POST", JOBS, headers, body, result)

    async def run() -> None:
        tasks = [asyncio.create_task(one(b, r)) for b, r in zip(bodies, results, strict=True)]
        deadline = time.monotonic() + 30
        while not any(r.status for r in results) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)  # the one beyond the limit is answered while others wait
        release.set()
        await asyncio.gather(*tasks)

    asyncio.run(run())
    statuses = sorted(r.status for r in results)
    assert statuses == [201] * MAX_LARGE_BODIES + [429]
    refused = next(r for r in results if r.status == 429)
    assert refused.body["error_code"] == "ModelArts.2799"
    assert refused.headers["retry-after"] == "1"
    assert refused.bytes_pulled == 0


# -- log lines ---------------------------------------------------------------------------------


def test_a_request_cannot_forge_a_log_line(
    app: ReferenceServer, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="modelarts_kit_server")
    forged = "/v2/x\n2026-01-01 INFO GET /admin -> 200\r\x1b[2J\u2028"
    scope_path = forged
    for method, path in (("GET", scope_path), ("GE\nT", JOBS)):
        exchange(app, method, path, {"X-Auth-Token": DEV_TOKEN}, 0)
    client = httpx.Client(transport=SyncASGITransport(app), base_url="http://t")
    client.get(JOBS + "%0Aforged%0D", headers={"X-Auth-Token": DEV_TOKEN})
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 3
    for line in lines:
        assert line.isprintable(), line
    assert "/v2/x\\n2026-01-01 INFO GET /admin -> 200\\r\\x1b[2J" in lines[0]


@given(st.text())
def test_loggable_text_is_one_printable_line_that_keeps_printable_text(text: str) -> None:
    shown = loggable(text, limit=10_000)
    assert shown.isprintable()
    if text.isprintable():
        assert shown == text


# -- a client's mistake is never a 500 ----------------------------------------------------------

HEADER_NAMES = st.sampled_from(
    [
        "x-auth-token",
        "authorization",
        "x-sdk-date",
        "x-project-id",
        "content-length",
        "content-type",
        "x-sdk-content-sha256",
    ]
)
LATIN_1 = st.text(alphabet=st.characters(codec="latin-1"), max_size=60)
SIGNATURE_LIKE = st.builds(
    lambda ak, names, sig: f"SDK-HMAC-SHA256 Access={ak}, SignedHeaders={names}, Signature={sig}",
    st.sampled_from([AK, "x", ""]),
    st.sampled_from(["x-sdk-date", "x-sdk-date;host", "content-length;x-sdk-date", ";", "x"]),
    st.text(alphabet=string.hexdigits, max_size=64),
)


@given(
    method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "post"]),
    suffix=st.sampled_from(["", "/{}", "/{}/actions", "/{}/x"]),
    job_id=st.text(max_size=20),
    headers=st.dictionaries(HEADER_NAMES, LATIN_1 | SIGNATURE_LIKE, max_size=5),
    body=st.binary(max_size=64)
    | st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
        max_leaves=12,
    ).map(lambda value: json.dumps({"kind": "job", "metadata": value}).encode()),
)
def test_no_client_mistake_is_answered_500(
    secured: ReferenceServer,
    method: str,
    suffix: str,
    job_id: str,
    headers: dict[str, str],
    body: bytes,
) -> None:
    headers = {"x-auth-token": DEV_TOKEN, **headers}
    path = JOBS + suffix.format(quote(job_id, safe=""))
    result = exchange(secured, method, path, headers, len(body), body=body)
    assert 400 <= result.status < 500 or result.status in (200, 201, 202), result.body
    assert set(result.body) == {"error_code", "error_msg", "error_solution"} or (
        result.status < 300
    )


# -- slowloris: connections that never finish their headers -----------------------------------

HEADER_TIMEOUT_S = 0.5
UNKNOWN_JOB = "3faf7e3b-1d5c-4e2e-9a3b-7f6d2c1b0a99"
CLOSE_WAIT_S = 10.0  # bound on the test's wait, far above the timeout


def closed_by_server(sockets: list[socket.socket], wait_s: float) -> set[int]:
    """Indexes of ``sockets`` the server closed (EOF) within ``wait_s`` seconds."""
    closed: set[int] = set()
    deadline = time.monotonic() + wait_s
    for sock in sockets:
        sock.setblocking(False)
    while len(closed) < len(sockets) and time.monotonic() < deadline:
        for index, sock in enumerate(sockets):
            if index in closed:
                continue
            try:
                if sock.recv(4096) == b"":
                    closed.add(index)
            except BlockingIOError:
                pass
            except OSError:  # reset by the server: closed as well
                closed.add(index)
        time.sleep(0.02)
    return closed


def test_connections_that_never_finish_their_headers_are_closed() -> None:
    """Before: no header timeout (uvicorn's keep-alive timeout covers idle connections only):
    20 connections held for 15 s against the embedded server, 0 closed."""
    with serve_in_thread(header_timeout_s=HEADER_TIMEOUT_S) as url:
        host, port = url.removeprefix("http://").rsplit(":", 1)
        held = [socket.create_connection((host, int(port)), timeout=5) for _ in range(6)]
        for sock in held[3:]:  # half a request line and headers, then nothing
            sock.sendall(f"GET {JOBS}/x HTTP/1.1\r\nHost: {host}\r\nX-Auth-Token: ".encode())
        # A connection that was served once, then starts a request it never finishes.
        again = socket.create_connection((host, int(port)), timeout=5)
        again.sendall(
            f"GET {JOBS}/x HTTP/1.1\r\nHost: {host}\r\nX-Auth-Token: {DEV_TOKEN}\r\n\r\n".encode()
        )
        again.settimeout(5)
        assert again.recv(4096).startswith(b"HTTP/1.1 ")
        again.sendall(b"GET / HTTP/1.1\r\nHo")
        held.append(again)
        # Other clients are served while those wait.
        with httpx.Client(base_url=url, headers={"X-Auth-Token": DEV_TOKEN}) as client:
            answer = client.get(f"{JOBS}/{UNKNOWN_JOB}")
            assert answer.status_code == 400  # the vendor's "not found" is a 400
            assert set(answer.json()) == {"error_code", "error_msg", "error_solution"}
        try:
            assert closed_by_server(held, CLOSE_WAIT_S) == set(range(len(held)))
        finally:
            for sock in held:
                sock.close()


def test_a_slow_handler_is_not_cut_off_by_the_header_timeout() -> None:
    """The deadline is on the headers: a request whose handling outlasts it is answered."""

    async def slow(scope: Scope, receive: Receive, send: Send) -> None:
        # Real: uvicorn's header timeout runs on the wall clock of its own thread; three times
        # it, so a late timer on a busy machine still fires while the handler works.
        await asyncio.sleep(HEADER_TIMEOUT_S * 3)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"done"})

    with serve_in_thread(app=slow, header_timeout_s=HEADER_TIMEOUT_S) as url:
        response = httpx.get(url + "/", timeout=10)
    assert (response.status_code, response.content) == (200, b"done")


@pytest.mark.parametrize("seconds", [0, -1, 3601.0])
def test_a_header_timeout_out_of_range_is_a_config_error(seconds: float) -> None:
    with (
        pytest.raises(ConfigError, match="--header-timeout must be > 0"),
        serve_in_thread(header_timeout_s=seconds),
    ):
        pass


def test_serve_refuses_a_header_timeout_out_of_range_on_one_line() -> None:
    from click.testing import CliRunner
    from modelarts_kit.main import cli

    result = CliRunner().invoke(cli, ["serve", "--port", "0", "--header-timeout", "0"])
    assert result.exit_code == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith("error: ")
    assert "'--header-timeout'" in line
    assert "0.0" in line
