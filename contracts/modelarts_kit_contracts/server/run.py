"""The server contract runner: preflight, ModelArts scenarios, schemathesis phases -> a report.

:func:`run_server_contract` does, in order:

1. checks the set-up: the target URL, the path parameters against the spec's rules
   (:mod:`~modelarts_kit_contracts.server.preflight`), then one harmless request per job
   operation that tells a wrong token, an unreachable project, a base URL that does not speak
   this API and a connection error apart (exit 2 each, one line, before any phase);
2. the ModelArts scenario checks of :mod:`~modelarts_kit_contracts.server.checks`;
3. schemathesis's phases through :mod:`~modelarts_kit_contracts.server.schemathesis_adapter`;
4. on a live target, terminates every job the run created that is not in a final phase (also
   after Ctrl-C, the ``--max-time`` deadline or an error) and lists them in the report.

Every request passes one :class:`~modelarts_kit_contracts.server.guard.TrafficGuard`. The
work runs in a worker thread; the calling thread enforces ``--max-time`` as a hard wall-clock
bound (stalled connections are shut down by the watchdog) and handles Ctrl-C, so the run
always ends with a verdict and a report. Configured secrets are scrubbed from the report
(:mod:`~modelarts_kit_contracts.server.scrub`). The runner never formats output.

Reproducibility: the seed fixes schemathesis's generation (hypothesis is seeded and
derandomised, its example database is off), so the same seed sends the same requests with one
worker.
"""

from __future__ import annotations

import json
import random
import shlex
import threading
import time
import traceback
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import requests
from modelarts_kit_spec.load import unescape_pointer_token
from modelarts_kit_spec.wirejson import MAX_WIRE_JSON_BYTES

from modelarts_kit_contracts.core import CreatedJob, Finding, Observation, RunReport, clip
from modelarts_kit_contracts.core.reporters import redact
from modelarts_kit_contracts.core.wire import Exchange, Headers, WireRequest, WireResponse
from modelarts_kit_contracts.server.api_map import ApiMap, Role
from modelarts_kit_contracts.server.checks import SCENARIOS
from modelarts_kit_contracts.server.choices import cite
from modelarts_kit_contracts.server.guard import (
    AnswerTooLarge,
    CreateCapReached,
    GuardedAdapter,
    GuardPolicy,
    ResponseStalled,
    Route,
    RunStopped,
    StallWatchdog,
    TrafficGuard,
)
from modelarts_kit_contracts.server.meaning import acceptance_document, lifecycle, obligations
from modelarts_kit_contracts.server.preflight import (
    PreflightError,
    check_path_parameters,
    preflight,
)
from modelarts_kit_contracts.server.probe import ProbeResponse
from modelarts_kit_contracts.server.response_checks import response_checks
from modelarts_kit_contracts.server.schemathesis_adapter import (
    ALL_PHASES,
    EngineRun,
    EventCollector,
    ProgressSink,
    asgi_session,
    build_config,
    register_checks,
)
from modelarts_kit_contracts.server.scrub import scrub_report
from modelarts_kit_contracts.server.target import ServerCheckError, ServerTarget, parse_base_url
from modelarts_kit_contracts.transport_auth import Credentials

__all__ = [
    "ALL_PHASES",
    "DEFAULT_LIVE_MAX_CREATES",
    "DEFAULT_MAX_EXAMPLES",
    "QUICK",
    "Budget",
    "Interruption",
    "Profile",
    "ProgressSink",
    "RunOptions",
    "RunPlan",
    "ServerTarget",
    "default_other_project",
    "plan_run",
    "run_server_contract",
]

