"""The generated iterators and follow helper against the reference server (real HTTP on
127.0.0.1, the server's clock moved by the client's own waits): every job listed once, in the
search's order, over 0, 1, 50, 51 and 137 jobs and uneven pages; follow gives exactly the
events and log lines the server has at the end, each once, and stops at a final phase."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from modelarts_kit_server import (
    DEV_PROJECT_ID,
    DEV_TOKEN,
    ManualClock,
    ServerSettings,
    create_app,
    serve_in_thread,
)
from modelarts_training_client import (
    TRAINING_JOB_FINAL_PHASES,
    AsyncTrainingJobsClient,
    LogLine,
    TokenAuth,
    TrainingJobsClient,
)

ASCENDING = {"sort_by": "create_time", "order": "asc"}


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def client(clock: ManualClock) -> Iterator[TrainingJobsClient]:
    """A client of a reference server whose clock moves only when the client waits."""

    def wait(seconds: float) -> None:
        clock.advance(seconds)

    with (
        serve_in_thread(ServerSettings(clock=clock)) as url,
        TrainingJobsClient(
            base_url=url, project_id=DEV_PROJECT_ID, auth=TokenAuth(DEV_TOKEN), sleep=wait
        ) as made,
    ):
        yield made


def _create(client: TrainingJobsClient, example: dict[str, Any], name: str) -> str:
    body = copy.deepcopy(example)
    body["metadata"]["name"] = name
    return str(client.create_training_job(body).metadata.id)


def test_iter_training_jobs_lists_every_job_once_in_order(
    client: TrainingJobsClient, clock: ManualClock, create_job_example: dict[str, Any]
) -> None:
    created: list[str] = []
    for count in (0, 1, 50, 51, 137):
        while len(created) < count:
            created.append(_create(client, create_job_example, f"paged-{len(created)}"))
            clock.advance(0.001)  # distinct create times: the ascending order is creation's
        for page_size in (50, 7):
            seen = [
                job.metadata.id for job in client.iter_training_jobs(ASCENDING, page_size=page_size)
            ]
            assert seen == created, (count, page_size)


def test_follow_gives_the_jobs_events_and_log_lines_once_until_it_ends(
    client: TrainingJobsClient, create_job_example: dict[str, Any]
) -> None:
    job_id = _create(client, create_job_example, "followed")
    followed = list(client.follow_training_job(job_id, timeout=60, poll=5, max_poll=30))
    events = [item for item in followed if not isinstance(item, LogLine)]
    lines = [item for item in followed if isinstance(item, LogLine)]
    ended = client.show_training_job_details(job_id)
    assert ended.status.phase in TRAINING_JOB_FINAL_PHASES
    # Exactly the events the server lists at the end (oldest first), none twice.
    assert [e.model_dump() for e in events] == [
        e.model_dump() for e in client.iter_training_job_events(job_id, order="asc")
    ]
    assert events
    # Exactly each task's whole log, line by line, none twice.
    tasks = sorted({line.task for line in lines})
    assert tasks
    for task in tasks:
        log = client.show_training_job_logs_preview(job_id, task).content or ""
        assert [line.line for line in lines if line.task == task] == log.splitlines()


async def test_the_async_iterators_and_follow_agree_with_the_server(
    clock: ManualClock, create_job_example: dict[str, Any]
) -> None:
    """The same through the asynchronous client, in process (ASGI)."""

    async def wait(seconds: float) -> None:
        clock.advance(seconds)

    http = httpx.AsyncClient(
        transport=httpx.ASGITransport(app=create_app(ServerSettings(clock=clock)))
    )
    async with AsyncTrainingJobsClient(
        project_id=DEV_PROJECT_ID,
        base_url="http://modelarts.local",
        auth=TokenAuth(DEV_TOKEN),
        http_client=http,
        sleep=wait,
    ) as client:
        created = []
        for number in range(51):
            body = copy.deepcopy(create_job_example)
            body["metadata"]["name"] = f"async-{number}"
            created.append(str((await client.create_training_job(body)).metadata.id))
            clock.advance(0.001)
        seen = [job.metadata.id async for job in client.iter_training_jobs(ASCENDING, page_size=10)]
        assert seen == created
        followed = [item async for item in client.follow_training_job(created[0], timeout=60)]
        listed = [
            e.model_dump() async for e in client.iter_training_job_events(created[0], order="asc")
        ]
        ended = await client.show_training_job_details(created[0])
    await http.aclose()
    assert ended.status.phase in TRAINING_JOB_FINAL_PHASES
    assert [e.model_dump() for e in followed if not isinstance(e, LogLine)] == listed
    lines = [item for item in followed if isinstance(item, LogLine)]
    assert len({(line.task, line.line) for line in lines}) == len(lines)
