"""The reference server plays both ends of the spec's envelopes (``ServerSettings.strictness``):
lenient enforces must-reject and neither stores nor echoes fields the spec does not have;
strict accepts only must-accept."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from modelarts_kit_server import ManualClock, ServerSettings, create_app
from modelarts_kit_server.errors import ConfigError
from modelarts_kit_spec import Spec

from .server_support import Api, SyncASGITransport, check_error, job_body

JSON = Any
OUTPUT = {"name": "out", "remote": {"obs": {"obs_url": "obs://bucket/out/"}}}
CODE = {"code_dir": "obs://bucket/code/", "boot_file": "obs://bucket/code/train.py"}


@pytest.fixture
def strict(spec: Spec) -> Iterator[Api]:
    server = create_app(ServerSettings(clock=ManualClock(), strictness="strict"))
    transport = SyncASGITransport(server)
    with httpx.Client(transport=transport, base_url="http://127.0.0.1") as client:
        yield Api(client, spec)
    server.close()


def _paths(value: JSON, prefix: str = "") -> set[str]:
    """Every member path of a JSON value (``a.b.0.c``)."""
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            here = f"{prefix}.{key}" if prefix else str(key)
            found |= {here, *_paths(item, here)}
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found |= _paths(item, f"{prefix}.{index}")
    return found


def test_lenient_neither_stores_nor_echoes_fields_the_spec_does_not_have(api: Api) -> None:
    body = job_body(
        "lenient-unknown",
        x_top="dropped",
        spec={"resource": {"flavor_id": "f", "flavor_detail": {"flavor_type": "CPU"}}},
    )
    body["metadata"]["x_note"] = "dropped"
    created = api.create(body)
    assert created.status_code == 201, created.text
    shown = api.show(created.json()["metadata"]["id"]).json()
    for answer in (created.json(), shown):
        paths = _paths(answer)
        assert "x_top" not in paths
        assert "metadata.x_note" not in paths
        assert "spec.resource.flavor_detail" not in paths
        assert answer["spec"]["resource"]["flavor_id"] == "f"


def test_lenient_accepts_what_only_guidance_or_the_sdk_refuses(api: Api) -> None:
    outputs = [{**OUTPUT, "access_method": {}}]
    body = job_body("lenient-sdk", algorithm={**CODE, "outputs": outputs})
    assert api.create(body).status_code == 201
    no_flavor = job_body("lenient-guidance", spec={"resource": {"node_count": 1}})
    assert api.create(no_flavor).status_code == 201


@pytest.mark.parametrize("strictness", ["lenient", "strict"])
def test_both_ends_refuse_a_documented_rule(spec: Spec, strictness: str) -> None:
    """int32 range of node_count: the same envelope rule at both ends."""
    server = create_app(ServerSettings(clock=ManualClock(), strictness=strictness))
    try:
        with httpx.Client(
            transport=SyncASGITransport(server), base_url="http://127.0.0.1"
        ) as client:
            body = job_body("too-many", spec={"resource": {"flavor_id": "f", "node_count": 2**40}})
            message = check_error(Api(client, spec).create(body), 400, "ModelArts.2788")
            assert "/spec/resource/node_count" in message
    finally:
        server.close()


def test_strict_accepts_a_documented_body(strict: Api) -> None:
    body = job_body("strict-ok", algorithm={**CODE, "outputs": [OUTPUT]})
    body["spec"] = {"resource": {"flavor_id": "f", "node_count": 1}}
    assert strict.create(body).status_code == 201, strict.create(body).text


@pytest.mark.parametrize(
    ("case", "change", "field"),
    [
        ("unknown field", lambda b: b["metadata"].update(x_note=1), "/metadata"),
        ("guidance: flavor_id or pool_id", lambda b: b["spec"]["resource"].pop("flavor_id"),
         "/spec/resource"),
        ("guidance: engine_id excludes image_url",
         lambda b: b["algorithm"].update(engine={"engine_id": "e", "image_url": "i"}),
         "/algorithm"),
        ("example-only null", lambda b: b["algorithm"].update(
            parameters=[{"name": "lr", "value": "1", "i18n_description": None}]),
         "/algorithm/parameters/0/i18n_description"),
    ],
)  # fmt: skip
def test_strict_refuses_what_is_outside_must_accept(
    strict: Api, case: str, change: Any, field: str
) -> None:
    body = job_body("strict-no", algorithm={**CODE, "outputs": [dict(OUTPUT)]})
    body["spec"] = {"resource": {"flavor_id": "f", "node_count": 1}}
    change(body)
    message = check_error(strict.create(body), 400, "ModelArts.2788")
    assert field in message, case


def test_strict_accepts_what_the_vendor_sdk_sends(strict: Api) -> None:
    """What the vendor's SDK sends, the service accepts (issue 31 item 7): an SDK-only field
    is outside must-accept, yet the strict end takes it; an unknown field beside it is not."""
    body = job_body("strict-sdk", algorithm={**CODE, "outputs": [{**OUTPUT, "access_method": "x"}]})
    body["spec"] = {"resource": {"flavor_id": "f", "node_count": 1}}
    assert strict.create(body).status_code == 201
    body["metadata"] = {**body["metadata"], "name": "strict-sdk-2", "x_note": 1}
    check_error(strict.create(body), 400, "ModelArts.2788")


def test_strict_refuses_an_extra_key_in_the_terminate_body(strict: Api, api: Api) -> None:
    job_id = strict.created_id("strict-stop")
    extra = {"action_type": "terminate", "": 1}
    check_error(strict.terminate(job_id, extra), 400, "ModelArts.2788")
    lenient_id = api.created_id("lenient-stop")
    assert api.terminate(lenient_id, {"action_type": "terminate", "": 1}).status_code == 202


def test_an_unknown_strictness_is_refused() -> None:
    with pytest.raises(ConfigError, match="--strictness must be one of lenient, strict"):
        ServerSettings(strictness="medium")


@pytest.mark.parametrize("strictness", ["lenient", "strict"])
def test_both_ends_accept_every_request_example_the_spec_embeds(
    spec: Spec, strictness: str
) -> None:
    """Issue 31 item 7: seeds/004's example requests send ``"auto_search": null``."""
    server = create_app(ServerSettings(clock=ManualClock(), strictness=strictness))
    try:
        with httpx.Client(
            transport=SyncASGITransport(server), base_url="http://127.0.0.1"
        ) as client:
            api = Api(client, spec)
            create = spec.operation("CreateTrainingJob")
            body = spec.deref(spec.at(f"{create.pointer}/requestBody"))
            examples = body["content"]["application/json"]["examples"]
            assert examples
            for name, example in examples.items():
                value = spec.deref(example)["value"]
                answer = api.create(value)
                assert answer.status_code == 201, (strictness, name, answer.text)
    finally:
        server.close()
