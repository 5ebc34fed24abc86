"""Safe against a live service, bounded in time, and no secret in any output.

- live targets cap the creates the target could accept, terminate what the run created (also
  on Ctrl-C) and list it under ``created_jobs``; ``--read-only`` creates nothing;
- ``429`` is retried after ``Retry-After``; ``--rate`` spaces requests; ``--dry-run`` sends
  nothing;
- ``--max-time`` is a hard bound, also against a server that trickles its answer (asserted
  on a virtual clock given to the run, never on wall time: issue 34 item 11);
- the token, AK and SK never reach stdout, the JSON or JUnit report or a curl line, even when
  the server echoes them in a body.
"""

from __future__ import annotations

import _thread
import asyncio
import io
import itertools
import json
import signal
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from click.testing import CliRunner
from modelarts_kit.commands import contract as contract_commands
from modelarts_kit.commands.contract import server
from modelarts_kit_contracts.core import ExitCode, RunReport
from modelarts_kit_contracts.core.reporters import render_text, to_json, to_junit_xml
from modelarts_kit_contracts.server.run import Budget, RunOptions, plan_run, run_server_contract
from modelarts_kit_contracts.server.target import ASGI_BASE_URL, ServerTarget
from modelarts_kit_contracts.transport_auth import Credentials
from modelarts_kit_server import (
    DEV_PROJECT_ID,
    DEV_TOKEN,
    LifecycleTimings,
    ServerSettings,
    create_app,
    serve_in_thread,
)

from tests.virtual_clock import VirtualClock

from .test_server_cli import free_port

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
ASGIApp = Callable[
    [Scope, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]], Awaitable[None]
]
FINAL = {"Completed", "Failed", "Terminated"}
STOPPED = FINAL | {"Terminating"}


