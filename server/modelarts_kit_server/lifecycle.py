"""Job lifecycle on the simulated clock: which phase a job is in, and its ``status`` object.

The phases and how a job moves between them come from the spec
(``load_spec().meaning.lifecycle``, the ``x-modelarts-lifecycle`` extension); nothing here names
a phase. A job's whole history follows from three stored facts (when it was created, whether and
when termination was requested, and the final phase it reaches if it runs to its end) plus
:class:`LifecycleTimings`, so the phase is computed when the job is read instead of being
advanced by a background task:

- the **normal course** (the first transition of each phase, from the initial phase) is walked on
  the clock: the phases before the spec's running phase share ``startup_s``, the running phase
  and the phases after it share ``running_s``, then the job reaches its outcome: the course's
  final phase, or another final phase the last running phase can move to (the test hook);
- an accepted terminate puts the job on the **stop course** (from the spec's stopping phase):
  its phases before the final one share ``terminating_s``.

With the curated spec: Creating -> Pending -> Running -> Completed | Failed | Abnormal, and
Creating | Pending | Running -> Terminating -> Terminated. The outcome is the normal course's
final phase unless the job asks for another through the test hook annotation
``modelarts-kit/simulate: <final phase, any case>`` (see :data:`SIMULATE_ANNOTATION`).

:class:`Simulation` binds a spec lifecycle to timings: :meth:`~Simulation.snapshot_at`,
:meth:`~Simulation.outcome_for`, :meth:`~Simulation.render_status`,
:meth:`~Simulation.transitions` (every phase change of a job's history, with its moment, for the
job's events); :func:`can_terminate`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Any

from modelarts_kit_spec.meaning import Lifecycle

__all__ = [
    "SIMULATE_ANNOTATION",
    "LifecycleTimings",
    "Schedule",
    "Simulation",
    "Snapshot",
    "Stage",
    "Timeline",
    "Transition",
    "can_terminate",
]

SIMULATE_ANNOTATION = "modelarts-kit/simulate"

FAILED_EXIT_CODE = 1
TERMINATED_EXIT_CODE = 137  # SIGKILL, what a stopped container reports


@dataclass(frozen=True)
class LifecycleTimings:
    """Seconds (on the simulated clock) each part of a job's life lasts."""

    startup_s: float = 15.0  # creation until the running phase (split over the phases before it)
    running_s: float = 60.0  # the running phase (and any later non-final phase of the course)
    terminating_s: float = 3.0  # the stop course until its final phase

    def __post_init__(self) -> None:
        for name in ("startup_s", "running_s", "terminating_s"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0, got {getattr(self, name)!r}")


@dataclass(frozen=True)
class Timeline:
    """The stored facts a job's history follows from."""

    created_ms: int
    outcome: str  # the final phase the job reaches if it runs to its end
    terminate_requested_ms: int | None = None


class Stage(enum.Enum):
    """Where a job is in its life, whatever the spec calls the phase."""

    STARTING = "starting"  # before the running phase
    RUNNING = "running"
    SUCCEEDED = "succeeded"  # ended in the normal course's final phase
    FAILED = "failed"  # ended in another final phase
    STOPPING = "stopping"  # on the stop course
    STOPPED = "stopped"


@dataclass(frozen=True)
class Snapshot:
    """A job's phase at one moment, with the times the status object reports."""

    phase: str
    stage: Stage
    start_ms: int | None  # when the running phase began, if it has
    end_ms: int | None  # when running ended (finished, failed or stopped), if it has
    now_ms: int
    terminable: bool = False  # the spec lists the phase among the terminable ones

    @property
    def duration_ms(self) -> int:
        """Running time so far (ms): 0 before running, frozen once running has ended."""
        if self.start_ms is None:
            return 0
        end = self.end_ms if self.end_ms is not None else self.now_ms
        return max(0, end - self.start_ms)


@dataclass(frozen=True)
class Transition:
    """A job entered ``phase`` (at ``stage``) at ``at_ms``."""

    phase: str
    stage: Stage
    at_ms: int


def _ms(seconds: float) -> int:
    return round(seconds * 1000)


def _spread(phases: tuple[str, ...], start_ms: int, total_s: float) -> list[tuple[str, int]]:
    """Each phase with the moment it begins, ``total_s`` split evenly among them."""
    if not phases:
        return []
    step = _ms(total_s) / len(phases)
    return [(phase, start_ms + round(step * index)) for index, phase in enumerate(phases)]


@dataclass(frozen=True)
class Schedule:
    """When each phase of a job's life begins, in ms from the start of its part: the starting
    phases from creation, the running phases from ``running_ms`` (after creation), the stop
    course from the terminate request; ``finished_ms`` after creation the job reaches its
    outcome, ``terminating_ms`` after the request ``stopped``."""

    starting: tuple[tuple[str, int], ...]
    running: tuple[tuple[str, int], ...]
    running_ms: int
    finished_ms: int
    stopping: tuple[tuple[str, int], ...]
    terminating_ms: int
    stopped: str


class Simulation:
    """The spec's lifecycle, scheduled on the simulated clock with ``timings``."""

    def __init__(self, lifecycle: Lifecycle, timings: LifecycleTimings) -> None:
        self.lifecycle = lifecycle
        self.timings = timings
        course = lifecycle.normal_course
        running = course.index(lifecycle.running)
        self._starting = course[:running]
        self._running = course[running:-1]
        self._success = course[-1]
        self._stop_phases = lifecycle.stop_course[:-1]
        self._stopped = lifecycle.stop_course[-1]
        others = [phase for phase in lifecycle.endings(course[-2]) if phase != self._success]
        self._outcomes = (self._success, *others)

    @property
    def outcomes(self) -> tuple[str, ...]:
        """The final phases a job that runs to its end may reach (the default first)."""
        return self._outcomes

    def outcome_for(self, requested: str | None) -> str | None:
        """The outcome a test-hook value names (any case), the default for None, else None."""
        if requested is None:
            return self._success
        for outcome in self._outcomes:
            if outcome.lower() == requested.strip().lower():
                return outcome
        return None

    def schedule(self) -> Schedule:
        """The offsets :meth:`snapshot_at` reads phases from (for a query that computes the
        phase itself, :mod:`modelarts_kit_server.search_sql`)."""
        timings = self.timings
        running_ms = _ms(timings.startup_s)
        return Schedule(
            starting=tuple(_spread(self._starting, 0, timings.startup_s)),
            running=tuple(_spread(self._running, 0, timings.running_s)),
            running_ms=running_ms,
            finished_ms=running_ms + _ms(timings.running_s),
            stopping=tuple(_spread(self._stop_phases, 0, timings.terminating_s)),
            terminating_ms=_ms(timings.terminating_s),
            stopped=self._stopped,
        )

    def snapshot_at(self, timeline: Timeline, now_ms: int) -> Snapshot:
        """The phase of the job described by ``timeline`` at ``now_ms``."""
        found = self._snapshot(timeline, now_ms)
        return replace(found, terminable=self.lifecycle.can_terminate(found.phase))

    def _snapshot(self, timeline: Timeline, now_ms: int) -> Snapshot:
        starting = _spread(self._starting, timeline.created_ms, self.timings.startup_s)
        running_at = timeline.created_ms + _ms(self.timings.startup_s)
        running = _spread(self._running, running_at, self.timings.running_s)
        finished_at = running_at + _ms(self.timings.running_s)
        stop = timeline.terminate_requested_ms
        if stop is not None and stop < finished_at:
            started = running_at if running_at <= stop else None
            if now_ms < stop:  # a read "before" the request (clock skew between threads): clamp
                now_ms = stop
            end = stop if started is not None else None
            stopping = _spread(self._stop_phases, stop, self.timings.terminating_s)
            if not stopping or now_ms >= stop + _ms(self.timings.terminating_s):
                return Snapshot(self._stopped, Stage.STOPPED, started, end, now_ms)
            return Snapshot(_current(stopping, now_ms), Stage.STOPPING, started, end, now_ms)
        if now_ms < running_at and starting:
            return Snapshot(_current(starting, now_ms), Stage.STARTING, None, None, now_ms)
        if now_ms < finished_at and running:
            return Snapshot(_current(running, now_ms), Stage.RUNNING, running_at, None, now_ms)
        outcome = self.outcome_for(timeline.outcome) or self._success
        stage = Stage.SUCCEEDED if outcome == self._success else Stage.FAILED
        return Snapshot(outcome, stage, running_at, finished_at, now_ms)

    def transitions(self, timeline: Timeline) -> list[Transition]:
        """Every phase the job described by ``timeline`` enters, in order, with its moment.

        Read from :meth:`snapshot_at` at each moment a schedule can change, so the history
        always agrees with what show answers at any time; the future ones are included (the
        caller shows only those that have happened)."""
        moments = sorted(self._moments(timeline))
        stop = timeline.terminate_requested_ms
        # Before the terminate request the job was on its normal course (a read at such a
        # moment of the terminated timeline is clamped to the request).
        unstopped = replace(timeline, terminate_requested_ms=None)
        found: list[Transition] = []
        for moment in moments:
            before_stop = stop is not None and moment < stop
            snapshot = self.snapshot_at(unstopped if before_stop else timeline, moment)
            if not found or found[-1].phase != snapshot.phase:
                found.append(Transition(snapshot.phase, snapshot.stage, moment))
        return found

    def _moments(self, timeline: Timeline) -> set[int]:
        """The moments at which the job's phase may change (a bounded set: one per phase)."""
        created = timeline.created_ms
        running_at = created + _ms(self.timings.startup_s)
        finished_at = running_at + _ms(self.timings.running_s)
        moments = {created, running_at, finished_at}
        moments.update(at for _, at in _spread(self._starting, created, self.timings.startup_s))
        moments.update(at for _, at in _spread(self._running, running_at, self.timings.running_s))
        stop = timeline.terminate_requested_ms
        if stop is not None and stop < finished_at:
            moments = {moment for moment in moments if moment < stop}
            stopping = _spread(self._stop_phases, stop, self.timings.terminating_s)
            moments.update(at for _, at in stopping)
            moments.update({stop, stop + _ms(self.timings.terminating_s)})
        return moments

    def render_status(self, snapshot: Snapshot, node_count: int = 1) -> dict[str, Any]:
        """The API ``status`` object for ``snapshot`` (every field consistent with the phase)."""
        tasks = task_names(node_count)
        secondary = self.lifecycle.secondary_of.get(snapshot.phase) or (snapshot.phase,)
        return {
            "phase": snapshot.phase,
            "secondary_phase": secondary[0],
            "duration": snapshot.duration_ms,
            "start_time": snapshot.start_ms if snapshot.start_ms is not None else 0,
            "tasks": tasks,
            "task_statuses": _task_statuses(snapshot, tasks),
            "running_records": _running_records(snapshot, tasks),
        }


def can_terminate(snapshot: Snapshot) -> bool:
    """Terminate is accepted only in the spec's terminable phases."""
    return snapshot.terminable


def _current(schedule: list[tuple[str, int]], now_ms: int) -> str:
    """The phase of a non-empty schedule that has begun last at ``now_ms``."""
    current = schedule[0][0]
    for phase, begins in schedule:
        if now_ms >= begins:
            current = phase
    return current


def task_names(node_count: int) -> list[str]:
    return [f"worker-{index}" for index in range(max(1, node_count))]


def _task_statuses(snapshot: Snapshot, tasks: list[str]) -> list[dict[str, Any]]:
    if snapshot.start_ms is None:
        return []  # no task has started yet
    if snapshot.stage is Stage.RUNNING:
        return [{"task": task, "exit_code": 0, "message": ""} for task in tasks]
    if snapshot.stage is Stage.SUCCEEDED:
        return [{"task": task, "exit_code": 0, "message": "completed"} for task in tasks]
    if snapshot.stage is Stage.FAILED:
        failed = {"task": tasks[0], "exit_code": FAILED_EXIT_CODE, "message": "simulated failure"}
        return [failed] + [{"task": t, "exit_code": 0, "message": ""} for t in tasks[1:]]
    message = "terminated by user"  # stopping or stopped after the job had started
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
        if snapshot.stage is Stage.SUCCEEDED:
            record["end_reason"] = "job completed"
        elif snapshot.stage is Stage.FAILED:
            record["end_reason"] = f"exit with {FAILED_EXIT_CODE}"
            record["end_related_task"] = tasks[0]
        else:
            record["end_reason"] = "job terminated"
    return [record]
