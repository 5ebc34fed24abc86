"""Precision and recall of ``docs diff`` and ``docs update`` on real revisions of the pages.

The pages are real older revisions of the vendor's pages (``benchmarks/revisions/``, from the
Open Telekom Cloud documentation repository: create, show and terminate at 2024-03 and
2024-06, eight further operations at 2024-06). What each really changes in the API, against
the page the spec is built on, was read by hand: ``benchmarks/revisions/ground_truth.yaml``.

Three ways of asking, each in process against the curated spec and ledger:

* ``alone`` -- ``docs diff NEW`` (the page alone: the kit must find what it replaces itself);
* ``replaces`` -- ``docs diff NEW --replaces OLD``;
* ``update`` -- ``docs update NEW --dry-run``: every change it makes or leaves to a person,
  and every finding still open afterwards that the page did not make.

A reported change is one decision as ``docs diff`` prints it (findings grouped by schema and
action); it is a true positive when its kind, field (leaf name) and, where the ground truth
names one, schema are those of a change of the ground truth. Everything else reported is a
false positive: wording, layout, table names, examples, and differences the ledger has
already decided (``settled``). Precision = true positives / reported; recall = changes
reported / changes. Targets (issue 33): precision >= 0.97, recall >= 0.99.

Run from the repository root: ``.venv/bin/python benchmarks/docs_real_revisions.py
[--mode alone|replaces|update ...] [--verbose]``. ``--after-update`` runs each revision
through ``docs update`` for real, in a copy of the repository, and checks that ``docs diff``
of the recorded page then shows nothing beyond the open decisions (the ledger's TODO
entries), that a second run and ``--dry-run`` write nothing. With ``PYTHONPATH`` pointing at another
checkout's packages it measures that code (the figures before a change).
"""

from __future__ import annotations

import argparse
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from modelarts_kit_spec.load import parse_yaml_text
from modelarts_kit_vendordocs.drift import (
    FindingGroup,
    decisions_from_entries,
    diff_pages,
    group_findings,
)
from modelarts_kit_vendordocs.update import Release, update

REPO = Path(__file__).resolve().parents[1]
REVISIONS = REPO / "benchmarks" / "revisions"
SOURCES = REPO / "spec" / "sources"
MODES = ("alone", "replaces", "update")


@dataclass(frozen=True)
class Change:
    kind: str
    field: str
    schema: str | None

    def matches(self, group: FindingGroup) -> bool:
        if group.findings[0].kind != self.kind or self.field not in _leaves(group):
            return False
        return self.schema is None or group.schema.rsplit("/", 1)[-1] == self.schema


@dataclass(frozen=True)
class Pair:
    new: Path
    replaces: Path
    changes: tuple[Change, ...]


def _leaves(group: FindingGroup) -> set[str]:
    return {re.sub(r"\[\]", "", f.field).rpartition(".")[2] for f in group.findings}


def read_pairs(path: Path) -> list[Pair]:
    data: Any = parse_yaml_text(path.read_text(encoding="utf-8"), str(path))
    return [
        Pair(
            REVISIONS / item["new"],
            SOURCES / item["replaces"],
            tuple(
                Change(c["kind"], c["field"], c.get("schema")) for c in item.get("changes") or ()
            ),
        )
        for item in data["pairs"]
    ]


def _no_client(spec: Path, folder: Path) -> None:
    raise AssertionError("a dry run renders no client")


_DRY_RELEASE = Release(
    check_client=_no_client, render_client=_no_client, changelog=lambda *_: "# Changelog\n"
)


def reported(pair: Pair, mode: str) -> list[FindingGroup]:
    if mode == "update":
        (page,) = update([pair.new], _DRY_RELEASE, dry_run=True).pages
        made = {(g.schema, g.action) for g in page.changes}
        return [*page.changes, *(g for g in page.left if (g.schema, g.action) not in made)]
    report = diff_pages([pair.new], replaces=pair.replaces if mode == "replaces" else None)
    return group_findings(f for op in report.operations for f in op.findings)


