"""Request validation against the spec, vendor error bodies, and fuzzing for 5xx."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from modelarts_kit_server import (
    DEV_PROJECT_ID,
    DEV_TOKEN,
    ManualClock,
    ReferenceServer,
    ServerSettings,
    create_app,
)
from modelarts_kit_spec import load_spec

from .server_support import (
    CREATE,
    SHOW,
    TERMINATE,
    Api,
    SyncASGITransport,
    check_documented_error,
    check_envelope,
    check_error,
    job_body,
)

JOBS = f"/v2/{DEV_PROJECT_ID}/training-jobs"


def raw(api: Api, path: str, content: bytes, content_type: str | None) -> httpx.Response:
    headers = {"Content-Type": content_type} if content_type else {}
    return api.call(
        "CreateTrainingJob" if path == "create" else "StopTrainingJob",
        job_id="x",
        content=content,
        headers=headers,
    )


@pytest.mark.parametrize(
    ("content", "content_type", "detail"),
    [
        (b"{x", "application/json", "line 1 column 2"),
        (b"", "application/json", "empty"),
        (b"\xff\xfe{}", "application/json", "not UTF-8"),
        (b'{"kind": NaN}', "application/json", "NaN"),
        (b'{"kind": 1e400}', "application/json", "out of range"),
        (b'{"kind": "\\ud800"}', "application/json", "/kind"),
        (b'{"kind": "job"}', "text/plain", "Content-Type must be application/json"),
        (b"[" * 5000 + b"]" * 5000, "application/json", "nested"),
    ],
)
@pytest.mark.parametrize("path", ["create", "terminate"])
def test_not_json_is_2787(
    api: Api, path: str, content: bytes, content_type: str, detail: str
) -> None:
    message = check_error(raw(api, path, content, content_type), 400, "ModelArts.2787")
    assert message.startswith("Invalid JSON request body.")
    assert detail in message


def test_json_with_a_charset_and_suffix_media_type_is_accepted(api: Api) -> None:
    body = json.dumps(job_body("ct-1")).encode()
    assert raw(api, "create", body, "application/json; charset=utf-8").status_code == 201
    assert raw(api, "create", body.replace(b"ct-1", b"ct-2"), None).status_code == 201


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (job_body("a b"), '/metadata/name: value "a b" violates must match pattern'),
        ({"metadata": {"name": "n"}}, "/: required property 'kind' is missing"),
        ({"kind": "job"}, "/: required property 'metadata' is missing"),
        (
            job_body("n", spec={"resource": {"flavor_id": "f", "node_count": 2**31}}),
            "/spec/resource/node_count: value 2147483648 violates",
        ),
        (
            job_body("n", spec={"resource": {"flavor_id": "f", "node_count": "one"}}),
            '/spec/resource/node_count: value "one" violates must be of type integer',
        ),
        (job_body("x" * 65), '/metadata/name: value "xxxxx'),
        ([], "/: value [] violates must be of type object"),
    ],
)
def test_schema_violations_name_field_value_and_rule(api: Api, body: Any, expected: str) -> None:
    message = check_error(api.create(body), 400, "ModelArts.2788")
    assert message.startswith("Invalid parameter(")
    assert expected in message


def test_long_values_are_truncated(api: Api) -> None:
    message = check_error(api.create(job_body("y" * 5000)), 400, "ModelArts.2788")
    assert "y" * 100 not in message
    assert "..." in message


def test_secret_values_are_never_echoed(api: Api) -> None:
    secret = "hunter2-top-secret"
    body = job_body("n", algorithm={"environments": {"PASSWORD": ["not", secret]}})
    message = check_error(api.create(body), 400, "ModelArts.2788")
    assert secret not in message
    assert "<redacted>" in message


def test_terminate_body_rules(api: Api) -> None:
    job_id = api.created_id("t-1")
    message = check_error(api.terminate(job_id, {"action_type": "restart"}), 400, "ModelArts.2812")
    assert message == "Unsupported action type:restart"
    check_error(api.terminate(job_id, {"action_type": 5}), 400, "ModelArts.2788")
    check_error(api.terminate(job_id, {}), 400, "ModelArts.2788")
    assert api.show(job_id).json()["status"]["phase"] == "Creating"


def test_guidance_is_not_enforced(api: Api) -> None:
    """The server enforces the spec's obligations only: an unknown field in the terminate body
    is ignored, and the choose-one rules (flavor_id or pool_id, engine_id or image_url) are
    guidance (``x-modelarts-guidance``), not rejections."""
    job_id = api.created_id("g-1")
    extra = {"action_type": "terminate", "force": True}
    assert api.terminate(job_id, extra).status_code == 202
    assert api.create(job_body("g-2", spec={"resource": {"node_count": 1}})).status_code == 201
    both = {"engine": {"engine_id": "e", "image_url": "i"}, "command": "python t.py"}
    assert api.create(job_body("g-3", algorithm=both)).status_code == 201
    # an enforced rule still is: a type, an enum, a pattern
    check_error(api.terminate(job_id, {"action_type": "restart"}), 400, "ModelArts.2812")


def test_path_parameters_are_checked_against_their_schemas_at_the_strict_end(
    clock: ManualClock, spec: Any
) -> None:
    """The patterns of the ids are the ledger's decisions: the strict end enforces them."""
    app = create_app(ServerSettings(clock=clock, strictness="strict"))
    client = httpx.Client(transport=SyncASGITransport(app), base_url="http://127.0.0.1")
    try:
        api = Api(client, spec)
        message = check_error(api.show("a.b"), 400, "ModelArts.2788")
        assert "training_job_id" in message
        message = check_error(api.show("x", project_id="p%20q"), 400, "ModelArts.2788")
        assert "project_id" in message
    finally:
        client.close()
        app.close()


