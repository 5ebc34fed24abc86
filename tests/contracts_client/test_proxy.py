"""The validating proxy between the generated client and the reference server."""

from __future__ import annotations

import contextlib
import io
import json
import signal
import subprocess
import sys
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from modelarts_kit_contracts.core import Finding
from modelarts_kit_contracts.core.reporters import render_text
from modelarts_kit_contracts.mock.serving import serve_in_thread as serve_app
from modelarts_kit_contracts.proxy import HOP_BY_HOP, ValidatingProxy
from modelarts_kit_server import DEV_PROJECT_ID, DEV_TOKEN, create_app, serve_in_thread
from modelarts_training_client import ApiError, ModelArtsError, TokenAuth, TrainingJobsClient

from .cli_helpers import announced_url

# httpx's default 5 s is no bound for a proxy process that a loaded machine starts late (its
# first answer imports and loads the spec): these tests wait for an answer, they do not time it.
PATIENT = httpx.Timeout(60.0)

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

JOB = {
    "kind": "job",
    "metadata": {"name": "proxy-check", "description": "through the proxy"},
    "algorithm": {
        "engine": {"image_url": "swr.example.com/team/train:1.0"},
        "command": "python train.py",
    },
    "spec": {"resource": {"flavor_id": "modelarts.vm.cpu.2u", "node_count": 1}},
}


class Recorder:
    """ASGI middleware: records what the server received and sent; may break responses."""

    def __init__(self, app: ASGIApp, breaks: Callable[[Scope, Any], Any] | None = None) -> None:
        self.app = app
        self.breaks = breaks
        self.requests: list[tuple[str, list[tuple[bytes, bytes]], bytes]] = []
        self.responses: list[tuple[int, list[tuple[bytes, bytes]], bytes]] = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        body = bytearray()
        messages: list[MutableMapping[str, Any]] = []
        while True:
            message = await receive()
            messages.append(message)
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        self.requests.append((scope["path"], list(scope["headers"]), bytes(body)))

        async def replay() -> MutableMapping[str, Any]:
            return messages.pop(0) if messages else {"type": "http.disconnect"}

        start: MutableMapping[str, Any] = {}
        chunks = bytearray()

        async def capture(message: MutableMapping[str, Any]) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
            elif message["type"] == "http.response.body":
                chunks.extend(message.get("body", b""))

        await self.app(scope, replay, capture)
        content = bytes(chunks)
        headers = [(k, v) for k, v in start.get("headers", [])]
        if self.breaks is not None and content:
            broken = self.breaks(scope, json.loads(content))
            if broken is not None:
                content = json.dumps(broken).encode()
                headers = [(k, v) for k, v in headers if k.lower() != b"content-length"]
                headers.append((b"content-length", str(len(content)).encode()))
        self.responses.append((start["status"], headers, content))
        await send({"type": "http.response.start", "status": start["status"], "headers": headers})
        await send({"type": "http.response.body", "body": content})


def drop_kind_from_show(scope: Scope, body: Any) -> Any:
    if scope["method"] == "GET" and isinstance(body, dict):
        return {k: v for k, v in body.items() if k != "kind"}
    return None


@contextmanager
def proxied(recorder: Recorder) -> Iterator[tuple[str, ValidatingProxy, list[Finding]]]:
    seen: list[Finding] = []
    with serve_in_thread(app=recorder) as upstream:
        proxy = ValidatingProxy(upstream, on_violation=seen.append)
        with serve_app(proxy) as url:
            yield url, proxy, seen


def client(url: str) -> TrainingJobsClient:
    return TrainingJobsClient(project_id=DEV_PROJECT_ID, auth=TokenAuth(DEV_TOKEN), base_url=url)


def test_correct_traffic_passes_and_is_forwarded_unchanged() -> None:
    recorder = Recorder(create_app())
    with proxied(recorder) as (url, proxy, seen), client(url) as api:
        created = api.create_training_job(JOB)
        job_id = created.metadata.id
        shown = api.show_training_job_details(job_id)
        api.stop_training_job(job_id, {"action_type": "terminate"})
        # A raw exchange, to compare bytes on both sides of the proxy.
        raw = httpx.get(
            f"{url}/v2/{DEV_PROJECT_ID}/training-jobs/{job_id}",
            headers={"X-Auth-Token": DEV_TOKEN, "X-Trace": "kept"},
            timeout=PATIENT,
        )
    assert shown.metadata.id == job_id
    assert seen == []
    report = proxy.finish()
    assert report.failures == []
    assert report.errors == []
    assert report.tallies["response_body"].passed == 4
    # Request: the server got the client's body bytes and headers (hop-by-hop aside).
    path, headers, body = recorder.requests[0]
    assert path.endswith("/training-jobs")
    assert json.loads(body) == JOB
    assert (b"x-auth-token", DEV_TOKEN.encode()) in headers
    assert (b"x-trace", b"kept") in recorder.requests[-1][1]
    # Response: the client got the server's status, headers and bytes.
    status, sent_headers, content = recorder.responses[-1]
    assert raw.status_code == status
    assert raw.content == content
    forwarded = {(k.decode().lower(), v.decode()) for k, v in sent_headers}
    forwarded = {(k, v) for k, v in forwarded if k not in HOP_BY_HOP}
    received = {(k.lower(), v) for k, v in raw.headers.multi_items()}
    # The upstream's HTTP server adds Server and Date below the app; the proxy adds nothing.
    assert forwarded == received - {(k, v) for k, v in received if k in ("server", "date")}
    assert [k.lower() for k, _ in raw.headers.multi_items()].count("date") == 1


