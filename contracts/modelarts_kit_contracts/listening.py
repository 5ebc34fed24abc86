"""What the long-running contract commands (``mock``, ``proxy``) share on the command line.

Both listen on loopback until SIGINT/SIGTERM or a bound (``--max-requests``, ``--max-time``)
and then write their ``--report`` files, so they take the same options, parsed here once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from modelarts_kit_contracts.core.reporters import ReportSpecError, parse_report_spec

__all__ = ["check_report_specs", "listening_options"]

F = TypeVar("F", bound=Callable[..., Any])


def listening_options(what: str) -> Callable[[F], F]:
    """``--host``, ``--port``, ``--max-requests``, ``--max-time`` and repeatable ``--report``."""

    def decorate(command: F) -> F:
        options = [
            click.option(
                "--host", default="127.0.0.1", show_default=True, help="Address to listen on."
            ),
            click.option(
                "--port",
                default=0,
                show_default=True,
                type=click.IntRange(0, 65535),
                help="Port to listen on (0: any free port; the URL is printed).",
            ),
            click.option(
                "--max-requests",
                type=click.IntRange(min=1),
                default=None,
                help=f"Stop after {what} this many requests.",
            ),
            click.option(
                "--max-time",
                type=click.FloatRange(min=0.1),
                default=None,
                help="Stop after this many seconds.",
            ),
            click.option(
                "--report",
                "report_specs",
                multiple=True,
                metavar="FORMAT:PATH",
                help="At the end, also write junit:PATH, json:PATH or markdown:PATH (repeatable).",
            ),
        ]
        for option in reversed(options):
            command = option(command)
        return command

    return decorate


def check_report_specs(report_specs: tuple[str, ...]) -> None:
    """Refuse a malformed ``--report`` before serving, not after the run."""
    for spec_text in report_specs:
        try:
            parse_report_spec(spec_text)
        except ReportSpecError as exc:
            raise click.UsageError(str(exc)) from exc
