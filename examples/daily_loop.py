"""The daily loop of a training-job user, with the generated client against the embedded
reference server: find your failed jobs, copy one with a new name, follow the copy's events
until it ends, and delete the failed ones.

    >>> from examples.daily_loop import daily_loop
    >>> report = daily_loop()
    >>> report["failed"]
    ['nightly-1', 'nightly-3']
    >>> report["copy"], report["copy ended"]
    ('nightly-1-retry', 'Completed')
    >>> report["events followed"] > 0, report["events repeated"]
    (True, 0)
    >>> report["failed after clean-up"], report["jobs left"]
    ([], ['nightly-1-retry', 'nightly-2'])

Run it from the repository root: ``python -m examples.daily_loop`` (it starts the reference
server on a free 127.0.0.1 port and creates three jobs, two of which fail, for the purpose).
Against your own account, pass the service's URL and your credentials to
``TrainingJobsClient`` and leave out the seeding: the loop stays the same.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

from modelarts_kit_server import DEV_PROJECT_ID, DEV_TOKEN, ServerSettings, serve_in_thread
from modelarts_training_client import Event, JobResponse, LogLine, TokenAuth, TrainingJobsClient

from examples.first_job import BODY, CLOCK_SPEED

__all__ = ["PREFIX", "daily_loop", "failed_jobs", "seed_jobs"]

# The jobs of this loop share a name prefix; the search finds them by it.
PREFIX = "nightly"
# The reference server's test hook: a job created with this annotation fails (see
# `modelarts-kit serve --help`). A real service needs no such thing to fail a job.
SIMULATE = "modelarts-kit/simulate"


def seed_jobs(client: TrainingJobsClient) -> None:
    """Three jobs, of which the first and the third fail; wait until all have ended."""
    created = []
    for number in (1, 2, 3):
        body = copy.deepcopy(BODY)
        body["metadata"] = {"name": f"{PREFIX}-{number}"}
        if number != 2:
            body["metadata"]["annotations"] = {SIMULATE: "failed"}
        created.append(client.create_training_job(body).metadata.id)
    for job_id in created:
        client.wait_for_training_job(job_id, timeout=60, poll=0.1)


def failed_jobs(client: TrainingJobsClient) -> Iterator[JobResponse]:
    """Your failed jobs of this loop, oldest first, every page of the search."""
    search = {
        "filters": [
            {"key": "phase", "operator": "in", "value": ["Failed"]},
            {"key": "name", "operator": "like", "value": [PREFIX]},
        ],
        "sort_by": "create_time",
        "order": "asc",
    }
    return client.iter_training_jobs(search)


def daily_loop(base_url: str | None = None) -> dict[str, Any]:
    """Find the failed jobs, copy the first with a new name, follow the copy to its end, and
    delete the failed ones; what each step saw.

    Without ``base_url``, against the reference server started (and seeded) here."""
    with ExitStack() as stack:
        if base_url is None:
            base_url = stack.enter_context(serve_in_thread(ServerSettings(clock_speed=CLOCK_SPEED)))
        client = stack.enter_context(
            TrainingJobsClient(
                base_url=base_url, project_id=DEV_PROJECT_ID, auth=TokenAuth(DEV_TOKEN)
            )
        )
        seed_jobs(client)
        failed = list(failed_jobs(client))
        # The copy: what the create request documents of the first failed job, renamed, and
        # without the test hook that made it fail.
        retry = (
            failed[0]
            .to_create_training_job_body()
            .model_dump(mode="json", by_alias=True, exclude_unset=True)
        )
        retry["metadata"]["name"] = f"{failed[0].metadata.name}-retry"
        retry["metadata"].pop("annotations", None)
        job_id = client.create_training_job(retry).metadata.id
        events: list[Event] = []
        lines: list[LogLine] = []
        for item in client.follow_training_job(job_id, timeout=60, poll=0.1):
            if isinstance(item, LogLine):
                lines.append(item)
            else:
                events.append(item)
        ended = client.show_training_job_details(job_id)
        for job in failed:
            client.delete_training_job(job.metadata.id)
        keys = [event.model_dump_json() for event in events]
        return {
            "failed": [str(job.metadata.name) for job in failed],
            "copy": str(ended.metadata.name),
            "copy ended": str(ended.status.phase),
            "events followed": len(events),
            "events repeated": len(keys) - len(set(keys)),
            "log lines followed": len(lines),
            "failed after clean-up": [str(job.metadata.name) for job in failed_jobs(client)],
            "jobs left": sorted(
                str(job.metadata.name)
                for job in client.iter_training_jobs(
                    {"filters": [{"key": "name", "operator": "like", "value": [PREFIX]}]}
                )
            ),
        }


if __name__ == "__main__":
    for step, seen in daily_loop().items():
        print(f"{step:>21}: {seen}")
