"""A changed copy of the curated spec, and a client generated from it: what the follows-the-spec
tests share (change the spec, never the code, and every reader follows)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from modelarts_kit_generator.ir import GeneratorOptions
from modelarts_kit_generator.pipeline import generate

from tests.yaml_files import dump_yaml


def write_spec_copy(factory: pytest.TempPathFactory, folder: str, document: Any) -> Path:
    path = factory.mktemp(folder) / "openapi.yaml"
    path.write_text(dump_yaml(document, sort_keys=False), encoding="utf-8")
    return path


@contextmanager
def generated_client(
    spec_path: Path, factory: pytest.TempPathFactory, package: str, distribution: str
) -> Iterator[ModuleType]:
    """Generate a client from ``spec_path`` (no cache) and import it; unimported afterwards."""
    out = factory.mktemp(distribution) / "distribution"
    generate(out, spec_path, GeneratorOptions(package=package, distribution=distribution),
             use_cache=False)  # fmt: skip
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module(package)
    finally:
        sys.path.remove(str(out))
        for name in [n for n in sys.modules if n == package or n.startswith(package + ".")]:
            del sys.modules[name]
