"""Paging is read from the spec's ``x-modelarts-paging``, once: change what the list's
``offset`` counts in a copy of the spec (the list page says pages; the copy says items) and the
reference server, a freshly generated client's iterator and the contract check all follow it,
with no code change."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
from modelarts_kit_contracts.core.findings import RunReport
from modelarts_kit_contracts.server.api_map import ApiMap
from modelarts_kit_contracts.server.run import Budget, RunOptions, ServerTarget, run_server_contract
from modelarts_kit_contracts.server.timeline import SkippingTimeline
from modelarts_kit_contracts.transport_auth import Credentials
from modelarts_kit_server import (
    DEV_PROJECT_ID,
    DEV_TOKEN,
    LifecycleTimings,
    ManualClock,
    ServerSettings,
    create_app,
)
from modelarts_kit_spec import Spec, load_spec
from modelarts_kit_spec.meaning import Role

from .server_support import SyncASGITransport, job_body
from .spec_copies import generated_client, write_spec_copy

PACKAGE = "items_offset_client"
JOBS = 5
ASCENDING = {"sort_by": "create_time", "order": "asc"}
CHECK = "list_pages_consistent"


def _list_paging(document: Any) -> Any:
    spec = load_spec()
    listing = spec.meaning.roles.get(Role.LIST)
    assert listing is not None
    return document["paths"][listing.path][listing.method]["x-modelarts-paging"]


def items_document() -> Any:
    document = copy.deepcopy(load_spec().document)
    assert _list_paging(document)["offset"]["counts"] == "pages"  # the list page's word
    _list_paging(document)["offset"]["counts"] = "items"
    return document


@pytest.fixture(scope="module")
def items_spec_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_spec_copy(tmp_path_factory, "items-offset", items_document())


def _server(spec_path: Path | None) -> Any:
    settings = ServerSettings(
        clock=ManualClock(),
        timings=LifecycleTimings(startup_s=30, running_s=60, terminating_s=0.3),
        spec_path=spec_path,
    )
    return create_app(settings)


def _search(client: httpx.Client, spec: Spec, body: dict[str, Any]) -> list[str]:
    listing = spec.meaning.roles.get(Role.LIST)
    assert listing is not None
    path = listing.path.replace("{project_id}", DEV_PROJECT_ID)
    answer = client.post(path, json={**ASCENDING, **body})
    assert answer.status_code == 200, answer.text
    return [job["metadata"]["id"] for job in answer.json()["items"]]


def _filled(app: Any) -> httpx.Client:
    client = httpx.Client(
        transport=SyncASGITransport(app),
        base_url="http://127.0.0.1",
        headers={"X-Auth-Token": DEV_TOKEN},
    )
    for number in range(JOBS):
        created = client.post(
            f"/v2/{DEV_PROJECT_ID}/training-jobs", json=job_body(f"paged-{number}")
        )
        assert created.status_code == 201, created.text
        app.settings.clock.advance(0.01)  # distinct create times: ascending is creation's order
    return client


@pytest.mark.parametrize("counts", ["pages", "items"])
def test_the_server_reads_offset_as_the_spec_says(counts: str, items_spec_path: Path) -> None:
    spec_path = items_spec_path if counts == "items" else None
    spec = load_spec(spec_path) if spec_path is not None else load_spec()
    app = _server(spec_path)
    client = _filled(app)
    every = _search(client, spec, {"offset": 0, "limit": JOBS})
    page = _search(client, spec, {"offset": 1, "limit": 2})
    client.close()
    app.close()
    assert len(every) == JOBS
    assert page == (every[1:3] if counts == "items" else every[2:4])


@pytest.fixture(scope="module")
def items_client(
    items_spec_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ModuleType]:
    with generated_client(items_spec_path, tmp_path_factory, PACKAGE, "items-offset-client") as m:
        yield m


def test_a_freshly_generated_iterator_follows(items_client: Any, items_spec_path: Path) -> None:
    """The copy's client pages by items against the copy's server: every job once, in order.
    The same client against the curated spec's server (pages) does not: the offset matters."""
    spec = load_spec(items_spec_path)
    for spec_path, whole in ((items_spec_path, True), (None, False)):
        app = _server(spec_path)
        plain = _filled(app)
        every = _search(plain, spec, {"offset": 0, "limit": JOBS})
        plain.close()
        client = items_client.TrainingJobsClient(
            base_url="http://127.0.0.1",
            project_id=DEV_PROJECT_ID,
            auth=items_client.TokenAuth(DEV_TOKEN),
            transport=SyncASGITransport(app),
        )
        with client:
            seen = [job.metadata.id for job in client.iter_training_jobs(ASCENDING, page_size=2)]
        app.close()
        assert (seen == every) is whole, (seen, every)


def _check_against(spec_path: Path | None, checked_by: Spec) -> RunReport:
    options = RunOptions(
        credentials=Credentials(token=DEV_TOKEN),
        project_id=DEV_PROJECT_ID,
        other_project_id=DEV_PROJECT_ID[::-1],
        budget=Budget(max_examples=1, seed=1),
        phases=(),  # the scenarios alone
        final_phase_wait_s=3.0,
    )
    app = _server(spec_path)
    # The run moves the server's ManualClock while a scenario waits for a job's phases (as
    # the embedded target's): on a clock nobody moved, the events scenario waited 3 s.
    target = ServerTarget.asgi(app, timeline=SkippingTimeline(app.settings.clock.advance))
    try:
        return run_server_contract(target, options, api=ApiMap.from_spec(checked_by))
    finally:
        app.close()


def test_the_contract_check_follows(items_spec_path: Path) -> None:
    """Checked by the copy (offset counts items): the copy's server passes the paging check,
    the curated spec's server (pages) fails it, quoting the paging's page."""
    items_spec = load_spec(items_spec_path)
    passed = _check_against(items_spec_path, items_spec)
    assert [f for f in passed.failures if f.check == CHECK] == []
    assert passed.tallies[CHECK].passed >= 1
    failed = _check_against(None, items_spec)
    killers = [f for f in failed.failures if f.check == CHECK]
    assert killers, [f"{f.check}: {f.title}" for f in failed.failures]
    assert "offset counts items" in killers[0].expected
    assert (
        "page family/querying_a_training_job_list_2024-11.rst, Table 2 Request body parameters, "
        'row offset: "Number of pages for querying jobs.'
    ) in killers[0].evidence
