"""What the generated client sends: fields the spec does not know, as given; the spec's field
rules (``not: {required}``, ``dependentRequired``) checked before sending; ``UncheckedBody``
sent as it is."""

from __future__ import annotations

import copy
import importlib
import inspect
import json
import sys
from pathlib import Path
from typing import Any

import httpx
import pydantic
import pytest
from modelarts_kit_generator import GenerationError, GeneratorOptions, generate
from modelarts_kit_spec import load_spec
from modelarts_training_client import (
    Job,
    RequestValidationError,
    TokenAuth,
    TrainingJobsClient,
    UncheckedBody,
)

from tests.generator.test_hostile_spec import base_spec

PROJECT_ID = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
BASE_URL = "https://modelarts.test-region.example.com"
SECRET = "env-secret-value-5b1f"


def make_client(recorder: Any) -> TrainingJobsClient:
    return TrainingJobsClient(
        project_id=PROJECT_ID,
        base_url=BASE_URL,
        auth=TokenAuth("token-value"),
        transport=httpx.MockTransport(recorder),
    )


def created(show_job_example: dict[str, Any]) -> httpx.Response:
    return httpx.Response(201, content=json.dumps(show_job_example).encode())


def test_fields_the_spec_does_not_know_are_sent_as_given(
    recorder: Any, create_job_example: dict[str, Any], show_job_example: dict[str, Any]
) -> None:
    body = copy.deepcopy(create_job_example)
    body["x_vendor_added"] = {"nested": [1, "two"]}
    body["metadata"]["x_label"] = "kept"
    body["algorithm"]["x_flag"] = True
    mock = recorder(created(show_job_example))
    with make_client(mock) as client:
        client.create_training_job(body)
    (request,) = mock.requests
    assert json.loads(request.content) == body


def test_a_model_keeps_unknown_fields(create_job_example: dict[str, Any]) -> None:
    body = {**copy.deepcopy(create_job_example), "x_vendor_added": 1}
    job = Job.model_validate(body)
    assert job.model_dump(by_alias=True, exclude_unset=True) == body


def _set(body: dict[str, Any], path: str, value: Any) -> None:
    *parents, last = path.split(".")
    for name in parents:
        body = body.setdefault(name, {})
    body[last] = value


# (object path, fields set, the spec's rule pointer): each body breaks one rule the spec states
BROKEN_RULES = [
    (
        "algorithm.engine",
        {"engine_id": "pytorch-cp36-1.4.0-v2", "engine_name": "PyTorch", "engine_version": "1.4"},
        "/components/schemas/JobEngine/allOf/0/not",
    ),
    ("algorithm", {"code_dir": "/usr/app/"}, "/components/schemas/JobAlgorithm/dependentRequired"),
    ("", {"tasks": [{"role": "worker"}]}, "/components/schemas/Job/not"),
]


@pytest.mark.parametrize(("where", "fields", "rule"), BROKEN_RULES)
def test_a_body_breaking_a_field_rule_is_refused_before_sending(
    recorder: Any, create_job_example: dict[str, Any], where: str, fields: dict[str, Any], rule: str
) -> None:
    body = copy.deepcopy(create_job_example)
    body["algorithm"].pop("id", None)
    body["algorithm"]["environments"] = {"TOKEN": SECRET}
    for name, value in fields.items():
        _set(body, f"{where}.{name}" if where else name, value)
    assert "spec" in body  # the "spec with tasks" case needs it
    mock = recorder()
    with make_client(mock) as client, pytest.raises(RequestValidationError) as caught:
        client.create_training_job(body)
    assert mock.requests == []
    ((path, message, _),) = caught.value.errors
    assert path == ".".join(part for part in ("body", where) if part)
    assert rule in message
    assert "guidance at" in message  # the schema model's strength of these rules
    assert "ledger entry guidance-" in message  # and their evidence
    assert any(name in message for name in fields)
    assert SECRET not in str(caught.value)
    with pytest.raises(pydantic.ValidationError, match=rule):
        Job.model_validate(body)


def test_every_field_rule_of_the_create_body_is_checked(create_job_example: dict[str, Any]) -> None:
    """Each `not: {required}` and `dependentRequired` of the request schemas the create body
    reaches is a check of the model holding it (read from the spec, not listed here)."""
    spec = load_spec()
    stated = set()
    for pointer, node in _request_schemas(spec):
        for index, part in enumerate(node.get("allOf") or []):
            if set(part) == {"not"}:
                stated.add(f"{pointer}/allOf/{index}/not")
        if "not" in node:
            stated.add(f"{pointer}/not")
        for name in node.get("dependentRequired") or {}:
            stated.add(f"{pointer}/dependentRequired/{name}")
    from modelarts_training_client import _request_models

    printed = inspect.getsource(_request_models)
    assert stated
    unchecked = {p for p in stated if f'"guidance at {p}; ledger entry ' not in printed}
    assert unchecked == set()


def _request_schemas(spec: Any) -> list[tuple[str, dict[str, Any]]]:
    """Every component schema the create body reaches, with its pointer."""
    found: dict[str, dict[str, Any]] = {}
    pending = [spec.meaning.roles.create.request_schema]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref not in found:
                found[ref] = spec.at(ref)
                pending.append(found[ref])
            pending.extend(value for key, value in node.items() if key != "$ref")
        elif isinstance(node, list):
            pending.extend(node)
    return [(ref.removeprefix("#"), node) for ref, node in found.items()]


