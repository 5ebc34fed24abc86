"""Every call into schemathesis, in one module, tested with one pinned version.

The server checker drives schemathesis 4.x as a library, the way its CLI does: a
``SchemathesisConfig`` built from a dict (:func:`build_config`), an ``OpenApiSchema`` from the
spec document, and the engine's execution plan run with an ``EngineContext`` whose sessions are
ours (:class:`EngineRun`): every request then passes the run's traffic guard (time bounds,
create cap, rate, 429, signing) whatever the transport (real HTTP or in-process ASGI,
:func:`asgi_session`). The ModelArts response checks are schemathesis custom checks
(:func:`register_checks`); engine events become findings of the report (:class:`EventCollector`).

The engine context and ``Engine._create_execution_plan`` are not public schemathesis API, so
``pyproject.toml`` pins ``schemathesis==``:data:`PINNED_VERSION` and a test checks that the
installed version is that one: an upgrade is a deliberate change re-tested here.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

import requests
from modelarts_kit_wire.asgi import runs_on_any_loop
from modelarts_kit_wire.redaction import redact
from modelarts_kit_wire.wirejson import (
    NOT_WIRE_JSON,
    LazyWireJson,
    WireJsonError,
    decode_wire_json,
)

from modelarts_kit_contracts.core import Check, Finding, RunReport
from modelarts_kit_contracts.core.envelopes import Placement
from modelarts_kit_contracts.core.progress import ProgressSink
from modelarts_kit_contracts.core.wire import Exchange, Headers, WireRequest, WireResponse
from modelarts_kit_contracts.server.api_map import ApiMap
from modelarts_kit_contracts.server.choices import (
    ACCEPTANCE_CHECKS,
    REJECTION_CHECKS,
    answer_choices,
    choices_made,
    cite,
    cite_response,
    demanded,
)
from modelarts_kit_contracts.server.inprocess import InProcessMixin
from modelarts_kit_contracts.server.last_exchange import exchange_once
from modelarts_kit_contracts.server.response_checks import response_checks

if TYPE_CHECKING:
    from schemathesis.engine.events import EngineEvent

__all__ = [
    "ALL_PHASES",
    "MODELARTS_FAILURE_CODE",
    "PINNED_VERSION",
    "EngineRun",
    "EventCollector",
    "ProgressSink",
    "asgi_session",
    "build_config",
    "in_process_session_type",
    "installed_version",
    "register_checks",
]

PINNED_VERSION = "4.32.5"
ALL_PHASES = ("examples", "coverage", "fuzzing", "stateful")
# The failure code our checks report under inside schemathesis (its custom-check range is ST9xx).
MODELARTS_FAILURE_CODE = "MA901"
POSITIVE_DATA_STATUSES = ["2xx", "3xx", "400", "401", "403", "404", "409", "429", "5xx"]
# schemathesis's ignored_auth removes the declared credential from a case and expects a refusal;
# a signature added at the transport comes back on every request, so that probe cannot work.
CHECKS_UNUSABLE_WITH_TRANSPORT_SIGNING = ("ignored_auth",)
# Needs two identities configured through Web Fuzzing Commons; never applies here.
CHECKS_NEEDING_PEERS = ("object_level_authorization",)


@contextmanager
def asgi_session(app: Callable[..., Any]) -> Iterator[requests.Session]:
    """A ``requests.Session`` that reaches ``app`` in-process: on the calling thread's loop
    when any loop may run ``app`` (:mod:`.inprocess`), else through schemathesis's client."""
    from schemathesis.python import asgi

    with (in_process_session_type() if runs_on_any_loop(app) else asgi.get_client)(app) as c:
        yield c


@cache
def in_process_session_type() -> type[InProcessMixin]:
    """schemathesis's ASGI client (its transport then sends through the session instead of
    building a client per request) as a ManagedCookiesSession (an answer's cookies are dropped
    before the next request), running requests on the calling thread's loop."""
    from schemathesis.python.asgi import ASGIClient
    from schemathesis.transport.requests import ManagedCookiesSession

    return type("InProcessSession", (InProcessMixin, ASGIClient, ManagedCookiesSession), {})


def installed_version() -> str:
    from importlib.metadata import version

    return version("schemathesis")


# --- custom checks ---------------------------------------------------------------------------


