"""Scenarios about who may act: credentials are required, and a job is invisible from another
project."""

from __future__ import annotations

from modelarts_kit_spec.meaning import Role

from modelarts_kit_contracts.core import Finding
from modelarts_kit_contracts.server.api_map import JSON
from modelarts_kit_contracts.server.bodies import new_job_body
from modelarts_kit_contracts.server.meaning import lifecycle
from modelarts_kit_contracts.server.probe import Probe
from modelarts_kit_contracts.server.scenarios.steps import (
    create_job,
    expect_status,
    record_job_untouched,
)

# Error codes from the vendor's error-code table (see /work/shared/reference/error_codes.rst).
AUTH_REJECTION_STATUSES = (401, 403)


def credentials_required(probe: Probe) -> None:
    """Requests without credentials, or with invalid ones, are refused (401/403), and do nothing."""
    job_id, _ = create_job(probe, "credentials_required")
    if job_id is None:
        return
    for kind in ("none", "invalid"):
        attempts: list[tuple[Role, str | None, JSON]] = [
            (Role.CREATE, None, new_job_body(probe)),
            (Role.SHOW, job_id, None),
            (Role.TERMINATE, job_id, probe.api.example_body(Role.TERMINATE)),
        ]
        for role, target, body in attempts:
            response = probe.send(role, job_id=target, body=body, credentials=kind)
            violation = expect_status(
                response,
                AUTH_REJECTION_STATUSES,
                f"A request with {'no' if kind == 'none' else 'invalid'} credentials "
                "was not refused",
                "credentials refused",
            )
            probe.record("credentials_required", violation, role=role, reproduce=response.curl)
    record_job_untouched(
        probe,
        "credentials_required",
        job_id,
        "An unauthenticated terminate took effect",
        "the job keeps running after refused terminate requests",
    )


def invisible_from_other_project(probe: Probe) -> None:
    """A job of one project cannot be seen or terminated through another project's path."""
    check = "invisible_from_other_project"
    job_id, sent = create_job(probe, check)
    if job_id is None:
        return
    other = probe.other_project_id
    shown = probe.send(Role.SHOW, project_id=other, job_id=job_id)
    # The id may be echoed in a "not found" message; the (unique) name may not appear at all.
    leaked = 200 <= shown.status < 300 or sent["metadata"]["name"].encode() in shown.body
    probe.record(
        check,
        Finding(
            title="A job is visible from another project",
            expected=f"show in project {other!r}: an error, without the job",
            got=f"HTTP {shown.status}: {shown.body[:160].decode('utf-8', 'replace')}",
        )
        if leaked
        else None,
        role=Role.SHOW,
        reproduce=shown.curl,
    )
    stopped = probe.send(
        Role.TERMINATE, project_id=other, job_id=job_id, body=probe.api.example_body(Role.TERMINATE)
    )
    after = probe.send(Role.SHOW, job_id=job_id)
    phase = probe.api.phase_of(after.json())
    touched = 200 <= stopped.status < 300 or phase in lifecycle(probe.api).terminate_accepted_phases
    probe.record(
        check,
        Finding(
            title="A job was terminated from another project",
            expected=f"terminate in project {other!r} refused, the job untouched",
            got=f"HTTP {stopped.status}; afterwards {probe.api.phase_name} == {phase!r}",
        )
        if touched
        else None,
        role=Role.TERMINATE,
        reproduce=stopped.curl,
    )
