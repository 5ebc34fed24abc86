"""Write several files (and replace whole directories) as one transaction: all or nothing.

``docs diff --apply`` writes the patch, the spec and the ledger; ``docs update`` also the new
page, the sources index, the changelog and ``generated/``. A run that fails half-way must not
leave the spec changed and the ledger not, nor a truncated file beside them:

1. every target is checked first (its folder can take a new file; an existing file is not
   read-only; a directory is not a file), before anything is written;
2. every new content is written to a hidden temporary file beside its target (same folder,
   so the swap is a rename on one file system) and flushed to disk;
3. the staged files are swapped in with ``os.replace``, each previous version kept as a hard
   link until all swaps succeed; a failing swap puts every earlier one back.

On any failure the temporary files are removed and a :class:`TransactionError` names the
file and the reason (the CLI prints it as one ``error:`` line, exit 2). A target given as a
symbolic link is written where the link points: the link stays a link.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from modelarts_kit_vendordocs.errors import VendorDocsError

__all__ = ["Transaction", "TransactionError"]

_PREFIX = ".modelarts-kit-staged-"  # hidden, and recognisable as ours if a crash ever left one


class TransactionError(VendorDocsError):
    """A file of the transaction cannot be written; nothing was changed."""


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _real(path: Path) -> Path:
    """Where a write to ``path`` must land: the target of a symbolic link, not the link."""
    return Path(os.path.realpath(path))


def _check_file_target(path: Path) -> None:
    folder = path.parent
    if not folder.is_dir():
        raise TransactionError(f"{path}: cannot write: folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise TransactionError(f"{path}: cannot write: folder {folder} is not writable")
    if path.is_dir():
        raise TransactionError(f"{path}: cannot write: is a directory")
    if path.exists():
        mode = path.stat().st_mode
        # A file without any write bit was made read-only on purpose (also for root, whom
        # os.access lets write anything).
        if not os.access(path, os.W_OK) or not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
            raise TransactionError(f"{path}: cannot write: the file is read-only")


@dataclass
class _Staged:
    target: Path
    staged: Path
    is_dir: bool
    backup: Path | None = None  # the previous version, while the swap may still be undone
    swapped: bool = False


@dataclass
class Transaction:
    """Collect writes with :meth:`write` / :meth:`replace_directory`, then :meth:`commit`."""

    _files: dict[Path, bytes] = field(default_factory=dict)
    _directories: dict[Path, Path] = field(default_factory=dict)

    def write(self, path: Path, content: str | bytes) -> None:
        """Write ``content`` (text as UTF-8, newlines as given; bytes as they are) to ``path``
        when the transaction commits."""
        data = content.encode("utf-8") if isinstance(content, str) else content
        self._files[_real(path)] = data

    def replace_directory(self, path: Path, ready: Path) -> None:
        """Replace the directory ``path`` by ``ready`` (a finished directory on the same file
        system, which the commit moves) when the transaction commits."""
        self._directories[_real(path)] = ready

    @property
    def targets(self) -> list[Path]:
        return [*self._files, *self._directories]

    def check(self) -> None:
        """Refuse, before anything is written, a target that cannot be written."""
        for path in self._files:
            _check_file_target(path)
        for path in self._directories:
            if path.exists() and not path.is_dir():
                raise TransactionError(f"{path}: cannot replace: not a directory")
            if not os.access(path.parent, os.W_OK | os.X_OK):
                raise TransactionError(f"{path}: cannot replace: {path.parent} is not writable")

    def commit(self) -> None:
        """Write everything, or nothing: see the module docstring."""
        self.check()
        staged: list[_Staged] = []
        current = Path()
        try:
            for current, data in self._files.items():
                staged.append(_Staged(current, _stage_file(current, data), is_dir=False))
            for current, ready in self._directories.items():
                staged.append(_Staged(current, ready, is_dir=True))
            for item in staged:
                current = item.target
                _swap(item)
        except OSError as exc:
            _undo(staged)
            raise TransactionError(
                f"{current}: cannot write: {_reason(exc)}; nothing was changed"
            ) from exc
        except BaseException:
            _undo(staged)
            raise
        _forget_backups(staged)


def _stage_file(path: Path, data: bytes) -> Path:
    handle, name = tempfile.mkstemp(prefix=_PREFIX + path.name + ".", dir=path.parent)
    staged = Path(name)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        if path.exists():
            shutil.copymode(path, staged)  # the file keeps its permissions
        else:
            os.chmod(staged, 0o666 & ~_umask())
    except BaseException:
        staged.unlink(missing_ok=True)
        raise
    return staged


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _swap(item: _Staged) -> None:
    if item.target.exists():
        backup = item.target.with_name(f"{_PREFIX}{item.target.name}.previous.{uuid.uuid4().hex}")
        if item.is_dir:
            os.replace(item.target, backup)
        else:
            try:
                os.link(item.target, backup)
            except OSError:
                shutil.copy2(item.target, backup)  # a file system without hard links
        item.backup = backup
    os.replace(item.staged, item.target)
    item.swapped = True


def _undo(staged: list[_Staged]) -> None:
    """Put back what was swapped (latest first) and remove what was staged."""
    for item in reversed(staged):
        try:
            if item.swapped:
                if item.backup is not None:
                    os.replace(item.backup, item.target)
                elif item.is_dir:
                    shutil.rmtree(item.target, ignore_errors=True)
                else:
                    item.target.unlink(missing_ok=True)
            elif item.backup is not None:
                if item.is_dir:
                    os.replace(item.backup, item.target)
                else:
                    item.backup.unlink(missing_ok=True)
            if not item.is_dir and not item.swapped:
                item.staged.unlink(missing_ok=True)
        except OSError:
            continue  # undo the others; the first error is the one reported


def _forget_backups(staged: list[_Staged]) -> None:
    for item in staged:
        if item.backup is None:
            continue
        if item.is_dir:
            shutil.rmtree(item.backup, ignore_errors=True)
        else:
            item.backup.unlink(missing_ok=True)
