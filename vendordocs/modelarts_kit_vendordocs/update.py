"""``docs update PAGE...``: bring the spec, ledger, sources and client up to a new page revision.

For each new page, in order:

1. match it to the recorded source of the same operation (``spec/sources/index.yaml``): the
   current revision in the same format and language if there is one, else the same language,
   else any current revision of that operation;
2. compare the two revisions (``docs compare``);
3. diff the spec with the old revision replaced by the new one (``docs diff --replaces``, with
   the operation's other current pages);
4. make the additive changes (with the values the page documents) -- except an addition
   that would make other current pages disagree with the spec (another operation's, sharing
   the schema, or another language or format of the same page not listing a value): that
   becomes a decision instead of new drift;
5. write one ``decision: TODO`` ledger stub per remaining change, never one already asked;
6. record the page in ``spec/sources/`` (beside the page it replaces) and in the index, and
   cite it in every ledger entry the old revision's evidence settled it with (the old
   revision's file stays: pages are never deleted, and it remains the evidence of the
   entries that cite it), so a plain ``docs diff`` of every stored page settles as before;
7. refresh the schema model (``x-modelarts-schema-model``: strengths, evidence, quotes) from
   the staged spec, ledger and pages (:func:`modelarts_kit_spec.schemamodel.derive.derive`,
   the rows of a replaced page quoted in its current revision).

Then, once for the run: regenerate ``generated/`` from the new spec, bump ``info.version`` by
who the changes ``spec diff`` classifies break (:func:`modelarts_kit_spec.diff.release_level`:
a change that breaks clients, or is not a pure addition servers must now serve: major;
additive: minor; only descriptions or examples: patch) and add the version's
section to ``CHANGELOG.md`` -- through a :class:`Release` the CLI composes from the generator's
library API and publish's changelog writer (this package imports neither: the packages are
layered). Everything is worked out on a private copy and written at the end as one
transaction; ``dry_run`` writes nothing. A page already recorded is matched to the page it
replaced, so the same command run again finds nothing left to do.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from modelarts_kit_spec import load_spec, read_ledger
from modelarts_kit_spec.diff import Change, diff_documents, release_level
from modelarts_kit_spec.load import parse_yaml_text, read_input_bytes, read_input_text

from modelarts_kit_vendordocs.carry import carried_sources
from modelarts_kit_vendordocs.decided import apply_decisions
from modelarts_kit_vendordocs.drift import (
    DriftFinding,
    DriftReport,
    FindingGroup,
    diff_pages,
    group_findings,
    load_decisions,
)
from modelarts_kit_vendordocs.errors import VendorDocsError
from modelarts_kit_vendordocs.extract import extract_page, read_page
from modelarts_kit_vendordocs.inventory import Inventory
from modelarts_kit_vendordocs.pagediff import PageComparison, compare_paths
from modelarts_kit_vendordocs.predecessor import already_recorded, predecessor
from modelarts_kit_vendordocs.project import Project, project_for
from modelarts_kit_vendordocs.propose import (
    Proposal,
    add_ledger_sources,
    documented_values,
    propose,
    replace_scalar,
)
from modelarts_kit_vendordocs.sources import (
    RecordedPage,
    SourceIndex,
    language_of,
    read_index,
    revision_of,
)
from modelarts_kit_vendordocs.stale import stale_sources
from modelarts_kit_vendordocs.transaction import Transaction

__all__ = ["PageUpdate", "Release", "UpdateError", "UpdateResult", "render_update", "update"]

_VERSION = re.compile(r"^(\d+)\.(\d+)\.(\d+)$")


class UpdateError(VendorDocsError):
    """A page that cannot be matched or recorded, or a spec whose version cannot be bumped."""


@dataclass(frozen=True)
class Release:
    """The release steps of an update, from the layers above this package (the CLI composes
    them: the generator renders the client, publish writes the changelog)."""

    # (spec, generated/): refuse a folder the generator may not replace
    check_client: Callable[[Path, Path], None]
    # (spec, empty folder): render the client there, verified
    render_client: Callable[[Path, Path], None]
    # (existing changelog or None, new version, previous version, spec diff's changes)
    changelog: Callable[[str | None, str, str, list[Change]], str]


@dataclass
class PageUpdate:
    page: Path
    operation: str
    source: RecordedPage | None  # the recorded revision the page replaces
    comparison: PageComparison | None
    recorded: RecordedPage | None  # how the page is (or was already) recorded
    already_recorded: bool
    applied: list[str] = field(default_factory=list)
    stubs: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)  # changes the ledger already asks about
    shared: list[str] = field(default_factory=list)  # additions turned into decisions
    cited: list[str] = field(default_factory=list)  # entries that now cite the recorded page
    # Entries that recorded the replaced page without a field the new page documents.
    stale: list[str] = field(default_factory=list)
    # The changes the page makes (one per decision, as docs diff groups them), and those
    # still open after the update (the decisions left to a person).
    changes: list[FindingGroup] = field(default_factory=list)
    left: list[FindingGroup] = field(default_factory=list)

    @property
    def open_findings(self) -> int:
        return len(self.left)


@dataclass
class UpdateResult:
    pages: list[PageUpdate]
    version: tuple[str, str] | None  # (old, new) when the spec changed
    bump: str  # "major", "minor", "patch" or "" (the spec did not change)
    changelog: str  # the heading of the new version's changelog section ("" when none)
    written: list[Path]  # files written (or, in a dry run, that would be)
    regenerated: bool
    dry_run: bool
    # Ledger decisions the spec did not hold yet, applied by this run (issue 33 item 5), and
    # those the spec's text could not take ("id: why"; still open).
    decided: tuple[str, ...] = ()
    refused: tuple[str, ...] = ()

    @property
    def open_decisions(self) -> int:
        return sum(p.open_findings for p in self.pages) + len(self.refused)


@dataclass
class _Stage:
    """The private copy the update works on: the spec and ledger as they will be written.

    Every version of the staged spec or ledger is a new file: the spec and ledger readers
    cache by path and modification time, which two writes within one clock tick share."""

    folder: Path
    project: Project
    index: SourceIndex
    spec: Path = Path()
    ledger: Path = Path()
    new_pages: dict[Path, bytes] = field(default_factory=dict)  # target -> bytes
    given: dict[str, Path] = field(default_factory=dict)  # name of a page recorded now -> path
    _versions: int = 0

    def _fresh(self, stem: str, text: str) -> Path:
        self._versions += 1
        path = self.folder / f"{stem}.{self._versions}.yaml"
        path.write_text(text, encoding="utf-8")
        return path

    def put_spec(self, text: str) -> None:
        self.spec = self._fresh("openapi", text)

    def put_ledger(self, text: str) -> None:
        self.ledger = self._fresh("ledger", text)

    def candidate(self, text: str) -> Path:
        """A proposal's spec, tried before it is taken (it shares the staged ledger)."""
        return self._fresh("candidate", text)

    def source_path(self, page: RecordedPage) -> Path:
        """Where to read a recorded page (one recorded by this run is not written yet)."""
        return self.given.get(page.name, self.project.sources / page.file)


