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
layered). Every step works on one staged, in-memory project
(:class:`~modelarts_kit_vendordocs.staged.StagedProject`: the spec, ledger and sources index
read once, each page read once), and the files are written at the end as one transaction;
``dry_run`` writes nothing. A page already recorded is matched to the page it
replaced, so the same command run again finds nothing left to do.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from modelarts_kit_spec.diff import Change, diff_documents, release_level
from modelarts_kit_spec.load import Spec, parse_yaml_text, read_input_text

from modelarts_kit_vendordocs.carry import carried_sources
from modelarts_kit_vendordocs.decided import apply_decisions
from modelarts_kit_vendordocs.drift import (
    DriftFinding,
    DriftReport,
    FindingGroup,
    compare,
    group_findings,
)
from modelarts_kit_vendordocs.errors import VendorDocsError
from modelarts_kit_vendordocs.inventory import Inventory
from modelarts_kit_vendordocs.matching import path_key
from modelarts_kit_vendordocs.pagediff import PageComparison, compare_pages
from modelarts_kit_vendordocs.predecessor import already_recorded, predecessor
from modelarts_kit_vendordocs.project import project_for
from modelarts_kit_vendordocs.propose import (
    Proposal,
    ProposalInputs,
    Values,
    add_ledger_sources,
    documented_values,
    propose_from,
    replace_scalar,
)
from modelarts_kit_vendordocs.sources import (
    RecordedPage,
    SourceIndex,
    language_of,
    revision_of,
)
from modelarts_kit_vendordocs.staged import EMPTY_LEDGER, StagedPage, StagedProject
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


@dataclass(frozen=True)
class _Run:
    """The pages one update diffs: the new page, the operation's other current pages, and the
    page the new one replaces."""

    page: Path
    others: list[Path]
    replaces: Path


# --- 1. matching --------------------------------------------------------------------------------


def _operation_of(page: Path, inventory: Inventory, spec: Spec) -> str:
    match = spec.match(inventory.method, inventory.path)
    if match is None or match.operation is None:
        raise UpdateError(
            f"{page}: documents {inventory.method} {inventory.path}, which no operation of the "
            "spec has (rule: docs update updates the pages of the spec's operations)"
        )
    return match.operation.operation_id


def _already_recorded(stage: StagedProject, data: bytes) -> RecordedPage | None:
    """The recorded page with these very bytes (a page updated before, under any name)."""
    return already_recorded(stage.index, data, stage.source_path, stage.page_bytes)


def _source_for(
    stage: StagedProject, operation: str, text: str, page_format: str
) -> RecordedPage | None:
    return predecessor(stage.index, operation, text, page_format)


# --- 3. the drift of the staged pages against a staged spec -------------------------------------


def _revision_drift(stage: StagedProject, spec: Spec, run: _Run) -> DriftReport:
    """``docs diff NEW OTHERS... --replaces OLD`` on the staged pages, spec and ledger."""
    new, old = stage.page(run.page).inventory, stage.page(run.replaces).inventory
    if path_key(new.method, new.path) != path_key(old.method, old.path):
        raise UpdateError(
            f"{run.page}: documents {new.method} {new.path}, but the page it replaces, "
            f"{run.replaces}, documents {old.method} {old.path}; a page replaces a page of the "
            "same operation"
        )
    others = [stage.page(p).inventory for p in run.others]
    return compare([new, *others], spec, stage.decisions(), [(new, old)])


# --- 4. additions to shared schemas -----------------------------------------------------------


def _other_pages_drift(
    stage: StagedProject, operation: str, spec: Spec, run: _Run
) -> list[DriftFinding]:
    """What the current pages of every other operation say against ``spec``, and those of
    ``operation`` (``run``)."""
    findings: list[DriftFinding] = []
    operations = {op.operation_id for op in spec.operations}
    for other in sorted({p.operation for p in stage.index.pages if p.operation} - {operation}):
        pages = [stage.recorded(p).inventory for p in stage.index.current(other)]
        if pages and other in operations:
            report = compare(pages, spec, stage.decisions())
            findings.extend(f for op in report.operations for f in op.findings)
    report = _revision_drift(stage, spec, run)
    findings.extend(f for op in report.operations for f in op.findings)
    return findings


def _shared_additions(
    stage: StagedProject, operation: str, proposal: Proposal, run: _Run
) -> set[str]:
    """The additions of ``proposal`` that would make other current pages disagree with the
    spec: another operation's (a field added to a schema they share, which their pages do not
    list), or another current page of the same operation (a value added that the page in
    another language or format does not list)."""
    if not proposal.applied:
        return set()
    before = _other_pages_drift(stage, operation, stage.spec, run)
    after = _other_pages_drift(stage, operation, stage.spec_of(proposal.spec.text), run)
    known = {(f.operation, f.kind, f.field, f.page) for f in before}
    new = [f for f in after if (f.operation, f.kind, f.field, f.page) not in known]
    touched = [f.pointer or f.schema or "" for f in new]
    return {
        action
        for action, schema in proposal.schemas.items()
        if any(p == schema or p.startswith(schema + "/") for p in touched)
    }


