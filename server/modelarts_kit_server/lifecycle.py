"""Job lifecycle on the simulated clock: which phase a job is in, and its ``status`` object.

A job's whole history follows from three stored facts (when it was created, whether and when
termination was requested, and its simulated outcome) plus :class:`LifecycleTimings`, so the
phase is computed when the job is read instead of being advanced by a background task:

    Creating --creating_s--> Pending --pending_s--> Running --running_s--> Completed | Failed
    Creating | Pending | Running --terminate--> Terminating --terminating_s--> Terminated

The outcome is ``Completed`` unless the job asks to fail through the test hook annotation
``modelarts-kit/simulate: failed`` (see :data:`SIMULATE_ANNOTATION`).

Functions: :func:`snapshot_at` (phase and timestamps at a moment), :func:`can_terminate`,
:func:`render_status` (the API's ``status`` object, consistent with the phase).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

__all__ = [
    "SIMULATE_ANNOTATION",
    "TERMINABLE_PHASES",
    "LifecycleTimings",
    "Outcome",
    "Phase",
    "Snapshot",
    "Timeline",
    "can_terminate",
    "render_status",
    "snapshot_at",
]

SIMULATE_ANNOTATION = "modelarts-kit/simulate"


class Outcome(StrEnum):
    """How a job that runs to its end finishes (chosen by the ``SIMULATE_ANNOTATION`` value)."""

    COMPLETED = "completed"
    FAILED = "failed"


class Phase(StrEnum):
    CREATING = "Creating"
    PENDING = "Pending"
    RUNNING = "Running"
    COMPLETED = "Completed"
    FAILED = "Failed"
    TERMINATING = "Terminating"
    TERMINATED = "Terminated"


TERMINABLE_PHASES = frozenset({Phase.CREATING, Phase.PENDING, Phase.RUNNING})

# The vendor's level-2 status for each level-1 phase.
SECONDARY_PHASE = {
    Phase.CREATING: "Creating",
    Phase.PENDING: "Queuing",
    Phase.RUNNING: "Running",
    Phase.COMPLETED: "Completed",
    Phase.FAILED: "Failed",
    Phase.TERMINATING: "Terminating",
    Phase.TERMINATED: "Terminated",
}

FAILED_EXIT_CODE = 1
TERMINATED_EXIT_CODE = 137  # SIGKILL, what a stopped container reports


@dataclass(frozen=True)
class LifecycleTimings:
    """Seconds (on the simulated clock) each transient phase lasts."""

    creating_s: float = 5.0
    pending_s: float = 10.0
    running_s: float = 60.0
    terminating_s: float = 3.0

    def __post_init__(self) -> None:
        for name in ("creating_s", "pending_s", "running_s", "terminating_s"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0, got {getattr(self, name)!r}")


@dataclass(frozen=True)
class Timeline:
    """The stored facts a job's history follows from."""

    created_ms: int
    outcome: Outcome
    terminate_requested_ms: int | None = None


@dataclass(frozen=True)
class Snapshot:
    """A job's phase at one moment, with the times the status object reports."""

    phase: Phase
    start_ms: int | None  # when Running began, if it has
    end_ms: int | None  # when Running ended (finished, failed or stopped), if it has
    now_ms: int

    @property
    def duration_ms(self) -> int:
        """Running time so far (ms): 0 before Running, frozen once Running has ended."""
        if self.start_ms is None:
            return 0
        end = self.end_ms if self.end_ms is not None else self.now_ms
        return max(0, end - self.start_ms)


def _ms(seconds: float) -> int:
    return round(seconds * 1000)


def snapshot_at(timeline: Timeline, timings: LifecycleTimings, now_ms: int) -> Snapshot:
    """The phase of the job described by ``timeline`` at ``now_ms``."""
    pending_at = timeline.created_ms + _ms(timings.creating_s)
    running_at = pending_at + _ms(timings.pending_s)
    finished_at = running_at + _ms(timings.running_s)
    stop = timeline.terminate_requested_ms
    if stop is not None and stop < finished_at:
        started = running_at if running_at <= stop else None
        end = stop if started is not None else None
        phase = (
            Phase.TERMINATED if now_ms >= stop + _ms(timings.terminating_s) else Phase.TERMINATING
        )
        if now_ms < stop:  # a read "before" the request (clock skew between threads): clamp
            now_ms = stop
        return Snapshot(phase=phase, start_ms=started, end_ms=end, now_ms=now_ms)
    if now_ms < pending_at:
        return Snapshot(Phase.CREATING, None, None, now_ms=now_ms)
    if now_ms < running_at:
        return Snapshot(Phase.PENDING, None, None, now_ms=now_ms)
    if now_ms < finished_at:
        return Snapshot(Phase.RUNNING, running_at, None, now_ms=now_ms)
    final = Phase.FAILED if timeline.outcome is Outcome.FAILED else Phase.COMPLETED
    return Snapshot(final, running_at, finished_at, now_ms=now_ms)


def can_terminate(snapshot: Snapshot) -> bool:
    """Terminate is accepted only while a job is Creating, Pending or Running."""
    return snapshot.phase in TERMINABLE_PHASES


def task_names(node_count: int) -> list[str]:
    return [f"worker-{index}" for index in range(max(1, node_count))]


def render_status(snapshot: Snapshot, node_count: int = 1) -> dict[str, Any]:
    """The API ``status`` object for ``snapshot`` (every field consistent with the phase)."""
    tasks = task_names(node_count)
    status: dict[str, Any] = {
        "phase": snapshot.phase.value,
        "secondary_phase": SECONDARY_PHASE[snapshot.phase],
        "duration": snapshot.duration_ms,
        "start_time": snapshot.start_ms if snapshot.start_ms is not None else 0,
        "tasks": tasks,
        "task_statuses": _task_statuses(snapshot, tasks),
        "running_records": _running_records(snapshot, tasks),
    }
    return status


def _task_statuses(snapshot: Snapshot, tasks: list[str]) -> list[dict[str, Any]]:
    if snapshot.start_ms is None:
        return []  # no task has started yet
    if snapshot.phase is Phase.RUNNING:
        return [{"task": task, "exit_code": 0, "message": ""} for task in tasks]
    if snapshot.phase is Phase.COMPLETED:
        return [{"task": task, "exit_code": 0, "message": "completed"} for task in tasks]
    if snapshot.phase is Phase.FAILED:
        failed = {"task": tasks[0], "exit_code": FAILED_EXIT_CODE, "message": "simulated failure"}
        return [failed] + [{"task": t, "exit_code": 0, "message": ""} for t in tasks[1:]]
    # Terminating / Terminated after the job had started
    message = "terminated by user"
    return [{"task": t, "exit_code": TERMINATED_EXIT_CODE, "message": message} for t in tasks]


def _running_records(snapshot: Snapshot, tasks: list[str]) -> list[dict[str, Any]]:
    if snapshot.start_ms is None:
        return []
    record: dict[str, Any] = {
        "start_at": snapshot.start_ms // 1000,
        "start_type": "init_or_rescheduled",
    }
    if snapshot.end_ms is not None:
        record["end_at"] = snapshot.end_ms // 1000
        if snapshot.phase is Phase.COMPLETED:
            record["end_reason"] = "job completed"
        elif snapshot.phase is Phase.FAILED:
            record["end_reason"] = f"exit with {FAILED_EXIT_CODE}"
            record["end_related_task"] = tasks[0]
        else:
            record["end_reason"] = "job terminated"
    return [record]