DEFAULT_MAX_EXAMPLES = 25
DEFAULT_LIVE_MAX_CREATES = 12
PREFLIGHT_TIMEOUT_S = 4.0  # a user mistake is reported in under 5 s
STOP_GRACE_S = 2.0  # after the deadline: time for the worker to notice before it is abandoned
CLEANUP_RESERVE_S = 10.0  # of --max-time, kept for terminating a live run's jobs (at least)
CLEANUP_REQUESTS_PER_JOB = 2  # its terminate, then a show of the phase it ends in
CLEANUP_SLACK_S = 1.0
MAX_TERMINATE_ATTEMPTS = 3  # a terminate that timed out (or got a 5xx or 429) is sent again


@dataclass(frozen=True)
class Budget:
    max_examples: int = DEFAULT_MAX_EXAMPLES
    max_time: int | None = None  # seconds; a hard wall-clock bound on the whole run
    seed: int | None = None

    def __post_init__(self) -> None:
        if self.max_examples < 1:
            raise ValueError(f"--max-examples must be >= 1, got {self.max_examples}")
        if self.max_time is not None and self.max_time < 1:
            raise ValueError(f"--max-time must be >= 1 second, got {self.max_time}")


@dataclass(frozen=True)
class RunOptions:
    credentials: Credentials
    project_id: str
    other_project_id: str
    budget: Budget = Budget()
    phases: tuple[str, ...] = ALL_PHASES
    scenarios: bool = True
    request_timeout_s: float = 10.0
    final_phase_wait_s: float = 10.0
    workers: int = 1
    max_creates: int = DEFAULT_LIVE_MAX_CREATES  # on a live target
    read_only: bool = False
    rate: float | None = None  # requests per second

    def __post_init__(self) -> None:
        unknown = [p for p in self.phases if p not in ALL_PHASES]
        if unknown:
            raise ValueError(f"--phases: {unknown} not in {list(ALL_PHASES)}")
        if self.project_id == self.other_project_id:
            raise ValueError(
                f"--other-project-id must differ from --project-id (both {self.project_id!r})"
            )
        if self.workers < 1:
            raise ValueError(f"--workers must be >= 1, got {self.workers}")
        if self.max_creates < 0:
            raise ValueError(f"--max-creates must be >= 0, got {self.max_creates}")
        if self.rate is not None and self.rate <= 0:
            raise ValueError(f"--rate must be > 0 requests per second, got {self.rate}")

    @property
    def secrets(self) -> tuple[str | None, ...]:
        c = self.credentials
        return (c.token, c.ak, c.sk)


def cleanup_reserve(max_time: int, jobs: int, slowest_answer_s: float) -> float:
    """Seconds of ``--max-time`` a live run keeps for its clean-up.

    Room for the worker to stop, then for each unfinished job's requests at the pace of the
    slowest answer seen so far (a slow server gets the time it needs), and never less than
    the fixed share (a quarter, at most :data:`CLEANUP_RESERVE_S`) nor more than the whole.
    """
    fixed = min(CLEANUP_RESERVE_S, max_time / 4)
    needed = STOP_GRACE_S + jobs * CLEANUP_REQUESTS_PER_JOB * slowest_answer_s + CLEANUP_SLACK_S
    return min(float(max_time), max(fixed, needed))


@dataclass(frozen=True)
class Profile:
    phases: tuple[str, ...]
    max_examples: int


# The documented --quick profile: a verdict in a few seconds on the embedded server.
QUICK = Profile(phases=("examples", "fuzzing"), max_examples=5)


def default_other_project(project_id: str) -> str:
    """A project id that is not ``project_id`` (the project-isolation check's default)."""
    other = project_id[::-1]
    return other if other != project_id else f"{project_id}-other"


# --- the plan ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RunPlan:
    """What a run would do (``--dry-run`` prints it and sends nothing)."""

    target: str
    live: bool
    scenarios: tuple[str, ...]
    phases: tuple[str, ...]
    operations: tuple[str, ...]
    caps: tuple[str, ...]

    def lines(self) -> list[str]:
        return [
            f"target: {self.target} ({'live' if self.live else 'local'})",
            f"scenarios: {', '.join(self.scenarios) or 'none'}",
            f"schemathesis phases: {', '.join(self.phases) or 'none'}",
            *[f"operation: {op}" for op in self.operations],
            *[f"cap: {cap}" for cap in self.caps],
        ]