@contextmanager
def _staged(project: Project) -> Iterator[_Stage]:
    with tempfile.TemporaryDirectory(prefix="modelarts-kit-update-") as folder:
        stage = _Stage(Path(folder), project, read_index(project.sources))
        stage.put_spec(read_input_text(project.spec))
        ledger = read_input_text(project.ledger) if project.ledger.is_file() else ""
        stage.put_ledger(ledger or "entries: []\n")
        yield stage


# --- 1. matching --------------------------------------------------------------------------------


def _operation_of(page: Path, spec_path: Path) -> str:
    inventory = extract_page(page)
    match = load_spec(spec_path).match(inventory.method, inventory.path)
    if match is None or match.operation is None:
        raise UpdateError(
            f"{page}: documents {inventory.method} {inventory.path}, which no operation of the "
            "spec has (rule: docs update updates the pages of the spec's operations)"
        )
    return match.operation.operation_id


def _already_recorded(stage: _Stage, data: bytes) -> RecordedPage | None:
    """The recorded page with these very bytes (a page updated before, under any name)."""
    return already_recorded(stage.index, data, stage.source_path)


def _source_for(stage: _Stage, operation: str, text: str, page_format: str) -> RecordedPage | None:
    return predecessor(stage.index, operation, text, page_format)


# --- 4. additions to shared schemas -----------------------------------------------------------


