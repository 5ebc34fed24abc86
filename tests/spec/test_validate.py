"""``spec validate``: every rule catches a deliberately broken fixture and passes a good one."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from modelarts_kit.main import cli
from modelarts_kit_spec.load import SPEC_PATH, read_yaml
from modelarts_kit_spec.validate import RULES, subset_mismatch, validate_document

from tests.yaml_files import dump_yaml

JSON = Any

GOOD: JSON = {
    "openapi": "3.1.0",
    "info": {"title": "Fixture", "version": "1.0.0"},
    "security": [{"token": []}],
    "paths": {
        "/v2/{project_id}/jobs": {
            "parameters": [{"$ref": "#/components/parameters/project_id"}],
            "post": {
                "operationId": "CreateJob",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {"$ref": "#/components/schemas/Job"},
                            "examples": {
                                "inline": {"value": {"name": "a", "count": 1}},
                                "shared": {"$ref": "#/components/examples/SharedJob"},
                            },
                        }
                    },
                },
                "responses": {
                    "201": {
                        "description": "Created.",
                        "content": {
                            "application/json": {
                                "schema": {"$ref": "#/components/schemas/Job"},
                                "example": {"name": "b", "count": 2, "status": {"start_time": 5}},
                            }
                        },
                    },
                    "400": {"$ref": "#/components/responses/Error"},
                },
            },
        }
    },
    "components": {
        "securitySchemes": {"token": {"type": "apiKey", "in": "header", "name": "X-Auth-Token"}},
        "parameters": {
            "project_id": {
                "name": "project_id",
                "in": "path",
                "required": True,
                "description": "Project.",
                "schema": {"type": "string"},
            }
        },
        "examples": {"SharedJob": {"value": {"name": "c"}}},
        "responses": {
            "Error": {
                "description": "Bad request.",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
            }
        },
        "schemas": {
            "Job": {
                "type": "object",
                "description": "A job.",
                "required": ["name"],
                "properties": {
                    "name": {"type": "string", "description": "Name.", "maxLength": 8},
                    "count": {"type": "integer", "description": "Count.", "minimum": 1},
                    "status": {"$ref": "#/components/schemas/Status"},
                },
            },
            "Status": {
                "type": "object",
                "description": "Status.",
                "properties": {
                    "start_time": {
                        "type": "integer",
                        "format": "int64",
                        "description": "Start, ms.",
                        "examples": [0],
                    }
                },
            },
            "Error": {
                "type": "object",
                "description": "Error body.",
                "properties": {"error_code": {"type": "string", "description": "Code."}},
            },
        },
    },
}

LEDGER: list[JSON] = [
    {
        "id": "status-start-time-type",
        "pointer": "/components/schemas/Job/properties/status",
        "field": "status.start_time",
        "side": "response",
        "operations": ["CreateJob"],
        "kind": "type",
        "sources": [{"seed": "001.txt", "table": "Table 5 Status", "says": "String"}],
        "decision": "integer int64",
        "expect": {"properties": {"start_time": {"type": "integer", "format": "int64"}}},
        "reason": "Examples show numbers.",
    }
]

JOB = "/components/schemas/Job"


def run(document: JSON, ledger: list[JSON] | None = None) -> list[tuple[str, str]]:
    findings = validate_document(
        document, path=Path("fixture.yaml"), ledger=LEDGER if ledger is None else ledger
    )
    return [(f.pointer, f.rule) for f in findings]


def test_good_fixture_is_valid() -> None:
    assert run(GOOD) == []


def _set(pointer: str, value: JSON) -> Callable[[JSON], None]:
    def mutate(doc: JSON) -> None:
        *parents, last = pointer.strip("/").split("/")
        node = doc
        for token in parents:
            node = node[token.replace("~1", "/")]
        node[last.replace("~1", "/")] = value

    return mutate


def _delete(pointer: str) -> Callable[[JSON], None]:
    def mutate(doc: JSON) -> None:
        *parents, last = pointer.strip("/").split("/")
        node = doc
        for token in parents:
            node = node[token.replace("~1", "/")]
        del node[last]

    return mutate


OP = "/paths/~1v2~1{project_id}~1jobs/post"
REQUEST_MEDIA = OP + "/requestBody/content/application~1json"

BROKEN: list[tuple[str, Callable[[JSON], None], str, str]] = [
    ("openapi", _set("/info", "not a mapping"), "/info", "openapi"),
    ("ref", _set(JOB + "/properties/status", {"$ref": "#/components/schemas/Nope"}),
     "/components/schemas/Nope", "ref-resolves"),
    ("schema description", _delete(JOB + "/description"), JOB, "schema-description"),
    ("property description", _delete(JOB + "/properties/name/description"),
     JOB + "/properties/name", "property-description"),
    ("nested inline property", _set(JOB + "/properties/extra",
     {"type": "object", "description": "x", "properties": {"y": {"type": "string"}}}),
     JOB + "/properties/extra/properties/y", "property-description"),
    ("media example", _set(REQUEST_MEDIA + "/examples/inline/value/count", 0),
     REQUEST_MEDIA + "/examples/inline/value/count", "example-valid"),
    ("shared example", _set("/components/examples/SharedJob/value", {"name": "far too long"}),
     "/components/examples/SharedJob/value/name", "example-valid"),
    ("single example", _set(OP + "/responses/201/content/application~1json/example", {"count": 1}),
     OP + "/responses/201/content/application~1json/example", "example-valid"),
    ("schema examples", _set("/components/schemas/Status/properties/start_time/examples", ["x"]),
     "/components/schemas/Status/properties/start_time/examples/0", "example-valid"),
    ("unused schema", _set("/components/schemas/Orphan", {"type": "string", "description": "o"}),
     "/components/schemas/Orphan", "unused-component"),
    ("unused example", _set("/components/examples/Orphan", {"value": 1}),
     "/components/examples/Orphan", "unused-component"),
    ("unused scheme", _set("/components/securitySchemes/aksk", {"type": "http", "scheme": "x"}),
     "/components/securitySchemes/aksk", "unused-component"),
    ("duplicate operationId", _set("/paths/~1other", {"get": {"operationId": "CreateJob",
     "responses": {"200": {"description": "ok"}}}}), "/paths/~1other/get/operationId",
     "operation-id-unique"),
    ("undeclared path parameter", _set("/paths/~1x~1{id}", {"get": {"operationId": "X",
     "responses": {"200": {"description": "ok"}}}}), "/paths/~1x~1{id}/get",
     "path-parameter-declared"),
    ("meaning extensions", _set("/x-modelarts-lifecycle", {}), "/x-modelarts-lifecycle",
     "meaning"),
    ("sensitive marker not true", _set(JOB + "/properties/name/x-modelarts-sensitive", "yes"),
     JOB + "/properties/name/x-modelarts-sensitive", "sensitive"),
    ("sensitive flag not a boolean",
     _set(JOB + "/properties/name/x-modelarts-sensitive", {"when": "/name"}),
     JOB + "/properties/name/x-modelarts-sensitive", "sensitive"),
    ("unknown JSON type", _set(JOB + "/properties/name/type", "strung"),
     JOB + "/properties/name/type", "schema-type"),
    ("unknown JSON type in a list", _set(JOB + "/properties/name/type", ["string", "nul"]),
     JOB + "/properties/name/type", "schema-type"),
    ("schema model: unknown strength",
     _set("/x-modelarts-schema-model", {"rules": {JOB: {"type": {"strength": "strong"}}}}),
     "/x-modelarts-schema-model/rules/~1components~1schemas~1Job/type", "schema-model"),
    ("schema model: a quote the page does not have",
     _set("/x-modelarts-schema-model", {"quotes": {JOB + "/properties/name": {
         "*": ["seeds/004_126c216e710dc1ec.txt | JobMetadata, row name | words no page has"]}}}),
     JOB + "/properties/name", "schema-model-quote"),
    ("template parameter, empty parameters", _set("/paths/~1y~1{id}", {"get": {"operationId": "Y",
     "parameters": [], "responses": {"200": {"description": "ok"}}}}), "/paths/~1y~1{id}/get",
     "path-parameter-declared"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("mutate", "pointer", "rule"),
    [case[1:] for case in BROKEN],
    ids=[case[0] for case in BROKEN],
)
def test_each_rule_catches_its_broken_fixture(
    mutate: Callable[[JSON], None], pointer: str, rule: str
) -> None:
    document = copy.deepcopy(GOOD)
    mutate(document)
    assert (pointer, rule) in run(document)


def test_every_registered_rule_is_exercised() -> None:
    exercised = {case[3] for case in BROKEN} | {
        "ledger-entry",
        "ledger-pointer",
        "ledger-expect",
        "ledger-todo",
        "paging",  # on the curated spec: tests/spec/test_paging.py (a quote out of its page)
    }
    assert {r.id for r in RULES} == exercised


def _ledger(**changes: JSON) -> list[JSON]:
    entry = {**LEDGER[0], **changes}
    return [{k: v for k, v in entry.items() if v is not None}]


def test_ledger_pointer_must_resolve() -> None:
    found = run(GOOD, _ledger(pointer="/components/schemas/Job/properties/nope"))
    assert ("ledger.yaml#/entries/0/pointer", "ledger-pointer") in found


def test_ledger_expect_must_hold_following_refs() -> None:
    found = run(GOOD, _ledger(expect={"properties": {"start_time": {"type": "string"}}}))
    assert found == [("/components/schemas/Job/properties/status", "ledger-expect")]


def test_ledger_entries_need_the_documented_fields() -> None:
    bad = _ledger(kind="colour", side="sideways", reason=None, sources=[])
    found = run(GOOD, [*bad, LEDGER[0]])
    assert ("ledger.yaml#/entries/0/kind", "ledger-entry") in found
    assert ("ledger.yaml#/entries/0/side", "ledger-entry") in found
    assert ("ledger.yaml#/entries/0", "ledger-entry") in found  # missing 'reason'
    assert ("ledger.yaml#/entries/0/sources", "ledger-entry") in found
    assert ("ledger.yaml#/entries/1/id", "ledger-entry") in found  # duplicate id


def test_a_ledger_entry_still_marked_todo_is_refused() -> None:
    assert run(GOOD, _ledger()) == []
    found = run(GOOD, _ledger(decision="TODO"))
    assert found == [("ledger.yaml#/entries/0/decision", "ledger-todo")]


@pytest.mark.parametrize(
    ("actual", "expected", "holds"),
    [
        ({"type": "integer", "format": "int64"}, {"type": "integer"}, True),
        ({"type": "integer"}, {"type": "integer", "format": "int64"}, False),
        ({"enum": ["a", "b", "c"]}, {"enum": ["c", "a"]}, True),
        ({"enum": ["a"]}, {"enum": ["a", "b"]}, False),
        ({"required": ["x"], "properties": {"x": {}}}, {"required": ["x"]}, True),
        ({"minimum": 1}, {"minimum": True}, False),  # YAML true is not the number 1
        ({"default": 1.0}, {"default": 1}, True),
        ({"items": [{"a": 1, "b": 2}]}, {"items": [{"a": 1}]}, True),
    ],
)
def test_subset_semantics(actual: JSON, expected: JSON, holds: bool) -> None:
    assert (subset_mismatch({}, actual, expected) is None) is holds


def _write(tmp_path: Path, document: JSON, ledger: list[JSON] | None = None) -> list[str]:
    spec = tmp_path / "openapi.yaml"
    spec.write_text(dump_yaml(document, sort_keys=False), encoding="utf-8")
    args = ["--spec", str(spec)]
    if ledger is not None:
        (tmp_path / "ledger.yaml").write_text(dump_yaml({"entries": ledger}), "utf-8")
        args += ["--ledger", str(tmp_path / "ledger.yaml")]
    return args


def test_cli_exit_0_on_a_valid_spec(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["spec", "validate", *_write(tmp_path, GOOD, LEDGER)])
    assert result.exit_code == 0, result.output
    assert "valid" in result.output


def test_cli_exit_1_names_pointer_and_rule(tmp_path: Path) -> None:
    document = copy.deepcopy(GOOD)
    del document["components"]["schemas"]["Job"]["properties"]["name"]["description"]
    result = CliRunner().invoke(cli, ["spec", "validate", *_write(tmp_path, document, LEDGER)])
    assert result.exit_code == 1
    expected = "/components/schemas/Job/properties/name: [property-description] property has no"
    assert expected in result.output


def test_cli_json_format(tmp_path: Path) -> None:
    document = copy.deepcopy(GOOD)
    document["components"]["schemas"]["Orphan"] = {"type": "string", "description": "o"}
    result = CliRunner().invoke(
        cli, ["spec", "validate", *_write(tmp_path, document), "--format", "json"]
    )
    assert result.exit_code == 1
    payload = json.loads(result.output)
    assert payload["valid"] is False
    assert payload["findings"] == [
        {
            "pointer": "/components/schemas/Orphan",
            "rule": "unused-component",
            "message": "not referenced (by $ref) from any path",
        }
    ]


def test_cli_exit_2_on_missing_file(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["spec", "validate", "--spec", str(tmp_path / "missing.yaml")])
    assert result.exit_code == 2
    assert "missing.yaml" in result.output


def test_cli_exit_2_on_unparseable_yaml(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("openapi: 3.1.0\npaths: {\n  bad", encoding="utf-8")
    result = CliRunner().invoke(cli, ["spec", "validate", "--spec", str(broken)])
    assert result.exit_code == 2
    assert "broken.yaml:" in result.output
    assert "invalid YAML" in result.output


def test_cli_exit_2_on_missing_ledger(tmp_path: Path) -> None:
    args = _write(tmp_path, GOOD)
    result = CliRunner().invoke(
        cli, ["spec", "validate", *args, "--ledger", str(tmp_path / "nope.yaml")]
    )
    assert result.exit_code == 2


def test_the_curated_spec_validates() -> None:
    result = CliRunner().invoke(cli, ["spec", "validate"])
    assert result.exit_code == 0, result.output


def test_an_unknown_type_in_the_curated_spec_is_one_finding_not_a_crash(tmp_path: Path) -> None:
    """Before: ``type: strung`` on a field its examples use crashed ``example-valid`` with a
    jsonschema UnknownType traceback, and no rule named the field."""
    document = copy.deepcopy(read_yaml(SPEC_PATH))
    document["components"]["schemas"]["Status"]["properties"]["duration"]["type"] = "strung"
    spec_file = tmp_path / "openapi.yaml"
    spec_file.write_text(dump_yaml(document, sort_keys=False), encoding="utf-8")
    result = CliRunner().invoke(cli, ["spec", "validate", "--spec", str(spec_file)])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert (
        "/components/schemas/Status/properties/duration/type: [schema-type] type 'strung' is "
        "not a JSON Schema type"
    ) in result.output
