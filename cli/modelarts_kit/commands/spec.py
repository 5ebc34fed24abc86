"""``modelarts-kit spec validate`` and ``modelarts-kit spec diff``.

Exit codes: 0 valid / nothing breaks, 1 findings / something breaks, 2 usage or parse error.
"""

from __future__ import annotations

import json
from pathlib import Path

import click
from modelarts_kit_spec.diff import diff_documents, read_source, render_json, render_markdown
from modelarts_kit_spec.ledger import ledger_for, read_ledger
from modelarts_kit_spec.load import SPEC_PATH, load_spec, read_yaml
from modelarts_kit_spec.schemamodel.listing import list_rules, rule_json
from modelarts_kit_spec.schemamodel.rules import Strength
from modelarts_kit_spec.validate import RULES, validate_document
from modelarts_kit_wire.errors import EXIT_FINDINGS, EXIT_OK, KitError

from modelarts_kit import options

__all__ = ["diff", "rules", "validate"]


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


@options.command()
@options.spec_file("OpenAPI file to read (default: the curated spec).")
@click.option(
    "--pointer",
    metavar="P",
    help="Only the rules at or below this JSON pointer (e.g. /components/schemas/JobMetadata).",
)
@click.option(
    "--strength",
    metavar="S",
    help=f"Only the rules of this strength ({', '.join(s.value for s in Strength)}).",
)
@click.option("--json", "as_json", is_flag=True, help='Print JSON: {"rules": [...]}.')
def rules(spec_file: Path | None, pointer: str | None, strength: str | None, as_json: bool) -> None:
    """List every rule of the schema model: pointer, rule, value, strength, evidence.

    A rule a page states quotes it (page, locator, the page's words); a rule only the SDK, an
    example or the ledger has names its ledger entry. An enum whose values bind differently
    (CPU and GPU documented, Ascend the SDK's) is one rule per value. An unknown pointer or
    strength: exit 2."""
    spec = load_spec(spec_file) if spec_file is not None else load_spec()
    found = list_rules(spec.schema_model, pointer=pointer, strength=strength)
    if as_json:
        click.echo(
            json.dumps({"rules": [rule_json(r) for r in found]}, indent=2, ensure_ascii=False)
        )
        return
    for rule in found:
        click.echo(rule.cite())
    counts = {s: sum(1 for r in found if r.strength is s) for s in Strength}
    summary = ", ".join(f"{n} {s.value}" for s, n in counts.items() if n)
    click.echo(f"{len(found)} rule(s){': ' + summary if summary else ''}")
