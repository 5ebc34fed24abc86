"""Hostile servers against the generated client: trickling answers, huge answers,
redirects to another host, credentials in the URL. Real sockets on 127.0.0.1, bounded."""

from __future__ import annotations

import asyncio
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from modelarts_training_client import (
    AkSkAuth,
    ApiError,
    AsyncTrainingJobsClient,
    DeadlineExceededError,
    ResponseTooLargeError,
    TokenAuth,
    TrainingJobsClient,
    TransportError,
)

PROJECT_ID = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
JOB_ID = "3faf7e3b-1d5c-4e2e-9a3b-7f6d2c1b0a99"
TOKEN = "secret-token-value-7f3a"
Handler = Callable[[socket.socket, bytes, threading.Event], None]


@contextmanager
def raw_server(handler: Handler, max_connections: int = 8) -> Iterator[tuple[str, list[bytes]]]:
    """A TCP server on 127.0.0.1 that hands each connection's request head to ``handler``;
    records the heads. Stops (and unblocks its handlers) when the block ends."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    stop = threading.Event()
    heads: list[bytes] = []

    def serve() -> None:
        served = 0
        while not stop.is_set() and served < max_connections:
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            served += 1
            threading.Thread(target=handle, args=(conn,), daemon=True).start()

    def handle(conn: socket.socket) -> None:
        with conn:
            conn.settimeout(5)
            head = b""
            try:
                while b"\r\n\r\n" not in head and len(head) < 65536:
                    data = conn.recv(4096)
                    if not data:
                        return
                    head += data
                heads.append(head)
                handler(conn, head, stop)
            except OSError:
                return

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}", heads
    finally:
        stop.set()
        thread.join(timeout=5)
        listener.close()


def trickle_body(conn: socket.socket, head: bytes, stop: threading.Event) -> None:
    """Headers at once, then one byte of body every 0.3 s (for at most 60 s)."""
    conn.sendall(
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"
    )
    for _ in range(200):
        if stop.wait(0.3):
            return
        conn.sendall(b" ")


def trickle_headers(conn: socket.socket, head: bytes, stop: threading.Event) -> None:
    """The status line and headers one byte every 0.3 s (for at most 60 s)."""
    for byte in b"HTTP/1.1 200 OK\r\nX-Slow: " + b"a" * 1000:
        if stop.wait(0.3):
            return
        conn.sendall(bytes([byte]))


def huge_body(chunked: bool) -> Handler:
    def handler(conn: socket.socket, head: bytes, stop: threading.Event) -> None:
        length = b"Transfer-Encoding: chunked\r\n" if chunked else b"Content-Length: 1073741824\r\n"
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + length + b"\r\n")
        block = b"[" * 65536
        for _ in range(16384):  # up to 1 GiB, until the client hangs up
            if stop.is_set():
                return
            conn.sendall(b"%x\r\n%s\r\n" % (len(block), block) if chunked else block)

    return handler


def test_a_trickling_answer_ends_at_the_deadline() -> None:
    """Before: the 60 s read timeout restarted on every byte, so the call never ended."""
    with raw_server(trickle_body) as (url, _):
        client = TrainingJobsClient(project_id=PROJECT_ID, base_url=url, deadline=1.5)
        started = time.monotonic()
        with pytest.raises(DeadlineExceededError, match=r"within the 1\.5 s deadline") as caught:
            client.show_training_job_details(JOB_ID)
        elapsed = time.monotonic() - started
        client.close()
    assert 1.4 < elapsed < 4.0, elapsed
    assert isinstance(caught.value, TransportError)


def test_the_deadline_can_be_set_per_call() -> None:
    with (
        raw_server(trickle_body) as (url, _),
        TrainingJobsClient(project_id=PROJECT_ID, base_url=url) as client,
    ):
        started = time.monotonic()
        with pytest.raises(DeadlineExceededError):
            client.show_training_job_details(JOB_ID, deadline=1.0)
    assert time.monotonic() - started < 3.5


def test_async_trickling_headers_end_exactly_at_the_deadline() -> None:
    async def call(url: str) -> None:
        async with AsyncTrainingJobsClient(
            project_id=PROJECT_ID, base_url=url, deadline=1.0
        ) as client:
            await client.show_training_job_details(JOB_ID)

    with raw_server(trickle_headers) as (url, _):
        started = time.monotonic()
        with pytest.raises(DeadlineExceededError):
            asyncio.run(call(url))
    assert time.monotonic() - started < 2.5


def test_the_default_deadline_is_finite() -> None:
    client = TrainingJobsClient(project_id=PROJECT_ID, base_url="http://127.0.0.1:9")
    deadline = client._deadline  # the default the client was given
    assert deadline is not None
    assert 0 < deadline < 3600
    with pytest.raises(ValueError, match="deadline must be a positive number"):
        TrainingJobsClient(project_id=PROJECT_ID, base_url="http://127.0.0.1:9", deadline=0)


@pytest.mark.parametrize("chunked", [False, True])
def test_a_huge_answer_is_refused_without_reading_it(chunked: bool) -> None:
    """Before: a 1 GB body was read whole (2.1 GB RSS)."""
    limit = 1024 * 1024
    with (
        raw_server(huge_body(chunked)) as (url, _),
        TrainingJobsClient(
            project_id=PROJECT_ID, base_url=url, max_response_bytes=limit, deadline=30
        ) as client,
    ):
        started = time.monotonic()
        with pytest.raises(ResponseTooLargeError, match=rf"larger than {limit} bytes") as caught:
            client.show_training_job_details(JOB_ID)
    assert caught.value.limit == limit
    assert time.monotonic() - started < 10


def redirect_to(target: str) -> Handler:
    def handler(conn: socket.socket, head: bytes, stop: threading.Event) -> None:
        location = f"{target}/v2/{PROJECT_ID}/training-jobs/{JOB_ID}".encode()
        conn.sendall(
            b"HTTP/1.1 307 Temporary Redirect\r\nLocation: "
            + location
            + b"\r\nContent-Length: 0\r\n\r\n"
        )

    return handler


def ok_json(conn: socket.socket, head: bytes, stop: threading.Event) -> None:
    conn.sendall(
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
    )


@pytest.mark.parametrize("auth", ["token", "aksk"])
def test_credentials_never_follow_a_redirect_to_another_host(auth: str) -> None:
    """Before: with ``httpx.Client(follow_redirects=True)``, X-Auth-Token went to the
    redirect's host."""
    credentials = (
        TokenAuth(TOKEN) if auth == "token" else AkSkAuth("AKIDEXAMPLE", TOKEN, PROJECT_ID)
    )
    with (
        raw_server(ok_json) as (foreign, foreign_heads),
        raw_server(redirect_to(foreign)) as (origin, origin_heads),
    ):
        http = httpx.Client(follow_redirects=True, timeout=5)
        client = TrainingJobsClient(
            project_id=PROJECT_ID, base_url=origin, auth=credentials, http_client=http
        )
        with pytest.raises(ApiError) as caught:
            client.show_training_job_details(JOB_ID)
        http.close()
    assert caught.value.status == 307
    assert len(origin_heads) == 1
    assert foreign_heads == []  # nothing at all went to the other host
    sent = origin_heads[0].lower()
    assert (b"x-auth-token" if auth == "token" else b"x-sdk-date") in sent