def _propose(
    stage: StagedProject, report: DriftReport, values: Values, decide: set[str] | None = None
) -> Proposal:
    """``docs diff --propose`` on the staged spec and ledger."""
    inputs = ProposalInputs(
        stage.project,
        stage.spec_text,
        stage.ledger_text,
        stage.ledger.entries if stage.ledger_text else (),
        stage.spec,
    )
    return propose_from(report, inputs, values=values, decide=decide or ())


# --- 6. recording ---------------------------------------------------------------------------


def _record(
    stage: StagedProject, page: StagedPage, operation: str, source: RecordedPage
) -> RecordedPage:
    """Record ``page`` beside the page it replaces (written when the update commits)."""
    text = page.data.decode("utf-8", "replace")
    folder = PurePosixPath(source.file).parent
    recorded = RecordedPage(
        file=(folder / _recorded_name(stage, folder, page.path.name)).as_posix(),
        operation=operation,
        language=language_of(text),
        format=page.inventory.format,
        revision=revision_of(text),
        replaces=source.name,
    )
    stage.index = stage.index.with_page(recorded)
    stage.new_pages[stage.project.sources / recorded.file] = page.data
    stage.given[recorded.name] = page.path
    return recorded


# The most names tried for one page before the update gives up (``NAME-2.ext``, ...).
MAX_NAME_TRIES = 1000


def _recorded_name(stage: StagedProject, folder: PurePosixPath, wanted: str) -> str:
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
    stage: StagedProject,
    report: DriftReport,
    page: str,
    seed: str,
    replaced: str,
    listed: list[int],
) -> list[str]:
    """Cite the recorded page ``seed`` in every entry that settles one of its findings only
    with the evidence of the page it replaces (see :mod:`modelarts_kit_vendordocs.carry`);
    returns those entries' ids."""
    carried = carried_sources(
        report, stage.decisions(), page=page, seed=seed, replaced=replaced, listed=listed
    )
    if not carried:
        return []
    index = {entry.id: entry.index for entry in stage.ledger.entries}
    additions = {index[entry_id]: sources for entry_id, sources in carried.items()}
    stage.put_ledger(add_ledger_sources(stage.project.ledger, stage.ledger_text, additions))
    return sorted(carried)


def _fix_stale_evidence(
    stage: StagedProject, page: Inventory, seed: str, replaced: str
) -> list[str]:
    """Cite the new page in every entry that records the page it replaces without a field the
    new page documents (see :mod:`modelarts_kit_vendordocs.stale`); returns their ids."""
    entries = stage.ledger.entries
    additions = stale_sources(entries, replaced=replaced, seed=seed, page=page)
    if not additions:
        return []
    stage.put_ledger(add_ledger_sources(stage.project.ledger, stage.ledger_text, additions))
    return sorted(entry.id for entry in entries if entry.index in additions)


# --- one page -------------------------------------------------------------------------------


def _match(stage: StagedProject, page: Path) -> PageUpdate:
    """Steps 1 and 2: the page's operation, how it is recorded, the page it replaces, and the
    comparison of the two revisions."""
    staged = stage.page(page)
    inventory = staged.inventory
    operation = _operation_of(page, inventory, stage.spec)
    recorded = _already_recorded(stage, staged.data)
    if recorded is not None:
        source = stage.index.by_name(recorded.replaces) if recorded.replaces else None
    else:
        source = _source_for(stage, operation, staged.text, inventory.format)
    result = PageUpdate(page, operation, source, None, recorded, recorded is not None)
    if source is None:
        if recorded is None:
            raise UpdateError(
                f"{page}: no recorded page of {operation} to replace (rule: record the first "
                "page of an operation in spec/sources/index.yaml by hand)"
            )
        return result  # the first recorded page of its operation: nothing to compare
    old = stage.recorded(source)
    result.comparison = compare_pages(old.inventory, inventory, old.text, staged.text)
    return result


def _update_page(stage: StagedProject, page: Path) -> PageUpdate:
    result = _match(stage, page)
    source, recorded = result.source, result.recorded
    if source is None:
        return result
    skip = (source.name, page.name, recorded.name if recorded else page.name)
    others = [stage.source_path(p) for p in stage.index.current(result.operation)]
    run = _Run(page, [p for p in others if p.name not in skip], stage.source_path(source))
    report = _revision_drift(stage, stage.spec, run)
    result.changes = group_findings(f for op in report.operations for f in op.findings)
    inventory = stage.page(page).inventory
    values = documented_values([inventory])
    proposal = _propose(stage, report, values)
    shared = _shared_additions(stage, result.operation, proposal, run)
    if shared:
        proposal = _propose(stage, report, values, shared)
    stage.put_spec(proposal.spec.text)
    stage.put_ledger(proposal.ledger.text or proposal.ledger.original)
    result.applied, result.stubs, result.pending = (
        proposal.applied,
        proposal.stubs,
        proposal.pending,
    )
    result.shared = sorted(shared)
    if recorded is None:
        result.recorded = _record(stage, stage.page(page), result.operation, source)
    after = _revision_drift(stage, stage.spec, run)
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


