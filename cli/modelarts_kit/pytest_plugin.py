"""The ``pytest11`` entry point: the contract kit's pytest plugin with the embedded default.

The hooks and the ``modelarts_contract`` fixture are the library's
(:mod:`modelarts_kit_contracts.server.pytest_plugin`); this module composes what the library
may not import, the embedded reference server (:mod:`modelarts_kit.embedded`), and hands it over
as the ``modelarts_embedded_target`` fixture. pytest loads it in every session of an environment
with the kit installed, so the server and the runner are imported only when a test uses them.
"""

from __future__ import annotations

import pytest
from modelarts_kit_contracts.server.pytest_plugin import (
    EmbeddedTarget,
    modelarts_contract,
    pytest_addoption,
)

__all__ = ["modelarts_contract", "modelarts_embedded_target", "pytest_addoption"]


@pytest.fixture
def modelarts_embedded_target() -> EmbeddedTarget | None:
    """The reference server in-process (None when it is not installed)."""
    try:
        from modelarts_kit.embedded import embedded_defaults, embedded_target
    except ImportError:
        return None
    token, project_id = embedded_defaults()
    return EmbeddedTarget(
        open=lambda: embedded_target(http=False), token=token, project_id=project_id
    )
