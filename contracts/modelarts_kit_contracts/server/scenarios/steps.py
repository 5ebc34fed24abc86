"""Steps every scenario takes: create a job, and judge an answer's status or documented error."""

from __future__ import annotations

from modelarts_kit_spec.meaning import Role

from modelarts_kit_contracts.core import Finding
from modelarts_kit_contracts.server.api_map import JSON, ApiMap, member
from modelarts_kit_contracts.server.bodies import new_job_body
from modelarts_kit_contracts.server.meaning import ErrorMeaning, accepted_codes, lifecycle
from modelarts_kit_contracts.server.probe import Probe, ProbeResponse


def expect_status(
    response: ProbeResponse, expected: int | tuple[int, ...], title: str, what: str
) -> Finding | None:
    allowed = (expected,) if isinstance(expected, int) else expected
    if response.status in allowed:
        return None
    return Finding(
        title=title,
        expected=f"HTTP {' or '.join(map(str, allowed))} ({what})",
        got=f"HTTP {response.status}: {response.body[:160].decode('utf-8', 'replace')}",
    )


def create_job(probe: Probe, check: str) -> tuple[str | None, JSON]:
    """Create a job; record ``check`` failed if the spec's own example is refused."""
    body = new_job_body(probe)
    response = probe.send(Role.CREATE, body=body)
    expected = int(probe.api.create.success.status)
    violation = expect_status(response, expected, "Creating a valid job failed", "job created")
    job_id = probe.api.job_id_of(response.json())
    if violation is None and not isinstance(job_id, str):
        violation = Finding(
            title="Created job has no id",
            expected=f"{probe.api.job_id_name}: a string",
            got=f"{probe.api.job_id_name} == {job_id!r}",
            pointer=probe.api.job_id_pointer,
        )
    if violation is not None:
        probe.record(check, violation, role=Role.CREATE, reproduce=response.curl)
        return None, body
    return str(job_id), body


def documented_error(
    api: ApiMap,
    role: Role,
    response: ProbeResponse,
    meaning: ErrorMeaning,
    title: str,
    pointer: str = "",
) -> Finding | None:
    """None when ``response`` is an error the spec documents for ``meaning`` on ``role``.

    The status is one whose documented codes carry that meaning; the code is any of them
    (a generic code the spec lists for the meaning counts as much as a specific one). When
    the spec lists no code for the meaning, the status alone is judged: a check never
    demands a code the spec does not list.
    """
    statuses = {
        status: codes
        for status in (400, 404, 409, 422)
        if (codes := accepted_codes(api, role, status, meaning))
    }
    code = member(response.json(), "error_code")
    if response.status in statuses and code in statuses[response.status]:
        return None
    if not statuses and 400 <= response.status < 500:
        return None
    wanted = " or ".join(
        f"HTTP {status} with error_code in {sorted(codes)}" for status, codes in statuses.items()
    )
    operation = api.operation(role)
    # The codes a meaning may answer are listed per response (x-modelarts-error-codes).
    evidence = "; ".join(
        api.envelopes.evidence(f"{operation.pointer}/responses/{status}/x-modelarts-error-codes")
        + f" ({meaning})"
        for status in statuses
    )
    return Finding(
        title=title,
        expected=wanted or "a 4xx error",
        got=f"HTTP {response.status}, error_code {code!r}",
        pointer=pointer,
        evidence=evidence,
    )


def record_job_untouched(probe: Probe, check: str, job_id: str, title: str, expected: str) -> None:
    """Show the job: ``check`` fails when it reports a phase only an accepted terminate leads to."""
    shown = probe.send(Role.SHOW, job_id=job_id)
    phase = probe.api.phase_of(shown.json())
    probe.record(
        check,
        None
        if phase not in lifecycle(probe.api).terminate_accepted_phases
        else Finding(
            title=title,
            expected=expected,
            got=f"{probe.api.phase_name} == {phase!r}",
            pointer=probe.api.phase_pointer,
        ),
        role=Role.SHOW,
        reproduce=shown.curl,
    )


def applicable(probe: Probe, check: str, *roles: Role) -> bool:
    """Whether the spec has every operation ``check`` needs; where not, a note says the check
    does not apply (a spec of the first edition has only create, show and terminate)."""
    missing = [role.value for role in roles if probe.api.get(role) is None]
    if missing:
        probe.note(
            f"{check}: not applicable: the spec has no operation with x-modelarts-role "
            f"{', '.join(missing)}"
        )
    return not missing


def expect_success(probe: Probe, role: Role, response: ProbeResponse, what: str) -> Finding | None:
    """None when ``response`` has the documented success status of ``role``."""
    operation = probe.api.operation(role)
    documented = tuple(
        int(r.status) for r in operation.responses if r.status.isdigit() and r.status[0] == "2"
    )
    return expect_status(
        response,
        documented or (int(operation.success.status),),
        f"{operation.operation_id} of a job the run created was refused",
        what,
    )