def _is_positive(case: Any) -> bool | None:
    meta = getattr(case, "meta", None)
    if meta is None:
        return None
    return bool(meta.generation.mode.is_positive)


def _must_accept(api: ApiMap, operation: Any, case: Any) -> bool:
    """Whether the body schemathesis generated as valid is one every correct server accepts.

    Its generator does not honour every JSON Schema keyword (``dependentRequired``, for one),
    and a body valid for the rules a server enforces may still hold what a server may refuse
    (an unknown field, a guidance rule broken): only a must-accept body demands acceptance.
    """
    from schemathesis.core import NOT_SET

    body = getattr(case, "body", None)
    if body is None or body is NOT_SET:  # no body: must-accept only where none is required
        return not api.envelopes.must_accept.operation(operation.operation_id).request_required
    if not isinstance(body, dict | list):
        return True
    return demanded(api, "valid_request_accepted", operation.operation_id, body, False)


def case_body(case: Any) -> tuple[Any, bool]:
    """The JSON body of a case (None if it has none) and whether it was generated invalid."""
    from schemathesis.core.parameters import ParameterLocation

    body = getattr(case, "body", None)
    meta = getattr(case, "meta", None)
    negative = meta is not None and meta.is_negative_at(ParameterLocation.BODY)
    return (body if isinstance(body, dict | list) else None), negative


def _negative_parts(case: Any) -> set[str]:
    """The parts of the case (``body``, ``path``, ``query``, ``header``...) generated invalid."""
    meta = getattr(case, "meta", None)
    if meta is None:
        return set()
    return {
        str(getattr(location, "value", location))
        for location, info in meta.components.items()
        if info.mode.is_negative
    }


def negative_elsewhere(case: Any) -> bool:
    """Whether a part of the case other than its body was generated invalid."""
    from schemathesis.core.parameters import ParameterLocation

    return bool(_negative_parts(case) - {ParameterLocation.BODY.value})


def negative_at(case: Any, where: str) -> bool:
    """Whether the case's ``where`` part (path, query, header) was generated invalid."""
    return where in _negative_parts(case)


def query_pairs(case: Any) -> list[tuple[str, str]]:
    """The query a case sends, as the (name, text) pairs on the wire."""
    pairs: list[tuple[str, str]] = []
    for name, value in (getattr(case, "query", None) or {}).items():
        for item in value if isinstance(value, list) else [value]:
            if item is None:
                continue
            pairs.append((str(name), _wire_text(item)))
    return pairs


def _wire_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value if isinstance(value, str) else json.dumps(value)


def parameters_placement(api: ApiMap, operation_id: str, case: Any) -> Placement:
    """Where the case's query, header and path parameters lie between the envelopes."""
    headers = {str(k): _wire_text(v) for k, v in (getattr(case, "headers", None) or {}).items()}
    path = {
        str(k): _wire_text(v) for k, v in (getattr(case, "path_parameters", None) or {}).items()
    }
    return api.envelopes.place_parameters(operation_id, query_pairs(case), headers, path)


_REGISTERED: set[str] = set()
_REGISTER_LOCK = threading.Lock()
_WIRE_JSON = "(deserializer application/json)"


def _deserialize_wire_json(_ctx: Any, response: Any) -> Any:
    """Schemathesis's JSON deserializer, bounded: :func:`decode_wire_json` on the raw bytes."""
    return decode_wire_json(response.content or b"")


def _exchange_of(api: ApiMap, response: Any, case: Any) -> Exchange | None:
    """The wire exchange of ``case`` and its ``response`` (None: no operation of ``api``)."""
    operation = case.operation
    found = api.operation_at(operation.method, operation.path)
    if found is None:
        return None
    return Exchange(
        request=WireRequest(method=operation.method.upper(), path=operation.path),
        response=WireResponse(
            status=response.status_code,
            headers=Headers(
                (name, value) for name, values in response.headers.items() for value in values
            ),
            body=response.content or b"",
        ),
        operation=found.operation_id,
        path_params={k: str(v) for k, v in (case.path_parameters or {}).items()},
        positive=_is_positive(case) and _must_accept(api, found, case),
    )


