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
    DEFAULT_MAX_EXAMPLES,
    Budget,
    ProgressSink,
    RunOptions,
    ServerTarget,
    run_server_contract,
)
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
        )
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None

    with ExitStack() as stack:
        if url is not None:
            target = ServerTarget(url)
        else:
            target = stack.enter_context(embedded_target(http=embedded_http))
        progress: ProgressSink | None = None
        if sys.stderr.isatty():
            progress = stack.enter_context(RichProgress())
        report = run_server_contract(target, options, progress=progress)
        stack.close()
    _finish(report, reports)


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
