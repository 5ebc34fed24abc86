"""``modelarts-kit spec validate`` and ``modelarts-kit spec diff``.

Exit codes: 0 valid / nothing breaks, 1 findings / something breaks, 2 usage or parse error.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from modelarts_kit_spec.diff import (
    SpecSource,
    diff_documents,
    read_source,
    render_json,
    render_markdown,
)
from modelarts_kit_spec.load import SPEC_PATH, SpecError, load_ledger, read_yaml
from modelarts_kit_spec.validate import RULES, ledger_for, validate_document

__all__ = ["diff", "validate"]

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


def _fail_usage(message: str) -> None:
    click.echo(f"error: {message}", err=True)
    raise SystemExit(EXIT_USAGE)


@click.command()
@click.option(
    "--spec",
    "spec_file",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="OpenAPI file to check (default: the curated spec).",
)
@click.option(
    "--ledger",
    "ledger_file",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Discrepancy ledger (default: the curated ledger, or ledger.yaml next to --spec).",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
)
def validate(spec_file: Path | None, ledger_file: Path | None, output_format: str) -> None:
    """Validate the spec (openapi-spec-validator 3.1 plus the project's rules) and its ledger.

    Rules:"""
    spec_path = spec_file if spec_file is not None else SPEC_PATH
    ledger_path = ledger_file if ledger_file is not None else ledger_for(spec_path)
    try:
        document = read_yaml(spec_path)
        ledger = load_ledger(ledger_path) if ledger_path is not None else None
        findings = validate_document(
            document,
            path=spec_path,
            ledger=ledger,
            ledger_name=ledger_path.name if ledger_path is not None else "ledger.yaml",
        )
    except SpecError as exc:
        _fail_usage(str(exc))
        return
    if output_format == "json":
        payload = {
            "spec": str(spec_path),
            "ledger": None if ledger_path is None else str(ledger_path),
            "valid": not findings,
            "rules": [r.id for r in RULES],
            "findings": [f.as_dict() for f in findings],
        }
        click.echo(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        for finding in findings:
            click.echo(str(finding))
        ledger_note = (
            "no ledger (ledger rules had nothing to check)"
            if ledger is None
            else f"ledger {ledger_path}: {len(ledger)} entries"
        )
        verdict = f"{len(findings)} problem(s)" if findings else "valid"
        click.echo(f"{spec_path}: {verdict}; {len(RULES)} rules; {ledger_note}")
    raise SystemExit(EXIT_FINDINGS if findings else EXIT_OK)


validate.help = (validate.help or "") + ", ".join(r.id for r in RULES) + "."


@click.command()
@click.argument("old")
@click.argument("new")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["markdown", "json"]),
    default="markdown",
    show_default=True,
)
@click.option(
    "--out",
    "out_file",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Write the report here instead of stdout.",
)
@click.option(
    "--fail-on",
    type=click.Choice(["any", "clients", "servers"]),
    default="any",
    show_default=True,
    help="Which breakage makes the exit code 1 (e.g. 'clients' to gate on client compatibility).",
)
def diff(old: str, new: str, output_format: str, out_file: Path | None, fail_on: str) -> None:
    """Classify every change between two spec versions as breaking or not.

    OLD and NEW are files or git:REV:PATH (read with `git show REV:PATH`). Each change says
    whether it breaks clients (built for OLD, talking to a NEW server) and servers (built for
    OLD, serving NEW clients). Exit 1 when something breaks the side(s) --fail-on names.
    """
    try:
        old_source: SpecSource = read_source(old)
        new_source: SpecSource = read_source(new)
        changes = diff_documents(old_source.document, new_source.document)
    except SpecError as exc:
        _fail_usage(str(exc))
        return
    if output_format == "json":
        text = render_json(changes, old_source, new_source)
    else:
        text = render_markdown(changes, old_source, new_source)
    if out_file is not None:
        try:
            out_file.write_text(text, encoding="utf-8")
        except OSError as exc:
            _fail_usage(f"{out_file}: cannot write: {exc.strerror}")
    else:
        click.echo(text, nl=False)
    breaking = any(
        (c.breaks_clients and fail_on in ("any", "clients"))
        or (c.breaks_servers and fail_on in ("any", "servers"))
        for c in changes
    )
    raise SystemExit(EXIT_FINDINGS if breaking else EXIT_OK)