def register_checks(api: ApiMap) -> tuple[str, ...]:
    """Register every response check as a schemathesis custom check (idempotent).

    Returns the check names, for the run's ``checks`` selection. Schemathesis's registry is
    process-wide; the checks only act on the three ModelArts operations, so they are inert
    for any other API a process happens to test.
    """
    import schemathesis
    from schemathesis.core.failures import Failure as SchemathesisFailure

    class ModelArtsFinding(SchemathesisFailure):
        code = MODELARTS_FAILURE_CODE
        kind_title = "ModelArts contract violated"

        @property
        def _unique_key(self) -> str:
            return self.title

    def adapter(entry: Check) -> Callable[..., bool | None]:
        def run(ctx: Any, response: Any, case: Any) -> bool | None:
            resolved: ApiMap = _CURRENT_API.api or api
            exchange = exchange_once(_exchange_of, resolved, response, case)
            if exchange is None:
                return None
            findings = entry.run(resolved, exchange)
            if not findings:
                return True
            first = findings[0]
            raise ModelArtsFinding(
                operation=case.operation.label, title=first.title, message=first.message
            )

        run.__name__ = entry.name
        run.__qualname__ = entry.name
        run.__doc__ = entry.meaning
        return run

    names = []
    with _REGISTER_LOCK:
        _CURRENT_API.api = api
        if _WIRE_JSON not in _REGISTERED:
            # Schemathesis's own JSON deserializer is ``json.loads`` (a deeply nested answer
            # raised RecursionError and killed its worker thread): answers of the server under
            # test are decoded by the kit's one wire decoder instead. Its refusal is a
            # ValueError, which schemathesis reports as a deserialization failure of that answer.
            schemathesis.deserializer("application/json")(_deserialize_wire_json)
            _REGISTERED.add(_WIRE_JSON)
        for entry in response_checks():
            names.append(entry.name)
            if entry.name not in _REGISTERED:
                schemathesis.check(adapter(entry))
                _REGISTERED.add(entry.name)
    return tuple(names)


@dataclass
class _CurrentApi:
    api: ApiMap | None = None


_CURRENT_API = _CurrentApi()


# --- configuration -----------------------------------------------------------------------------


def build_config(
    *,
    base_url: str,
    seed: int,
    phases: tuple[str, ...],
    max_examples: int,
    max_time_s: int | None,
    fuzzing_max_examples: int | None = None,
    workers: int,
    request_timeout_s: float,
    parameters: dict[str, str],
    headers: dict[str, str],
    checks: tuple[str, ...],
    signed_at_transport: bool,
    negative_only_operation_ids: tuple[str, ...] = (),
    disabled_operation_ids: tuple[str, ...] = (),
    mode: str = "all",
) -> Any:
    """A ``SchemathesisConfig`` for one run (``negative_only_operation_ids``: operations that
    get only invalid data, e.g. create on a live target, so that no job is created;
    ``disabled_operation_ids``: operations never called, e.g. delete on a live target, whose
    ids schemathesis would take from earlier answers, the target's own jobs; ``mode``:
    ``positive``, ``negative`` or ``all`` generated data; ``fuzzing_max_examples``: the
    fuzzing phase's own budget per operation, where it differs from ``max_examples``)."""
    from schemathesis.config import SchemathesisConfig

    excluded = set(CHECKS_NEEDING_PEERS)
    if signed_at_transport:
        excluded.update(CHECKS_UNUSABLE_WITH_TRANSPORT_SIGNING)
    data: dict[str, Any] = {
        "seed": seed,
        "color": False,
        "base-url": base_url,
        "workers": workers,
        "request-timeout": request_timeout_s,
        "parameters": parameters,
        "generation": {
            "max-examples": max_examples,
            "deterministic": True,
            "database": "none",
            "mode": mode,
        },
        "phases": {name: {"enabled": name in phases} for name in ALL_PHASES},
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
        # Hypothesis's too_slow health check measures wall time: on a busy machine it ended
        # whole runs ("Data generation is too slow") with nothing to say of the server.
        "suppress-health-check": ["too_slow"],
    }
    operations: list[dict[str, Any]] = [
        {
            "include-operation-id": operation_id,
            "generation": {"mode": "negative"},
            "phases": {"examples": {"enabled": False}},
        }
        for operation_id in negative_only_operation_ids
    ]
    operations += [
        {"include-operation-id": operation_id, "enabled": False}
        for operation_id in disabled_operation_ids
    ]
    if fuzzing_max_examples is not None:
        data["phases"]["fuzzing"]["generation"] = {"max-examples": fuzzing_max_examples}
    if operations:
        data["operations"] = operations
    if headers:
        data["headers"] = headers
    if max_time_s is not None:
        data["max-time"] = max(1, max_time_s)
    return SchemathesisConfig.from_dict(data)


