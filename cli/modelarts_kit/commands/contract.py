"""``modelarts-kit contract server|client|mock|proxy``: the click face of the contract kit.

The library (``modelarts_kit_contracts``) imports no click: these commands parse options, call
its plain functions and print the typed results through its reporters. Exit codes: 0 the target
honours the spec, 1 findings, 2 usage or connection error (a :class:`KitError` raised below
becomes one ``error:`` line in the root group).

``contract server`` without a URL checks the embedded reference server, composed in
:mod:`modelarts_kit.embedded` (the contract kit itself never imports the reference server).
"""

from __future__ import annotations

import socket
import sys
from collections.abc import Awaitable, Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import click
from modelarts_kit_contracts.core import ExitCode, Finding, RunReport
from modelarts_kit_contracts.core.reporters import render_text, to_markdown, write_report
from modelarts_kit_contracts.server.collector import frozen
from modelarts_kit_contracts.server.run import (
    ALL_PHASES,
    DEFAULT_LIVE_MAX_CREATES,
    DEFAULT_MAX_EXAMPLES,
    QUICK,
    Budget,
    Interruption,
    ProgressSink,
    RunOptions,
    ServerTarget,
    default_other_project,
    plan_run,
    run_server_contract,
)
from modelarts_kit_contracts.server.target import ServerCheckError
from modelarts_kit_contracts.transport_auth import CredentialError, Credentials
from modelarts_kit_wire.errors import KitError

from modelarts_kit import options
from modelarts_kit.embedded import embedded_defaults, embedded_target
from modelarts_kit.signals import sigterm_as_interrupt

__all__ = ["client", "embedded_defaults", "embedded_target", "mock", "proxy", "server"]

REPORT_HELP = "Also write junit:PATH, json:PATH or markdown:PATH (repeatable)."


def _write_reports(report: RunReport, specs: tuple[str, ...], command: str = "") -> None:
    for spec_text in specs:
        try:
            write_report(report, spec_text, command=command)
        except OSError as exc:
            raise KitError(f"--report {spec_text}: cannot write: {exc.strerror}") from None


# ---------------------------------------------------------------- server


class RichProgress:
    """A spinner with the current phase and a count of finished scenarios (TTY only)."""

    def __init__(self) -> None:
        from rich.console import Console
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        self._progress = Progress(
            SpinnerColumn(),
            TextColumn("[bold]{task.description}"),
            TextColumn("{task.completed} done"),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            transient=True,
        )
        self._task = self._progress.add_task("starting", total=None)

    def __enter__(self) -> RichProgress:
        self._progress.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._progress.stop()

    def phase(self, name: str) -> None:
        self._progress.update(self._task, description=name)

    def advance(self, label: str) -> None:
        self._progress.advance(self._task)


class LineProgress:
    """Without a terminal: one line per phase on stderr, so CI logs show life."""

    def __init__(self) -> None:
        import time

        self._clock = time.monotonic
        self._started = self._clock()
        self._count = 0

    def phase(self, name: str) -> None:
        elapsed = self._clock() - self._started
        click.echo(f"[{elapsed:6.1f}s] {name} (after {self._count} done)", err=True)

    def advance(self, label: str) -> None:
        self._count += 1


@contextmanager
def _progress() -> Iterator[ProgressSink]:
    """A spinner on a terminal, one line per phase on stderr otherwise."""
    if sys.stderr.isatty():
        with RichProgress() as spinner:
            yield spinner
    else:
        yield LineProgress()


def _credentials(
    url: str | None, token: str | None, ak: str | None, sk: str | None, project_id: str
) -> Credentials:
    if url is None and token is None and ak is None and sk is None:
        from modelarts_kit_server import DEV_TOKEN

        token = DEV_TOKEN
    if url is not None and token is None and ak is None and sk is None:
        raise click.UsageError(
            "a server URL needs credentials: --token TOKEN, or --ak AK --sk SK "
            "(or the MODELARTS_KIT_TOKEN / HUAWEICLOUD_SDK_AK / HUAWEICLOUD_SDK_SK variables)"
        )
    try:
        return Credentials(token=token, ak=ak, sk=sk, project_id=project_id)
    except CredentialError as exc:
        raise click.UsageError(str(exc)) from None


