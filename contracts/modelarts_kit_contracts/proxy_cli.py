"""``modelarts-kit contract proxy``: validate live traffic between a client and a server.

Listens on loopback, forwards every request to ``--upstream`` unchanged and prints each spec
violation as it happens; at the end (SIGINT/SIGTERM, ``--max-requests`` or ``--max-time``) it
prints the report and writes ``--report`` files. Exit code: 0 when all traffic honoured the
spec, 1 on violations, 2 on a usage error or when the upstream could not be reached.
"""

from __future__ import annotations

import sys

import click

from modelarts_kit_contracts.core import ExitCode, Finding
from modelarts_kit_contracts.core.reporters import render_text, write_report
from modelarts_kit_contracts.listening import check_report_specs, listening_options
from modelarts_kit_contracts.mock.serving import run_until_stopped
from modelarts_kit_contracts.proxy import ValidatingProxy

__all__ = ["proxy"]


@click.command(name="proxy")
@click.option(
    "--upstream",
    required=True,
    metavar="URL",
    help="Base URL of the real server, e.g. http://127.0.0.1:8000.",
)
@listening_options("forwarding")
@click.option("--no-color", is_flag=True, default=False, help="Plain text output.")
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
    check_report_specs(report_specs)

    def live(finding: Finding) -> None:
        arrow = "<-" if finding.check.startswith("response_") else "->"
        click.echo(f"{arrow} violation: {finding}", err=True)

    try:
        app = ValidatingProxy(upstream, on_violation=live)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from exc

    def started(url: str) -> None:
        click.echo(f"modelarts-kit proxy on {url} -> {upstream}", err=True)

    def enough() -> bool:
        return max_requests is not None and app.requests >= max_requests

    try:
        run_until_stopped(
            app,
            host=host,
            port=port,
            on_started=started,
            should_stop=enough,
            max_time_s=max_time,
        )
    except OSError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(ExitCode.USAGE_OR_CONNECTION_ERROR)
    report = app.finish()
    render_text(report, color=False if no_color else None)
    for spec_text in report_specs:
        write_report(report, spec_text)
    sys.exit(ExitCode(report.exit_code))
