"""The schema model: every rule's strength and evidence, and the two envelopes built from it."""

from __future__ import annotations

import copy
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from modelarts_kit_spec import load_spec, read_ledger
from modelarts_kit_spec.paths import SPEC_PATH
from modelarts_kit_spec.schemamodel import MUST_ACCEPT, MUST_REJECT, Strength
from modelarts_kit_spec.schemamodel.extension import SOURCES_DIR
from modelarts_kit_spec.schemamodel.page_evidence import undocumented_rules
from modelarts_kit_spec.schemamodel.rules import NULLABLE
from modelarts_kit_spec.validate import validate_document

JSON = Any
ROOT = Path(__file__).resolve().parents[2]
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


# -- the x-modelarts-schema-model extension and its spec validate rule ----------------------

EXTENSION = "/x-modelarts-schema-model"
ACCESS_METHOD = "/components/schemas/Output/properties/access_method"


def _problems(change: Callable[[JSON], None]) -> list[tuple[str, str]]:
    document = copy.deepcopy(load_spec().document)
    change(document)
    findings = validate_document(document, path=SPEC_PATH, ledger=read_ledger())
    return [(f.pointer, f.message) for f in findings if f.rule == "schema-model"]


def _rules(document: JSON) -> JSON:
    return document["x-modelarts-schema-model"]["rules"]


def test_the_curated_extension_is_consistent() -> None:
    assert _problems(lambda document: None) == []


def test_an_unknown_strength_is_refused() -> None:
    def change(document: JSON) -> None:
        _rules(document)[ACCESS_METHOD]["presence"]["strength"] = "firm"

    problems = _problems(change)
    assert any("strength 'firm'" in message for _, message in problems)


def test_evidence_pages_must_exist_in_spec_sources() -> None:
    def change(document: JSON) -> None:
        document["x-modelarts-schema-model"]["quotes"]["/components/schemas/Job"] = {
            "*": ["seeds/999_missing.txt | Request body | kind Yes String"]
        }

    problems = _problems(change)
    assert any("seeds/999_missing.txt" in message for _, message in problems)


def test_ledger_ids_must_exist() -> None:
    def change(document: JSON) -> None:
        _rules(document)[ACCESS_METHOD]["presence"]["ledger"].append("no-such-entry")

    problems = _problems(change)
    assert any("'no-such-entry' does not exist" in message for _, message in problems)


def test_a_guidance_keyword_needs_its_guidance_rule_and_ledger_entry() -> None:
    def change(document: JSON) -> None:
        del _rules(document)[RESOURCE]

    messages = [message for _, message in _problems(change)]
    assert any("'anyOf' has no guidance rule" in m for m in messages)
    assert any("guidance-resource-flavor-or-pool" in m for m in messages)


def test_an_sdk_rule_without_ledger_entry_is_refused() -> None:
    def change(document: JSON) -> None:
        pointer = "/components/schemas/JobMetadata/properties/name"
        _rules(document)[pointer] = {"presence": {"strength": "sdk", "ledger": []}}

    messages = [message for _, message in _problems(change)]
    assert any("has no ledger entry that says so" in m for m in messages)


def test_the_extension_is_what_the_derivation_writes() -> None:
    """``scripts/derive_schema_model.py --check``: the committed block is the derived one."""
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "derive_schema_model.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr


def test_rule_at_cites_its_evidence() -> None:
    model = load_spec().schema_model
    sdk_only = model.rule_at(ACCESS_METHOD, "presence")
    assert sdk_only.strength is Strength.SDK
    assert "sdk-added-algorithm-outputs-access-method" in sdk_only.ledger
    assert any(e.kind == "sdk" and e.what == "Output" for e in sdk_only.evidence)
    pattern = model.rule_at("/components/schemas/JobMetadata/properties/name", "pattern")
    assert pattern.strength is Strength.DOCUMENTED
    assert any(
        e.kind == "page" and e.where.startswith("seeds/004_") and e.what == "JobMetadata"
        for e in pattern.evidence
    )
    for evidence in pattern.evidence:
        assert (SPEC_PATH.parent.parent / "sources" / evidence.where).is_file()
    null = model.rule_at("/components/schemas/Parameter/properties/i18n_description", "nullable")
    assert null.strength is Strength.EXAMPLE
    assert model.rule_at(RESOURCE, "anyOf").ledger == ("guidance-resource-flavor-or-pool",)


