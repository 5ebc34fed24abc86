"""Issue 25: ``modelarts-kit docs update PAGE... [--dry-run]`` does the whole update.

Every test works on a repository-shaped copy (spec, ledger, ``spec/sources/``,
``generated/``) with a seed page edited the way a vendor revision would be, never on the
real files.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from modelarts_kit.main import cli
from modelarts_kit_generator.pipeline import up_to_date
from modelarts_kit_spec import load_spec
from modelarts_kit_spec.load import read_yaml
from modelarts_kit_vendordocs.drift import normalise_field
from modelarts_kit_vendordocs.extract import extract_page
from modelarts_kit_vendordocs.sources import read_index

from .support import (
    SEED_000,
    SEED_001,
    SEED_002,
    SEED_003,
    SEED_004,
    edit,
    repository_copy,
    seed_text,
)
from .update_support import (
    Additive,
    FirstUpdate,
    api_of,
    docs_diff_exit,
    root_of,
    seed_path_bytes,
    seeds,
    todo_ids,
    tree,
    update,
    write_page,
)

NEW_LOG_LEVEL = (
    "log_level |\nNo |\nString |\nLog level. The value can be: debug, info, warning. |\n"
)
LOCAL_CODE_DIR = "local_code_dir |\nNo |\nString |"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """The spec of a repository-shaped copy under ``tmp_path / "repo"``."""
    return repository_copy(tmp_path / "repo")


# --- an additive revision: made, recorded, versioned, regenerated; a second run does nothing ---


@pytest.fixture(scope="module")
def additive(tmp_path_factory: pytest.TempPathFactory) -> Additive:
    folder = tmp_path_factory.mktemp("additive")
    repo = repository_copy(folder / "repo")
    text = seed_text(SEED_004).replace(LOCAL_CODE_DIR, NEW_LOG_LEVEL + LOCAL_CODE_DIR, 1)
    page = write_page(folder, "create-2026-11.txt", text)
    old_version = load_spec(repo).document["info"]["version"]
    settled_before = docs_diff_exit(repo, *sorted(seeds(repo).glob("*.txt")))
    result = update(repo, page)
    before_again = tree(root_of(repo))
    again = update(repo, page)
    return Additive(
        repo, page, old_version, settled_before, result, again, before_again, tree(root_of(repo))
    )


def test_an_additive_revision_is_applied_recorded_versioned_and_regenerated(
    additive: Additive,
) -> None:
    repo, page, result = additive.repo, additive.page, additive.result
    old_version = additive.old_version
    assert result.exit_code == 0, result.output
    document = load_spec(repo).document
    log_level = document["components"]["schemas"]["JobAlgorithm"]["properties"]["log_level"]
    assert log_level["enum"] == ["debug", "info", "warning"]  # the documented values kept
    # Recorded beside the page it replaces, byte for byte, and in the index.
    assert (seeds(repo) / page.name).read_bytes() == page.read_bytes()
    recorded = read_index(seeds(repo).parent).by_name(page.name)
    assert recorded is not None
    assert (recorded.file, recorded.operation, recorded.replaces) == (
        f"seeds/{page.name}",
        "CreateTrainingJob",
        SEED_004,
    )
    assert (recorded.language, recorded.format) == ("en", "pipe")
    # Bumped by who breaks: a new optional request field is additive (servers implement it
    # when they can; no client breaks): minor, with the changelog section publish writes.
    new_version = document["info"]["version"]
    major, minor, _ = old_version.split(".")
    assert new_version == f"{major}.{int(minor) + 1}.0"
    assert "(minor: additive: no client breaks)" in result.output
    changelog = (root_of(repo) / "CHANGELOG.md").read_text(encoding="utf-8")
    assert changelog.startswith(f"# Changelog\n\n## {new_version} (changes since {old_version})")
    assert "`algorithm.log_level`" in changelog
    assert "Release: minor; to act: servers, to implement what is new (no client breaks)." in (
        changelog
    )
    # The client is regenerated from the new spec.
    generated = root_of(repo) / "generated"
    assert up_to_date(generated, repo)
    models = (generated / "modelarts_training_client" / "_request_models.py").read_text("utf-8")
    assert 'log_level: Literal["debug", "info", "warning"]' in models
    # The same command again changes nothing.
    assert additive.again.exit_code == 0, additive.again.output
    assert "nothing to write" in additive.again.output
    assert additive.after_again == additive.before_again


def test_dry_run_prints_the_plan_and_writes_nothing(repo: Path, tmp_path: Path) -> None:
    text = seed_text(SEED_004).replace(LOCAL_CODE_DIR, NEW_LOG_LEVEL + LOCAL_CODE_DIR, 1)
    page = write_page(tmp_path, "create-2026-11.txt", text)
    before = tree(root_of(repo))
    result = update(repo, page, dry_run=True)
    assert result.exit_code == 0, result.output
    assert "add property `log_level`" in result.output
    assert "info.version " in result.output
    assert f"recorded as spec/sources/seeds/{page.name}" in result.output
    assert "dry run: nothing was written" in result.output
    assert tree(root_of(repo)) == before


# --- a shared schema: an addition the other operations' pages disagree with is a decision ------


def revision_003(tmp_path: Path) -> Path:
    text = edit(seed_text(SEED_003), "start_time\n\nLong\n", "start_time\n\nBoolean\n")
    text = text.replace(
        "local_code_dir\n\nString\n",
        "retry_count\n\nInteger\n\nNumber of retries.\n\nlocal_code_dir\n\nString\n",
        1,
    )
    return write_page(tmp_path, "show-2026-11.txt", text)


def test_an_addition_to_a_shared_schema_becomes_one_decision_never_new_drift(
    repo: Path, tmp_path: Path
) -> None:
    page = revision_003(tmp_path)
    spec_before = api_of(repo)
    others = {
        "create": [seeds(repo) / SEED_004],
        "terminate": [seeds(repo) / s for s in (SEED_000, SEED_001, SEED_002)],
    }
    exits_before = {k: docs_diff_exit(repo, *pages) for k, pages in others.items()}
    result = update(repo, page)
    assert result.exit_code == 1, result.output  # decisions are open
    assert "a decision, not a change: add property `retry_count`" in result.output
    # The response schema is shared with create and terminate, whose pages do not list the
    # field: the API is unchanged (only the schema model's quotes follow the new page), and
    # their drift is as it was.
    assert api_of(repo) == spec_before
    assert {k: docs_diff_exit(repo, *pages) for k, pages in others.items()} == exits_before
    stubs = todo_ids(repo)
    assert stubs == ["todo-presence-algorithm-retry-count", "todo-type-status-start-time"]
    # Never twice: the same command again changes nothing and still exits 1.
    before = tree(root_of(repo))
    again = update(repo, page)
    assert again.exit_code == 1, again.output
    assert "2 change(s) the ledger already asks about (no new stub)" in again.output
    assert tree(root_of(repo)) == before
    # A person decides both stubs: the update has nothing left (exit 0).
    ledger = repo.parent / "ledger.yaml"
    text = ledger.read_text(encoding="utf-8")
    text = text.replace(
        "    decision: TODO\n    expect: {}\n", "    decision: not yet\n    expect: {}\n", 1
    )
    text = text.replace(
        "    decision: TODO\n    expect: {}\n",
        "    decision: keep integer\n    expect: {type: integer}\n",
        1,
    )
    ledger.write_text(text, encoding="utf-8")
    decided = update(repo, page)
    assert decided.exit_code == 0, decided.output
    assert "no change open" in decided.output


# --- own edited revisions: dropped fields, changed types and values ----------------------------

DROPPED_ROW = (
    "local_code_dir |\nNo |\nString |\nLocal directory to the training container to which "
    "the algorithm code directory is downloaded Rules:\n|\n"
)
EDITS: dict[str, tuple[str, Callable[[str], str]]] = {
    # pipe tables: a request field dropped
    "dropped": (SEED_004, lambda t: edit(t, DROPPED_ROW, "")),
    # web text: a type changed
    "type": (SEED_003, lambda t: edit(t, "start_time\n\nLong\n", "start_time\n\nBoolean\n")),
    # web text: a documented value gone
    "values": (SEED_003, lambda t: edit(t, "  • Abnormal: abnormal\n", "")),
}


@pytest.fixture(scope="module")
def first_update(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], FirstUpdate]:
    """The first two updates with ``EDITS[change]``'s page, made once per module and change
    (the dropped field's are where two tests start)."""
    made: dict[str, FirstUpdate] = {}

    def first(change: str) -> FirstUpdate:
        if change not in made:
            folder = tmp_path_factory.mktemp(change)
            repo = repository_copy(folder / "repo")
            seed, edit_page = EDITS[change]
            text = edit_page(seed_text(seed))
            assert text != seed_text(seed)
            page = write_page(folder, f"{change}-revision.txt", text)
            spec_before, result = api_of(repo), update(repo, page)
            before_second = tree(root_of(repo))
            second = update(repo, page)
            made[change] = FirstUpdate(
                root_of(repo), page, spec_before, result, second, before_second, tree(root_of(repo))
            )
        return made[change]

    return first


@pytest.mark.parametrize("change", sorted(EDITS))
def test_a_change_that_needs_a_person_is_one_stub_and_the_spec_stays(
    first_update: Callable[[str], FirstUpdate], tmp_path: Path, change: str
) -> None:
    seed = EDITS[change][0]
    first = first_update(change)
    repo, page, result = first.copy_to(tmp_path), first.page, first.result
    assert result.exit_code == 1, result.output
    # Nothing additive: the API stays; at most the schema model's quotes follow the new page
    # (a patch release).
    assert api_of(repo) == first.spec_before
    assert "the spec is unchanged" in result.output or "(patch:" in result.output
    assert len(todo_ids(repo)) == 1, todo_ids(repo)
    assert first.second.exit_code == 1
    assert first.after_second == first.before_second
    # Decided, the question is not asked again, and the decision settles it -- a dropped field
    # too (its stub records the drop by the page that dropped it): the update exits 0, and so
    # does docs diff of the new page in place of the old one.
    ledger = repo.parent / "ledger.yaml"
    ledger.write_text(
        ledger.read_text(encoding="utf-8").replace("decision: TODO", "decision: decided"), "utf-8"
    )
    again = update(repo, page)  # the decision may refresh the schema model once
    assert again.exit_code == 0, again.output
    decided = tree(root_of(repo))
    assert update(repo, page).exit_code == 0
    assert tree(root_of(repo)) == decided
    replaces = ["--replaces", str(seeds(repo) / seed)]
    recorded = seeds(repo) / page.name
    diff = CliRunner().invoke(cli, ["docs", "diff", str(recorded), *replaces, "--spec", str(repo)])
    assert diff.exit_code == 0, diff.output


def test_a_drop_is_asked_once_and_settled_once_decided(
    first_update: Callable[[str], FirstUpdate], tmp_path: Path
) -> None:
    first = first_update("dropped")
    repo, page = first.copy_to(tmp_path), first.page
    assert first.result.exit_code == 1
    ledger = repo.parent / "ledger.yaml"
    (stub,) = [e for e in read_yaml(ledger)["entries"] if e["decision"] == "TODO"]
    assert [(s["seed"], s["says"]) for s in stub["sources"]] == [
        (page.name, "(absent: the new page dropped it)")
    ]
    head, _, tail = ledger.read_text(encoding="utf-8").partition(f"  - id: {stub['id']}\n")

    def decide(seed_name: str, says: str) -> int:
        """The stub decided, its source citing ``seed_name`` saying ``says``: the exit."""
        decided = (
            tail.replace(f"seed: {page.name}", f"seed: {seed_name}")
            .replace("'(absent: the new page dropped it)'", f"'{says}'")
            .replace("decision: TODO", "decision: keep it")
            .replace("expect: {}", "expect: {type: string}")
        )
        ledger.write_text(f"{head}  - id: {stub['id']}\n{decided}", encoding="utf-8")
        return update(repo, page).exit_code

    # While the stub is TODO the drop stays open; once decided, a page recorded without the
    # field is a decision taken for the schema (issue 33): the revision asks nothing again,
    # whichever page the decision recorded.
    assert first.second.exit_code == 1
    assert decide(page.name, "(absent: dropped)") == 0
    assert decide(SEED_003, "(absent: the new page dropped it)") == 0
    assert decide(page.name, "(absent)") == 0
    ledger.write_text(f"{head}  - id: {stub['id']}\n{tail}", encoding="utf-8")  # TODO again
    assert update(repo, page).exit_code == 1


# --- a recorded revision carries the evidence of the revision it replaces ---------------------


def test_every_stored_page_still_settles_after_an_update_and_the_old_page_stays(
    additive: Additive,
) -> None:
    repo, page, result = additive.repo, additive.page, additive.result
    assert additive.stored_pages_settled_before == 0
    assert result.exit_code == 0, result.output
    assert "ledger entry(ies) now cite the new page too" in result.output
    # The old revision is kept (pages are never deleted; entries still cite it), and a plain
    # docs diff of every stored page -- the new one beside the old, without --replaces --
    # settles as before, as does the new page on its own.
    assert (seeds(repo) / SEED_004).read_bytes() == seed_path_bytes(SEED_004)
    assert docs_diff_exit(repo, *sorted(seeds(repo).glob("*.txt"))) == 0
    assert docs_diff_exit(repo, seeds(repo) / page.name) == 0
    entries = read_yaml(repo.parent / "ledger.yaml")["entries"]
    cited = [e for e in entries if any(s.get("seed") == page.name for s in e["sources"])]
    assert cited
    # the new page is cited where the old revision was, besides it
    assert all(any(s.get("seed") == SEED_004 for s in e["sources"]) for e in cited)
    assert additive.again.exit_code == 0, additive.again.output
    assert "nothing to write" in additive.again.output
    assert additive.after_again == additive.before_again


# --- the seeds as revisions of each other -------------------------------------------------------


def test_the_terminate_seeds_as_new_revisions_of_each_other(repo: Path, tmp_path: Path) -> None:
    # Start from the old RST page as the only recorded terminate page; the English web page
    # and then the Chinese one come as new revisions.
    index = seeds(repo).parent / "index.yaml"
    text = index.read_text(encoding="utf-8")
    for dropped in (SEED_000, SEED_001):
        start = text.index(f"- file: seeds/{dropped}")
        text = text[:start] + text[text.index("- file:", start + 1) :]
    index.write_text(text, encoding="utf-8")
    create_and_show = [seeds(repo) / SEED_003, seeds(repo) / SEED_004]
    other_exits = [docs_diff_exit(repo, p) for p in create_and_show]
    english = write_page(tmp_path, "terminate-en-2025-03.txt", seed_text(SEED_000))
    chinese = write_page(tmp_path, "terminate-zh-2022-04.txt", seed_text(SEED_001))
    for page, source in ((english, SEED_002), (chinese, english.name)):
        result = update(repo, page)
        assert result.exit_code in (0, 1), result.output
        assert f"a new revision of seeds/{source} " in result.output
        recorded = read_index(seeds(repo).parent).by_name(page.name)
        assert recorded is not None
        assert (recorded.operation, recorded.replaces) == ("StopTrainingJob", source)
        want = ("en", "updated 2025-03-14") if page == english else ("zh", "updated 2022-04-08")
        assert (recorded.language, recorded.revision) == want
        assert [docs_diff_exit(repo, p) for p in create_and_show] == other_exits
        before = tree(root_of(repo))
        assert update(repo, page).exit_code == result.exit_code
        assert tree(root_of(repo)) == before
    assert load_spec(repo).document  # still a spec


def test_the_terminate_seeds_under_their_own_names_ask_nothing_the_ledger_decided(
    repo: Path, tmp_path: Path
) -> None:
    # The old RST page is the only recorded terminate page; the English web page (2025) comes
    # as its new revision, then the Chinese one (2022) as the English one's -- each under its
    # own name, so the ledger's evidence of that page is its own.
    index = seeds(repo).parent / "index.yaml"
    text = index.read_text(encoding="utf-8")
    for dropped in (SEED_000, SEED_001):
        start = text.index(f"- file: seeds/{dropped}")
        text = text[:start] + text[text.index("- file:", start + 1) :]
    index.write_text(text, encoding="utf-8")
    given = tmp_path / "given"
    given.mkdir()
    english, chinese = (write_page(given, s, seed_text(s)) for s in (SEED_000, SEED_001))
    every_page = sorted(seeds(repo).glob("*.txt"))
    # What the Chinese revision no longer lists that the English one did.
    listed = {
        name: {(e.side, normalise_field(e.path)) for e in extract_page(seeds(repo) / name).fields}
        for name in (SEED_000, SEED_001)
    }
    gone = {path for _, path in listed[SEED_000] - listed[SEED_001]}
    assert update(repo, english).exit_code == 0  # the ledger knows what this page says
    assert todo_ids(repo) == []
    assert gone  # the Chinese page lists fewer fields than the English one
    # ... and the ledger already recorded the Chinese page without them, and decided: the
    # revision asks nothing again (issue 33: a decided value is settled, never a stub).
    result = update(repo, chinese)
    assert result.exit_code == 0, result.output
    assert todo_ids(repo) == []
    assert docs_diff_exit(repo, *every_page) == 0
    before = tree(root_of(repo))
    assert update(repo, chinese).exit_code == 0
    assert tree(root_of(repo)) == before


def test_a_value_the_other_language_of_the_page_does_not_list_is_a_decision_not_new_drift(
    repo: Path, tmp_path: Path
) -> None:
    # The English terminate page adds a flavor type; the Chinese and RST pages of the same
    # operation, still current, list three. Adding it to the spec would make them disagree:
    # it is one decision (a stub to decide), and the spec stays.
    text = edit(
        seed_text(SEED_000),
        "Resource flavor type. Options:\n\n  • CPU\n",
        "Resource flavor type. Options:\n\n  • CPU\n\n  • NPU\n",
    )
    page = write_page(tmp_path, "terminate-en-2026-11.txt", text)
    spec_before = api_of(repo)
    result = update(repo, page)
    assert result.exit_code == 1, result.output
    assert "a decision, not a change: set the documented values of `flavor_type`" in result.output
    assert api_of(repo) == spec_before
    (stub,) = [
        e for e in read_yaml(repo.parent / "ledger.yaml")["entries"] if e["decision"] == "TODO"
    ]
    assert (stub["kind"], stub["field"]) == ("enum", "tasks.task_resource.flavor_type")
    ledger = repo.parent / "ledger.yaml"
    ledger.write_text(
        ledger.read_text(encoding="utf-8").replace("decision: TODO", "decision: later"), "utf-8"
    )
    assert update(repo, page).exit_code == 0
    assert docs_diff_exit(repo, *sorted(seeds(repo).glob("*.txt"))) == 0


# --- one transaction -----------------------------------------------------------------------------


def test_an_update_that_cannot_write_changes_nothing(repo: Path, tmp_path: Path) -> None:
    page = revision_003(tmp_path)
    ledger = repo.parent / "ledger.yaml"
    before = tree(root_of(repo))
    ledger.chmod(0o444)
    try:
        result = update(repo, page)
    finally:
        ledger.chmod(0o644)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert lines[-1].startswith("error: ")
    assert "ledger.yaml" in lines[-1]
    assert "Traceback" not in result.output
    assert tree(root_of(repo)) == before


def test_a_page_of_no_operation_is_one_error_line(repo: Path, tmp_path: Path) -> None:
    # The delete page, moved to a path the spec has no operation for.
    family = seeds(repo).parent / "family" / "deleting_a_training_job_2024-11.rst"
    page = tmp_path / "deleting_a_training_job_tag_2024-11.rst"
    text = family.read_text(encoding="utf-8")
    page.write_text(text.replace("/training-jobs/", "/training-job-tags/"), encoding="utf-8")
    result = update(repo, page)
    assert result.exit_code == 2
    assert result.output.startswith("error: ")
    assert "no operation of the spec" in result.output


# --- --propose patch paths are relative to the repository root ----------------------------------


def test_the_patch_applies_in_the_repository_root_wherever_it_was_made(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = seed_text(SEED_004).replace(LOCAL_CODE_DIR, NEW_LOG_LEVEL + LOCAL_CODE_DIR, 1)
    page = write_page(tmp_path, "create-2026-11.txt", text)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    patch = elsewhere / "change.patch"
    args = ["docs", "diff", str(page), "--spec", str(repo), "--propose", str(patch)]
    assert CliRunner().invoke(cli, args).exit_code == 1
    assert patch.read_text(encoding="utf-8").startswith(
        "--- a/spec/modelarts_kit_spec/openapi.yaml\n+++ b/spec/modelarts_kit_spec/openapi.yaml\n"
    )
    assert "+          - debug\n" in patch.read_text(encoding="utf-8")  # its documented values
    git = shutil.which("git")
    assert git is not None
    applied = subprocess.run(
        [git, "apply", "--check", str(patch)], cwd=root_of(repo), capture_output=True, check=False
    )
    assert applied.returncode == 0, applied.stderr


# --- the index of the recorded pages ------------------------------------------------------------


def test_the_index_records_every_page_once_and_nothing_else() -> None:
    folder = Path(__file__).resolve().parents[2] / "spec" / "sources"
    index = read_index(folder)
    files = {p.file for p in index.pages}
    on_disk = {
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file() and p.suffix in (".txt", ".rst") and p.parent != folder
    }
    assert files == on_disk
    names = [p.name for p in index.pages]
    assert len(names) == len(set(names))  # ledger entries cite bare names
    seeds_ = {p.name: p for p in index.pages if p.file.startswith("seeds/")}
    assert (seeds_[SEED_001].language, seeds_[SEED_002].format) == ("zh", "rst")
    assert {seeds_[s].operation for s in (SEED_000, SEED_001, SEED_002)} == {"StopTrainingJob"}


# --- the README's docs update block, end to end --------------------------------------------------

README = Path(__file__).resolve().parents[2] / "README.md"


def readme_update_commands() -> list[tuple[list[str], int]]:
    """The commands of README's "One command: `docs update`" block, with the exit code each
    line's comment promises (the plan exits like the run it plans)."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("### One command: `docs update`") :]
    block = section[section.index("```sh\n") + 6 : section.index("```\n", section.index("```sh"))]
    commands = []
    for line in block.splitlines():
        command, _, comment = line.partition("#")
        words = command.split()
        if words and words[0] == "modelarts-kit":
            promised = re.search(r"exit (\d)", comment)
            commands.append((words[1:], int(promised.group(1)) if promised else -1))
    return commands


def test_the_readme_docs_update_block_runs_end_to_end(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    commands = readme_update_commands()
    assert [words[:2] for words, _ in commands] == [["docs", "update"]] * 3
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    shutil.copy(revision_003(tmp_path), work / "new-003.txt")
    before = tree(root_of(repo))
    for number, (words, promised) in enumerate(commands):
        if number == 2:  # the person decides the stubs the run before wrote
            ledger = repo.parent / "ledger.yaml"
            text = ledger.read_text(encoding="utf-8")
            text = text.replace(
                "decision: TODO\n    expect: {}\n", "decision: later\n    expect: {}\n", 1
            )
            text = text.replace(
                "decision: TODO\n    expect: {}\n",
                "decision: keep\n    expect: {type: integer}\n",
                1,
            )
            ledger.write_text(text, encoding="utf-8")
        result = CliRunner().invoke(cli, [*words, "--spec", str(repo)])
        want = promised if promised >= 0 else 1  # the dry run: decisions would be open
        assert result.exit_code == want, (words, result.output)
        if "--dry-run" in words:
            assert tree(root_of(repo)) == before
    assert todo_ids(repo) == []


def test_a_failure_swapping_generated_puts_every_file_back(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = seed_text(SEED_004).replace(LOCAL_CODE_DIR, NEW_LOG_LEVEL + LOCAL_CODE_DIR, 1)
    page = write_page(tmp_path, "create-2026-11.txt", text)
    before = tree(root_of(repo))
    replace = os.replace

    def failing_replace(source: str | Path, target: str | Path) -> None:
        # generated/ is swapped last: the spec, ledger, page, index and changelog are in.
        if Path(target).name == "generated" and Path(source).name == "package":
            raise OSError(errno.EXDEV, "Invalid cross-device link")
        replace(source, target)

    monkeypatch.setattr(os, "replace", failing_replace)
    result = update(repo, page)
    assert result.exit_code == 2, result.output
    assert result.output.strip().splitlines()[-1].startswith("error: ")
    assert "generated" in result.output
    assert tree(root_of(repo)) == before
    leftovers = [p.name for p in root_of(repo).rglob(".modelarts-kit-staged-*")]
    assert leftovers == []


@pytest.mark.parametrize(
    ("name", "recorded_as"),
    [
        ("README.md", "README-2.md"),
        ("index.yaml", "index-2.yaml"),
        ("readme.MD", "readme-2.MD"),
        (SEED_003, SEED_003.replace(".txt", "-2.txt")),
    ],
)
def test_a_page_named_like_a_file_there_is_recorded_under_a_free_name(
    repo: Path, tmp_path: Path, name: str, recorded_as: str
) -> None:
    """Issue 34 item 4: a page file named README.md overwrote spec/sources/seeds/README.md
    and was recorded as a page (index.yaml likewise). A recorded name never collides with
    a file of the folder, the index or a page recorded in any folder (in any case)."""
    text = seed_text(SEED_004).replace(LOCAL_CODE_DIR, NEW_LOG_LEVEL + LOCAL_CODE_DIR, 1)
    folder = tmp_path / "new"
    folder.mkdir()
    page = write_page(folder, name, text)
    sources = seeds(repo).parent
    before = {p: p.read_bytes() for p in sources.rglob("*") if p.is_file()}
    result = update(repo, page)
    assert result.exit_code == 0, result.output
    for path, data in before.items():
        if path.name != "index.yaml" or path.parent != sources:
            assert path.read_bytes() == data, f"{path} was overwritten"
    assert (seeds(repo) / recorded_as).read_bytes() == page.read_bytes()
    index = read_index(sources)
    recorded = index.by_name(recorded_as)
    assert recorded is not None
    assert (recorded.file, recorded.replaces) == (f"seeds/{recorded_as}", SEED_004)
    assert [p.name for p in index.pages].count(name) == (1 if name == SEED_003 else 0)


# --- stale evidence: "page X lacks Y" where X's replacement has Y -------------------------------

REAL_TERMINATE_2024_06 = (
    Path(__file__).resolve().parents[2]
    / "benchmarks"
    / "revisions"
    / "core"
    / "terminate_v2024-06_99da672.rst"
)


def test_stale_evidence_of_the_replaced_page_is_reported_and_fixed(repo: Path) -> None:
    # The ledger records 002 (the terminate RST page) without algorithm.local_code_dir; the
    # page's real 2024-06 revision documents it. The update reports the entry and cites the
    # new page in it, so the entry no longer describes the current page wrongly.
    result = update(repo, REAL_TERMINATE_2024_06)
    assert result.exit_code == 0, result.output
    assert "stale evidence fixed:" in result.output
    assert "algorithm-local-code-dir-presence" in result.output
    entries = {e["id"]: e for e in read_yaml(repo.parent / "ledger.yaml")["entries"]}
    sources = entries["algorithm-local-code-dir-presence"]["sources"]
    assert {"seed": SEED_002, "table": "Table 7 JobAlgorithmResponse", "says": "(absent)"} in (
        sources
    )
    (new,) = [s for s in sources if s.get("seed") == REAL_TERMINATE_2024_06.name]
    assert new["says"] == "algorithm.local_code_dir String"
    recorded = seeds(repo) / REAL_TERMINATE_2024_06.name
    assert docs_diff_exit(repo, recorded) == 0
    # The schema model is refreshed in the same transaction: its quotes of 002's rows now
    # come from the revision that replaced it; only evidence changed, a patch release.
    spec_text = repo.read_text(encoding="utf-8")
    assert f"'seeds/{REAL_TERMINATE_2024_06.name} | Table 12 auto_search, row algo_configs" in (
        spec_text
    )
    assert "(patch: descriptions or examples only)" in result.output
    before = tree(root_of(repo))
    assert update(repo, REAL_TERMINATE_2024_06).exit_code == 0
    assert tree(root_of(repo)) == before  # a second run writes nothing


def _with_kind_value(text: str, value: str) -> str:
    """The RST terminate page with ``value`` added to kind's list, the grid kept aligned."""
    item = "-  **mrs_job**: MRS job [- **edge_job**: Edge job] (tag:hk,hc,fcs,fcs-super)"
    lines = text.split("\n")
    at = next(n for n, line in enumerate(lines) if item in line)
    start = lines[at].index(item)
    added = f"-  **{value}**: A job"
    row = lines[at][:start] + added.ljust(len(item)) + lines[at][start + len(item) :]
    lines[at + 1 : at + 1] = [lines[at - 1], row]
    return "\n".join(lines)


def test_an_added_enum_value_reaches_the_spec_as_an_additive_change(
    repo: Path, tmp_path: Path
) -> None:
    # 002 writes edge_job as a region-tagged item after mrs_job: read as a value, so the
    # revision adds visualization_job alone, an additive change (minor), not a stub.
    page = write_page(
        tmp_path,
        "terminate-rst-2026.txt",
        _with_kind_value(seed_text(SEED_002), "visualization_job"),
    )
    result = update(repo, page, dry_run=True)
    assert result.exit_code == 0, result.output
    assert "1 additive change(s) made in the spec" in result.output
    assert "visualization_job, edge_job" in result.output
    assert "(minor: additive: no client breaks)" in result.output
