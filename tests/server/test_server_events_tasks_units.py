"""The pure parts of events and task output: selecting events, times, logs and metrics."""

from __future__ import annotations

import pytest
from modelarts_kit_server import LifecycleTimings
from modelarts_kit_server.downloads import (
    RESERVED_ORIGIN,
    LinkRefused,
    LogLinks,
    LogTarget,
    request_origin,
)
from modelarts_kit_server.events import (
    EventQuery,
    format_time,
    parse_time,
    select_events,
    transition_events,
)
from modelarts_kit_server.lifecycle import Simulation, Timeline
from modelarts_kit_server.store import StoredEvent
from modelarts_kit_server.tasks import MAX_METRIC_POINTS, log_preview, log_text, metrics
from modelarts_kit_spec import load_spec

SIMULATION = Simulation(load_spec().meaning.lifecycle, LifecycleTimings(10, 60, 3))
EVENTS = [
    StoredEvent(t, {"level": lvl, "message": f"m{t}", "source": "Job"})
    for t, lvl in (
        (1_000, "Info"),
        (2_000, "Info"),
        (3_000, "Error"),
        (9_000, "Info"),
    )
]


def times(events: list[StoredEvent]) -> list[int]:
    return [event.time_ms for event in events]


def test_only_events_that_have_happened_are_shown() -> None:
    total, page = select_events(EVENTS, 2_500, EventQuery(order="asc"))
    assert total == 2
    assert times(page) == [1_000, 2_000]


def test_events_are_ordered_and_paged_by_event_index() -> None:
    total, page = select_events(EVENTS, 10_000, EventQuery(order="desc", offset=1, limit=2))
    assert total == 4
    assert times(page) == [3_000, 2_000]
    _, page = select_events(EVENTS, 10_000, EventQuery(order="asc", offset=3, limit=2))
    assert times(page) == [9_000]


def test_events_are_selected_by_window_level_and_pattern() -> None:
    window = EventQuery(order="asc", start_ms=2_000, end_ms=3_000)
    assert times(select_events(EVENTS, 10_000, window)[1]) == [2_000, 3_000]
    assert times(select_events(EVENTS, 10_000, EventQuery(level="error"))[1]) == [3_000]
    assert times(select_events(EVENTS, 10_000, EventQuery(pattern="m9"))[1]) == [9_000]


def test_times_are_iso_8601_and_parse_back() -> None:
    assert format_time(1_669_449_696_000) == "2022-11-26T08:01:36+00:00"
    assert parse_time("1669449696964") == 1_669_449_696_964
    assert parse_time("2022-11-26T16:01:36+08:00") == 1_669_449_696_000
    with pytest.raises(ValueError, match="milliseconds since the epoch"):
        parse_time("yesterday")
    with pytest.raises(ValueError, match="between 0 and"):
        parse_time("99999999999999999999")
    with pytest.raises(ValueError, match="between 0 and"):
        parse_time("9" * 5000)  # more digits than int() takes: still the range rule


def test_a_failed_job_has_an_error_event_last() -> None:
    failed = SIMULATION.transitions(Timeline(0, SIMULATION.outcomes[-1]))
    events = transition_events(failed)
    assert [e.document["level"] for e in events][-1] == "Error"
    assert all(e.document["level"] == "Info" for e in events[:-1])
    assert failed[-1].phase in events[-1].document["message"]


def test_the_log_grows_while_the_task_runs_and_ends_with_its_exit_code() -> None:
    timeline = Timeline(0, SIMULATION.outcomes[0])
    before = log_preview("j", "worker-0", SIMULATION.snapshot_at(timeline, 5_000), None)
    assert before == {"content": "", "current_size": 0, "full_size": 0}
    early = log_preview("j", "worker-0", SIMULATION.snapshot_at(timeline, 30_000), None)
    late = log_preview("j", "worker-0", SIMULATION.snapshot_at(timeline, 50_000), None)
    assert late["content"].startswith(early["content"])
    assert late["full_size"] > early["full_size"] == len(early["content"].encode())
    ended = log_preview("j", "worker-0", SIMULATION.snapshot_at(timeline, 80_000), 0)
    assert ended["content"].splitlines()[-1].endswith("exit with 0")
    assert ended == log_preview("j", "worker-0", SIMULATION.snapshot_at(timeline, 80_000), 0)
    other = log_preview("j", "worker-1", SIMULATION.snapshot_at(timeline, 80_000), 0)
    assert other != ended