def test_every_strength_has_rules() -> None:
    counts = load_spec().schema_model.counts()
    assert all(counts[strength] > 0 for strength in Strength)


# -- the envelopes and the lenient strengths -------------------------------------------------


def test_an_sdk_only_field_is_outside_must_accept_and_free_in_must_reject() -> None:
    body = _create_body()
    body["algorithm"]["outputs"][0]["access_method"] = {}
    assert _errors(MUST_ACCEPT, CREATE, body) == [("/algorithm/outputs/0", "additionalProperties")]
    assert _errors(MUST_REJECT, CREATE, body) == []


def test_an_example_only_null_is_outside_must_accept() -> None:
    body = _create_body()
    body["algorithm"]["parameters"] = [{"name": "lr", "value": "0.1", "i18n_description": None}]
    assert _errors(MUST_ACCEPT, CREATE, body) != []
    assert _errors(MUST_REJECT, CREATE, body) == []


def test_rule_for_error_follows_the_refs_jsonschema_leaves_out_of_the_schema_path() -> None:
    spec = load_spec()
    view = spec.envelope(MUST_ACCEPT)
    schema = view.operation(CREATE).request_schema
    body = _create_body()
    body["spec"]["resource"]["node_count"] = 2**40
    body["metadata"]["x_unknown"] = 1
    del body["spec"]["resource"]["flavor_id"]
    rules = {
        "/".join(str(p) for p in error.absolute_path): spec.schema_model.rule_for_error(
            schema, error.schema_path
        )
        for error in view.validator(schema).iter_errors(body)
    }
    node_count = rules["spec/resource/node_count"]
    assert node_count.pointer == RESOURCE + "/properties/node_count"
    assert (node_count.keyword, node_count.strength) == ("maximum", Strength.DOCUMENTED)
    assert any(e.kind == "page" for e in node_count.evidence)
    closed = rules["metadata"]
    assert closed.pointer == "/components/schemas/JobMetadata"
    assert (closed.keyword, closed.strength) == ("additionalProperties", Strength.GUIDANCE)
    choice = rules["spec/resource"]
    assert (choice.pointer, choice.keyword) == (RESOURCE, "anyOf")
    assert choice.ledger == ("guidance-resource-flavor-or-pool",)
    assert "guidance-resource-flavor-or-pool" in choice.cite()


# -- a rule is documented only with page evidence ----------------------------------------------

AUTO_STOP = "/components/schemas/AutoStop/properties"
INSTALL_SYS_PACKAGES = "/components/schemas/JobEngine/properties/install_sys_packages"
PAGE_RULE = "a rule is documented only with page evidence"


