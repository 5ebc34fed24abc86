"""The ``modelarts-kit`` entry point.

Each subcommand lives in the package that owns the concept and is imported only when it
is invoked, so ``modelarts-kit --help`` stays fast even though the contract kit pulls in
schemathesis. Exit codes across the kit: 0 success, 1 findings (invalid spec, drift,
contract violations, stale generated code), 2 usage or environment error.
"""

from __future__ import annotations

import importlib

import click

from modelarts_kit import __version__

# name -> "module:attribute" of a click.Command; the owning package defines it.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "spec": ("modelarts_kit_spec.cli:spec", "Validate and diff the curated OpenAPI spec."),
    "docs": ("modelarts_kit_vendordocs.cli:docs", "Parse vendor doc pages and diff them against the spec."),
    "generate": ("modelarts_kit_generator.cli:generate", "Generate the typed client into generated/."),
    "contract": ("modelarts_kit_contracts.cli:contract", "Contract-test servers and clients against the spec."),
    "serve": ("modelarts_kit_server.cli:serve", "Run the reference ModelArts training-job server."),
    "publish": ("modelarts_kit_publish.cli:publish", "Bundle the spec and render its HTML reference."),
}


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(SUBCOMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = SUBCOMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, _, attribute = target[0].partition(":")
        command = getattr(importlib.import_module(module_name), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{target[0]} is not a click command")
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        # Short help comes from the table above, so --help imports nothing heavy.
        rows = [(name, SUBCOMMANDS[name][1]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="modelarts-kit")
def cli() -> None:
    """Spec-first toolkit for the Huawei Cloud ModelArts training-job API."""
