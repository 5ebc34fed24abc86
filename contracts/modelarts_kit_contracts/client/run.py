"""Run the client check: drive a client through its adapter against the mock, judge each call.

For each case the runner queues the responses the mock will give, makes one call through the
adapter (in a worker thread, bounded by ``call_timeout_s``), and evaluates the checks of
:mod:`~modelarts_kit_contracts.client.checks` on what happened; the mock has already run the
``wire`` request checks on every request the client sent.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Mapping, Sequence

from modelarts_kit_spec import load_spec
from modelarts_kit_spec.load import Spec
from modelarts_kit_spec.meaning import Role

from modelarts_kit_contracts.client import checks as client_checks
from modelarts_kit_contracts.client.adapters import (
    ADAPTER_METHODS,
    GENERIC_CALL,
    AdapterError,
    AdapterFactory,
    ClientAdapter,
    ClientTarget,
    OperationNotSupported,
)
from modelarts_kit_contracts.client.cases import Case, ClientCheckSettings, build_cases
from modelarts_kit_contracts.client.checks import ClientCall, Outcome, SentRequest
from modelarts_kit_contracts.core import REGISTRY, Finding, RunReport, evaluate
from modelarts_kit_contracts.core.findings import group_findings
from modelarts_kit_contracts.core.progress import ProgressSink
from modelarts_kit_contracts.mock import MockServer, serve_in_thread

__all__ = ["build_adapter", "merge_failures", "not_supported_notes", "run_client_check"]

# Throw-away credentials the mock accepts; they only ever travel to the loopback mock.
CHECK_TOKEN = "modelarts-kit-client-check-token"
CHECK_AK = "MODELARTSKITCHECKAK00"
CHECK_SK = "modelarts-kit-client-check-sk"
INTERRUPTED = "interrupted ({}): the check did not complete; the verdict covers the cases run"
NOT_SUPPORTED = "{operation}: not supported by this client ({reason}): {which} not checked{cases}"

# The order the checks run in; each stage needs the one before it to have passed.
_CALL = ("client_returns", "request_sent")
_PER_REQUEST = ("request_operation", "request_query_fidelity", "request_body_fidelity")
_OUTCOME = (
    "retry_safe",
    "no_blind_retry",
    "response_accepted",
    "fidelity_dropped_field",
    "fidelity_null_to_absent",
    "fidelity_absent_to_null",
    "fidelity_coerced_type",
    "fidelity_value_changed",
    "fidelity_unknown_field",
    "error_surfaced",
    "error_status",
    "error_code_intact",
    "error_msg_intact",
)


def _make_call(adapter: ClientAdapter, case: Case) -> object:
    """One call through the adapter: its own method for the three roles every spec has, its
    optional ``call`` for every other operation (OperationNotSupported where it has none)."""
    if case.role is Role.CREATE:
        return adapter.create(case.project_id, case.body)
    if case.role is Role.SHOW:
        return adapter.show(case.project_id, case.job_id)
    if case.role is Role.TERMINATE:
        return adapter.stop(case.project_id, case.job_id)
    generic = getattr(adapter, GENERIC_CALL, None)
    if not callable(generic):
        raise OperationNotSupported(f"the adapter has no {GENERIC_CALL}() method")
    return generic(case.call())


def _invoke(adapter: ClientAdapter, case: Case, timeout_s: float) -> Outcome:
    outcome = Outcome()

    def run() -> None:
        try:
            outcome.result = _make_call(adapter, case)
        except OperationNotSupported as exc:
            outcome.unsupported = str(exc)
        except Exception as exc:  # noqa: BLE001 - the client's own error is what we inspect
            outcome.error = exc
        outcome.finished = True

    worker = threading.Thread(target=run, name="modelarts-kit-client-call", daemon=True)
    worker.start()
    worker.join(timeout_s)
    return outcome


def run_client_check(
    factory: AdapterFactory,
    *,
    settings: ClientCheckSettings | None = None,
    spec: Spec | None = None,
    target_name: str = "client",
    cases: Sequence[Case] | None = None,
    progress: ProgressSink | None = None,
) -> RunReport:
    """Run every case against the client the factory builds; the findings in a RunReport.

    ``cases`` defaults to :func:`build_cases` for ``settings``; pass them to reuse one set.
    ``progress`` hears one phase per operation and one step per case. Ctrl-C ends the run
    between cases: the report then covers the cases run and says it was interrupted.
    """
    settings = settings or ClientCheckSettings()
    spec = spec or load_spec()
    started = time.monotonic()
    report = RunReport(target=target_name, seed=settings.seed)
    mock = MockServer(spec, seed_value=settings.seed, error_rate=0.0)
    if settings.in_process:
        target = _target(settings, "http://modelarts-mock.invalid", mock)
        _run_cases(factory, target, mock, cases, settings, report, spec, progress)
    else:
        with serve_in_thread(mock) as base_url:
            target = _target(settings, base_url, None)
            _run_cases(factory, target, mock, cases, settings, report, spec, progress)
    report.failures = merge_failures(report.failures)
    report.duration_s = time.monotonic() - started
    return report


def merge_failures(failures: Sequence[Finding]) -> list[Finding]:
    """One finding per (check, operation): the first one, naming the other places it occurred.

    A client that drops unknown fields drops them at every level of every response; the
    report says so once, with the places (a pointer, else the case), instead of once per
    field. The grouping is the kit's one
    (:func:`~modelarts_kit_contracts.core.findings.group_findings`).
    """
    return group_findings(failures, place=_pointer_or_case)


def _pointer_or_case(finding: Finding) -> str:
    return finding.pointer or finding.reproduce


def build_adapter(factory: AdapterFactory, target: ClientTarget) -> ClientAdapter:
    """Call ``factory``; an AdapterError (a usage error) when it does not build an adapter."""
    name = getattr(factory, "__qualname__", repr(factory))
    try:
        adapter = factory(target)
    except TypeError as exc:
        raise AdapterError(
            f"--adapter: {name} is not an adapter factory: calling it with a ClientTarget "
            f"failed ({exc})"
        ) from None
    missing = [m for m in ADAPTER_METHODS if not callable(getattr(adapter, m, None))]
    if missing:
        raise AdapterError(
            f"--adapter: {name} returned a {type(adapter).__name__}, not a client adapter "
            f"(missing {', '.join(missing)}; see the adapter protocol in contracts/README.md)"
        )
    return adapter


def _target(settings: ClientCheckSettings, base_url: str, mock: MockServer | None) -> ClientTarget:
    return ClientTarget(
        base_url=base_url,
        token=CHECK_TOKEN,
        access_key=CHECK_AK,
        secret_key=CHECK_SK,
        auth=settings.auth,
        timeout_s=settings.call_timeout_s,
        transport=mock.httpx_transport() if mock is not None else None,
    )


def _run_cases(
    factory: AdapterFactory,
    target: ClientTarget,
    mock: MockServer,
    cases: Sequence[Case] | None,
    settings: ClientCheckSettings,
    report: RunReport,
    spec: Spec,
    progress: ProgressSink | None,
) -> None:
    adapter = build_adapter(factory, target)  # before the cases: a bad --adapter fails fast
    per_operation: Counter[str] = Counter()
    # (operation, why the client cannot make the call) -> the cases not checked for it
    skipped: dict[tuple[str, str], list[str]] = {}
    try:
        if cases is None and progress is not None:
            progress.phase("client: generating the cases")
        todo = list(cases) if cases is not None else build_cases(spec, settings)
        per_operation.update(case.operation.operation_id for case in todo)
        current = ""
        for case in todo:
            operation_id = case.operation.operation_id
            if progress is not None and operation_id != current:
                current = operation_id
                progress.phase(f"client: {operation_id} ({per_operation[operation_id]} cases)")
            mock.reset()
            mock.enqueue(*case.responses)
            began = time.monotonic()
            outcome = _invoke(adapter, case, settings.call_timeout_s)
            if outcome.unsupported is not None:
                # The client cannot make this call (the operation, or one of the inputs): said
                # once per reason with the cases it skips, not a failure; the operation's other
                # cases still run.
                skipped.setdefault((operation_id, outcome.unsupported), []).append(case.name)
                if progress is not None:
                    progress.advance(case.name)
                continue
            report.record_time(case.operation.operation_id, (time.monotonic() - began) * 1000)
            call = ClientCall(
                spec, adapter, case, outcome, list(mock.exchanges), settings.call_timeout_s
            )
            _judge(call, report)
            if progress is not None:
                progress.advance(case.name)
    except KeyboardInterrupt as exc:
        # SIGTERM arrives as a KeyboardInterrupt naming it (modelarts_kit.signals).
        report.errors.append(INTERRUPTED.format(exc.args[0] if exc.args else "Ctrl-C"))
    finally:
        adapter.close()
        mock.reset()
        report.notes.extend(not_supported_notes(skipped, per_operation))


def not_supported_notes(
    skipped: Mapping[tuple[str, str], Sequence[str]], per_operation: Mapping[str, int]
) -> list[str]:
    """One note per operation and reason: how many of the operation's cases the client could
    not make and, when others ran, each by name (the operation's name left out)."""
    notes = []
    for (operation_id, reason), names in skipped.items():
        total = per_operation.get(operation_id, len(names))
        if len(names) == total:  # the whole operation: its case names would say nothing more
            which, shown = f"all {total} cases", ""
        else:
            not_run = sum(len(n) for (op, _), n in skipped.items() if op == operation_id)
            listed = ", ".join(name.removeprefix(f"{operation_id} ") for name in names)
            which = f"{len(names)} of {total} cases"
            shown = f": {listed}; the other {total - not_run} ran"
        notes.append(
            NOT_SUPPORTED.format(operation=operation_id, reason=reason, which=which, cases=shown)
        )
    return notes


def _judge(call: ClientCall, report: RunReport) -> None:
    for name in _CALL:
        if evaluate(report, [REGISTRY[name]], call):
            return  # the call did not return, or sent nothing: nothing more to judge
    reproduce = f"case: {call.case.name}"
    asked = call.case.operation.operation_id
    for exchange in call.exchanges:
        # A request that reached no operation is still the call of the one the caller asked for.
        found = [
            f.but(reproduce=reproduce, operation=f.operation or asked) for f in exchange.findings
        ]
        report.record_all(exchange.checked, found)
        sent = SentRequest(call, exchange)
        evaluate(report, [REGISTRY[_PER_REQUEST[0]]], sent)
        if exchange.operation == call.case.operation.operation_id:
            report.record("request_path", client_checks.path_values(sent))
        evaluate(report, [REGISTRY[name] for name in _PER_REQUEST[1:]], sent)
    evaluate(report, [REGISTRY[name] for name in _OUTCOME], call)