def _undocumented(problems: list[tuple[str, str]]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for pointer, message in problems:
        if PAGE_RULE in message:
            found.setdefault(pointer, []).append(message)
    return found


def test_every_documented_rule_of_the_curated_spec_cites_a_page_that_states_it() -> None:
    """The curated spec is held to the whole rule: no documented rule without a page table
    (spec validate lets a field just added by docs diff --apply cite nothing yet)."""
    document = copy.deepcopy(load_spec().document)
    assert list(undocumented_rules(document, SOURCES_DIR)) == []
    name = "/components/schemas/JobMetadata/properties/name"
    del document["x-modelarts-schema-model"]["quotes"][name]
    flagged = {
        (rule.pointer, rule.keyword) for rule, _ in undocumented_rules(document, SOURCES_DIR)
    }
    assert (name, "pattern") in flagged
    assert {pointer for pointer, _ in flagged} == {name}


def test_a_table_that_does_not_print_the_field_is_no_evidence() -> None:
    """The create page's request engine table has no install_sys_packages row: citing it
    does not make the field documented."""

    def change(document: JSON) -> None:
        del _rules(document)[INSTALL_SYS_PACKAGES]
        document["x-modelarts-schema-model"]["quotes"][INSTALL_SYS_PACKAGES] = {
            "*": ["seeds/004_126c216e710dc1ec.txt | engine | install_sys_packages"]
        }

    flagged = _undocumented(_problems(change))
    assert list(flagged) == [INSTALL_SYS_PACKAGES]
    assert all("states 'install_sys_packages'" in m for m in flagged[INSTALL_SYS_PACKAGES])


def test_a_table_the_page_does_not_print_is_no_evidence() -> None:
    name = "/components/schemas/JobMetadata/properties/name"

    def change(document: JSON) -> None:
        document["x-modelarts-schema-model"]["quotes"][name] = {
            "*": ["seeds/004_126c216e710dc1ec.txt | NoSuchTable, row name | name Yes String"]
        }

    assert list(_undocumented(_problems(change))) == [name]


@pytest.mark.parametrize(
    ("pointer", "keyword", "model"),
    [
        (AUTO_STOP + "/duration", "presence", "AutoStop"),
        (AUTO_STOP + "/duration", "minimum", "AutoStop"),
        (AUTO_STOP + "/duration", "format", "AutoStop"),
        (AUTO_STOP + "/time_unit", "type", "AutoStop"),
        (INSTALL_SYS_PACKAGES, "presence", "JobEngine"),
        (INSTALL_SYS_PACKAGES, "type", "JobEngine"),
    ],
)
def test_fields_no_page_prints_are_the_sdks(pointer: str, keyword: str, model: str) -> None:
    """No page prints an auto_stop table, nor install_sys_packages in a request: their
    rules are the vendor SDK's request models, cited as such."""
    rule = load_spec().schema_model.rule_at(pointer, keyword)
    assert rule.strength is Strength.SDK
    assert any(e.kind == "sdk" and e.what == model for e in rule.evidence)
    assert rule.ledger


def test_the_rules_inside_an_sdk_only_field_are_the_sdks() -> None:
    """A field only the SDK has takes its type and inner fields from there too."""
    model = load_spec().schema_model
    inner = [r for r in model.rules if r.pointer.startswith(AUTO_STOP + "/")]
    assert inner
    assert all(r.strength is Strength.SDK for r in inner)


def test_an_sdk_only_field_holds_anything_in_must_reject() -> None:
    body = _create_body()
    body["spec"]["auto_stop"] = {"time_unit": 1, "duration": 0}
    assert _errors(MUST_REJECT, CREATE, body) == []
    assert _errors(MUST_ACCEPT, CREATE, body) != []


def _rules_broken(body: JSON) -> dict[str, list[Any]]:
    spec = load_spec()
    view = spec.envelope(MUST_ACCEPT)
    schema = view.operation(CREATE).request_schema
    found: dict[str, list[Any]] = {}
    for error in view.validator(schema).iter_errors(body):
        rule = spec.schema_model.rule_for_error(schema, error.schema_path, instance=error.instance)
        found.setdefault("/".join(str(p) for p in error.absolute_path), []).append(rule)
    return found


def test_rule_for_error_cites_a_not_inside_allof_as_the_allof_rule() -> None:
    body = _create_body()
    body["algorithm"]["engine"] = {"engine_id": "pytorch-1.4", "engine_name": "PyTorch"}
    engine = _rules_broken(body)["algorithm/engine"]
    choose_one = [r for r in engine if r.keyword == "allOf"]
    assert choose_one
    assert all(r.strength is Strength.GUIDANCE for r in choose_one)
    assert all(r.pointer == "/components/schemas/JobEngine" for r in choose_one)
    assert "guidance-engine-choose-one" in choose_one[0].ledger
    assert not [r for r in engine if r.strength is Strength.DOCUMENTED]


def test_rule_for_error_cites_an_example_only_null_as_the_nullable_rule() -> None:
    body = _create_body()
    body["algorithm"]["parameters"] = [{"name": "lr", "value": "0.1", "i18n_description": None}]
    (rule,) = _rules_broken(body)["algorithm/parameters/0/i18n_description"]
    assert (rule.keyword, rule.strength) == (NULLABLE, Strength.EXAMPLE)
    assert rule.pointer == "/components/schemas/Parameter/properties/i18n_description"
    assert "i18n-description-nullable" in rule.ledger
