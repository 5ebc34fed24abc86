"""``spec diff``: each rule on tiny fixture specs, both directions, plus the CLI and git sources."""

from __future__ import annotations

import copy
import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from modelarts_kit.main import cli
from modelarts_kit_spec.diff import (
    RULES,
    Change,
    diff_documents,
    read_source,
    render_markdown_sections,
)
from modelarts_kit_spec.diff_meaning import MEANING_RULES
from modelarts_kit_spec.load import SPEC_PATH, SpecError, parse_spec, read_yaml

JSON = Any
PATH = "/v2/{project_id}/jobs/{job_id}"


def open_enum(values: list[str]) -> JSON:
    return {"type": "string", "anyOf": [{"enum": values}, {"type": "string"}]}


def base() -> JSON:
    return {
        "openapi": "3.1.0",
        "info": {"title": "Fixture", "version": "1.0.0"},
        "security": [{"token": []}],
        "paths": {
            PATH: {
                "parameters": [
                    {
                        "name": "project_id",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string"},
                    },
                    {
                        "name": "job_id",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string"},
                    },
                ],
                "post": {
                    "operationId": "UpdateJob",
                    "parameters": [
                        {
                            "name": "limit",
                            "in": "query",
                            "schema": {"type": "integer", "maximum": 10},
                        }
                    ],
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {"schema": {"$ref": "#/components/schemas/Req"}}
                        },
                    },
                    "responses": {
                        "200": {
                            "description": "ok",
                            "headers": {"X-Request-Id": {"schema": {"type": "string"}}},
                            "content": {
                                "application/json": {
                                    "schema": {"$ref": "#/components/schemas/Resp"}
                                }
                            },
                        },
                        "400": {"description": "bad"},
                    },
                },
            }
        },
        "components": {
            "securitySchemes": {
                "token": {"type": "apiKey", "in": "header", "name": "X-Auth-Token"},
                "aksk": {"type": "apiKey", "in": "header", "name": "Authorization"},
            },
            "schemas": {
                "Req": {
                    "type": "object",
                    "required": ["name"],
                    "properties": {
                        "name": {"type": "string", "maxLength": 64, "pattern": "^[a-z]+$"},
                        "mode": {"type": "string", "enum": ["a", "b"], "default": "a"},
                        "count": {"type": "integer", "format": "int32", "minimum": 1},
                        "tags": {"type": "array", "items": {"type": "string"}},
                        "note": {"type": "string"},
                    },
                },
                "Resp": {
                    "type": "object",
                    "required": ["id"],
                    "properties": {
                        "id": {"type": "string"},
                        "phase": {"type": "string", "enum": ["Running", "Failed"]},
                        "kind": open_enum(["job", "edge_job"]),
                        "start_time": {"type": "integer", "format": "int64"},
                        "extra": {"type": "string"},
                        "child": {"$ref": "#/components/schemas/Node"},
                    },
                },
                # A recursive schema: the walk must terminate.
                "Node": {
                    "type": "object",
                    "properties": {"next": {"$ref": "#/components/schemas/Node"}},
                },
            },
        },
    }


REQ = "/components/schemas/Req"
RESP = "/components/schemas/Resp"
OP = ("paths", PATH, "post")


def at(document: JSON, pointer: str) -> JSON:
    node = document
    for token in pointer.strip("/").split("/"):
        node = node[token]
    return node


def edit(pointer: str, key: str, value: JSON = ...) -> Callable[[JSON], None]:
    """Set ``key`` under ``pointer`` (delete it when no value is given)."""

    def mutate(document: JSON) -> None:
        node = (
            at(document, pointer) if pointer.startswith("/components") else _op(document, pointer)
        )
        if value is ...:
            del node[key]
        else:
            node[key] = value

    return mutate


def _op(document: JSON, rest: str) -> JSON:
    node = document["paths"][PATH]["post"]
    for token in rest.strip("/").split("/") if rest.strip("/") else []:
        node = node[int(token)] if isinstance(node, list) else node[token]
    return node


def both(*mutations: Callable[[JSON], None]) -> Callable[[JSON], None]:
    def mutate(document: JSON) -> None:
        for mutation in mutations:
            mutation(document)

    return mutate


def add_operation(document: JSON) -> None:
    document["paths"]["/v2/{project_id}/other"] = {
        "get": {"operationId": "Other", "responses": {"200": {"description": "ok"}}}
    }


def add_optional_operation(document: JSON) -> None:
    """An operation of an optional role (#26's nine): a server may leave it out."""
    add_operation(document)
    document["paths"]["/v2/{project_id}/other"]["get"]["x-modelarts-role"] = "engines"


P = REQ + "/properties"
R = RESP + "/properties"

