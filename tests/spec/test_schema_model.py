"""The schema model: every rule's strength and evidence, and the two envelopes built from it."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from modelarts_kit_spec import load_spec
from modelarts_kit_spec.schemamodel import MUST_ACCEPT, MUST_REJECT, Strength

JSON = Any
CREATE = "CreateTrainingJob"
STOP = "StopTrainingJob"
RESOURCE = "/components/schemas/SpecResource"


def _create_body() -> dict[str, JSON]:
    return {
        "kind": "job",
        "metadata": {"name": "schema-model"},
        "algorithm": {
            "code_dir": "obs://bucket/code/",
            "boot_file": "obs://bucket/code/train.py",
            "engine": {"engine_name": "PyTorch", "engine_version": "2.1"},
            "outputs": [{"name": "out", "remote": {"obs": {"obs_url": "obs://bucket/out/"}}}],
        },
        "spec": {"resource": {"flavor_id": "modelarts.vm.cpu.2u", "node_count": 1}},
    }


def _errors(envelope: str, operation: str, body: JSON) -> list[tuple[str, str]]:
    """(instance pointer, schema keyword) of every error of ``body`` in ``envelope``."""
    view = load_spec().envelope(envelope)
    schema = view.operation(operation).request_schema
    return sorted(
        ("/" + "/".join(str(p) for p in error.absolute_path), str(error.validator))
        for error in view.validator(schema).iter_errors(body)
    )


def test_a_plain_documented_body_is_inside_both_envelopes() -> None:
    assert _errors(MUST_ACCEPT, CREATE, _create_body()) == []
    assert _errors(MUST_REJECT, CREATE, _create_body()) == []


@pytest.mark.parametrize("envelope", [MUST_ACCEPT, MUST_REJECT])
def test_int32_range_is_part_of_both_envelopes(envelope: str) -> None:
    body = _create_body()
    body["spec"]["resource"]["node_count"] = 2**40
    assert _errors(envelope, CREATE, body) == [("/spec/resource/node_count", "maximum")]


def test_guidance_binds_in_must_accept_only() -> None:
    body = _create_body()
    del body["spec"]["resource"]["flavor_id"]  # neither flavor_id nor pool_id: guidance
    assert _errors(MUST_ACCEPT, CREATE, body) == [("/spec/resource", "anyOf")]
    assert _errors(MUST_REJECT, CREATE, body) == []


def test_must_accept_closes_request_objects_and_must_reject_leaves_them_open() -> None:
    terminate = {"action_type": "terminate", "": "extra"}
    assert _errors(MUST_ACCEPT, STOP, terminate) == [("/", "additionalProperties")]
    assert _errors(MUST_REJECT, STOP, terminate) == []
    body = _create_body()
    body["metadata"]["x_unknown"] = 1
    assert _errors(MUST_ACCEPT, CREATE, body) == [("/metadata", "additionalProperties")]
    assert _errors(MUST_REJECT, CREATE, body) == []


def test_documented_rules_bind_in_both_envelopes() -> None:
    body = _create_body()
    body["metadata"]["name"] = "not a valid name!"
    for envelope in (MUST_ACCEPT, MUST_REJECT):
        assert _errors(envelope, CREATE, body) == [("/metadata/name", "pattern")]


def test_obligations_is_the_must_reject_envelope() -> None:
    spec = load_spec()
    assert spec.obligations() is spec.envelope(MUST_REJECT)


def test_unknown_envelope_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown envelope 'lenient'"):
        load_spec().envelope("lenient")


def test_rule_at_names_strength_of_guidance_and_documented_rules() -> None:
    model = load_spec().schema_model
    assert model.rule_at(RESOURCE, "anyOf").strength is Strength.GUIDANCE
    assert model.rule_at("#" + RESOURCE, "anyOf").strength is Strength.GUIDANCE
    name = model.rule_at("/components/schemas/JobMetadata/properties/name", "pattern")
    assert name.strength is Strength.DOCUMENTED
    closed = model.rule_for("/components/schemas/JobMetadata/additionalProperties")
    assert closed.strength is Strength.GUIDANCE  # the spec leaves it open; must-accept closes


def test_counts_cover_every_rule() -> None:
    model = load_spec().schema_model
    counts = model.counts()
    assert sum(counts.values()) == len(model.rules)
    guidance = {(r.pointer, r.keyword) for r in model.rules if r.strength is Strength.GUIDANCE}
    marked = {(r.pointer, r.keyword) for r in load_spec().meaning.guidance.rules}
    assert guidance == marked


def test_the_envelopes_leave_the_spec_alone() -> None:
    spec = load_spec()
    before = copy.deepcopy(spec.document)
    spec.envelope(MUST_ACCEPT)
    spec.envelope(MUST_REJECT)
    assert spec.document == before
