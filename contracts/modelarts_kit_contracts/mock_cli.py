"""``modelarts-kit contract mock``: serve the spec-driven mock on loopback.

Every request a client sends is validated against the spec; each violation is printed as it
happens and listed at the end (also at ``GET /__mock__/violations`` while it runs). Exit code:
0 when no request broke the spec, 1 when one did, 2 on a usage error (bad scenario, busy port).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click
from modelarts_kit_spec.load import SpecError

from modelarts_kit_contracts.core import ExitCode, Finding
from modelarts_kit_contracts.core.reporters import write_report
from modelarts_kit_contracts.listening import check_report_specs, listening_options
from modelarts_kit_contracts.mock import (
    MockServer,
    ScenarioError,
    load_scenario,
    run_until_stopped,
)

__all__ = ["mock"]


@click.command(name="mock")
@listening_options("answering")
@click.option(
    "--seed",
    "seed_value",
    default=0,
    show_default=True,
    type=int,
    help="Seed of the generated answers: the same seed answers the same way.",
)
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
    included) or, at --error-rate, a documented error; invalid ones get the documented
    400/401 or the gateway's 404. A scenario file (YAML or JSON) fixes the answers:
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
    check_report_specs(report_specs)
    try:
        loaded = load_scenario(scenario) if scenario is not None else None
    except (ScenarioError, SpecError) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(ExitCode.USAGE_OR_CONNECTION_ERROR)

    def live(finding: Finding) -> None:
        click.echo(f"violation: {finding}", err=True)

    server = MockServer(
        seed_value=seed_value, scenario=loaded, error_rate=error_rate, on_violation=live
    )
    try:
        server.warm()
    except SpecError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(ExitCode.USAGE_OR_CONNECTION_ERROR)

    def started(url: str) -> None:
        server.begin()
        click.echo(f"modelarts-kit mock serving on {url} (seed {seed_value})", err=True)

    def enough() -> bool:
        return max_requests is not None and len(server.exchanges) >= max_requests

    try:
        run_until_stopped(
            server,
            host=host,
            port=port,
            on_started=started,
            should_stop=enough,
            max_time_s=max_time,
        )
    except OSError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(ExitCode.USAGE_OR_CONNECTION_ERROR)
    report = server.report(f"client talking to the mock on {host}")
    # Each violation was printed once, as it happened; the summary counts the distinct ones.
    click.echo(
        f"{len(server.exchanges)} request(s), {len(report.failures)} violation(s) "
        f"({report.duration_s:.1f}s)",
        err=True,
    )
    for spec_text in report_specs:
        write_report(report, spec_text)
    sys.exit(report.exit_code)