# (case id, mutation applied to NEW, rule, breaks_clients, breaks_servers)
CASES: list[tuple[str, Callable[[JSON], None], str, bool, bool]] = [
    ("operation added", add_operation, "operation-added", False, True),
    ("optional-role operation added", add_optional_operation, "operation-added", False, False),
    (
        "operationId changed",
        edit("", "operationId", "ChangeJob"),
        "operation-id-changed",
        True,
        False,
    ),
    (
        "required request field added",
        both(edit(P, "age", {"type": "integer"}), edit(REQ, "required", ["name", "age"])),
        "property-added",
        True,
        True,
    ),
    (
        "optional request field added",
        edit(P, "age", {"type": "integer"}),
        "property-added",
        False,
        True,
    ),
    ("request field removed", edit(P, "note"), "property-removed", True, False),
    (
        "request optional -> required",
        edit(REQ, "required", ["name", "note"]),
        "required-added",
        True,
        False,
    ),
    ("request required -> optional", edit(REQ, "required", []), "required-removed", False, True),
    ("response field removed", edit(R, "extra"), "property-removed", True, False),
    (
        "optional response field added",
        edit(R, "more", {"type": "string"}),
        "property-added",
        False,
        False,
    ),
    (
        "required response field added",
        both(edit(R, "more", {"type": "string"}), edit(RESP, "required", ["id", "more"])),
        "property-added",
        False,
        True,
    ),
    (
        "response optional -> required",
        edit(RESP, "required", ["id", "extra"]),
        "required-added",
        False,
        True,
    ),
    ("response required -> optional", edit(RESP, "required", []), "required-removed", True, False),
    ("type changed", edit(P + "/note", "type", "integer"), "type-changed", True, True),
    (
        "response type widened",
        edit(R + "/extra", "type", ["string", "integer"]),
        "type-changed",
        True,
        False,
    ),
    (
        "response nullable",
        edit(R + "/extra", "type", ["string", "null"]),
        "nullable-changed",
        True,
        False,
    ),
    (
        "request nullable",
        edit(P + "/note", "type", ["string", "null"]),
        "nullable-changed",
        False,
        True,
    ),
    (
        "request format widened",
        edit(P + "/count", "format", "int64"),
        "format-changed",
        False,
        True,
    ),
    (
        "response format widened",
        edit(R + "/start_time", "format", "int32"),
        "format-changed",
        False,
        True,
    ),
    (
        "request enum value added",
        edit(P + "/mode", "enum", ["a", "b", "c"]),
        "enum-value-added",
        False,
        True,
    ),
    (
        "request enum value removed",
        edit(P + "/mode", "enum", ["a"]),
        "enum-value-removed",
        True,
        False,
    ),
    (
        "response enum value added",
        edit(R + "/phase", "enum", ["Running", "Failed", "Gone"]),
        "enum-value-added",
        True,
        False,
    ),
    (
        "response open enum value added",
        edit(R, "kind", open_enum(["job", "edge_job", "mrs_job"])),
        "documented-value-added",
        False,
        False,
    ),
    (
        "response open enum value removed",
        edit(R, "kind", open_enum(["job"])),
        "documented-value-removed",
        False,
        False,
    ),
    (
        "response string gains documented values",
        edit(R, "extra", open_enum(["x"])),
        "documented-value-added",
        False,
        False,
    ),
    (
        "response enum opened",
        edit(R, "phase", open_enum(["Running", "Failed"])),
        "enum-opened",
        True,
        False,
    ),
    (
        "request enum opened",
        edit(P, "mode", open_enum(["a", "b"])),
        "enum-opened",
        False,
        True,
    ),
    (
        "response enum closed",
        edit(R, "kind", {"type": "string", "enum": ["job", "edge_job"]}),
        "enum-closed",
        False,
        True,
    ),
    (
        "response enum value removed",
        edit(R + "/phase", "enum", ["Running"]),
        "enum-value-removed",
        False,
        False,
    ),
    (
        "request maxLength tightened",
        edit(P + "/name", "maxLength", 32),
        "constraint-tightened",
        True,
        False,
    ),
    (
        "request maxLength loosened",
        edit(P + "/name", "maxLength", 128),
        "constraint-loosened",
        False,
        True,
    ),
    (
        "request minimum tightened",
        edit(P + "/count", "minimum", 2),
        "constraint-tightened",
        True,
        False,
    ),
    (
        "request pattern changed",
        edit(P + "/name", "pattern", "^[A-Z]+$"),
        "constraint-changed",
        True,
        True,
    ),
    ("request pattern removed", edit(P + "/name", "pattern"), "constraint-loosened", False, True),
    (
        "request dependentRequired added",
        edit(REQ, "dependentRequired", {"count": ["mode"]}),
        "constraint-tightened",
        True,
        False,
    ),
    (
        "request not-both rule added",
        edit(REQ, "not", {"required": ["mode", "note"]}),
        "constraint-tightened",
        True,
        False,
    ),
    (
        "response dependentRequired added",
        edit(RESP, "dependentRequired", {"extra": ["kind"]}),
        "constraint-tightened",
        False,
        True,
    ),
    (
        "response maxLength added",
        edit(R + "/extra", "maxLength", 5),
        "constraint-tightened",
        False,
        True,
    ),
    (
        "request closed",
        edit(REQ, "additionalProperties", False),
        "additional-properties-changed",
        True,
        False,
    ),
    ("request default changed", edit(P + "/mode", "default", "b"), "default-changed", True, True),
    (
        "request oneOf variant added",
        edit(P + "/note", "oneOf", [{"maxLength": 1}]),
        "variants-changed",
        False,
        True,
    ),
    (
        "array items type changed",
        edit(P + "/tags/items", "type", "integer"),
        "type-changed",
        True,
        True,
    ),
    (
        "status added (success)",
        edit("/responses", "202", {"description": "later"}),
        "response-status-added",
        True,
        False,
    ),
    (
        "status added (error)",
        edit("/responses", "429", {"description": "slow"}),
        "response-status-added",
        False,
        False,
    ),
    ("status removed", edit("/responses", "400"), "response-status-removed", False, True),
    (
        "response header removed",
        edit("/responses/200/headers", "X-Request-Id"),
        "response-header-removed",
        True,
        False,
    ),
    (
        "required response header added",
        edit(
            "/responses/200/headers",
            "Retry-After",
            {"required": True, "schema": {"type": "integer"}},
        ),
        "response-header-added",
        False,
        True,
    ),
    (
        "required parameter added",
        edit("/parameters/0", "required", True),
        "parameter-required-changed",
        True,
        False,
    ),
    (
        "parameter added",
        edit(
            "",
            "parameters",
            [
                {"name": "limit", "in": "query", "schema": {"type": "integer", "maximum": 10}},
                {"name": "q", "in": "query", "required": True, "schema": {"type": "string"}},
            ],
        ),
        "parameter-added",
        True,
        True,
    ),
    ("parameter removed", edit("", "parameters", []), "parameter-removed", True, False),
    (
        "parameter schema tightened",
        edit("/parameters/0/schema", "maximum", 5),
        "constraint-tightened",
        True,
        False,
    ),
    (
        "request body made optional",
        edit("/requestBody", "required", False),
        "request-body-required-changed",
        False,
        True,
    ),
    (
        "request media type removed",
        edit("/requestBody", "content", {"text/plain": {}}),
        "media-type-removed",
        True,
        False,
    ),
    (
        "security alternative added",
        edit("", "security", [{"token": []}, {"aksk": []}]),
        "security-changed",
        False,
        True,
    ),
    (
        "security alternative removed",
        edit("", "security", [{"aksk": []}]),
        "security-changed",
        True,
        False,
    ),
    (
        "security scheme changed",
        edit("/components/securitySchemes/token", "name", "X-Token"),
        "security-scheme-changed",
        True,
        True,
    ),
]


