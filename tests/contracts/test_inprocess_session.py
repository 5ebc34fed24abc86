"""The in-process session (issue 36): an app any loop may run is served on the calling
thread's own event loop, one session per thread, with the wire a server would give; any other
app keeps schemathesis's ASGI client (one shared loop thread, lifespan events)."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
import requests
from modelarts_kit_contracts.server.run import (
    Budget,
    RunOptions,
    ServerTarget,
    run_server_contract,
)
from modelarts_kit_contracts.server.schemathesis_adapter import (
    asgi_session,
    in_process_session_type,
)
from modelarts_kit_contracts.transport_auth import Credentials
from modelarts_kit_server import DEV_PROJECT_ID, DEV_TOKEN, create_app
from modelarts_kit_spec import load_spec
from modelarts_kit_wire.asgi import (
    Message,
    Receive,
    Scope,
    Send,
    answer_lifespan,
    runs_on_any_loop,
)
from schemathesis.python import asgi
from schemathesis.transport.requests import ManagedCookiesSession

BASE = "http://testserver"


class Echo:
    """Answers each request with what it saw, and notes the thread that ran it."""

    def __init__(self, *, any_loop: bool, stall_s: float = 0.0) -> None:
        self.modelarts_kit_runs_on_any_loop = any_loop
        self.stall_s = stall_s
        self.threads: list[int] = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await answer_lifespan(receive, send)
            return
        self.threads.append(threading.get_ident())
        body = (await receive())["body"]
        if self.stall_s:  # real: requests' read timeout is on the wall clock (0.05 s here)
            await asyncio.sleep(self.stall_s)
        seen = {
            "path": scope["path"],
            "raw_path": scope["raw_path"].decode(),
            "query": scope["query_string"].decode(),
            "host": dict(scope["headers"]).get(b"host", b"").decode(),
            "body": body.decode("latin-1"),
        }
        encoded = json.dumps(seen).encode()
        payload = encoded if scope["method"] != "HEAD" else b""
        headers = [
            (b"content-type", b"text/plain"),
            (b"content-length", str(len(encoded)).encode()),
            (b"set-cookie", b"a=1"),
            (b"set-cookie", b"b=2"),
            (b"x-latin", "caf\u00e9".encode("latin-1")),
        ]
        start: Message = {"type": "http.response.start", "status": 207, "headers": headers}
        await send(start)
        await send({"type": "http.response.body", "body": payload[:3], "more_body": True})
        await send({"type": "http.response.body", "body": payload[3:]})


@pytest.fixture
def echo() -> Echo:
    return Echo(any_loop=True)


@pytest.fixture
def session(echo: Echo) -> Iterator[requests.Session]:
    with asgi_session(echo) as opened:
        yield opened


def test_an_app_any_loop_may_run_gets_the_in_process_session(session: requests.Session) -> None:
    assert isinstance(session, in_process_session_type())
    # schemathesis's transport sends through an ASGIClient instead of building one per
    # request, and drops a ManagedCookiesSession's cookies after each request.
    assert isinstance(session, asgi.ASGIClient)
    assert isinstance(session, ManagedCookiesSession)


def test_each_request_runs_on_the_calling_thread(echo: Echo, session: requests.Session) -> None:
    session.get(f"{BASE}/a")
    done: list[int] = []

    def other() -> None:
        session.get(f"{BASE}/b")
        done.append(threading.get_ident())

    thread = threading.Thread(target=other)
    thread.start()
    thread.join(timeout=30)
    assert echo.threads == [threading.get_ident(), *done]


def test_the_wire_is_what_a_server_sees_and_answers(session: requests.Session) -> None:
    response = session.post(f"{BASE}/v2/p%20q/jobs?x=1&y=%2F", data=b"\x00body\xff")
    assert response.status_code == 207
    assert response.reason == "Multi-Status"
    assert response.json() == {
        "path": "/v2/p q/jobs",
        "raw_path": "/v2/p%20q/jobs",
        "query": "x=1&y=%2F",
        "host": "testserver",
        "body": "\x00body\xff",
    }
    assert response.raw.headers.getlist("set-cookie") == ["a=1", "b=2"]
    assert response.headers["x-latin"] == "caf\u00e9"
    assert response.cookies.get_dict() == {"a": "1", "b": "2"}


@pytest.mark.parametrize("stream", [False, True])
def test_an_answer_reads_the_same_streamed_or_not(stream: bool) -> None:
    # Not streamed, the adapter hands requests the body it holds; streamed, requests reads it
    # from the raw answer. Either way the answer's cookies are read (in any letter case) and
    # an answer that sets none leaves the jar as it was.
    seen: list[requests.Response] = []
    for cookie_header in (b"Set-Cookie", b"x-no-cookie"):

        async def app(
            scope: Scope, receive: Receive, send: Send, header: bytes = cookie_header
        ) -> None:
            await receive()
            headers = [(b"content-type", b"text/plain"), (header, b"c=3")]
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            await send({"type": "http.response.body", "body": b"ab", "more_body": True})
            await send({"type": "http.response.body", "body": b"cd"})

        app.modelarts_kit_runs_on_any_loop = True  # type: ignore[attr-defined]
        with asgi_session(app) as opened:
            seen.append(opened.get(f"{BASE}/a", stream=stream))
    assert [r.content for r in seen] == [b"abcd", b"abcd"]
    assert [r.cookies.get_dict() for r in seen] == [{"c": "3"}, {}]
    assert seen[0].raw.headers.getlist("set-cookie") == ["c=3"]


def test_a_head_answer_has_no_body(session: requests.Session) -> None:
    response = session.head(f"{BASE}/a")
    assert response.status_code == 207
    assert response.content == b""


def test_an_app_slower_than_the_read_timeout_is_a_read_timeout() -> None:
    stalled = asgi_session(Echo(any_loop=True, stall_s=30))
    timed_out = pytest.raises(requests.exceptions.ReadTimeout, match=r"read timeout=0\.05")
    with stalled as session, timed_out:
        session.get(f"{BASE}/a", timeout=(5, 0.05))


def test_closing_the_session_closes_every_thread_loop(echo: Echo) -> None:
    with asgi_session(echo) as session:
        session.get(f"{BASE}/a")
        thread = threading.Thread(target=session.get, args=(f"{BASE}/b",))
        thread.start()
        thread.join(timeout=30)
        assert isinstance(session, in_process_session_type())
        loops = list(session.in_thread._loops)
    assert len(loops) == 2
    assert all(loop.is_closed() for loop in loops)


def test_any_other_app_keeps_schemathesis_client_and_its_loop_thread() -> None:
    app = Echo(any_loop=False)
    with asgi_session(app) as session:
        assert not isinstance(session, in_process_session_type())
        assert session.get(f"{BASE}/a").status_code == 207
    assert app.threads
    assert app.threads[0] != threading.get_ident()


def test_only_true_marks_an_app() -> None:
    marked: Any = Echo(any_loop=True)
    assert runs_on_any_loop(marked)
    marked.modelarts_kit_runs_on_any_loop = "yes"
    assert not runs_on_any_loop(marked)
    assert not runs_on_any_loop(object())


def test_a_run_on_the_reference_server_builds_no_client_per_request() -> None:
    options = RunOptions(
        credentials=Credentials(token=DEV_TOKEN),
        project_id=DEV_PROJECT_ID,
        other_project_id=DEV_PROJECT_ID[::-1],
        budget=Budget(max_examples=2, seed=1),
        phases=("examples", "fuzzing"),
    )
    app = create_app()
    served = Echo(any_loop=True)  # counts the requests the server answered

    async def counted(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            served.threads.append(threading.get_ident())
        await app(scope, receive, send)

    counted.modelarts_kit_runs_on_any_loop = True  # type: ignore[attr-defined]
    try:
        with mock.patch.object(asgi, "get_client", wraps=asgi.get_client) as get_client:
            report = run_server_contract(ServerTarget.asgi(counted), options)
    finally:
        app.close()
    assert int(report.exit_code) == 0, report
    # Only schemathesis's ignored_auth probes (sent without the run's session: without
    # credentials, then with invalid ones, once per operation) still build a client.
    operations = len(load_spec().operations)
    assert len(served.threads) > 200
    assert get_client.call_count <= 2 * operations


def test_the_reason_phrase_is_the_standard_one_and_none_for_an_unknown_status() -> None:
    from modelarts_kit_contracts.server.inprocess import _reason_phrase

    assert _reason_phrase(200) == "OK"
    assert _reason_phrase(429) == "Too Many Requests"
    assert _reason_phrase(599) == ""
