"""pytest plugin: run the ModelArts server contract inside a user's own test suite."""

from __future__ import annotations

import pytest

__all__ = ["pytest_addoption"]


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("modelarts-kit", "ModelArts contract checks")
    group.addoption(
        "--modelarts-url",
        action="store",
        default=None,
        help="Base URL of a ModelArts training-job server to contract-test.",
    )
