"""``modelarts-kit contract server [URL]``: does this server honour the curated spec?

Without a URL the embedded reference server is built and tested with its development token and
project; that is the quickstart. It is served in-process (ASGI, no socket) by default, or over
real HTTP on 127.0.0.1 with ``--http``. Exit codes: 0 every check passed, 1 contract
violations, 2 usage or connection error.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager

import click

from modelarts_kit_contracts.core.findings import ExitCode, RunReport
from modelarts_kit_contracts.core.reporters import (
    ReportSpecError,
    parse_report_spec,
    render_text,
    write_report,
)
from modelarts_kit_contracts.server.run import (
    ALL_PHASES,
    DEFAULT_LIVE_MAX_CREATES,
    DEFAULT_MAX_EXAMPLES,
    QUICK,
    Budget,
    ProgressSink,
    RunOptions,
    ServerTarget,
    plan_run,
    run_server_contract,
)
from modelarts_kit_contracts.server.target import ServerCheckError
from modelarts_kit_contracts.transport_auth import CredentialError, Credentials

__all__ = ["default_other_project", "embedded_target", "server"]

# How long a job stays Terminating on the embedded server: long enough for the scenario to see
# Terminating, short enough that the final-phase check does not wait.
EMBEDDED_TERMINATING_S = 0.3


def default_other_project(project_id: str) -> str:
    """A project id that is not ``project_id`` (the project-isolation check's default)."""
    other = project_id[::-1]
    return other if other != project_id else f"{project_id}-other"


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
def embedded_target(*, http: bool) -> Iterator[ServerTarget]:
    """The reference server, in-process (ASGI) or on a free 127.0.0.1 port."""
    from modelarts_kit_server import LifecycleTimings, ServerSettings, create_app, serve_in_thread

    settings = ServerSettings(timings=LifecycleTimings(terminating_s=EMBEDDED_TERMINATING_S))
    if http:
        with serve_in_thread(settings) as url:
            yield ServerTarget(url)
        return
    app = create_app(settings)
    try:
        yield ServerTarget.asgi(app)
    finally:
        app.close()


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


@click.command(name="server")
@click.argument("url", required=False)
@click.option("--token", envvar="MODELARTS_KIT_TOKEN", help="IAM token sent as X-Auth-Token.")
@click.option("--ak", envvar="HUAWEICLOUD_SDK_AK", help="Access key: sign every request.")
@click.option("--sk", envvar="HUAWEICLOUD_SDK_SK", help="Secret key for --ak.")
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
@click.option(
    "--max-time",
    type=click.IntRange(min=1),
    help="Seconds of budget: fuzzing and stateful phases repeat until it is spent.",
)
@click.option("--seed", type=click.IntRange(min=0), help="Same seed, same generated requests.")
@click.option(
    "--phases",
    default=",".join(ALL_PHASES),
    show_default=True,
    help="Schemathesis phases to run (comma-separated).",
)
@click.option(
    "--report",
    "reports",
    multiple=True,
    metavar="FORMAT:PATH",
    help="Also write junit:PATH or json:PATH (repeatable).",
)
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
) -> None:
    """Check that the server at URL (default: the embedded reference server) honours the spec.

    Runs schemathesis (examples, coverage, fuzzing and stateful phases, every applicable
    built-in check) and the ModelArts checks, then prints a summary table and each failure
    once with a curl command that reproduces it (credentials redacted).
    """
    for spec in reports:
        try:
            parse_report_spec(spec)
        except ReportSpecError as exc:
            raise click.BadParameter(str(exc), param_hint="--report") from None
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
        progress: ProgressSink = (
            stack.enter_context(RichProgress()) if sys.stderr.isatty() else LineProgress()
        )
        report = run_server_contract(target, options, progress=progress)
        stack.close()
    _finish(report, reports)


def _not_started(*args: object) -> None:
    """Stands for the embedded server in a dry run's plan (never called)."""


def _finish(report: RunReport, reports: tuple[str, ...]) -> None:
    render_text(report, color=sys.stdout.isatty() or None)
    for spec in reports:
        try:
            path = write_report(report, spec)
        except OSError as exc:
            click.echo(f"error: --report {spec}: cannot write: {exc.strerror}", err=True)
            sys.exit(ExitCode.USAGE_OR_CONNECTION_ERROR)
        click.echo(f"report written: {path}", err=True)
    sys.exit(int(report.exit_code))