@options.command(name="server")
@click.argument("url", required=False)
@click.option(
    "--token",
    envvar="MODELARTS_KIT_TOKEN",
    show_envvar=True,
    help="IAM token sent as X-Auth-Token (better from the environment: a command line is seen "
    "by other users of the machine).",
)
@click.option(
    "--ak", envvar="HUAWEICLOUD_SDK_AK", show_envvar=True, help="Access key: sign every request."
)
@click.option("--sk", envvar="HUAWEICLOUD_SDK_SK", show_envvar=True, help="Secret key for --ak.")
@click.option(
    "--project-id",
    help="Project of the jobs created (default with the embedded server: its dev project).",
)
@click.option(
    "--other-project-id",
    help="A second project for the isolation check. Against a real server, use a project your "
    "credentials can also address (a domain-scoped token, or a second project of the account): "
    "then a job of --project-id must stay invisible and untouchable there. Default: "
    "--project-id reversed (any refusal passes the check).",
)
@click.option(
    "--max-examples",
    type=click.IntRange(min=1),
    default=DEFAULT_MAX_EXAMPLES,
    show_default=True,
    help="Generated cases per operation and phase.",
)
@options.max_time(
    "A hard wall-clock bound in seconds: at it the run stops (stalled connections are cut), "
    "cleans up and reports. Fuzzing and stateful phases repeat until it is spent.",
    whole=True,
)
@options.seed("Same seed, same generated requests.")
@click.option(
    "--phases",
    default=",".join(ALL_PHASES),
    show_default=True,
    help="Schemathesis phases to run (comma-separated).",
)
@options.report()
@click.option(
    "--request-timeout",
    type=click.FloatRange(min=0.1),
    default=10.0,
    show_default=True,
    help="Seconds to wait for each response.",
)
@click.option(
    "--http",
    "embedded_http",
    is_flag=True,
    help="Without URL: serve the embedded server on 127.0.0.1 instead of in-process.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1, max=16),
    default=1,
    show_default=True,
    help="Run schemathesis's phases with N threads (1 keeps a seed's requests reproducible).",
)
@click.option(
    "--quick",
    is_flag=True,
    help=f"A verdict in seconds: the scenarios, phases {','.join(QUICK.phases)}, "
    f"at most {QUICK.max_examples} examples.",
)
@click.option(
    "--live",
    is_flag=True,
    help="Treat the target as the live service (caps and clean-up) even on a loopback URL "
    "(a tunnel). Any URL that is not loopback is live anyway.",
)
@click.option(
    "--max-creates",
    type=click.IntRange(min=0),
    default=DEFAULT_LIVE_MAX_CREATES,
    show_default=True,
    help="Live targets: at most N creates whose body the target could accept (billable jobs).",
)
@click.option(
    "--read-only",
    is_flag=True,
    help="Send no create a correct target could accept: auth, unknown ids, invalid bodies.",
)
@click.option(
    "--rate",
    type=click.FloatRange(min=0.01),
    help="At most N requests per second (429 Retry-After is always honoured).",
)
@click.option(
    "--dry-run", is_flag=True, help="Print the plan (phases, operations, caps); send nothing."
)
@click.option(
    "--final-phase-wait",
    type=click.FloatRange(min=0),
    default=10.0,
    show_default=True,
    help="Seconds to wait for a terminated job to reach a final phase.",
)
@options.no_color()
def server(
    url: str | None,
    token: str | None,
    ak: str | None,
    sk: str | None,
    project_id: str | None,
    other_project_id: str | None,
    max_examples: int,
    max_time: int | None,
    seed: int | None,
    phases: str,
    reports: tuple[str, ...],
    request_timeout: float,
    embedded_http: bool,
    workers: int,
    quick: bool,
    live: bool,
    max_creates: int,
    read_only: bool,
    rate: float | None,
    dry_run: bool,
    final_phase_wait: float,
    no_color: bool,
) -> None:
    """Check that the server at URL (default: the embedded reference server) honours the spec.

    Runs schemathesis (examples, coverage, fuzzing and stateful phases, every applicable
    built-in check) and the ModelArts checks, then prints a summary table and each failure
    once per rule and operation, with the count of cases that showed it and the curl lines
    that reproduce one of them (every request of a stateful sequence; credentials redacted).
    """
    selected = tuple(p.strip() for p in phases.split(",") if p.strip())
    if quick:
        selected = QUICK.phases
        max_examples = min(max_examples, QUICK.max_examples)
    remote: ServerTarget | None = None
    if url is not None:
        try:
            remote = ServerTarget.from_url(url, live=live)
        except ServerCheckError as exc:
            raise click.UsageError(str(exc)) from None
    if url is not None and project_id is None:
        raise click.UsageError("--project-id is required with a server URL")
    if project_id is None:
        from modelarts_kit_server import DEV_PROJECT_ID

        project_id = DEV_PROJECT_ID
    credentials = _credentials(url, token, ak, sk, project_id)
    try:
        options = RunOptions(
            credentials=credentials,
            project_id=project_id,
            other_project_id=other_project_id or default_other_project(project_id),
            budget=Budget(max_examples=max_examples, max_time=max_time, seed=seed),
            phases=selected,
            request_timeout_s=request_timeout,
            final_phase_wait_s=final_phase_wait,
            workers=workers,
            max_creates=max_creates,
            read_only=read_only,
            rate=rate,
        )
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None

    if dry_run:
        shown = remote if remote is not None else ServerTarget.asgi(_not_started)
        for line in plan_run(shown, options).lines():
            click.echo(line)
        click.echo("dry run: nothing was sent")
        return
    interruption = Interruption()
    # Until the reports are written: SIGTERM stops the run as Ctrl-C does.
    with sigterm_as_interrupt(interruption.request) as terminate:
        with ExitStack() as stack:
            if remote is not None:
                target = remote
            else:
                target = stack.enter_context(embedded_target(http=embedded_http))
            if target.live:
                cap = "none (--read-only)" if read_only else str(max_creates)
                click.echo(
                    f"live target {target.base_url}: creates capped at {cap}; "
                    "jobs created are terminated at the end",
                    err=True,
                )
            progress = stack.enter_context(_progress())
            report = run_server_contract(
                target, options, progress=progress, interruption=interruption
            )
            stack.close()
        _finish_server(report, reports, interrupted=terminate.received, no_color=no_color)


