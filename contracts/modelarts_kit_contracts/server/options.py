"""What a server contract run is asked to do: its budget, options and profiles, and the
share of ``--max-time`` a live run keeps for its clean-up."""

from __future__ import annotations

from dataclasses import dataclass

from modelarts_kit_contracts.server.schemathesis_adapter import ALL_PHASES
from modelarts_kit_contracts.transport_auth import Credentials

DEFAULT_MAX_EXAMPLES = 25
DEFAULT_LIVE_MAX_CREATES = 12
STOP_GRACE_S = 2.0  # after the deadline: time for the worker to notice before it is abandoned
CLEANUP_RESERVE_S = 10.0  # of --max-time, kept for terminating a live run's jobs (at least)
CLEANUP_REQUESTS_PER_JOB = 2  # its terminate, then a show of the phase it ends in
CLEANUP_SLACK_S = 1.0


@dataclass(frozen=True)
class Budget:
    max_examples: int = DEFAULT_MAX_EXAMPLES
    max_time: int | None = None  # seconds; a hard wall-clock bound on the whole run
    seed: int | None = None

    def __post_init__(self) -> None:
        if self.max_examples < 1:
            raise ValueError(f"--max-examples must be >= 1, got {self.max_examples}")
        if self.max_time is not None and self.max_time < 1:
            raise ValueError(f"--max-time must be >= 1 second, got {self.max_time}")


@dataclass(frozen=True)
class RunOptions:
    credentials: Credentials
    project_id: str
    other_project_id: str
    budget: Budget = Budget()
    phases: tuple[str, ...] = ALL_PHASES
    scenarios: bool = True
    request_timeout_s: float = 10.0
    final_phase_wait_s: float = 10.0
    workers: int = 1
    max_creates: int = DEFAULT_LIVE_MAX_CREATES  # on a live target
    read_only: bool = False
    rate: float | None = None  # requests per second

    def __post_init__(self) -> None:
        unknown = [p for p in self.phases if p not in ALL_PHASES]
        if unknown:
            raise ValueError(f"--phases: {unknown} not in {list(ALL_PHASES)}")
        if self.project_id == self.other_project_id:
            raise ValueError(
                f"--other-project-id must differ from --project-id (both {self.project_id!r})"
            )
        if self.workers < 1:
            raise ValueError(f"--workers must be >= 1, got {self.workers}")
        if self.max_creates < 0:
            raise ValueError(f"--max-creates must be >= 0, got {self.max_creates}")
        if self.rate is not None and self.rate <= 0:
            raise ValueError(f"--rate must be > 0 requests per second, got {self.rate}")

    @property
    def secrets(self) -> tuple[str | None, ...]:
        c = self.credentials
        return (c.token, c.ak, c.sk)


def cleanup_reserve(max_time: int, jobs: int, slowest_answer_s: float) -> float:
    """Seconds of ``--max-time`` a live run keeps for its clean-up.

    Room for the worker to stop, then for each unfinished job's requests at the pace of the
    slowest answer seen so far (a slow server gets the time it needs), and never less than
    the fixed share (a quarter, at most :data:`CLEANUP_RESERVE_S`) nor more than the whole.
    """
    fixed = min(CLEANUP_RESERVE_S, max_time / 4)
    needed = STOP_GRACE_S + jobs * CLEANUP_REQUESTS_PER_JOB * slowest_answer_s + CLEANUP_SLACK_S
    return min(float(max_time), max(fixed, needed))


@dataclass(frozen=True)
class Profile:
    phases: tuple[str, ...]
    max_examples: int


# The documented --quick profile: a verdict in a few seconds on the embedded server.
QUICK = Profile(phases=("examples", "fuzzing"), max_examples=5)


def default_other_project(project_id: str) -> str:
    """A project id that is not ``project_id`` (the project-isolation check's default)."""
    other = project_id[::-1]
    return other if other != project_id else f"{project_id}-other"
