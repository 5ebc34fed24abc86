"""The ``modelarts-kit`` entry point.

Each subcommand's click code lives in ``modelarts_kit/commands/<group>.py`` and is imported
only when it is invoked, so ``modelarts-kit --help`` stays fast even though the contract kit
pulls in schemathesis. Exit codes across the kit: 0 success, 1 findings (invalid spec, drift,
contract violations, stale generated code), 2 usage or environment error.

Errors are mapped to exit codes here and only here (:class:`RootGroup`): a
:class:`~modelarts_kit_wire.errors.KitError` raised anywhere below becomes ``error: <message>``
on one line of stderr and its ``exit_code``; click's usage errors become one such line too
(exit 2). No traceback for a user error.
"""

from __future__ import annotations

import importlib
from typing import IO, Any, NoReturn

import click
from modelarts_kit_wire.errors import KitError

from modelarts_kit import __version__
from modelarts_kit.options import CONTEXT_SETTINGS

# Command tree: a leaf is "module:attribute" of a click.Command defined by the package that
# owns the concept; a nested dict is a command group. Each entry carries its short help so
# --help imports nothing heavy.
Tree = dict[str, tuple["str | Tree", str]]

COMMANDS: Tree = {
    "spec": (
        {
            "validate": (
                "modelarts_kit.commands.spec:validate",
                "Validate the spec and its ledger.",
            ),
            "diff": (
                "modelarts_kit.commands.spec:diff",
                "Classify changes between two spec versions.",
            ),
            "rules": (
                "modelarts_kit.commands.spec:rules",
                "List every rule with its strength and evidence.",
            ),
        },
        "Validate and diff the curated OpenAPI spec.",
    ),
    "docs": (
        {
            "extract": (
                "modelarts_kit.commands.docs:extract",
                "Parse vendor pages into a field inventory.",
            ),
            "diff": (
                "modelarts_kit.commands.docs:diff",
                "Report drift between vendor pages and the spec.",
            ),
            "compare": (
                "modelarts_kit.commands.docs:compare",
                "What changed between two versions of one vendor page.",
            ),
            "update": (
                "modelarts_kit.commands.docs:update",
                "Update spec, ledger, sources and client to new vendor pages.",
            ),
        },
        "Parse vendor doc pages and diff them against the spec.",
    ),
    "sdk": (
        {
            "diff": (
                "modelarts_kit.commands.sdk:diff",
                "Report drift between the spec and the vendor SDK's models.",
            ),
            "compare": (
                "modelarts_kit.commands.sdk:compare",
                "List what changed in the SDK's models between two releases.",
            ),
        },
        "Compare the spec with the vendor's Python SDK, and SDK releases with each other.",
    ),
    "generate": (
        "modelarts_kit.commands.generate:generate",
        "Generate the typed client into generated/.",
    ),
    "contract": (
        {
            "server": (
                "modelarts_kit.commands.contract:server",
                "Check that a server honours the spec.",
            ),
            "client": (
                "modelarts_kit.commands.contract:client",
                "Check that a client honours the spec.",
            ),
            "mock": ("modelarts_kit.commands.contract:mock", "Run the spec-driven mock server."),
            "proxy": (
                "modelarts_kit.commands.contract:proxy",
                "Validate live traffic between a client and a server.",
            ),
        },
        "Contract-test servers and clients against the spec.",
    ),
    "serve": (
        "modelarts_kit.commands.serve:serve",
        "Run the reference ModelArts training-job server.",
    ),
    "publish": (
        "modelarts_kit.commands.publish:publish",
        "Bundle the spec and render its HTML reference.",
    ),
}


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use."""

    def __init__(self, *args: Any, tree: Tree, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tree = tree

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(self.tree)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = self.tree.get(cmd_name)
        if entry is None:
            return None
        target, short_help = entry
        if isinstance(target, dict):
            return LazyGroup(
                name=cmd_name, tree=target, help=short_help, context_settings=CONTEXT_SETTINGS
            )
        module_name, _, attribute = target.partition(":")
        command = getattr(importlib.import_module(module_name), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{target} is not a click command")
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, self.tree[name][1]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def one_line(message: str) -> str:
    """``message`` on one line: its lines, stripped, joined with "; "."""
    return "; ".join(line.strip() for line in message.splitlines() if line.strip())


class OneLineError(click.UsageError):
    """A click usage error (bad option, missing argument...) shown as one ``error:`` line."""

    def __init__(self, cause: click.UsageError) -> None:
        super().__init__(cause.format_message(), cause.ctx)

    def show(self, file: IO[Any] | None = None) -> None:
        hint = f" (see '{self.ctx.command_path} --help')" if self.ctx is not None else ""
        click.echo(f"error: {one_line(self.format_message())}{hint}", err=True)


class RootGroup(LazyGroup):
    """The ``modelarts-kit`` group: the one place errors become exit codes and stderr lines."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as exc:
            raise OneLineError(exc) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KitError as exc:
            fail(ctx, exc)
        except OneLineError:
            raise
        except click.UsageError as exc:
            raise OneLineError(exc) from None


def fail(ctx: click.Context, error: KitError) -> NoReturn:
    """Print ``error`` as one stderr line and exit with its code."""
    click.echo(f"error: {one_line(str(error))}", err=True)
    ctx.exit(error.exit_code)


@click.group(cls=RootGroup, tree=COMMANDS, context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, prog_name="modelarts-kit")
def cli() -> None:
    """Spec-first toolkit for the Huawei Cloud ModelArts training-job API."""
