"""Publishing: bundle, changelog, HTML reference and the manifest of published versions.

The output directory holds ``openapi.yaml``, ``openapi.json``, ``index.html``,
``CHANGELOG.md`` and ``published.json`` (version -> sha256 of the bundled JSON). Publishing
is deterministic (no timestamps): the same spec, ledger and previous version give
byte-identical files. A version already in ``published.json`` (or equal to the previous
version given) with different content is refused.

``published.json`` also marks the directory as publish's own: where it is absent, an
existing output file (a hand-written ``index.html`` or ``CHANGELOG.md``) is not replaced
unless ``force`` is given. The curated spec's folder, and any output that would land on
the spec or ledger being read, are refused even with ``force``.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from modelarts_kit_sdk.evidence import checked_release
from modelarts_kit_spec.diff import Change, SpecSource, diff_documents, read_source
from modelarts_kit_spec.ledger import Ledger, LedgerEntry, ledger_for, read_ledger
from modelarts_kit_spec.load import (
    JSON,
    SPEC_PATH,
    SpecError,
    parse_spec,
    read_input_text,
    read_yaml,
)
from modelarts_kit_spec.validate import RULES, validate_document

from modelarts_kit_publish.bundle import Bundle, bundle_document, content_digest
from modelarts_kit_publish.changelog import merge_changelog, section_for, split_sections
from modelarts_kit_publish.errors import (
    LedgerUndecidedError,
    PreviousSpecError,
    PublishError,
    VersionReusedError,
)
from modelarts_kit_publish.reference import build_page, render_page

__all__ = ["MANIFEST", "PublishResult", "publish_spec"]

MANIFEST = "published.json"
DEFAULT_OUT = Path("dist/spec")
OUTPUT_FILES = ("openapi.yaml", "openapi.json", "index.html", "CHANGELOG.md", MANIFEST)


@dataclass(frozen=True)
class PublishResult:
    out_dir: Path
    version: str
    sha256: str
    previous_version: str | None
    changes: tuple[Change, ...]
    files: tuple[str, ...]
    republished: bool  # this exact version and content was already published here


def _read_manifest(out_dir: Path) -> dict[str, str]:
    path = out_dir / MANIFEST
    if not path.is_file():
        return {}
    try:
        data = json.loads(read_input_text(path))
    except (SpecError, ValueError) as exc:
        raise PublishError(f"{path}: cannot read the publication manifest: {exc}") from exc
    versions = data.get("published") if isinstance(data, dict) else None
    if not isinstance(versions, dict) or not all(isinstance(v, str) for v in versions.values()):
        raise PublishError(f"{path}: expected {{'published': {{version: sha256}}}}")
    return {str(k): v for k, v in versions.items()}


def _git_prefix(directory: Path) -> str:
    """The path of ``directory`` inside its git work tree ('' at the top)."""
    try:
        result = subprocess.run(
            ["git", "rev-parse", "--show-prefix"],
            cwd=directory,
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError as exc:
        raise PreviousSpecError(f"cannot run git: {exc.strerror}") from exc
    if result.returncode != 0:
        raise PreviousSpecError(f"{directory} is not in a git work tree: {result.stderr.strip()}")
    return result.stdout.strip()


def resolve_previous(previous: str | None, out_dir: Path, spec_path: Path) -> SpecSource | None:
    """The previous published version: a file, ``git:REV:path``, a tag/ref, or the last
    ``openapi.yaml`` published into ``out_dir``."""
    try:
        if previous is None:
            last = out_dir / "openapi.yaml"
            return read_source(str(last)) if last.is_file() else None
        if previous.startswith("git:"):
            return read_source(previous, cwd=spec_path.parent)
        if Path(previous).is_file():
            return read_source(previous)
        # A tag or ref: the spec's own path at that revision.
        path = _git_prefix(spec_path.parent) + spec_path.name
        return read_source(f"git:{previous}:{path}", cwd=spec_path.parent)
    except SpecError as exc:
        raise PreviousSpecError(f"previous version {previous or out_dir}: {exc}") from exc


def _version_of(document: JSON) -> str:
    return str((document.get("info") or {}).get("version", ""))


def _check_version(bundle: Bundle, manifest: dict[str, str], previous: SpecSource | None) -> None:
    known = manifest.get(bundle.version)
    if known is not None and known != bundle.sha256:
        raise VersionReusedError(
            f"version {bundle.version} was already published with different content "
            f"(sha256 {known[:12]}..., now {bundle.sha256[:12]}...); bump info.version"
        )
    same_version = previous is not None and _version_of(previous.document) == bundle.version
    if same_version and previous is not None and content_digest(previous.document) != bundle.sha256:
        raise VersionReusedError(
            f"version {bundle.version} is also the version of {previous.label}, whose content "
            "differs; bump info.version"
        )


def _changelog(
    out_dir: Path,
    bundle: Bundle,
    previous: SpecSource | None,
    manifest: dict[str, str],
    sdk_checked: str | None = None,
) -> tuple[str, str | None, tuple[Change, ...]]:
    path = out_dir / "CHANGELOG.md"
    try:
        existing = read_input_text(path) if path.is_file() else None
    except SpecError as exc:
        raise PublishError(str(exc)) from exc
    kept = split_sections(existing or "").get(bundle.version)
    if existing is not None and kept is not None and manifest.get(bundle.version) == bundle.sha256:
        # Republishing a version this directory already holds: the history stays as written.
        return existing, None, ()
    if previous is None:
        return (
            merge_changelog(
                existing, bundle.version, section_for(bundle.version, None, None, sdk_checked)
            ),
            None,
            (),
        )
    previous_version = _version_of(previous.document)
    if previous_version == bundle.version:
        section = kept or section_for(bundle.version, previous_version, [], sdk_checked)
        return merge_changelog(existing, bundle.version, section), previous_version, ()
    changes = diff_documents(
        previous.document, bundle.document, labels=(previous.label, f"version {bundle.version}")
    )
    section = section_for(bundle.version, previous_version, changes, sdk_checked)
    return merge_changelog(existing, bundle.version, section), previous_version, tuple(changes)


def check_out_dir(out_dir: Path, sources: list[Path], *, force: bool) -> None:
    """Refuse an output directory where publishing would overwrite what it did not write."""
    out = out_dir.resolve()
    curated = SPEC_PATH.parent.resolve()
    if out == curated or curated in out.parents:
        raise PublishError(
            f"{out_dir}: is or is inside the curated spec's folder ({curated}); publishing "
            "there would overwrite the spec (rule: --out must be elsewhere; --force does not "
            "change this)"
        )
    for source in sources:
        if source.resolve().parent == out and source.name in OUTPUT_FILES:
            raise PublishError(
                f"{out_dir}: publishing there would overwrite {source}, which it reads "
                "(rule: --out must be elsewhere; --force does not change this)"
            )
    if force:
        return
    try:
        if (out / MANIFEST).is_file():
            return
        foreign = [name for name in OUTPUT_FILES if (out / name).exists()]
    except OSError as exc:
        raise PublishError(f"{out_dir}: cannot read: {exc.strerror or exc}") from exc
    if foreign:
        raise PublishError(
            f"{out_dir}: {', '.join(foreign)} already exist(s) and were not written by "
            f"publish (no {MANIFEST}); nothing was touched. Choose another --out, or pass "
            "--force to replace them"
        )


# The ledger ships beside the spec: it must be one that ``spec validate`` accepts.
LEDGER_RULES = ("ledger-entry", "ledger-todo", "ledger-pointer", "ledger-expect")


def _check_ledger(document: JSON, source: Path, ledger_file: Path, ledger: Ledger) -> None:
    """Refuse to publish a ledger with undecided (``decision: TODO``) or broken entries."""
    rules = [r for r in RULES if r.id in LEDGER_RULES]
    findings = validate_document(
        document, path=source, ledger=ledger, ledger_name=ledger_file.name, rules=rules
    )
    if findings:
        raise LedgerUndecidedError(
            f"{ledger_file}: {len(findings)} ledger problem(s), nothing was published; the "
            f"first: {findings[0]} ('modelarts-kit spec validate' lists them)"
        )


def _write_all(out_dir: Path, contents: dict[str, str]) -> None:
    """Write every file to a temporary name first, then move them all into place."""
    staged: list[tuple[Path, Path]] = []
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        for name, text in contents.items():
            temporary = out_dir / f".{name}.partial"
            temporary.write_text(text, encoding="utf-8", newline="\n")
            staged.append((temporary, out_dir / name))
    except OSError as exc:
        for temporary, _ in staged:
            temporary.unlink(missing_ok=True)
        raise PublishError(f"{out_dir}: cannot write: {exc.strerror or exc}") from exc
    for temporary, final in staged:
        os.replace(temporary, final)


def publish_spec(
    out_dir: Path = DEFAULT_OUT,
    *,
    spec_path: Path | None = None,
    ledger_path: Path | None = None,
    previous: str | None = None,
    force: bool = False,
) -> PublishResult:
    """Publish the spec into ``out_dir``; raises a :class:`PublishError` and writes nothing
    when the spec is invalid, the previous version unreadable, the version reused, or the
    directory holds output files publish did not write (see :func:`check_out_dir`)."""
    source = spec_path if spec_path is not None else SPEC_PATH
    try:
        # The raw document first: the bundle check reports a malformed spec precisely,
        # where indexing it would only fail somewhere inside.
        document = read_yaml(source)
        ledger_file = ledger_path if ledger_path is not None else ledger_for(source)
        ledger_read = read_ledger(ledger_file) if ledger_file is not None else None
        ledger: tuple[LedgerEntry, ...] = ledger_read.entries if ledger_read is not None else ()
        # The spec's description points at "ledger.yaml next to this file": ship it as is.
        ledger_text = ledger_file.read_text(encoding="utf-8") if ledger_file is not None else None
    except (SpecError, OSError) as exc:
        raise PublishError(str(exc)) from exc
    if not isinstance(document, dict):
        raise PublishError(f"{source}: the document must be a mapping")
    # Cheap preconditions before the expensive work (the ledger check, the bundle, the
    # spec's parse): a --previous that does not resolve fails at once.
    previous_source = resolve_previous(previous, out_dir, source)
    check_out_dir(
        out_dir, [source, *([ledger_file] if ledger_file is not None else [])], force=force
    )
    if ledger_file is not None and ledger_read is not None:
        _check_ledger(document, source, ledger_file, ledger_read)
    bundle = bundle_document(copy.deepcopy(document), source)
    if not bundle.version:
        raise PublishError(f"{source}: /info/version is empty; a publication needs a version")
    spec = parse_spec(bundle.document, source)
    manifest = _read_manifest(out_dir)
    _check_version(bundle, manifest, previous_source)
    changelog, previous_version, changes = _changelog(
        out_dir, bundle, previous_source, manifest, checked_release(ledger)
    )
    page = build_page(spec, ledger, changelog, bundle.sha256)
    republished = manifest.get(bundle.version) == bundle.sha256
    manifest[bundle.version] = bundle.sha256
    manifest_text = json.dumps({"published": manifest}, indent=2, sort_keys=True) + "\n"
    contents = {
        "openapi.yaml": bundle.yaml_text,
        "openapi.json": bundle.json_text,
        "index.html": render_page(page),
        "CHANGELOG.md": changelog,
        MANIFEST: manifest_text,
    }
    if ledger_text is not None:
        contents["ledger.yaml"] = ledger_text
    _write_all(out_dir, contents)
    return PublishResult(
        out_dir=out_dir,
        version=bundle.version,
        sha256=bundle.sha256,
        previous_version=previous_version,
        changes=changes,
        files=tuple(contents),
        republished=republished,
    )