def _not_started(*args: object) -> None:
    """Stands for the embedded server in a dry run's plan (never called)."""


def _finish_server(
    report: RunReport, reports: tuple[str, ...], *, interrupted: bool, no_color: bool
) -> None:
    # The run's objects (most of them its garbage) are out of the collector while the report
    # is rendered: a full pass there walked them all, about 0.3 s after a default run.
    with frozen():
        render_text(report, color=False if no_color else sys.stdout.isatty() or None)
        _write_reports(report, reports, command="contract server")
    for spec_text in reports:
        click.echo(f"report written: {spec_text.partition(':')[2]}", err=True)
    if interrupted:
        click.echo("interrupted (SIGTERM): ended after the clean-up and the reports", err=True)
    raise SystemExit(int(report.exit_code))


# ---------------------------------------------------------------- client


@options.command(name="client")
@click.option(
    "--adapter",
    "adapter_name",
    default="generated",
    show_default=True,
    metavar="NAME|MODULE:FACTORY",
    help="The client to check: 'generated', 'huaweicloudsdk', or a factory MODULE:FACTORY "
    "(see 'Adapters' in README.md).",
)
@options.seed("Seed of the generated cases: the same seed runs the same cases.", default=0,
              dest="seed_value")  # fmt: skip
@click.option(
    "--max-examples",
    default=20,
    show_default=True,
    type=click.IntRange(min=1),
    help="Generated success responses per operation (at least one per edge variant).",
)
@click.option(
    "--auth",
    type=click.Choice(["token", "aksk"]),
    default="token",
    show_default=True,
    help="Credentials the adapter is given (an adapter may support only one).",
)
@click.option(
    "--in-process",
    is_flag=True,
    default=False,
    help="Serve the mock through an httpx transport instead of loopback.",
)
@options.report(REPORT_HELP, dest="report_specs")
@options.out_file(
    "Also write the findings as Markdown, without timings (deterministic per seed).",
    dest="markdown_path",
    name="--markdown",
)
@options.no_color()
def client(
    adapter_name: str,
    seed_value: int,
    max_examples: int,
    auth: str,
    in_process: bool,
    report_specs: tuple[str, ...],
    markdown_path: Path | None,
    no_color: bool,
) -> None:
    """Check that a Python client honours the spec, against the spec-driven mock."""
    from modelarts_kit_contracts.client import (
        ClientCheckSettings,
        load_adapter_factory,
        run_client_check,
    )
    from modelarts_kit_spec.load import SpecError

    settings = ClientCheckSettings(
        seed=seed_value,
        max_examples=max_examples,
        auth="aksk" if auth == "aksk" else "token",
        in_process=in_process,
    )
    factory = load_adapter_factory(adapter_name)  # AdapterError: one line, exit 2
    try:
        # SIGTERM ends the check as Ctrl-C does
        with sigterm_as_interrupt(), _progress() as progress:
            report = run_client_check(
                factory, settings=settings, target_name=f"client {adapter_name}", progress=progress
            )
    except (SpecError, OSError) as exc:
        report = RunReport(target=f"client {adapter_name}", seed=seed_value)
        report.errors.append(str(exc))
    render_text(report, color=False if no_color else None)
    command = (
        f"modelarts-kit contract client --adapter {adapter_name} --seed {seed_value} "
        f"--max-examples {max_examples} --markdown {markdown_path}"
    )
    _write_reports(report, report_specs, command)
    if markdown_path is not None:
        markdown_path.write_text(
            to_markdown(report, command=command, heading="Client check"), encoding="utf-8"
        )
    raise SystemExit(int(report.exit_code))


