"""``modelarts-kit docs extract`` and ``modelarts-kit docs diff``.

Exit codes: 0 success / no unreconciled drift, 1 drift found, 2 usage, parse or spec errors.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from modelarts_kit_vendordocs.errors import VendorDocsError
from modelarts_kit_vendordocs.extract import extract_page

__all__ = ["diff", "extract"]

EXIT_DRIFT = 1
EXIT_ERROR = 2


def _fail(message: str) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(EXIT_ERROR)


def _write(text: str, out: Path | None) -> None:
    if out is None:
        click.echo(text)
        return
    # Write to a sibling temporary file first so a failed run never leaves half a file.
    partial = out.with_name(out.name + ".partial")
    try:
        partial.write_text(text + "\n", encoding="utf-8")
        partial.replace(out)
    except OSError as exc:
        _fail(f"{out}: cannot write: {exc.strerror}")


@click.command()
@click.argument("pages", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the JSON here instead of standard output.",
)
def extract(pages: tuple[Path, ...], out: Path | None) -> None:
    """Parse vendor API pages (web text, reStructuredText or pipe tables) into field inventories.

    Prints one JSON document: {"pages": [inventory, ...]}. Field paths are dotted from the
    body root, with [] after an array of objects: status.task_statuses[].exit_code.
    """
    try:
        inventories = [extract_page(page).to_json() for page in pages]
    except VendorDocsError as exc:
        _fail(str(exc))
    _write(json.dumps({"pages": inventories}, indent=2, ensure_ascii=False), out)


@click.command()
@click.argument("pages", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--spec",
    "spec_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="OpenAPI document to compare with (default: the curated spec).",
)
@click.option(
    "--ledger",
    "ledger_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Discrepancy ledger (default: the curated ledger next to the spec).",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
)
def diff(
    pages: tuple[Path, ...],
    spec_path: Path | None,
    ledger_path: Path | None,
    output_format: str,
) -> None:
    """Report drift between vendor pages and the spec, minus what the ledger already decided.

    Per operation (matched by method and path template): fields the pages document that the
    spec lacks and spec fields no page mentions (presence), type, mandatory, enum and table
    name disagreements, and status codes. A ledger entry with the same kind, field (array
    markers ignored), a compatible side and the operation listed moves a finding to
    "reconciled". Exit 0 when nothing is unreconciled, 1 when drift is found, 2 on usage or
    parse errors.
    """
    from modelarts_kit_spec import SpecError

    from modelarts_kit_vendordocs.drift import compare, load_decisions
    from modelarts_kit_vendordocs.render import render_json, render_text

    try:
        inventories = [extract_page(page) for page in pages]
        report = compare(inventories, spec_path, load_decisions(ledger_path, spec_path))
    except (VendorDocsError, SpecError) as exc:
        _fail(str(exc))
    text = render_json(report) if output_format == "json" else render_text(report)
    click.echo(text)
    sys.exit(EXIT_DRIFT if report.unreconciled_count else 0)
