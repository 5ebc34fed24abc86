"""Scenarios about changing a job's description: the new one is what show returns, and one
beyond the page's length limit is refused and changes nothing."""

from __future__ import annotations

import json
import random

from modelarts_kit_spec.meaning import Role

from modelarts_kit_contracts.core import Finding
from modelarts_kit_contracts.core.envelopes import Placement
from modelarts_kit_contracts.server.api_map import JSON, ApiMap, member
from modelarts_kit_contracts.server.evidence import operation_evidence
from modelarts_kit_contracts.server.meaning import ErrorMeaning
from modelarts_kit_contracts.server.probe import Probe
from modelarts_kit_contracts.server.quotes import DESCRIPTION_LENGTH, cite
from modelarts_kit_contracts.server.scenarios.shared import shared_jobs
from modelarts_kit_contracts.server.scenarios.steps import (
    applicable,
    create_job,
    documented_error,
    expect_success,
)

# Mixed case, a non-ASCII letter, an astral character and surrounding spaces: a server that
# trims, re-cases or normalises what it stores is seen.
DRAWN_TEXT = " Neue Beschreibung \u2013 説明 \U0001d4d3 "


def job_pointer_of(api: ApiMap, name: str) -> str | None:
    """Where the show answer carries the field ``name`` (top level, else one object down)."""
    schema = api.show.success.schema
    if schema is None:
        return None
    walker = api.spec.walker
    job = walker.view(schema)
    if name in job.properties:
        return f"/{name}"
    for outer in job.properties:
        inner = walker.property(job, outer)
        if inner is not None and name in inner.properties:
            return f"/{outer}/{name}"
    return None


def described_body(api: ApiMap, seed: int) -> tuple[str, JSON] | None:
    """(the field, a body every server accepts) changing the description to a drawn text."""
    operation = api.operation(Role.DESCRIBE)
    if operation.request_schema is None:
        return None
    fields = list(api.spec.walker.view(operation.request_schema).properties)
    if len(fields) != 1:
        return None
    name = fields[0]
    token = f"{random.Random(seed).getrandbits(32):08x}"
    for text in (f"{token}{DRAWN_TEXT}", token):
        body = {name: text}
        if api.envelopes.place(operation.operation_id, body) is Placement.MUST_ACCEPT:
            return name, body
    return None


def description_visible(probe: Probe) -> None:
    """A changed description is the one show returns, exactly."""
    check = "description_visible"
    if not applicable(probe, check, Role.DESCRIBE):
        return
    api = probe.api
    drawn = described_body(api, probe.seed)
    pointer = job_pointer_of(api, drawn[0]) if drawn is not None else None
    if drawn is None or pointer is None:
        probe.note(f"{check}: not applicable: the describe body is not one field show returns")
        return
    name, body = drawn
    job_id, _ = create_job(probe, check)
    if job_id is None:
        return
    changed = probe.send(Role.DESCRIBE, job_id=job_id, body=body)
    evidence = operation_evidence(api, Role.DESCRIBE)
    violation = expect_success(probe, Role.DESCRIBE, changed, "description changed")
    if violation is not None:
        probe.record(
            check, violation.but(evidence=evidence), role=Role.DESCRIBE, reproduce=changed.curl
        )
        return
    shown = probe.send(Role.SHOW, job_id=job_id)
    value = member(shown.json(), *pointer.split("/")[1:])
    probe.record(
        check,
        None
        if value == body[name]
        else Finding(
            title="A changed description is not what show returns",
            expected=f"{pointer} == {json.dumps(body[name], ensure_ascii=False)}",
            got=f"HTTP {shown.status}: {pointer} == {json.dumps(value, ensure_ascii=False)}",
            pointer=pointer,
            evidence=evidence,
        ),
        role=Role.SHOW,
        reproduce=shown.curl,
    )


def description_limit_enforced(probe: Probe) -> None:
    """A description beyond the page's length limit is refused, and the job keeps the one it
    had (the edit is sent to a job the run created)."""
    check = "description_limit_enforced"
    if not applicable(probe, check, Role.DESCRIBE):
        return
    api = probe.api
    operation = api.operation(Role.DESCRIBE)
    drawn = described_body(api, probe.seed)
    pointer = job_pointer_of(api, drawn[0]) if drawn is not None else None
    schema = operation.request_schema
    view = api.spec.walker.view(schema) if schema is not None else None
    field = api.spec.walker.property(view, drawn[0]) if view is not None and drawn else None
    longest = field.schema.get("maxLength") if field is not None else None
    if drawn is None or pointer is None or not isinstance(longest, int):
        probe.note(f"{check}: not applicable: the describe body states no length limit")
        return
    name = drawn[0]
    body = {name: "d" * (longest + 1)}
    if api.envelopes.place(operation.operation_id, body) is not Placement.MUST_REJECT:
        probe.note(f"{check}: not applicable: a description of {longest + 1} is no page's fault")
        return
    ids = shared_jobs(probe, check)
    if ids is None:
        return
    job_id = ids[-1]
    before = member(probe.send(Role.SHOW, job_id=job_id).json(), *pointer.split("/")[1:])
    changed = probe.send(Role.DESCRIBE, job_id=job_id, body=body)
    evidence = cite(DESCRIPTION_LENGTH, head=operation_evidence(api, Role.DESCRIBE))
    refused = documented_error(
        api,
        Role.DESCRIBE,
        changed,
        ErrorMeaning.INVALID_PARAMETER,
        f"A description of {longest + 1} characters was not refused",
        pointer=f"/{name}",
    )
    probe.record(
        check,
        refused.but(evidence=f"{evidence}; {refused.evidence}".rstrip("; ")) if refused else None,
        role=Role.DESCRIBE,
        reproduce=changed.curl,
    )
    shown = probe.send(Role.SHOW, job_id=job_id)
    after = member(shown.json(), *pointer.split("/")[1:])
    probe.record(
        check,
        None
        if after == before
        else Finding(
            title="A refused description changed the job",
            expected=f"{pointer} == {json.dumps(before, ensure_ascii=False)} (as before)",
            got=f"{pointer} == {json.dumps(after, ensure_ascii=False)[:80]}",
            pointer=pointer,
            evidence=evidence,
        ),
        role=Role.SHOW,
        reproduce=shown.curl,
    )