class Recorder:
    """ASGI middleware: records (method, path, status, time) of every exchange."""

    def __init__(
        self,
        app: Any,
        answer: Callable[[Scope, int], Message | None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.app = app
        self.answer = answer
        self.clock = clock
        self.seen: list[tuple[str, str, int, float]] = []
        self.count = 0

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        self.count += 1
        arrived = self.clock()
        canned = self.answer(scope, self.count) if self.answer is not None else None
        if canned is not None:
            self.seen.append((scope["method"], scope["path"], canned["status"], arrived))
            body = canned.pop("body")
            await send({"type": "http.response.start", **canned})
            await send({"type": "http.response.body", "body": body})
            return
        status = {}

        async def capture(message: Message) -> None:
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
            await send(message)

        await self.app(scope, receive, capture)
        self.seen.append((scope["method"], scope["path"], status.get("code", 0), arrived))

    def creates_accepted(self) -> int:
        return sum(
            1
            for m, p, s, _ in self.seen
            if m == "POST" and p.endswith("/training-jobs") and s == 201
        )


@contextmanager
def reference(**timings: float) -> Iterator[Any]:
    app = create_app(ServerSettings(timings=LifecycleTimings(**timings)))
    try:
        yield app
    finally:
        app.close()


def options(**overrides: Any) -> RunOptions:
    values: dict[str, Any] = {
        "credentials": Credentials(token=DEV_TOKEN),
        "project_id": DEV_PROJECT_ID,
        "other_project_id": DEV_PROJECT_ID[::-1],
        "budget": Budget(max_examples=2, seed=7),
        "phases": ("examples", "fuzzing"),
        "final_phase_wait_s": 2.0,
    }
    values.update(overrides)
    return RunOptions(**values)


def live(app: Any) -> ServerTarget:
    return ServerTarget(ASGI_BASE_URL, app, force_live=True)


def test_live_run_caps_creates_and_terminates_what_it_created() -> None:
    with reference(terminating_s=0.2) as app:
        recorder = Recorder(app)
        report = run_server_contract(live(recorder), options(max_creates=3))
        assert recorder.creates_accepted() <= 3
        assert 1 <= len(report.created_jobs) <= 3
        document = to_json(report)
        assert document["created_jobs"] == [
            {"id": job.id, "final_phase": job.final_phase} for job in report.created_jobs
        ]
        # every job is terminated (or already final) when the run returns
        for job in report.created_jobs:
            assert job.final_phase in STOPPED, report.created_jobs
        assert any("--max-creates" in note for note in report.notes), report.notes


def test_local_run_does_not_cap_creates() -> None:
    with reference() as app:
        recorder = Recorder(app)
        run_server_contract(ServerTarget.asgi(recorder), options(max_creates=1))
        assert recorder.creates_accepted() > 1


@pytest.mark.parametrize("guard", ["live", "read-only"])
def test_the_phases_never_delete_or_change_a_job_of_a_live_or_read_only_target(guard: str) -> None:
    """Schemathesis takes path ids from earlier answers (a create's, a list's): on a target
    that is not the run's own, it would delete or change the target's jobs (issue 26)."""
    with reference() as app:
        recorder = Recorder(app)
        target = live(recorder) if guard == "live" else ServerTarget.asgi(recorder)
        report = run_server_contract(
            target,
            options(scenarios=False, read_only=guard == "read-only", max_creates=3),
        )
        assert report.errors == []
        assert any(p.endswith("/training-job-searches") for _, p, _, _ in recorder.seen)
        assert [(m, p) for m, p, _, _ in recorder.seen if m in ("DELETE", "PUT")] == []


def test_read_only_sends_no_create_a_correct_target_could_accept() -> None:
    with reference() as app:
        recorder = Recorder(app)
        report = run_server_contract(live(recorder), options(read_only=True))
        assert recorder.creates_accepted() == 0
        assert report.created_jobs == []
        creates = [s for m, p, s, _ in recorder.seen if m == "POST" and p.endswith("training-jobs")]
        assert creates  # invalid bodies were sent, and refused
        assert all(400 <= s < 500 for s in creates)
        assert report.tallies.get("invalid_job_rejected") is not None
        assert report.tallies["unknown_job_documented_error"].passed == 2


class CtrlCOnceAJobExists(Recorder):
    """Presses Ctrl-C (``interrupt_main``) on the first read after an accepted create: the run
    has then read the create's answer, so the job is the run's to clean up. That read is held
    until the run's SIGINT handler has run (``handled``), so no create is on the wire when the
    run stops. The test installs the SIGINT handler itself: ``interrupt_main`` does nothing
    where SIGINT is ignored, as in a pytest started in the background. (Before: a timer pressed
    it after 1 s of wall time with no handler of its own; started in the background, the press
    was lost, the 200 fuzzing examples ran to the end, 40 s of CPU, and the test failed.)"""

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.pressed = False
        self.handled = threading.Event()

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if (
            scope["type"] == "http"
            and scope["method"] == "GET"
            and not self.pressed
            and self.creates_accepted()
        ):
            self.pressed = True
            _thread.interrupt_main()
            for _ in range(6000):  # bounded (60 s): the handler runs within the run's next look
                if self.handled.is_set():
                    break
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.05)  # the few statements from the handler to the run's stop
        await super().__call__(scope, receive, send)


def test_ctrl_c_still_terminates_the_jobs_created() -> None:
    with reference(terminating_s=0.2) as app:
        recorder = CtrlCOnceAJobExists(app)

        def ctrl_c(signum: int, frame: Any) -> None:
            recorder.handled.set()
            raise KeyboardInterrupt

        previous = signal.signal(signal.SIGINT, ctrl_c)
        try:
            # A budget the run would take long to finish: it ends on Ctrl-C, not by itself.
            report = run_server_contract(
                live(recorder),
                options(phases=("fuzzing",), budget=Budget(max_examples=200, seed=3)),
            )
        finally:
            signal.signal(signal.SIGINT, previous)
        assert recorder.handled.is_set()
        assert report.exit_code is ExitCode.USAGE_OR_CONNECTION_ERROR
        assert any("interrupted" in e for e in report.errors)
        assert report.created_jobs
        assert all(job.final_phase in STOPPED for job in report.created_jobs)


def test_429_is_retried_after_retry_after() -> None:
    def every_other_create(scope: Scope, count: int) -> Message | None:
        if scope["method"] == "POST" and scope["path"].endswith("/training-jobs") and count % 2:
            return {
                "status": 429,
                "headers": [(b"content-type", b"application/json"), (b"retry-after", b"0")],
                "body": json.dumps(
                    {"error_code": "ModelArts.2799", "error_msg": "services too many requests"}
                ).encode(),
            }
        return None

    with reference() as app:
        recorder = Recorder(app, every_other_create)
        report = run_server_contract(ServerTarget.asgi(recorder), options(phases=()))
    assert report.failures == [], [f.title for f in report.failures]
    assert any("429" in note for note in report.notes)


def test_rate_spaces_requests() -> None:
    # Paced on a virtual clock: each request arrives at the clock's time, and the guard's
    # waits move it, so the spacing is exact and the machine's speed does not enter.
    clock = VirtualClock()
    with reference() as app:
        recorder = Recorder(app, clock=clock.peek)
        run_server_contract(
            ServerTarget.asgi(recorder),
            options(phases=(), rate=20.0),
            clock=clock.now,
            sleep=clock.sleep,
        )
    times = sorted(t for *_, t in recorder.seen)
    assert len(times) > 20
    gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    assert min(gaps) >= 1 / 20 - 1e-9, min(gaps)  # never closer than the rate allows
    assert times[-1] - times[0] <= (len(times) - 1) / 20 + 1e-6  # and no slower either


def test_dry_run_prints_the_plan_and_sends_nothing() -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(0.2)
    url = f"http://127.0.0.1:{listener.getsockname()[1]}"
    try:
        result = CliRunner().invoke(
            server,
            [url, "--token", "t0ken-dry", "--project-id", DEV_PROJECT_ID, "--dry-run", "--live"],
        )
        with pytest.raises(TimeoutError):
            listener.accept()
    finally:
        listener.close()
    assert result.exit_code == 0, result.output
    for expected in ("scenarios:", "schemathesis phases:", "--max-creates 12", "nothing was sent"):
        assert expected in result.output
    assert "negative data only" in result.output
    assert f"target: {url} (live)\n" in result.output  # said once, not "(live) (live)"


TRICKLE_STEP = 0.25  # virtual seconds before each byte a trickling server sends


@contextmanager
def trickling_server(clock: VirtualClock, sent: list[int]) -> Iterator[str]:
    """Accepts, then answers a byte at a time, ``TRICKLE_STEP`` virtual seconds before each,
    each once the run has read the clock since the last (the run's watchdog and its main loop
    read it every 0.1 s); ``sent`` counts the bytes. Up to 2,600 bytes (650 s virtual)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    stop = threading.Event()

    def handle(conn: socket.socket) -> None:
        with conn:
            try:
                conn.recv(65536)
                for byte in b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" * 50:
                    clock.advance(TRICKLE_STEP)
                    reads = clock.reads
                    conn.send(bytes([byte]))
                    sent.append(byte)
                    if not clock.wait_for_read(reads, stop) and stop.is_set():
                        return
            except OSError:
                return

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=handle, args=(conn,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        listener.close()


def test_max_time_is_a_hard_bound_against_a_trickling_server(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command's ``--max-time 2`` ends the run at virtual t=2 (the run's clock, given to
    the run the command calls), though each byte restarts the 60 s request timeout."""
    report_path = tmp_path / "r.json"
    clock, sent = VirtualClock(), list[int]()
    monkeypatch.setattr(
        contract_commands, "run_server_contract", partial(run_server_contract, clock=clock.now)
    )
    with trickling_server(clock, sent) as url:
        result = CliRunner().invoke(
            server,
            [
                url,
                "--token",
                "t0ken-trickle",
                "--project-id",
                DEV_PROJECT_ID,
                "--max-time",
                "2",
                "--request-timeout",
                "60",
                "--report",
                f"json:{report_path}",
            ],
        )
        ended = clock.peek()
    # Stopped at the first look at or after virtual t=2: a few steps late at most (the server
    # moves the clock once per look of the watchdog or of the run), never the 60 s a request
    # may last, nor the 650 s the server would trickle.
    assert 2 <= ended <= 2 + 4 * TRICKLE_STEP, ended
    assert len(sent) <= 2 / TRICKLE_STEP + 4, len(sent)
    assert result.exit_code in (0, 1, 2)
    assert "PASSED" in result.output or "FAILED" in result.output or "ERROR" in result.output
    document = json.loads(report_path.read_text())
    assert document["exit_code"] == result.exit_code
    assert any("--max-time 2s" in line for line in document["errors"] + document["notes"])


def test_a_stalled_response_is_cut_at_the_request_timeout() -> None:
    """A request is cut once it has lasted ``request_timeout_s`` on the run's clock, though
    every byte restarts the socket's read timeout."""
    clock, sent = VirtualClock(), list[int]()
    with trickling_server(clock, sent) as url:
        report = run_server_contract(
            ServerTarget.from_url(url),
            options(request_timeout_s=1.5, budget=Budget(seed=1)),
            clock=clock.now,
        )
        ended = clock.peek()
    # The preflight's first request, cut at virtual t=1.5 (a few steps late at most); no
    # other request was sent.
    assert 1.5 <= ended <= 1.5 + 4 * TRICKLE_STEP, ended
    assert len(sent) <= 1.5 / TRICKLE_STEP + 4, len(sent)
    assert report.exit_code is ExitCode.USAGE_OR_CONNECTION_ERROR
    assert any("no complete answer" in e or "stall" in e for e in report.errors), report.errors


SECRET_TOKEN = "tok-Zq81xVv0-secret"


def test_secrets_never_reach_any_output_even_when_the_server_echoes_them() -> None:
    """A server that echoes the caller's token (and AK/SK) into error bodies."""

    def echo_token(scope: Scope, count: int) -> Message | None:
        headers = dict(scope["headers"])
        token = headers.get(b"x-auth-token", b"").decode()
        if scope["method"] == "GET" and count % 3 == 0:
            body = json.dumps({"error_msg": f"token {token} is not allowed here", "raw": token})
            return {
                "status": 400,
                "headers": [(b"content-type", b"application/json")],
                "body": body.encode(),
            }
        return None

    settings = ServerSettings(tokens=(SECRET_TOKEN,))
    app = create_app(settings)
    try:
        recorder = Recorder(app, echo_token)
        report = run_server_contract(
            ServerTarget.asgi(recorder),
            options(credentials=Credentials(token=SECRET_TOKEN)),
        )
    finally:
        app.close()
    assert report.failures, "the echoing server should break vendor_error_body"
    text = io.StringIO()
    render_text(report, text, color=False)
    outputs = [text.getvalue(), json.dumps(to_json(report)), to_junit_xml(report)]
    assert any("[REDACTED]" in out for out in outputs)
    for out in outputs:
        assert SECRET_TOKEN not in out


def test_aksk_secrets_are_scrubbed_wherever_they_appear() -> None:
    from modelarts_kit_contracts.core import Finding
    from modelarts_kit_contracts.server.scrub import scrub_report

    ak, sk = "AKEXAMPLE0123456", "SK/secret+value=="
    report = RunReport(target="x")
    report.record(
        "c",
        Finding(
            check="c",
            title=f"body echoes {sk}",
            expected="x",
            got=f'{{"ak": "{ak}", "q": "{quote(sk, safe="")}"}}',
            reproduce=f"curl -H 'Authorization: SDK-HMAC-SHA256 Access={ak}' -d '{sk}'",
        ),
    )
    report.errors.append(f"error with {json.dumps(sk)}")
    scrub_report(report, (None, ak, sk))
    dumped = json.dumps(to_json(report)) + to_junit_xml(report)
    for secret in (ak, sk, quote(sk, safe="")):
        assert secret not in dumped


def test_without_a_terminal_each_phase_prints_a_progress_line() -> None:
    result = CliRunner().invoke(server, ["--quick", "--seed", "2", "--final-phase-wait", "3"])
    assert result.exit_code == 0, result.output
    for phase in ("modelarts scenarios", "examples", "fuzzing"):
        assert any(line.startswith("[") and phase in line for line in result.output.splitlines()), (
            result.output
        )


@pytest.mark.parametrize("url_case", ["refused"])
def test_live_flag_is_accepted_on_loopback(url_case: str) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    result = CliRunner().invoke(
        server, [url, "--token", "t0ken-live", "--project-id", DEV_PROJECT_ID, "--live"]
    )
    assert result.exit_code == 2
    assert "creates capped at 12" in result.output


def test_serve_in_thread_target_is_local() -> None:
    with serve_in_thread(ServerSettings()) as url:
        assert ServerTarget.from_url(url).live is False


def test_schemathesis_is_pinned_to_the_version_the_adapter_is_tested_with() -> None:
    import tomllib

    from modelarts_kit_contracts.server.schemathesis_adapter import (
        PINNED_VERSION,
        installed_version,
    )

    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    dependencies = tomllib.loads(pyproject.read_text())["project"]["dependencies"]
    assert f"schemathesis=={PINNED_VERSION}" in dependencies
    assert installed_version() == PINNED_VERSION


def test_every_schemathesis_import_is_in_the_adapter() -> None:
    package = Path(__file__).resolve().parents[2] / "contracts" / "modelarts_kit_contracts"
    importers = sorted(
        str(path.relative_to(package / "server"))
        for path in (package / "server").rglob("*.py")
        if "import schemathesis" in path.read_text() or "from schemathesis" in path.read_text()
    )
    assert importers == ["schemathesis_adapter.py"], importers


@pytest.mark.parametrize("workers", [1, 2])
def test_workers_run_the_phases_in_parallel_threads(
    workers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    from modelarts_kit_contracts.server import http_probe

    threads: set[str] = set()
    prepare = http_probe.Traffic.prepare

    def recording(self: Any, session: Any) -> None:
        threads.add(threading.current_thread().name)
        prepare(self, session)

    monkeypatch.setattr(http_probe.Traffic, "prepare", recording)
    with reference() as app:
        report = run_server_contract(
            ServerTarget.asgi(app),
            options(phases=("fuzzing",), workers=workers, scenarios=False),
        )
    assert report.exit_code is ExitCode.PASSED, [str(f) for f in report.failures]
    engine_threads = threads - {"contract-server-run"}
    assert len(engine_threads) == workers, threads


def test_contracts_never_import_the_reference_server() -> None:
    package = Path(__file__).resolve().parents[2] / "contracts" / "modelarts_kit_contracts"
    importers = sorted(
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        if "modelarts_kit_server" in path.read_text()
    )
    assert importers == [], importers


def test_read_only_holds_on_a_loopback_target_and_the_plan_says_what_is_sent() -> None:
    """Issue 34 item 2: ``--read-only`` without ``--live`` on a local target (scenarios,
    examples, fuzzing and the stateful links) sent creates the server accepted, deletes and a
    description change, while the plan said "no create is sent". Nothing a correct server
    could accept as a create, no delete and no description change reach the recording
    server, and the ``--dry-run`` plan names exactly the operations and phases used."""
    run_options = options(read_only=True, phases=("examples", "fuzzing", "stateful"))
    with reference() as app:
        recorder = Recorder(app)
        target = ServerTarget.asgi(recorder)
        plan = plan_run(target, run_options)
        report = run_server_contract(target, run_options)
    assert recorder.seen
    assert recorder.creates_accepted() == 0
    assert report.created_jobs == []
    assert [(m, p) for m, p, _, _ in recorder.seen if m in ("DELETE", "PUT")] == []
    assert any("create(s) not sent" in note for note in report.notes), report.notes
    # The plan: no stateful phase (its links create jobs), creates and terminates with
    # invalid data only, delete and describe never sent.
    assert "stateful" not in plan.phases
    by_role = {line.split("(")[1].split(")")[0]: line for line in plan.operations}
    assert "negative data only" in by_role["create"]
    assert "negative data only" in by_role["terminate"]
    assert "not sent" in by_role["delete"]
    assert "not sent" in by_role["describe"]
    assert (
        "--read-only: no create a correct server could accept, no delete, no description change"
        in plan.caps
    )


@pytest.mark.parametrize("live", [False, True])
def test_the_guard_sends_no_delete_or_description_change_under_read_only(live: bool) -> None:
    """Whoever asks (a scenario, a phase), under ``--read-only`` the traffic guard refuses a
    delete and a description change before anything is sent, on every target."""
    import requests
    from modelarts_kit_contracts.server.guard import (
        CreateCapReached,
        GuardPolicy,
        Route,
        TrafficGuard,
    )
    from modelarts_kit_spec.meaning import Role

    job = "/v2/{project_id}/training-jobs/{training_job_id}"
    guard = TrafficGuard(
        routes=(Route(Role.DELETE, "DELETE", job), Route(Role.DESCRIBE, "PUT", job)),
        job_id_pointer=("metadata", "id"),
        phase_pointer=("status", "phase"),
        could_create=lambda body: True,
        policy=GuardPolicy(live=live, read_only=True),
    )
    url = f"http://127.0.0.1:1/v2/{DEV_PROJECT_ID}/training-jobs/some-job"
    for method in ("DELETE", "PUT"):
        request = requests.Request(method, url, json={}).prepare()
        with pytest.raises(CreateCapReached, match="not sent: --read-only"):
            guard(request)
    assert guard.changes_blocked == 2
