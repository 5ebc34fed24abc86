"""``modelarts-kit publish``: exit 0 published, 1 refused (invalid bundle, version reused),
2 usage (unreadable spec, ledger or previous version)."""

from __future__ import annotations

from pathlib import Path

import click

from modelarts_kit_publish.errors import PublishError
from modelarts_kit_publish.publish import DEFAULT_OUT, publish_spec

__all__ = ["publish"]


@click.command()
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
@click.option(
    "--spec",
    "spec_file",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Spec to publish (default: the curated spec).",
)
@click.option(
    "--ledger",
    "ledger_file",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Discrepancy ledger (default: the one beside the spec).",
)
def publish(
    out_dir: Path, previous: str | None, spec_file: Path | None, ledger_file: Path | None
) -> None:
    """Bundle the spec (openapi.yaml/json), render its HTML reference and CHANGELOG.md.

    Offline and deterministic. Refuses (exit 1) to publish changed content under a version
    that was already published.
    """
    try:
        result = publish_spec(
            out_dir, spec_path=spec_file, ledger_path=ledger_file, previous=previous
        )
    except PublishError as exc:
        click.echo(f"error: {exc}", err=True)
        raise SystemExit(exc.exit_code) from exc
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
