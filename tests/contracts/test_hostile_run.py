"""Long contract runs under hostile conditions: signals, slow servers, echoed secrets (issue 24,
rows 11-13).

- row 11: SIGTERM (what ``timeout``, a cancelled CI job and ``docker stop`` send) ends
  ``contract server --live`` as Ctrl-C does: every job it created gets its terminate, the
  reports are written, exit 2 and "interrupted" last. Before: the process died at once
  (-15), no report, the created jobs left running. ``contract client`` ends as on Ctrl-C
  (before: killed); ``contract mock`` ends cleanly (it already did);
- row 12: against a slow server, ``--max-time`` keeps what the clean-up needs: every created
  job gets its terminate, a terminate that timed out is sent again (bounded), and the note
  names the jobs that got one and those that did not. Before: 1 of 3 created jobs got a
  terminate, "terminate sent for 1", an error naming a job that was not the only one left;
- row 13: a server that answers the token as a job id and echoes it base64-, base64url- and
  percent-encoded: no form of it reaches stdout, the JSON (``created_jobs`` included), the
  JUnit or the Markdown report, nor a curl line. Before: the id was printed in "created jobs"
  and the JSON ``created_jobs``, and a base64 echo was scrubbed nowhere.
"""

from __future__ import annotations

import asyncio
import base64
import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
import requests
from hypothesis import given
from hypothesis import strategies as st
from modelarts_kit_contracts.client.adapters import ClientTarget
from modelarts_kit_contracts.client.adapters.generated import GeneratedClientAdapter
from modelarts_kit_contracts.core import Finding, RunReport
from modelarts_kit_contracts.core.reporters import (
    render_text,
    to_json,
    to_junit_xml,
    to_markdown,
)
from modelarts_kit_contracts.server import run as run_module
from modelarts_kit_contracts.server.guard import (
    MAX_429_RETRIES,
    CreatedJob,
    RunStopped,
    TrafficGuard,
)
from modelarts_kit_contracts.server.run import Budget, RunOptions, run_server_contract
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
from modelarts_kit_wire.redaction import REDACTED, Scrubber

from tests.contracts_client.cli_helpers import announced_url
from tests.virtual_clock import VirtualClock

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

TOKEN = "tok-Zq81xVv0-secret>~"


def encodings(secret: str) -> dict[str, str]:
    raw = secret.encode()
    return {
        "plain": secret,
        "base64": base64.b64encode(raw).decode(),
        "base64url": base64.urlsafe_b64encode(raw).decode(),
        "base64 unpadded": base64.b64encode(raw).decode().rstrip("="),
        "percent": quote(secret, safe=""),
    }


def every_output(report: RunReport) -> dict[str, str]:
    text = io.StringIO()
    render_text(report, text, color=False)
    return {
        "stdout": text.getvalue(),
        "json": json.dumps(to_json(report)),
        "junit": to_junit_xml(report),
        "markdown": to_markdown(report),
    }


