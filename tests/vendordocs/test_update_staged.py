"""``docs update`` works on one staged, in-memory project (issue 37 item 2).

The spec, the ledger and the sources index are read once, each page (new or recorded) once;
every step works on the staged objects, and the files are written once, at the end, in one
transaction: a failure in any step, the last ones included, leaves every file as it was.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import modelarts_kit_spec.reader as reader
import pytest
from click.testing import CliRunner, Result
from modelarts_kit.main import cli
from modelarts_kit_spec import KitError

from .support import SEED_004, repository_copy, seed_text
from .test_update import LOCAL_CODE_DIR, NEW_LOG_LEVEL, revision_003
from .update_support import root_of, tree, write_page


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """The spec of a repository-shaped copy under ``tmp_path / "repo"``."""
    return repository_copy(tmp_path / "repo")


def create_revision(folder: Path) -> Path:
    """A new revision of the create page: one field added (an additive change)."""
    text = seed_text(SEED_004).replace(LOCAL_CODE_DIR, NEW_LOG_LEVEL + LOCAL_CODE_DIR, 1)
    return write_page(folder, "create-2026-11.txt", text)


def update(spec: Path, *pages: Path, dry_run: bool = False) -> Result:
    args = ["docs", "update", *map(str, pages), "--spec", str(spec)]
    return CliRunner().invoke(cli, [*args, *(["--dry-run"] if dry_run else [])])


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How often each file is opened through the kit's one input reader (every spec,
    ledger, index, inventory and page a command reads goes through it)."""
    counts: Counter[str] = Counter()

    def counting_open(path: Any, *args: Any, **kwargs: Any) -> IO[Any]:
        counts[os.path.realpath(path)] += 1
        stream: IO[Any] = open(path, *args, **kwargs)  # noqa: SIM115 -- the reader closes it
        return stream

    monkeypatch.setattr(reader, "open", counting_open, raising=False)
    return counts


def read_count(reads: Counter[str], path: Path) -> int:
    return reads[os.path.realpath(path)]


def test_a_dry_run_of_two_pages_reads_every_file_once(
    repo: Path, tmp_path: Path, reads: Counter[str]
) -> None:
    pages = [create_revision(tmp_path), revision_003(tmp_path)]
    before = tree(root_of(repo))
    result = update(repo, *pages, dry_run=True)
    assert result.exit_code in (0, 1), result.output
    assert "dry run: nothing was written" in result.output
    for page in pages:
        assert read_count(reads, page) == 1, page
    assert read_count(reads, repo) == 1
    assert read_count(reads, repo.parent / "ledger.yaml") == 1
    assert read_count(reads, root_of(repo) / "spec" / "sources" / "index.yaml") == 1
    twice = {path: n for path, n in reads.items() if n > 1}
    assert twice == {}
    # Only the project's own files are read: no staged version written and read back.
    outside = [path for path in reads if Path(root_of(repo)).resolve() not in Path(path).parents]
    assert sorted(outside) == sorted(os.path.realpath(p) for p in pages)
    assert tree(root_of(repo)) == before


def test_an_update_reads_the_page_spec_and_ledger_once_and_writes_them_once(
    repo: Path, tmp_path: Path, reads: Counter[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    page = create_revision(tmp_path)
    writes: Counter[str] = Counter()
    replace = os.replace

    def counting_replace(source: str | Path, target: str | Path) -> None:
        writes[Path(target).name] += 1
        replace(source, target)

    monkeypatch.setattr(os, "replace", counting_replace)
    result = update(repo, page)
    assert result.exit_code == 0, result.output
    assert read_count(reads, page) == 1
    assert read_count(reads, repo) == 1
    assert read_count(reads, repo.parent / "ledger.yaml") == 1
    project_files = [p for p in reads if Path(root_of(repo)).resolve() in Path(p).parents]
    assert {p: reads[p] for p in project_files if reads[p] > 1} == {}
    # One swap per file of the transaction (and generated/), none written twice.
    assert writes["openapi.yaml"] == 1
    assert writes["CHANGELOG.md"] == 1
    assert writes["index.yaml"] == 1
    assert writes[page.name] == 1
    assert writes["generated"] == 1
    assert max(writes.values()) == 1


def _fail_in_derive(monkeypatch: pytest.MonkeyPatch) -> None:
    import modelarts_kit_spec.schemamodel.derive as derive

    def failing(*args: object, **kwargs: object) -> object:
        raise KitError("the schema model cannot be derived (a test's failure)")

    monkeypatch.setattr(derive, "derive", failing)


def _fail_in_changelog(monkeypatch: pytest.MonkeyPatch) -> None:
    import modelarts_kit_publish.changelog as changelog

    def failing(*args: object, **kwargs: object) -> str:
        raise KitError("the changelog cannot be written (a test's failure)")

    monkeypatch.setattr(changelog, "merge_changelog", failing)


def _fail_in_render(monkeypatch: pytest.MonkeyPatch) -> None:
    import modelarts_kit_generator.pipeline as pipeline

    def failing(*args: object, **kwargs: object) -> None:
        raise KitError("the client cannot be rendered (a test's failure)")

    monkeypatch.setattr(pipeline, "render_to", failing)


@pytest.mark.parametrize(
    "fail",
    [_fail_in_derive, _fail_in_changelog, _fail_in_render],
    ids=["schema-model", "changelog", "client"],
)
def test_a_failure_in_the_last_steps_leaves_every_file_untouched(
    repo: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    fail: Callable[[pytest.MonkeyPatch], None],
) -> None:
    page = create_revision(tmp_path)
    before = tree(root_of(repo))
    fail(monkeypatch)
    result = update(repo, page)
    assert result.exit_code == 2, result.output
    last = result.output.strip().splitlines()[-1]
    assert last.startswith("error: ")
    assert "a test's failure" in last
    assert "Traceback" not in result.output
    assert tree(root_of(repo)) == before
    leftovers = [p.name for p in root_of(repo).rglob(".modelarts-kit-staged-*")]
    assert leftovers == []
