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

import random
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import requests
from modelarts_kit_spec.load import unescape_pointer_token
from modelarts_kit_spec.meaning import Role
from modelarts_kit_wire.wirejson import MAX_WIRE_JSON_BYTES

from modelarts_kit_contracts.core import CreatedJob, Finding, RunReport, clip
from modelarts_kit_contracts.core.envelopes import Placement
from modelarts_kit_contracts.server.api_map import ApiMap
from modelarts_kit_contracts.server.checks import SCENARIOS
from modelarts_kit_contracts.server.collector import frozen, full_passes_rarer
from modelarts_kit_contracts.server.guard import (
    DESTRUCTIVE_ROLES,
    AnswerTooLarge,
    CreateCapReached,
    GuardPolicy,
    ResponseStalled,
    Route,
    RunStopped,
    StallWatchdog,
    TrafficGuard,
)
from modelarts_kit_contracts.server.http_probe import HttpProbe, Traffic, operation_label
from modelarts_kit_contracts.server.meaning import acceptance_document, lifecycle, obligations
from modelarts_kit_contracts.server.options import (
    DEFAULT_LIVE_MAX_CREATES,
    DEFAULT_MAX_EXAMPLES,
    QUICK,
    STOP_GRACE_S,
    Budget,
    Profile,
    RunOptions,
    cleanup_reserve,
    default_other_project,
)
from modelarts_kit_contracts.server.plan import (
    RunPlan,
    effective_phases,
    plan_run,
)
from modelarts_kit_contracts.server.preflight import (
    PreflightError,
    check_path_parameters,
    preflight,
)
from modelarts_kit_contracts.server.probe import Probe, ProbeResponse
from modelarts_kit_contracts.server.scenarios.waiting import Parked, ScenarioSteps, Until
from modelarts_kit_contracts.server.schemathesis_adapter import (
    ALL_PHASES,
    EngineRun,
    EventCollector,
    ProgressSink,
    build_config,
    register_checks,
)
from modelarts_kit_contracts.server.scrub import scrub_report
from modelarts_kit_contracts.server.target import ServerCheckError, ServerTarget, parse_base_url

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
PREFLIGHT_TIMEOUT_S = 4.0  # a user mistake is reported in under 5 s
MAX_TERMINATE_ATTEMPTS = 3  # a terminate that timed out (or got a 5xx or 429) is sent again
# The clean-up reads the unfinished jobs again after its terminates: a create answered while it
# ran (the worker still reading it when the run was stopped) is seen by the next pass.
CLEANUP_PASSES = 3


# --- the run -----------------------------------------------------------------------------------


