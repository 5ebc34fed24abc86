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
