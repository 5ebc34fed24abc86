"""``modelarts-kit spec validate`` and ``modelarts-kit spec diff``.

Exit codes: 0 valid / nothing breaks, 1 findings / something breaks, 2 usage or parse error.
"""

from __future__ import annotations

import json
from pathlib import Path

import click
from modelarts_kit_spec.diff import diff_documents, read_source, render_json, render_markdown
from modelarts_kit_spec.ledger import ledger_for, read_ledger
from modelarts_kit_spec.load import SPEC_PATH, read_yaml
from modelarts_kit_spec.validate import RULES, validate_document
from modelarts_kit_wire.errors import EXIT_FINDINGS, EXIT_OK, KitError

from modelarts_kit import options

__all__ = ["diff", "validate"]


@options.command()
@options.spec_file("OpenAPI file to check (default: the curated spec).")
@options.ledger_file(
    "Discrepancy ledger (default: the curated ledger, or ledger.yaml next to --spec)."
)
@options.output_format("text", "json")
def validate(spec_file: Path | None, ledger_file: Path | None, output_format: str) -> None:
    """Validate the spec (openapi-spec-validator 3.1 plus the project's rules) and its ledger.

    Rules:"""
    spec_path = spec_file if spec_file is not None else SPEC_PATH
    ledger_path = ledger_file if ledger_file is not None else ledger_for(spec_path)
    document = read_yaml(spec_path)
    ledger = read_ledger(ledger_path) if ledger_path is not None else None
    findings = validate_document(
        document,
        path=spec_path,
        ledger=ledger,
        ledger_name=ledger_path.name if ledger_path is not None else "ledger.yaml",
    )
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


@options.command()
@click.argument("old")
@click.argument("new")
@options.output_format("markdown", "json")
@options.out_file("Write the report here instead of stdout.")
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
    old_source = read_source(old)
    new_source = read_source(new)
    changes = diff_documents(
        old_source.document, new_source.document, labels=(old_source.label, new_source.label)
    )
    render = render_json if output_format == "json" else render_markdown
    text = render(changes, old_source, new_source)
    if out_file is not None:
        try:
            out_file.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise KitError(f"{out_file}: cannot write: {exc.strerror}") from exc
    else:
        click.echo(text, nl=False)
    breaking = any(
        (c.breaks_clients and fail_on in ("any", "clients"))
        or (c.breaks_servers and fail_on in ("any", "servers"))
        for c in changes
    )
    raise SystemExit(EXIT_FINDINGS if breaking else EXIT_OK)
