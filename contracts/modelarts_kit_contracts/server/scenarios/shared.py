"""A few jobs the run creates once and the scenarios of the nine further operations share
(list filters, isolation, task outputs, description limits): each scenario stays a few
requests. None of them deletes or changes a shared job: what they send is refused or reads."""

from __future__ import annotations

from dataclasses import dataclass

from modelarts_kit_spec.meaning import Role

from modelarts_kit_contracts.server.api_map import JSON
from modelarts_kit_contracts.server.probe import Probe
from modelarts_kit_contracts.server.scenarios.steps import create_job

SHARED_KEY = "shared_jobs"
SHARED_COUNT = 2  # two jobs tell a filter that keeps one from one that keeps both


@dataclass(frozen=True)
class SharedJobs:
    ids: tuple[str, ...]


def shared_jobs(probe: Probe, check: str) -> tuple[str, ...] | None:
    """The run's shared jobs (created on first use; ``check`` is recorded failed if a valid
    create is refused)."""
    memo = probe.state.get(SHARED_KEY)
    if isinstance(memo, SharedJobs):
        return memo.ids
    ids: list[str] = []
    for _ in range(SHARED_COUNT):
        job_id, _ = create_job(probe, check)
        if job_id is None:
            return None
        ids.append(job_id)
    probe.state[SHARED_KEY] = SharedJobs(tuple(ids))
    return tuple(ids)


def shown(probe: Probe, job_id: str) -> JSON:
    """The job as show answers it now (None: not a success)."""
    response = probe.send(Role.SHOW, job_id=job_id)
    return response.json() if 200 <= response.status < 300 else None