def _other_pages_drift(
    stage: _Stage, operation: str, spec: Path, run: tuple[list[Path], Path]
) -> list[DriftFinding]:
    """What the current pages of every other operation say against ``spec``, and those of
    ``operation``: ``run`` is (the new page and the operation's other current pages, the page
    it replaces)."""
    findings: list[DriftFinding] = []
    operations = {op.operation_id for op in load_spec(spec).operations}
    for other in sorted({p.operation for p in stage.index.pages if p.operation} - {operation}):
        pages = [stage.source_path(p) for p in stage.index.current(other)]
        if pages and other in operations:
            report = diff_pages(
                pages, spec_path=spec, ledger_path=stage.ledger, find_replaced=False
            )
            findings.extend(f for op in report.operations for f in op.findings)
    pages, replaces = run
    report = diff_pages(pages, replaces=replaces, spec_path=spec, ledger_path=stage.ledger)
    findings.extend(f for op in report.operations for f in op.findings)
    return findings


def _shared_additions(
    stage: _Stage, operation: str, proposal: Proposal, run: tuple[list[Path], Path]
) -> set[str]:
    """The additions of ``proposal`` that would make other current pages disagree with the
    spec: another operation's (a field added to a schema they share, which their pages do not
    list), or another current page of the same operation (a value added that the page in
    another language or format does not list)."""
    if not proposal.applied:
        return set()
    before = _other_pages_drift(stage, operation, stage.spec, run)
    candidate = stage.candidate(proposal.spec.text)
    after = _other_pages_drift(stage, operation, candidate, run)
    known = {(f.operation, f.kind, f.field, f.page) for f in before}
    new = [f for f in after if (f.operation, f.kind, f.field, f.page) not in known]
    touched = [f.pointer or f.schema or "" for f in new]
    return {
        action
        for action, schema in proposal.schemas.items()
        if any(p == schema or p.startswith(schema + "/") for p in touched)
    }


# --- 6. recording ---------------------------------------------------------------------------


def _record(
    stage: _Stage, page: Path, data: bytes, operation: str, page_format: str, source: RecordedPage
) -> RecordedPage:
    """Record ``page`` beside the page it replaces (written when the update commits)."""
    text = data.decode("utf-8", "replace")
    folder = PurePosixPath(source.file).parent
    recorded = RecordedPage(
        file=(folder / _recorded_name(stage, folder, page.name)).as_posix(),
        operation=operation,
        language=language_of(text),
        format=page_format,
        revision=revision_of(text),
        replaces=source.name,
    )
    stage.index = stage.index.with_page(recorded)
    stage.new_pages[stage.project.sources / recorded.file] = data
    stage.given[recorded.name] = page
    return recorded


# The most names tried for one page before the update gives up (``NAME-2.ext``, ...).
MAX_NAME_TRIES = 1000


def _recorded_name(stage: _Stage, folder: PurePosixPath, wanted: str) -> str:
    """The name ``wanted`` is recorded under in ``folder`` of ``spec/sources``: the page's own
    name unless it collides (with any case) with a file there (``README.md``), the index
    (``index.yaml``), a page recorded in any folder (ledger entries cite bare names) or one
    recorded in this run; then ``STEM-2.ext``, ``STEM-3.ext``, ... A recorded page never
    overwrites a file."""
    sources = stage.project.sources
    taken = {p.name.casefold() for p in stage.index.pages}
    taken |= {stage.index.path.name.casefold()}
    taken |= {path.name.casefold() for path in stage.new_pages}
    if (sources / folder).is_dir():
        taken |= {path.name.casefold() for path in (sources / folder).iterdir()}
    stem, suffix = PurePosixPath(wanted).stem, PurePosixPath(wanted).suffix
    candidates = [wanted, *(f"{stem}-{n}{suffix}" for n in range(2, MAX_NAME_TRIES + 1))]
    for name in candidates:
        if name.casefold() not in taken:
            return name
    raise UpdateError(
        f"{wanted}: no free name in spec/sources/{folder} after {MAX_NAME_TRIES} tries (rule: "
        "a recorded page never overwrites a file); rename the page"
    )


# --- 6b. the evidence the old revision gave -------------------------------------------------


