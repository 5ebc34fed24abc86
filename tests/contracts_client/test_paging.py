"""Paged answers: the mock answers the page asked for, the proxy holds a server to it.

The operations come from :func:`~.edition_specs.paged_spec` (a search with ``limit`` in its body,
events with ``limit`` in the query, as the vendor's pages have them); each assertion that a
page is cut is paired with one showing the same mock answers longer pages when asked for more,
so it cannot pass because the mock happens to draw short lists.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from modelarts_kit_contracts.core.paging import paging_of
from modelarts_kit_contracts.core.wire import Headers, WireRequest, WireResponse
from modelarts_kit_contracts.mock import MockServer, Variant
from modelarts_kit_contracts.proxy import ValidatingProxy
from modelarts_kit_spec import Spec, load_spec
from modelarts_kit_spec.meaning import Role

from .edition_specs import EVENTS_ID, SEARCH_ID, paged_spec

PROJECT = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
SEARCH = f"/v2/{PROJECT}/paged-test-searches"
EVENTS = f"/v2/{PROJECT}/training-jobs/job-1/paged-test-events"
AUTH = {"X-Auth-Token": "any-token"}
JSON_HEADERS = Headers([("X-Auth-Token", "any-token"), ("Content-Type", "application/json")])


@pytest.fixture(scope="module")
def spec(tmp_path_factory: pytest.TempPathFactory) -> Spec:
    return paged_spec(tmp_path_factory.mktemp("paged"))


def test_paging_is_read_from_the_spec(spec: Spec) -> None:
    search = paging_of(spec, spec.operation(SEARCH_ID))
    events = paging_of(spec, spec.operation(EVENTS_ID))
    assert search is not None
    assert events is not None
    assert (search.location, search.page_field, search.max_limit) == ("body", "items", 50)
    assert (events.location, events.default_limit, events.max_limit) == ("query", 50, 100)
    assert search.page_size({}, {"limit": 3}) == 3
    assert search.page_size({}, {"limit": 80}) == 50  # never more than the maximum
    assert search.page_size({}, {}) == 50  # no default: the maximum
    assert events.page_size({"limit": "7"}, None) == 7
    assert events.page_size({}, None) == 50  # the default
    assert search.limit_pointer.endswith("/properties/limit")
    assert events.limit_pointer.endswith("/parameters/0/schema")
    # Operations without a limit do not page.
    paged = [op.operation_id for op in spec.operations if paging_of(spec, op) is not None]
    assert paged == [SEARCH_ID, EVENTS_ID]


def _answers(spec: Spec, requests: list[tuple[str, str, Any]]) -> list[dict[str, Any]]:
    mock = MockServer(spec, seed_value=5, error_rate=0.0, pool_size=24)
    with httpx.Client(transport=mock.httpx_transport(), base_url="http://m", headers=AUTH) as c:
        out = []
        for method, path, body in requests:
            answer = c.request(method, path, json=body) if body is not None else c.get(path)
            assert answer.status_code == 200, answer.text
            out.append(answer.json())
    assert mock.violations == []
    return out


def test_the_mock_answers_a_search_for_3_with_at_most_3(spec: Spec) -> None:
    asked = _answers(spec, [("POST", SEARCH, {"limit": 3, "offset": 2})] * 24)
    assert all(len(page.get("items", [])) <= 3 for page in asked)
    assert {page.get("limit") for page in asked} <= {3, None}
    assert {page.get("offset") for page in asked} <= {2, None}
    assert any("limit" in page for page in asked)
    # The same mock answers longer pages when the request allows them.
    longer = _answers(spec, [("POST", SEARCH, {"limit": 50})] * 24)
    assert max(len(page.get("items", [])) for page in longer) > 3


def test_the_mock_answers_events_limit_3_with_at_most_3(spec: Spec) -> None:
    asked = _answers(spec, [("GET", f"{EVENTS}?limit=3&offset=0", None)] * 24)
    assert all(len(page.get("items", [])) <= 3 for page in asked)
    longer = _answers(spec, [("GET", EVENTS, None)] * 24)
    assert max(len(page.get("items", [])) for page in longer) > 3


def _proxied_search(spec: Spec, entries: int, body: Any) -> list[Any]:
    """What the proxy reports of a search for ``body`` answered with ``entries`` entries."""
    page = {"total": entries, "items": [{"name": f"j{i}"} for i in range(entries)]}
    return _proxied(spec, SEARCH, page, body)


def _proxied(spec: Spec, path: str, page: Any, body: Any, method: str = "POST") -> list[Any]:
    """What the proxy reports of a request (``body`` to ``path``) answered with ``page``."""

    def upstream(request: httpx.Request) -> httpx.Response:
        content = json.dumps(page).encode()
        headers = {"Content-Type": "application/json", "Content-Length": str(len(content))}
        return httpx.Response(200, headers=headers, stream=httpx.ByteStream(content))

    seen: list[Any] = []
    proxy = ValidatingProxy(
        "http://upstream.invalid",
        spec,
        on_violation=seen.append,
        transport=httpx.MockTransport(upstream),
    )
    content = json.dumps(body).encode() if body is not None else b""
    request = WireRequest(method, path, JSON_HEADERS, content)

    async def relay() -> WireResponse:
        try:
            return await proxy.exchange(request)
        finally:
            await proxy.aclose()

    answer = asyncio.run(relay())
    assert answer.status == 200
    reported = proxy.finish().failures
    assert [(f.check, f.pointer) for f in seen] == [(f.check, f.pointer) for f in reported]
    return reported


def test_the_proxy_reports_51_jobs_for_limit_50(spec: Spec) -> None:
    [finding] = _proxied_search(spec, 51, {"limit": 50})
    assert (finding.check, finding.operation, finding.pointer, finding.rule) == (
        "response_page_size",
        SEARCH_ID,
        "/items",
        "limit",
    )
    assert "at most 50 entries" in finding.expected
    assert finding.got == "51 entries"
    assert finding.title == "response page at /items holds more entries than the request's limit"
    assert finding.reproduce == f"POST {SEARCH} -> 200"
    assert "maximum" in finding.evidence
    assert _proxied_search(spec, 50, {"limit": 50}) == []


def test_the_proxy_holds_a_page_to_a_small_limit_and_to_the_maximum(spec: Spec) -> None:
    [small] = _proxied_search(spec, 4, {"limit": 3})
    assert "at most 3 entries (limit 3" in small.expected
    [unbounded] = _proxied_search(spec, 51, {})
    assert "at most 50 entries (no limit" in unbounded.expected
    assert _proxied_search(spec, 3, {"limit": 3}) == []


# ---------------------------------------------------------------- today's spec: the list search


@pytest.fixture(scope="module")
def today() -> Spec:
    return load_spec()


def _list_path(spec: Spec) -> str:
    listing = spec.meaning.roles.get(Role.LIST)
    assert listing is not None
    return listing.path.replace("{project_id}", PROJECT)


def test_the_mock_answers_the_list_search_with_the_page_asked_for(today: Spec) -> None:
    # Drawn job lists are short: limit 1 is what cuts them.
    path = _list_path(today)
    asked = _answers(today, [("POST", path, {"limit": 1, "offset": 0})] * 12)
    assert all(len(page.get("items", [])) <= 1 for page in asked)
    longer = _answers(today, [("POST", path, {"limit": 50})] * 12)
    assert max(len(page.get("items", [])) for page in longer) > 1


def test_the_proxy_reports_51_jobs_for_limit_50_on_the_list_search(today: Spec) -> None:
    listing = today.meaning.roles.get(Role.LIST)
    assert listing is not None
    job = MockServer(today).generate_body(today.meaning.roles.show, 200, Variant.TYPICAL, 0)
    for entries, expected in ((51, ["response_page_size"]), (50, [])):
        page = {"total": entries, "items": [job] * entries}
        found = _proxied(today, _list_path(today), page, {"limit": 50})
        assert [(f.check, f.operation) for f in found] == [
            (check, listing.operation_id) for check in expected
        ]


def test_the_mock_answers_todays_events_limit_3_with_at_most_3(today: Spec) -> None:
    events = today.meaning.roles.get(Role.EVENTS)
    assert events is not None
    paging = paging_of(today, events)
    assert paging is not None
    path = events.path.replace("{project_id}", PROJECT).replace("{training_job_id}", "job-1")
    asked = _answers(today, [("GET", f"{path}?limit=3&offset=0", None)] * 12)
    assert all(len(page.get(paging.page_field, [])) <= 3 for page in asked)
    assert any(page.get("limit") == 3 for page in asked)  # echoed where the answer has it
    longer = _answers(today, [("GET", path, None)] * 12)
    assert max(len(page.get(paging.page_field, [])) for page in longer) > 3


def test_the_proxy_reports_a_broken_events_answer_with_the_pages_evidence(today: Spec) -> None:
    events = today.meaning.roles.get(Role.EVENTS)
    assert events is not None
    path = events.path.replace("{project_id}", PROJECT).replace("{training_job_id}", "job-1")
    [finding] = _proxied(today, path, {"events": [{"time": 5}]}, None, method="GET")
    assert (finding.check, finding.operation, finding.pointer, finding.rule) == (
        "response_body",
        events.operation_id,
        "/events/0/time",
        "type",
    )
    assert "obtaining_the_events_of_a_training_job" in finding.evidence