def test_the_log_link_is_signed_and_expires_after_five_minutes() -> None:
    links = LogLinks(key=b"k" * 32)
    target = LogTarget("p", "j", "worker-0", download=True)
    url = links.url("http://127.0.0.1:8000", target, 1_000_000)
    assert url.startswith("http://127.0.0.1:8000/modelarts-kit/obs/p/j/worker-0.log?")
    assert "Expires=1300&response-content-disposition=attachment&Signature=" in url
    inline = links.url(RESERVED_ORIGIN, LogTarget("p", "j", "worker-0", download=False), 0)
    assert inline.startswith("https://obs.modelarts-kit.invalid/modelarts-kit/obs/p/j/")
    assert "inline" in inline
    path, _, query = url.removeprefix("http://127.0.0.1:8000").partition("?")
    assert links.check(path, query, 1_300_999) == target  # valid through its last second
    with pytest.raises(LinkRefused, match="Request has expired") as expired:
        links.check(path, query, 1_301_000)
    assert expired.value.status == 403
    with pytest.raises(LinkRefused, match="SignatureDoesNotMatch"):
        links.check(path, query.replace("Expires=1300", "Expires=9300"), 1_000_000)
    with pytest.raises(LinkRefused, match="SignatureDoesNotMatch"):
        LogLinks(key=b"x" * 32).check(path, query, 1_000_000)  # another server's link


@pytest.mark.parametrize(
    ("scheme", "host", "origin"),
    [
        ("http", "127.0.0.1:8000", "http://127.0.0.1:8000"),
        ("http", "localhost", "http://localhost"),
        ("https", "[::1]:9000", "https://[::1]:9000"),
        ("http", "127.0.0.2", "http://127.0.0.2"),
        ("http", "example.com", RESERVED_ORIGIN),
        ("http", "10.0.0.1:8000", RESERVED_ORIGIN),
        ("http", "127.0.0.1@evil.example", RESERVED_ORIGIN),
        ("http", "127.0.0.1:80/x", RESERVED_ORIGIN),
        ("http", "127.0.0.1:port", RESERVED_ORIGIN),
        ("http", None, RESERVED_ORIGIN),
    ],
)
def test_a_link_points_only_to_a_loopback_host(scheme: str, host: str | None, origin: str) -> None:
    assert request_origin(scheme, host) == origin


def test_the_log_text_is_what_the_preview_shows() -> None:
    timeline = Timeline(0, SIMULATION.outcomes[0])
    snapshot = SIMULATION.snapshot_at(timeline, 80_000)
    text = log_text("j", "worker-0", snapshot, 0)
    preview = log_preview("j", "worker-0", snapshot, 0)
    assert text == preview["content"]
    assert len(text.encode()) == preview["full_size"]


def test_metrics_are_minus_one_until_the_task_runs_and_bounded() -> None:
    timeline = Timeline(0, SIMULATION.outcomes[0])
    names = ("cpuUsage", "memUsage")
    starting = metrics("j", "worker-0", names, SIMULATION.snapshot_at(timeline, 5_000), 0)
    assert [m["metric"] for m in starting] == list(names)
    assert starting[0]["value"] == [-1]
    running = metrics("j", "worker-0", names, SIMULATION.snapshot_at(timeline, 65_000), 0)
    assert running[0]["value"][0] >= 0  # the first minute overlaps the running phase
    long_job = Simulation(SIMULATION.lifecycle, LifecycleTimings(0, 10**6, 0))
    snapshot = long_job.snapshot_at(Timeline(0, long_job.outcomes[0]), 10**8)
    assert len(metrics("j", "w", names, snapshot, 0)[0]["value"]) == MAX_METRIC_POINTS
