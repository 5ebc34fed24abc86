"""Hostile servers against the generated client: trickling answers, huge answers,
redirects to another host, credentials in the URL. Real sockets on 127.0.0.1, bounded.

Deadlines are checked on a virtual clock (``tests/virtual_clock.py``) given to the client:
a trickling server advances it by ``STEP`` virtual seconds before each byte and sends the
next byte only once the client has read the clock again, so "the call ends at its deadline"
is asserted as "the call stops at the first check at or after virtual t=deadline, after
about deadline/STEP bytes", never on wall time (issue 34 item 11)."""

from __future__ import annotations

import asyncio
import socket
import ssl
import subprocess
import threading
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

from tests.virtual_clock import VirtualClock, VirtualTimeLoop

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


STEP = 0.25  # the virtual seconds a trickling server lets pass before each byte
MAX_TRICKLE = 40  # the most bytes it trickles (10 s virtual): a deadline ignored shows


def trickle(conn: socket.socket, data: bytes, clock: VirtualClock, stop: threading.Event) -> int:
    """``data`` one byte at a time, ``STEP`` virtual seconds before each, each sent once the
    client has read the clock since the last (or five real seconds have passed without its
    looking: time passes for a client that ignores it too); the bytes sent."""
    sent = 0
    for byte in data[:MAX_TRICKLE]:
        clock.advance(STEP)
        reads = clock.reads
        conn.sendall(bytes([byte]))
        sent += 1
        if not clock.wait_for_read(reads, stop) and stop.is_set():
            break
    return sent


def trickle_body(clock: VirtualClock) -> Handler:
    """Headers at once, then the body a byte at a time."""

    def handler(conn: socket.socket, head: bytes, stop: threading.Event) -> None:
        conn.sendall(
            b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"
        )
        trickle(conn, b" " * MAX_TRICKLE, clock, stop)

    return handler


SLOW_HEAD = b"HTTP/1.1 200 OK\r\nX-Slow: " + b"a" * 1000


def trickle_headers(clock: VirtualClock) -> Handler:
    """The status line and headers a byte at a time."""

    def handler(conn: socket.socket, head: bytes, stop: threading.Event) -> None:
        trickle(conn, SLOW_HEAD, clock, stop)

    return handler


def assert_ended_at_deadline(clock: VirtualClock, deadline: float, slack_steps: int = 2) -> None:
    """The call ended at the first check at or after virtual t=deadline: never before it, and
    within a few steps after (the server moves the clock once per read of the client)."""
    ended = clock.peek()
    assert deadline <= ended <= deadline + slack_steps * STEP, ended


def huge_body(chunked: bool, sent: list[int]) -> Handler:
    """A 1 GiB answer, sent until the client hangs up; ``sent`` gets the body bytes sent."""

    def handler(conn: socket.socket, head: bytes, stop: threading.Event) -> None:
        length = b"Transfer-Encoding: chunked\r\n" if chunked else b"Content-Length: 1073741824\r\n"
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + length + b"\r\n")
        block = b"[" * 65536
        sent.append(0)
        for _ in range(16384):  # up to 1 GiB, until the client hangs up
            if stop.is_set():
                return
            conn.sendall(b"%x\r\n%s\r\n" % (len(block), block) if chunked else block)
            sent[-1] += len(block)

    return handler


def test_a_trickling_answer_ends_at_the_deadline() -> None:
    """Before: the 60 s read timeout restarted on every byte, so the call never ended."""
    clock = VirtualClock()
    with raw_server(trickle_body(clock)) as (url, heads):
        client = TrainingJobsClient(
            project_id=PROJECT_ID, base_url=url, deadline=1.5, clock=clock.now, sleep=clock.sleep
        )
        with pytest.raises(DeadlineExceededError, match=r"within the 1\.5 s deadline") as caught:
            client.show_training_job_details(JOB_ID)
        assert_ended_at_deadline(clock, 1.5)
        client.close()
    assert isinstance(caught.value, TransportError)
    assert len(heads) == 1  # not retried: the deadline ended the call


def test_the_deadline_can_be_set_per_call() -> None:
    clock = VirtualClock()
    with (
        raw_server(trickle_body(clock)) as (url, heads),
        TrainingJobsClient(
            project_id=PROJECT_ID, base_url=url, clock=clock.now, sleep=clock.sleep
        ) as client,
    ):
        with pytest.raises(DeadlineExceededError, match=r"within the 1 s deadline"):
            client.show_training_job_details(JOB_ID, deadline=1.0)
        assert_ended_at_deadline(clock, 1.0)
    assert len(heads) == 1


UNWIND_STEPS = 16  # the turns of the loop an asynchronous call may take to unwind (about 8)


