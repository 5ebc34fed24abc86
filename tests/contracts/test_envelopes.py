"""The contract kit reads the two envelopes through one adapter (issue 23).

- a body is must-accept, between, or outside must-reject (``Envelopes.place``), and each rule
  it breaks is cited with its strength and evidence from the schema model;
- what a client sends is judged by must-accept: the wire checks (run by the mock, the proxy
  and the client check) refuse an SDK-only field or an example-only null, and name it as a
  rule a server need not enforce; the client check asks clients to send must-accept bodies.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from modelarts_kit_contracts.client.cases import ClientCheckSettings, build_cases
from modelarts_kit_contracts.core.envelopes import Envelopes, Placement
from modelarts_kit_contracts.core.wire import GUIDANCE_NOTE, Headers, WireRequest, validate_request
from modelarts_kit_contracts.server.api_map import ApiMap
from modelarts_kit_spec import load_spec
from modelarts_kit_spec.schemamodel import MUST_ACCEPT

CREATE = "CreateTrainingJob"
PROJECT = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
BODY: dict[str, Any] = {
    "kind": "job",
    "metadata": {"name": "envelopes"},
    "algorithm": {
        "code_dir": "obs://bucket/code/",
        "boot_file": "obs://bucket/code/train.py",
        "outputs": [{"name": "out", "remote": {"obs": {"obs_url": "obs://bucket/out/"}}}],
    },
    "spec": {"resource": {"flavor_id": "modelarts.p3.large.public.free", "node_count": 1}},
}


def changed(path: tuple[str | int, ...], value: Any, base: Any = None) -> Any:
    body: Any = copy.deepcopy(BODY if base is None else base)
    node = body
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return body


SDK_FIELD = ("algorithm", "outputs", 0, "access_method")


def test_a_documented_body_is_must_accept_and_a_broken_rule_must_be_refused() -> None:
    api = ApiMap.from_spec()
    assert api.envelopes.place(CREATE, BODY) is Placement.MUST_ACCEPT
    broken = changed(("metadata", "name"), "not valid!")
    assert api.envelopes.place(CREATE, broken) is Placement.MUST_REJECT
    rules = api.envelopes.broken(api.envelopes.must_reject, CREATE, broken)
    assert [(r.keyword, r.strength, r.instance_pointer) for r in rules] == [
        ("pattern", "documented", "/metadata/name")
    ]
    assert "seeds/" in rules[0].evidence  # the page the rule comes from


def test_an_sdk_only_field_is_between_and_cited_as_sdk() -> None:
    api = ApiMap.from_spec()
    body = changed(SDK_FIELD, {})
    assert api.envelopes.place(CREATE, body) is Placement.BETWEEN
    (rule,) = api.envelopes.broken(api.envelopes.must_accept, CREATE, body)
    assert (rule.keyword, rule.strength) == ("additionalProperties", "sdk")
    assert rule.instance_pointer == "/algorithm/outputs/0/access_method"
    assert "vendor SDK" in rule.evidence


def test_a_choose_one_inside_allof_is_cited_by_the_allof_rule() -> None:
    """The engine's 'not both' pairs are written as allOf: [{not: ...}] and marked guidance
    there: the rule cited is the allOf, so its strength is guidance, not documented."""
    api = ApiMap.from_spec()
    body = changed(("algorithm", "engine"), {"engine_id": "e", "engine_name": "n"})
    del body["algorithm"]["code_dir"], body["algorithm"]["boot_file"]
    body["algorithm"]["command"] = "run"
    rules = api.envelopes.broken(api.envelopes.must_accept, CREATE, body)
    engine = [r for r in rules if r.instance_pointer == "/algorithm/engine"]
    assert engine, rules
    assert {r.strength for r in engine} == {"guidance"}
    assert any(r.keyword == "allOf" and "engine_id" in r.fields for r in engine), engine


def request(body: Any) -> WireRequest:
    return WireRequest(
        method="POST",
        path=f"/v2/{PROJECT}/training-jobs",
        headers=Headers([("content-type", "application/json"), ("x-auth-token", "t")]),
        body=json.dumps(body).encode(),
    )


def body_findings(body: Any) -> list[Any]:
    verdict = validate_request(load_spec(), request(body))
    return [f for f in verdict.findings if f.check == "request_body"]


def test_a_client_sending_an_sdk_only_field_is_not_failed_for_it() -> None:
    """What the vendor's SDK sends is evidence the service accepts it (issue 31 item 7): the
    body lies outside must-accept, but no client check fails the client for it."""
    assert body_findings(BODY) == []
    body = changed(SDK_FIELD, "FUSE")
    api = ApiMap.from_spec()
    assert api.envelopes.place("CreateTrainingJob", body) is Placement.BETWEEN
    assert body_findings(body) == []
    # An unknown field next to it is still one.
    (finding,) = body_findings(changed(("algorithm", "outputs", 0, "no_such_field"), 1, body))
    assert finding.pointer == "/algorithm/outputs/0/no_such_field"
    assert GUIDANCE_NOTE in finding.title  # a server need not refuse it


def test_a_client_sending_an_example_only_null_breaks_must_accept() -> None:
    body = changed(("algorithm", "parameters"), [{"name": "x", "i18n_description": None}])
    findings = body_findings(body)
    assert [f.pointer for f in findings] == ["/algorithm/parameters/0/i18n_description"]


def test_the_client_check_asks_clients_to_send_must_accept_bodies() -> None:
    spec = load_spec()
    accept = spec.envelope(MUST_ACCEPT)
    cases = build_cases(spec, ClientCheckSettings(max_examples=3, seed=1))
    sent = [c for c in cases if c.body is not None]
    # every operation that takes a body, create's among them (a case's body is its own operation's)
    assert CREATE in {c.operation.operation_id for c in sent}
    for case in sent:
        schema = accept.operation(case.operation.operation_id).request_schema
        assert schema is not None, case.name
        assert accept.validator(schema).is_valid(case.body), case.name


def test_a_body_is_validated_once_however_often_it_is_placed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The guard, the acceptance and rejection checks and the observations place the same
    body: the envelopes remember the placement (by the body's JSON, so an equal copy too)."""
    envelopes = ApiMap.from_spec().envelopes
    envelopes._placed.clear()
    calls: list[str] = []
    validate = Envelopes._is_valid

    def counting(self: Envelopes, envelope: Any, operation_id: str, body: Any) -> bool:
        calls.append(operation_id)
        return validate(self, envelope, operation_id, body)

    monkeypatch.setattr(Envelopes, "_is_valid", counting)
    broken = changed(("metadata", "name"), 7)
    for body in (BODY, copy.deepcopy(BODY), broken, copy.deepcopy(broken)):
        envelopes.place(CREATE, body)
    assert envelopes.place(CREATE, BODY) is Placement.MUST_ACCEPT
    assert envelopes.place(CREATE, broken) is Placement.MUST_REJECT
    assert len(calls) == 3  # BODY: must-accept; broken: must-accept, then must-reject