def changes_for(mutate: Callable[[JSON], None], *, reverse: bool = False) -> list[Change]:
    old, new = base(), base()
    mutate(new)
    if reverse:
        old, new = new, old
    return diff_documents(old, new)


@pytest.mark.parametrize(
    ("mutate", "rule", "clients", "servers"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_rule(mutate: Callable[[JSON], None], rule: str, clients: bool, servers: bool) -> None:
    found = [(c.rule, c.breaks_clients, c.breaks_servers) for c in changes_for(mutate)]
    assert (rule, clients, servers) in found, found


def test_every_rule_id_is_covered() -> None:
    covered = {c[2] for c in CASES} | {
        "operation-removed",
        "request-body-added",
        "request-body-removed",
        "media-type-added",
    }
    assert covered == set(RULES) - set(MEANING_RULES)


def test_a_choose_one_rule_removed_from_a_request_loosens_it() -> None:
    for keyword, value in (
        ("dependentRequired", {"count": ["mode"]}),
        ("not", {"required": ["a"]}),
    ):
        found = changes_for(edit(REQ, keyword, value), reverse=True)
        assert [(c.rule, c.breaks_clients, c.breaks_servers) for c in found] == [
            ("constraint-loosened", False, True)
        ], keyword


def test_operation_removed_breaks_clients_only() -> None:
    found = changes_for(add_operation, reverse=True)
    assert [(c.rule, c.operation, c.breaks_clients, c.breaks_servers) for c in found] == [
        ("operation-removed", "Other", True, False)
    ]


def test_request_body_added_and_removed() -> None:
    removed = changes_for(edit("", "requestBody"))
    assert [(c.rule, c.breaks_clients, c.breaks_servers) for c in removed] == [
        ("request-body-removed", True, False)
    ]
    added = changes_for(edit("", "requestBody"), reverse=True)
    assert [(c.rule, c.breaks_clients, c.breaks_servers) for c in added] == [
        ("request-body-added", True, True)
    ]


def test_media_type_added_to_response_breaks_clients() -> None:
    mutate = edit("/responses/200/content", "text/plain", {"schema": {"type": "string"}})
    found = [(c.rule, c.breaks_clients, c.breaks_servers) for c in changes_for(mutate)]
    assert found == [("media-type-added", True, False)]


def test_a_shared_component_change_is_reported_once_with_every_operation() -> None:
    def second_operation(document: JSON) -> None:
        document["paths"]["/v2/{project_id}/copies"] = {
            "post": {
                "operationId": "CopyJob",
                "requestBody": copy.deepcopy(document["paths"][PATH]["post"]["requestBody"]),
                "responses": {"200": {"description": "ok"}},
            }
        }

    old, new = base(), base()
    second_operation(old)
    second_operation(new)
    del new["components"]["schemas"]["Req"]["properties"]["note"]
    (found,) = diff_documents(old, new)
    suffix = "/requestBody/content/application~1json/schema/properties/note"
    assert (found.rule, found.pointer) == ("property-removed", f"{REQ}/properties/note")
    assert found.operations == ("CopyJob", "UpdateJob")
    assert found.reached == (
        "/paths/~1v2~1{project_id}~1copies/post" + suffix,
        "/paths/~1v2~1{project_id}~1jobs~1{job_id}/post" + suffix,
    )
    markdown = render_markdown_sections([found])
    assert markdown.count("\n- ") == 1
    assert "`CopyJob`, `UpdateJob`" in markdown


def test_one_schema_reached_twice_in_one_operation_is_one_change() -> None:
    def second_path(document: JSON) -> None:
        props = document["components"]["schemas"]["Resp"]["properties"]
        props["sibling"] = {"$ref": "#/components/schemas/Node"}
        document["components"]["schemas"]["Node"]["properties"]["size"] = {"type": "integer"}

    old, new = base(), base()
    second_path(old)
    second_path(new)
    new["components"]["schemas"]["Node"]["properties"]["size"] = {"type": "string"}
    (found,) = diff_documents(old, new)
    assert found.pointer == "/components/schemas/Node/properties/size/type"
    assert len(found.reached) == 2  # resp.child.size and resp.sibling.size


def test_a_type_and_format_change_of_one_field_is_one_finding() -> None:
    old, new = base(), base()
    new["components"]["schemas"]["Resp"]["properties"]["start_time"] = {"type": "string"}
    (found,) = diff_documents(old, new)
    assert found.rule == "type-changed"
    assert found.old == {"type": "integer", "format": "int64"}
    assert found.new == {"type": "string", "format": None}
    assert "int64" in found.message


def test_a_format_change_alone_is_still_a_format_change() -> None:
    old, new = base(), base()
    new["components"]["schemas"]["Resp"]["properties"]["start_time"]["format"] = "int32"
    assert [c.rule for c in diff_documents(old, new)] == ["format-changed"]


def test_the_curated_job_body_change_is_one_finding_for_three_operations() -> None:
    old, new = curated(), curated()
    status = new["components"]["schemas"]["Status"]["properties"]["start_time"]
    status.pop("format", None)
    status["type"] = "string"
    (found,) = diff_documents(old, new)
    assert found.rule == "type-changed"
    assert found.pointer == "/components/schemas/Status/properties/start_time/type"
    assert set(found.operations) == {
        "CreateTrainingJob",
        "ShowTrainingJobDetails",
        "StopTrainingJob",
        "ListTrainingJobs",  # its items are the show page's job (JobResponse)
    }


def test_renamed_path_parameter_matches_the_same_operation() -> None:
    old, new = base(), base()
    item = new["paths"].pop(PATH)
    item["parameters"][1]["name"] = "id"
    new["paths"]["/v2/{project_id}/jobs/{id}"] = item
    assert diff_documents(old, new) == []


def test_identical_documents_have_no_changes() -> None:
    assert diff_documents(base(), base()) == []


def _write(path: Path, document: JSON) -> str:
    path.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")
    return str(path)


def test_cli_markdown_lists_breaking_first_and_exits_1(tmp_path: Path) -> None:
    new = base()
    del new["components"]["schemas"]["Resp"]["properties"]["extra"]  # breaks clients
    new["components"]["schemas"]["Resp"]["properties"]["more"] = {"type": "string"}  # breaks none
    args = [_write(tmp_path / "old.yaml", base()), _write(tmp_path / "new.yaml", new)]
    result = CliRunner().invoke(cli, ["spec", "diff", *args])
    assert result.exit_code == 1, result.output
    text = result.output
    assert text.index("## Breaking changes") < text.index("## Non-breaking changes")
    assert "response field `extra`: removed — **breaks clients**" in text


def test_cli_json_and_out_file(tmp_path: Path) -> None:
    new = base()
    new["components"]["schemas"]["Resp"]["properties"]["more"] = {"type": "string"}
    out = tmp_path / "diff.json"
    args = [_write(tmp_path / "o.yaml", base()), _write(tmp_path / "n.yaml", new)]
    result = CliRunner().invoke(cli, ["spec", "diff", *args, "--format", "json", "--out", str(out)])
    assert result.exit_code == 0, result.output
    payload = json.loads(out.read_text(encoding="utf-8"))
    assert payload["summary"] == {"changes": 1, "breaks_clients": 0, "breaks_servers": 0}
    (change,) = payload["changes"]
    assert set(change) == {
        "rule",
        "operation",
        "endpoint",
        "pointer",
        "old",
        "new",
        "breaks_clients",
        "breaks_servers",
        "message",
        "operations",
        "reached",
    }
    assert change["operation"] == "UpdateJob"
    assert change["operations"] == ["UpdateJob"]


def test_cli_usage_errors_exit_2(tmp_path: Path) -> None:
    good = _write(tmp_path / "good.yaml", base())
    assert (
        CliRunner().invoke(cli, ["spec", "diff", good, str(tmp_path / "missing.yaml")]).exit_code
        == 2
    )
    (tmp_path / "bad.yaml").write_text("openapi: [", encoding="utf-8")
    result = CliRunner().invoke(cli, ["spec", "diff", good, str(tmp_path / "bad.yaml")])
    assert result.exit_code == 2
    assert "bad.yaml:2:1: invalid YAML" in result.output
    assert CliRunner().invoke(cli, ["spec", "diff", good, "git:no-such-rev:x.yaml"]).exit_code == 2


def test_git_source(tmp_path: Path) -> None:
    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)

    git("init", "-q")
    _write(tmp_path / "spec.yaml", base())
    git("add", "spec.yaml")
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "v1")
    git("tag", "v1")
    source = read_source("git:v1:spec.yaml", cwd=tmp_path)
    assert source.document == base()
    with pytest.raises(SpecError, match=r"git:v1:nope\.yaml"):
        read_source("git:v1:nope.yaml", cwd=tmp_path)
    with pytest.raises(SpecError, match="expected git:REV:PATH"):
        read_source("git:v1", cwd=tmp_path)


