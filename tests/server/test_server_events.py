"""A job's events over HTTP: the lifecycle as it happened, ordered, paged, windowed, durable."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from modelarts_kit_server import LifecycleTimings, ManualClock, ServerSettings, create_app
from modelarts_kit_server.events import format_time
from modelarts_kit_server.settings import STRICT
from modelarts_kit_server.store import SCHEMA
from modelarts_kit_spec import load_spec
from modelarts_kit_spec.meaning import Role

from .operation_calls import Family, family_client, operation_of
from .server_support import check_error

TIMINGS = LifecycleTimings(startup_s=30, running_s=60, terminating_s=3)


@pytest.fixture
def family(clock: ManualClock) -> Iterator[Family]:
    app = create_app(ServerSettings(clock=clock, timings=TIMINGS))
    family = family_client(app)
    yield family
    family.client.close()
    app.close()


def events(family: Family, job_id: str, **params: Any) -> dict[str, Any]:
    response = family.by_role(Role.EVENTS, job_id=job_id, params=params)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def phases_seen(family: Family, clock: ManualClock, job_id: str, steps: int) -> list[str]:
    """The phases show answers, each second for ``steps`` seconds (repeats dropped)."""
    seen: list[str] = []
    for _ in range(steps):
        phase = family.show(job_id).json()["status"]["phase"]
        if not seen or seen[-1] != phase:
            seen.append(phase)
        clock.advance(1)
    return seen


def test_events_are_the_transitions_the_job_went_through_in_order(
    family: Family, clock: ManualClock
) -> None:
    job_id = family.created_id("eventful")
    seen = phases_seen(family, clock, job_id, 100)
    answer = events(family, job_id, order="asc", limit=100)
    messages = [event["message"] for event in answer["events"]]
    assert answer["total"] == len(messages) == len(seen)
    for phase, message in zip(seen, messages, strict=True):
        assert phase in message
    times = [event["time"] for event in answer["events"]]
    assert times == sorted(times)
    assert events(family, job_id, order="desc", limit=100)["events"] == answer["events"][::-1]


def test_only_what_has_happened_is_shown(family: Family, clock: ManualClock) -> None:
    job_id = family.created_id("young")
    first = events(family, job_id)
    assert first["total"] == 1
    phase = family.show(job_id).json()["status"]["phase"]
    assert phase in first["events"][0]["message"]


def test_a_terminated_job_has_the_stop_course_in_its_events(
    family: Family, clock: ManualClock
) -> None:
    job_id = family.created_id("stopped")
    clock.advance(40)
    assert family.terminate(job_id).status_code == 202
    seen = phases_seen(family, clock, job_id, 10)
    messages = [e["message"] for e in events(family, job_id, order="asc")["events"]]
    for phase in seen:
        assert any(phase in message for message in messages), (phase, messages)
    assert seen[-1] in messages[-1]


def test_events_are_paged_by_offset_and_limit(family: Family, clock: ManualClock) -> None:
    job_id = family.created_id("paged")
    clock.advance(3600)
    everything = events(family, job_id, order="asc", limit=100)["events"]
    assert len(everything) >= 3
    paged = [
        e
        for offset in range(len(everything))
        for e in events(family, job_id, order="asc", offset=offset, limit=1)["events"]
    ]
    assert paged == everything


def test_the_time_window_selects_events(family: Family, clock: ManualClock) -> None:
    start = clock.now_ms()
    job_id = family.created_id("windowed")
    clock.advance(3600)
    everything = events(family, job_id, order="asc")["events"]
    window = {"start_time": str(start + 1), "end_time": str(clock.now_ms())}
    answer = events(family, job_id, order="asc", **window)
    assert answer["events"] == everything[1:]
    assert answer["start_time"] == format_time(start + 1)


def test_start_time_without_end_time_is_refused(family: Family) -> None:
    job_id = family.created_id("half")
    response = family.by_role(Role.EVENTS, job_id=job_id, params={"start_time": "1"})
    check_error(response, 400, family.error_code(Role.EVENTS, "invalid-parameter"))
    assert "end_time" in response.json()["error_msg"]


@pytest.mark.parametrize(
    ("name", "value"),
    [("limit", "0"), ("limit", "many"), ("limit", "--5"), ("limit", "9" * 30), ("offset", "x")],
)
def test_query_parameters_outside_their_schema_are_refused(
    family: Family, name: str, value: str
) -> None:
    job_id = family.created_id("bad-query")
    response = family.by_role(Role.EVENTS, job_id=job_id, params={name: value})
    check_error(response, 400, family.error_code(Role.EVENTS, "invalid-parameter"))
    assert name in response.json()["error_msg"]


def test_events_of_an_unknown_or_foreign_job_are_the_unknown_job_error(
    family: Family, clock: ManualClock
) -> None:
    job_id = family.created_id("foreign")
    response = family.by_role(Role.EVENTS, job_id=job_id, project_id="cccc3333")
    check_error(response, 400, family.error_code(Role.EVENTS, "not-found"))
    unknown = family.by_role(Role.EVENTS, job_id="nope")
    check_error(unknown, 400, family.error_code(Role.EVENTS, "not-found"))


def test_a_deleted_jobs_events_are_gone(family: Family) -> None:
    job_id = family.created_id("deleted")
    assert events(family, job_id)["total"] == 1
    assert family.by_role(Role.DELETE, job_id=job_id).is_success
    response = family.by_role(Role.EVENTS, job_id=job_id)
    check_error(response, 400, family.error_code(Role.EVENTS, "not-found"))


def test_events_survive_a_restart(tmp_path: Path, clock: ManualClock) -> None:
    settings = ServerSettings(clock=clock, timings=TIMINGS, db_path=tmp_path / "jobs.sqlite")
    app = create_app(settings)
    family = family_client(app)
    try:
        job_id = family.created_id("durable")
        clock.advance(40)
        family.terminate(job_id)
        clock.advance(10)
        before = events(family, job_id, order="asc")
    finally:
        family.client.close()
        app.close()
    # a restarted server with other timings still tells the history as it happened
    other = ServerSettings(
        clock=clock, timings=LifecycleTimings(1, 1, 1), db_path=tmp_path / "jobs.sqlite"
    )
    app = create_app(other)
    family = family_client(app)
    try:
        assert events(family, job_id, order="asc") == before
    finally:
        family.client.close()
        app.close()


def test_a_job_of_a_database_from_before_events_gets_its_history(
    tmp_path: Path, clock: ManualClock
) -> None:
    """A version-0 database (no events table): its jobs' events are their transitions."""
    db = tmp_path / "old.sqlite"
    settings = ServerSettings(clock=clock, timings=TIMINGS, db_path=db)
    app = create_app(settings)
    family = family_client(app)
    try:
        job_id = family.created_id("old")
        clock.advance(3600)
        expected = events(family, job_id, order="asc")
    finally:
        family.client.close()
        app.close()
    with sqlite3.connect(db) as connection:  # back to the schema of version 0
        connection.execute("DROP TABLE events")
        connection.execute("DROP TABLE deleted_jobs")
        connection.execute("ALTER TABLE jobs RENAME TO jobs_now")
        connection.execute(SCHEMA)  # version 0's jobs table, without the search columns
        columns = "project_id, job_id, name, document, created_ms, outcome, terminate_requested_ms"
        connection.execute(f"INSERT INTO jobs ({columns}) SELECT {columns} FROM jobs_now")
        connection.execute("DROP TABLE jobs_now")
        connection.execute("PRAGMA user_version = 0")
    app = create_app(settings)
    family = family_client(app)
    try:
        assert events(family, job_id, order="asc") == expected
    finally:
        family.client.close()
        app.close()


