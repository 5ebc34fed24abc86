"""``contract client`` shows its progress like ``contract server``, and after Ctrl-C the
"interrupted" line comes last, after the report, not between its tables."""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

KIT = str(Path(sys.executable).parent / "modelarts-kit")
WAIT_S = 120.0  # bounded: the first case's phase line comes after the cases are generated


def _stderr_lines_until(process: subprocess.Popen[str], marker: str) -> list[str]:
    """Lines of the process's stderr up to the first that contains ``marker`` (bounded)."""
    assert process.stderr is not None
    seen: list[str] = []
    selector = selectors.DefaultSelector()
    selector.register(process.stderr, selectors.EVENT_READ)
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        if not selector.select(timeout=1.0):
            continue
        line = process.stderr.readline()
        if not line:
            break
        seen.append(line.rstrip("\n"))
        if marker in line:
            return seen
    raise AssertionError(f"no {marker!r} line within {WAIT_S}s; stderr so far: {seen}")


def start_as_from_a_terminal(command: list[str]) -> subprocess.Popen[str]:
    """Start ``command`` with Ctrl-C delivered as at a terminal. A pytest started in the
    background (``cmd &``, nohup) inherits SIGINT ignored, and so did the command: it never saw
    the Ctrl-C, checked every case (7 s of CPU) and exited 0. A handled SIGINT is reset to its
    default by exec, so the command's Python turns it into KeyboardInterrupt again."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "COLUMNS": "100", "NO_COLOR": "1"},
        )
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.mark.slow
def test_progress_lines_then_interrupted_last() -> None:
    process = start_as_from_a_terminal(
        [KIT, "contract", "client", "--seed", "0", "--max-examples", "5", "--no-color"]
    )
    try:
        seen = _stderr_lines_until(process, " cases)")
        process.send_signal(signal.SIGINT)
        out, rest = process.communicate(timeout=WAIT_S)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert any("client: generating the cases" in line for line in seen), seen
    assert any(line.startswith("[") and "client: " in line for line in seen), seen
    assert process.returncode == 2, (out, rest)
    assert "Traceback" not in out + rest
    stdout_lines = [line for line in out.splitlines() if line.strip()]
    assert stdout_lines[-1].startswith("ERROR: the run could not complete"), out
    assert "interrupted" not in out
    stderr_lines = [line for line in rest.splitlines() if line.strip()]
    assert stderr_lines[-1].startswith("error: interrupted (Ctrl-C)"), rest