def test_cli_fail_on_chooses_the_side(tmp_path: Path) -> None:
    new = base()
    new["components"]["schemas"]["Req"]["properties"]["age"] = {"type": "integer"}  # servers
    args = [_write(tmp_path / "old.yaml", base()), _write(tmp_path / "new.yaml", new)]
    assert CliRunner().invoke(cli, ["spec", "diff", *args]).exit_code == 1
    assert CliRunner().invoke(cli, ["spec", "diff", *args, "--fail-on", "servers"]).exit_code == 1
    assert CliRunner().invoke(cli, ["spec", "diff", *args, "--fail-on", "clients"]).exit_code == 0


# --------------------------------------------------------------------------- meaning extensions
#
# Each case changes a copy of the curated spec in one way and expects exactly one kind of
# meaning finding (extension rule), on the right side; ``also`` names the meaning rules the
# change necessarily brings with it (a new initial phase must be reachable, ...).

CURATED = read_yaml(SPEC_PATH)
LIFE = "x-modelarts-lifecycle"
STATUS = "/components/schemas/Status/properties"


def curated() -> JSON:
    return copy.deepcopy(CURATED)


def operation(document: JSON, operation_id: str) -> JSON:
    for item in document["paths"].values():
        for op in item.values():
            if isinstance(op, dict) and op.get("operationId") == operation_id:
                return op
    raise KeyError(operation_id)