def _effective_phases(target: ServerTarget, options: RunOptions) -> tuple[str, ...]:
    # The stateful phase creates jobs through the spec's links: not on a live target.
    if target.live:
        return tuple(p for p in options.phases if p != "stateful")
    return options.phases


def plan_run(target: ServerTarget, options: RunOptions, api: ApiMap | None = None) -> RunPlan:
    resolved = api if api is not None else ApiMap.from_spec()
    live = target.live
    operations = []
    for role, op in resolved.roles():
        mode = "positive and negative data"
        if live and role is Role.CREATE:
            mode = "negative data only (no job is created by the phases)"
        operations.append(f"{op.method.upper()} {op.path} ({role.value}): {mode}")
    budget = options.budget
    caps = [
        f"--max-examples {budget.max_examples} per operation and phase",
        f"--max-time {budget.max_time}s (hard)" if budget.max_time else "--max-time none",
        f"--request-timeout {options.request_timeout_s:g}s per request, body included",
        f"--rate {options.rate:g}/s" if options.rate else "--rate unlimited",
        f"--workers {options.workers}",
    ]
    if options.read_only:
        caps.append("--read-only: no create is sent")
    elif live:
        caps.append(
            f"--max-creates {options.max_creates} (creates the target could accept); "
            "jobs created are terminated at the end"
        )
    else:
        caps.append("creates uncapped (local target)")
    return RunPlan(
        target=target.base_url,
        live=live,
        scenarios=tuple(s.name for s in SCENARIOS) if options.scenarios else (),
        phases=_effective_phases(target, options),
        operations=tuple(operations),
        caps=tuple(caps),
    )


# --- HTTP plumbing shared by the scenarios ---------------------------------------------------

_CURL_HEADERS = ("content-type", "x-auth-token", "authorization", "x-sdk-date", "x-project-id")


def curl_command(request: requests.PreparedRequest) -> str:
    """A curl line reproducing ``request``; credential headers are redacted."""
    parts = ["curl", "-X", str(request.method), shlex.quote(str(request.url))]
    for name, value in request.headers.items():
        if name.lower() in _CURL_HEADERS:
            header_value = value.decode("latin-1") if isinstance(value, bytes) else value
            parts += ["-H", shlex.quote(redact(f"{name}: {header_value}"))]
    body = request.body
    if body:
        text = body.decode("utf-8", "replace") if isinstance(body, bytes) else str(body)
        parts += ["-d", shlex.quote(text)]
    return " ".join(parts)


def _operation_label(method: str, template: str) -> str:
    return f"{method.upper()} {template}"


@dataclass
class _Traffic:
    """The guard, the watchdog and how sessions are prepared for one run."""

    target: ServerTarget
    guard: TrafficGuard
    watchdog: StallWatchdog
    request_timeout_s: float

    def prepare(self, session: requests.Session) -> None:
        session.auth = self.guard
        if self.target.app is None:
            adapter = GuardedAdapter(self.watchdog, self.request_timeout_s)
            session.mount("http://", adapter)
            session.mount("https://", adapter)

    @contextmanager
    def session(self) -> Iterator[requests.Session]:
        if self.target.app is None:
            with requests.Session() as session:
                self.prepare(session)
                yield session
            return
        with asgi_session(self.target.app) as client:
            self.prepare(client)
            yield client


