"""Scenario about a job's tasks: logs and metrics of a task the job does not have are refused.

The task operations (logs preview, logs URL, metrics) name a task in their path beside the
job; a task name no job has (``status.tasks`` lists a job's) gets the documented unknown-task
error (``task-not-found`` in the spec's ``x-modelarts-error-codes``), else any 4xx where the
spec lists no code for it.
"""

from __future__ import annotations

import random

from modelarts_kit_spec.meaning import Role

from modelarts_kit_contracts.server.evidence import operation_evidence
from modelarts_kit_contracts.server.meaning import ErrorMeaning
from modelarts_kit_contracts.server.probe import Probe
from modelarts_kit_contracts.server.scenarios.steps import create_job, documented_error

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
