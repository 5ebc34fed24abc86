"""The files of one project that the docs commands read and write, found from its spec.

The curated spec sits at ``ROOT/spec/modelarts_kit_spec/openapi.yaml``; a copy of the
repository (a test's sandbox, a fork) has the same shape, so everything else is found from
the spec: the ledger beside it, the recorded pages in ``ROOT/spec/sources/``, the generated
client in ``ROOT/generated/`` and ``ROOT/CHANGELOG.md``. A spec outside such a tree (a lone
``openapi.yaml`` in a folder) has a ledger and no sources.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from modelarts_kit_spec import LEDGER_PATH, SPEC_PATH, ledger_for

__all__ = ["Project", "project_for"]

_ROOT_MARKERS = (".git", "pyproject.toml")


@dataclass(frozen=True)
class Project:
    spec: Path
    ledger: Path
    root: Path  # patch paths are relative to it

    @property
    def sources(self) -> Path:
        return self.spec.parent.parent / "sources"

    @property
    def index(self) -> Path:
        return self.sources / "index.yaml"

    @property
    def generated(self) -> Path:
        return self.root / "generated"

    @property
    def changelog(self) -> Path:
        return self.root / "CHANGELOG.md"

    def relative(self, path: Path) -> str:
        """``path`` relative to the root, as a patch names it (``git apply`` / ``patch -p1``
        run in the root take it, wherever the patch was made)."""
        return Path(os.path.relpath(_real(path), _real(self.root))).as_posix()

    def protected(self, inputs: Iterable[Path] = ()) -> list[Path]:
        """Files an output (a patch) must never overwrite: the spec, the ledger (this
        project's and the curated ones), the recorded pages, and the pages read as input."""
        files = [self.spec, self.ledger, SPEC_PATH, LEDGER_PATH, *inputs]
        return [_real(p) for p in files]

    def protected_folders(self) -> list[Path]:
        return [_real(self.sources), _real(SPEC_PATH.parent.parent / "sources")]


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))


def _root(spec: Path, ledger: Path) -> Path:
    """``ROOT`` of a spec at ``ROOT/spec/<package>/openapi.yaml`` beside ``ROOT/spec/sources``;
    else the nearest folder above the spec that is a repository (``.git`` or
    ``pyproject.toml``); else the folder both the spec and the ledger are in."""
    real = _real(spec)
    if (real.parent.parent / "sources").is_dir():
        return real.parent.parent.parent
    for folder in real.parents:
        if any((folder / marker).exists() for marker in _ROOT_MARKERS):
            return folder
    return Path(os.path.commonpath([_real(spec).parent, _real(ledger).parent]))


def project_for(spec_path: Path | None, ledger_path: Path | None = None) -> Project:
    """The project of ``spec_path`` (the curated one when None)."""
    spec = Path(spec_path) if spec_path is not None else SPEC_PATH
    ledger = ledger_path if ledger_path is not None else ledger_for(spec_path)
    if ledger is None:
        ledger = spec.parent / "ledger.yaml"
    return Project(spec=spec, ledger=Path(ledger), root=_root(spec, Path(ledger)))
