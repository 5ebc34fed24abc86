"""``modelarts-kit sdk diff`` and ``modelarts-kit sdk compare``.

Exit codes: 0 no unreconciled drift / no changes, 1 drift / changes, 2 usage, fetch or parse
error (one line, no traceback: the root group maps :class:`KitError` to it).
"""

from __future__ import annotations

from pathlib import Path

import click
from modelarts_kit_wire.errors import EXIT_FINDINGS, EXIT_OK, KitError

from modelarts_kit import options

__all__ = ["compare", "diff"]


@options.command()
@click.option(
    "--sdk-version",
    metavar="VERSION",
    help="Fetch this huaweicloudsdkmodelarts release with pip into the cache and read it "
    "(default: the installed package).",
)
@click.option(
    "--wheel",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Read this huaweicloudsdkmodelarts wheel.",
)
@options.spec_file("OpenAPI document to compare with (default: the curated spec).")
@options.ledger_file("Discrepancy ledger (default: ledger.yaml next to the spec).")
@options.output_format("text", "json")
def diff(
    sdk_version: str | None,
    wheel: Path | None,
    spec_file: Path | None,
    ledger_file: Path | None,
    output_format: str,
) -> None:
    """Report drift between the spec and the vendor SDK's models, minus what the ledger settles.

    Walks the SDK's <operationId>Request/Response models (openapi_types and attribute_map,
    read from source, never imported) and the spec's request bodies, parameters and success
    responses together. Findings, grouped by spec schema: sdk-only (the SDK has the field, the
    spec lacks it), spec-only, and type (integer vs string flagged). A finding is reconciled
    when a ledger entry of the same kind (presence or type) records every occurrence as an
    sdk source {sdk, model, attribute, says} whose says is what the SDK says now. Exit 0 when
    nothing is unreconciled, 1 when drift is found, 2 on usage, fetch or parse errors.
    """
    from modelarts_kit_sdk import diff_sdk, from_version, from_wheel, installed
    from modelarts_kit_sdk.render import render_json, render_text

    if sdk_version is not None and wheel is not None:
        raise KitError("--sdk-version and --wheel: give one of them, not both")
    if wheel is not None:
        source = from_wheel(wheel)
    elif sdk_version is not None:
        source = from_version(sdk_version)
    else:
        source = installed()
    report = diff_sdk(source, spec_file, ledger_file)
    click.echo(render_json(report) if output_format == "json" else render_text(report))
    raise SystemExit(EXIT_FINDINGS if report.unreconciled_count else EXIT_OK)


@options.command()
@click.argument("old")
@click.argument("new")
@options.spec_file("OpenAPI document whose operations are compared (default: the curated spec).")
@options.output_format("text", "json")
def compare(old: str, new: str, spec_file: Path | None, output_format: str) -> None:
    """List what changed in the operations' SDK models between two releases.

    OLD and NEW are each a release number (fetched with pip into the cache), a path to a
    wheel, or "installed". Per operation: fields added and removed (topmost, with the count
    of fields below), and fields whose JSON type changed. Exit 0 when nothing changed, 1 when
    something did, 2 on usage, fetch or parse errors.
    """
    from modelarts_kit_sdk import compare_sdks, resolve_source
    from modelarts_kit_sdk.render import render_compare_json, render_compare_text
    from modelarts_kit_spec import load_spec

    operations = [op.operation_id for op in load_spec(spec_file).operations]
    report = compare_sdks(resolve_source(old), resolve_source(new), operations)
    text = render_compare_json(report) if output_format == "json" else render_compare_text(report)
    click.echo(text)
    raise SystemExit(EXIT_FINDINGS if report.change_count else EXIT_OK)