def codes(operation_id: str, status: str) -> Callable[[JSON], JSON]:
    return lambda d: operation(d, operation_id)["responses"][status]["x-modelarts-error-codes"]


def life(d: JSON) -> JSON:
    return d[LIFE]


def change(
    where: Callable[[JSON], JSON], key: str | int, value: JSON = ...
) -> Callable[[JSON], None]:
    """Set ``key`` of the node ``where`` finds (delete it when no value is given)."""

    def mutate(document: JSON) -> None:
        node = where(document)
        if value is ...:
            del node[key]
        else:
            node[key] = value

    return mutate


def several(*mutations: Callable[[JSON], None]) -> Callable[[JSON], None]:
    def mutate(document: JSON) -> None:
        for step in mutations:
            step(document)

    return mutate


def add_phase(document: JSON) -> None:
    document["components"]["schemas"]["Status"]["properties"]["phase"]["enum"].append("Queued")
    life(document)["transitions"]["Pending"].append("Queued")
    life(document)["transitions"]["Queued"] = ["Running", "Terminating", "Failed"]
    life(document)["terminable"].append("Queued")
    life(document)["secondary-phases"]["Queued"] = ["Queuing"]


def add_sub_phase_field(document: JSON) -> None:
    status = document["components"]["schemas"]["Status"]["properties"]
    status["sub_phase"] = copy.deepcopy(status["secondary_phase"])
    life(document)["secondary-phase-field"] = "/status/sub_phase"


def swap_show_and_terminate(document: JSON) -> None:
    operation(document, "ShowTrainingJobDetails")["x-modelarts-role"] = "terminate"
    operation(document, "StopTrainingJob")["x-modelarts-role"] = "show"


def stop_action(document: JSON) -> None:
    schema = document["components"]["schemas"]["JobActionType"]["properties"]["action_type"]
    schema["enum"].append("stop")
    life(document)["terminate-body"] = {"action_type": "stop"}


def sensitive_marker(document: JSON) -> None:
    document["components"]["schemas"]["Status"]["properties"]["phase"]["x-modelarts-sensitive"] = (
        True
    )


