"""The lenient server ignores request fields the spec does not have, and says so: one log line
per request naming them by JSON pointer, never their values (issue 35: a misspelled ``filter``
was silently without effect and the whole list came back). The strict server refuses them."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import httpx
import pytest
from modelarts_kit_server import DEV_PROJECT_ID, DEV_TOKEN, ServerSettings, create_app

from .server_support import SyncASGITransport

SECRET = "s3cr3t-value-never-logged"
SEARCHES = f"/v2/{DEV_PROJECT_ID}/training-job-searches"
JOBS = f"/v2/{DEV_PROJECT_ID}/training-jobs"


def _client(strictness: str) -> Iterator[httpx.Client]:
    app = create_app(ServerSettings(strictness=strictness))
    with httpx.Client(
        transport=SyncASGITransport(app),
        base_url="http://127.0.0.1",
        headers={"X-Auth-Token": DEV_TOKEN},
    ) as client:
        yield client
    app.close()


@pytest.fixture
def lenient() -> Iterator[httpx.Client]:
    yield from _client("lenient")


@pytest.fixture
def strict() -> Iterator[httpx.Client]:
    yield from _client("strict")


def _ignored_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if "ignored request fields" in r.getMessage()]


def test_a_misspelled_list_key_is_named_in_one_log_line(
    lenient: httpx.Client, caplog: pytest.LogCaptureFixture
) -> None:
    lenient.post(JOBS, json={"kind": "job", "metadata": {"name": "one"}})
    body = {"limit": 10, "filter": [{"key": "name", "operator": "like", "value": [SECRET]}]}
    with caplog.at_level(logging.WARNING, logger="modelarts_kit_server"):
        answer = lenient.post(SEARCHES, json=body)
    assert answer.status_code == 200
    assert answer.json()["count"] == 1  # the filter had no effect: the whole list
    assert _ignored_lines(caplog) == [
        "ListTrainingJobs: ignored request fields the spec does not have: /filter"
    ]
    assert SECRET not in caplog.text


def test_nested_unknown_fields_are_named_by_pointer_and_capped(
    lenient: httpx.Client, caplog: pytest.LogCaptureFixture
) -> None:
    extra = {f"extra_{i:02d}": SECRET for i in range(12)}
    body = {"kind": "job", "metadata": {"name": "two", "tokn": SECRET}, "spec": {"resource": {}}}
    body.update(extra)
    with caplog.at_level(logging.WARNING, logger="modelarts_kit_server"):
        answer = lenient.post(JOBS, json=body)
    assert answer.status_code == 201, answer.text
    [line] = _ignored_lines(caplog)
    assert line.startswith("CreateTrainingJob: ignored request fields the spec does not have: ")
    assert "/metadata/tokn" in line
    assert line.endswith("(and 3 more)")  # 13 ignored, 10 named
    assert SECRET not in caplog.text


def test_a_body_the_spec_knows_logs_nothing(
    lenient: httpx.Client, caplog: pytest.LogCaptureFixture
) -> None:
    body = {"limit": 10, "filters": [{"key": "name", "operator": "like", "value": ["x"]}]}
    with caplog.at_level(logging.WARNING, logger="modelarts_kit_server"):
        assert lenient.post(SEARCHES, json=body).status_code == 200
    assert _ignored_lines(caplog) == []


def test_the_strict_server_refuses_the_misspelled_key(strict: httpx.Client) -> None:
    answer = strict.post(SEARCHES, json={"limit": 10, "filter": []})
    assert answer.status_code == 400
    assert answer.json()["error_code"] == "ModelArts.2788"
    assert "filter" in answer.json()["error_msg"]