class TokenAsJobId:
    """The reference server, but every created job's id is the caller's token, and every
    error body echoes the token in its encodings."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start: Message = {}
        chunks = bytearray()

        async def capture(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
            else:
                chunks.extend(message.get("body", b""))

        await self.app(scope, receive, capture)
        body = bytes(chunks)
        if start["status"] == 201:
            document = json.loads(body)
            document["metadata"]["id"] = TOKEN
            body = json.dumps(document).encode()
        elif start["status"] >= 400:
            echoed = encodings(TOKEN)
            body = json.dumps(
                {
                    "error_code": "ModelArts.2775",
                    "error_msg": f"job {echoed['base64']} not found",
                    "hint": f"{echoed['base64url']} {echoed['percent']}",
                }
            ).encode()
        headers = [(k, v) for k, v in start["headers"] if k.lower() != b"content-length"]
        headers.append((b"content-length", str(len(body)).encode()))
        await send({**start, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def run_echoing(middleware: Callable[[Any], Any]) -> RunReport:
    """A live run (two examples, two creates at most) against the reference server behind
    ``middleware``, a hostile echo of the token."""
    app = create_app(ServerSettings(tokens=(TOKEN,)))
    try:
        report = run_server_contract(
            ServerTarget(ASGI_BASE_URL, middleware(app), force_live=True),
            RunOptions(
                credentials=Credentials(token=TOKEN),
                project_id=DEV_PROJECT_ID,
                other_project_id=DEV_PROJECT_ID[::-1],
                budget=Budget(max_examples=2, seed=7),
                phases=("examples",),
                max_creates=2,
                final_phase_wait_s=0.5,
            ),
        )
    finally:
        app.close()
    return report


def test_a_token_answered_as_job_id_and_echoed_encoded_reaches_no_output() -> None:
    assert encodings(TOKEN)["base64"] != encodings(TOKEN)["base64url"]
    report = run_echoing(TokenAsJobId)
    assert report.created_jobs, "the run should have created jobs"
    outputs = every_output(report)
    assert f"{REDACTED} (" in outputs["stdout"]  # "created jobs (last phase): [REDACTED] (...)"
    assert {"id": REDACTED} in [
        {"id": job["id"]} for job in json.loads(outputs["json"])["created_jobs"]
    ]
    for where, text in outputs.items():
        for form, value in encodings(TOKEN).items():
            assert value not in text, f"{form} form of the token in {where}"


def test_a_report_built_by_hand_is_scrubbed_by_every_reporter() -> None:
    """The reporters scrub with the report's own scrubber, whoever built the report."""
    from modelarts_kit_contracts.core import CreatedJob

    report = RunReport(target="t")
    report.scrubber.learn(TOKEN)
    forms = encodings(TOKEN)
    report.record("c", Finding("echo", expected="x", got=" ".join(forms.values()), check="c"))
    report.created_jobs.append(CreatedJob(TOKEN, "Running"))
    report.notes.append(f"clean-up: {forms['base64url']}")
    for where, text in every_output(report).items():
        for form, value in forms.items():
            assert value not in text, f"{form} form of the token in {where}"


CASE_CHANGES: dict[str, Callable[[str], str]] = {
    "upper": str.upper,
    "lower": str.lower,
    "swapped": str.swapcase,
    "title": str.title,
}


