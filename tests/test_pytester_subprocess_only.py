"""Tests run users' pytest suites in a subprocess, never in this process.

pytester's in-process runs drop from ``sys.modules`` every module they imported first. The
kit's contract runs import schemathesis's engine lazily, so a run inside an in-process suite
left a later run of this process comparing the engine's events with the classes of a second
copy of that module: ``contract server`` then printed no progress line for any schemathesis
phase (test_server_safety's progress test failed after test_embedded_target's in one worker).
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).parent
IN_PROCESS = {"runpytest_inprocess", "runpytest", "inline_run", "inline_runsource"}


def in_process_runs(source: str) -> list[int]:
    """Lines that call a pytester method running a suite in this process."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in IN_PROCESS
    ]


def test_the_scan_finds_an_in_process_run() -> None:
    assert in_process_runs("result = pytester.runpytest_inprocess('-q')\n") == [1]
    assert in_process_runs("pytester.runpytest()\n") == [1]
    assert in_process_runs("pytester.runpytest_subprocess('-q')\n") == []


def test_no_test_runs_a_suite_in_process() -> None:
    found = {
        str(path.relative_to(TESTS)): lines
        for path in sorted(TESTS.rglob("*.py"))
        if path.name != Path(__file__).name
        and (lines := in_process_runs(path.read_text(encoding="utf-8")))
    }
    assert found == {}