class HttpProbe:
    """The scenarios' :class:`~modelarts_kit_contracts.server.probe.Probe`, over ``requests``."""

    def __init__(
        self,
        *,
        api: ApiMap,
        session: requests.Session,
        traffic: _Traffic,
        options: RunOptions,
        report: RunReport,
        lock: threading.Lock,
    ) -> None:
        self.api = api
        self.project_id = options.project_id
        self.other_project_id = options.other_project_id
        self.final_phase_wait_s = options.final_phase_wait_s
        self.read_only = options.read_only
        self.seed = report.seed or 0
        self._session = session
        self._traffic = traffic
        self._base_url = traffic.target.base_url.rstrip("/")
        self._options = options
        self._report = report
        self._lock = lock
        self.state: dict[str, Any] = {}

    def _auth_for(self, credentials: str) -> tuple[dict[str, str], requests.auth.AuthBase]:
        valid = self._options.credentials
        guard = self._traffic.guard
        if credentials == "none":
            return {}, guard.using(None, refusal_expected=True)
        if credentials == "invalid":
            if valid.kind == "aksk":
                wrong = Credentials(ak=valid.ak, sk=f"wrong-{uuid.uuid4().hex}")
                return valid.headers(), guard.using(wrong.requests_auth(), refusal_expected=True)
            return {"X-Auth-Token": f"invalid-{uuid.uuid4().hex}"}, guard.using(
                None, refusal_expected=True
            )
        return valid.headers(), guard.using(valid.requests_auth())

    def send(
        self,
        role: Role,
        *,
        project_id: str | None = None,
        job_id: str | None = None,
        body: Any = None,
        credentials: str = "valid",
        record: bool = True,
        timeout_s: float | None = None,
    ) -> ProbeResponse:
        op = self.api.operation(role)
        path = self.api.path(role, project_id or self.project_id, job_id)
        headers, auth = self._auth_for(credentials)
        data = None
        if body is not None:
            headers = {**headers, "Content-Type": "application/json"}
            data = json.dumps(body).encode("utf-8")
        request = requests.Request(
            op.method.upper(), self._base_url + path, headers=headers, data=data, auth=auth
        )
        prepared = self._session.prepare_request(request)
        started = time.perf_counter()
        timeout = self._options.request_timeout_s
        if timeout_s is not None:
            timeout = min(timeout, timeout_s)
        response = self._session.send(prepared, timeout=timeout)
        elapsed_ms = (time.perf_counter() - started) * 1000
        result = ProbeResponse(
            status=response.status_code,
            body=response.content,
            content_type=response.headers.get("content-type", ""),
            curl=curl_command(response.request),
        )
        if not record:
            return result
        label = _operation_label(op.method, op.path)
        exchange = Exchange(
            request=WireRequest(method=op.method.upper(), path=path),
            response=WireResponse(
                status=result.status,
                headers=Headers(response.headers.items()),
                body=result.body,
            ),
            operation=op.operation_id,
            path_params={
                self.api.project_param: project_id or self.project_id,
                self.api.job_param: job_id or "",
            },
        )
        with self._lock:
            self._report.record_time(label, elapsed_ms)
        for entry in response_checks():
            self.record(entry.name, entry.run(self.api, exchange), role=role, reproduce=result.curl)
        return result

    def record(
        self,
        check: str,
        found: Finding | list[Finding] | None,
        *,
        role: Role,
        reproduce: str = "",
    ) -> None:
        op = self.api.operation(role)
        findings = [] if found is None else [found] if isinstance(found, Finding) else found
        stamped = [
            cite(self.api, f, op.operation_id).but(
                check=check,
                operation=_operation_label(op.method, op.path),
                reproduce=f.reproduce or reproduce,
            )
            for f in findings
        ]
        with self._lock:
            self._report.record(check, stamped)

    def note(self, text: str) -> None:
        with self._lock:
            self._report.notes.append(text)

    def observe(self, observation: Observation) -> None:
        """Keep what the server chose where the spec leaves it free."""
        with self._lock:
            self._report.observe(observation)


# --- the run -----------------------------------------------------------------------------------