def _carry_evidence(
    stage: _Stage, report: DriftReport, page: str, seed: str, replaced: str, listed: list[int]
) -> list[str]:
    """Cite the recorded page ``seed`` in every entry that settles one of its findings only
    with the evidence of the page it replaces (see :mod:`modelarts_kit_vendordocs.carry`);
    returns those entries' ids."""
    decisions = load_decisions(stage.ledger, stage.spec)
    carried = carried_sources(
        report, decisions, page=page, seed=seed, replaced=replaced, listed=listed
    )
    if not carried:
        return []
    index = {entry.id: entry.index for entry in read_ledger(stage.ledger).entries}
    additions = {index[entry_id]: sources for entry_id, sources in carried.items()}
    text = add_ledger_sources(stage.project.ledger, read_input_text(stage.ledger), additions)
    stage.put_ledger(text)
    return sorted(carried)


def _fix_stale_evidence(stage: _Stage, page: Inventory, seed: str, replaced: str) -> list[str]:
    """Cite the new page in every entry that records the page it replaces without a field the
    new page documents (see :mod:`modelarts_kit_vendordocs.stale`); returns their ids."""
    entries = read_ledger(stage.ledger).entries
    additions = stale_sources(entries, replaced=replaced, seed=seed, page=page)
    if not additions:
        return []
    text = add_ledger_sources(stage.project.ledger, read_input_text(stage.ledger), additions)
    stage.put_ledger(text)
    return sorted(entry.id for entry in entries if entry.index in additions)


# --- one page -------------------------------------------------------------------------------


def _update_page(stage: _Stage, page: Path) -> PageUpdate:
    text = read_page(page)
    data = read_input_bytes(page)
    operation = _operation_of(page, stage.spec)
    recorded = _already_recorded(stage, data)
    inventory = extract_page(page)
    if recorded is not None:
        source = stage.index.by_name(recorded.replaces) if recorded.replaces else None
    else:
        source = _source_for(stage, operation, text, inventory.format)
    result = PageUpdate(page, operation, source, None, recorded, recorded is not None)
    if source is None:
        if recorded is None:
            raise UpdateError(
                f"{page}: no recorded page of {operation} to replace (rule: record the first "
                "page of an operation in spec/sources/index.yaml by hand)"
            )
        return result  # the first recorded page of its operation: nothing to compare
    old = stage.source_path(source)
    result.comparison = compare_paths(old, page)
    others = [
        stage.source_path(p)
        for p in stage.index.current(operation)
        if p.name not in (source.name, page.name, recorded.name if recorded else page.name)
    ]
    report = diff_pages(
        [page, *others], replaces=old, spec_path=stage.spec, ledger_path=stage.ledger
    )
    result.changes = group_findings(f for op in report.operations for f in op.findings)
    values = documented_values([inventory])
    proposal = propose(report, spec_path=stage.spec, ledger_path=stage.ledger, values=values)
    shared = _shared_additions(stage, operation, proposal, ([page, *others], old))
    if shared:
        proposal = propose(
            report, spec_path=stage.spec, ledger_path=stage.ledger, values=values, decide=shared
        )
    stage.put_spec(proposal.spec.text)
    stage.put_ledger(proposal.ledger.text or proposal.ledger.original)
    result.applied, result.stubs, result.pending = (
        proposal.applied,
        proposal.stubs,
        proposal.pending,
    )
    result.shared = sorted(shared)
    if recorded is None:
        result.recorded = _record(stage, page, data, operation, inventory.format, source)
    after = diff_pages(
        [page, *others], replaces=old, spec_path=stage.spec, ledger_path=stage.ledger
    )
    if result.recorded is not None:
        listed = [status.code for status in inventory.status_codes]
        result.cited = _carry_evidence(
            stage, after, page.name, result.recorded.name, source.name, listed
        )
        result.stale = _fix_stale_evidence(stage, inventory, result.recorded.name, source.name)
    result.left = group_findings(f for op in after.operations for f in op.findings)
    return result


# --- the run: version, changelog, generated client, one transaction ---------------------------


def _current_revisions(index: SourceIndex) -> dict[str, str]:
    """Every recorded page a later revision replaces -> the current revision (its file under
    spec/sources/), following chains of revisions."""
    newer = {
        replaced.file: page.file
        for page in index.pages
        if page.replaces and (replaced := index.by_name(page.replaces)) is not None
    }
    out: dict[str, str] = {}
    for first in newer:
        current, seen = newer[first], {first}
        while current in newer and current not in seen:
            seen.add(current)
            current = newer[current]
        out[first] = current
    return out


