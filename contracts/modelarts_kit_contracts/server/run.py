"""The server contract runner: schemathesis phases + ModelArts scenarios -> one RunReport.

:func:`run_server_contract` does, in order:

1. a pre-flight request (a refused connection ends the run with exit code 2 and a clear
   message, before anything else is tried);
2. the ModelArts scenario checks of :mod:`modelarts_kit_contracts.server.checks` (create -> show ->
   terminate -> terminate, unknown job, credentials, project isolation);
3. schemathesis 4.x as a library, driven the way its CLI drives it (``schemathesis.engine``
   over an ``OpenApiSchema`` built from the curated spec): phases examples, coverage, fuzzing
   and stateful (through the spec's OpenAPI links), every built-in check that applies, plus
   the ModelArts response checks registered as schemathesis custom checks.

Requests go to a URL (``requests`` over HTTP) or to an ASGI app in-process (schemathesis's
ASGI client, so scenarios and schemathesis share one app instance and one lifespan). AK/SK
signing happens on the final prepared request (:mod:`modelarts_kit_contracts.transport_auth`):
the engine's per-thread ``requests.Session`` gets the signer as its ``auth``.

The runner never formats output; reporters read the returned report. Reproducibility: the
seed fixes schemathesis's generation (hypothesis is seeded and derandomised, its example
database is off, one worker), so the same seed sends the same requests.
"""

from __future__ import annotations

import json
import random
import shlex
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import requests

from modelarts_kit_contracts.core import Finding, RunReport
from modelarts_kit_contracts.core.reporters import redact
from modelarts_kit_contracts.core.wire import Exchange, Headers, WireRequest, WireResponse
from modelarts_kit_contracts.server.checks import (
    MODELARTS_FAILURE_CODE,
    SCENARIOS,
    ApiMap,
    ProbeResponse,
    Role,
    register_schemathesis_checks,
    response_checks,
)
from modelarts_kit_contracts.transport_auth import Credentials

if TYPE_CHECKING:
    from schemathesis.engine.events import EngineEvent

__all__ = [
    "ALL_PHASES",
    "DEFAULT_MAX_EXAMPLES",
    "Budget",
    "ProgressSink",
    "RunOptions",
    "ServerTarget",
    "run_server_contract",
]

ASGIApp = Callable[..., Any]
ALL_PHASES = ("examples", "coverage", "fuzzing", "stateful")
DEFAULT_MAX_EXAMPLES = 25
ASGI_BASE_URL = "http://testserver"
POSITIVE_DATA_STATUSES = ["2xx", "3xx", "400", "401", "403", "404", "409", "429", "5xx"]
# schemathesis's ignored_auth removes the declared credential from a case and expects a refusal;
# a signature added at the transport comes back on every request, so that probe cannot work.
CHECKS_UNUSABLE_WITH_TRANSPORT_SIGNING = ("ignored_auth",)
# Needs two identities configured through Web Fuzzing Commons; never applies here.
CHECKS_NEEDING_PEERS = ("object_level_authorization",)


@dataclass(frozen=True)
class ServerTarget:
    """Where requests go: a base URL, or an ASGI app served in-process."""

    base_url: str
    app: ASGIApp | None = None

    @classmethod
    def asgi(cls, app: ASGIApp) -> ServerTarget:
        return cls(ASGI_BASE_URL, app)

    @property
    def label(self) -> str:
        return f"{self.base_url} (in-process ASGI)" if self.app is not None else self.base_url


@dataclass(frozen=True)
class Budget:
    max_examples: int = DEFAULT_MAX_EXAMPLES
    max_time: int | None = None  # seconds; schemathesis keeps cycling fuzz/stateful until then
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

    def __post_init__(self) -> None:
        unknown = [p for p in self.phases if p not in ALL_PHASES]
        if unknown:
            raise ValueError(f"--phases: {unknown} not in {list(ALL_PHASES)}")
        if self.project_id == self.other_project_id:
            raise ValueError(
                f"--other-project-id must differ from --project-id (both {self.project_id!r})"
            )


class ProgressSink(Protocol):
    def phase(self, name: str) -> None: ...

    def advance(self, label: str) -> None: ...


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


@contextmanager
def _session(target: ServerTarget) -> Iterator[requests.Session]:
    if target.app is None:
        with requests.Session() as session:
            yield session
        return
    from schemathesis.python import asgi

    with asgi.get_client(target.app) as client:
        yield client


