"""Shared test configuration: hypothesis profiles, and the ``kit`` fixture.

``quick`` is the local default; CI (``CI=true``) loads ``ci``, which runs more examples.
Both are derandomised, so a failure reproduces on the next run.

``kit`` runs ``modelarts-kit ARGS`` in-process with its output scrubbed for snapshots
(``tests/cli_support.py`` says how to use it).

Tests marked ``chromium`` are skipped, with the reason in the summary, where Debian's chromium
is missing, except under CI, where they run (and fail without it): ``tests/browser.py``.

``scripts/check`` runs the suite on four workers (pytest-xdist, ``-n 4 --dist loadfile``: the
tests of one file on one worker, so module fixtures are built once, except the few files
``tests/xdist_schedule.py`` spreads test by test), so every test must be
parallel-safe with the other files: servers on port 0, files written only under ``tmp_path``,
``monkeypatch`` for the environment and the working directory, and wall-time budgets no loaded
machine runs out of.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.browser import CHROMIUM, chromium_skip_reason
from tests.cli_support import Kit
from tests.xdist_schedule import pytest_xdist_make_scheduler  # noqa: F401 (a hook)

settings.register_profile(
    "quick",
    max_examples=25,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci",
    max_examples=150,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "quick")
)


@pytest.fixture
def kit(tmp_path: Path) -> Kit:
    """Run ``modelarts-kit`` in-process; outputs are scrubbed (``tmp_path`` prints as <tmp>)."""
    return Kit(tmp_path)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = chromium_skip_reason(chromium=CHROMIUM, ci=bool(os.environ.get("CI")))
    if reason is None:
        return
    for item in items:
        if item.get_closest_marker("chromium") is not None:
            item.add_marker(pytest.mark.skip(reason=reason))
