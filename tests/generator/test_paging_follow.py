"""The generated iterators (``iter_training_jobs``, ``iter_training_job_events``) and
``follow_training_job``, on a client generated from a hand-written spec with a list, an events
and a logs-preview operation (``paged_spec_fixture.py``), against fake servers: pages neither skip
nor repeat, the listing ends, follow gives each event and log line once and stops at a final
phase."""

from __future__ import annotations

import ast
import copy
import importlib
import json
import math
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from modelarts_kit_generator import GeneratorOptions, build_ir, generate
from modelarts_kit_spec import load_spec

from tests.generator.paged_spec_fixture import write_family_spec

OPTIONS = GeneratorOptions(package="family_client", distribution="family-client")
BASE_URL = "https://modelarts.test-region.example.com"
JOB_ID = "3faf5c03-aaa1-4cbe-879d-24b05d997347"


@pytest.fixture(scope="module")
def family(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """The client generated from the fixture spec, imported."""
    root = tmp_path_factory.mktemp("family")
    out = root / "family"
    generate(out, write_family_spec(root), OPTIONS)
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module("family_client")
    finally:
        sys.path.remove(str(out))
        for name in [n for n in sys.modules if n.split(".")[0] == "family_client"]:
            del sys.modules[name]


def _job(example: dict[str, Any], number: int) -> dict[str, Any]:
    job = copy.deepcopy(example)
    job["metadata"]["id"] = f"job-{number:04d}"
    return job


class JobSearches:
    """A list operation over ``count`` jobs, paged as the spec says (offset counts pages)."""

    def __init__(self, example: dict[str, Any], count: int, *, with_total: bool = True) -> None:
        self.jobs = [_job(example, n) for n in range(count)]
        self.with_total = with_total
        self.bodies: list[dict[str, Any]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        assert request.url.path.endswith("/training-job-searches")
        body = json.loads(request.content)
        self.bodies.append(body)
        limit, page = body["limit"], body["offset"]
        answer: dict[str, Any] = {"items": self.jobs[page * limit : (page + 1) * limit]}
        if self.with_total:
            answer["total"] = len(self.jobs)
        return httpx.Response(200, json=answer)


def _client(family: Any, handler: Callable[[httpx.Request], httpx.Response], **kw: Any) -> Any:
    return family.TrainingJobsClient(
        project_id="p", base_url=BASE_URL, transport=httpx.MockTransport(handler), **kw
    )


@pytest.mark.parametrize("count", [0, 1, 50, 51, 137])
@pytest.mark.parametrize("with_total", [True, False])
def test_iter_training_jobs_neither_skips_nor_repeats(
    family: Any, show_job_example: dict[str, Any], count: int, with_total: bool
) -> None:
    server = JobSearches(show_job_example, count, with_total=with_total)
    with _client(family, server) as client:
        seen = [job.metadata.id for job in client.iter_training_jobs({"order": "desc"})]
    assert seen == [f"job-{n:04d}" for n in range(count)]
    # A page shorter than asked ends the listing; a full last page needs one more request
    # unless the total says it was the last.
    full_last = count % 50 == 0 and not (with_total and count)
    assert len(server.bodies) == math.ceil(count / 50) + (1 if full_last else 0)
    assert [b["offset"] for b in server.bodies] == list(range(len(server.bodies)))
    assert all(b["limit"] == 50 and b["order"] == "desc" for b in server.bodies)


async def test_async_iter_training_jobs_pages_the_same(
    family: Any, show_job_example: dict[str, Any]
) -> None:
    server = JobSearches(show_job_example, 137)
    async with family.AsyncTrainingJobsClient(
        project_id="p", base_url=BASE_URL, transport=httpx.MockTransport(server)
    ) as client:
        seen = [job.metadata.id async for job in client.iter_training_jobs(page_size=20)]
    assert seen == [f"job-{n:04d}" for n in range(137)]
    assert [b["offset"] for b in server.bodies] == list(range(7))


def test_the_iterator_sets_offset_and_limit_over_the_body_given(
    family: Any, show_job_example: dict[str, Any]
) -> None:
    server = JobSearches(show_job_example, 3)
    model = family.ListTrainingJobsRequest.model_validate({"offset": 9, "limit": 1})
    with _client(family, server) as client:
        assert len(list(client.iter_training_jobs(model, page_size=2))) == 3
        unchecked = list(client.iter_training_jobs(family.UncheckedBody({"x": 1}), page_size=5))
    assert len(unchecked) == 3
    assert server.bodies == [
        {"offset": 0, "limit": 2},
        {"offset": 1, "limit": 2},
        {"x": 1, "offset": 0, "limit": 5},
    ]


def test_a_listing_that_never_ends_is_bounded(
    family: Any, show_job_example: dict[str, Any]
) -> None:
    """A server that answers a full page to every request (no total) is asked max_pages
    times, then PagingError."""
    calls: list[int] = []

    def endless(request: httpx.Request) -> httpx.Response:
        calls.append(1)
        return httpx.Response(200, json={"items": [_job(show_job_example, len(calls))]})

    with _client(family, endless) as client:
        items = client.iter_training_jobs(page_size=1, max_pages=3)
        with pytest.raises(family.PagingError, match="after 3 pages"):
            list(items)
    assert len(calls) == 3
    with _client(family, endless) as client, pytest.raises(ValueError, match="page_size"):
        next(client.iter_training_jobs(page_size=0))


class Events:
    """An events operation over ``count`` events; the offset counts events."""

    def __init__(self, count: int) -> None:
        self.events = [
            {"time": f"t{n:03d}", "level": "Info", "message": f"event {n}", "source": "Job"}
            for n in range(count)
        ]
        self.queries: list[dict[str, str]] = []

    def answer(self, request: httpx.Request) -> httpx.Response:
        query = dict(request.url.params)
        self.queries.append(query)
        offset, limit = int(query["offset"]), int(query["limit"])
        events = self.events if query.get("order") != "desc" else self.events[::-1]
        # The events page documents total as a string.
        page = {"total": str(len(events)), "events": events[offset : offset + limit]}
        return httpx.Response(200, json=page)


@pytest.mark.parametrize("count", [0, 1, 100, 101, 250])
def test_iter_training_job_events_counts_items(family: Any, count: int) -> None:
    server = Events(count)
    with _client(family, server.answer) as client:
        seen = [e.message for e in client.iter_training_job_events(JOB_ID, order="desc")]
    assert seen == [f"event {n}" for n in reversed(range(count))]
    assert [q["offset"] for q in server.queries] == [
        str(n * 100) for n in range(max(1, math.ceil(count / 100)))
    ]


class Job:
    """A job that moves through ``phases``, one per show, gaining events and log text."""

    def __init__(self, example: dict[str, Any], phases: list[str], window: int = 10_000) -> None:
        self.example = example
        self.phases = phases
        self.shows = 0
        self.events = Events(0)
        self.log = ""
        self.window = window  # the logs preview returns the log's last bytes only

    def __call__(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path.endswith("/events"):
            return self.events.answer(request)
        if path.endswith("/logs/preview"):
            assert path.split("/")[-3] == "worker-0"
            data = self.log.encode()
            part = data[-self.window :]
            body = {"content": part.decode(), "current_size": len(part), "full_size": len(data)}
            return httpx.Response(200, json=body)
        phase = self.phases[min(self.shows, len(self.phases) - 1)]
        self.shows += 1
        self.events.events.append(
            {"time": f"t{self.shows:03d}", "level": "Info", "message": phase, "source": "Job"}
        )
        # Each poll the log grows by two lines, the last one not ended yet.
        lines = f"line-{2 * self.shows}\nline-{2 * self.shows + 1}"
        self.log += ("\n" if self.log else "") + lines
        job = copy.deepcopy(self.example)
        job["status"]["phase"] = phase
        job["status"]["tasks"] = ["worker-0"]
        return httpx.Response(200, json=job)


@pytest.mark.parametrize("window", [10_000, 12])
def test_follow_gives_each_event_and_line_once_and_stops_at_a_final_phase(
    family: Any, show_job_example: dict[str, Any], fake_sleep: Any, window: int
) -> None:
    job = Job(show_job_example, ["Creating", "Pending", "Running", "Running", "Completed"], window)
    with _client(family, job, sleep=fake_sleep) as client:
        followed = list(client.follow_training_job(JOB_ID, poll=1))
    events = [item.message for item in followed if not isinstance(item, family.LogLine)]
    lines = [item.line for item in followed if isinstance(item, family.LogLine)]
    assert events == ["Creating", "Pending", "Running", "Running", "Completed"]
    assert job.shows == 5
    assert len(fake_sleep.delays) == 4
    assert all(isinstance(item, family.LogLine) and item.task == "worker-0" for item in followed
               if isinstance(item, family.LogLine))  # fmt: skip
    log = job.log.split("\n")
    if window > len(job.log):
        # The whole log, line by line, each once, the last one without its line break too.
        assert lines == log
    else:
        # A window shorter than what a poll adds loses the start of a line, never repeats
        # one: each line given is the end of a later log line than the one before.
        place = -1
        for line in lines:
            place = next(n for n in range(place + 1, len(log)) if log[n].endswith(line))
        assert lines[-1] == log[-1]
        assert len(lines) < len(log)


async def test_async_follow_stops_at_a_final_phase(
    family: Any, show_job_example: dict[str, Any], fake_async_sleep: Any
) -> None:
    job = Job(show_job_example, ["Running", "Failed"])
    async with family.AsyncTrainingJobsClient(
        project_id="p", base_url=BASE_URL, transport=httpx.MockTransport(job),
        sleep=fake_async_sleep,
    ) as client:  # fmt: skip
        followed = [item async for item in client.follow_training_job(JOB_ID, poll=1)]
    events = [item.message for item in followed if not isinstance(item, family.LogLine)]
    assert events == ["Running", "Failed"]
    assert job.shows == 2


def test_follow_gives_up_at_its_timeout(
    family: Any, show_job_example: dict[str, Any], fake_sleep: Any
) -> None:
    job = Job(show_job_example, ["Running"])
    with _client(family, job, sleep=fake_sleep) as client:
        followed = client.follow_training_job(JOB_ID, timeout=0)
        with pytest.raises(family.WaitTimeoutError):
            list(followed)


def test_the_ir_reads_what_the_offset_counts(tmp_path: Path) -> None:
    """What the offset counts is x-modelarts-paging's word: the fixture's list counts pages,
    and items when its paging says so (its description says pages either way); the events'
    always count items."""
    by_pages = build_ir(load_spec(write_family_spec(tmp_path)), OPTIONS)
    other = tmp_path / "items"
    other.mkdir()
    by_items = build_ir(
        load_spec(write_family_spec(other, list_offset_counts_pages=False)), OPTIONS
    )
    counts = {
        name: {p.method_name: ast.literal_eval(p.offset_counts_literal) for p in ir.paging}
        for name, ir in (("pages", by_pages), ("items", by_items))
    }
    assert counts == {
        "pages": {"iter_training_jobs": "pages", "iter_training_job_events": "items"},
        "items": {"iter_training_jobs": "items", "iter_training_job_events": "items"},
    }
    assert by_pages.follow is not None
    job_id, order = by_pages.follow.events_arguments
    assert (job_id, order.split("=")[0], ast.literal_eval(order.split("=")[1])) == (
        "training_job_id",
        "order",
        "asc",
    )


def test_delete_put_and_query_parameters_are_sent_as_the_spec_says(family: Any) -> None:
    """DELETE with an optional body (none, or ``{}`` as some clients send), PUT with its
    body, a GET with a query parameter: one method each, named after the operation id."""
    seen: list[tuple[str, str, bytes]] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append((request.method, str(request.url), request.content))
        if request.method == "DELETE":
            return httpx.Response(202)
        if request.method == "PUT":
            return httpx.Response(200)
        return httpx.Response(200, json={"total_count": 2})

    with _client(family, answer) as client:
        assert client.delete_training_job(JOB_ID) is None
        assert client.delete_training_job(JOB_ID, body={}) is None
        assert client.change_training_job_description(JOB_ID, {"description": "new"}) is None
        assert client.show_training_job_flavors(flavor_type="GPU").total_count == 2
        with pytest.raises(family.RequestValidationError, match="flavor_type"):
            client.show_training_job_flavors(flavor_type="TPU")
    job = f"{BASE_URL}/v2/p/training-jobs/{JOB_ID}"
    assert seen == [
        ("DELETE", job, b""),
        ("DELETE", job, b"{}"),
        ("PUT", job, b'{"description":"new"}'),
        ("GET", f"{BASE_URL}/v2/p/training-job-flavors?flavor_type=GPU", b""),
    ]


class VirtualClock:
    """The client's clock (its ``clock=``), moved by the fake server and the fake sleep only:
    the test bounds work by counts, never by wall time."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now

    def sleep(self, delay: float) -> None:
        self.now += delay


class EndlessEventPages:
    """A job that runs forever, whose event pages never end: every page is full of new
    events and says no total. Each page costs ``page_cost`` virtual seconds; a page request
    beyond ``cap`` fails the test (the follow read without bound)."""

    def __init__(self, example: dict[str, Any], clock: VirtualClock, *, page_cost: float,
                 cap: int) -> None:  # fmt: skip
        self.example = example
        self.clock = clock
        self.page_cost = page_cost
        self.cap = cap
        self.pages = 0
        self.pages_per_show: list[int] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/events"):
            self.pages += 1
            self.pages_per_show[-1] += 1
            assert self.pages <= self.cap, f"the follow read more than {self.cap} pages"
            self.clock.now += self.page_cost
            limit = int(request.url.params["limit"])
            events = [
                {"time": f"p{self.pages}-{n}", "level": "Info", "message": "m", "source": "Job"}
                for n in range(limit)
            ]
            return httpx.Response(200, json={"events": events})
        self.pages_per_show.append(0)
        job = copy.deepcopy(self.example)
        job["status"]["phase"] = "Running"
        job["status"]["tasks"] = []
        return httpx.Response(200, json=job)


def test_follow_yields_endless_event_pages_as_they_come_and_ends_at_its_deadline(
    family: Any, show_job_example: dict[str, Any]
) -> None:
    """Issue 34 item 1: events come page by page (the first before a second page is asked
    for), and the deadline is checked per page: ten virtual seconds of one-second pages end
    the follow with WaitTimeoutError after about ten pages, not after the pages end."""
    clock = VirtualClock()
    server = EndlessEventPages(show_job_example, clock, page_cost=1.0, cap=50)
    with _client(family, server, sleep=clock.sleep, clock=clock.monotonic) as client:
        followed = client.follow_training_job(JOB_ID, timeout=10)
        first = next(followed)
        assert server.pages == 1
        given = [first]
        with pytest.raises(family.WaitTimeoutError):
            given.extend(followed)
    # The tenth page ends at the deadline: the event in hand is given, then the check ends it.
    assert server.pages == 10
    assert len(given) == 9 * 100 + 1
    assert len({event.time for event in given}) == len(given)


def test_follow_bounds_the_pages_of_a_poll_and_the_events_it_remembers(
    family: Any, show_job_example: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pages that cost no time: each poll reads ``pages_per_poll`` pages and moves on; the
    set of events already given never holds more than twice what one poll reads."""
    clock = VirtualClock()
    states: list[Any] = []

    class RecordedState(family.client.FollowState):  # type: ignore[misc]
        def __init__(self, *args: Any) -> None:
            super().__init__(*args)
            states.append(self)

    monkeypatch.setattr(family.client, "FollowState", RecordedState)
    server = EndlessEventPages(show_job_example, clock, page_cost=0.0, cap=200)
    with _client(family, server, sleep=clock.sleep, clock=clock.monotonic) as client:
        followed = client.follow_training_job(JOB_ID, timeout=60, poll=5, pages_per_poll=3)
        remembered: list[int] = []
        with pytest.raises(family.WaitTimeoutError):
            remembered.extend(states[0].seen_events() for _ in followed)
    assert len(server.pages_per_show) > 3
    # The last show comes after the deadline: no page is read for it.
    assert set(server.pages_per_show[:-1]) == {3}
    assert server.pages_per_show[-1] == 0
    assert states[0].max_events == 600
    assert max(remembered) == 600
    assert states[0].seen_events() == 600
    with _client(family, server) as client, pytest.raises(ValueError, match="pages_per_poll"):
        next(client.follow_training_job(JOB_ID, pages_per_poll=0))
