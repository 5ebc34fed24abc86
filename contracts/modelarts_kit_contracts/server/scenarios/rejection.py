"""Scenarios about what a server refuses: unknown jobs, bodies breaking an enforced rule,
unsupported actions; and what it may refuse (guidance, observed, never failed)."""

from __future__ import annotations

import json
import uuid

from modelarts_kit_spec.meaning import Role

from modelarts_kit_contracts.core.envelopes import Placement
from modelarts_kit_contracts.server.api_map import JSON, ApiMap, member
from modelarts_kit_contracts.server.bodies import (
    MISSING,
    at_pointer,
    drop_path,
    has_path,
    merge_at,
    new_job_body,
    set_path,
)
from modelarts_kit_contracts.server.breaks import (
    DROP,
    MAX_CONSTRAINT_BREAKS,
    constraint_breaks,
    guidance_breaks,
    node_by_node,
)
from modelarts_kit_contracts.server.choices import choices_made, cite
from modelarts_kit_contracts.server.meaning import ErrorMeaning
from modelarts_kit_contracts.server.probe import Probe, ProbeResponse
from modelarts_kit_contracts.server.scenarios.steps import (
    create_job,
    documented_error,
    record_job_untouched,
)


def unknown_job_documented_error(probe: Probe) -> None:
    """show/terminate of a job that does not exist -> 400 ModelArts.2775."""
    missing = str(uuid.uuid4())
    for role in (Role.SHOW, Role.TERMINATE):
        body = probe.api.example_body(Role.TERMINATE) if role is Role.TERMINATE else None
        response = probe.send(role, job_id=missing, body=body)
        violation = documented_error(
            probe.api,
            role,
            response,
            ErrorMeaning.NOT_FOUND,
            f"{role.value} of an unknown job does not give the documented error",
        )
        probe.record("unknown_job_documented_error", violation, role=role, reproduce=response.curl)


UNDOCUMENTED_KEY = ""
MAX_GUIDANCE_BREAKS = 12


def guidance_not_enforced(probe: Probe) -> None:
    """Bodies breaking only a guidance rule: whatever the server does is its own choice,
    recorded as an observation ("enforces: ...", "ignores unknown fields"), never a failure."""
    check = "guidance_not_enforced"
    api = probe.api
    create_id = api.create.operation_id
    tried = 0
    for path, _keyword, fields in node_by_node(
        guidance_breaks(
            api.spec, api.create.request_schema, pointer=api.request_pointer(Role.CREATE)
        )
    ):
        if tried >= MAX_GUIDANCE_BREAKS:
            break  # the terminate body's guidance is still tried below
        body = new_job_body(probe)
        merge_at(api.spec, api.create.request_schema, body, path, fields)
        if api.envelopes.place(create_id, body) is not Placement.BETWEEN:
            continue  # not a body that breaks guidance alone
        tried += 1
        response = probe.send(Role.CREATE, body=body)
        _observe(probe, api, create_id, body, response, check)
        probe.record(check, None, role=Role.CREATE)
    job_id, _ = create_job(probe, check)
    if job_id is None:
        return
    terminate_id = api.terminate.operation_id
    breaks = [
        *guidance_breaks(
            api.spec, api.terminate.request_schema, pointer=api.request_pointer(Role.TERMINATE)
        ),
        ((), "additionalProperties", {UNDOCUMENTED_KEY: 1}),
    ]
    for path, _keyword, fields in breaks:
        body = api.example_body(Role.TERMINATE)
        merge_at(api.spec, api.terminate.request_schema, body, path, fields)
        if api.envelopes.place(terminate_id, body) is not Placement.BETWEEN:
            continue
        response = probe.send(Role.TERMINATE, job_id=job_id, body=body)
        _observe(probe, api, terminate_id, body, response, check)
        probe.record(check, None, role=Role.TERMINATE)
        if 200 <= response.status < 300:
            return  # the job is terminating now: a second body would meet another rule


def _observe(
    probe: Probe, api: ApiMap, operation_id: str, body: JSON, response: ProbeResponse, check: str
) -> None:
    code = member(response.json(), "error_code")
    for found in choices_made(api, operation_id, body, response.status, code, check=check):
        probe.observe(found)


def invalid_job_rejected(probe: Probe) -> None:
    """A create body breaking one documented constraint gets 400 ModelArts.2788, no job."""
    check = "invalid_job_rejected"
    api = probe.api
    must_reject = api.envelopes.must_reject
    create_id = api.create.operation_id
    schema = must_reject.operation(create_id).request_schema
    validator = must_reject.validator(schema)
    tried: set[str] = set()
    for path, value, rule in constraint_breaks(
        must_reject, schema, pointer=api.request_pointer(Role.CREATE)
    ):
        pointer = "/" + "/".join(path)
        if f"{pointer} {rule}" in tried or len(tried) >= MAX_CONSTRAINT_BREAKS:
            continue
        body = new_job_body(probe)
        base_ok = validator.is_valid(body)
        broken = json.loads(json.dumps(body))
        if value is DROP:
            if not has_path(body, path):
                continue
            drop_path(broken, path)
        else:
            set_path(api.spec, schema, broken, path, value)
        fixed = json.loads(json.dumps(broken))
        # The body must be invalid only at ``path``: valid with that one field restored.
        original = at_pointer(body, "/" + "/".join(path)) if has_path(body, path) else MISSING
        if original is MISSING:
            drop_path(fixed, path)
        else:
            set_path(api.spec, schema, fixed, path, original)
        if not base_ok or validator.is_valid(broken) or not validator.is_valid(fixed):
            continue
        tried.add(f"{pointer} {rule}")
        response = probe.send(Role.CREATE, body=broken)
        violation = documented_error(
            api,
            Role.CREATE,
            response,
            ErrorMeaning.INVALID_PARAMETER,
            f"A job breaking the {rule} rule at {pointer} was not rejected",
            pointer,
        )
        if violation is not None:
            # The rule the body breaks is the evidence, not the codes that may answer it.
            violation = cite(api, violation.but(rule=rule, evidence=""), create_id, broken)
        probe.record(check, violation, role=Role.CREATE, reproduce=response.curl)


def unsupported_action_rejected(probe: Probe) -> None:
    """terminate with an action_type outside the enum -> 400 ModelArts.2812, job untouched."""
    check = "unsupported_action_rejected"
    job_id, _ = create_job(probe, check)
    if job_id is None:
        return
    body = probe.api.example_body(Role.TERMINATE)
    action_key = next(iter(body))
    body[action_key] = "restart"
    response = probe.send(Role.TERMINATE, job_id=job_id, body=body)
    violation = documented_error(
        probe.api,
        Role.TERMINATE,
        response,
        ErrorMeaning.UNSUPPORTED_ACTION,
        "An unsupported action_type was not rejected",
        f"/{action_key}",
    )
    probe.record(check, violation, role=Role.TERMINATE, reproduce=response.curl)
    record_job_untouched(
        probe, check, job_id, "An unsupported action terminated the job", "the job keeps its phase"
    )