# ---------------------------------------------------------------- mock


def _serve_until_stopped(
    app: Callable[..., Awaitable[None]],
    host: str,
    port: int,
    started: Callable[[str], None],
    enough: Callable[[], bool],
    max_time: float | None,
    *,
    sock: socket.socket | None = None,
) -> None:
    """Serve ``app`` (the mock, the proxy) until a signal, ``enough()`` or ``max_time``, on
    ``sock`` when the caller bound it already; an address that cannot be bound is a user
    error (one line, exit 2)."""
    from modelarts_kit_contracts.mock import run_until_stopped

    try:
        run_until_stopped(
            app,
            host=host,
            port=port,
            on_started=started,
            should_stop=enough,
            max_time_s=max_time,
            sock=sock,
        )
    except OSError as exc:
        raise KitError(str(exc)) from None


@options.command(name="mock")
@options.listening(default_port=0, bounded="answering")
@options.seed("Seed of the generated answers: the same seed answers the same way.", default=0,
              dest="seed_value")  # fmt: skip
@click.option(
    "--scenario",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="YAML/JSON file with a fixed sequence of responses (format below).",
)
@click.option(
    "--error-rate",
    default=0.2,
    show_default=True,
    type=click.FloatRange(0.0, 1.0),
    help="Share of valid requests answered with a documented error.",
)
def mock(
    host: str,
    port: int,
    seed_value: int,
    scenario: Path | None,
    error_rate: float,
    max_requests: int | None,
    max_time: float | None,
    report_specs: tuple[str, ...],
) -> None:
    """Run the spec-driven mock server: validates requests, answers what the spec allows.

    \b
    Without --scenario, valid requests get generated spec-valid answers (edge cases
    included) or, at --error-rate, a documented error; an invalid request gets the
    documented error that fits what it broke (naming the rule), an unknown path the
    documented gateway error. A scenario file (YAML or JSON) fixes the answers:
      on_exhausted: error      # then: error (500), repeat, or generate
      steps:
        - operation: ShowTrainingJobDetails   # optional expected request
          status: 200
          generate: nulls       # a variant: typical, minimal, full, nulls,
                                # empty_arrays, long_arrays, extra_fields,
                                # unknown_enums, int64_extremes, unicode
        - status: 429           # no body: the spec's documented example
          headers: {Retry-After: "1"}
        - status: 200
          body: {...}           # checked against the spec unless off_spec: true
    """
    from modelarts_kit_contracts.mock import MockServer, listening_socket, load_scenario

    loaded = load_scenario(scenario) if scenario is not None else None  # KitError: exit 2
    try:
        # Cheap checks first: a busy port fails before the answers are drawn (warm).
        listening = listening_socket(host, port)
    except OSError as exc:
        raise KitError(str(exc)) from None

    def live(finding: Finding) -> None:
        click.echo(f"violation: {finding}", err=True)

    server = MockServer(
        seed_value=seed_value, scenario=loaded, error_rate=error_rate, on_violation=live
    )
    server.warm()

    def started(url: str) -> None:
        server.begin()
        click.echo(f"modelarts-kit mock serving on {url} (seed {seed_value})", err=True)

    def enough() -> bool:
        return max_requests is not None and len(server.exchanges) >= max_requests

    try:
        _serve_until_stopped(server, host, port, started, enough, max_time, sock=listening)
    finally:
        listening.close()
    report = server.report(f"client talking to the mock on {host}")
    # Each violation was printed once, as it happened; the summary counts the distinct ones.
    click.echo(
        f"{len(server.exchanges)} request(s), {len(report.failures)} violation(s) "
        f"({report.duration_s:.1f}s)",
        err=True,
    )
    _write_reports(report, report_specs)
    raise SystemExit(int(report.exit_code))


