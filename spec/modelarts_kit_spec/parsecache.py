"""The parses of large YAML texts kept on disk, for the next process that reads the same text.

A fresh process that loads the curated spec (430 KB) spent about 0.09 s parsing it, the
largest part of loading it; every ``modelarts-kit`` command pays that again. The first
process's parse is kept here and the next one unpickles it (about 2 ms).

- Content-addressed: an entry's name is the SHA-256 of the text and of all else its parse
  depends on (this format, PyYAML's version, the reader's bounds), so an entry is what a
  parse of the same text gives. Only what a parse accepted is kept: a refused text is
  refused again, by the parser, every time.
- Entries are read by an unpickler that loads no class or function but the date and time
  types YAML gives: nothing an entry holds runs. An unreadable, corrupt or foreign entry is
  a miss (parsed again, and the entry written anew); a cache that cannot be written costs
  speed only. At most :data:`MAX_ENTRIES` entries are kept, the oldest let go.
- Location: ``$MODELARTS_KIT_CACHE_DIR/parsed``, else ``$XDG_CACHE_HOME/modelarts-kit/parsed``,
  else ``~/.cache/modelarts-kit/parsed``; ``MODELARTS_KIT_CACHE_DIR=off`` turns it off.

A floor module: it imports nothing of the kit.
"""

from __future__ import annotations

import datetime
import hashlib
import io
import os
import pickle
import struct
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["BROKEN", "MAX_ENTRIES", "MIN_CHARS", "cache_dir", "load", "snapshot", "store", "values"]

MIN_CHARS = 64 * 1024  # smaller texts parse in a few milliseconds: not worth a file
MAX_ENTRIES = 16  # the spec and ledger of a few revisions
FORMAT = b"modelarts-kit parsed YAML, pickle 5, v1\n"
DISABLED = "off"
SUFFIX = ".pickle"

# What a corrupt or foreign snapshot may raise while it is read: for an entry, a miss.
BROKEN = (
    OSError,
    EOFError,
    pickle.UnpicklingError,
    ValueError,
    TypeError,
    IndexError,
    KeyError,
    AttributeError,
    struct.error,
    RecursionError,
)
_YAML_TYPES = {
    name: getattr(datetime, name) for name in ("date", "datetime", "timedelta", "timezone")
}


def cache_dir() -> Path | None:
    """Where the entries are (None: turned off)."""
    configured = os.environ.get("MODELARTS_KIT_CACHE_DIR")
    if configured == DISABLED:
        return None
    if configured:
        return Path(configured) / "parsed"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "modelarts-kit" / "parsed"


def _entry(text: str, depends_on: str) -> Path | None:
    directory = cache_dir()
    if directory is None or len(text) < MIN_CHARS:
        return None
    digest = hashlib.sha256(FORMAT)
    digest.update(depends_on.encode())
    digest.update(b"\0")
    digest.update(text.encode("utf-8", "surrogatepass"))
    return directory / f"{digest.hexdigest()}{SUFFIX}"


class _PlainValues(pickle.Unpickler):
    """Unpickles what YAML's safe loader gives, and refuses every other class or function."""

    def find_class(self, module: str, name: str) -> Any:
        if module == "datetime" and name in _YAML_TYPES:
            return _YAML_TYPES[name]
        raise pickle.UnpicklingError(f"{module}.{name} is not a value YAML gives")


def snapshot(document: Any) -> bytes:
    """``document`` (plain YAML values) as :func:`values` reads it back."""
    return pickle.dumps(document, protocol=5)


def values(kept: bytes) -> Any:
    """A new copy of the document in a snapshot; raises one of :data:`BROKEN` for anything
    that is not one (a class or function named in it included, which never loads)."""
    return _PlainValues(io.BytesIO(kept)).load()


def load(text: str, depends_on: str) -> tuple[bytes, Any] | None:
    """The snapshot of the parse of ``text`` an earlier process kept, and the document read
    back from it (None: none, or not one that reads back). ``depends_on``: what else the parse
    depends on (the parser's version, the bounds)."""
    entry = _entry(text, depends_on)
    if entry is None:
        return None
    try:
        kept = entry.read_bytes()
    except OSError:
        return None
    if not kept.startswith(FORMAT):
        return None
    kept = kept[len(FORMAT) :]
    try:
        return kept, values(kept)  # it reads back, with nothing but YAML's values in it
    except BROKEN:
        return None


def store(text: str, depends_on: str, kept: bytes) -> None:
    """Keep ``kept``, the snapshot of what a parse of ``text`` gave, for the next process."""
    entry = _entry(text, depends_on)
    if entry is None:
        return
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(dir=entry.parent, prefix=".entry-", suffix=".tmp")
    except OSError:
        return  # a cache that cannot be written costs speed, never correctness
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(FORMAT)
            stream.write(kept)
        os.replace(temp, entry)
    except OSError:
        Path(temp).unlink(missing_ok=True)
        return
    _let_oldest_go(entry.parent)


def _let_oldest_go(directory: Path) -> None:
    """At most :data:`MAX_ENTRIES` entries: the least recently written go first."""
    try:
        entries = sorted((path.stat().st_mtime_ns, path) for path in directory.glob(f"*{SUFFIX}"))
        for _, path in entries[: max(0, len(entries) - MAX_ENTRIES)]:
            path.unlink(missing_ok=True)
    except OSError:
        return  # another process let it go first, or the directory is read-only
