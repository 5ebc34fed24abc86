"""Scenarios about a job's tasks: logs and metrics of a task the job does not have are
refused, and those of a task it has conform to their schemas.

The task operations (logs preview, logs URL, metrics) name a task in their path beside the
job; a task name no job has (``status.tasks`` lists a job's) gets the documented unknown-task
error (``task-not-found`` in the spec's ``x-modelarts-error-codes``), else any 4xx where the
spec lists no code for it.
"""

from __future__ import annotations

import random

from modelarts_kit_spec.meaning import Role

from modelarts_kit_contracts.core import Finding
from modelarts_kit_contracts.server.api_map import member
from modelarts_kit_contracts.server.evidence import operation_evidence
from modelarts_kit_contracts.server.meaning import ErrorMeaning
from modelarts_kit_contracts.server.probe import Probe
from modelarts_kit_contracts.server.quotes import LOGS_CONTENT, LOGS_URL, METRICS_VALUE, cite
from modelarts_kit_contracts.server.scenarios.shared import shared_jobs, shown
from modelarts_kit_contracts.server.scenarios.steps import (
    create_job,
    documented_error,
    expect_success,
)

TASK_ROLES = (Role.LOGS_PREVIEW, Role.LOGS_URL, Role.METRICS)


def unknown_task_name(seed: int) -> str:
    """A task name no job has: lower-case letters, digits and hyphens, like ``worker-0``."""
    return f"no-such-task-{random.Random(seed).getrandbits(32):08x}"


def unknown_task_refused(probe: Probe) -> None:
    """Logs and metrics of a task the job does not have get the documented error."""
    check = "unknown_task_refused"
    api = probe.api
    roles = [
        role for role in TASK_ROLES if api.get(role) is not None and api.other_path_params(role)
    ]
    if not roles:
        probe.note(
            f"{check}: not applicable: the spec has no task operation "
            f"({', '.join(role.value for role in TASK_ROLES)})"
        )
        return
    job_id, _ = create_job(probe, check)
    if job_id is None:
        return
    task = unknown_task_name(probe.seed)
    for role in roles:
        params = {name: task for name in api.other_path_params(role)}
        response = probe.send(role, job_id=job_id, params=params)
        operation = api.operation(role)
        violation = documented_error(
            api,
            role,
            response,
            ErrorMeaning.TASK_NOT_FOUND,
            f"{operation.operation_id} of an unknown task was not refused",
        )
        if violation is not None:
            pages = operation_evidence(api, role)
            violation = violation.but(evidence=f"{pages}; {violation.evidence}".rstrip("; "))
        probe.record(check, violation, role=role, reproduce=response.curl)


# The words of each task operation's page about what its answer carries.
TASK_QUOTES = {
    Role.METRICS: METRICS_VALUE,
    Role.LOGS_PREVIEW: LOGS_CONTENT,
    Role.LOGS_URL: LOGS_URL,
}
TASKS = ("status", "tasks")  # where a job lists its tasks' names (the show page's status.tasks)


def task_outputs_conform(probe: Probe) -> None:
    """Logs and metrics of a task the job has are answered, each as its success schema
    says (no run reads them otherwise: a job of the run's, its first task)."""
    check = "task_outputs_conform"
    api = probe.api
    roles = [
        role for role in TASK_ROLES if api.get(role) is not None and api.other_path_params(role)
    ]
    if not roles:
        probe.note(f"{check}: not applicable: the spec has no task operation")
        return
    ids = shared_jobs(probe, check)
    if ids is None:
        return
    tasks = member(shown(probe, ids[0]), *TASKS)
    task = tasks[0] if isinstance(tasks, list) and tasks and isinstance(tasks[0], str) else None
    if task is None:
        probe.note(f"{check}: not evaluated: job {ids[0]} lists no task at /{'/'.join(TASKS)}")
        return
    for role in roles:
        params = {name: task for name in api.other_path_params(role)}
        response = probe.send(role, job_id=ids[0], params=params)
        operation = api.operation(role)
        quote = TASK_QUOTES.get(role)
        evidence = (
            cite(quote, head=operation_evidence(api, role))
            if quote is not None
            else operation_evidence(api, role)
        )
        violation = expect_success(probe, role, response, f"the {role.value} of task {task}")
        if violation is None and operation.success.schema is not None:
            errors = sorted(
                api.spec.validator(operation.success.schema).iter_errors(response.json()),
                key=lambda e: list(e.absolute_path),
            )
            if errors:
                where = "/" + "/".join(str(p) for p in errors[0].absolute_path)
                violation = Finding(
                    title=f"The {role.value} answer of a task breaks its schema",
                    expected=f"an answer valid for {operation.operation_id}'s success schema",
                    got=f"{where}: {errors[0].message[:160]}",
                    pointer=where,
                )
        probe.record(
            check,
            violation.but(evidence=evidence) if violation is not None else None,
            role=role,
            reproduce=response.curl,
        )
