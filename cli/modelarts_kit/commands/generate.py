"""``modelarts-kit generate``: write (or check) the typed client package.

Exit codes: 0 generated / up to date, 1 ``--check`` found the output stale (the diff is
printed), 2 the client cannot be generated (bad spec, bad option, broken output).
"""

from __future__ import annotations

from pathlib import Path

import click
from modelarts_kit_generator.options import GeneratorOptions
from modelarts_kit_generator.pipeline import check, default_output
from modelarts_kit_generator.pipeline import generate as generate_package
from modelarts_kit_wire.errors import EXIT_FINDINGS, KitError

from modelarts_kit import options
from modelarts_kit.entry import up_to_date_message

__all__ = ["generate"]


@options.command(name="generate")
@options.spec_file(
    "OpenAPI document to generate from (default: the curated ModelArts spec).", dest="spec_path"
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Output directory (default: the repository's generated/).",
)
@click.option("--check", "check_only", is_flag=True, help="Only compare; exit 1 with a diff.")
@click.option(
    "--force",
    is_flag=True,
    help="Replace --out even if it is not empty and was not made by the generator.",
)
@click.option(
    "--no-cache",
    is_flag=True,
    help=(
        "Do not reuse or store results (the cache is content-addressed; see the docs); "
        "with --check, regenerate in full instead of trusting the manifest."
    ),
)
@click.option(
    "--package", default=GeneratorOptions.package, show_default=True, help="Import package name."
)
@click.option(
    "--distribution",
    default=GeneratorOptions.distribution,
    show_default=True,
    help="Distribution (project) name.",
)
@click.option(
    "--client-name",
    default=GeneratorOptions.client_name,
    show_default=True,
    help="Client class stem: <stem>Client and Async<stem>Client.",
)
@click.option(
    "--error-base",
    default=GeneratorOptions.error_base,
    show_default=True,
    help="Name of the base exception class.",
)
def generate(
    spec_path: Path | None,
    out: Path | None,
    check_only: bool,
    force: bool,
    no_cache: bool,
    package: str,
    distribution: str,
    client_name: str,
    error_base: str,
) -> None:
    """Generate the typed client package from the spec into generated/."""
    try:
        generator_options = GeneratorOptions(
            package=package,
            distribution=distribution,
            client_name=client_name,
            error_base=error_base,
        )
    except ValueError as exc:
        raise KitError(str(exc)) from exc
    target = out if out is not None else default_output()
    if check_only:
        diff = check(target, spec_path, generator_options, use_cache=not no_cache)
        if diff:
            click.echo(diff, nl=False)
            click.echo(
                f"{target.name}/ is stale: run `modelarts-kit generate` and commit it.", err=True
            )
            raise SystemExit(EXIT_FINDINGS)
        click.echo(up_to_date_message(target.name), nl=False)
        return
    files = generate_package(
        target, spec_path, generator_options, use_cache=not no_cache, force=force
    )
    click.echo(f"generated {len(files)} files into {target}")