def test_userinfo_in_base_url_never_appears_in_repr_or_errors() -> None:
    """Before: ``user:password@`` appeared in repr() and in TransportError."""
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    listener.close()  # nothing listens there: the connection is refused
    url = f"http://alice:pa55-w0rd-x@127.0.0.1:{port}"
    client = TrainingJobsClient(project_id=PROJECT_ID, base_url=url, deadline=10)
    assert "pa55-w0rd-x" not in repr(client)
    with pytest.raises(TransportError) as caught:
        client.show_training_job_details(JOB_ID)
    for text in (str(caught.value), repr(caught.value), caught.value.url, caught.value.reason):
        assert "pa55-w0rd-x" not in text
        assert "alice" not in text
    with pytest.raises(ValueError, match="base_url must start with") as refused:
        TrainingJobsClient(project_id=PROJECT_ID, base_url="ftp://alice:pa55-w0rd-x@h")
    assert "pa55-w0rd-x" not in str(refused.value)


def trickle_status_line(conn: socket.socket, stop: threading.Event, every: float = 0.5) -> None:
    """The status line and headers one byte every ``every`` s (for at most 30 s)."""
    for byte in (b"HTTP/1.1 200 OK\r\nX-Slow: " + b"a" * 1000)[: int(30 / every)]:
        if stop.wait(every):
            return
        conn.sendall(bytes([byte]))


def trickle_at_once(conn: socket.socket, head: bytes, stop: threading.Event) -> None:
    trickle_status_line(conn, stop)


NOT_FOUND = b'{"error_code": "ModelArts.2775", "error_msg": "Training job not found."}'