def _operation_label(method: str, template: str) -> str:
    return f"{method.upper()} {template}"


class HttpProbe:
    """The scenarios' :class:`~modelarts_kit_contracts.server.checks.Probe`, over ``requests``."""

    def __init__(
        self,
        *,
        api: ApiMap,
        session: requests.Session,
        base_url: str,
        options: RunOptions,
        report: RunReport,
        lock: threading.Lock,
    ) -> None:
        self.api = api
        self.project_id = options.project_id
        self.other_project_id = options.other_project_id
        self.final_phase_wait_s = options.final_phase_wait_s
        self._session = session
        self._base_url = base_url.rstrip("/")
        self._options = options
        self._report = report
        self._lock = lock
        self.state: dict[str, Any] = {}

    def _auth_for(self, credentials: str) -> tuple[dict[str, str], requests.auth.AuthBase | None]:
        valid = self._options.credentials
        if credentials == "none":
            return {}, None
        if credentials == "invalid":
            if valid.kind == "aksk":
                wrong = Credentials(ak=valid.ak, sk=f"wrong-{uuid.uuid4().hex}")
                return valid.headers(), wrong.requests_auth()
            return {"X-Auth-Token": f"invalid-{uuid.uuid4().hex}"}, None
        return valid.headers(), valid.requests_auth()

    def send(
        self,
        role: Role,
        *,
        project_id: str | None = None,
        job_id: str | None = None,
        body: Any = None,
        credentials: str = "valid",
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
        response = self._session.send(prepared, timeout=self._options.request_timeout_s)
        elapsed_ms = (time.perf_counter() - started) * 1000
        result = ProbeResponse(
            status=response.status_code,
            body=response.content,
            content_type=response.headers.get("content-type", ""),
            curl=curl_command(prepared),
        )
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
            f.but(
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


# --- schemathesis ------------------------------------------------------------------------------


def _schemathesis_config(
    target: ServerTarget,
    options: RunOptions,
    seed: int,
    checks: tuple[str, ...],
    api_project_param: str,
) -> Any:
    from schemathesis.config import SchemathesisConfig

    budget = options.budget
    excluded = set(CHECKS_NEEDING_PEERS)
    if options.credentials.kind == "aksk":
        excluded.update(CHECKS_UNUSABLE_WITH_TRANSPORT_SIGNING)
    data: dict[str, Any] = {
        "seed": seed,
        "color": False,
        "base-url": target.base_url,
        "workers": 1,
        "request-timeout": options.request_timeout_s,
        "parameters": {api_project_param: options.project_id},
        "generation": {
            "max-examples": budget.max_examples,
            "deterministic": True,
            "database": "none",
        },
        "phases": {name: {"enabled": name in options.phases} for name in ALL_PHASES},
        "checks": {
            "enabled": True,
            # ModelArts answers 400 for an unknown job and a duplicate name, which valid data
            # can meet; checks.valid_request_accepted tells those 400s from real rejections.
            "positive_data_acceptance": {"expected-statuses": POSITIVE_DATA_STATUSES},
            **{name: {"enabled": False} for name in sorted(excluded)},
            **{name: {"enabled": True} for name in checks},
        },
        "cache": {"enabled": False},
        "warnings": False,
    }
    headers = options.credentials.headers()
    if headers:
        data["headers"] = headers
    if budget.max_time is not None:
        data["max-time"] = budget.max_time
    return SchemathesisConfig.from_dict(data)


def _engine_events(schema: Any, credentials: Credentials) -> Iterator[EngineEvent]:
    """Run the engine; with AK/SK, every engine session signs at the transport."""
    from schemathesis.engine.core import Engine

    engine = Engine(schema=schema)
    signer = credentials.requests_auth()
    if signer is None:
        yield from engine.execute()
        return
    yield from _signed_execution(engine, signer)


def _signed_execution(engine: Any, signer: requests.auth.AuthBase) -> Iterator[EngineEvent]:
    # Same steps as schemathesis.engine.core.Engine.execute, with an EngineContext whose
    # sessions carry the signer: requests applies it to the final PreparedRequest.
    from schemathesis import auths
    from schemathesis.config import InferenceAlgorithm
    from schemathesis.engine.context import EngineContext
    from schemathesis.engine.observations import Observations
    from schemathesis.engine.run import PhaseName, PhaseSkipReason

    class SigningEngineContext(EngineContext):
        def get_session(self, *, operation: Any = None) -> requests.Session:
            session: requests.Session = super().get_session(operation=operation)
            session.auth = signer
            return session

    schema = engine.schema
    if schema.config.auth.is_defined:
        auths.unregister()
    plan = engine._create_execution_plan()
    observations = None
    for phase in plan.phases:
        if (
            phase.name == PhaseName.STATEFUL_TESTING
            and phase.skip_reason in (None, PhaseSkipReason.NOT_APPLICABLE)
            and schema.config.phases.stateful.inference.is_algorithm_enabled(
                InferenceAlgorithm.LOCATION_HEADERS
            )
        ):
            observations = Observations()
    ctx = SigningEngineContext(
        schema=schema,
        stop_event=threading.Event(),
        observations=observations,
        max_time=schema.config.max_time,
    )
    yield from plan.execute(ctx)


def _describe(failure: Any) -> Finding:
    """The :class:`Finding` a schemathesis failure stands for (title, expected, got, pointer)."""
    from schemathesis.core.failures import AcceptedNegativeData, ServerError
    from schemathesis.openapi.checks import (
        JsonSchemaError,
        RejectedPositiveData,
        UndefinedContentType,
        UndefinedStatusCode,
    )

    title = str(failure.title)
    if getattr(failure, "code", "") == MODELARTS_FAILURE_CODE:
        # One of ours, raised through schemathesis: its message is already "expected/got".
        expected, _, got = str(failure.message).partition("\n")
        return Finding(title, expected.removeprefix("expected "), got.removeprefix("got "))
    if isinstance(failure, JsonSchemaError):
        pointer = "".join(f"/{part}" for part in failure.instance_path)
        rule = "/".join(str(part) for part in failure.schema_path)
        return Finding(
            title,
            f"{rule} ({failure._raw_message})",
            f"{json.dumps(failure.instance, default=str)[:200]} at {pointer or '/'}",
            pointer,
            rule=str(failure.schema_path[-1]) if failure.schema_path else "",
        )
    if isinstance(failure, UndefinedStatusCode):
        return Finding(
            title,
            f"a documented status: {', '.join(failure.defined_status_codes)}",
            f"HTTP {failure.status_code}",
        )
    if isinstance(failure, UndefinedContentType):
        return Finding(
            title,
            f"Content-Type {' or '.join(failure.defined_content_types)}",
            str(failure.content_type),
        )
    if isinstance(failure, AcceptedNegativeData):
        return Finding(
            title,
            f"a rejection ({failure.expected_statuses})",
            f"HTTP {failure.status_code} for invalid input",
        )
    if isinstance(failure, RejectedPositiveData):
        return Finding(
            title,
            f"acceptance ({failure.allowed_statuses})",
            f"HTTP {failure.status_code} for valid input",
        )
    if isinstance(failure, ServerError):
        return Finding(title, "no 5xx", f"HTTP {failure.status_code}")
    lines = [line.strip() for line in str(failure.message).splitlines() if line.strip()]
    expected = lines[0] if lines else title
    got = " ".join(lines[1:3]) if len(lines) > 1 else "(see reproduction)"
    return Finding(title, expected, got)


@dataclass
class _EventCollector:
    report: RunReport
    lock: threading.Lock
    progress: ProgressSink | None
    seen_interactions: set[int] = field(default_factory=set)

    def handle(self, event: EngineEvent) -> None:
        from schemathesis.engine import StopReason, events

        if isinstance(event, events.PhaseStarted) and self.progress is not None:
            self.progress.phase(str(event.phase.name.value))
        elif isinstance(event, events.ScenarioFinished | events.FuzzScenarioFinished):
            self._scenario(event.recorder)
            if self.progress is not None:
                self.progress.advance(event.recorder.label)
        elif isinstance(event, events.NonFatalError):
            with self.lock:
                self.report.errors.append(
                    f"{event.label}: {event.info.title}: {event.info.message}"
                )
        elif isinstance(event, events.FatalError):
            with self.lock:
                self.report.errors.append(f"schemathesis: {event.exception}")
        elif (
            isinstance(event, events.EngineFinished)
            and event.stop_reason == StopReason.SERVER_UNAVAILABLE
        ):
            with self.lock:
                self.report.errors.append("the server stopped responding during the run")

    def _scenario(self, recorder: Any) -> None:
        with self.lock:
            for case_id, interaction in recorder.interactions.items():
                response = interaction.response
                key = id(interaction)
                if response is None or key in self.seen_interactions:
                    continue
                self.seen_interactions.add(key)
                node = recorder.cases.get(case_id)
                if node is not None:
                    operation = node.value.operation
                    label = _operation_label(operation.method, operation.path)
                    self.report.record_time(label, float(response.elapsed) * 1000)
            for case_id, nodes in recorder.checks.items():
                for node in nodes:
                    failure = None
                    info = node.failure_info
                    if node.status.value == "failure" and info is not None:
                        case_node = recorder.cases.get(case_id)
                        operation = info.failure.operation or (
                            case_node.value.operation.label if case_node is not None else ""
                        )
                        failure = _describe(info.failure).but(
                            check=node.name,
                            operation=str(operation),
                            reproduce=redact(info.code_sample),
                        )
                    elif node.status.value != "success":
                        continue
                    self.report.record(node.name, failure)


def _run_schemathesis(
    target: ServerTarget,
    options: RunOptions,
    api: ApiMap,
    report: RunReport,
    lock: threading.Lock,
    progress: ProgressSink | None,
) -> None:
    import schemathesis

    checks = register_schemathesis_checks(api)
    config = _schemathesis_config(target, options, report.seed or 0, checks, api.project_param)
    schema = schemathesis.openapi.from_dict(
        json.loads(json.dumps(api.spec.document)), config=config
    )
    if target.app is not None:
        schema.app = target.app
    collector = _EventCollector(report, lock, progress)
    for event in _engine_events(schema, options.credentials):
        collector.handle(event)


# --- the run -----------------------------------------------------------------------------------


def _preflight(target: ServerTarget, timeout_s: float) -> str | None:
    """A connection problem, described for a human; None when the server answers."""
    if target.app is not None:
        return None
    try:
        requests.get(target.base_url, timeout=timeout_s, allow_redirects=False)
    except requests.exceptions.ConnectionError as exc:
        reason = "connection refused" if "refused" in str(exc).lower() else "cannot connect"
        return f"cannot reach {target.base_url}: {reason} (is the server running?)"
    except requests.exceptions.Timeout:
        return f"cannot reach {target.base_url}: no answer within {timeout_s:g}s"
    except requests.exceptions.InvalidURL as exc:
        return f"{target.base_url!r} is not a usable URL: {exc}"
    return None


def run_server_contract(
    target: ServerTarget,
    options: RunOptions,
    *,
    api: ApiMap | None = None,
    progress: ProgressSink | None = None,
) -> RunReport:
    """Run every check against ``target``; return the report (never raises for findings)."""
    seed = options.budget.seed if options.budget.seed is not None else random.randrange(2**32)
    report = RunReport(target=target.label, seed=seed)
    started = time.perf_counter()
    lock = threading.Lock()
    try:
        problem = _preflight(target, options.request_timeout_s)
        if problem is not None:
            report.errors.append(problem)
            return report
        resolved = api if api is not None else ApiMap.from_spec()
        if options.scenarios:
            if progress is not None:
                progress.phase("modelarts scenarios")
            with _session(target) as session:
                probe = HttpProbe(
                    api=resolved,
                    session=session,
                    base_url=target.base_url,
                    options=options,
                    report=report,
                    lock=lock,
                )
                for scenario in SCENARIOS:
                    try:
                        scenario.run(probe)
                    except requests.exceptions.RequestException as exc:
                        # Timeouts and dropped connections end the run (exit 2), not a finding.
                        report.errors.append(
                            f"scenario {scenario.name}: {type(exc).__name__}: {redact(str(exc))}"
                        )
                        return report
                    if progress is not None:
                        progress.advance(scenario.name)
        if options.phases:
            if options.credentials.kind == "aksk":
                report.notes.append(
                    "ignored_auth: not run, it cannot remove a signature added at the transport; "
                    "credentials_required checks missing and invalid credentials instead"
                )
            _run_schemathesis(target, options, resolved, report, lock, progress)
    finally:
        report.duration_s = time.perf_counter() - started
    return report
