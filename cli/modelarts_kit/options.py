"""Click options that several ``modelarts-kit`` commands share, each declared once.

How to use it (every command module in ``modelarts_kit/commands/`` does this):

* Decorate a command with the factories below instead of writing ``@click.option`` again. Each
  factory returns a decorator; the keyword arguments are only what honestly differs between
  commands (a default, a help sentence, the Python parameter name), so a flag keeps its name,
  metavar and value type everywhere::

      @options.command()
      @options.spec_file("OpenAPI file to check (default: the curated spec).")
      @options.output_format("text", "json")
      @options.report()
      def check(spec_file: Path | None, output_format: str, reports: tuple[str, ...]) -> None:
          ...

* ``listening(...)`` bundles ``--host``/``--port`` (plus ``--max-requests``/``--max-time``/
  ``--report`` for bounded servers); stack it like any single option.
* Errors: raise :class:`modelarts_kit_wire.errors.KitError` (or a package error, which subclasses
  it). The root group prints ``error: <message>`` on one line and exits with its ``exit_code``;
  click's own usage errors are shown on one line too (exit 2). Commands never print tracebacks
  and never call ``sys.exit(2)`` themselves; they exit 0/1 with ``raise SystemExit(code)``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

__all__ = [
    "CONTEXT_SETTINGS",
    "DEFAULT_HOST",
    "HELP_OPTION_NAMES",
    "command",
    "compose",
    "ledger_file",
    "listening",
    "max_time",
    "no_color",
    "out_file",
    "output_format",
    "report",
    "seed",
    "spec_file",
]

F = TypeVar("F", bound=Callable[..., Any])

DEFAULT_HOST = "127.0.0.1"

# Every command and group declares its help option names itself. Click builds a command's help
# option once and caches it on the command object, from the context it first runs in: a
# command invoked directly (a test, an embedding program) before it ran under the root group
# would otherwise cache a help option without ``-h`` for the rest of the process.
HELP_OPTION_NAMES = ("-h", "--help")
CONTEXT_SETTINGS: dict[str, Any] = {"help_option_names": list(HELP_OPTION_NAMES)}


def command(
    name: str | None = None, **kwargs: Any
) -> Callable[[Callable[..., Any]], click.Command]:
    """``click.command`` with the kit's context settings (``-h``/``--help`` wherever it runs)."""
    settings = {**CONTEXT_SETTINGS, **kwargs.pop("context_settings", {})}
    return click.command(name, context_settings=settings, **kwargs)


def compose(*decorators: Callable[[Any], Any]) -> Callable[[F], F]:
    """Apply ``decorators`` as if stacked in this order above a function (first = topmost)."""

    def decorate(function: F) -> F:
        for decorator in reversed(decorators):
            function = decorator(function)
        return function

    return decorate


def _check_report_specs(
    ctx: click.Context, param: click.Parameter, value: tuple[str, ...]
) -> tuple[str, ...]:
    """Refuse a malformed ``--report`` at parse time, before any work is done."""
    if not value:
        return value
    from modelarts_kit_contracts.core.reporters import ReportSpecError, parse_report_spec

    for spec_text in value:
        try:
            parse_report_spec(spec_text)
        except ReportSpecError as exc:
            raise click.BadParameter(str(exc), ctx=ctx, param=param) from None
    return value


def report(
    help: str = "Also write junit:PATH, json:PATH or markdown:PATH (repeatable).",
    *,
    dest: str = "reports",
) -> Callable[[F], F]:
    """``--report FORMAT:PATH``, repeatable; checked when parsed (``junit``, ``json``,
    ``markdown``)."""
    return click.option(
        "--report",
        dest,
        multiple=True,
        metavar="FORMAT:PATH",
        callback=_check_report_specs,
        help=help,
    )


def seed(help: str, *, default: int | None = None, dest: str = "seed") -> Callable[[F], F]:
    """``--seed N`` (N >= 0): the same seed replays the same generated values."""
    return click.option(
        "--seed",
        dest,
        type=click.IntRange(min=0) if default is None else int,
        default=default,
        show_default=default is not None,
        help=help,
    )


def no_color() -> Callable[[F], F]:
    """``--no-color``: plain text output, even on a terminal."""
    return click.option("--no-color", is_flag=True, default=False, help="Plain text output.")


def max_time(
    help: str = "Stop after this many seconds.", *, whole: bool = False
) -> Callable[[F], F]:
    """``--max-time SECONDS``: a bound on the run (whole seconds when ``whole``)."""
    return click.option(
        "--max-time",
        type=click.IntRange(min=1) if whole else click.FloatRange(min=0.1),
        default=None,
        help=help,
    )


def listening(
    *,
    default_port: int,
    port_help: str = "Port to listen on (0: any free port; the URL is printed).",
    host_help: str = "Address to listen on.",
    bounded: str | None = None,
    report_help: str = (
        "At the end, also write junit:PATH, json:PATH or markdown:PATH (repeatable)."
    ),
) -> Callable[[F], F]:
    """``--host`` and ``--port`` of a command that listens on loopback.

    With ``bounded`` (a verb such as ``"answering"``), also ``--max-requests`` ("Stop after
    <bounded> this many requests."), ``--max-time`` and a repeatable ``--report`` written at
    the end (parameter name ``report_specs``).
    """
    decorators: list[Callable[[Any], Any]] = [
        click.option("--host", default=DEFAULT_HOST, show_default=True, help=host_help),
        click.option(
            "--port",
            default=default_port,
            show_default=True,
            type=click.IntRange(0, 65535),
            help=port_help,
        ),
    ]
    if bounded is not None:
        decorators += [
            click.option(
                "--max-requests",
                type=click.IntRange(min=1),
                default=None,
                help=f"Stop after {bounded} this many requests.",
            ),
            max_time(),
            report(report_help, dest="report_specs"),
        ]
    return compose(*decorators)


def output_format(*choices: str, default: str | None = None) -> Callable[[F], F]:
    """``--format`` (parameter ``output_format``) among ``choices``; default: the first."""
    return click.option(
        "--format",
        "output_format",
        type=click.Choice(list(choices)),
        default=default if default is not None else choices[0],
        show_default=True,
    )


def spec_file(help: str, *, dest: str = "spec_file") -> Callable[[F], F]:
    """``--spec FILE``: an OpenAPI document other than the curated one (default ``None``)."""
    return click.option(
        "--spec", dest, type=click.Path(path_type=Path, dir_okay=False), default=None, help=help
    )


def ledger_file(help: str, *, dest: str = "ledger_file") -> Callable[[F], F]:
    """``--ledger FILE``: a discrepancy ledger other than the one beside the spec."""
    return click.option(
        "--ledger", dest, type=click.Path(path_type=Path, dir_okay=False), default=None, help=help
    )


def in_existing_folder(
    ctx: click.Context, param: click.Parameter, value: Path | None
) -> Path | None:
    """Refuse an output file whose folder does not exist: a typo must not create folders."""
    if value is not None and not value.parent.is_dir():
        raise click.BadParameter(
            f"the folder {str(value.parent)!r} of {str(value)!r} does not exist (rule: an output "
            "file is written into an existing folder; create it first)",
            ctx=ctx,
            param=param,
        )
    return value


def out_file(help: str, *, dest: str = "out_file", name: str = "--out") -> Callable[[F], F]:
    """``--out FILE``: write the output here instead of standard output (its folder exists)."""
    return click.option(
        name,
        dest,
        type=click.Path(path_type=Path, dir_okay=False),
        default=None,
        callback=in_existing_folder,
        help=help,
    )