def _refresh_schema_model(stage: _Stage) -> None:
    """Derive ``x-modelarts-schema-model`` (strengths, evidence, quotes) from the staged spec,
    ledger and pages, the rows of a replaced page quoted in its current revision, and splice
    it into the staged spec (issue 33: no script reading tests, the same transaction)."""
    from modelarts_kit_spec.schemamodel.derive import derive, render, splice

    text = read_input_text(stage.spec)
    document = parse_yaml_text(text, str(stage.project.spec))
    staged = {
        target.relative_to(stage.project.sources).as_posix(): data.decode("utf-8")
        for target, data in stage.new_pages.items()
    }
    derivation = derive(
        document,
        read_ledger(stage.ledger),
        sources_dir=stage.project.sources,
        pages=staged,
        replaces=_current_revisions(stage.index),
    )
    refreshed = splice(text, render(derivation.extension))
    if refreshed != text:
        stage.put_spec(refreshed)


def _bumped(version: str, level: str) -> str:
    match = _VERSION.match(version)
    if match is None:
        raise UpdateError(
            f"info.version {version!r} is not MAJOR.MINOR.PATCH (rule: docs update bumps the "
            "version by what spec diff classifies)"
        )
    major, minor, patch = (int(part) for part in match.groups())
    if level == "major":
        return f"{major + 1}.0.0"
    return f"{major}.{minor + 1}.0" if level == "minor" else f"{major}.{minor}.{patch + 1}"


def _new_version(stage: _Stage, original: str) -> tuple[str, str, str, list[Change]]:
    """(old version, new version, release level, spec diff's changes) for the staged spec,
    whose ``info.version`` is set to the new version."""
    old_doc = parse_yaml_text(original, str(stage.project.spec))
    new_text = read_input_text(stage.spec)
    new_doc = parse_yaml_text(new_text, str(stage.project.spec))
    old_version = str(old_doc["info"]["version"])
    changes = diff_documents(old_doc, new_doc, labels=(f"version {old_version}", "docs update"))
    level = release_level(changes)
    version = _bumped(old_version, level)
    bumped = replace_scalar(new_text, "/info/version", version)
    if bumped is None:
        raise UpdateError(f"{stage.project.spec}: /info/version is not a one-line value")
    stage.put_spec(bumped)
    return old_version, version, level, changes


def _regenerate(stage: _Stage, release: Release, transaction: Transaction) -> Path:
    """Render the client from the staged spec into a folder beside ``generated/`` (so the
    commit is a rename) and add the swap to ``transaction``; returns that folder."""
    out = stage.project.generated
    release.check_client(stage.project.spec, out)
    staging = Path(tempfile.mkdtemp(prefix=".modelarts-kit-staged-generated-", dir=out.parent))
    try:
        release.render_client(stage.spec, staging / "package")
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    transaction.replace_directory(out, staging / "package")
    return staging


def update(
    pages: Sequence[Path],
    release: Release,
    *,
    spec_path: Path | None = None,
    ledger_path: Path | None = None,
    dry_run: bool = False,
) -> UpdateResult:
    """Update the project of ``spec_path`` to the new revisions ``pages`` (module docstring)."""
    if not pages:
        raise UpdateError("no page given")
    project = project_for(spec_path, ledger_path)
    original_spec = read_input_text(project.spec)
    original_ledger = read_input_text(project.ledger) if project.ledger.is_file() else ""
    with _staged(project) as stage:
        original_index = stage.index.text()
        decided = apply_decisions(
            read_input_text(stage.spec), read_ledger(stage.ledger).entries, str(project.spec)
        )
        stage.put_spec(decided.text)
        results = [_update_page(stage, Path(page)) for page in pages]
        _refresh_schema_model(stage)
        spec_changed = read_input_text(stage.spec) != original_spec
        version: tuple[str, str] | None = None
        bump = section = ""
        transaction = Transaction()
        if spec_changed:
            old_version, new_version, bump, changes = _new_version(stage, original_spec)
            version = (old_version, new_version)
            existing = read_input_text(project.changelog) if project.changelog.is_file() else None
            changelog = release.changelog(existing, new_version, old_version, changes)
            heading = f"## {new_version}"
            section = next((s for s in changelog.splitlines() if s.startswith(heading)), "")
            transaction.write(project.spec, read_input_text(stage.spec))
            transaction.write(project.changelog, changelog)
        ledger_text = read_input_text(stage.ledger)
        if ledger_text != original_ledger and ledger_text.strip() != "entries: []":
            transaction.write(project.ledger, ledger_text)
        for target, data in stage.new_pages.items():
            transaction.write(target, data)
        if stage.index.text() != original_index:
            transaction.write(stage.index.path, stage.index.text())
        written = list(transaction.targets)
        if spec_changed:
            written.append(project.generated)
        result = UpdateResult(results, version, bump, section, written, spec_changed, dry_run)
        result.decided, result.refused = decided.applied, decided.refused
        transaction.check()
        if dry_run:
            return result
        staging = _regenerate(stage, release, transaction) if spec_changed else None
        try:
            transaction.commit()
        finally:
            if staging is not None:
                shutil.rmtree(staging, ignore_errors=True)
    return result