def test_a_broken_server_is_reported_with_pointer_and_rule() -> None:
    recorder = Recorder(create_app(), breaks=create_time_as_text_in_show)
    with proxied(recorder) as (url, proxy, seen), client(url) as api:
        created = api.create_training_job(JOB)
        with pytest.raises(ModelArtsError) as raised:
            api.show_training_job_details(created.metadata.id)
    assert not isinstance(raised.value, ApiError)  # the client refused the response
    report = proxy.finish()
    assert [(f.check, f.operation, f.pointer) for f in report.failures] == [
        ("response_body", "ShowTrainingJobDetails", "/metadata/create_time")
    ]
    assert "type" in report.failures[0].title
    assert [(v.check, v.pointer, v.rule) for v in seen] == [
        ("response_body", "/metadata/create_time", "type")
    ]
    assert int(report.exit_code) == 1


def test_a_show_without_kind_departs_only_from_a_decision() -> None:
    """``kind`` is required in a job answer by the ledger's decision alone: the proxy fails no
    server on it (issue 31 item 4)."""
    recorder = Recorder(create_app(), breaks=drop_kind_from_show)
    with proxied(recorder) as (url, proxy, seen), client(url) as api:
        created = api.create_training_job(JOB)
        with contextlib.suppress(ModelArtsError):  # the client's own reading of the spec
            api.show_training_job_details(created.metadata.id)
    assert seen == []
    assert int(proxy.finish().exit_code) == 0


def create_time_as_text_in_show(scope: Scope, body: Any) -> Any:
    if scope["method"] == "GET" and isinstance(body, dict):
        broken = json.loads(json.dumps(body))
        broken["metadata"]["create_time"] = "yesterday"
        return broken
    return None


def mistype_show(scope: Scope, body: Any) -> Any:
    """Two documented rules broken in one show: the phase's values, the creation time's type."""
    if scope["method"] == "GET" and isinstance(body, dict):
        broken = json.loads(json.dumps(body))
        broken["status"]["phase"] = "running"
        broken["metadata"]["create_time"] = "yesterday"
        return broken
    return None


def test_each_violation_is_counted_once_and_the_table_agrees_with_the_summary() -> None:
    # Issue 14: N broken rules gave N x N violations, and the table counted them all while
    # the summary counted N. Issue 31: one fault (a show that mistypes its answer) is one
    # failure of its rule and operation, with its cases and the other places it met.
    recorder = Recorder(create_app(), breaks=mistype_show)
    with proxied(recorder) as (url, proxy, seen), client(url) as api:
        created = api.create_training_job(JOB)
        for _ in range(2):
            with pytest.raises(ModelArtsError):
                api.show_training_job_details(created.metadata.id)
    report = proxy.finish()
    broken = [
        ("response_body", "/metadata/create_time", "type"),
        ("response_body", "/status/phase", "enum"),
    ]
    assert sorted((f.check, f.pointer, f.rule) for f in seen) == sorted(broken * 2)
    assert sorted((f.check, f.pointer, f.rule) for f in report.failures) == broken
    tally = report.tallies["response_body"]
    assert (tally.passed, tally.failed) == (1, 2)  # the create, then two broken shows
    (group,) = report.failure_groups()
    assert group.cases == 2
    out = io.StringIO()
    render_text(report, out, color=False)
    text = out.getvalue()
    assert "FAILED: 1 contract violation(s) in 2 cases" in text
    assert text.count("response_body [") == 1
    assert "cases: 2 (one shown)" in text
    places = {pointer for _, pointer, _ in broken}
    (other,) = places - {group.pointer}  # the representative's place, and the other one
    assert f"also at: {other}" in text


def test_unreachable_upstream_is_a_run_error() -> None:
    proxy = ValidatingProxy("http://127.0.0.1:9")
    with serve_app(proxy) as url:
        answer = httpx.get(f"{url}/v2/{DEV_PROJECT_ID}/training-jobs/abc", timeout=PATIENT)
    assert answer.status_code == 502
    assert int(proxy.finish().exit_code) == 2


def test_proxy_cli_bounded_by_max_requests(tmp_path: Any) -> None:
    report = tmp_path / "proxy.json"
    with serve_in_thread() as upstream:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "modelarts_kit",
                "contract",
                "proxy",
                "--upstream",
                upstream,
                "--max-requests",
                "1",
                "--max-time",
                "60",
                "--report",
                f"json:{report}",
                "--no-color",
            ],
            stderr=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert process.stderr is not None
        url = announced_url(process.stderr)
        # PATCH: no path of the spec documents it (PUT on a job is the description change).
        httpx.patch(
            f"{url}/v2/{DEV_PROJECT_ID}/training-jobs/abc",
            headers={"X-Auth-Token": "t"},
            timeout=PATIENT,
        )
        out, _ = process.communicate(timeout=60)
    assert process.returncode == 1, out
    document = json.loads(report.read_text())
    assert [f["check"] for f in document["failures"]] == ["request_method"]


def test_proxy_cli_writes_its_report_on_sigterm(tmp_path: Any) -> None:
    report = tmp_path / "proxy.xml"
    with serve_in_thread() as upstream:
        process = subprocess.Popen(
            [sys.executable, "-m", "modelarts_kit", "contract", "proxy", "--upstream", upstream,
             "--max-time", "60", "--report", f"junit:{report}", "--no-color"],
            stderr=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        assert process.stderr is not None
        url = announced_url(process.stderr)
        answer = httpx.get(
            f"{url}/v2/{DEV_PROJECT_ID}/training-jobs/missing",
            headers={"X-Auth-Token": DEV_TOKEN},
            timeout=PATIENT,
        )
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=60)
    assert answer.status_code == 400  # the documented "not found" answer, valid traffic
    assert process.returncode == 0
    assert 'name="response_body"' in report.read_text()
