"""Scenarios about a job's life: create and show echo what was sent, ids are unique,
terminate takes effect once and never on a final phase."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping

from modelarts_kit_spec.meaning import Role

from modelarts_kit_contracts.core import Finding
from modelarts_kit_contracts.server.api_map import JSON, ApiMap, member
from modelarts_kit_contracts.server.bodies import (
    NAME_ALPHABET,
    at_pointer,
    echo_values,
    must_accept_body,
)
from modelarts_kit_contracts.server.meaning import ErrorMeaning, accepted_codes, lifecycle
from modelarts_kit_contracts.server.probe import Probe, ProbeResponse
from modelarts_kit_contracts.server.scenarios.steps import (
    create_job,
    documented_error,
    expect_status,
)
from modelarts_kit_contracts.server.scenarios.waiting import POLL_S, ScenarioSteps, until


def _first_difference(sent: JSON, returned: JSON, pointer: str = "") -> tuple[str, JSON] | None:
    """The first leaf of ``sent`` that ``returned`` reports differently (None: all match).

    A field the response leaves out is not compared: the response schema decides what is
    echoed; a field it does return must carry the value that was sent, exactly (no trimming,
    re-casing, truncation or normalisation). A request map the response gives back as a list
    of one-entry maps (the spec does so for some maps) is compared entry by entry.
    """
    if isinstance(sent, Mapping) and _is_list_of_maps(returned):
        # A map of the caller's own keys (environment variables...): every key comes back.
        merged: dict[str, JSON] = {}
        for entry in returned:
            merged.update(entry)
        if set(merged) != set(sent):
            return pointer, returned
        returned = merged
    if isinstance(sent, Mapping | list) and not isinstance(returned, type(sent)):
        # Another JSON container is a representation the response schema defines;
        # response_schema_conformance judges it, value comparison cannot.
        return None
    if isinstance(sent, Mapping):
        for key, value in sent.items():
            if key not in returned:
                continue
            found = _first_difference(value, returned[key], f"{pointer}/{key}")
            if found is not None:
                return found
        return None
    if isinstance(sent, list):
        if len(returned) != len(sent):
            return pointer, returned
        for index, (a, b) in enumerate(zip(sent, returned, strict=True)):
            found = _first_difference(a, b, f"{pointer}/{index}")
            if found is not None:
                return found
        return None
    return None if sent == returned else (pointer, returned)


def _is_list_of_maps(value: JSON) -> bool:
    return isinstance(value, list) and all(isinstance(entry, Mapping) for entry in value)


ECHO_NAME_ATTEMPTS = 4  # a one-character name may already be taken on a long-lived server


def create_then_show_returns_sent(probe: Probe) -> None:
    """create and then show return exactly what was sent, for values over the allowed space."""
    check = "create_then_show_returns_sent"
    api = probe.api
    rng = random.Random(probe.seed)
    for extra in echo_values(api, rng):
        body = must_accept_body(probe, extra)
        if body is None:
            probe.note(f"{check}: a drawn body is not one every server accepts, skipped: {extra}")
            continue
        response = None
        for _ in range(ECHO_NAME_ATTEMPTS):
            response = probe.send(Role.CREATE, body=body)
            code = member(response.json(), "error_code")
            duplicate = accepted_codes(api, Role.CREATE, 400, ErrorMeaning.DUPLICATE_NAME)
            if response.status != 400 or code not in duplicate:
                break
            name = body["metadata"]["name"]
            body["metadata"]["name"] = "".join(rng.choice(NAME_ALPHABET) for _ in name)
        assert response is not None
        expected_status = int(api.create.success.status)
        violation = expect_status(
            response, expected_status, "Creating a valid job failed", "job created"
        )
        job_id = probe.api.job_id_of(response.json())
        if violation is None:
            violation = _echo_violation(body, response.json(), "Create")
        probe.record(check, violation, role=Role.CREATE, reproduce=response.curl)
        if not isinstance(job_id, str) or response.status != expected_status:
            continue
        shown = probe.send(Role.SHOW, job_id=job_id)
        violation = expect_status(
            shown, int(api.show.success.status), "A created job cannot be shown", "job found"
        )
        if violation is None:
            violation = _echo_violation(body, shown.json(), "Show")
        probe.record(check, violation, role=Role.SHOW, reproduce=shown.curl)


def _echo_violation(sent: JSON, returned: JSON, what: str) -> Finding | None:
    difference = _first_difference(sent, returned)
    if difference is None:
        return None
    pointer, got = difference
    return Finding(
        title=f"{what} does not return exactly what was sent to create",
        expected=f"{pointer} == {json.dumps(at_pointer(sent, pointer), ensure_ascii=False)}",
        got=f"{pointer} == {json.dumps(got, ensure_ascii=False)}",
        pointer=pointer,
    )


def job_ids_unique(probe: Probe, count: int = 3) -> None:
    """Every created job gets an id no other job has."""
    check = "job_ids_unique"
    seen: dict[str, str] = {}
    for _ in range(count):
        job_id, sent = create_job(probe, check)
        if job_id is None:
            return
        name = sent["metadata"]["name"]
        if job_id in seen:
            probe.record(
                check,
                Finding(
                    title="Two created jobs share an id",
                    expected=f"a new id for job {name!r}",
                    got=f"id {job_id!r}, already given to job {seen[job_id]!r}",
                    pointer=probe.api.job_id_pointer,
                ),
                role=Role.CREATE,
            )
            return
        seen[job_id] = name
    probe.record(check, None, role=Role.CREATE)


def terminate_lifecycle(probe: Probe) -> ScenarioSteps[None]:
    """terminate -> 2xx, the job stopping; terminate again -> not-terminable; final job -> same.

    It waits for the final phase between other scenarios (scenarios/waiting.py)."""
    job_id, _ = create_job(probe, "terminate_accepted_phase")
    if job_id is None:
        return
    first = probe.send(Role.TERMINATE, job_id=job_id, body=probe.api.example_body(Role.TERMINATE))
    violation = expect_status(
        first,
        int(probe.api.terminate.success.status),
        "Terminating a fresh job was refused",
        "termination accepted",
    )
    probe.record("terminate_accepted_phase", violation, role=Role.TERMINATE, reproduce=first.curl)
    if violation is not None:
        return
    shown = probe.send(Role.SHOW, job_id=job_id)
    phase = probe.api.phase_of(shown.json())
    probe.record(
        "terminate_takes_effect",
        None
        if phase in lifecycle(probe.api).terminate_accepted_phases
        else Finding(
            title="Terminate was accepted but the job was not terminated",
            expected=f"show: {probe.api.phase_name} in "
            f"{sorted(lifecycle(probe.api).terminate_accepted_phases)}",
            got=f"{probe.api.phase_name} == {phase!r} (HTTP {shown.status})",
            pointer=probe.api.phase_pointer,
        ),
        role=Role.SHOW,
        reproduce=shown.curl,
    )

    second = probe.send(Role.TERMINATE, job_id=job_id, body=probe.api.example_body(Role.TERMINATE))
    probe.record(
        "second_terminate_rejected",
        _not_terminable(probe.api, second, "A second terminate of the same job was accepted"),
        role=Role.TERMINATE,
        reproduce=second.curl,
    )

    deadline = probe.timeline.now() + probe.final_phase_wait_s
    final_phases = lifecycle(probe.api).final_phases
    while phase not in final_phases and probe.timeline.now() < deadline:
        yield until(probe.timeline, POLL_S)
        phase = probe.api.phase_of(probe.send(Role.SHOW, job_id=job_id).json())
    if phase not in final_phases:
        probe.note(
            f"final_phase_not_terminable: not evaluated, job {job_id} was still {phase!r} after "
            f"{probe.final_phase_wait_s:g}s (raise --final-phase-wait)"
        )
        return
    final = probe.send(Role.TERMINATE, job_id=job_id, body=probe.api.example_body(Role.TERMINATE))
    probe.record(
        "final_phase_not_terminable",
        _not_terminable(probe.api, final, f"A job in final phase {phase} was terminated"),
        role=Role.TERMINATE,
        reproduce=final.curl,
    )


def _not_terminable(api: ApiMap, response: ProbeResponse, title: str) -> Finding | None:
    return documented_error(api, Role.TERMINATE, response, ErrorMeaning.NOT_TERMINABLE, title)
