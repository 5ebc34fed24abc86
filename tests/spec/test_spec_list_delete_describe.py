"""What the spec decides for the list, delete and describe pages (#26), pinned.

The list's jobs are the show job; the third-party CLI modelarts-macli's list and delete bodies
lie where the ledger puts them between the two envelopes; the documented ranges are
obligations; a deleted job is an unknown job; the three pages leave no unreconciled drift.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from modelarts_kit_spec import LEDGER_PATH, Spec, load_spec, read_ledger
from modelarts_kit_spec.load import read_yaml
from modelarts_kit_spec.paths import INVENTORIES_DIR
from modelarts_kit_spec.schemamodel.rules import Strength
from modelarts_kit_vendordocs import compare, extract_page, load_decisions
from modelarts_kit_vendordocs.drift import normalise_field

from tests.yaml_files import dump_yaml

JSON = Any
INVENTORY = read_yaml(INVENTORIES_DIR / "inventory_of_family_jobs.yaml")
FAMILY_DIR = Path(__file__).resolve().parents[2] / "spec" / "sources" / INVENTORY["folder"]
PAGES: tuple[str, ...] = tuple(INVENTORY["seeds"].values())
LIST = "ListTrainingJobs"
DELETE = "DeleteTrainingJob"
DESCRIBE = "ChangeTrainingJobDescription"
SHOW = "ShowTrainingJobDetails"
# What modelarts-macli sends (issue #26).
MACLI_LIST = {
    "workspace_id": "0",
    "limit": 10,
    "offset": 0,
    "order": "desc",
    "sort_by": "create_time",
}
MACLI_DELETE: JSON = {}


@pytest.fixture(scope="module")
def spec() -> Spec:
    return load_spec()


@pytest.fixture(scope="module")
def must_accept(spec: Spec) -> Spec:
    return spec.envelope("must-accept")


@pytest.fixture(scope="module")
def must_reject(spec: Spec) -> Spec:
    return spec.envelope("must-reject")


def errors(envelope: Spec, operation_id: str, body: JSON) -> list[str]:
    """The envelope's objections to ``body`` as a request of the operation, as schema paths."""
    schema = envelope.operation(operation_id).request_schema
    assert schema is not None
    found = envelope.validator(schema).iter_errors(body)
    return ["/".join(str(p) for p in e.absolute_path) or e.validator for e in found]


def test_the_roles_name_the_three_operations(spec: Spec) -> None:
    roles = spec.meaning.roles
    assert {role: roles.get(role) for role in ("list", "delete", "describe")} == {
        "list": spec.operation(LIST),
        "delete": spec.operation(DELETE),
        "describe": spec.operation(DESCRIBE),
    }


def test_the_listed_jobs_are_the_show_job(spec: Spec) -> None:
    show = spec.walker.view(spec.operation(SHOW).success.schema)
    listing = spec.walker.view(spec.operation(LIST).success.schema)
    assert listing.items is None  # the page of jobs is an object, its items are the jobs
    items = spec.walker.view(listing.properties["items"])
    assert items.items is not None
    job = spec.walker.view(items.items)
    assert show.ref_name == "JobResponse"
    assert job.ref_name == show.ref_name
    assert job.pointer == show.pointer


def test_macli_list_body_lies_between_the_envelopes(
    spec: Spec, must_accept: Spec, must_reject: Spec
) -> None:
    """workspace_id is only the SDK's: must-accept (closed, pages only) refuses it, and
    nothing else; must-reject refuses nothing of the body."""
    assert errors(must_reject, LIST, MACLI_LIST) == []
    assert errors(must_accept, LIST, MACLI_LIST) == ["additionalProperties"]
    documented = {k: v for k, v in MACLI_LIST.items() if k != "workspace_id"}
    assert errors(must_accept, LIST, documented) == []
    pointer = spec.schema_model.rule_at(
        "/components/schemas/JobSearches/properties/workspace_id", "presence"
    )
    assert pointer.strength is Strength.SDK


def test_macli_delete_body_and_no_body_are_accepted(
    spec: Spec, must_accept: Spec, must_reject: Spec
) -> None:
    assert errors(must_accept, DELETE, MACLI_DELETE) == []
    assert errors(must_reject, DELETE, MACLI_DELETE) == []
    assert errors(must_reject, DELETE, {"ignored": True}) == []  # the service ignores it
    assert errors(must_accept, DELETE, {"ignored": True}) == ["additionalProperties"]
    for envelope in (spec, must_accept, must_reject):
        assert envelope.operation(DELETE).request_required is False  # no body at all is fine


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"limit": 51}, "limit"),
        ({"limit": 0}, "limit"),
        ({"offset": -1}, "offset"),
        ({"order": "up"}, "order"),
        ({"filters": [{"key": "name", "operator": "equals"}]}, "filters/0/operator"),
        ({"filters": [{"key": "name", "value": "x"}]}, "filters/0/value"),
    ],
)
def test_documented_search_rules_are_obligations(
    must_accept: Spec, must_reject: Spec, body: JSON, field: str
) -> None:
    assert errors(must_reject, LIST, body) == [field]
    assert errors(must_accept, LIST, body) == [field]


