"""Fixtures for the vendor-docs tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from modelarts_kit_vendordocs import Inventory, extract_page

from .support import SMALL_SPEC, seed_path

_INVENTORIES: dict[str, Inventory] = {}


@pytest.fixture
def inventory() -> Callable[[str], Inventory]:
    """The inventory of a seed page, parsed once per test session."""

    def get(name: str) -> Inventory:
        if name not in _INVENTORIES:
            _INVENTORIES[name] = extract_page(seed_path(name))
        return _INVENTORIES[name]

    return get


@pytest.fixture
def small_spec(tmp_path: Path) -> Path:
    folder = tmp_path / "spec"
    folder.mkdir()
    path = folder / "openapi.yaml"
    path.write_text(SMALL_SPEC, encoding="utf-8")
    return path
