"""Per-task output over HTTP: log preview, log link and metrics, for the job's tasks only."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from modelarts_kit_server import LifecycleTimings, ManualClock, ServerSettings, create_app
from modelarts_kit_spec.meaning import Role

from .operation_calls import Family, family_client
from .server_support import check_error

TASK_ROLES = (Role.LOGS_PREVIEW, Role.LOGS_URL, Role.METRICS)


@pytest.fixture
def family(clock: ManualClock) -> Iterator[Family]:
    timings = LifecycleTimings(startup_s=30, running_s=600, terminating_s=3)
    app = create_app(ServerSettings(clock=clock, timings=timings))
    family = family_client(app)
    yield family
    family.client.close()
    app.close()


def two_task_job(family: Family) -> tuple[str, list[str]]:
    job_id = family.created_id("two-tasks", spec={"resource": {"node_count": 2}})
    tasks = family.show(job_id).json()["status"]["tasks"]
    assert len(tasks) == 2
    return job_id, tasks


@pytest.mark.parametrize("role", TASK_ROLES)
def test_each_task_of_the_job_answers(family: Family, clock: ManualClock, role: Role) -> None:
    job_id, tasks = two_task_job(family)
    clock.advance(120)
    answers = [family.by_role(role, job_id=job_id, task=task) for task in tasks]
    assert [a.status_code for a in answers] == [200, 200]
    assert answers[0].json() != answers[1].json()  # each task its own output
    again = family.by_role(role, job_id=job_id, task=tasks[0])
    assert again.json() == answers[0].json()  # deterministic at one moment


@pytest.mark.parametrize("role", TASK_ROLES)
def test_an_unknown_task_is_refused(family: Family, role: Role) -> None:
    job_id, _ = two_task_job(family)
    response = family.by_role(role, job_id=job_id, task="worker-9")
    assert response.status_code == 400
    assert "worker-9" in response.json()["error_msg"]
    operation = family.spec.meaning.roles.get(role)
    assert operation is not None
    meanings = family.spec.meaning.errors.meanings(operation.operation_id)
    code = response.json()["error_code"]
    assert any(
        family.spec.meaning.errors.accepts(operation.operation_id, 400, code, meaning)
        for meaning in meanings
    )


@pytest.mark.parametrize("role", TASK_ROLES)
def test_a_foreign_job_is_the_unknown_job_error(family: Family, role: Role) -> None:
    job_id, tasks = two_task_job(family)
    response = family.by_role(role, job_id=job_id, task=tasks[0], project_id="dddd4444")
    check_error(response, 400, family.error_code(role, "not-found"))


def test_the_log_grows_while_the_task_runs(family: Family, clock: ManualClock) -> None:
    job_id, tasks = two_task_job(family)
    preview = [family.by_role(Role.LOGS_PREVIEW, job_id=job_id, task=tasks[0]).json()]
    for _ in range(2):
        clock.advance(60)
        preview.append(family.by_role(Role.LOGS_PREVIEW, job_id=job_id, task=tasks[0]).json())
    assert preview[0]["full_size"] < preview[1]["full_size"] < preview[2]["full_size"]
    assert preview[2]["content"].startswith(preview[1]["content"])
    assert preview[2]["current_size"] == len(preview[2]["content"].encode("utf-8"))


def test_metrics_name_every_documented_metric(family: Family, clock: ManualClock) -> None:
    job_id, tasks = two_task_job(family)
    clock.advance(180)
    answer = family.by_role(Role.METRICS, job_id=job_id, task=tasks[0]).json()
    names = [metric["metric"] for metric in answer["metrics"]]
    assert names
    assert len(names) == len(set(names))
    assert all(len(metric["value"]) == 4 for metric in answer["metrics"])  # minutes 0-3


@pytest.mark.parametrize("how", ["query", "header"])
def test_the_log_link_asks_for_a_download_with_octet_stream(family: Family, how: str) -> None:
    job_id, tasks = two_task_job(family)
    preview = family.by_role(Role.LOGS_URL, job_id=job_id, task=tasks[0]).json()["obs_url"]
    kind = {"Content-Type": "application/octet-stream"}
    download = family.by_role(
        Role.LOGS_URL,
        job_id=job_id,
        task=tasks[0],
        params=kind if how == "query" else None,
        headers=kind if how == "header" else None,
    ).json()["obs_url"]
    assert preview != download
    assert "response-content-disposition=attachment" in download
    assert "response-content-disposition=inline" in preview
