"""Scenario: every operation that takes a job id refuses another project's job, and nothing
changes (show and terminate are :func:`.access.invisible_from_other_project`'s).

The job is one of the run's shared jobs, addressed through another project's path: its
events, a task's log preview, log link and metrics, a change of its description and its
delete. Each must be refused (a 4xx: for that project the job does not exist), and the job
afterwards is still there with the description it had.
"""

from __future__ import annotations

from modelarts_kit_spec.meaning import Role

from modelarts_kit_contracts.core import Finding
from modelarts_kit_contracts.server.api_map import JSON, member
from modelarts_kit_contracts.server.evidence import operation_evidence
from modelarts_kit_contracts.server.probe import Probe
from modelarts_kit_contracts.server.quotes import JOB_NOT_FOUND, cite
from modelarts_kit_contracts.server.scenarios.description import described_body, job_pointer_of
from modelarts_kit_contracts.server.scenarios.shared import shared_jobs, shown
from modelarts_kit_contracts.server.scenarios.tasks import unknown_task_name

ISOLATED_ROLES = (
    Role.EVENTS,
    Role.LOGS_PREVIEW,
    Role.LOGS_URL,
    Role.METRICS,
    Role.DESCRIBE,
    Role.DELETE,
)
TASKS = "/status/tasks"  # where a job lists its tasks' names (the show page's status.tasks)


def _task_of(job: JSON, seed: int) -> str:
    tasks = member(job, *TASKS.split("/")[1:])
    first = tasks[0] if isinstance(tasks, list) and tasks else None
    return first if isinstance(first, str) else unknown_task_name(seed)


def job_operations_isolated(probe: Probe) -> None:
    """Events, logs, metrics, describe and delete of a job through another project's path are
    refused, and the job is untouched."""
    check = "job_operations_isolated"
    api = probe.api
    roles = [role for role in ISOLATED_ROLES if api.get(role) is not None]
    if not roles:
        probe.note(f"{check}: not applicable: the spec has none of the job operations")
        return
    ids = shared_jobs(probe, check)
    if ids is None:
        return
    job_id = ids[0]
    before = shown(probe, job_id)
    other = probe.other_project_id
    description = job_pointer_of(api, "description")
    for role in roles:
        params = {name: _task_of(before, probe.seed) for name in api.other_path_params(role)}
        body = None
        if role is Role.DESCRIBE:
            drawn = described_body(api, probe.seed)
            body = drawn[1] if drawn is not None else {}
        response = probe.send(role, project_id=other, job_id=job_id, params=params, body=body)
        operation = api.operation(role)
        probe.record(
            check,
            None
            if 400 <= response.status < 500
            else Finding(
                title=f"{operation.operation_id} of another project's job was not refused",
                expected=f"project {other!r}: a 4xx error (job {job_id} is project "
                f"{probe.project_id!r}'s)",
                got=f"HTTP {response.status}: {response.body[:160].decode('utf-8', 'replace')}",
                evidence=cite(JOB_NOT_FOUND, head=operation_evidence(api, role)),
            ),
            role=role,
            reproduce=response.curl,
        )
    after = probe.send(Role.SHOW, job_id=job_id)
    # the rule is the changing operations' (their pages), shown through show
    changing = next((r for r in (Role.DELETE, Role.DESCRIBE) if r in roles), roles[0])
    was = member(before, *description.split("/")[1:]) if description else None
    now = member(after.json(), *description.split("/")[1:]) if description else None
    untouched = 200 <= after.status < 300 and was == now
    probe.record(
        check,
        None
        if untouched
        else Finding(
            title="Another project's request changed a job",
            expected=f"job {job_id} still shown, {description} == {was!r}",
            got=f"HTTP {after.status}; {description} == {now!r}",
            evidence=cite(JOB_NOT_FOUND, head=operation_evidence(api, changing)),
        ),
        role=Role.SHOW,
        reproduce=after.curl,
    )
