"""Issue 33's "Done when", over every real revision (``benchmarks/revisions/``): after ``docs
update`` with it, ``docs diff`` of the recorded page shows nothing beyond the open decisions
(and no stale evidence), a second run writes nothing, and ``--dry-run`` writes nothing.

Cheap on purpose: the client is not rendered (a stand-in release writes the spec's version
where ``generated/`` goes; ``tests/vendordocs/test_update.py`` renders the real one), so
what is measured is the update's own reading, deciding and writing."""

from __future__ import annotations

from pathlib import Path

import pytest
from modelarts_kit_spec import read_ledger
from modelarts_kit_spec.diff import Change
from modelarts_kit_spec.load import read_yaml
from modelarts_kit_vendordocs.drift import decisions_from_entries, diff_pages, group_findings
from modelarts_kit_vendordocs.update import Release, update

from .support import REPO, repository_copy

REVISIONS = REPO / "benchmarks" / "revisions"
NEW_PAGES = [str(pair["new"]) for pair in read_yaml(REVISIONS / "ground_truth.yaml")["pairs"]]


def _check(spec: Path, out: Path) -> None:
    """Nothing to refuse: the stand-in client is the test's own folder."""


def _render(spec: Path, out: Path) -> None:
    out.mkdir(parents=True)
    (out / "VERSION").write_text(str(read_yaml(spec)["info"]["version"]), encoding="utf-8")


def _changelog(existing: str | None, new: str, old: str, changes: list[Change]) -> str:
    return (existing or "# Changelog\n") + f"\n## {new}\n\nfrom {old}: {len(changes)} change(s)\n"


RELEASE = Release(check_client=_check, render_client=_render, changelog=_changelog)


def _tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


@pytest.mark.parametrize("name", NEW_PAGES)
def test_after_docs_update_only_the_open_decisions_remain(name: str, tmp_path: Path) -> None:
    assert len(NEW_PAGES) == 14
    page = REVISIONS / name
    spec = repository_copy(tmp_path / "repo")
    root = spec.parents[2]
    before = _tree(root)
    update([page], RELEASE, spec_path=spec, dry_run=True)
    assert _tree(root) == before, "--dry-run wrote"

    result = update([page], RELEASE, spec_path=spec)
    (done,) = result.pages
    assert done.recorded is not None
    recorded = root / "spec" / "sources" / done.recorded.file
    ledger = spec.parent / "ledger.yaml"
    todo = [d for d in decisions_from_entries(read_ledger(ledger).entries) if d.todo]
    assert len(todo) >= result.open_decisions - len(result.refused)
    report = diff_pages([recorded], spec_path=spec, ledger_path=ledger)
    beyond = [
        group.action
        for group in group_findings(f for op in report.operations for f in op.findings)
        if not all(any(d.applies(f) for d in todo) for f in group.findings)
    ]
    assert beyond == []
    assert report.stale == []

    settled = _tree(root)
    again = update([page], RELEASE, spec_path=spec)
    assert _tree(root) == settled, "a second run wrote"
    assert again.written == []