def answer_then_trickle(conn: socket.socket, head: bytes, stop: threading.Event) -> None:
    """A complete keep-alive answer (404) to the first request; on the same connection, the
    second request's answer trickles."""
    conn.sendall(
        b"HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nConnection: keep-alive"
        b"\r\nContent-Length: %d\r\n\r\n%s" % (len(NOT_FOUND), NOT_FOUND)
    )
    second = b""
    while b"\r\n\r\n" not in second and len(second) < 65536:
        data = conn.recv(4096)
        if not data:
            return
        second += data
    trickle_status_line(conn, stop)


def _time_sync_call(client: TrainingJobsClient, deadline: float) -> float:
    started = time.monotonic()
    with pytest.raises(DeadlineExceededError, match=rf"within the {deadline:g} s deadline"):
        client.show_training_job_details(JOB_ID, deadline=deadline)
    return time.monotonic() - started


SLACK = 0.5  # how late a call may end after its deadline (scheduling on a loaded machine)


def test_sync_trickling_headers_end_at_the_deadline_on_a_fresh_connection() -> None:
    """Before: httpcore's read timeout restarted on every byte of the status line, so a sync
    call outlived its deadline as long as the server trickled (30 s here, forever in life)."""
    with (
        raw_server(trickle_at_once) as (url, heads),
        TrainingJobsClient(project_id=PROJECT_ID, base_url=url) as client,
    ):
        elapsed = _time_sync_call(client, 1.0)
    assert 1.0 <= elapsed < 1.0 + SLACK, elapsed
    assert len(heads) == 1  # not retried: the deadline ended the call


def test_sync_trickling_headers_end_at_the_deadline_on_a_reused_connection() -> None:
    with (
        raw_server(answer_then_trickle) as (url, heads),
        TrainingJobsClient(project_id=PROJECT_ID, base_url=url) as client,
    ):
        with pytest.raises(ApiError) as first:
            client.show_training_job_details(JOB_ID)
        assert first.value.status == 404
        elapsed = _time_sync_call(client, 1.0)
    assert 1.0 <= elapsed < 1.0 + SLACK, elapsed
    assert len(heads) == 1  # one connection: the second request reused it


def test_sync_deadline_binds_a_user_supplied_http_client() -> None:
    """A plain ``httpx.Client`` handed in is bounded the same way (its HTTPTransport's
    network waits are capped during this client's calls only)."""
    with raw_server(trickle_at_once) as (url, _), httpx.Client(timeout=60) as http:
        client = TrainingJobsClient(project_id=PROJECT_ID, base_url=url, http_client=http)
        elapsed = _time_sync_call(client, 1.0)
    assert 1.0 <= elapsed < 1.0 + SLACK, elapsed


def test_the_deadline_leaves_other_requests_of_a_shared_http_client_alone() -> None:
    """Outside this client's calls, the shared ``httpx.Client`` keeps its own timeouts."""
    with raw_server(ok_json) as (url, _), httpx.Client(timeout=5) as http:
        TrainingJobsClient(project_id=PROJECT_ID, base_url=url, http_client=http, deadline=0.001)
        assert http.get(url + "/anything").json() == {}


@contextmanager
def tls_trickling_server(tmp_path: Path) -> Iterator[tuple[str, ssl.SSLContext]]:
    """An HTTPS server on 127.0.0.1 (a throwaway self-signed certificate) that completes the
    TLS handshake, reads the request head, then trickles the status line; and the client-side
    context that trusts it."""
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "1", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1"],
        check=True, capture_output=True, timeout=30,
    )  # fmt: skip
    server_context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server_context.load_cert_chain(cert, key)
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(10)
    stop = threading.Event()

    def serve() -> None:
        try:
            conn, _ = listener.accept()
        except OSError:
            return
        with conn:
            conn.settimeout(10)
            try:
                tls = server_context.wrap_socket(conn, server_side=True)
                head = b""
                while b"\r\n\r\n" not in head and len(head) < 65536:
                    data = tls.recv(4096)
                    if not data:
                        return
                    head += data
                trickle_status_line(tls, stop)
            except OSError:
                return

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield (
            f"https://127.0.0.1:{listener.getsockname()[1]}",
            ssl.create_default_context(cafile=str(cert)),
        )
    finally:
        stop.set()
        listener.close()
        thread.join(timeout=5)


def test_sync_trickling_headers_over_tls_end_at_the_deadline(tmp_path: Path) -> None:
    """The bound holds on the TLS stream too (the wrapped connection's start_tls)."""
    with (
        tls_trickling_server(tmp_path) as (url, trusted),
        httpx.Client(verify=trusted, timeout=60) as http,
    ):
        client = TrainingJobsClient(project_id=PROJECT_ID, base_url=url, http_client=http)
        elapsed = _time_sync_call(client, 1.5)
    assert 1.5 <= elapsed < 1.5 + SLACK, elapsed
