"""The ``modelarts-kit`` entry point.

Each subcommand lives in the package that owns the concept and is imported only when it
is invoked, so ``modelarts-kit --help`` stays fast even though the contract kit pulls in
schemathesis. Exit codes across the kit: 0 success, 1 findings (invalid spec, drift,
contract violations, stale generated code), 2 usage or environment error.
"""

from __future__ import annotations

import importlib
from typing import Any

import click

from modelarts_kit import __version__

# Command tree: a leaf is "module:attribute" of a click.Command defined by the package that
# owns the concept; a nested dict is a command group. Each entry carries its short help so
# --help imports nothing heavy.
Tree = dict[str, tuple["str | Tree", str]]

COMMANDS: Tree = {
    "spec": (
        {
            "validate": ("modelarts_kit_spec.cli:validate", "Validate the spec and its ledger."),
            "diff": ("modelarts_kit_spec.cli:diff", "Classify changes between two spec versions."),
        },
        "Validate and diff the curated OpenAPI spec.",
    ),
    "docs": (
        {
            "extract": (
                "modelarts_kit_vendordocs.cli:extract",
                "Parse vendor pages into a field inventory.",
            ),
            "diff": (
                "modelarts_kit_vendordocs.cli:diff",
                "Report drift between vendor pages and the spec.",
            ),
        },
        "Parse vendor doc pages and diff them against the spec.",
    ),
    "generate": (
        "modelarts_kit_generator.cli:generate",
        "Generate the typed client into generated/.",
    ),
    "contract": (
        {
            "server": (
                "modelarts_kit_contracts.server_cli:server",
                "Check that a server honours the spec.",
            ),
            "client": (
                "modelarts_kit_contracts.client_cli:client",
                "Check that a client honours the spec.",
            ),
            "mock": ("modelarts_kit_contracts.mock_cli:mock", "Run the spec-driven mock server."),
            "proxy": (
                "modelarts_kit_contracts.proxy_cli:proxy",
                "Validate live traffic between a client and a server.",
            ),
        },
        "Contract-test servers and clients against the spec.",
    ),
    "serve": ("modelarts_kit_server.cli:serve", "Run the reference ModelArts training-job server."),
    "publish": (
        "modelarts_kit_publish.cli:publish",
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
            return LazyGroup(name=cmd_name, tree=target, help=short_help)
        module_name, _, attribute = target.partition(":")
        command = getattr(importlib.import_module(module_name), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{target} is not a click command")
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, self.tree[name][1]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, tree=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="modelarts-kit")
def cli() -> None:
    """Spec-first toolkit for the Huawei Cloud ModelArts training-job API."""