@dataclass
class _Run:
    target: ServerTarget
    options: RunOptions
    api: ApiMap
    report: RunReport
    traffic: Traffic
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
            # The spec, the server, the imports: the whole run's, out of the full passes.
            with frozen() as freeze_more:
                if not self._preflight():
                    return
                if self.options.scenarios and not self._scenarios():
                    return
                phases = effective_phases(self.target, self.options)
                if self.target.live and "stateful" in self.options.phases:
                    self.note("stateful: not run against a live target (its links create jobs)")
                if phases and not self.stopping:
                    with full_passes_rarer():
                        self._schemathesis(phases, freeze_more)
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
        label = operation_label(operation.method, operation.path) if operation else path
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
        parked: Parked[tuple[str, list[str]]] = Parked()
        with self.traffic.session() as session:
            probe = self._probe(session)
            for scenario in SCENARIOS:
                # Between two scenarios, those whose wait is over go on.
                if not self._resume_due(probe, parked):
                    return False
                if not self._resume(probe, parked, scenario.name, scenario.run, []):
                    return False
            while parked:  # bounded: every wait is for a time the scenario's own bound caps
                probe.timeline.wait(parked.next_due() - probe.timeline.now())
                if not self._resume_due(probe, parked):
                    return False
        return True

    def _resume_due(self, probe: HttpProbe, parked: Parked[tuple[str, list[str]]]) -> bool:
        """Resume every parked scenario whose wait is over; False: the run ends."""
        for steps, (name, sequence) in parked.take_due(probe.timeline.now()):
            if not self._resume(probe, parked, name, steps, sequence):
                return False
        return True

    def _resume(
        self,
        probe: HttpProbe,
        parked: Parked[tuple[str, list[str]]],
        name: str,
        steps: Callable[[Probe], ScenarioSteps[None] | None] | Iterator[Until],
        sequence: list[str],
    ) -> bool:
        """Start a scenario, or resume one that waited, up to its next wait or its end (then
        parked again, or done); False: the run ends."""
        if self.stopping:
            return False
        probe.begin_sequence(sequence)  # a resumed scenario's failure reproduces from its start
        try:
            running = steps(probe) if callable(steps) else steps
            wait = next(running, None) if running is not None else None
        except CreateCapReached as exc:
            self.note(f"scenario {name}: not (fully) evaluated: {exc}")
            wait = None
        except RunStopped:
            return False
        except AnswerTooLarge as exc:
            self.oversized(exc)
            return False
        except requests.exceptions.RequestException as exc:
            # Timeouts and dropped connections end the run (exit 2), not a finding.
            self.error(f"scenario {name}: {type(exc).__name__}: {exc}")
            return False
        if wait is not None and running is not None:
            parked.park(wait, running, (name, probe.sequence.steps))
        elif self.progress is not None:
            self.progress.advance(name)
        return True

    def _schemathesis(self, phases: tuple[str, ...], freeze_more: Callable[[], None]) -> None:
        """The engine runs; ``freeze_more`` freezes what is alive before each (what the
        preflight, the scenarios and the earlier runs left), out of its full passes."""
        options = self.options
        if options.credentials.kind == "aksk":
            self.note(
                "ignored_auth: not run, it cannot remove a signature added at the transport; "
                "credentials_required checks missing and invalid credentials instead"
            )
        checks = register_checks(self.api)
        deadline = self.traffic.guard.deadline
        remaining = None if deadline is None else int(deadline - self.traffic.guard.clock())
        if remaining is not None and remaining < 1:
            return
        guarded = self.target.live or options.read_only
        # Invalid data only: no job is created, and none of the target's (a list's answer
        # names them) is terminated.
        negative_only = (
            (self.api.create.operation_id, self.api.terminate.operation_id) if guarded else ()
        )
        # Never on a live or read-only target: their job ids would come from earlier answers.
        disabled = (
            tuple(op.operation_id for role, op in self.api.roles() if role in DESTRUCTIVE_ROLES)
            if guarded
            else ()
        )
        collector = EventCollector(
            self.report,
            self.lock,
            self.progress,
            api=self.api,
            quiet_errors=(CreateCapReached, RunStopped),
            stopping=lambda: self.stopping,
        )
        for generation in self._generations(phases, negative_only):
            if self.stopping or not generation.phases:
                continue
            freeze_more()  # the valid run's survivors: the invalid run's passes walked them
            config = build_config(
                base_url=self.target.base_url,
                seed=self.report.seed or 0,
                phases=generation.phases,
                max_examples=options.budget.max_examples,
                fuzzing_max_examples=generation.fuzzing_examples,
                max_time_s=remaining,
                workers=options.workers,
                request_timeout_s=options.request_timeout_s,
                parameters={self.api.project_param: options.project_id},
                headers=options.credentials.headers(),
                checks=checks,
                signed_at_transport=options.credentials.kind == "aksk",
                negative_only_operation_ids=negative_only,
                disabled_operation_ids=disabled,
                mode=generation.mode,
            )
            self.engine = EngineRun(
                document=generation.document,
                config=config,
                app=self.target.app,
                prepare_session=self.traffic.prepare,
            )
            for event in self.engine.events():
                collector.handle(event)
            if deadline is not None:
                remaining = max(1, int(deadline - self.traffic.guard.clock()))
        if collector.suppressed:
            self.note(
                f"schemathesis: {collector.suppressed} test(s) ended by the run's own limits "
                "(--max-creates / --read-only / --max-time)"
            )

    def _generations(
        self, phases: tuple[str, ...], negative_only: tuple[str, ...]
    ) -> Iterator[Generation]:
        """The engine runs: valid data drawn from the must-accept envelope (what every
        correct server accepts), invalid data from must-reject (what every correct server
        refuses); one mixed run from must-reject when creates must stay invalid (a live or
        read-only target).

        The fuzzing phase's ``--max-examples`` cases per operation are shared by the valid
        and the invalid run, as plain schemathesis's default mode (``all``) shares them
        between its positive and negative strategies: the same budget, not twice it."""
        must_reject = obligations(self.api)
        if negative_only:
            yield Generation("all", must_reject, phases)
            return
        valid, invalid = fuzzing_shares(self.options.budget.max_examples)
        yield Generation("positive", acceptance_document(self.api), phases, valid)
        # Examples and the stateful links are valid data: the positive run has them.
        negative_phases = tuple(p for p in phases if p in ("coverage", "fuzzing"))
        yield Generation("negative", must_reject, negative_phases, invalid)

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
                pending = list(leftovers)
                for _ in range(CLEANUP_PASSES):
                    for job in pending:
                        why = _terminate(probe, job.id, body, hard_end, guard.clock)
                        if why:
                            missed[job.id] = why
                        else:
                            answered.append(job.id)
                    handled = {job.id for job in leftovers}
                    pending = [job for job in guard.unfinished() if job.id not in handled]
                    leftovers.extend(pending)
                    if not pending:
                        break
                for job_id in answered:
                    if hard_end is not None and guard.clock() >= hard_end:
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


