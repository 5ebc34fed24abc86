"""The traffic guard recognises the run's requests by the spec's route rule."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from hypothesis import given
from hypothesis import strategies as st
from modelarts_kit_contracts.server.guard import Route
from modelarts_kit_spec.meaning import Role
from modelarts_kit_spec.routes import match_path

CREATE = Route(Role.CREATE, "post", "/v2/{project_id}/training-jobs")
SHOW = Route(Role.SHOW, "get", "/v2/{project_id}/training-jobs/{training_job_id}")
SEGMENT = st.text(st.characters(exclude_characters="/?#", codec="utf-8"), max_size=12)
PREFIX = st.lists(st.text("abcxyz-_", min_size=1, max_size=5), max_size=3).map(
    lambda parts: "".join("/" + p for p in parts)
)


@given(prefix=PREFIX, project=SEGMENT, job=SEGMENT)
def test_the_guard_matches_as_the_spec_does(prefix: str, project: str, job: str) -> None:
    """Under any base path, for any segment value, an empty one included
    (``/v2//training-jobs`` is a create: a broken target may create a job there, and the
    guard must count and clean it up like any other)."""
    path = f"/v2/{quote(project, safe='')}/training-jobs/{quote(job, safe='')}"
    url = f"http://127.0.0.1:8080{prefix}{path}"
    assert SHOW.match("GET", url) == match_path(SHOW.template, path)
    assert SHOW.match("GET", url) == {"project_id": project, "training_job_id": job}
    assert SHOW.match("POST", url) is None
    create_url = f"http://127.0.0.1:8080{prefix}/v2/{quote(project, safe='')}/training-jobs"
    assert CREATE.match("POST", create_url) == {"project_id": project}
    assert CREATE.match("POST", url) is None
    # a trailing slash is one more (empty) segment, as the reference server routes it
    assert CREATE.match("POST", create_url + "/") is None


@pytest.mark.parametrize(
    "url",
    [
        "http://h/training-jobs",
        "http://h/v2/p/training-jobs/j/actions",
        "http://h/v3/p/training-jobs/j",
    ],
)
def test_other_paths_are_not_the_route(url: str) -> None:
    assert SHOW.match("GET", url) is None