def test_the_documented_edges_are_accepted(must_accept: Spec) -> None:
    for body in ({"limit": 1, "offset": 0}, {"limit": 50, "order": "asc"}, {}):
        assert errors(must_accept, LIST, body) == []
    operators = ["between", "like", "in", "not"]
    filters = [{"key": "name", "operator": op, "value": ["a", "b"]} for op in operators]
    assert errors(must_accept, LIST, {"filters": filters}) == []


def test_a_description_is_at_most_256_characters(must_reject: Spec) -> None:
    assert errors(must_reject, DESCRIBE, {"description": "d" * 256}) == []
    assert errors(must_reject, DESCRIBE, {"description": "d" * 257}) == ["description"]


def test_a_deleted_job_is_an_unknown_job(spec: Spec) -> None:
    """Delete twice, show or describe after delete: the not-found meaning, 400 ModelArts.2775,
    as for show (ledger delete-twice-not-found)."""
    errors_ = spec.meaning.errors
    for operation_id in (DELETE, DESCRIBE, SHOW):
        assert errors_.statuses_for(operation_id, "not-found") == {400}
        assert errors_.preferred(operation_id, "not-found").code == "ModelArts.2775"
    assert "delete-twice-not-found" in read_ledger().by_id()


def test_delete_and_describe_answer_no_content(spec: Spec) -> None:
    assert spec.operation(DELETE).success.status == "202"
    assert spec.operation(DESCRIBE).success.status == "200"
    for operation_id in (DELETE, DESCRIBE):
        assert spec.operation(operation_id).success.schema is None


def test_the_three_pages_leave_no_drift(spec: Spec, tmp_path: Path) -> None:
    pages = [extract_page(FAMILY_DIR / name) for name in PAGES]
    report = compare(pages, None, load_decisions(None, None))
    assert [f for op in report.operations for f in op.findings] == []
    assert report.unmatched_pages == []
    assert {op.operation for op in report.operations} == {LIST, DELETE, DESCRIBE}

    # Without the entry for the list page's missing summary row, it is drift again.
    ledger_copy = tmp_path / "ledger.yaml"
    entries = [e for e in read_ledger().raw if e["id"] != "list-job-algorithm-summary-kept"]
    ledger_copy.write_text(dump_yaml({"entries": entries}), encoding="utf-8")
    report = compare(pages, None, load_decisions(ledger_copy, None))
    fields = {(f.kind, f.field) for op in report.operations for f in op.findings}
    assert ("presence", "items[].algorithm.summary") in fields

    # A search that loses a documented field drifts, whatever the ledger says.
    document = copy.deepcopy(spec.document)
    del document["components"]["schemas"]["JobSearches"]["properties"]["limit"]
    spec_copy = tmp_path / "spec" / "openapi.yaml"
    spec_copy.parent.mkdir()
    spec_copy.write_text(dump_yaml(document), encoding="utf-8")
    report = compare(pages, spec_copy, load_decisions(LEDGER_PATH, spec_copy))
    assert any(f.field == "limit" for op in report.operations for f in op.findings)


def test_the_inventory_agrees_with_the_documentation_parser() -> None:
    """The inventory the schema model takes its page evidence from is what the parser reads
    on the three pages, row for row."""
    for key, name in INVENTORY["seeds"].items():
        page = extract_page(FAMILY_DIR / name)
        parsed = {
            ("error" if e.side == "response" and (e.status or 0) >= 400 else e.side)
            + f" {normalise_field(e.path)} {e.field.type} {e.field.mandatory} {e.table.name}"
            for e in page.fields
        }
        ours = {
            f"{f['at']} {f['path']} {f['type']} {f['mandatory']} {f['sources'][key]}"
            for f in INVENTORY["fields"]
            if key in f["sources"]
        }
        assert parsed == ours, key
    assert len(INVENTORY["fields"]) == 213  # 208 of the list page, 2 of delete, 3 of describe


def test_every_new_field_cites_its_page_table(spec: Spec) -> None:
    extension = spec.schema_model.extension
    for schema, field, table in (
        ("JobSearches", "limit", "Request body parameters"),
        ("Filter", "operator", "filters"),
        ("ListTrainingJobsResponse", "items", "Response body parameters"),
        ("JobUpdateRequestBody", "description", "Request body parameters"),
        ("JobMetadataResponse", "id", "JobMetadata"),  # the list page's job table too
    ):
        pointer = f"/components/schemas/{schema}/properties/{field}"
        cited = {(e.where, e.what) for e in extension.pages_for(pointer)}
        assert any(
            where.startswith("family/") and what.removeprefix("Table ").split(" ", 1)[-1] == table
            for where, what in cited
        ), (pointer, cited)
