"""``modelarts-kit docs extract|diff|compare``: vendor pages, read and compared.

Exit codes: 0 success / no unreconciled drift / pages the same, 1 drift found / pages differ,
2 usage, parse or spec errors (raised as ``KitError`` and mapped by the root group).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click
from modelarts_kit_wire.errors import EXIT_FINDINGS, EXIT_OK, KitError

from modelarts_kit import options

if TYPE_CHECKING:
    from modelarts_kit_spec.diff import Change
    from modelarts_kit_vendordocs.update import Release

__all__ = ["compare", "diff", "extract", "update"]

_PAGES = click.argument("pages", nargs=-1, required=True, type=click.Path(path_type=Path))


def _write(text: str, out: Path | None) -> None:
    if out is None:
        click.echo(text)
        return
    from modelarts_kit_vendordocs.transaction import Transaction

    # Staged beside the file and swapped in: a failed run never leaves half a file.
    transaction = Transaction()
    transaction.write(out, text + "\n")
    transaction.commit()


@options.command()
@_PAGES
@options.out_file("Write the JSON here instead of standard output.")
def extract(pages: tuple[Path, ...], out_file: Path | None) -> None:
    """Parse vendor API pages (web text, reStructuredText or pipe tables) into field inventories.

    Prints one JSON document: {"pages": [inventory, ...]}. Field paths are dotted from the
    body root, with [] after an array of objects: status.task_statuses[].exit_code.
    """
    from modelarts_kit_vendordocs.extract import extract_page

    inventories = [extract_page(page).to_json() for page in pages]
    _write(json.dumps({"pages": inventories}, indent=2, ensure_ascii=False), out_file)


@options.command()
@_PAGES
@click.option(
    "--replaces",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="The first page is the new version of this page: the old one is left out, and a "
    "field the new page dropped is drift even if another page still lists it.",
)
@options.spec_file("OpenAPI document to compare with (default: the curated spec).")
@options.ledger_file("Discrepancy ledger (default: the curated ledger next to the spec).")
@options.output_format("text", "json")
@click.option(
    "--show-reconciled", is_flag=True, help="List the findings the ledger settles (text)."
)
@click.option(
    "--propose",
    "propose_file",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Write a unified diff of openapi.yaml and ledger.yaml that settles the drift: "
    "additive changes in full, a 'decision: TODO' ledger stub for every other change.",
)
@click.option(
    "--apply",
    "apply_patch",
    is_flag=True,
    help="Also make the proposed changes to the spec and ledger files in place.",
)
def diff(
    pages: tuple[Path, ...],
    replaces: Path | None,
    spec_file: Path | None,
    ledger_file: Path | None,
    output_format: str,
    show_reconciled: bool,
    propose_file: Path | None,
    apply_patch: bool,
) -> None:
    """Report drift between vendor pages and the spec, minus what the ledger already decided.

    Per operation (matched by method and path template): fields the pages document that the
    spec lacks and spec fields no page mentions (presence), type, mandatory, enum and table
    name disagreements, and status codes. A ledger entry settles a finding only with its own
    evidence: a source naming the finding's page (or, with --replaces, the page it replaces)
    recorded what that page says now; any other value, or the same value said by a page the
    entry does not name, reopens it. Status codes settle code by code; a field the new page
    dropped settles once a decided entry records that page's drop. Unreconciled findings are
    grouped by spec schema with the action to take. Exit 0 when nothing is unreconciled, 1
    when drift is found, 2 on usage or parse errors.
    """
    from modelarts_kit_vendordocs.drift import diff_pages
    from modelarts_kit_vendordocs.render import render_json, render_text

    if apply_patch and propose_file is None:
        raise KitError("--apply needs --propose PATCH (the patch it applies is written there)")
    if propose_file is not None:
        from modelarts_kit_vendordocs.project import project_for
        from modelarts_kit_vendordocs.propose import check_patch_path

        inputs = [*pages, *([replaces] if replaces is not None else [])]
        check_patch_path(propose_file, project_for(spec_file, ledger_file), inputs)
    report = diff_pages(pages, replaces=replaces, spec_path=spec_file, ledger_path=ledger_file)
    if propose_file is not None:
        from modelarts_kit_vendordocs.extract import extract_page
        from modelarts_kit_vendordocs.propose import documented_values, propose
        from modelarts_kit_vendordocs.transaction import Transaction

        proposal = propose(
            report,
            spec_path=spec_file,
            ledger_path=ledger_file,
            values=documented_values(extract_page(p) for p in pages),
        )
        # The patch, the spec and the ledger are written together or not at all.
        transaction = Transaction()
        transaction.write(propose_file, proposal.patch.rstrip("\n") + "\n")
        if apply_patch:
            proposal.stage(transaction)
        transaction.commit()
        click.echo(proposal.summary(applied=apply_patch), err=True)
    if output_format == "json":
        click.echo(render_json(report))
    else:
        click.echo(render_text(report, show_reconciled=show_reconciled))
    raise SystemExit(EXIT_FINDINGS if report.unreconciled_count else EXIT_OK)


@options.command()
@click.argument("old", type=click.Path(path_type=Path, dir_okay=False))
@click.argument("new", type=click.Path(path_type=Path, dir_okay=False))
@options.output_format("text", "json")
@click.option(
    "--old-root",
    metavar="'SIDE [STATUS] [PATH]'",
    help="Compare only this object of OLD, e.g. 'response 200' (a shared object of two "
    "operations' pages).",
)
@click.option(
    "--new-root",
    metavar="'SIDE [STATUS] [PATH]'",
    help="Compare only this object of NEW, e.g. 'response 200 items' (the list page's job).",
)
def compare(
    old: Path, new: Path, output_format: str, old_root: str | None, new_root: str | None
) -> None:
    """What the vendor changed between two versions of one page, independent of the spec.

    Rows added, removed and changed (type, mandatory, description), enum values added and
    removed (a value dropped and one added that are the same value spelt anew, discreate ->
    discrete, are one respelling), tables renamed or moved, status codes and examples changed.
    Any of the three page formats. With --old-root/--new-root, one object of each page (the
    job of the show page against the list page's items), at paths relative to it; a root
    given for one page only is the whole body of that side and status on the other. Exit 0
    when the pages are the same, 1 when they differ, 2 on parse errors.
    """
    from modelarts_kit_vendordocs.pagediff import (
        compare_paths,
        parse_root,
        render_comparison_json,
        render_comparison_text,
    )

    result = compare_paths(
        old,
        new,
        None if old_root is None else parse_root(old_root, "--old-root"),
        None if new_root is None else parse_root(new_root, "--new-root"),
    )
    if output_format == "json":
        click.echo(json.dumps(render_comparison_json(result), indent=2, ensure_ascii=False))
    else:
        click.echo(render_comparison_text(result))
    raise SystemExit(EXIT_OK if result.same else EXIT_FINDINGS)


@options.command()
@_PAGES
@options.spec_file("The spec to update (default: the curated spec); its project is updated.")
@options.ledger_file("Discrepancy ledger (default: the curated ledger next to the spec).")
@click.option("--dry-run", is_flag=True, help="Print the plan; write nothing.")
def update(
    pages: tuple[Path, ...], spec_file: Path | None, ledger_file: Path | None, dry_run: bool
) -> None:
    """Bring the spec, ledger, recorded pages and client up to new revisions of vendor pages.

    Each page is matched to the recorded page of the same operation (spec/sources/index.yaml;
    web text, RST or pipe tables, English or Chinese) and compared with it; the spec is diffed
    with the old page replaced; additive changes are made (with the values the page lists),
    except where a schema other operations share would then disagree with their pages; every
    other change gets one 'decision: TODO' ledger stub (never twice); the page is recorded in
    spec/sources/ and cited by the ledger entries the old revision's evidence settled (the old
    page stays). A ledger stub decided since (its expect) is first applied to the spec, and
    a limit the prose changes is set where it reads one way. Then generated/ is regenerated,
    info.version bumped by who breaks (major:
    breaks clients, or servers beyond an addition; minor: additive; patch: docs only) and
    the version's section added to CHANGELOG.md -- all written as one transaction. Exit 0
    when no decision is open, 1 while decisions are open, 2 on usage,
    parse or write errors. Running it again changes nothing.
    """
    from modelarts_kit_vendordocs.update import render_update
    from modelarts_kit_vendordocs.update import update as run_update

    result = run_update(
        pages, _release(), spec_path=spec_file, ledger_path=ledger_file, dry_run=dry_run
    )
    click.echo(render_update(result))
    raise SystemExit(EXIT_FINDINGS if result.open_decisions else EXIT_OK)


def _release() -> Release:
    """docs update's release steps: the generator renders the client, publish writes the
    changelog (vendordocs imports neither: the packages are layered, the CLI composes)."""
    from modelarts_kit_generator.pipeline import check_output_directory, render_to
    from modelarts_kit_publish.changelog import merge_changelog, section_for
    from modelarts_kit_vendordocs.update import Release

    def check_client(spec: Path, out: Path) -> None:
        check_output_directory(out, spec, force=False)

    def render_client(spec: Path, folder: Path) -> None:
        render_to(folder, spec)

    def changelog(existing: str | None, version: str, previous: str, changes: list[Change]) -> str:
        return merge_changelog(existing, version, section_for(version, previous, changes))

    return Release(check_client, render_client, changelog)