@dataclass
class _Run:
    target: ServerTarget
    options: RunOptions
    api: ApiMap
    report: RunReport
    traffic: _Traffic
    progress: ProgressSink | None
    lock: threading.Lock = field(default_factory=threading.Lock)
    engine: EngineRun | None = None
    in_cleanup: bool = False

    @property
    def stopping(self) -> bool:
        return self.traffic.guard.stop.is_set()

    def error(self, text: str) -> None:
        with self.lock:
            self.report.errors.append(text)

    def note(self, text: str) -> None:
        with self.lock:
            self.report.notes.append(text)

    def body(self) -> None:
        """Preflight, scenarios, phases (in the worker thread)."""
        try:
            if not self._preflight():
                return
            if self.options.scenarios and not self._scenarios():
                return
            phases = _effective_phases(self.target, self.options)
            if self.target.live and "stateful" in self.options.phases:
                self.note("stateful: not run against a live target (its links create jobs)")
            if phases and not self.stopping:
                self._schemathesis(phases)
        except RunStopped:
            pass
        except ResponseStalled as exc:
            self.error(str(exc))
        except Exception as exc:  # noqa: BLE001 - reported with its cause, never as a timeout
            # A bug of the kit or an answer it failed to foresee: say so (type, message, where)
            # instead of dying silently in this thread and blaming --max-time.
            where = traceback.extract_tb(exc.__traceback__)[-1]
            self.error(
                f"the run failed: {type(exc).__name__}: {clip(str(exc), 200)} "
                f"(at {Path(where.filename).name}:{where.lineno}); please report it"
            )

    def _preflight(self) -> bool:
        with self.traffic.session() as session:
            probe = self._probe(session)

            def send(role: Role, job_id: str, body: Any) -> ProbeResponse:
                # A user mistake over the network is reported in seconds; in-process, the first
                # request may be slow on a loaded machine and there is no network to fail.
                bound = PREFLIGHT_TIMEOUT_S if self.target.app is None else None
                return probe.send(role, job_id=job_id, body=body, record=False, timeout_s=bound)

            hint = "--ak/--sk" if self.options.credentials.kind == "aksk" else "--token"
            try:
                preflight(
                    self.api,
                    send,
                    base_url=self.target.base_url,
                    project_id=self.options.project_id,
                    credential_hint=hint,
                    seed=self.report.seed or 0,
                )
            except PreflightError as exc:
                self.error(str(exc))
                return False
            except AnswerTooLarge as exc:
                self.oversized(exc)
                return False
        return True

    def oversized(self, exc: AnswerTooLarge) -> None:
        """An answer above the cap: a finding on the operation that gave it; the run stops."""
        request = exc.request
        method = (request.method or "") if request is not None else ""
        path = urlsplit(str(request.url or "")).path if request is not None else ""
        route = self.api.spec.match(method, path) if request is not None else None
        operation = route.operation if route is not None else None
        label = _operation_label(operation.method, operation.path) if operation else path
        finding = Finding(
            title="Answer body is not JSON the spec can describe",
            expected=f"an answer of at most {MAX_WIRE_JSON_BYTES} bytes (no API answer is larger)",
            got=str(exc),
            check="answer_body_decodable",
            operation=label,
        )
        with self.lock:
            self.report.record("answer_body_decodable", finding)
            self.report.notes.append("the run stopped at an answer above the cap")

    def _probe(self, session: requests.Session) -> HttpProbe:
        return HttpProbe(
            api=self.api,
            session=session,
            traffic=self.traffic,
            options=self.options,
            report=self.report,
            lock=self.lock,
        )

    def _scenarios(self) -> bool:
        if self.progress is not None:
            self.progress.phase("modelarts scenarios")
        with self.traffic.session() as session:
            probe = self._probe(session)
            for scenario in SCENARIOS:
                if self.stopping:
                    return False
                try:
                    scenario.run(probe)
                except CreateCapReached as exc:
                    self.note(f"scenario {scenario.name}: not (fully) evaluated: {exc}")
                except RunStopped:
                    return False
                except AnswerTooLarge as exc:
                    self.oversized(exc)
                    return False
                except requests.exceptions.RequestException as exc:
                    # Timeouts and dropped connections end the run (exit 2), not a finding.
                    self.error(f"scenario {scenario.name}: {type(exc).__name__}: {exc}")
                    return False
                if self.progress is not None:
                    self.progress.advance(scenario.name)
        return True

    def _schemathesis(self, phases: tuple[str, ...]) -> None:
        options = self.options
        if options.credentials.kind == "aksk":
            self.note(
                "ignored_auth: not run, it cannot remove a signature added at the transport; "
                "credentials_required checks missing and invalid credentials instead"
            )
        checks = register_checks(self.api)
        deadline = self.traffic.guard.deadline
        remaining = None if deadline is None else int(deadline - time.monotonic())
        if remaining is not None and remaining < 1:
            return
        negative_only = (
            (self.api.create.operation_id,) if self.target.live or options.read_only else ()
        )
        collector = EventCollector(
            self.report,
            self.lock,
            self.progress,
            api=self.api,
            quiet_errors=(CreateCapReached, RunStopped),
            stopping=lambda: self.stopping,
        )
        for mode, document, mode_phases in self._generations(phases, negative_only):
            if self.stopping or not mode_phases:
                continue
            config = build_config(
                base_url=self.target.base_url,
                seed=self.report.seed or 0,
                phases=mode_phases,
                max_examples=options.budget.max_examples,
                max_time_s=remaining,
                workers=options.workers,
                request_timeout_s=options.request_timeout_s,
                parameters={self.api.project_param: options.project_id},
                headers=options.credentials.headers(),
                checks=checks,
                signed_at_transport=options.credentials.kind == "aksk",
                negative_only_operation_ids=negative_only,
                mode=mode,
            )
            self.engine = EngineRun(
                document=document,
                config=config,
                app=self.target.app,
                prepare_session=self.traffic.prepare,
            )
            for event in self.engine.events():
                collector.handle(event)
            if deadline is not None:
                remaining = max(1, int(deadline - time.monotonic()))
        if collector.suppressed:
            self.note(
                f"schemathesis: {collector.suppressed} test(s) ended by the run's own limits "
                "(--max-creates / --read-only / --max-time)"
            )

    def _generations(
        self, phases: tuple[str, ...], negative_only: tuple[str, ...]
    ) -> Iterator[tuple[str, dict[str, Any], tuple[str, ...]]]:
        """(mode, document, phases) of each engine run: valid data drawn from the must-accept
        envelope (what every correct server accepts), invalid data from must-reject (what
        every correct server refuses); one mixed run from must-reject when creates must stay
        invalid (a live or read-only target)."""
        must_reject = obligations(self.api)
        if negative_only:
            yield "all", must_reject, phases
            return
        yield "positive", acceptance_document(self.api), phases
        # Examples and the stateful links are valid data: the positive run has them.
        yield "negative", must_reject, tuple(p for p in phases if p in ("coverage", "fuzzing"))

    def stop(self, *, cut_in_flight: bool = True) -> None:
        """Send nothing more; with ``cut_in_flight``, also cut the requests on the wire."""
        self.traffic.guard.stop.set()
        if self.engine is not None:
            self.engine.stop()
        if cut_in_flight:
            self.traffic.watchdog.abort_all()

    def work_deadline(self, hard_end: float, max_time: int) -> float:
        """When the checks must stop: ``--max-time`` less what the clean-up needs by now."""
        guard = self.traffic.guard
        reserve = 0.0
        if self.target.live:
            reserve = cleanup_reserve(max_time, len(guard.unfinished()), guard.slowest_answer_s)
        guard.deadline = self.traffic.watchdog.deadline = hard_end - reserve
        return hard_end - reserve

    def cleanup(self, hard_end: float | None) -> None:
        """Terminate the jobs this run created that are not in a final phase (live targets).

        Every terminate first (a timed-out one again, bounded), then, time allowing, a show of
        each so the report has the phase it ends in. The note names the jobs whose terminate
        was answered and those without one; each of those is also an error, with why.
        """
        guard = self.traffic.guard
        if not self.target.live:
            return
        leftovers = guard.unfinished()
        if not leftovers:
            return
        guard.allow_after_stop = True
        guard.deadline = hard_end
        self.traffic.watchdog.deadline = hard_end
        answered: list[str] = []
        missed: dict[str, str] = {}  # job id -> why no terminate was answered
        try:
            with self.traffic.session() as session:
                probe = self._probe(session)
                body = self.api.example_body(Role.TERMINATE)
                for job in leftovers:
                    why = _terminate(probe, job.id, body, hard_end)
                    if why:
                        missed[job.id] = why
                    else:
                        answered.append(job.id)
                for job_id in answered:
                    if hard_end is not None and time.monotonic() >= hard_end:
                        break
                    try:
                        probe.send(Role.SHOW, job_id=job_id, record=False)
                    except requests.exceptions.RequestException:
                        break  # only the phase shown in the report is missing
        finally:
            guard.allow_after_stop = False
        self.note(
            f"clean-up: terminate answered for {len(answered)} of {len(leftovers)} job(s) "
            f"the run created and had not seen end"
            + (f": {', '.join(answered)}" if answered else "")
            + (f"; no terminate for: {', '.join(missed)}" if missed else "")
        )
        for job_id, why in missed.items():
            self.error(f"clean-up: job {job_id} may still run: {why}")


