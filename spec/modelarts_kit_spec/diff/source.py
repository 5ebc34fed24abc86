"""Where ``spec diff`` reads a version from: a file, or ``git:REV:path``."""

from __future__ import annotations

import subprocess
from collections.abc import Mapping
from pathlib import Path

from modelarts_kit_spec.diff.model import SpecSource
from modelarts_kit_spec.document import SpecError
from modelarts_kit_spec.reader import parse_yaml_text, read_yaml

__all__ = ["git_show", "read_source"]


def read_source(reference: str, *, cwd: Path | None = None) -> SpecSource:
    """Read a spec from a file or from ``git:REV:path`` (``git show REV:path`` in ``cwd``)."""
    if reference.startswith("git:"):
        rev, sep, path = reference[len("git:") :].partition(":")
        if not sep or not rev or not path:
            raise SpecError(f"{reference!r}: expected git:REV:PATH")
        text = git_show(rev, path, cwd=cwd)
        document = parse_yaml_text(text, reference)
    else:
        document = read_yaml(Path(reference))
    if not isinstance(document, Mapping):
        raise SpecError(f"{reference}: the document must be a mapping")
    if not str(document.get("openapi", "")).startswith("3."):
        raise SpecError(
            f"{reference}: /openapi must be a 3.x version, got {document.get('openapi')!r}"
        )
    return SpecSource(label=reference, document=document)


def git_show(rev: str, path: str, *, cwd: Path | None = None) -> str:
    """The content of ``path`` at ``rev``; SpecError names the revision when git refuses.

    A revision is never an option: one starting with ``-`` is refused, and
    ``--end-of-options`` keeps git from reading ``REV:PATH`` as one (``--output=FILE``
    would write a file anywhere)."""
    if rev.startswith("-"):
        raise SpecError(
            f"git:{rev}:{path}: revision {rev!r} starts with '-' (rule: a revision is not an "
            "option)"
        )
    try:
        result = subprocess.run(
            ["git", "show", "--end-of-options", f"{rev}:{path}"],
            cwd=cwd,
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError as exc:
        raise SpecError(f"git:{rev}:{path}: cannot run git: {exc.strerror}") from exc
    if result.returncode != 0:
        raise SpecError(f"git:{rev}:{path}: {result.stderr.strip() or 'git show failed'}")
    return result.stdout