def test_the_lenient_end_does_not_enforce_the_id_patterns(api: Api) -> None:
    """No page states them: an id outside the pattern is an unknown job, not a bad one."""
    check_error(api.show("a.b"), 400, "ModelArts.2775")
    check_error(api.show("x", project_id="p%20q"), 400, "ModelArts.2775")


def test_unknown_path_and_method(client: httpx.Client) -> None:
    headers = {"X-Auth-Token": DEV_TOKEN}
    response = client.get("/v1/nothing", headers=headers)
    check_envelope(response)
    check_error(response, 404, "ModelArts.2836")
    response = client.patch(f"{JOBS}/abc", headers=headers)
    check_error(response, 405, "ModelArts.2803")
    spec = load_spec()  # show's path: GET, and DELETE and PUT where the spec has them
    show_path = spec.operation(SHOW).path
    allowed = sorted(op.method.upper() for op in spec.operations if op.path == show_path)
    assert response.headers["allow"] == ", ".join(allowed)
    response = client.put(JOBS, headers=headers)
    assert response.headers["allow"] == "POST"


def test_oversized_body_is_413(app: ReferenceServer, client: httpx.Client) -> None:
    limit = app.settings.max_body_bytes
    response = client.post(JOBS, content=b" " * (limit + 1), headers={"X-Auth-Token": DEV_TOKEN})
    check_error(response, 413, "ModelArts.4104")
    check_documented_error(load_spec(), CREATE, response)
    actions = f"{JOBS}/0a1b2c3d/actions"
    response = client.post(actions, content=b" " * (limit + 1), headers={"X-Auth-Token": DEV_TOKEN})
    check_error(response, 413, "ModelArts.4104")
    check_documented_error(load_spec(), TERMINATE, response)


# -- fuzzing: nothing a client sends gives a 5xx --------------------------------------------
# One server per module: hypothesis runs many inputs per test, and a function-scoped fixture
# would not be reset between them anyway.


