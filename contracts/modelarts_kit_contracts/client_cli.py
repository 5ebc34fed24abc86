"""``modelarts-kit contract client``: check that a Python client honours the spec.

Same report formats and exit codes as the server check: a text table on stdout, optional
``--report junit:PATH`` / ``json:PATH``; exit 0 when the client passes, 1 on findings, 2 when
the adapter cannot be loaded or the run cannot complete.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click
from modelarts_kit_spec.load import SpecError

from modelarts_kit_contracts.client import (
    AdapterError,
    ClientCheckSettings,
    load_adapter_factory,
    run_client_check,
)
from modelarts_kit_contracts.core import ExitCode, RunReport
from modelarts_kit_contracts.core.reporters import (
    ReportSpecError,
    parse_report_spec,
    render_text,
    to_markdown,
    write_report,
)

__all__ = ["client"]


@click.command(name="client")
@click.option(
    "--adapter",
    "adapter_name",
    default="generated",
    show_default=True,
    metavar="NAME|MODULE:FACTORY",
    help="The client to check: 'generated', 'huaweicloudsdk', or a factory MODULE:FACTORY.",
)
@click.option(
    "--seed",
    "seed_value",
    default=0,
    show_default=True,
    type=int,
    help="Seed of the generated cases: the same seed runs the same cases.",
)
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
@click.option(
    "--report",
    "report_specs",
    multiple=True,
    metavar="FORMAT:PATH",
    help="Also write the report as junit:PATH, json:PATH or markdown:PATH (repeatable).",
)
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
    for spec_text in report_specs:
        try:
            parse_report_spec(spec_text)
        except ReportSpecError as exc:
            raise click.UsageError(str(exc)) from exc
    settings = ClientCheckSettings(
        seed=seed_value,
        max_examples=max_examples,
        auth="aksk" if auth == "aksk" else "token",
        in_process=in_process,
    )
    try:
        factory = load_adapter_factory(adapter_name)
        report = run_client_check(factory, settings=settings, target_name=f"client {adapter_name}")
    except AdapterError as exc:  # the user named something that is not an adapter: one line
        click.echo(f"error: {exc}", err=True)
        sys.exit(ExitCode.USAGE_OR_CONNECTION_ERROR)
    except (SpecError, OSError) as exc:
        report = RunReport(target=f"client {adapter_name}", seed=seed_value)
        report.errors.append(str(exc))
    render_text(report, color=False if no_color else None)
    command = (
        f"modelarts-kit contract client --adapter {adapter_name} --seed {seed_value} "
        f"--max-examples {max_examples} --markdown {markdown_path}"
    )
    for spec_text in report_specs:
        write_report(report, spec_text, command=command)
    if markdown_path is not None:
        markdown_path.parent.mkdir(parents=True, exist_ok=True)
        markdown_path.write_text(
            to_markdown(report, command=command, heading="Client check"), encoding="utf-8"
        )
    sys.exit(ExitCode(report.exit_code))
