"""Simulated task output: the log preview, the log link and the running metrics of one task.

Deterministic for a job: everything follows from the job id, the task name and the job's
:class:`~modelarts_kit_server.lifecycle.Snapshot` at the clock's now, so two reads at the same
moment answer the same, and a later read extends an earlier one (the log grows while the task
runs). Nothing is stored.

- **log preview** (:func:`log_preview`): a start line once the task has started, one training
  step line per :data:`STEP_S` seconds of running, and an end line with the task's exit code
  once it has ended; ``content`` is at most the last :data:`MAX_PREVIEW_BYTES` bytes of the
  log (whole lines), ``current_size`` its size and ``full_size`` the whole log's, in bytes.
- **log text** (:func:`log_text`): the task's whole log, what a log link downloads
  (:mod:`modelarts_kit_server.downloads` signs and serves the links).
- **metrics** (:func:`metrics`): for each metric name (the spec's), one value per minute since
  the job was created, as the page's example shows: ``-1`` while the task is not running, a
  percentage while it is; at most the last :data:`MAX_METRIC_POINTS` minutes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from modelarts_kit_server.lifecycle import Snapshot, Stage

__all__ = [
    "MAX_METRIC_POINTS",
    "MAX_PREVIEW_BYTES",
    "STEP_S",
    "log_preview",
    "log_text",
    "metrics",
]

STEP_S = 10
MAX_LOG_STEPS = 10_000  # a job running for days still logs a bounded number of lines
MAX_PREVIEW_BYTES = 64 * 1024
MAX_METRIC_POINTS = 60
NOT_RUNNING = -1.0


def _fraction(*parts: object) -> float:
    """A number in [0, 1) that depends only on ``parts``."""
    digest = hashlib.sha256("/".join(map(str, parts)).encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def _log_lines(job_id: str, task: str, snapshot: Snapshot, exit_code: int | None) -> list[str]:
    if snapshot.start_ms is None:
        return []
    lines = [f"[ModelArts Service Log] {task}: training started (job {job_id})"]
    steps = min(snapshot.duration_ms // (STEP_S * 1000), MAX_LOG_STEPS)
    for step in range(1, steps + 1):
        loss = 2.5 * (0.97**step) + 0.1 * _fraction(job_id, task, "loss", step)
        lines.append(f"[{task}] step {step}: loss={loss:.4f}")
    if snapshot.end_ms is not None and exit_code is not None:
        lines.append(f"[ModelArts Service Log] {task}: exit with {exit_code}")
    return lines


def log_text(job_id: str, task: str, snapshot: Snapshot, exit_code: int | None) -> str:
    """The task's whole log at the snapshot (what a log link downloads)."""
    return "".join(line + "\n" for line in _log_lines(job_id, task, snapshot, exit_code))


def log_preview(
    job_id: str, task: str, snapshot: Snapshot, exit_code: int | None
) -> dict[str, Any]:
    """``{"content", "current_size", "full_size"}`` of the task's log at the snapshot: the
    last whole lines of :func:`log_text` within :data:`MAX_PREVIEW_BYTES`."""
    lines = log_text(job_id, task, snapshot, exit_code).splitlines(keepends=True)
    full_size = sum(len(line.encode("utf-8")) for line in lines)
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        length = len(line.encode("utf-8"))
        if size + length > MAX_PREVIEW_BYTES:
            break
        kept.append(line)
        size += length
    content = "".join(reversed(kept))
    return {"content": content, "current_size": size, "full_size": full_size}


def metrics(
    job_id: str, task: str, names: Sequence[str], snapshot: Snapshot, created_ms: int
) -> list[dict[str, Any]]:
    """``[{"metric", "value": [...]}]``: per metric, one value per minute since creation."""
    minutes = max(1, (snapshot.now_ms - created_ms) // 60_000 + 1)
    first = max(0, minutes - MAX_METRIC_POINTS)
    result = []
    for name in names:
        values = []
        for minute in range(first, minutes):
            moment = created_ms + minute * 60_000
            running = (
                snapshot.stage is not Stage.STARTING
                and snapshot.start_ms is not None
                and moment + 60_000 > snapshot.start_ms
                and (snapshot.end_ms is None or moment <= snapshot.end_ms)
            )
            fraction = _fraction(job_id, task, name, minute)
            values.append(round(100 * fraction, 3) if running else NOT_RUNNING)
        result.append({"metric": name, "value": values})
    return result
