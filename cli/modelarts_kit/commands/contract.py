"""``modelarts-kit contract client|mock|proxy``: the click face of the contract kit's products.

The library (``modelarts_kit_contracts``) imports no click: these commands parse options, call
its plain functions and print the typed results through its reporters. Exit codes: 0 the target
honours the spec, 1 findings, 2 usage or connection error (a :class:`KitError` raised below
becomes one ``error:`` line in the root group).
"""

from __future__ import annotations

from pathlib import Path

import click
from modelarts_kit_contracts.core import ExitCode, Finding, RunReport
from modelarts_kit_contracts.core.reporters import render_text, to_markdown, write_report
from modelarts_kit_spec.errors import KitError

from modelarts_kit import options

__all__ = ["client", "mock", "proxy"]

REPORT_HELP = "Also write junit:PATH, json:PATH or markdown:PATH (repeatable)."


def _write_reports(report: RunReport, specs: tuple[str, ...], command: str = "") -> None:
    for spec_text in specs:
        try:
            write_report(report, spec_text, command=command)
        except OSError as exc:
            raise KitError(f"--report {spec_text}: cannot write: {exc.strerror}") from None


# ---------------------------------------------------------------- client


@click.command(name="client")
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
@click.option(
    "--markdown",
    "markdown_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Also write the findings as Markdown, without timings (deterministic per seed).",
)
@click.option("--no-color", is_flag=True, default=False, help="Plain text output.")
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
        report = run_client_check(factory, settings=settings, target_name=f"client {adapter_name}")
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
        markdown_path.parent.mkdir(parents=True, exist_ok=True)
        markdown_path.write_text(
            to_markdown(report, command=command, heading="Client check"), encoding="utf-8"
        )
    raise SystemExit(int(report.exit_code))


# ---------------------------------------------------------------- mock


@click.command(name="mock")
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
    from modelarts_kit_contracts.mock import MockServer, load_scenario, run_until_stopped

    loaded = load_scenario(scenario) if scenario is not None else None  # KitError: exit 2

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
        run_until_stopped(
            server,
            host=host,
            port=port,
            on_started=started,
            should_stop=enough,
            max_time_s=max_time,
        )
    except OSError as exc:
        raise KitError(str(exc)) from None
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


@click.command(name="proxy")
@click.option(
    "--upstream",
    required=True,
    metavar="URL",
    help="Base URL of the real server, e.g. http://127.0.0.1:8000.",
)
@options.listening(default_port=0, bounded="forwarding")
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
    from modelarts_kit_contracts.mock import run_until_stopped
    from modelarts_kit_contracts.proxy import ValidatingProxy

    def live(finding: Finding) -> None:
        arrow = "<-" if finding.check.startswith("response_") else "->"
        click.echo(f"{arrow} violation: {finding}", err=True)

    app = ValidatingProxy(upstream, on_violation=live)  # ContractError: one line, exit 2

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
        raise KitError(str(exc)) from None
    report = app.finish()
    render_text(report, color=False if no_color else None)
    _write_reports(report, report_specs)
    raise SystemExit(int(ExitCode(report.exit_code)))
