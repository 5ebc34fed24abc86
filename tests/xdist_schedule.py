"""How ``scripts/check`` hands the tests to its pytest-xdist workers (``--dist loadfile``).

xdist's ``loadfile`` sends each file, whole, to one worker, the files with the most tests
first. Two things make that slow on a 2-core machine: a file whose tests each take seconds
(a whole ``docs update``, a contract run) holds one worker for minutes while the others
finish and wait; and such a file, having few tests, is handed out last. So, under
``--dist loadfile``:

- the files of ``SPREAD`` are cut into one unit per test, so their tests run side by side on
  every worker (each of those files keeps nothing between its tests but what ``tmp_path`` or
  a fixture of its own gives, so a test runs the same wherever it lands);
- the units of the files in ``FIRST`` go out first, in that order: the costliest whole files,
  then the spread ones; then every other file, most tests first, as xdist does.

Every other file still runs whole on one worker, so its module fixtures are built once.
A file missing from both lists only runs later; nothing is skipped. (``--dist loadgroup``
cannot do this: with pytest 9.2 xdist's group marks are ignored, pytest-dev/pytest-xdist#1386.)
"""

from __future__ import annotations

from typing import Any

import pytest
from xdist.scheduler import LoadFileScheduling

# The costliest units first, the longest-processing-time rule: files that must stay whole (a
# module fixture, or one long test), costliest first by the seconds one worker spent on each in
# a quiet `scripts/check --durations` run on 2026-11-28 (19:07 UTC, after the suite's cost was
# cut), then the spread files (each of their tests is a small unit that fills the gaps).
WHOLE_FIRST: tuple[str, ...] = (
    "tests/contracts_client/test_client_check.py",
    "tests/contracts/test_independent_server.py",
    "tests/contracts/test_hostile_run.py",
    "tests/contracts/test_server_safety.py",
    "tests/contracts_client/test_follows_the_spec.py",
    "tests/contracts_client/test_mock.py",
    "tests/server/test_server_schemathesis.py",
    "tests/server/test_paging_follows_the_spec.py",
    "tests/vendordocs/test_trust.py",
    "tests/contracts/test_server_meaning.py",
    "tests/contracts_client/test_mock_operations.py",
    "tests/contracts_client/test_node_client_adapter.py",
    "tests/contracts_client/test_paging.py",
    "tests/contracts_client/test_proxy.py",
)
# Files whose tests are each a unit of their own: seconds each, and no fixture shared between
# their tests but through a cache that is as good rebuilt.
SPREAD_FIRST: tuple[str, ...] = (
    "tests/vendordocs/test_update.py",
    "tests/vendordocs/test_real_revisions_settle.py",
    "tests/contracts/test_mutants.py",
)
FIRST: tuple[str, ...] = WHOLE_FIRST + SPREAD_FIRST
SPREAD: frozenset[str] = frozenset(SPREAD_FIRST)


def file_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def unit_of(nodeid: str) -> str:
    """One unit per file, one per test in a ``SPREAD`` file."""
    path = file_of(nodeid)
    return nodeid if path in SPREAD else path


def rank_of(unit: str, tests: int) -> tuple[int, int]:
    path = file_of(unit)
    first = FIRST.index(path) if path in FIRST else len(FIRST)
    return (first, -tests)


class FileOrTestScheduling(LoadFileScheduling):  # type: ignore[misc]
    """``loadfile``, with ``SPREAD``'s files per test and ``FIRST``'s files handed out first."""

    def __init__(self, config: pytest.Config, log: Any = None) -> None:
        super().__init__(config, log)
        self._ordered = False

    def _split_scope(self, nodeid: str) -> str:
        return unit_of(nodeid)

    def _assign_work_unit(self, node: Any) -> None:
        if not self._ordered:  # the queue is complete before the first unit goes out
            self._ordered = True
            units = sorted(self.workqueue.items(), key=lambda u: rank_of(u[0], len(u[1])))
            self.workqueue.clear()
            self.workqueue.update(units)
        super()._assign_work_unit(node)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    if config.getvalue("dist") == "loadfile":
        return FileOrTestScheduling(config, log)
    return None
