"""The six task and catalogue operations of the family (issue 26): events, logs preview, logs
OBS link, metrics, flavors, engines. Each test pins one decision of the spec or its ledger."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from modelarts_kit_spec import Spec, load_spec, read_ledger
from modelarts_kit_spec.load import read_yaml
from modelarts_kit_spec.operation import Operation
from modelarts_kit_spec.paths import INVENTORIES_DIR
from modelarts_kit_spec.sensitive import sensitive_fields
from modelarts_kit_vendordocs import Inventory, compare, extract_page, load_decisions
from modelarts_kit_vendordocs.drift import normalise_field

from tests.yaml_files import dump_yaml

JSON = Any
REPO = Path(__file__).resolve().parents[2]
INVENTORY = read_yaml(INVENTORIES_DIR / "inventory_of_family_tasks.yaml")
PAGES_DIR = REPO / "spec" / "sources" / INVENTORY["folder"]
PAGES: dict[str, str] = INVENTORY["seeds"]
JOB = "/v2/{project_id}/training-jobs/{training_job_id}"
OPERATIONS = {
    # operationId: (role, method, path, success status)
    "ListTrainingJobEvents": ("events", "get", f"{JOB}/events", "200"),
    "ShowTrainingJobLogsPreview": (
        "logs-preview",
        "get",
        f"{JOB}/tasks/{{task_id}}/logs/preview",
        "200",
    ),
    "ShowObsUrlOfTrainingJobLogs": ("logs-url", "get", f"{JOB}/tasks/{{task_id}}/logs/url", "200"),
    "ShowTrainingJobMetrics": ("metrics", "get", f"{JOB}/metrics/{{task_id}}", "200"),
    "ShowTrainingJobFlavors": ("flavors", "get", "/v2/{project_id}/training-job-flavors", "200"),
    "ShowTrainingJobEngines": ("engines", "get", "/v2/{project_id}/training-job-engines", "200"),
}
PER_TASK = ("ShowTrainingJobLogsPreview", "ShowObsUrlOfTrainingJobLogs", "ShowTrainingJobMetrics")


@pytest.fixture(scope="module")
def spec() -> Spec:
    return load_spec()


def parameter(op: Operation, name: str) -> JSON:
    return next(p.schema for p in op.parameters if p.name == name)


@pytest.mark.parametrize("operation_id", sorted(OPERATIONS))
def test_operation_route_role_and_success(spec: Spec, operation_id: str) -> None:
    role, method, path, status = OPERATIONS[operation_id]
    op = spec.operation(operation_id)
    assert (op.method, op.path, op.success.status) == (method, path, status)
    found = spec.meaning.roles.get(role)
    assert found is not None
    assert found.operation_id == operation_id


@pytest.mark.parametrize("operation_id", sorted(OPERATIONS))
def test_every_example_of_the_operation_validates(spec: Spec, operation_id: str) -> None:
    op = spec.operation(operation_id)
    seen = 0
    for response in op.responses:
        node = spec.deref(spec.at(response.pointer))
        media = node.get("content", {}).get("application/json", {})
        for name, example in media.get("examples", {}).items():
            value = spec.deref(example)["value"]
            errors = list(spec.validator(media["schema"]).iter_errors(value))
            assert errors == [], (operation_id, response.status, name)
            seen += 1
    assert seen >= 1
    # and the check can fail: the example with its first member of the wrong type
    success = spec.deref(spec.at(op.success.pointer))["content"]["application/json"]
    example = copy.deepcopy(spec.deref(next(iter(success["examples"].values())))["value"])
    example[next(iter(example))] = {"of": "the wrong type"}
    assert not spec.validator(success["schema"]).is_valid(example)


@pytest.mark.parametrize(("limit", "valid"), [(0, False), (1, True), (100, True), (101, False)])
def test_events_limit_range_is_enforced_by_every_server(
    spec: Spec, limit: int, valid: bool
) -> None:
    """limit 1 to 100 is documented: outside it is in must-reject, inside it in must-accept."""
    for envelope in ("must-reject", "must-accept"):
        strict = spec.envelope(envelope)
        schema = parameter(strict.operation("ListTrainingJobEvents"), "limit")
        assert strict.validator(schema).is_valid(limit) is valid, envelope


def test_events_order_values_are_guidance(spec: Spec) -> None:
    """asc/desc come from the example, not the table: clients keep them, servers need not."""
    schema = parameter(spec.operation("ListTrainingJobEvents"), "order")
    assert not spec.validator(schema).is_valid("sideways")
    obligations = spec.envelope("must-reject")
    lenient = parameter(obligations.operation("ListTrainingJobEvents"), "order")
    assert obligations.validator(lenient).is_valid("sideways")


def test_events_documented_filters(spec: Spec) -> None:
    op = spec.operation("ListTrainingJobEvents")
    validate = spec.validator
    assert validate(parameter(op, "level")).is_valid("Warning")
    assert not validate(parameter(op, "level")).is_valid("Debug")
    assert not validate(parameter(op, "source")).is_valid("Pod")
    assert validate(parameter(op, "pattern")).is_valid("x" * 256)
    assert not validate(parameter(op, "pattern")).is_valid("x" * 257)
    assert {p.name for p in op.parameters} >= {"offset", "limit", "order", "start_time", "end_time"}


def test_events_counts_are_numbers_though_the_table_says_string(spec: Spec) -> None:
    body = spec.deref(spec.operation("ListTrainingJobEvents").success.schema)
    for name in ("total", "limit", "offset"):
        assert body["properties"][name]["type"] == "integer", name
    ids = {e.id for e in read_ledger().entries}
    assert {"events-response-counts-type", "events-response-limit-type"} <= ids


def test_the_pages_error_code_outside_the_catalogue_is_not_embedded(spec: Spec) -> None:
    assert "ModelArts.50004000" not in str(spec.at(spec.operation("ListTrainingJobEvents").pointer))
    error = spec.at("/components/schemas/ErrorResponse")
    assert not spec.validator(error).is_valid(
        {"error_code": "ModelArts.50004000", "error_msg": "x"}
    )


def test_flavors_are_the_show_pages_flavor_response(spec: Spec) -> None:
    """The ledger decides the tables agree: the flavors page and a job's task share one schema."""
    body = spec.at("/components/schemas/TrainingJobFlavors")
    task = spec.at("/components/schemas/TaskResponse")
    shared = "#/components/schemas/FlavorResponse"
    assert body["properties"]["flavors"]["items"] == {"$ref": shared}
    assert task["properties"]["task_resource"] == {"$ref": shared}
    decided = {e.id: e for e in read_ledger().entries}["flavors-page-flavor-response"]
    assert decided.pointer == "/components/schemas/TrainingJobFlavors/properties/flavors"