def _refresh_schema_model(stage: StagedProject) -> None:
    """Derive ``x-modelarts-schema-model`` (strengths, evidence, quotes) from the staged spec,
    ledger and pages, the rows of a replaced page quoted in its current revision, and splice
    it into the staged spec (issue 33: no script reading tests, the same transaction)."""
    from modelarts_kit_spec.schemamodel.derive import derive, render, splice

    derivation = derive(
        stage.spec.document,
        stage.ledger,
        sources_dir=stage.project.sources,
        pages=stage.source_texts(),
        replaces=_current_revisions(stage.index),
    )
    stage.put_spec(splice(stage.spec_text, render(derivation.extension)))


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


def _new_version(stage: StagedProject) -> tuple[str, str, str, list[Change]]:
    """(old version, new version, release level, spec diff's changes) for the staged spec,
    whose ``info.version`` is set to the new version."""
    old_doc = parse_yaml_text(stage.original_spec, str(stage.project.spec))
    new_doc = stage.spec.document
    old_version = str(old_doc["info"]["version"])
    changes = diff_documents(old_doc, new_doc, labels=(f"version {old_version}", "docs update"))
    level = release_level(changes)
    version = _bumped(old_version, level)
    bumped = replace_scalar(stage.spec_text, "/info/version", version)
    if bumped is None:
        raise UpdateError(f"{stage.project.spec}: /info/version is not a one-line value")
    stage.put_spec(bumped)
    return old_version, version, level, changes


def _regenerate(stage: StagedProject, release: Release, transaction: Transaction) -> Path:
    """Render the client from the staged spec into a folder beside ``generated/`` (so the
    commit is a rename) and add the swap to ``transaction``; returns that folder.

    The generator reads its spec by path: the staged spec is written there once, its final
    version, beside the rendered package (and removed with it)."""
    out = stage.project.generated
    release.check_client(stage.project.spec, out)
    staging = Path(tempfile.mkdtemp(prefix=".modelarts-kit-staged-generated-", dir=out.parent))
    try:
        spec = staging / "openapi.yaml"
        spec.write_text(stage.spec_text, encoding="utf-8")
        release.render_client(spec, staging / "package")
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    transaction.replace_directory(out, staging / "package")
    return staging


@dataclass
class _Written:
    """What the transaction will write, and the release it makes."""

    transaction: Transaction = field(default_factory=Transaction)
    version: tuple[str, str] | None = None  # (old, new) when the spec changed
    bump: str = ""
    section: str = ""


def _stage_files(stage: StagedProject, release: Release) -> _Written:
    """Add every file the update changes to one transaction: the spec (its version bumped)
    and the changelog when the spec changed, the ledger, the new pages and the index."""
    project, out = stage.project, _Written()
    if stage.spec_text != stage.original_spec:
        old_version, new_version, out.bump, changes = _new_version(stage)
        out.version = (old_version, new_version)
        existing = read_input_text(project.changelog) if project.changelog.is_file() else None
        changelog = release.changelog(existing, new_version, old_version, changes)
        heading = f"## {new_version}"
        out.section = next((s for s in changelog.splitlines() if s.startswith(heading)), "")
        out.transaction.write(project.spec, stage.spec_text)
        out.transaction.write(project.changelog, changelog)
    ledger = stage.ledger_text
    if ledger != stage.original_ledger and ledger.strip() != EMPTY_LEDGER.strip():
        out.transaction.write(project.ledger, ledger)
    for target, data in stage.new_pages.items():
        out.transaction.write(target, data)
    if stage.index.text() != stage.original_index:
        out.transaction.write(stage.index.path, stage.index.text())
    return out


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
    stage = StagedProject.load(project_for(spec_path, ledger_path))
    decided = apply_decisions(stage.spec_text, stage.ledger.entries, str(stage.project.spec))
    stage.put_spec(decided.text)
    results = [_update_page(stage, Path(page)) for page in pages]
    _refresh_schema_model(stage)
    files = _stage_files(stage, release)
    spec_changed = files.version is not None
    written = list(files.transaction.targets)
    if spec_changed:
        written.append(stage.project.generated)
    result = UpdateResult(
        results, files.version, files.bump, files.section, written, spec_changed, dry_run
    )
    result.decided, result.refused = decided.applied, decided.refused
    files.transaction.check()
    if dry_run:
        return result
    staging = _regenerate(stage, release, files.transaction) if spec_changed else None
    try:
        files.transaction.commit()
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