def schema_model_rules(document: JSON) -> JSON:
    return document["x-modelarts-schema-model"]["rules"]


def schema_model_quotes(document: JSON) -> JSON:
    return document["x-modelarts-schema-model"]["quotes"]


def role_on_a_schema(document: JSON) -> None:
    document["components"]["schemas"]["Status"]["x-modelarts-role"] = "show"


STOP_400 = codes("StopTrainingJob", "400")
STOP_409 = codes("StopTrainingJob", "409")


def list_paging(document: JSON) -> JSON:
    return operation(document, "ListTrainingJobs")["x-modelarts-paging"]


def events_parameters(document: JSON) -> JSON:
    return operation(document, "ListTrainingJobEvents")["x-modelarts-parameters"]


def search_limit(document: JSON) -> JSON:
    return document["components"]["schemas"]["JobSearches"]["properties"]["limit"]


# (id, mutation, rule, breaks clients, breaks servers, rules the change also brings, reverse)
MEANING_CASES: list[tuple[str, Callable[[JSON], None], str, bool, bool, set[str], bool]] = [
    ("error code added", change(STOP_409, "not-terminable", ["ModelArts.2796", "ModelArts.2878"]),
     "error-code-added", True, False, set(), False),
    ("error code removed",
     change(STOP_400, "unsupported-action", ["ModelArts.2812", "ModelArts.0104"]),
     "error-code-removed", False, True, set(), False),
    ("error meaning added", change(STOP_409, "duplicate-name", ["ModelArts.2878"]),
     "error-meaning-added", True, False, set(), False),
    ("error meaning removed", change(STOP_409, "status-changed"),
     "error-meaning-removed", False, True, set(), False),
    ("preferred error code changed",
     change(STOP_400, "unsupported-action", ["ModelArts.2788", "ModelArts.2812", "ModelArts.0104"]),
     "error-code-preferred-changed", False, False, set(), False),
    ("gateway error code added",
     change(lambda d: d["x-modelarts-gateway-errors"]["404"], "path-not-found",
            ["ModelArts.2836", "ModelArts.2786"]),
     "error-code-added", True, False, set(), False),
    ("error catalogue row changed",
     change(lambda d: d["x-modelarts-error-catalogue"][0], "message", "Something broke."),
     "error-catalogue-changed", False, False, set(), False),
    ("phase added", add_phase, "phase-added", True, False, set(), False),
    ("phase removed", add_phase, "phase-removed", False, True, set(), True),
    ("secondary phase added",
     change(lambda d: life(d)["secondary-phases"], "Pending", ["Queuing", "Creating"]),
     "secondary-phase-added", True, False, set(), False),
    ("secondary phase removed",
     change(lambda d: life(d)["secondary-phases"], "Abnormal", ["CreateFailed", "Unknown"]),
     "secondary-phase-removed", False, True, set(), False),
    ("final phase changed",
     several(change(life, "final", ["Completed", "Failed", "Terminated"]),
             change(lambda d: life(d)["transitions"], "Abnormal", ["Failed"])),
     "final-phase-changed", True, True, set(), False),
    ("terminable phase removed", change(life, "terminable", ["Creating", "Pending"]),
     "terminable-phase-removed", True, False, set(), False),
    ("terminable phase added", change(life, "terminable", ["Creating", "Pending"]),
     "terminable-phase-added", False, True, set(), True),
    ("transition added",
     change(lambda d: life(d)["transitions"], "Pending",
            ["Running", "Terminating", "Failed", "Abnormal", "Completed"]),
     "transition-added", True, False, set(), False),
    ("transition removed",
     change(lambda d: life(d)["transitions"], "Creating", ["Pending", "Terminating", "Failed"]),
     "transition-removed", False, True, set(), False),
    ("initial phase changed",
     several(change(life, "initial", "Pending"),
             change(lambda d: life(d)["transitions"], "Pending",
                    ["Running", "Terminating", "Failed", "Abnormal", "Creating"])),
     "initial-phase-changed", True, True, {"transition-added", "course-changed"}, False),
    ("running phase changed", change(life, "running", "Pending"),
     "running-phase-changed", True, True, set(), False),
    ("stopping phase changed",
     several(change(life, "stopping", "Pending"), change(life, "terminable", ["Creating"])),
     "stopping-phase-changed", True, True, {"terminable-phase-removed", "course-changed"}, False),
    ("course changed",
     change(lambda d: life(d)["transitions"], "Running",
            ["Failed", "Completed", "Terminating", "Abnormal"]),
     "course-changed", False, False, set(), False),
    ("phase field changed", add_sub_phase_field, "phase-field-changed", True, True, set(), False),
    ("terminate body changed", stop_action, "terminate-body-changed", True, True, set(), False),
    ("role changed", swap_show_and_terminate, "role-changed", True, True, set(), False),
    ("job id field changed",
     change(lambda d: life(d)["job-id"], "field", "/metadata/name"),
     "job-id-field-changed", True, True, set(), False),
    ("guidance added",
     change(lambda d: d["components"]["schemas"]["JobActionType"], "x-modelarts-guidance",
            ["additionalProperties", "required"]),
     "guidance-added", False, False, set(), False),
    ("guidance removed",
     change(lambda d: d["components"]["schemas"]["JobActionType"], "x-modelarts-guidance"),
     "guidance-removed", False, True, set(), False),
    ("rule became lenient", several(
        change(schema_model_rules, "/components/schemas/JobMetadata/properties/description",
               {"presence": {"strength": "sdk", "ledger": ["x"]}})),
     "rule-became-lenient", True, False, set(), False),
    ("rule became documented", several(
        change(schema_model_rules, "/components/schemas/Output/properties/access_method")),
     "rule-became-documented", False, True, set(), False),
    ("rule became decision", several(
        change(schema_model_rules, "/components/schemas/JobMetadata/properties/name",
               {"pattern": {"strength": "decision", "ledger": ["job-name-pattern"]}})),
     "rule-became-decision", False, False, set(), False),
    ("evidence changed", change(schema_model_quotes, "/components/schemas/JobMetadata",
                                {"*": ["seeds/004_126c216e710dc1ec.txt | metadata | metadata"]}),
     "evidence-changed", False, False, set(), False),
    ("paging removed", change(lambda d: operation(d, "ListTrainingJobs"), "x-modelarts-paging"),
     "paging-removed", True, False, set(), False),
    ("paging added", change(lambda d: operation(d, "ListTrainingJobs"), "x-modelarts-paging"),
     "paging-added", False, False, set(), True),
    ("offset counts changed", change(lambda d: list_paging(d)["offset"], "counts", "items"),
     "paging-offset-changed", True, True, set(), False),
    ("limit narrowed", several(change(lambda d: list_paging(d)["limit"], "maximum", 40),
                               change(search_limit, "maximum", 40)),
     "paging-limit-narrowed", True, False, set(), False),
    ("limit widened", several(change(lambda d: list_paging(d)["limit"], "maximum", 60),
                              change(search_limit, "maximum", 60)),
     "paging-limit-widened", False, True, set(), False),
    ("limit default changed", change(lambda d: list_paging(d)["limit"], "default", 10),
     "paging-default-changed", True, True, set(), False),
    ("what total counts changed", change(lambda d: list_paging(d)["total"], "counts", "matching"),
     "paging-count-changed", True, True, set(), False),
    ("default order changed", change(lambda d: list_paging(d)["order"], "direction", "asc"),
     "paging-order-changed", True, True, set(), False),
    ("paging quote changed",
     change(lambda d: list_paging(d)["total"]["evidence"][0], "locator", "Table 4, row total"),
     "paging-evidence-changed", False, False, set(), False),
    ("parameters no longer passed together", change(events_parameters, "together", []),
     "parameters-together-removed", False, True, set(), False),
    ("parameters now passed together", change(events_parameters, "together", []),
     "parameters-together-added", True, True, set(), True),
    ("parameter format changed",
     change(lambda d: events_parameters(d)["formats"]["start_time"], "pattern", "^[0-9]+$"),
     "parameter-format-changed", False, False, set(), False),
    ("parameter quote changed",
     change(lambda d: events_parameters(d)["together"][0], "locator", "Table 2, row start_time"),
     "parameters-evidence-changed", False, False, set(), False),
    ("unknown extension added", sensitive_marker, "extension-changed", True, True, set(), False),
    ("unknown extension removed", sensitive_marker, "extension-changed", True, True, set(), True),
    ("known extension where nothing reads it", role_on_a_schema,
     "extension-changed", True, True, set(), False),
]  # fmt: skip