def test_async_trickling_headers_end_exactly_at_the_deadline() -> None:
    """The asynchronous call is cancelled by the event loop at its deadline: here a loop whose
    clock is the client's virtual clock."""
    clock = VirtualClock()
    ended: list[float] = []

    async def call(url: str) -> None:
        async with AsyncTrainingJobsClient(
            project_id=PROJECT_ID,
            base_url=url,
            deadline=1.0,
            clock=clock.now,
            sleep=clock.async_sleep,
        ) as client:
            try:
                await client.show_training_job_details(JOB_ID)
            finally:  # the time the call ended, before the client closes its connections
                ended.append(clock.peek())

    with (
        raw_server(trickle_headers(clock)) as (url, heads),
        asyncio.Runner(loop_factory=lambda: VirtualTimeLoop(clock)) as runner,
        pytest.raises(DeadlineExceededError, match=r"within the 1 s deadline"),
    ):
        runner.run(call(url))
    # The loop delivers the cancellation at its first turn at or after virtual t=1; the call
    # then unwinds over a few more turns, each of which lets the server move the clock a step.
    assert len(ended) == 1
    assert 1.0 <= ended[0] <= 1.0 + UNWIND_STEPS * STEP, ended
    assert len(heads) == 1


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
    sent: list[int] = []
    with (
        raw_server(huge_body(chunked, sent)) as (url, _),
        TrainingJobsClient(
            project_id=PROJECT_ID, base_url=url, max_response_bytes=limit, deadline=30
        ) as client,
        pytest.raises(ResponseTooLargeError, match=rf"larger than {limit} bytes") as caught,
    ):
        client.show_training_job_details(JOB_ID)
    assert caught.value.limit == limit
    # The server could send the limit and what the sockets' buffers hold, then the client
    # hung up: nowhere near the 1 GiB it offered.
    assert len(sent) == 1
    assert sent[0] < 64 * limit, sent


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
    clock = VirtualClock()  # the retries' back-off passes on it (2.8 s of real sleep before)
    client = TrainingJobsClient(
        project_id=PROJECT_ID, base_url=url, deadline=10, clock=clock.now, sleep=clock.sleep
    )
    assert "pa55-w0rd-x" not in repr(client)
    with pytest.raises(TransportError) as caught:
        client.show_training_job_details(JOB_ID)
    for text in (str(caught.value), repr(caught.value), caught.value.url, caught.value.reason):
        assert "pa55-w0rd-x" not in text
        assert "alice" not in text
    with pytest.raises(ValueError, match="base_url must start with") as refused:
        TrainingJobsClient(project_id=PROJECT_ID, base_url="ftp://alice:pa55-w0rd-x@h")
    assert "pa55-w0rd-x" not in str(refused.value)


NOT_FOUND = b'{"error_code": "ModelArts.2775", "error_msg": "Training job not found."}'


def answer_then_trickle(clock: VirtualClock) -> Handler:
    """A complete keep-alive answer (404) to the first request; on the same connection, the
    second request's answer trickles."""

    def handler(conn: socket.socket, head: bytes, stop: threading.Event) -> None:
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
        trickle(conn, SLOW_HEAD, clock, stop)

    return handler


def _sync_call_ends_at(client: TrainingJobsClient, clock: VirtualClock, deadline: float) -> None:
    """The call with ``deadline`` raises DeadlineExceededError when the clock says so."""
    started = clock.peek()
    with pytest.raises(DeadlineExceededError, match=rf"within the {deadline:g} s deadline"):
        client.show_training_job_details(JOB_ID, deadline=deadline)
    assert_ended_at_deadline(clock, started + deadline)


def test_sync_trickling_headers_end_at_the_deadline_on_a_fresh_connection() -> None:
    """Before: httpcore's read timeout restarted on every byte of the status line, so a sync
    call outlived its deadline as long as the server trickled (30 s here, forever in life)."""
    clock = VirtualClock()
    with (
        raw_server(trickle_headers(clock)) as (url, heads),
        TrainingJobsClient(
            project_id=PROJECT_ID, base_url=url, clock=clock.now, sleep=clock.sleep
        ) as client,
    ):
        _sync_call_ends_at(client, clock, 1.0)
    assert len(heads) == 1  # not retried: the deadline ended the call


def test_sync_trickling_headers_end_at_the_deadline_on_a_reused_connection() -> None:
    clock = VirtualClock()
    with (
        raw_server(answer_then_trickle(clock)) as (url, heads),
        TrainingJobsClient(
            project_id=PROJECT_ID, base_url=url, clock=clock.now, sleep=clock.sleep
        ) as client,
    ):
        with pytest.raises(ApiError) as first:
            client.show_training_job_details(JOB_ID)
        assert first.value.status == 404
        _sync_call_ends_at(client, clock, 1.0)
    assert len(heads) == 1  # one connection: the second request reused it


def test_sync_deadline_binds_a_user_supplied_http_client() -> None:
    """A plain ``httpx.Client`` handed in is bounded the same way (its HTTPTransport's
    network waits are capped during this client's calls only)."""
    clock = VirtualClock()
    with raw_server(trickle_headers(clock)) as (url, heads), httpx.Client(timeout=60) as http:
        client = TrainingJobsClient(
            project_id=PROJECT_ID, base_url=url, http_client=http, clock=clock.now,
            sleep=clock.sleep,
        )  # fmt: skip
        _sync_call_ends_at(client, clock, 1.0)
    assert len(heads) == 1


def test_the_deadline_leaves_other_requests_of_a_shared_http_client_alone() -> None:
    """Outside this client's calls, the shared ``httpx.Client`` keeps its own timeouts."""
    with raw_server(ok_json) as (url, _), httpx.Client(timeout=5) as http:
        TrainingJobsClient(project_id=PROJECT_ID, base_url=url, http_client=http, deadline=0.001)
        assert http.get(url + "/anything").json() == {}


@contextmanager
def tls_trickling_server(
    tmp_path: Path, clock: VirtualClock
) -> Iterator[tuple[str, ssl.SSLContext]]:
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
                trickle(tls, SLOW_HEAD, clock, stop)
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
    clock = VirtualClock()
    with (
        tls_trickling_server(tmp_path, clock) as (url, trusted),
        httpx.Client(verify=trusted, timeout=60) as http,
    ):
        client = TrainingJobsClient(
            project_id=PROJECT_ID, base_url=url, http_client=http, clock=clock.now,
            sleep=clock.sleep,
        )  # fmt: skip
        _sync_call_ends_at(client, clock, 1.5)
