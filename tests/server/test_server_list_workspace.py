"""``workspace_id`` in a list body (issue 34 item 8): the reference server acts on it, so at both
ends it types it by the only evidence of its type, the vendor SDK's ``str``; the contract kit,
which holds servers only to the pages, keeps such a body between its envelopes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from modelarts_kit_contracts.core.envelopes import Placement
from modelarts_kit_contracts.server.api_map import ApiMap
from modelarts_kit_server import ManualClock, ServerSettings, create_app
from modelarts_kit_server.handlers.job_records import ACTED_ON_FIELDS, enforced_document
from modelarts_kit_server.validation import validate_instance
from modelarts_kit_spec import load_spec, parse_spec
from modelarts_kit_spec.document import pointer_join
from modelarts_kit_spec.ledger import read_ledger
from modelarts_kit_spec.meaning import Role
from modelarts_kit_spec.schemamodel.rules import Strength

from .operation_calls import Family, family_client, operation_of
from .server_support import job_body

WORKSPACE = "/components/schemas/JobSearches/properties/workspace_id"


@pytest.fixture(params=["lenient", "strict"])
def family(request: pytest.FixtureRequest, clock: ManualClock) -> Iterator[Family]:
    app = create_app(ServerSettings(clock=clock, strictness=request.param))
    family = family_client(app)
    yield family
    family.client.close()
    app.close()


@pytest.mark.parametrize(
    ("value", "sent"),
    [(7, "integer"), (7.5, "number"), (True, "boolean"), (["7"], "array"), ({}, "object"),
     (None, "null")],
    ids=["int", "float", "bool", "array", "object", "null"],
)  # fmt: skip
def test_a_workspace_id_that_is_not_a_string_is_refused_naming_the_field(
    family: Family, value: Any, sent: str
) -> None:
    """Before: ``workspace_id: 7`` answered 200 with workspace "0"'s jobs, silently wrong."""
    assert family.create(job_body("in-workspace-0")).status_code == 201
    response = family.search({"workspace_id": value})
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["error_code"] == family.error_code(Role.LIST, "invalid-parameter")
    message = body["error_msg"]
    assert "(/workspace_id: value " in message  # the field, as the other 2788 answers name it
    assert "must be of type string" in message  # the rule: the spec's type, the SDK's str
    assert f"a JSON {sent} was sent" in message


def test_a_workspace_id_string_still_selects_its_workspace(family: Family) -> None:
    job_id = family.create(job_body("in-workspace-0")).json()["metadata"]["id"]
    assert family.listed_ids({"workspace_id": "0"}) == [job_id]
    assert family.listed_ids({"workspace_id": "7"}) == []
    assert family.listed_ids({}) == [job_id]


def test_the_type_the_server_enforces_is_sdk_evidence_and_binds_no_server() -> None:
    """The type is the SDK's (the schema model says so, citing the ledger), so the contract
    kit never demands the refusal: a page-correct server that ignores the field accepts any
    value, and a body with ``workspace_id: 7`` lies between the envelopes (observed, never
    failed either way)."""
    api = ApiMap.from_spec()
    rule = api.spec.schema_model.rule_at(WORKSPACE, "type")
    assert rule.strength is Strength.SDK
    assert any(e.what == "sdk-added-list-request-workspace-id" for e in rule.evidence)
    list_id = operation_of(api.spec, Role.LIST).operation_id
    assert api.envelopes.place(list_id, {"workspace_id": 7}) is Placement.BETWEEN
    assert api.envelopes.place(list_id, {"workspace_id": None}) is Placement.BETWEEN


def test_the_fields_the_server_acts_on_are_the_ledgers_marked_ones() -> None:
    """The exception to "the lenient end accepts what must-reject does" is written once: the
    ledger marks each field the reference server acts on (``reference_server: acts-on``), its
    type is SDK evidence, and the server's ``ACTED_ON_FIELDS`` are exactly those fields."""
    spec = load_spec()
    schema = operation_of(spec, Role.LIST).request_schema
    views = [spec.walker.at_pointer(schema, pointer_join("", name)) for name in ACTED_ON_FIELDS]
    acted = {view.pointer for view in views if view is not None}
    marked = {
        entry.pointer
        for entry in read_ledger().entries
        if entry.extra.get("reference_server") == "acts-on" and entry.pointer is not None
    }
    assert acted == marked == {WORKSPACE}
    for pointer in marked:
        assert spec.schema_model.rule_at(pointer, "type").strength is Strength.SDK


def test_the_enforced_document_is_must_reject_with_the_sdk_type_of_acted_on_fields() -> None:
    """What tests generate "valid" data from for the lenient end (plain schemathesis in
    ``test_server_schemathesis``): ``workspace_id: 7`` is valid in must-reject, not there."""
    spec = load_spec()
    enforced = parse_spec(enforced_document(spec), spec.path)
    schema = operation_of(spec, Role.LIST).request_schema
    assert validate_instance(spec.obligations(), schema, {"workspace_id": 7}) is None
    assert validate_instance(enforced, schema, {"workspace_id": 7}) is not None
    assert validate_instance(enforced, schema, {"workspace_id": "7"}) is None
    # Nothing else changes: only the schema that holds the acted-on field differs.
    assert enforced.document["paths"] == spec.obligations().document["paths"]
    differing = [
        name
        for name, node in enforced.document["components"]["schemas"].items()
        if node != spec.obligations().document["components"]["schemas"][name]
    ]
    assert differing == ["JobSearches"]