# --- the engine --------------------------------------------------------------------------------


@dataclass
class EngineRun:
    """One engine execution whose every session is prepared by ``prepare_session``."""

    document: dict[str, Any]
    config: Any
    app: Callable[..., Any] | None
    prepare_session: Callable[[requests.Session], None]
    _stop: threading.Event | None = None

    def stop(self) -> None:
        """Ask the engine to stop after the tests in progress (thread-safe)."""
        if self._stop is not None:
            self._stop.set()

    def events(self) -> Iterator[EngineEvent]:
        import schemathesis
        from schemathesis import auths
        from schemathesis.config import InferenceAlgorithm
        from schemathesis.engine.context import EngineContext
        from schemathesis.engine.core import Engine
        from schemathesis.engine.observations import Observations
        from schemathesis.engine.run import PhaseName, PhaseSkipReason

        schema = schemathesis.openapi.from_dict(self.document, config=self.config)
        if self.app is not None:
            schema.app = self.app
        prepare = self.prepare_session

        class GuardedObservations(Observations):
            def _extract_body_urls(self, operation: Any, response: Any) -> None:
                # Its scan parses with json.loads: not a body the wire decoder refuses.
                try:
                    decode_wire_json(response.content or b"")
                except WireJsonError:
                    return
                super()._extract_body_urls(operation, response)

        in_process = self.app is not None and runs_on_any_loop(self.app)
        sessions: list[requests.Session] = []

        class GuardedEngineContext(EngineContext):
            def get_session(self, *, operation: Any = None) -> requests.Session:
                fresh = getattr(self._thread_local, "session", None) is None
                session: requests.Session = super().get_session(operation=operation)
                if fresh:
                    if in_process:
                        session = in_process_session_type().like(session, schema.app)
                        self._thread_local.session = session
                    sessions.append(session)
                    prepare(session)
                return session

        # The steps of schemathesis.engine.core.Engine.execute, with our context.
        engine = Engine(schema=schema)
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
                observations = GuardedObservations()
        stop = threading.Event()
        self._stop = stop
        ctx = GuardedEngineContext(
            schema=schema,
            stop_event=stop,
            observations=observations,
            max_time=schema.config.max_time,
        )
        try:
            yield from plan.execute(ctx)
        finally:
            for session in sessions:
                session.close()


# --- events -> report -------------------------------------------------------------------------


def _operation_label(method: str, template: str) -> str:
    return f"{method.upper()} {template}"


def describe_failure(failure: Any) -> Finding:
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


def _status_of(interaction: Any) -> int | None:
    response = getattr(interaction, "response", None)
    status = getattr(response, "status_code", None)
    return status if isinstance(status, int) else None


def _caused_by(error: BaseException, kinds: tuple[type[BaseException], ...]) -> bool:
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if isinstance(current, kinds):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


