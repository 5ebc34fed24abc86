"""``modelarts-kit publish``: exit 0 published, 1 refused (invalid bundle, version reused),
2 usage (unreadable spec, ledger or previous version)."""

from __future__ import annotations

from pathlib import Path

import click
from modelarts_kit_publish.publish import DEFAULT_OUT, publish_spec

from modelarts_kit import options

__all__ = ["publish"]


@options.command()
@click.option(
    "--out",
    "out_dir",
    type=click.Path(path_type=Path, file_okay=False),
    default=DEFAULT_OUT,
    show_default=True,
    help="Output directory.",
)
@click.option(
    "--previous",
    default=None,
    help="Previous published version: a file, git:REV:PATH, or a git tag/ref "
    "(default: the openapi.yaml already in --out, if any).",
)
@options.spec_file("Spec to publish (default: the curated spec).")
@options.ledger_file("Discrepancy ledger (default: the one beside the spec).")
@click.option(
    "--force",
    is_flag=True,
    help="Replace output files in --out that publish did not write (no published.json).",
)
def publish(
    out_dir: Path,
    previous: str | None,
    spec_file: Path | None,
    ledger_file: Path | None,
    force: bool,
) -> None:
    """Bundle the spec (openapi.yaml/json), render its HTML reference and CHANGELOG.md.

    Offline and deterministic. Refuses (exit 1) to publish changed content under a version
    that was already published.
    """
    result = publish_spec(
        out_dir, spec_path=spec_file, ledger_path=ledger_file, previous=previous, force=force
    )
    breaking = sum(c.breaks_clients or c.breaks_servers for c in result.changes)
    if result.republished:
        since = "republished unchanged"
    elif result.previous_version is not None:
        since = (
            f"{len(result.changes)} change(s) since {result.previous_version} ({breaking} breaking)"
        )
    else:
        since = "initial release"
    click.echo(
        f"published {result.version} to {result.out_dir} ({', '.join(result.files)}); {since}; "
        f"sha256 {result.sha256}"
    )