@dataclass(frozen=True)
class Generation:
    """One engine run: its data (``positive``, ``negative`` or ``all``), the document it
    draws from, its phases and its share of the fuzzing budget (None: the whole)."""

    mode: str
    document: dict[str, Any]
    phases: tuple[str, ...]
    fuzzing_examples: int | None = None


def fuzzing_shares(max_examples: int) -> tuple[int, int]:
    """The fuzzing cases per operation of the valid run and of the invalid run: together
    ``max_examples`` (the valid run gets the odd one), each at least one."""
    invalid = max(1, max_examples // 2)
    return max(1, max_examples - invalid), invalid


def _terminate(
    probe: HttpProbe, job_id: str, body: Any, hard_end: float | None, clock: Callable[[], float]
) -> str:
    """Terminate ``job_id``: "" once the target answered, else why it did not."""
    why = "--max-time was spent before its terminate"
    for _ in range(MAX_TERMINATE_ATTEMPTS):
        if hard_end is not None and clock() >= hard_end:
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
    target: ServerTarget,
    options: RunOptions,
    api: ApiMap,
    deadline: float | None,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], object] | None = None,
) -> Traffic:
    routes = tuple(Route(role, op.method, op.path) for role, op in api.roles())
    # A create "the target could accept": valid for what a server must enforce (placed by
    # the envelopes, whose memo the checks of the same body then reuse).
    create_id = api.create.operation_id

    def could_create(body: Any) -> bool:
        return api.envelopes.place(create_id, body) is not Placement.MUST_REJECT

    guard = TrafficGuard(
        routes=routes,
        job_id_pointer=_tokens(api.spec.meaning.roles.job_id_field),
        phase_pointer=_tokens(api.spec.meaning.lifecycle.phase_field),
        could_create=could_create,
        policy=GuardPolicy(
            live=target.live,
            max_creates=options.max_creates,
            read_only=options.read_only,
            rate=options.rate,
            final_phases=lifecycle(api).final_phases,
        ),
        signer=options.credentials.requests_auth(),
        deadline=deadline,
        clock=clock,
        pause=sleep,
    )
    return Traffic(target, guard, StallWatchdog(deadline, clock), options.request_timeout_s)


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
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], object] | None = None,
) -> RunReport:
    """Run every check against ``target``; return the report (never raises for findings).

    The run ends within ``--max-time`` (plus a short grace to stop threads), whatever the
    server does; Ctrl-C ends it too, after the clean-up of a live run's jobs, and so does
    ``interruption`` once requested. ``--max-time``, each request's limit and the report's
    duration are read on ``clock`` (monotonic seconds; a test gives a virtual one), and
    ``--rate``'s spacing and a 429's Retry-After wait through ``sleep`` on it (None: real
    seconds, cut short when the run stops).
    """
    seed = options.budget.seed if options.budget.seed is not None else random.randrange(2**32)
    report = RunReport(target=target.label, seed=seed)
    started = clock()
    resolved = api if api is not None else ApiMap.from_spec()
    try:
        _validate_setup(target, options, resolved)
    except ServerCheckError as exc:
        report.errors.append(str(exc))
        return scrub_report(report, options.secrets)

    max_time = options.budget.max_time
    hard_end = None if max_time is None else started + max_time
    traffic = _build_traffic(target, options, resolved, hard_end, clock, sleep)
    run = _Run(target, options, resolved, report, traffic, progress)

    def work_deadline() -> float | None:
        # More jobs created (or slower answers), more of --max-time kept for the clean-up.
        if hard_end is None or max_time is None:
            return None
        return run.work_deadline(hard_end, max_time)

    work_deadline()  # the guard's and the watchdog's bound, from the first request on
    traffic.guard.refresh_deadline = work_deadline  # and again before each request
    worker = threading.Thread(target=run.body, name="contract-server-run", daemon=True)
    timed_out = False
    try:
        worker.start()
        while worker.is_alive():
            if interruption is not None and interruption.reason:
                _interrupt(run, worker, interruption.reason)
                break
            deadline = work_deadline()
            if deadline is not None and clock() >= deadline:
                run.stop()
                worker.join(STOP_GRACE_S)
                break
            worker.join(0.1)
        # Past the deadline the guard refuses requests, so the worker may end by itself first.
        deadline = traffic.guard.deadline
        if deadline is not None and clock() >= deadline:
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
                report.duration_s = clock() - started
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
    if guard.changes_blocked:
        report.notes.append(
            f"{guard.changes_blocked} delete(s) or description change(s) not sent: --read-only"
        )
    if guard.retried_429:
        report.notes.append(f"{guard.retried_429} request(s) retried after 429 Retry-After")
