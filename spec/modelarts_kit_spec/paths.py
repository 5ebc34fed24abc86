"""Where the packaged spec and ledger live (no import beyond :mod:`pathlib`, so a caller
that only needs a path, such as ``generate --check`` hashing the spec, loads nothing else)."""

from __future__ import annotations

from pathlib import Path

__all__ = ["LEDGER_PATH", "PACKAGE_DIR", "SPEC_PATH"]

PACKAGE_DIR = Path(__file__).resolve().parent
SPEC_PATH = PACKAGE_DIR / "openapi.yaml"
LEDGER_PATH = PACKAGE_DIR / "ledger.yaml"
