"""The list operation over HTTP: what is listed, filters, sort, pages, limits, real clients."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from modelarts_kit_server import ManualClock, ReferenceServer, ServerSettings, create_app
from modelarts_kit_server.validation import validate_instance
from modelarts_kit_spec import load_spec
from modelarts_kit_spec.meaning import Role
from modelarts_kit_spec.schemamodel import MUST_ACCEPT, MUST_REJECT
from modelarts_kit_spec.schemamodel.sdk_fields import only_sdk_fields_break

from .operation_calls import Family, family_client, operation_of, pages
from .server_support import job_body

MACLI_LIST = {
    "workspace_id": "0",
    "limit": 10,
    "offset": 0,
    "order": "desc",
    "sort_by": "create_time",
}


@pytest.fixture
def family(clock: ManualClock) -> Iterator[Family]:
    app = create_app(ServerSettings(clock=clock))
    family = family_client(app)
    yield family
    family.client.close()
    app.close()


def create(family: Family, clock: ManualClock, name: str, **extra: object) -> str:
    clock.advance(1)  # distinct create times
    return family.created_id(name, **extra)


def test_a_created_job_is_listed_with_its_show_document(family: Family, clock: ManualClock) -> None:
    job_id = create(family, clock, "listed-1")
    answer = family.search({}).json()
    assert answer["total"] == answer["count"] == 1
    (item,) = answer["items"]
    assert item == family.show(job_id).json()


def test_macli_list_body_is_accepted_and_sorted_by_create_time_desc(
    family: Family, clock: ManualClock
) -> None:
    ids = [create(family, clock, f"macli-{i}") for i in range(3)]
    assert family.listed_ids(MACLI_LIST) == ids[::-1]
    assert family.listed_ids({**MACLI_LIST, "order": "asc"}) == ids


def test_filters_of_the_pages_example(family: Family, clock: ManualClock) -> None:
    wanted = create(family, clock, "my-trainjob-1")
    create(family, clock, "something-else")
    body = {
        "filters": [
            {"key": "name", "operator": "like", "value": ["TRAINJOB"]},
            {"key": "create_time", "operator": "between", "value": ["", ""]},
            {"key": "phase", "operator": "in", "value": [""]},
        ]
    }
    answer = family.search(body).json()
    assert (answer["total"], answer["count"]) == (2, 1)
    assert [item["metadata"]["id"] for item in answer["items"]] == [wanted]
    excluded = {"filters": [{"key": "name", "operator": "not", "value": ["my-trainjob-1"]}]}
    assert wanted not in family.listed_ids(excluded)


def test_pages_neither_overlap_nor_skip(family: Family, clock: ManualClock) -> None:
    ids = [create(family, clock, f"paged-{i}") for i in range(7)]
    seen = [job_id for page in pages(family, {}, limit=3) for job_id in page]
    assert sorted(seen) == sorted(ids)
    assert len(seen) == len(set(seen))


@pytest.mark.parametrize("body", [{"limit": 51}, {"limit": 0}, {"offset": -1}])
def test_limits_outside_the_documented_ranges_are_refused(
    family: Family, body: dict[str, int]
) -> None:
    response = family.search(body)
    assert response.status_code == 400
    assert response.json()["error_code"] == family.error_code(Role.LIST, "invalid-parameter")
    (field,) = body
    assert f"/{field}" in response.json()["error_msg"]


@pytest.mark.parametrize("strictness", ["lenient", "strict"])
def test_a_list_without_a_body_follows_the_envelope_of_each_end(
    clock: ManualClock, strictness: str
) -> None:
    """No body: the search with every default where the end's envelope makes the body
    optional, else the malformed-body error. requestBody.required is the ledger's decision
    (list-request-body-required): the strict end enforces it, the lenient end does not."""
    app = create_app(ServerSettings(clock=clock, strictness=strictness))
    family = family_client(app)
    try:
        job_id = create(family, clock, "no-body")
        response = family.by_role(Role.LIST, content=b"")
        envelope = family.spec.envelope(MUST_ACCEPT if strictness == "strict" else MUST_REJECT)
        if operation_of(envelope, Role.LIST).request_required:
            assert response.status_code == 400
            assert response.json()["error_code"] == family.error_code(Role.LIST, "malformed-body")
        else:
            assert [item["metadata"]["id"] for item in response.json()["items"]] == [job_id]
    finally:
        family.client.close()
        app.close()
    assert (strictness == "strict") == operation_of(envelope, Role.LIST).request_required


def test_another_projects_jobs_are_not_listed(clock: ManualClock) -> None:
    app: ReferenceServer = create_app(ServerSettings(clock=clock))
    mine = family_client(app, project_id="aaaa1111")
    theirs = family_client(app, project_id="bbbb2222")
    try:
        mine.created_id("mine")
        assert theirs.search({}).json()["total"] == 0
        assert theirs.listed_ids() == []
    finally:
        mine.client.close()
        theirs.client.close()
        app.close()


def test_filter_by_phase_follows_the_lifecycle(family: Family, clock: ManualClock) -> None:
    job_id = create(family, clock, "phased", metadata={"name": "phased"})
    phase = family.show(job_id).json()["status"]["phase"]
    in_phase = {"filters": [{"key": "phase", "operator": "in", "value": [phase]}]}
    assert family.listed_ids(in_phase) == [job_id]
    clock.advance(3600)
    assert family.listed_ids(in_phase) == []


def test_a_job_body_created_from_job_body_is_listed_by_its_name(
    family: Family, clock: ManualClock
) -> None:
    job_id = family.create(job_body("by-name")).json()["metadata"]["id"]
    named = {"filters": [{"key": "name", "operator": "in", "value": ["by-name"]}]}
    assert family.listed_ids(named) == [job_id]


@pytest.mark.parametrize("strictness", ["lenient", "strict"])
def test_macli_list_body_follows_the_envelope_of_each_end(
    clock: ManualClock, strictness: str
) -> None:
    """Lenient refuses only what must-reject refuses; strict accepts only what must-accept
    accepts (macli's workspace_id is the spec's to place)."""
    spec = load_spec()
    envelope = spec.envelope(MUST_ACCEPT if strictness == "strict" else MUST_REJECT)
    schema = operation_of(spec, Role.LIST).request_schema
    valid = validate_instance(envelope, schema, MACLI_LIST) is None or (
        # What the vendor's SDK sends (workspace_id) the strict end accepts (issue 31 item 7).
        strictness == "strict" and only_sdk_fields_break(spec, envelope, schema, MACLI_LIST)
    )
    app = create_app(ServerSettings(clock=clock, strictness=strictness))
    family = family_client(app)
    try:
        response = family.search(MACLI_LIST)
        assert (response.status_code == 200) == valid, response.text
        if not valid:
            assert response.json()["error_code"] == family.error_code(
                Role.LIST, "invalid-parameter"
            )
    finally:
        family.client.close()
        app.close()
    if strictness == "lenient":
        assert valid  # real clients' list body: the lenient end takes it


def _like(values: int, operator: str = "like") -> dict[str, object]:
    return {"key": "name", "operator": operator, "value": [f"v{n}" for n in range(values)]}


@pytest.mark.parametrize(
    ("filters", "where", "rule"),
    [
        # The first filter breaks the operator enum too: the caps answer first, before the
        # body is validated value by value.
        ([_like(1, "bogus"), *[_like(1)] * 64], "/filters", "at most 64 filters per search"),
        ([_like(257, "bogus")], "/filters/0/value", "at most 256 values per filter"),
        ([_like(1), _like(174_746)], "/filters/1/value", "at most 256 values per filter"),
    ],
    ids=["65-filters", "257-values", "174746-like-values"],
)
def test_a_search_beyond_its_caps_is_refused_naming_the_rule(
    family: Family, clock: ManualClock, filters: list[object], where: str, rule: str
) -> None:
    """Issue 34 item 3: one 2 MiB body of 174,746 like values cost 91 s of server CPU."""
    create(family, clock, "capped")
    response = family.search({"filters": filters})
    assert response.status_code == 400, response.text
    assert response.json()["error_code"] == family.error_code(Role.LIST, "invalid-parameter")
    assert f"{where}: " in response.json()["error_msg"]
    assert rule in response.json()["error_msg"]


def test_a_search_at_its_caps_is_answered(family: Family, clock: ManualClock) -> None:
    job_id = create(family, clock, "v1-at-the-caps")
    answer = family.search({"filters": [_like(256)] * 64})
    assert answer.status_code == 200, answer.text
    assert [item["metadata"]["id"] for item in answer.json()["items"]] == [job_id]


def test_a_search_ends_at_its_time_budget(
    family: Family, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The budget's clock moves one second each time it is read (no wall time), and SQLite
    asks the budget at every step of the search: the search ends past 2 s with the
    invalid-parameter error naming the budget, and the server goes on answering."""
    from modelarts_kit_server import search_budget
    from modelarts_kit_server.handlers import job_records as handlers_jobs

    for n in range(5):
        create(family, clock, f"budget-{n}")
    ticks = iter(range(1_000_000))
    monkeypatch.setattr(handlers_jobs, "_search_clock", lambda: float(next(ticks)))
    monkeypatch.setattr(search_budget, "SEARCH_PROGRESS_STEPS", 1)
    response = family.search({"filters": [_like(3)]})
    assert response.status_code == 400, response.text
    assert response.json()["error_code"] == family.error_code(Role.LIST, "invalid-parameter")
    assert "time budget of 2 s" in response.json()["error_msg"]
    assert 3 <= next(ticks) < 1_000  # read at the start, then during the search until spent
    monkeypatch.setattr(handlers_jobs, "_search_clock", lambda: 0.0)
    assert family.search({"filters": [_like(3)]}).status_code == 200