MEANING_RULE_IDS = set(MEANING_RULES)


def meaning_findings(mutate: Callable[[JSON], None], *, reverse: bool = False) -> list[Change]:
    old, new = curated(), curated()
    mutate(new)
    assert parse_spec(new, SPEC_PATH).meaning  # the changed copy is still a consistent spec
    if reverse:
        old, new = new, old
    return [c for c in diff_documents(old, new) if c.rule in MEANING_RULE_IDS]


@pytest.mark.parametrize(
    ("mutate", "rule", "clients", "servers", "also", "reverse"),
    [c[1:] for c in MEANING_CASES],
    ids=[c[0] for c in MEANING_CASES],
)
def test_meaning_rule(
    mutate: Callable[[JSON], None],
    rule: str,
    clients: bool,
    servers: bool,
    also: set[str],
    reverse: bool,
) -> None:
    found = meaning_findings(mutate, reverse=reverse)
    judged = {(c.rule, c.breaks_clients, c.breaks_servers) for c in found if c.rule == rule}
    assert judged == {(rule, clients, servers)}, found
    assert {c.rule for c in found} - {rule} == also, found


def test_every_meaning_rule_is_covered_and_explained() -> None:
    assert {c[2] for c in MEANING_CASES} == MEANING_RULE_IDS
    assert all(why and "\n" not in why and len(why) <= 100 for why in MEANING_RULES.values())
    readme = (Path(__file__).parents[2] / "spec" / "README.md").read_text(encoding="utf-8")
    assert all(f"| `{rule}` |" in readme for rule in MEANING_RULES)


