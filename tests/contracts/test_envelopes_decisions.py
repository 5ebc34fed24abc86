"""Decisions and values of their own lie between the envelopes (issue 31 items 3 and 4).

What only the ledger decided binds neither end: valid data respects it (must-accept), no
server is refused for ignoring it (must-reject leaves it out). An enum value only the SDK has
is no value every server must accept, nor one every server must refuse.
"""

from __future__ import annotations

import copy
from typing import Any

from modelarts_kit_contracts.core.envelopes import Placement
from modelarts_kit_contracts.server.api_map import ApiMap
from modelarts_kit_spec import load_spec

LIST = "ListTrainingJobs"
FLAVORS = "ShowTrainingJobFlavors"
CREATE = "CreateTrainingJob"
BODY: dict[str, Any] = {
    "kind": "job",
    "metadata": {"name": "decisions"},
    "algorithm": {"code_dir": "obs://bucket/code/", "boot_file": "obs://bucket/code/train.py"},
    "spec": {"resource": {"flavor_id": "modelarts.p3.large.public.free", "node_count": 1}},
}


def _flavor_type_valid(envelope_name: str, value: str) -> bool:
    envelope = load_spec().envelope(envelope_name)
    (parameter,) = [p for p in envelope.operation(FLAVORS).parameters if p.name == "flavor_type"]
    return not list(envelope.validator(parameter.schema).iter_errors(value))


def test_flavor_type_ascend_lies_between_the_envelopes() -> None:
    """The flavors page lists CPU and GPU; Ascend is the SDK's: not demanded accepted, not
    demanded refused. A value no source has is outside must-reject."""
    assert _flavor_type_valid("must-accept", "GPU")
    assert not _flavor_type_valid("must-accept", "Ascend")
    assert _flavor_type_valid("must-reject", "Ascend")
    assert not _flavor_type_valid("must-reject", "TPU")


def test_a_list_without_a_body_lies_between_the_envelopes() -> None:
    """requestBody.required is the ledger's decision (list-request-body-required)."""
    spec = load_spec()
    assert spec.operation(LIST).request_required
    assert spec.envelope("must-accept").operation(LIST).request_required
    assert not spec.envelope("must-reject").operation(LIST).request_required
    rule = spec.schema_model.rule_at(spec.operation(LIST).pointer + "/requestBody", "required")
    assert rule.strength == "decision"
    assert rule.ledger == ("list-request-body-required",)


def test_a_borrowed_minimum_is_between_the_envelopes() -> None:
    api = ApiMap.from_spec()
    body = copy.deepcopy(BODY)
    assert api.envelopes.place(CREATE, body) is Placement.MUST_ACCEPT
    body["spec"]["resource"]["node_count"] = 0
    assert api.envelopes.place(CREATE, body) is Placement.BETWEEN
    (rule,) = api.envelopes.broken(api.envelopes.must_accept, CREATE, body)
    assert (rule.keyword, rule.strength) == ("minimum", "decision")
    assert "spec-resource-node-count-minimum" in rule.evidence


def test_a_kind_the_answer_pages_list_is_a_value_of_the_requests_kind_too() -> None:
    """The show pages list hetero_job for the job's kind; the create page names only job, as
    its default ("The default value is job"): a value the pages list is one a server must
    accept, and one no page lists lies between the envelopes, since no page closes the
    request's list (ledger kind-options: a decision; the independent server accepts it)."""
    api = ApiMap.from_spec()
    body = {**copy.deepcopy(BODY), "kind": "hetero_job"}
    assert api.envelopes.place(CREATE, body) is Placement.MUST_ACCEPT
    body["kind"] = "no_such_kind"
    assert api.envelopes.place(CREATE, body) is Placement.BETWEEN


def test_a_task_engine_with_an_id_and_a_name_breaks_guidance_only() -> None:
    """The job engine's choose-one covers a task's algorithm.engine too (item 6)."""
    api = ApiMap.from_spec()
    body = copy.deepcopy(BODY)
    body["tasks"] = [
        {
            "role": "worker",
            "algorithm": {"engine": {"engine_id": "e", "engine_name": "n", "engine_version": "v"}},
        }
    ]
    del body["spec"]
    placed = api.envelopes.place(CREATE, body)
    assert placed is Placement.BETWEEN
    rules = api.envelopes.broken(api.envelopes.must_accept, CREATE, body)
    engine = [r for r in rules if r.instance_pointer == "/tasks/0/algorithm/engine"]
    assert [(r.keyword, r.strength) for r in engine] == [("allOf", "guidance")]


SHOW = "ShowTrainingJobDetails"
JOB_ANSWER: dict[str, Any] = {
    "kind": "job",
    "metadata": {"id": "job-1", "name": "decisions", "create_time": 1},
    "status": {"phase": "Running"},
}


def _answer_breaks(envelope_name: str, status: int, body: Any) -> list[str]:
    envelope = load_spec().envelope(envelope_name)
    response = envelope.operation(SHOW).response_for(status)
    assert response is not None
    assert response.schema is not None
    return sorted(str(e.validator) for e in envelope.validator(response.schema).iter_errors(body))


def test_a_response_decision_binds_no_server_and_is_observed() -> None:
    """The ledger made ``status.phase`` required in a job answer, and chose the ModelArts.NNNN
    pattern of ``error_code``: no page states either, so must-reject (what answers are
    judged by) leaves both out, and an answer without them is an observation."""
    no_phase = copy.deepcopy(JOB_ANSWER)
    del no_phase["status"]["phase"]
    assert _answer_breaks("must-accept", 200, no_phase) == ["required"]
    assert _answer_breaks("must-reject", 200, no_phase) == []
    other_code = {"error_code": "AS.0001", "error_msg": "The format of message is error"}
    assert _answer_breaks("must-accept", 400, other_code) == ["pattern"]
    assert _answer_breaks("must-reject", 400, other_code) == []
    api = ApiMap.from_spec()
    from modelarts_kit_contracts.server.choices import answer_choices

    (observed,) = answer_choices(api, SHOW, 400, other_code)
    assert observed.choice.startswith("answers outside a decision: pattern at ")
    assert "ledger entry error-code-pattern" in observed.evidence
    assert answer_choices(api, SHOW, 400, {"error_code": "ModelArts.0101", "error_msg": "x"}) == ()


def test_the_error_body_s_two_fields_are_documented_by_the_response_page() -> None:
    """reference/response.rst states that an error body carries error_code and error_msg:
    the rule quotes it, is documented, and binds every server (an answer without
    error_code breaks must-reject)."""
    rule = load_spec().schema_model.rule_at("/components/schemas/ErrorResponse", "required")
    assert str(rule.strength) == "documented"
    assert any(
        q.page == "reference/response.rst" and "error_code is an error code" in q.quote
        for q in rule.quotes
    )
    assert _answer_breaks("must-reject", 400, {"error_msg": "no code"}) == ["required"]