# ---------------------------------------------------------------- proxy


@options.command(name="proxy")
@click.option(
    "--upstream",
    required=True,
    metavar="URL",
    help="Base URL of the real server, e.g. http://127.0.0.1:8000.",
)
@options.listening(default_port=0, bounded="forwarding")
@options.no_color()
def proxy(
    upstream: str,
    host: str,
    port: int,
    max_requests: int | None,
    max_time: float | None,
    report_specs: tuple[str, ...],
    no_color: bool,
) -> None:
    """Forward traffic to a server unchanged and report what breaks the spec."""
    from modelarts_kit_contracts.proxy import ValidatingProxy

    def live(finding: Finding) -> None:
        arrow = "<-" if finding.check.startswith("response_") else "->"
        click.echo(f"{arrow} violation: {finding}", err=True)

    app = ValidatingProxy(upstream, on_violation=live)  # ContractError: one line, exit 2

    def started(url: str) -> None:
        click.echo(f"modelarts-kit proxy on {url} -> {upstream}", err=True)

    def enough() -> bool:
        return max_requests is not None and app.requests >= max_requests

    _serve_until_stopped(app, host, port, started, enough, max_time)
    report = app.finish()
    render_text(report, color=False if no_color else None)
    _write_reports(report, report_specs)
    raise SystemExit(int(ExitCode(report.exit_code)))