def test_the_curated_spec_against_itself_has_no_changes() -> None:
    assert diff_documents(curated(), curated()) == []


def test_a_phase_added_is_reported_once_with_what_it_brings() -> None:
    (found,) = meaning_findings(add_phase)
    assert (found.operation, found.pointer) == ("(document)", f"/{LIFE}/transitions/Queued")
    assert found.new == {
        "final": False,
        "terminable": True,
        "transitions": ["Running", "Terminating", "Failed"],
        "secondary": ["Queuing"],
    }


def test_error_code_findings_name_the_operation_and_the_response() -> None:
    (found,) = meaning_findings(
        change(STOP_409, "not-terminable", ["ModelArts.2796", "ModelArts.2878"])
    )
    assert found.operation == "StopTrainingJob"
    assert found.endpoint == "POST /v2/{project_id}/training-jobs/{training_job_id}/actions"
    assert found.pointer.endswith("/responses/409/x-modelarts-error-codes/not-terminable")
    assert (found.old, found.new) == (None, "ModelArts.2878")


def test_codes_of_a_new_error_status_are_judged_by_the_status() -> None:
    def new_status(document: JSON) -> None:
        responses = operation(document, "StopTrainingJob")["responses"]
        responses["422"] = {
            "description": "unprocessable",
            "x-modelarts-error-codes": {"invalid-parameter": ["ModelArts.2788"]},
        }
        document["x-modelarts-error-catalogue"].append(
            {"code": "ModelArts.2788", "status": 422, "name": "x", "message": "y", "solution": "z"}
        )

    old, new = curated(), curated()
    new_status(new)
    rules = sorted((c.rule, c.operation) for c in diff_documents(old, new))
    assert rules == [
        ("error-catalogue-changed", "(document)"),
        ("response-status-added", "StopTrainingJob"),
    ]


def test_an_unreadable_meaning_is_compared_as_raw_extensions() -> None:
    old, new = curated(), curated()
    new[LIFE]["initial"] = "Bogus"
    found = diff_documents(old, new)
    assert [(c.rule, c.pointer, c.breaks_clients, c.breaks_servers) for c in found] == [
        ("extension-changed", f"/{LIFE}", True, True)
    ]
    assert "cannot be read" in found[0].message
    assert "initial 'Bogus' is not a phase" in found[0].message


def test_meaning_added_to_a_spec_without_it_is_not_silent() -> None:
    old = curated()
    for key in [k for k in old if k.startswith("x-modelarts-")]:
        del old[key]
    # every operation with a role, the optional ones included: a spec without any meaning
    for item in old["paths"].values():
        for op in item.values():
            if isinstance(op, dict):
                op.pop("x-modelarts-role", None)
    found = diff_documents(old, curated())
    assert {c.rule for c in found} == {"extension-changed"}
    assert {c.pointer for c in found} >= {f"/{LIFE}", "/x-modelarts-error-catalogue"}
    assert all("only one side" in c.message for c in found)


def test_an_extension_on_a_new_node_comes_with_it() -> None:
    """A marker on a schema the old spec does not have at all (a new operation's answer) is
    part of that addition, not a change of meaning; on an existing node it still is."""
    old, new = curated(), curated()
    new["components"]["schemas"]["LogUrl"] = {
        "type": "object",
        "description": "A log URL.",
        "properties": {
            "url": {"type": "string", "description": "The URL.", "x-modelarts-sensitive": True}
        },
    }
    assert [c.rule for c in diff_documents(old, new) if c.rule == "extension-changed"] == []
    assert [c.rule for c in diff_documents(new, old) if c.rule == "extension-changed"] == []
    sensitive_marker(new)
    changed = [c for c in diff_documents(old, new) if c.rule == "extension-changed"]
    assert [c.pointer.rsplit("/", 1)[1] for c in changed] == ["x-modelarts-sensitive"]


def test_dropping_a_type_its_any_of_branches_state_changes_nothing() -> None:
    """issue 35: ``environments`` lost ``type: [object, array]`` beside an ``anyOf`` of an
    object and an array; the values allowed are the same, so no change (it was "type changed
    from [object, array] to (unset)", breaking). Dropping a type no branch restates still is."""
    old, new = curated(), curated()
    node = new["components"]["schemas"]["JobAlgorithm"]["properties"]["environments"]
    node["type"] = ["object", "array"]
    old["components"]["schemas"]["JobAlgorithm"]["properties"]["environments"] = dict(node)
    del node["type"]
    assert diff_documents(old, new) == []
    node["anyOf"] = [node["anyOf"][0]]  # now only the object shape: narrowed
    assert "type-changed" in [c.rule for c in diff_documents(old, new)]
    node["anyOf"] = [{"$ref": "#/components/schemas/Parameter"}, node["anyOf"][0]]
    assert "type-changed" in [c.rule for c in diff_documents(old, new)]  # a $ref: any type