def _terminate(probe: HttpProbe, job_id: str, body: Any, hard_end: float | None) -> str:
    """Terminate ``job_id``: "" once the target answered, else why it did not."""
    why = "--max-time was spent before its terminate"
    for _ in range(MAX_TERMINATE_ATTEMPTS):
        if hard_end is not None and time.monotonic() >= hard_end:
            return why
        try:
            answer = probe.send(Role.TERMINATE, job_id=job_id, body=body, record=False)
        except RunStopped:
            return "--max-time was spent during its terminate"
        except (requests.exceptions.Timeout, requests.exceptions.ConnectionError) as exc:
            why = f"its terminate got no answer ({type(exc).__name__})"
            continue
        except requests.exceptions.RequestException as exc:
            return f"its terminate failed: {type(exc).__name__}: {clip(str(exc), 200)}"
        if answer.status < 500 and answer.status != 429:  # the target took it (409 included)
            return ""
        why = f"its terminate was answered HTTP {answer.status}"  # not taken: again
    return f"{why}, {MAX_TERMINATE_ATTEMPTS} attempt(s)"


def _tokens(pointer: str) -> tuple[str, ...]:
    return tuple(unescape_pointer_token(t) for t in pointer.split("/")[1:])


def _build_traffic(
    target: ServerTarget, options: RunOptions, api: ApiMap, deadline: float | None
) -> _Traffic:
    routes = tuple(Route(role.value, op.method, op.path) for role, op in api.roles())
    # A create "the target could accept": valid for what a server must enforce.
    validator = api.obligations.validator(api.obligations_create_schema)
    guard = TrafficGuard(
        routes=routes,
        job_id_pointer=_tokens(api.spec.meaning.roles.job_id_field),
        phase_pointer=_tokens(api.spec.meaning.lifecycle.phase_field),
        could_create=validator.is_valid,
        policy=GuardPolicy(
            live=target.live,
            max_creates=options.max_creates,
            read_only=options.read_only,
            rate=options.rate,
            final_phases=lifecycle(api).final_phases,
        ),
        signer=options.credentials.requests_auth(),
        deadline=deadline,
    )
    return _Traffic(target, guard, StallWatchdog(deadline), options.request_timeout_s)


