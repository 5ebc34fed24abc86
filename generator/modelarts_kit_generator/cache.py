"""A content-addressed cache of generation results.

Regenerating from an unchanged spec (``generate --check`` in CI, a template-only edit) need
not run datamodel-code-generator, ruff and the import check again: each result is stored
under the SHA-256 of everything that determines it (inputs, the generator's own source,
tool versions). A changed input is a different key, so a cached result is always the
result a fresh run would give. Unreadable or corrupt entries are misses; a cache that
cannot be written is skipped.

Location: ``$MODELARTS_KIT_CACHE_DIR``, else ``$XDG_CACHE_HOME/modelarts-kit/generate``,
else ``~/.cache/modelarts-kit/generate``. ``MODELARTS_KIT_CACHE_DIR=off`` disables it.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["cache_dir", "fingerprint", "load", "store"]

PACKAGE_DIR = Path(__file__).resolve().parent
DISABLED = "off"


def cache_dir() -> Path | None:
    configured = os.environ.get("MODELARTS_KIT_CACHE_DIR")
    if configured == DISABLED:
        return None
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "modelarts-kit" / "generate"


@functools.cache
def _tool_versions() -> str:
    from importlib import metadata  # ~15 ms to import; only a cache lookup needs it

    versions = []
    for name in ("datamodel-code-generator", "ruff", "pydantic"):
        try:
            versions.append(f"{name}=={metadata.version(name)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{name}==absent")
    return ";".join(versions)


@functools.cache
def _generator_source() -> bytes:
    """The generator's own code and templates: a change to either is a new key."""
    digest = hashlib.sha256()
    for path in sorted(PACKAGE_DIR.rglob("*")):
        if path.is_file() and path.suffix in (".py", ".jinja"):
            digest.update(path.relative_to(PACKAGE_DIR).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.digest()


def fingerprint(kind: str, payload: Any) -> str:
    """The key of a result: its kind, its JSON-serialisable inputs, tools and generator."""
    digest = hashlib.sha256()
    digest.update(kind.encode())
    digest.update(_tool_versions().encode())
    digest.update(_generator_source())
    digest.update(json.dumps(payload, sort_keys=True, ensure_ascii=False).encode())
    return digest.hexdigest()


def load(key: str) -> dict[str, str] | None:
    directory = cache_dir()
    if directory is None:
        return None
    try:
        data = json.loads((directory / f"{key}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in data.items()
    ):
        return None
    return data


def store(key: str, files: dict[str, str]) -> None:
    directory = cache_dir()
    if directory is None:
        return
    try:
        directory.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(dir=directory, prefix=".entry-", suffix=".json")
    except OSError:
        return  # a read-only cache only costs speed, never correctness
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump(files, stream, ensure_ascii=False)
        os.replace(temp, directory / f"{key}.json")
    except OSError:
        Path(temp).unlink(missing_ok=True)