def score(pairs: list[Pair], mode: str, verbose: bool) -> tuple[int, int, int, int]:
    """(true positives, reported, changes found, changes) over every pair."""
    true_positives = total = found = changes = 0
    for pair in pairs:
        groups = reported(pair, mode)
        hits = [g for g in groups if any(c.matches(g) for c in pair.changes)]
        seen = [c for c in pair.changes if any(c.matches(g) for g in groups)]
        true_positives += len(hits)
        total += len(groups)
        found += len(seen)
        changes += len(pair.changes)
        if verbose:
            print(f"  {pair.new.name}: {len(groups)} reported, {len(hits)} real")
            for group in groups:
                if group not in hits:
                    print(f"      not a change: {group.action} ({', '.join(group.paths)[:120]})")
            for change in pair.changes:
                if change not in seen:
                    print(f"      missed: {change.kind} of {change.field} ({change.schema})")
    return true_positives, total, found, changes


# --- after a real update: docs diff shows only the open decisions, a second run writes nothing


def _copy_repository(root: Path) -> Path:
    """The spec, ledger, recorded pages and generated client, copied under ``root``."""
    package = root / "spec" / "modelarts_kit_spec"
    package.mkdir(parents=True)
    for name in ("openapi.yaml", "ledger.yaml"):
        shutil.copy(REPO / "spec" / "modelarts_kit_spec" / name, package / name)
    shutil.copytree(SOURCES, root / "spec" / "sources")
    shutil.copytree(
        REPO / "generated",
        root / "generated",
        ignore=shutil.ignore_patterns("*.egg-info", "__pycache__", ".ruff_cache"),
    )
    return package / "openapi.yaml"


def _tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def after_update(pairs: list[Pair]) -> None:
    """Each revision through ``docs update`` for real, in a copy of the repository: then
    ``docs diff`` of the recorded page must show only what the ledger's TODO entries ask,
    a second update must write nothing, and ``--dry-run`` must write nothing."""
    from modelarts_kit.commands.docs import _release
    from modelarts_kit_spec import read_ledger

    for pair in pairs:
        with tempfile.TemporaryDirectory() as tmp:
            spec = _copy_repository(Path(tmp) / "repo")
            root = spec.parents[2]
            before = _tree(root)
            update([pair.new], _release(), spec_path=spec, dry_run=True)
            dry_clean = _tree(root) == before
            result = update([pair.new], _release(), spec_path=spec)
            (page,) = result.pages
            recorded = root / "spec" / "sources" / page.recorded.file if page.recorded else None
            ledger = spec.parent / "ledger.yaml"
            todo = [d for d in decisions_from_entries(read_ledger(ledger).entries) if d.todo]
            report = diff_pages([recorded or pair.new], spec_path=spec, ledger_path=ledger)
            groups = group_findings(f for op in report.operations for f in op.findings)
            beyond = [
                g for g in groups if not all(any(d.applies(f) for d in todo) for f in g.findings)
            ]
            settled = _tree(root)
            update([pair.new], _release(), spec_path=spec)
            second_clean = _tree(root) == settled
            print(
                f"  {pair.new.name}: {len(todo)} open decision(s), docs diff after: "
                f"{len(groups)} group(s), {len(beyond)} beyond them; version "
                f"{result.bump or 'unchanged'}; second run writes nothing: {second_clean}; "
                f"--dry-run writes nothing: {dry_clean}"
            )
            for group in beyond:
                print(f"      beyond: {group.action}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=MODES, action="append", help="default: all three")
    parser.add_argument("--verbose", action="store_true", help="print every miss")
    parser.add_argument(
        "--after-update",
        action="store_true",
        help="run docs update for real on a copy and check what docs diff shows after",
    )
    args = parser.parse_args()
    pairs = read_pairs(REVISIONS / "ground_truth.yaml")
    if args.after_update:
        after_update(pairs)
        return
    print(
        f"{len(pairs)} revisions, {sum(len(p.changes) for p in pairs)} real changes "
        "in the ground truth"
    )
    print(f"{'mode':<10} {'precision':>10} {'recall':>8}   detail")
    for mode in args.mode or MODES:
        if args.verbose:
            print(f"{mode}:")
        tp, total, found, changes = score(pairs, mode, args.verbose)
        precision = tp / total if total else 1.0
        recall = found / changes if changes else 1.0
        print(
            f"{mode:<10} {precision:>10.3f} {recall:>8.3f}   {tp} of {total} reported are "
            f"real; {found} of {changes} real changes reported"
        )


if __name__ == "__main__":
    main()