@pytest.fixture(scope="module")
def shared_client() -> Iterator[httpx.Client]:
    server = create_app(ServerSettings(clock=ManualClock()))
    transport = SyncASGITransport(server)
    with httpx.Client(transport=transport, base_url="http://127.0.0.1") as sync_client:
        yield sync_client
    server.close()


@pytest.fixture(scope="module")
def shared_api(shared_client: httpx.Client) -> Api:
    return Api(shared_client, load_spec())


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)
job_like = st.fixed_dictionaries(
    {"kind": st.sampled_from(["job", "hetero_job", 1]), "metadata": json_values}
) | st.fixed_dictionaries(
    {
        "kind": st.just("job"),
        "metadata": st.fixed_dictionaries(
            {"name": st.text(max_size=70)},
            optional={
                "annotations": st.dictionaries(st.text(max_size=20), json_values, max_size=3),
                "description": json_values,
            },
        ),
    },
    optional={"algorithm": json_values, "spec": json_values, "status": json_values},
)
# Any text, percent-encoded as a client would send it (control characters, "/", "%", unicode).
segments = st.text(max_size=40).map(lambda s: quote(s, safe="-_.~!$&'()*+,;=:@"))
header_text = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=60)


@given(
    body=st.binary(max_size=300),
    content_type=st.sampled_from(
        [None, "application/json", "text/plain", "application/x-www-form-urlencoded", "*/*"]
    ),
)
def test_fuzz_bytes(shared_api: Api, body: bytes, content_type: str | None) -> None:
    for path in ("create", "terminate"):
        check_envelope(raw(shared_api, path, body, content_type))


@given(body=json_values | job_like)
def test_fuzz_json(shared_api: Api, body: Any) -> None:
    api = shared_api
    response = api.create(body)
    assert response.status_code in (201, 400)
    job_id = response.json()["metadata"]["id"] if response.status_code == 201 else "x"
    api.terminate(job_id, body)
    api.show(job_id)


@given(project=segments, job=segments, method=st.sampled_from(["GET", "POST", "PATCH"]))
def test_fuzz_path_segments(
    shared_client: httpx.Client, project: str, job: str, method: str
) -> None:
    for path in (
        f"/v2/{project}/training-jobs",
        f"/v2/{project}/training-jobs/{job}",
        f"/v2/{project}/training-jobs/{job}/actions",
    ):
        response = shared_client.request(method, path, headers={"X-Auth-Token": DEV_TOKEN})
        check_envelope(response)


@given(
    headers=st.dictionaries(
        header_text.filter(lambda s: s.strip() != "" and ":" not in s).map(str.strip),
        header_text,
        max_size=5,
    )
)
def test_fuzz_headers(shared_client: httpx.Client, headers: dict[str, str]) -> None:
    for name in list(headers):
        if name.lower() in ("content-length", "transfer-encoding", "host"):
            del headers[name]
    body = json.dumps(job_body("h")).encode()
    response = shared_client.post(
        JOBS, content=body, headers={"X-Auth-Token": DEV_TOKEN, **headers}
    )
    check_envelope(response)
    assert response.status_code in (201, 400, 401, 404), response.text


def test_values_the_spec_marks_secret_are_never_echoed(api: Api) -> None:
    """The spec's x-modelarts-sensitive decides: a parameter whose constraint.sensitive is set
    keeps its value out of the message (before: echoed, as no name looked secret)."""
    secret = "s3cr3t-param-value"
    parameter = {"name": "p", "value": [secret], "constraint": {"sensitive": True}}
    body = job_body("n", algorithm={"code_dir": "/a/", "boot_file": "/a/b.py",
                                    "parameters": [parameter]})  # fmt: skip
    message = check_error(api.create(body), 400, "ModelArts.2788")
    assert "/algorithm/parameters/0/value" in message
    assert secret not in message
    assert "<redacted>" in message
    parameter["constraint"] = {"sensitive": False}
    message = check_error(api.create(body), 400, "ModelArts.2788")
    assert secret in message  # masking follows the flag, it is not blanket