def test_unchecked_body_is_sent_as_given(
    recorder: Any, create_job_example: dict[str, Any], show_job_example: dict[str, Any]
) -> None:
    body = copy.deepcopy(create_job_example)
    body["algorithm"]["engine"] = {"engine_id": "e", "engine_name": "PyTorch"}
    body["algorithm"]["environments"] = {"TOKEN": SECRET}
    mock = recorder(created(show_job_example))
    unchecked = UncheckedBody(body)
    with make_client(mock) as client:
        client.create_training_job(unchecked)
    (request,) = mock.requests
    assert json.loads(request.content) == body
    assert SECRET not in repr(unchecked)


@pytest.mark.parametrize("value", [object(), float("nan"), float("inf")])
def test_unchecked_body_that_is_not_json_is_refused(recorder: Any, value: Any) -> None:
    mock = recorder()
    with make_client(mock) as client, pytest.raises(RequestValidationError) as caught:
        client.create_training_job(UncheckedBody({"metadata": {"name": value}}))
    assert mock.requests == []
    assert [path for path, _, _ in caught.value.errors] == ["body"]


@pytest.mark.parametrize("environments", [{"KEY": 5}, [{"KEY": 5}]])
def test_a_value_of_two_shapes_keeps_each_shape_typed(
    recorder: Any, create_job_example: dict[str, Any], environments: Any
) -> None:
    """``environments`` is ``anyOf`` a map of strings or a list of such maps
    (spec 2.2.0); a number inside either shape is refused, at the field, in the body's terms."""
    body = copy.deepcopy(create_job_example)
    body["algorithm"]["environments"] = environments
    mock = recorder()
    with make_client(mock) as client, pytest.raises(RequestValidationError) as caught:
        client.create_training_job(body)
    assert mock.requests == []
    paths = [path for path, _, _ in caught.value.errors]
    assert all(path.startswith("body.algorithm.environments") for path in paths)
    assert not any("[" in path for path in paths)  # no name of a shape, only body members


HOSTILE_NAME = 'a"); open("canary", "w"); ("'


def _toy_with(tmp_path: Path, thing_extra: dict[str, Any]) -> Path:
    spec = base_spec()
    spec["components"]["schemas"]["Thing"].update(thing_extra)
    spec_file = tmp_path / "spec.json"
    spec_file.write_text(json.dumps(spec), encoding="utf-8")
    return spec_file


def test_field_rules_of_any_spec_are_printed_as_data_and_checked(tmp_path: Path) -> None:
    """A spec's own names in a rule (quotes, code) are data in the generated rule, and the
    generated request model checks it."""
    properties = {HOSTILE_NAME: {"type": "string"}, "b": {"type": "string"}}
    extra = {
        "properties": {**base_spec()["components"]["schemas"]["Thing"]["properties"], **properties},
        "dependentRequired": {HOSTILE_NAME: ["b"]},
        "not": {"required": ["name", "b"]},
    }
    out = tmp_path / "out"
    generate(out, _toy_with(tmp_path, extra), GeneratorOptions(package="toy_client"))
    sys.path.insert(0, str(out))
    try:
        models = importlib.import_module("toy_client.models")
        model = models.ThingInput
        model.model_validate({HOSTILE_NAME: "x", "b": "y"})
        with pytest.raises(pydantic.ValidationError, match="dependentRequired"):
            model.model_validate({HOSTILE_NAME: "x"})
        with pytest.raises(pydantic.ValidationError, match="/components/schemas/Thing/not"):
            model.model_validate({"name": "a", "b": "y"})
    finally:
        sys.path.remove(str(out))
        for name in [n for n in sys.modules if n.split(".")[0] == "toy_client"]:
            del sys.modules[name]
    assert not (tmp_path / "canary").exists()


def test_a_request_not_the_client_cannot_check_is_refused_at_generation(tmp_path: Path) -> None:
    spec_file = _toy_with(tmp_path, {"not": {"type": "string"}})
    with pytest.raises(GenerationError) as caught:
        generate(tmp_path / "out", spec_file, GeneratorOptions(package="toy_client"))
    message = str(caught.value)
    assert message.startswith("spec: /components/schemas/Thing/not: ")
    assert "rule: the generated client checks `not: {required: [...]}` only" in message
    assert not (tmp_path / "out").exists()


def test_an_any_of_of_value_shapes_is_a_field_union_not_a_model(tmp_path: Path) -> None:
    """``anyOf`` of a map and a list of maps, with no outer ``type`` (``environments`` since
    issue 35): the field is typed with the union of both shapes, as with ``type: [object,
    array]``; no model class of its own wraps the value (callers keep reading a dict or list)."""
    string_map = {"type": "object", "additionalProperties": {"type": "string"}}
    shapes = {"anyOf": [string_map, {"type": "array", "items": string_map}], "description": "d"}
    properties = {**base_spec()["components"]["schemas"]["Thing"]["properties"], "env": shapes}
    out = tmp_path / "out"
    generate(
        out, _toy_with(tmp_path, {"properties": properties}), GeneratorOptions(package="toy_client")
    )
    sys.path.insert(0, str(out))
    try:
        models = importlib.import_module("toy_client.models")
        assert not [name for name in dir(models) if name.endswith("Env")]
        assert models.ThingInput.model_validate({"env": {"K": "v"}}).env == {"K": "v"}
        assert models.ThingInput.model_validate({"env": [{"K": "v"}]}).env == [{"K": "v"}]
        with pytest.raises(pydantic.ValidationError):
            models.ThingInput.model_validate({"env": {"K": 5}})
    finally:
        sys.path.remove(str(out))
        for name in [n for n in sys.modules if n.split(".")[0] == "toy_client"]:
            del sys.modules[name]