def _validate_setup(target: ServerTarget, options: RunOptions, api: ApiMap) -> None:
    if target.app is None:
        parse_base_url(target.base_url)
    check_path_parameters(
        api,
        {api.project_param: ("--project-id", options.project_id)},
    )
    check_path_parameters(
        api,
        {api.project_param: ("--other-project-id", options.other_project_id)},
    )


@dataclass
class Interruption:
    """A request from outside a run to end it as Ctrl-C does: stop, clean up, report.

    The CLI's SIGTERM handler sets it (a handler that raised instead could cut the clean-up
    short wherever the signal lands); the run looks at it while it waits for its worker.
    """

    reason: str = ""  # what asked, e.g. "SIGTERM"; empty while nothing has

    def request(self, reason: str) -> None:
        self.reason = self.reason or reason


def run_server_contract(
    target: ServerTarget,
    options: RunOptions,
    *,
    api: ApiMap | None = None,
    progress: ProgressSink | None = None,
    interruption: Interruption | None = None,
) -> RunReport:
    """Run every check against ``target``; return the report (never raises for findings).

    The run ends within ``--max-time`` (plus a short grace to stop threads), whatever the
    server does; Ctrl-C ends it too, after the clean-up of a live run's jobs, and so does
    ``interruption`` once requested.
    """
    seed = options.budget.seed if options.budget.seed is not None else random.randrange(2**32)
    report = RunReport(target=target.label, seed=seed)
    started = time.monotonic()
    resolved = api if api is not None else ApiMap.from_spec()
    try:
        _validate_setup(target, options, resolved)
    except ServerCheckError as exc:
        report.errors.append(str(exc))
        return scrub_report(report, options.secrets)

    max_time = options.budget.max_time
    hard_end = None if max_time is None else started + max_time
    traffic = _build_traffic(target, options, resolved, hard_end)
    run = _Run(target, options, resolved, report, traffic, progress)

    def work_deadline() -> float | None:
        # More jobs created (or slower answers), more of --max-time kept for the clean-up.
        if hard_end is None or max_time is None:
            return None
        return run.work_deadline(hard_end, max_time)

    work_deadline()  # the guard's and the watchdog's bound, from the first request on
    worker = threading.Thread(target=run.body, name="contract-server-run", daemon=True)
    timed_out = False
    try:
        worker.start()
        while worker.is_alive():
            if interruption is not None and interruption.reason:
                _interrupt(run, worker, interruption.reason)
                break
            deadline = work_deadline()
            if deadline is not None and time.monotonic() >= deadline:
                run.stop()
                worker.join(STOP_GRACE_S)
                break
            worker.join(0.1)
        # Past the deadline the guard refuses requests, so the worker may end by itself first.
        deadline = traffic.guard.deadline
        if deadline is not None and time.monotonic() >= deadline:
            timed_out = True
            report.notes.append(
                f"--max-time {max_time}s reached: the run stopped there; "
                "the verdict covers what was checked"
            )
    except KeyboardInterrupt:
        _interrupt(run, worker, "Ctrl-C")
    finally:
        try:
            run.cleanup(hard_end)
        finally:
            traffic.watchdog.close()
            with run.lock:
                report.duration_s = time.monotonic() - started
                _record_created_jobs(report, traffic.guard)
                if not report.tallies and not report.errors:
                    report.errors.append(
                        f"--max-time {max_time}s reached before any check was evaluated"
                        if timed_out
                        else "the run ended before any check was evaluated"
                    )
    return scrub_report(report, options.secrets)


def _interrupt(run: _Run, worker: threading.Thread, reason: str) -> None:
    # A create on the wire is let finish within the grace: cut, its job would exist on the
    # target without the run knowing its id, and so without a terminate.
    run.stop(cut_in_flight=False)
    worker.join(STOP_GRACE_S)
    run.stop()
    run.error(f"interrupted ({reason}): the run did not complete")


def _record_created_jobs(report: RunReport, guard: TrafficGuard) -> None:
    report.created_jobs = [CreatedJob(job.id, job.last_phase) for job in guard.created.values()]
    if guard.creates_blocked:
        report.notes.append(
            f"{guard.creates_blocked} create(s) not sent: --max-creates / --read-only"
        )
    if guard.retried_429:
        report.notes.append(f"{guard.retried_429} request(s) retried after 429 Retry-After")
