"""A show answer becomes a create body in one call: ``JobResponse.to_create_training_job_body()``.

The copy must be a body every correct server accepts: in the spec's must-accept envelope
(only fields the pages document, every rule, guidance included), no readOnly field, no
``null``, ``environments`` as the request's map (not the list the answer holds). Checked on
hand-made answers, and as a property over varied jobs the reference server returned:
create, show, copy, create again (201) on both ends of the server (lenient and strict)."""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from modelarts_kit_contracts.mock.strategies import ResponseGenerator, Variant
from modelarts_kit_server import (
    DEV_PROJECT_ID,
    DEV_TOKEN,
    ManualClock,
    ServerSettings,
    serve_in_thread,
)
from modelarts_kit_spec import Spec, load_spec
from modelarts_kit_spec.schemamodel import MUST_ACCEPT
from modelarts_training_client import (
    Job,
    JobResponse,
    RequestValidationError,
    TokenAuth,
    TrainingJobsClient,
)

SPEC = load_spec()
CREATE_SCHEMA = SPEC.meaning.roles.create.request_schema
NAMES = itertools.count()


def undocumented(spec: Spec, schema: Any, value: Any, path: str = "") -> Iterator[str]:
    """The paths of ``value`` the request ``schema`` does not document (or marks readOnly)."""
    view = spec.walker.view(schema)
    if not view.properties:
        branches = spec.walker.view(schema, alternatives=True).branches
        view = next((branch for branch in branches if branch.properties), view)
    if isinstance(value, dict) and view.properties:
        for name, item in value.items():
            declared = view.properties.get(name)
            if declared is None or spec.deref(declared).get("readOnly") is True:
                yield f"{path}.{name}"
            else:
                yield from undocumented(spec, declared, item, f"{path}.{name}")
    elif isinstance(value, list) and view.items is not None:
        for index, item in enumerate(value):
            yield from undocumented(spec, view.items, item, f"{path}[{index}]")
    elif isinstance(value, dict) and isinstance(view.schema.get("additionalProperties"), Mapping):
        for name, item in value.items():
            yield from undocumented(
                spec, view.schema["additionalProperties"], item, f"{path}.{name}"
            )