def test_flavor_type_query_takes_the_sdks_ascend(spec: Spec) -> None:
    schema = parameter(spec.operation("ShowTrainingJobFlavors"), "flavor_type")
    assert spec.validator(schema).is_valid("Ascend")
    assert not spec.validator(schema).is_valid("TPU")


def test_engines_are_their_own_schema(spec: Spec) -> None:
    items = spec.at("/components/schemas/TrainingJobEngines")["properties"]["items"]["items"]
    assert items == {"$ref": "#/components/schemas/Engine"}
    engine = spec.deref(items)
    assert "image_info" in engine["properties"]
    assert "image_url" not in engine["properties"]


@pytest.mark.parametrize("operation_id", PER_TASK)
def test_an_unknown_task_is_the_invalid_parameter_code(spec: Spec, operation_id: str) -> None:
    errors = spec.meaning.errors
    # No page names the code: the table's invalid-parameter codes, 2788 preferred (issue 31).
    assert errors.codes_for(operation_id, "task-not-found") == frozenset(
        {"ModelArts.2788", "ModelArts.0101", "ModelArts.0104"}
    )
    assert errors.preferred(operation_id, "task-not-found").code == "ModelArts.2788"
    assert errors.statuses_for(operation_id, "task-not-found") == frozenset({400})
    assert errors.preferred(operation_id, "not-found").code == "ModelArts.2775"
    op = spec.operation(operation_id)
    task = next(p for p in op.parameters if p.name == "task_id")
    assert (task.location, task.required) == ("path", True)
    assert "status.tasks" in task.description


def test_the_logs_url_is_secret(spec: Spec) -> None:
    schema = spec.operation("ShowObsUrlOfTrainingJobLogs").success.schema
    assert [f.path for f in sensitive_fields(spec.walker, schema)] == [("obs_url",)]


def test_the_inventory_agrees_with_the_documentation_parser() -> None:
    """Two readings of the six pages (the hand-written inventory, the parser) agree."""
    for key, name in PAGES.items():
        page = extract_page(PAGES_DIR / name)
        theirs = {
            ("error" if e.side == "response" and (e.status or 0) >= 400 else e.side)
            + f" {normalise_field(e.path)} {e.field.type} {e.field.mandatory}"
            for e in page.fields
        }
        ours = {
            f"{f['at']} {f['path']} {f['type']} {f['mandatory']}"
            for f in INVENTORY["fields"]
            if key in f["sources"]
        }
        assert theirs == ours, key


@pytest.fixture(scope="module")
def parsed_pages() -> list[Inventory]:
    return [extract_page(PAGES_DIR / name) for name in PAGES.values()]


def test_docs_diff_of_the_six_pages_is_reconciled(
    parsed_pages: list[Inventory], tmp_path: Path
) -> None:
    report = compare(parsed_pages, None, load_decisions(None, None))
    assert [f for op in report.operations for f in op.findings] == []
    assert report.unmatched_pages == []
    # without its ledger entry, the events total is drift again
    ledger_copy = tmp_path / "ledger.yaml"
    entries = [e for e in read_ledger().raw if e["id"] != "events-response-counts-type"]
    ledger_copy.write_text(dump_yaml({"entries": entries}), encoding="utf-8")
    report = compare(parsed_pages, None, load_decisions(ledger_copy, None))
    assert ("type", "total") in {(f.kind, f.field) for op in report.operations for f in op.findings}
