"""Scenarios about deleting a job: it is gone afterwards, and a second delete is refused."""

from __future__ import annotations

from modelarts_kit_spec.meaning import Role

from modelarts_kit_contracts.server.evidence import operation_evidence
from modelarts_kit_contracts.server.meaning import ErrorMeaning
from modelarts_kit_contracts.server.probe import Probe, ProbeResponse
from modelarts_kit_contracts.server.scenarios.steps import (
    applicable,
    create_job,
    documented_error,
    expect_success,
)


def delete_created_job(probe: Probe, check: str) -> str | None:
    """Create a job and delete it: its id, or None (``check`` recorded failed) if either is
    refused."""
    job_id, _ = create_job(probe, check)
    if job_id is None:
        return None
    deleted = probe.send(Role.DELETE, job_id=job_id)
    violation = expect_success(probe, Role.DELETE, deleted, "job deleted")
    if violation is not None:
        evidence = operation_evidence(probe.api, Role.DELETE)
        probe.record(
            check, violation.but(evidence=evidence), role=Role.DELETE, reproduce=deleted.curl
        )
        return None
    return job_id


def deleted_job_unknown(probe: Probe) -> None:
    """After an accepted delete, show answers the documented unknown-job error."""
    check = "deleted_job_unknown"
    if not applicable(probe, check, Role.DELETE):
        return
    job_id = delete_created_job(probe, check)
    if job_id is None:
        return
    shown = probe.send(Role.SHOW, job_id=job_id)
    _record_not_found(probe, check, Role.SHOW, shown, "A deleted job can still be shown")


def second_delete_rejected(probe: Probe) -> None:
    """Deleting a job twice: the second delete gets the documented unknown-job error."""
    check = "second_delete_rejected"
    if not applicable(probe, check, Role.DELETE):
        return
    job_id = delete_created_job(probe, check)
    if job_id is None:
        return
    again = probe.send(Role.DELETE, job_id=job_id)
    _record_not_found(probe, check, Role.DELETE, again, "A second delete of a job was accepted")


def _record_not_found(
    probe: Probe, check: str, role: Role, response: ProbeResponse, title: str
) -> None:
    violation = documented_error(probe.api, role, response, ErrorMeaning.NOT_FOUND, title)
    if violation is not None:
        # The rule: a deleted job is gone (the delete page), answered as the spec documents.
        pages = operation_evidence(probe.api, Role.DELETE)
        violation = violation.but(evidence=f"{pages}; {violation.evidence}".rstrip("; "))
    probe.record(check, violation, role=role, reproduce=response.curl)
