"""Where the packaged spec and ledger live (no import beyond :mod:`pathlib`, so a caller
that only needs a path, such as ``generate --check`` hashing the spec, loads nothing else)."""

from __future__ import annotations

from pathlib import Path

__all__ = ["INVENTORIES_DIR", "LEDGER_PATH", "PACKAGE_DIR", "SOURCES_DIR", "SPEC_PATH"]

PACKAGE_DIR = Path(__file__).resolve().parent
SPEC_PATH = PACKAGE_DIR / "openapi.yaml"
LEDGER_PATH = PACKAGE_DIR / "ledger.yaml"
# The recorded vendor pages (beside the package in a clone or an editable install) and the
# field-by-field inventories of what they document, read by the schema model's derivation.
SOURCES_DIR = PACKAGE_DIR.parent / "sources"
INVENTORIES_DIR = SOURCES_DIR / "inventories"