class CaseChangingEcho(TokenAsJobId):
    """Issue 34 item 9: the hostile server echoes the token in every encoding, each in
    every case change, in every error body."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        start: Message = {}

        async def changed(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
                return
            body = message.get("body", b"")
            if start.get("status", 0) >= 400:
                forms = [
                    change(value)
                    for value in encodings(TOKEN).values()
                    for change in CASE_CHANGES.values()
                ]
                body = json.dumps({"error_code": "ModelArts.2775", "error_msg": " ".join(forms)})
                body = body.encode()
            headers = [(k, v) for k, v in start["headers"] if k.lower() != b"content-length"]
            headers.append((b"content-length", str(len(body)).encode()))
            await send({**start, "headers": headers})
            await send({**message, "body": body})

        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        await TokenAsJobId.__call__(self, scope, receive, changed)


def test_a_token_echoed_in_another_case_is_scrubbed_from_all_four_reports() -> None:
    """The same echo upper-cased, lower-cased, case-swapped, title-cased: no form of the
    token, in any case, reaches stdout, the JSON, the JUnit or the Markdown report."""
    report = run_echoing(CaseChangingEcho)
    outputs = every_output(report)
    assert any(REDACTED in text for text in outputs.values())
    for where, text in outputs.items():
        folded = text.casefold()
        for form, value in encodings(TOKEN).items():
            assert value.casefold() not in folded, f"{form} form of the token in {where}"


def test_the_scrubber_matches_every_form_in_any_case() -> None:
    scrub = Scrubber([TOKEN])
    for form, value in encodings(TOKEN).items():
        for case, change in CASE_CHANGES.items():
            assert scrub(f"<{change(value)}>") == f"<{REDACTED}>", (form, case)


@given(
    secret=st.text(min_size=12, max_size=40).filter(lambda s: s == s.strip()),
    prefix=st.binary(max_size=7),
    suffix=st.binary(max_size=7),
    urlsafe=st.booleans(),
)
def test_a_secret_inside_a_longer_base64_text_is_scrubbed(
    secret: str, prefix: bytes, suffix: bytes, urlsafe: bool
) -> None:
    """Basic credentials, an echoed blob: the secret at any byte alignment of base64."""
    encode = base64.urlsafe_b64encode if urlsafe else base64.b64encode
    text = encode(prefix + secret.encode() + suffix).decode()
    assert REDACTED in Scrubber([secret])(text)


def test_the_scrubber_shows_no_secret_and_ignores_values_too_short_to_tell() -> None:
    scrub = Scrubber([TOKEN, "abc"])
    assert TOKEN not in repr(scrub)
    assert scrub("abc") == "abc"  # three characters: ordinary text, not scrubbed
    assert scrub(f"X-Auth-Token: anything-else; {TOKEN}") == f"X-Auth-Token: {REDACTED}"


# --- row 11: SIGTERM is Ctrl-C -------------------------------------------------------------

REPO = Path(__file__).resolve().parents[2]
WAIT_S = 300.0  # a bound on every wait for a subprocess (generous: a busy machine starts slowly)


STALL_S = 3.0
CUT_BOUND_S = 30.0
REFUSED = b'{"error_code": "ModelArts.4700", "error_msg": "not now"}'
# A terminate attempt's fate: None (the reference server answers it), or (seconds to stall
# on the run's clock, the status then answered without applying it).
Refusal = tuple[float, int] | None


class CountingServer:
    """ASGI middleware over the reference server: the jobs it created and those it was asked
    to terminate (202), an optional delay before every answer (a slow server), and terminate
    attempts it refuses (``refuses(server, job_id, attempt)``), after a stall. Delays and
    stalls pass on ``clock``, a virtual clock the run reads too: nothing here sleeps."""

    def __init__(
        self,
        app: Any,
        delay_s: float = 0.0,
        refuses: Callable[[CountingServer, str, int], Refusal] | None = None,
        clock: VirtualClock | None = None,
    ) -> None:
        self.app = app
        self.delay_s = delay_s
        self.refuses = refuses
        self.clock = clock
        self.created: list[str] = []
        self.terminated: list[str] = []
        self.attempts: dict[str, int] = {}
        self._lock = threading.Lock()

    async def _stall(self, stall_s: float, receive: Receive) -> None:
        """Say nothing for ``stall_s`` of the run's virtual clock, then until the run's
        watchdog, reading that clock, cuts the connection; a run that never cuts it gets the
        refusal after CUT_BOUND_S of real time (a bound on a wait, not a measurement)."""
        assert self.clock is not None, "a stall is timed on the run's virtual clock"
        self.clock.advance(stall_s)

        async def cut() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass

        with suppress(TimeoutError):
            await asyncio.wait_for(cut(), CUT_BOUND_S)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.delay_s and self.clock is not None:
            self.clock.advance(self.delay_s)  # a slow answer, on the run's virtual clock
        if scope["path"].endswith("/actions") and self.refuses is not None:
            job_id = scope["path"].split("/")[-2]
            with self._lock:
                attempt = self.attempts[job_id] = self.attempts.get(job_id, 0) + 1
            refusal = self.refuses(self, job_id, attempt)
            if refusal is not None:
                stall_s, status = refusal
                if stall_s:
                    await self._stall(stall_s, receive)
                headers = [(b"content-type", b"application/json"), (b"retry-after", b"0")]
                await send({"type": "http.response.start", "status": status, "headers": headers})
                await send({"type": "http.response.body", "body": REFUSED})
                return
        status = 0
        chunks = bytearray()

        async def capture(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            else:
                chunks.extend(message.get("body", b""))
            await send(message)

        await self.app(scope, receive, capture)
        method, path = scope["method"], scope["path"]
        with self._lock:
            if method == "POST" and path.endswith("/training-jobs") and status == 201:
                self.created.append(json.loads(chunks)["metadata"]["id"])
            if method == "POST" and path.endswith("/actions") and status == 202:
                self.terminated.append(path.split("/")[-2])

    def left_running(self) -> set[str]:
        with self._lock:
            return set(self.created) - set(self.terminated)


@contextmanager
def counting_server(
    delay_s: float = 0.0,
    refuses: Callable[[CountingServer, str, int], Refusal] | None = None,
    clock: VirtualClock | None = None,
) -> Iterator[tuple[str, CountingServer]]:
    # Jobs that would run for minutes: only a terminate stops them.
    timings = LifecycleTimings(startup_s=300, running_s=600, terminating_s=0.2)
    app = create_app(ServerSettings(timings=timings))
    counter = CountingServer(app, delay_s, refuses, clock)
    try:
        with serve_in_thread(app=counter) as url:
            yield url, counter
    finally:
        app.close()


def kit_process(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "modelarts_kit", *args],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


# Only a guard against a hang (issue 34 item 11): a wait ends when its condition holds or
# its process has ended, however slow a busy machine makes the process get there.
HANG_S = 600.0


def wait_for(
    condition: Callable[[], bool], what: str, process: subprocess.Popen[str] | None = None
) -> None:
    ends = time.monotonic() + HANG_S
    while not condition():
        if process is not None and process.poll() is not None:
            _, err = process.communicate()
            raise AssertionError(f"the process ended before {what}: {err}")
        if time.monotonic() >= ends:
            raise AssertionError(f"no {what} within {HANG_S:g} s: the process hangs")
        time.sleep(0.05)


def test_sigterm_ends_a_live_server_run_as_ctrl_c_does(tmp_path: Path) -> None:
    report = tmp_path / "run.json"
    with counting_server() as (url, counter):
        process = kit_process(
            "contract", "server", url, "--live", "--token", DEV_TOKEN,
            "--project-id", DEV_PROJECT_ID, "--phases", "fuzzing", "--max-examples", "500",
            "--final-phase-wait", "1", "--report", f"json:{report}",
        )  # fmt: skip
        try:
            wait_for(lambda: len(counter.created) >= 2, "two created jobs", process)
            process.send_signal(signal.SIGTERM)
            _, err = process.communicate(timeout=WAIT_S)
        finally:
            process.kill()
        left = counter.left_running()
    assert process.returncode == 2, err  # as for Ctrl-C
    assert left == set(), f"{len(left)} of {len(counter.created)} created jobs not terminated"
    document = json.loads(report.read_text())
    assert {job["id"] for job in document["created_jobs"]} == set(counter.created)
    assert any("interrupted (SIGTERM)" in error for error in document["errors"])
    assert "interrupted" in err.strip().splitlines()[-1]
    assert "Traceback" not in err


class _MarkingAdapter(GeneratedClientAdapter):
    """The generated client's adapter, touching ``$MARK`` at its first call: the cases are
    generated and the check is running them."""

    def create(self, project_id: str, body: object) -> object:
        Path(os.environ["MARK"]).touch()
        return super().create(project_id, body)


def marking_adapter(target: ClientTarget) -> GeneratedClientAdapter:
    return _MarkingAdapter(target)


def test_sigterm_ends_a_client_check_as_ctrl_c_does(tmp_path: Path) -> None:
    mark = tmp_path / "running"
    os.environ["MARK"] = str(mark)
    try:
        # One example per variant: the budget only sets how many success answers each
        # operation gets (the error cases, most of a run, stay), so the check still runs for
        # seconds after its first create, and it starts sooner (1.3 s of cases, not 3.2 s).
        process = kit_process(
            "contract", "client", "--adapter", f"{__name__}:marking_adapter",
            "--max-examples", "1",
        )  # fmt: skip
    finally:
        del os.environ["MARK"]
    try:
        wait_for(mark.exists, "the client check to start", process)
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=WAIT_S)
    finally:
        process.kill()
    # As after Ctrl-C: the report of the cases run, then "interrupted" last, exit 2.
    assert process.returncode == 2, err
    assert err.strip().splitlines()[-1].startswith("error: interrupted (SIGTERM)"), err
    assert "Traceback" not in err


def test_sigterm_ends_the_mock_cleanly() -> None:
    process = kit_process("contract", "mock", "--port", "0", "--max-time", "60")
    try:
        assert process.stderr is not None
        announced_url(process.stderr)
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=WAIT_S)
    finally:
        process.kill()
    assert process.returncode == 0, err
    assert "request(s)" in err
    assert "Traceback" not in err


def test_the_previous_sigterm_handler_is_back_after_a_command() -> None:
    from modelarts_kit.signals import sigterm_as_interrupt

    before = signal.getsignal(signal.SIGTERM)
    seen: list[str] = []
    with sigterm_as_interrupt(seen.append) as terminate:
        os.kill(os.getpid(), signal.SIGTERM)
        os.kill(os.getpid(), signal.SIGTERM)  # a second one does not start a second stop
        wait_for(lambda: terminate.received, "the handler")
    assert seen == ["SIGTERM"]
    assert signal.getsignal(signal.SIGTERM) is before


# --- row 12: the clean-up's share of --max-time -----------------------------------------------


def live_options(**overrides: Any) -> RunOptions:
    values: dict[str, Any] = {
        "credentials": Credentials(token=DEV_TOKEN),
        "project_id": DEV_PROJECT_ID,
        "other_project_id": DEV_PROJECT_ID[::-1],
        "budget": Budget(max_examples=2, seed=5),
        "final_phase_wait_s": 1.0,
    }
    values.update(overrides)
    return RunOptions(**values)


def cleanup_note(report: RunReport) -> str:
    notes = [n for n in report.notes if n.startswith("clean-up:")]
    assert len(notes) == 1, report.notes
    return notes[0]


def test_the_guard_reads_the_work_deadline_before_each_request() -> None:
    """The clean-up's share grows with each job created: the guard asks for the bound before
    each request, not only when the run's thread polls it (every 0.1 s of real time, too late
    for a quick worker on a virtual clock: a created job was once left unterminated)."""
    asked: list[float] = []

    def refresh() -> None:
        asked.append(1.0)
        guard.deadline = 40.0  # the share grew: the bound is now behind the clock (50)

    guard = TrafficGuard(
        routes=(),
        job_id_pointer=(),
        phase_pointer=(),
        could_create=lambda _body: True,
        deadline=100.0,
        clock=lambda: 50.0,
        refresh_deadline=refresh,
    )
    request = requests.Request("GET", "http://127.0.0.1:9/v2/p/training-jobs/j").prepare()
    with pytest.raises(RunStopped):
        guard(request)
    assert asked == [1.0]
    guard.allow_after_stop, guard.deadline = True, 100.0  # the clean-up keeps its own bound
    guard(request)
    assert asked == [1.0]


def test_max_time_keeps_enough_for_every_created_job_against_a_slow_server() -> None:
    """Every answer takes 0.8 s on the run's (virtual) clock: the run keeps enough of its
    12 s for the clean-up and ends within them (one answer late at most), never on wall
    time (issue 34 item 11)."""
    clock = VirtualClock()
    with counting_server(delay_s=0.8, clock=clock) as (url, counter):
        report = run_server_contract(
            ServerTarget.from_url(url, live=True),
            live_options(max_creates=3, budget=Budget(max_examples=2, max_time=12, seed=5)),
            clock=clock.now,
        )
        ended = clock.peek()
        left = counter.left_running()
    assert 0 < ended <= 12 + 0.8, ended  # --max-time, and the answer in flight at its end
    assert any("--max-time 12s reached" in note for note in report.notes), report.notes
    assert counter.created
    assert left == set(), f"{len(left)} of {len(counter.created)} created jobs not terminated"
    assert not [e for e in report.errors if "clean-up" in e], report.errors
    assert {job.id for job in report.created_jobs} == set(counter.created)
    assert "no terminate" not in cleanup_note(report)


def test_a_timed_out_terminate_is_sent_again_and_the_note_names_each_job() -> None:
    def stalls(server: CountingServer, job_id: str, attempt: int) -> Refusal:
        # Every job's first terminate stalls; the first job created never gets an answer.
        if job_id in server.created and (attempt == 1 or job_id == server.created[0]):
            return (STALL_S, 503)
        return None

    clock = VirtualClock()  # the stalls pass on it: 21 s of real stalls before
    with counting_server(refuses=stalls, clock=clock) as (url, counter):
        report = run_server_contract(
            ServerTarget.from_url(url, live=True),
            live_options(phases=(), request_timeout_s=2.0),  # < STALL_S
            clock=clock.now,
        )
        left = counter.left_running()
        attempts = dict(counter.attempts)
    first, *others = counter.created
    assert others, "the scenarios should create several jobs"
    assert left == {first}  # the others got their terminate on the second attempt
    assert attempts[first] == 3  # bounded
    note = cleanup_note(report)
    answered, _, missed = note.partition("; no terminate for: ")
    assert missed == first
    assert first not in answered
    for job_id in others:
        assert job_id in answered
    cleanup_errors = [e for e in report.errors if e.startswith("clean-up:")]
    assert cleanup_errors == [cleanup_errors[0]]
    assert first in cleanup_errors[0]
    assert "got no answer (ResponseStalled)" in cleanup_errors[0]  # cut at the timeout


def test_a_create_answered_while_the_clean_up_runs_is_terminated_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A create answered after the clean-up took its list (the run's worker still reading the
    answer when the run stopped: seen 4 times in 40 Ctrl-Cs) is seen by the clean-up's next
    pass and terminated, never left running."""
    cleaning = threading.Event()
    hidden: list[str] = []
    real_cleanup, real_unfinished = run_module._Run.cleanup, TrafficGuard.unfinished

    def flagged(run: Any, hard_end: float | None) -> None:
        cleaning.set()
        real_cleanup(run, hard_end)

    def late_answer(guard: TrafficGuard) -> list[CreatedJob]:
        jobs = real_unfinished(guard)
        if cleaning.is_set() and not hidden and len(jobs) > 1:
            hidden.append(jobs[-1].id)  # its answer not yet read when the list is taken
            return jobs[:-1]
        return jobs

    monkeypatch.setattr(run_module._Run, "cleanup", flagged)
    monkeypatch.setattr(TrafficGuard, "unfinished", late_answer)
    with counting_server() as (url, counter):
        report = run_server_contract(ServerTarget.from_url(url, live=True), live_options(phases=()))
        left = counter.left_running()
    assert hidden, "the scenarios should create several jobs"
    assert left == set(), f"{sorted(left)} not terminated (hidden: {hidden})"
    note = cleanup_note(report)
    assert hidden[0] in note
    assert "no terminate" not in note


def test_a_terminate_refused_with_429_after_the_guards_retries_is_sent_again() -> None:
    retries = 1 + MAX_429_RETRIES  # the first answer and the guard's own retries

    def busy(server: CountingServer, job_id: str, attempt: int) -> Refusal:
        return (0.0, 429) if job_id in server.created and attempt <= retries else None

    with counting_server(refuses=busy) as (url, counter):
        report = run_server_contract(ServerTarget.from_url(url, live=True), live_options(phases=()))
        left = counter.left_running()
    assert counter.created
    assert left == set(), f"{len(left)} of {len(counter.created)} created jobs not terminated"
    assert "no terminate" not in cleanup_note(report)