@dataclass
class EventCollector:
    """Turns engine events into the report's tallies, failures, timings and errors.

    ``quiet_errors``: exception types that are the run's own decisions (a create the cap
    refused, a request after the deadline), counted in ``suppressed`` instead of reported.
    """

    report: RunReport
    lock: threading.Lock
    progress: ProgressSink | None
    api: ApiMap | None = None  # judges bodies by the two envelopes (None: every verdict kept)
    quiet_errors: tuple[type[BaseException], ...] = ()
    stopping: Callable[[], bool] = lambda: False
    suppressed: int = 0
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
            if self.stopping() or _caused_by(event.value, self.quiet_errors):
                self.suppressed += 1
                return
            with self.lock:
                self.report.errors.append(
                    f"{event.label}: {event.info.title}: {event.info.message}"
                )
        elif isinstance(event, events.FatalError):
            if self.stopping() or _caused_by(event.exception, self.quiet_errors):
                self.suppressed += 1
                return
            with self.lock:
                self.report.errors.append(f"schemathesis: {event.exception}")
        elif (
            isinstance(event, events.EngineFinished)
            and event.stop_reason == StopReason.SERVER_UNAVAILABLE
            and not self.stopping()
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
                    answer = LazyWireJson(response.content or b"")
                    self._observe(node.value, response, answer)
                    self._observe_answer(node.value, response, answer)
            for case_id, nodes in recorder.checks.items():
                case_node = recorder.cases.get(case_id)
                case = case_node.value if case_node is not None else None
                for node in nodes:
                    failure = None
                    info = node.failure_info
                    if node.status.value == "failure" and info is not None:
                        if not self._demanded(node.name, case):
                            continue  # a verdict between the envelopes: observed, not judged
                        operation = info.failure.operation or (
                            case.operation.label if case is not None else ""
                        )
                        failure = self._cited(
                            describe_failure(info.failure).but(
                                check=node.name,
                                operation=str(operation),
                                reproduce=redact(info.code_sample),
                            ),
                            case,
                            _status_of(recorder.interactions.get(case_id)),
                        )
                    elif node.status.value != "success":
                        continue
                    self.report.record(node.name, failure)

    def _operation_id(self, case: Any) -> str | None:
        if self.api is None or case is None:
            return None
        found = self.api.operation_at(case.operation.method, case.operation.path)
        return found.operation_id if found is not None else None

    def _observe(self, case: Any, response: Any, answer: LazyWireJson) -> None:
        """Record what the server chose for a body between the envelopes."""
        operation_id = self._operation_id(case)
        body, _ = case_body(case)
        if self.api is None or operation_id is None or body is None or negative_elsewhere(case):
            return  # an answer to an invalid path or header says nothing about the body
        decoded = answer.value
        code = decoded.get("error_code") if isinstance(decoded, dict) else None
        for found in choices_made(
            self.api, operation_id, body, response.status_code, code, check="schemathesis"
        ):
            self.report.observe(found)

    def _observe_answer(self, case: Any, response: Any, answer: LazyWireJson) -> None:
        """Record where an answer departs from a decision of the ledger (never a failure)."""
        operation_id = self._operation_id(case)
        if self.api is None or operation_id is None or not answer.content:
            return
        body = answer.value
        if body is NOT_WIRE_JSON:
            return  # not JSON: the response checks judge it
        status = response.status_code
        for found in answer_choices(self.api, operation_id, status, body, check="schemathesis"):
            self.report.observe(found)

    def _demanded(self, check: str, case: Any) -> bool:
        operation_id = self._operation_id(case)
        body, negative = case_body(case)
        if self.api is None or operation_id is None:
            return True
        if negative_at(case, "path"):
            return True  # an invalid path is judged on its own
        parameters = parameters_placement(self.api, operation_id, case)
        if check in ACCEPTANCE_CHECKS and parameters is not Placement.MUST_ACCEPT:
            return False  # an empty value, a lone end_time: the server's choice
        if check in REJECTION_CHECKS and parameters is Placement.MUST_REJECT:
            return True
        if body is None:
            if check in ACCEPTANCE_CHECKS:
                # No body is must-accept only where must-accept does not require one (the
                # list's body: the ledger's decision, which binds neither end).
                wanted = self.api.envelopes.must_accept.operation(operation_id)
                return wanted.request_schema is None or not wanted.request_required
            if check not in REJECTION_CHECKS:
                return True
            if negative_elsewhere(case):
                return False  # the parameters lie between the envelopes (above)
            # No body: refused only where must-reject requires one (a list's body is the
            # ledger's decision: its parameters are all "Mandatory: No").
            obliged = self.api.envelopes.must_reject.operation(operation_id)
            return obliged.request_schema is not None and obliged.request_required
        return demanded(self.api, check, operation_id, body, negative)

    def _cited(self, finding: Finding, case: Any, status: int | None) -> Finding:
        """The evidence of the rule a finding names: a request rule for a rejection the
        server owed, a response rule for an answer, else the operation's."""
        operation_id = self._operation_id(case)
        if self.api is None or operation_id is None:
            return finding
        body, _ = case_body(case)
        if finding.check in REJECTION_CHECKS and body is not None:
            return cite(self.api, finding, operation_id, body)
        if status is not None and finding.pointer:
            return cite_response(self.api, finding, operation_id, status)
        return cite(self.api, finding, operation_id)