def test_an_empty_window_is_no_window(family: Family, clock: ManualClock) -> None:
    job_id = family.created_id("no-window")
    clock.advance(3600)
    everything = events(family, job_id, order="asc")
    assert events(family, job_id, order="asc", start_time="", end_time="") == everything


def test_a_negative_offset_is_never_echoed_as_if_it_were_valid(
    family: Family, clock: ManualClock
) -> None:
    """Issue 34 item 7: ``offset=-1`` answered 200 and echoed -1. The page gives no range
    ("Offset of a data entry"), so the spec's minimum 0 is guidance: the lenient server
    reads a negative offset as 0 and answers the offset it applied; the strict one refuses
    it with the invalid-parameter error naming the parameter and the rule."""
    spec = load_spec()
    operation = operation_of(spec, Role.EVENTS)
    written = spec.at(f"{operation.pointer}/parameters")
    index = next(n for n, p in enumerate(written) if spec.deref(p).get("name") == "offset")
    pointer = f"{operation.pointer}/parameters/{index}/schema"
    assert spec.schema_model.rule_at(pointer, "minimum").strength == "decision"
    job_id = family.created_id("negative-offset")
    clock.advance(3600)
    answer = events(family, job_id, order="asc", offset=-1, limit=2)
    assert answer["offset"] == 0
    assert answer["events"] == events(family, job_id, order="asc", offset=0, limit=2)["events"]
    strict = create_app(ServerSettings(clock=clock, timings=TIMINGS, strictness=STRICT))
    try:
        strict_family = family_client(strict)
        job_id = strict_family.created_id("negative-offset")
        response = strict_family.by_role(Role.EVENTS, job_id=job_id, params={"offset": "-1"})
        check_error(response, 400, strict_family.error_code(Role.EVENTS, "invalid-parameter"))
        assert "offset" in response.json()["error_msg"]
        assert "minimum" in response.json()["error_msg"]
        strict_family.client.close()
    finally:
        strict.close()
