"""A show -> create copy: the lenient reference server accepts what it itself returns.

The vendor's console and third-party CLIs copy a job by posting its show response back as a
create body; ``modelarts-macli`` drops only the server-owned fields (below) and posts the rest
as it is, ``algorithm.environments`` in the response shape (a list of maps) included. The
ledger entry ``environments-request-response-shape-example`` records the decision.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from modelarts_kit_contracts.mock.strategies import ResponseGenerator, Variant
from modelarts_kit_server import ManualClock, ServerSettings, create_app
from modelarts_kit_spec import Spec, load_spec

from .server_support import Api, SyncASGITransport

JSON = Any
CREATE = "CreateTrainingJob"
# What modelarts-macli removes from a show response before it posts it as a create body.
SERVER_OWNED_METADATA = (
    *("id", "uuid", "create_time", "update_time"),
    *("training_experiment_reference", "tags"),
)
SERVER_OWNED_TOP = ("status", "ftjob_config", "endpoints")
SERVER_OWNED_RESOURCE = ("pool_info", "main_container_allocated_resources")
VARIANTS = (Variant.TYPICAL, Variant.MINIMAL, Variant.FULL, Variant.NULLS, Variant.UNICODE)
NAMES = itertools.count()


def as_macli_copies(shown: dict[str, JSON]) -> dict[str, JSON]:
    body = copy.deepcopy(shown)
    for key in SERVER_OWNED_TOP:
        body.pop(key, None)
    metadata = body.get("metadata") or {}
    for key in SERVER_OWNED_METADATA:
        metadata.pop(key, None)
    resource = (body.get("spec") or {}).get("resource") or {}
    for key in SERVER_OWNED_RESOURCE:
        resource.pop(key, None)
    return body


@pytest.fixture(scope="module")
def lenient() -> Iterator[Api]:
    server = create_app(ServerSettings(clock=ManualClock()))
    transport = SyncASGITransport(server)
    with httpx.Client(transport=transport, base_url="http://127.0.0.1") as client:
        yield Api(client, load_spec())
    server.close()


def _bodies() -> st.SearchStrategy[JSON]:
    """Create bodies a lenient server must accept: the must-reject envelope, every variant."""
    spec: Spec = load_spec()
    must_reject = spec.envelope("must-reject")
    generator = ResponseGenerator(must_reject)
    schema = must_reject.operation(CREATE).request_schema
    return st.one_of([generator.strategy(schema, variant) for variant in VARIANTS])


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(body=st.deferred(_bodies))  # built when the test runs, not at every worker's collection
def test_a_shown_job_created_again_is_accepted(lenient: Api, body: JSON) -> None:
    body = copy.deepcopy(body)
    body.setdefault("metadata", {})["name"] = f"copy-source-{next(NAMES)}"
    body["metadata"].pop("annotations", None)  # no test hook: any final phase will do
    created = lenient.create(body)
    assert created.status_code == 201, created.text
    shown = lenient.show(created.json()["metadata"]["id"])
    assert shown.status_code == 200, shown.text
    again = as_macli_copies(shown.json())
    again["metadata"]["name"] = f"copy-{next(NAMES)}"
    copied = lenient.create(again)
    assert copied.status_code == 201, copied.text


def test_environments_in_the_response_shape_are_accepted(lenient: Api) -> None:
    body = {"kind": "job", "metadata": {"name": "copy-environments"}}
    body["algorithm"] = {"environments": [{"A": "1"}, {"B": "2"}]}
    assert lenient.create(body).status_code == 201


def test_environments_in_the_response_shape_are_outside_must_accept() -> None:
    """The list form is a leniency (strength example): a strict server may refuse it."""
    spec = load_spec()
    pointer = "/components/schemas/JobAlgorithm/properties/environments"
    assert spec.schema_model.rule_at(pointer, "array-form").strength == "example"
    view = spec.envelope("must-accept")
    schema = view.operation(CREATE).request_schema

    def body(environments: JSON) -> JSON:
        return {
            "kind": "job",
            "metadata": {"name": "e"},
            "algorithm": {"environments": environments},
        }

    assert not view.validator(schema).is_valid(body([{"A": "1"}]))
    assert view.validator(schema).is_valid(body({"A": "1"}))