# --- the report ---------------------------------------------------------------------------------


def _render_page(update: PageUpdate) -> list[str]:
    from modelarts_kit_vendordocs.pagediff import render_comparison_text

    if update.source is None:
        return [
            f"{update.page}: {update.operation}: already the first recorded page; nothing to do"
        ]
    lines = [
        f"{update.page}: {update.operation}, a new revision of {update.source.file} "
        f"({update.source.language}, {update.source.format})"
    ]
    if update.comparison is not None:
        lines += ["  " + line for line in render_comparison_text(update.comparison).splitlines()]
    lines.append(f"  {len(update.applied)} additive change(s) made in the spec")
    lines += [f"    - {action}" for action in update.applied]
    for action in update.shared:
        lines.append(
            f"    ! a decision, not a change: {action} (other current pages would disagree)"
        )
    lines.append(f"  {len(update.stubs)} new ledger stub(s) with decision: TODO")
    lines += [f"    - {stub}" for stub in update.stubs]
    if update.pending:
        lines.append(
            f"  {len(update.pending)} change(s) the ledger already asks about (no new stub)"
        )
    if update.cited:
        lines.append(
            f"  {len(update.cited)} ledger entry(ies) now cite the new page too (what it still "
            "says that the old revision said)"
        )
    if update.stale:
        lines.append(
            f"  stale evidence fixed: {len(update.stale)} ledger entry(ies) recorded the old "
            f"page without a field the new page documents, now cite it: {', '.join(update.stale)}"
        )
    if update.already_recorded:
        lines.append(f"  already recorded as {update.recorded.file if update.recorded else '?'}")
    elif update.recorded is not None:
        lines.append(f"  recorded as spec/sources/{update.recorded.file}")
    lines.append(f"  {update.open_findings} open finding group(s) after the update")
    return lines


def render_update(result: UpdateResult) -> str:
    """The plan (``--dry-run``) or what was done, for a person."""
    lines: list[str] = []
    if result.decided:
        lines.append(
            f"{len(result.decided)} ledger decision(s) applied to the spec: "
            + ", ".join(result.decided)
        )
    lines += [f"! a decision the spec could not take: {why}" for why in result.refused]
    for page in result.pages:
        lines += _render_page(page)
    if result.version is not None:
        old, new = result.version
        why = {
            "major": "a change breaks clients, or servers beyond an addition",
            "minor": "additive: no client breaks",
            "patch": "descriptions or examples only",
        }[result.bump]
        lines.append(f"info.version {old} -> {new} ({result.bump}: {why})")
        lines.append(f"CHANGELOG.md: {result.changelog}")
        done = "to be regenerated" if result.dry_run else "regenerated"
        lines.append(f"generated/: {done} from the new spec")
    else:
        lines.append("the spec is unchanged: no version bump, no regeneration")
    verb = "would write" if result.dry_run else "wrote"
    if result.written:
        lines.append(f"{verb} {len(result.written)} file(s):")
        lines += [f"  {path}" for path in result.written]
    else:
        lines.append("nothing to write")
    if result.dry_run:
        lines.append("dry run: nothing was written")
    if result.open_decisions:
        lines.append(
            f"{result.open_decisions} change(s) open: decide each decision: TODO entry in the "
            "ledger (decision, expect, reason), then run docs update again"
        )
    else:
        lines.append("no change open")
    return "\n".join(lines)