def nulls(value: Any, path: str = "") -> Iterator[str]:
    if value is None:
        yield path or "(root)"
    elif isinstance(value, dict):
        for name, item in value.items():
            yield from nulls(item, f"{path}.{name}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from nulls(item, f"{path}[{index}]")


def assert_must_accept(body: Mapping[str, Any]) -> None:
    """In the spec's must-accept envelope (every rule, guidance included; request objects
    closed; no field or shape only the SDK or an example has), no readOnly field, no null."""
    assert list(undocumented(SPEC, CREATE_SCHEMA, body)) == []
    assert list(nulls(body)) == []
    must_accept = SPEC.envelope(MUST_ACCEPT).validator(CREATE_SCHEMA)
    assert [error.message for error in must_accept.iter_errors(body)] == []


@pytest.fixture
def show_answer(show_job_example: dict[str, Any]) -> dict[str, Any]:
    """The seed show answer, with what a service adds: an engine given three ways, the
    answer's list of environment maps, server-owned and unknown fields, nulls."""
    answer = copy.deepcopy(show_job_example)
    algorithm = answer["algorithm"]
    for name in ("id", "subscription_id", "item_version_id"):
        algorithm.pop(name, None)
    algorithm["code_dir"], algorithm["boot_file"] = "/usr/app/", "/usr/app/boot.py"
    algorithm["engine"] = {
        "engine_id": "pytorch-cp36-1.4.0-v2",
        "engine_name": "PyTorch",
        "engine_version": "1.4",
        "v1_compatible": False,
    }
    algorithm["environments"] = [{"A": "1", "B": "2"}, {"B": "3"}]
    algorithm["working_dir"] = None
    algorithm["inputs"][0]["access_method"] = "obs"  # only the vendor SDK has it
    answer["metadata"].update(id="job-1", create_time=1, user_name="me", uuid="u-1", tags=[])
    answer["metadata"]["training_experiment_reference"] = {"id": "e"}
    answer["x_vendor_added"] = {"k": "v"}
    answer["ftjob_config"] = {"model_type": "x"}
    return answer


def test_copy_leaves_out_what_the_service_owns_and_follows_the_rules(
    show_answer: dict[str, Any],
) -> None:
    body = JobResponse.model_validate(show_answer).to_create_training_job_body()
    assert isinstance(body, Job)
    copied = body.model_dump(by_alias=True, exclude_unset=True)
    assert_must_accept(copied)
    algorithm = copied["algorithm"]
    # engine_id excludes engine_name; engine_version then lacks engine_name: both go
    assert algorithm["engine"] == {"engine_id": "pytorch-cp36-1.4.0-v2"}
    assert algorithm["environments"] == {"A": "1", "B": "3"}  # merged in order
    assert (algorithm["code_dir"], algorithm["boot_file"]) == ("/usr/app/", "/usr/app/boot.py")
    assert "working_dir" not in algorithm
    assert "access_method" not in algorithm["inputs"][0]
    assert set(copied["metadata"]) <= {"name", "workspace_id", "description", "annotations"}
    assert copied["metadata"]["name"] == show_answer["metadata"]["name"]
    assert not {"status", "endpoints", "ftjob_config", "x_vendor_added"} & set(copied)
    assert "flavor_detail" not in copied["spec"]["resource"]


def test_a_copy_that_still_breaks_a_rule_is_a_request_validation_error(
    show_answer: dict[str, Any],
) -> None:
    show_answer["metadata"]["name"] = "not a valid name!"
    show_answer["algorithm"]["environments"] = [{"TOKEN": "secret-env-7c1d"}]
    job = JobResponse.model_validate(show_answer)
    with pytest.raises(RequestValidationError) as caught:
        job.to_create_training_job_body()
    assert [path for path, _, _ in caught.value.errors] == ["body.metadata.name"]
    assert "secret-env-7c1d" not in str(caught.value)


@contextmanager
def client_of(strictness: str) -> Iterator[TrainingJobsClient]:
    settings = ServerSettings(clock=ManualClock(), strictness=strictness)
    with (
        serve_in_thread(settings) as base_url,
        TrainingJobsClient(
            project_id=DEV_PROJECT_ID, base_url=base_url, auth=TokenAuth(DEV_TOKEN)
        ) as client,
    ):
        yield client


@pytest.fixture(scope="module")
def lenient() -> Iterator[TrainingJobsClient]:
    with client_of("lenient") as client:
        yield client


@pytest.fixture(scope="module")
def strict() -> Iterator[TrainingJobsClient]:
    """The reference server accepting only must-accept bodies."""
    with client_of("strict") as client:
        yield client


GENERATOR = ResponseGenerator(SPEC)
VARIANTS = (Variant.TYPICAL, Variant.MINIMAL, Variant.FULL, Variant.EXTRA_FIELDS)
CREATE_BODIES = st.sampled_from(VARIANTS).flatmap(
    lambda variant: GENERATOR.strategy(CREATE_SCHEMA, variant)
)


@given(body=CREATE_BODIES)
def test_a_copy_of_any_job_the_reference_server_returned_is_created_again(
    lenient: TrainingJobsClient, strict: TrainingJobsClient, body: dict[str, Any]
) -> None:
    """Created on the lenient end (any body the spec allows, unknown fields included), the
    copy is created again on both ends: the strict one accepts only must-accept bodies."""
    body = copy.deepcopy(body)
    body["metadata"]["name"] = f"copy-source-{next(NAMES)}"
    created = lenient.create_training_job(body)
    shown = lenient.show_training_job_details(created.metadata.id)
    copied = shown.to_create_training_job_body().model_dump(by_alias=True, exclude_unset=True)
    assert_must_accept(copied)
    for client in (lenient, strict):
        copied["metadata"]["name"] = f"copy-{next(NAMES)}"
        again = client.with_raw_response.create_training_job(copied)
        assert again.status_code == 201
