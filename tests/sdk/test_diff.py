"""sdk diff on hand-made SDK releases: each finding exact, and the ledger's settling rule."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import yaml
from modelarts_kit_sdk import SdkError, SdkFinding, diff_sdk, from_wheel
from modelarts_kit_sdk.diff import find_drift
from modelarts_kit_sdk.models import SdkModels
from modelarts_kit_sdk.render import render_json, render_text
from modelarts_kit_spec import load_spec

from .support import Models, fake_wheel

BASE: Models = {
    "CreateThingRequest": {"project_id": "str", "body": "Thing"},
    "Thing": {
        "name": "str",
        "size": "int",
        "inner": "Inner",
        "parts": "list[Part]",
        "named": "dict(str, Part)",
    },
    "Inner": {"depth": "int"},
    "Part": {"label": "str"},
    "CreateThingResponse": {"id": "str", "parts": "list[PartResp]", "phase": "str"},
    "PartResp": {"label": "str"},
}
S = "/components/schemas"
ABSENT = "absent"


def variant(**changes: dict[str, str | tuple[str, str]] | None) -> Models:
    models = copy.deepcopy(BASE)
    for name, attributes in changes.items():
        if attributes is None:
            del models[name]
        else:
            models[name] = attributes
    return models


def findings(tmp_path: Path, spec_path: Path, models: Models) -> list[SdkFinding]:
    result, _ = find_drift(
        load_spec(spec_path), SdkModels(from_wheel(fake_wheel(tmp_path, models)))
    )
    return result


def summary(found: list[SdkFinding]) -> list[tuple[object, ...]]:
    return [
        (
            f.kind,
            f.schema,
            f.field,
            [
                (o.side, o.path, o.model, o.attribute, o.says, o.spec, o.pointer)
                for o in f.occurrences
            ],
        )
        for f in found
    ]


def test_a_release_that_matches_the_spec_has_no_findings(tmp_path: Path, small_spec: Path) -> None:
    assert findings(tmp_path, small_spec, BASE) == []


def test_a_field_the_sdk_adds(tmp_path: Path, small_spec: Path) -> None:
    thing = {**BASE["Thing"], "colour": "str"}
    assert summary(findings(tmp_path, small_spec, variant(Thing=thing))) == [
        ("sdk-only", f"{S}/Thing", "colour",
         [("request", "colour", "Thing", "colour", "str", ABSENT, f"{S}/Thing/properties/colour")]),
    ]  # fmt: skip


def test_a_field_the_sdk_lacks(tmp_path: Path, small_spec: Path) -> None:
    thing = {k: v for k, v in BASE["Thing"].items() if k != "size"}
    assert summary(findings(tmp_path, small_spec, variant(Thing=thing))) == [
        ("spec-only", f"{S}/Thing", "size",
         [("request", "size", "Thing", "size", ABSENT, "integer", f"{S}/Thing/properties/size")]),
    ]  # fmt: skip


def test_a_type_changed_from_integer_to_string_is_flagged(tmp_path: Path, small_spec: Path) -> None:
    found = findings(tmp_path, small_spec, variant(Thing={**BASE["Thing"], "size": "str"}))
    assert summary(found) == [
        ("type", f"{S}/Thing", "size",
         [("request", "size", "Thing", "size", "str", "integer", f"{S}/Thing/properties/size")]),
    ]  # fmt: skip
    assert found[0].integer_vs_string


def test_a_type_change_inside_a_nested_model(tmp_path: Path, small_spec: Path) -> None:
    found = findings(tmp_path, small_spec, variant(Inner={"depth": "float"}))
    assert summary(found) == [
        ("type", f"{S}/Inner", "depth",
         [("request", "inner.depth", "Inner", "depth", "float", "integer",
           f"{S}/Inner/properties/depth")]),
    ]  # fmt: skip
    assert not found[0].integer_vs_string


def test_a_field_added_to_a_model_in_a_list_and_a_dict_is_one_finding(
    tmp_path: Path, small_spec: Path
) -> None:
    found = findings(tmp_path, small_spec, variant(Part={"label": "str", "weight": "int"}))
    assert summary(found) == [
        ("sdk-only", f"{S}/Part", "weight",
         [("request", "parts[].weight", "Part", "weight", "int", ABSENT,
           f"{S}/Part/properties/weight"),
          ("request", "named{}.weight", "Part", "weight", "int", ABSENT,
           f"{S}/Part/properties/weight")]),
    ]  # fmt: skip


def test_a_shared_schema_is_one_finding_listing_request_and_response_paths(
    tmp_path: Path, small_spec: Path
) -> None:
    models = variant(
        Part={"label": "str", "weight": "int"}, PartResp={"label": "str", "weight": "int"}
    )
    (finding,) = findings(tmp_path, small_spec, models)
    assert [(o.side, o.path, o.model) for o in finding.occurrences] == [
        ("request", "parts[].weight", "Part"),
        ("request", "named{}.weight", "Part"),
        ("response", "parts[].weight", "PartResp"),
    ]
    assert finding.sides == {"request", "response"}


def test_a_dict_of_models_is_walked_into(tmp_path: Path, small_spec: Path) -> None:
    models = variant(
        Thing={**BASE["Thing"], "named": "dict(str, NamedPart)"}, NamedPart={"label": "int"}
    )
    assert summary(findings(tmp_path, small_spec, models)) == [
        ("type", f"{S}/Part", "label",
         [("request", "named{}.label", "NamedPart", "label", "int", "string",
           f"{S}/Part/properties/label")]),
    ]  # fmt: skip


def test_a_list_that_became_a_scalar(tmp_path: Path, small_spec: Path) -> None:
    found = findings(tmp_path, small_spec, variant(Thing={**BASE["Thing"], "parts": "str"}))
    assert summary(found) == [
        ("type", f"{S}/Thing", "parts",
         [("request", "parts", "Thing", "parts", "str", "array", f"{S}/Thing/properties/parts")]),
    ]  # fmt: skip


def test_the_wire_name_comes_from_attribute_map(tmp_path: Path, small_spec: Path) -> None:
    thing = {**BASE["Thing"], "_name": ("str", "name")}
    del thing["name"]
    assert findings(tmp_path, small_spec, variant(Thing=thing)) == []


def test_an_open_response_enum_is_a_string(tmp_path: Path, small_spec: Path) -> None:
    response = {**BASE["CreateThingResponse"], "phase": "int"}
    found = findings(tmp_path, small_spec, variant(CreateThingResponse=response))
    assert [(f.kind, f.field, f.occurrences[0].spec) for f in found] == [
        ("type", "phase", "string")
    ]
    assert found[0].integer_vs_string


def test_a_path_parameter_the_sdk_request_lacks(tmp_path: Path, small_spec: Path) -> None:
    found = findings(tmp_path, small_spec, variant(CreateThingRequest={"body": "Thing"}))
    pointer = "/paths/~1v1~1{project_id}~1things/parameters/0"
    assert summary(found) == [
        ("spec-only", pointer, "project_id",
         [("parameter", "project_id", "CreateThingRequest", "project_id", ABSENT, "parameter",
           pointer)]),
    ]  # fmt: skip


def _ledger(spec: Path, entries: list[dict[str, object]]) -> None:
    (spec.parent / "ledger.yaml").write_text(yaml.safe_dump({"entries": entries}), encoding="utf-8")


def _entry(kind: str, says: str, side: str = "request") -> dict[str, object]:
    return {
        "id": f"colour-{kind}-{says}",
        "pointer": f"{S}/Thing",
        "field": "colour",
        "side": side,
        "kind": kind,
        "sources": [{"sdk": "0.0.1", "model": "Thing", "attribute": "colour", "says": says}],
        "decision": "left out",
        "expect": {"type": "object"},
        "reason": "test",
    }


@pytest.mark.parametrize(
    ("entry", "reconciled"),
    [
        (_entry("presence", "str"), True),
        (_entry("presence", "str", side="both"), True),
        (_entry("presence", "int"), False),  # recorded says differs from what the SDK says now
        (_entry("type", "str"), False),  # another kind
        (_entry("presence", "str", side="response"), False),  # another side
    ],
)
def test_an_entry_settles_only_what_it_records(
    tmp_path: Path, small_spec: Path, entry: dict[str, object], reconciled: bool
) -> None:
    _ledger(small_spec, [entry])
    wheel = fake_wheel(tmp_path, variant(Thing={**BASE["Thing"], "colour": "str"}))
    report = diff_sdk(from_wheel(wheel), small_spec)
    assert report.unreconciled_count == (0 if reconciled else 1)
    assert report.reconciled_count == (1 if reconciled else 0)
    if reconciled:
        ((_, ids),) = report.schemas[0].reconciled
        assert ids == (entry["id"],)


def test_a_finding_is_reconciled_only_when_every_occurrence_is_recorded(
    tmp_path: Path, small_spec: Path
) -> None:
    models = variant(
        Part={"label": "str", "weight": "int"}, PartResp={"label": "str", "weight": "int"}
    )
    entry = {
        **_entry("presence", "int", side="both"),
        "sources": [{"sdk": "0.0.1", "model": "Part", "attribute": "weight", "says": "int"}],
    }
    _ledger(small_spec, [entry])
    wheel = fake_wheel(tmp_path, models)
    assert diff_sdk(from_wheel(wheel), small_spec).unreconciled_count == 1  # PartResp unrecorded
    entry["sources"].append(  # type: ignore[attr-defined]
        {"sdk": "0.0.1", "model": "PartResp", "attribute": "weight", "says": "int"}
    )
    _ledger(small_spec, [entry])
    assert diff_sdk(from_wheel(wheel), small_spec).unreconciled_count == 0


def test_a_todo_entry_settles_nothing(tmp_path: Path, small_spec: Path) -> None:
    _ledger(small_spec, [{**_entry("presence", "str"), "decision": "TODO"}])
    wheel = fake_wheel(tmp_path, variant(Thing={**BASE["Thing"], "colour": "str"}))
    assert diff_sdk(from_wheel(wheel), small_spec).unreconciled_count == 1


def test_an_sdk_source_without_its_attribute_is_refused(tmp_path: Path, small_spec: Path) -> None:
    entry = {**_entry("presence", "str"), "sources": [{"sdk": "0.0.1", "model": "Thing"}]}
    _ledger(small_spec, [entry])
    with pytest.raises(SdkError, match="an sdk source needs model, attribute and says"):
        diff_sdk(from_wheel(fake_wheel(tmp_path, BASE)), small_spec)


def _with_an_operation_the_sdk_lacks(spec: Path) -> None:
    document = yaml.safe_load(spec.read_text(encoding="utf-8"))
    document["paths"]["/v1/{project_id}/things/{thing_id}/log-url"] = {
        "get": {
            "operationId": "ShowThingLogUrl",
            "parameters": [
                {"name": name, "in": "path", "required": True, "schema": {"type": "string"}}
                for name in ("project_id", "thing_id")
            ],
            "responses": {
                "200": {
                    "description": "ok",
                    "content": {
                        "application/json": {
                            "schema": {"type": "object", "properties": {"url": {"type": "string"}}}
                        }
                    },
                }
            },
        }
    }
    spec.write_text(yaml.safe_dump(document, sort_keys=False), encoding="utf-8")


def test_an_operation_without_sdk_models_is_said_not_failed(
    tmp_path: Path, small_spec: Path
) -> None:
    _with_an_operation_the_sdk_lacks(small_spec)
    report = diff_sdk(from_wheel(fake_wheel(tmp_path, BASE)), small_spec)
    assert report.unreconciled_count == 0
    assert [(m.operation, m.models) for m in report.without_models] == [
        ("ShowThingLogUrl", ("ShowThingLogUrlRequest", "ShowThingLogUrlResponse"))
    ]
    text = render_text(report).splitlines()
    (line,) = [line for line in text if "ShowThingLogUrl" in line]
    assert line.startswith("ShowThingLogUrl: no SDK model")
    assert "ShowThingLogUrlRequest" in line
    assert "ShowThingLogUrlResponse" in line
    document = json.loads(render_json(report))
    assert document["operations_without_models"] == [
        {
            "operation": "ShowThingLogUrl",
            "models": ["ShowThingLogUrlRequest", "ShowThingLogUrlResponse"],
        }
    ]


def test_an_operation_with_only_a_request_model_is_compared(
    tmp_path: Path, small_spec: Path
) -> None:
    _with_an_operation_the_sdk_lacks(small_spec)
    models = variant(ShowThingLogUrlRequest={"thing_id": "str"})
    report = diff_sdk(from_wheel(fake_wheel(tmp_path, models)), small_spec)
    assert report.without_models == []
