"""Lifecycle properties: for any history and any moment, the status is self-consistent and the
phases follow the spec's lifecycle (``x-modelarts-lifecycle``)."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from modelarts_kit_server.lifecycle import (
    LifecycleTimings,
    Simulation,
    Stage,
    Timeline,
    can_terminate,
)
from modelarts_kit_server.search_sql import phase_columns
from modelarts_kit_spec import load_spec

CREATED_MS = 1_700_000_000_000
LIFECYCLE = load_spec().meaning.lifecycle

timings = st.builds(
    LifecycleTimings,
    startup_s=st.floats(0, 200),
    running_s=st.floats(0, 1000),
    terminating_s=st.floats(0, 100),
)
offsets = st.integers(0, 2_000_000)
outcomes = st.sampled_from(Simulation(LIFECYCLE, LifecycleTimings()).outcomes)


@given(
    timing=timings,
    outcome=outcomes,
    stop=st.none() | offsets,
    moments=st.lists(offsets, min_size=2, max_size=6),
    nodes=st.integers(1, 10),
)
def test_status_is_consistent_and_phases_follow_the_spec(
    timing: LifecycleTimings, outcome: str, stop: int | None, moments: list[int], nodes: int
) -> None:
    simulation = Simulation(LIFECYCLE, timing)
    timeline = Timeline(CREATED_MS, outcome, None if stop is None else CREATED_MS + stop)
    previous: str | None = None
    for offset in sorted(moments):
        now = CREATED_MS + offset
        snapshot = simulation.snapshot_at(timeline, now)
        status = simulation.render_status(snapshot, nodes)
        assert status["phase"] == snapshot.phase
        assert snapshot.phase in LIFECYCLE.phases
        assert status["secondary_phase"] in LIFECYCLE.secondary_of[snapshot.phase]
        assert status["tasks"] == [f"worker-{n}" for n in range(nodes)]
        started = status["start_time"] != 0
        assert started == bool(status["running_records"]) == bool(status["task_statuses"])
        assert status["duration"] >= 0
        if started:
            assert status["start_time"] >= CREATED_MS
            assert status["start_time"] + status["duration"] <= max(
                now, timeline.terminate_requested_ms or 0
            )
            (record,) = status["running_records"]
            assert ("end_at" in record) == (snapshot.stage is not Stage.RUNNING)
        else:
            assert status["duration"] == 0
        if snapshot.stage in (Stage.SUCCEEDED, Stage.FAILED):
            assert snapshot.phase == outcome
        if snapshot.stage in (Stage.STOPPING, Stage.STOPPED):
            assert stop is not None
            assert snapshot.phase in LIFECYCLE.stop_course
        assert can_terminate(snapshot) == (snapshot.phase in LIFECYCLE.terminable)
        assert LIFECYCLE.is_final(snapshot.phase) == (
            snapshot.stage in (Stage.SUCCEEDED, Stage.FAILED, Stage.STOPPED)
        )
        if previous is not None:
            assert snapshot.phase in LIFECYCLE.reachable(previous)  # only allowed moves
        previous = snapshot.phase


def test_the_normal_course_and_the_stop_course_are_walked_in_order() -> None:
    simulation = Simulation(LIFECYCLE, LifecycleTimings(startup_s=10, running_s=10))
    timeline = Timeline(CREATED_MS, simulation.outcomes[0])
    seen = [simulation.snapshot_at(timeline, CREATED_MS + ms).phase for ms in range(0, 21_000, 500)]
    assert tuple(dict.fromkeys(seen)) == LIFECYCLE.normal_course
    stopped = Timeline(CREATED_MS, simulation.outcomes[0], CREATED_MS + 12_000)
    after = [simulation.snapshot_at(stopped, CREATED_MS + ms).phase for ms in range(12_000, 20_000)]
    assert tuple(dict.fromkeys(after)) == LIFECYCLE.stop_course


@pytest.mark.parametrize("requested", ["FAILED", "failed", " Failed "])
def test_the_test_hook_names_a_final_phase_in_any_case(requested: str) -> None:
    simulation = Simulation(LIFECYCLE, LifecycleTimings())
    assert simulation.outcome_for(requested) == "Failed"
    assert simulation.outcome_for(None) == LIFECYCLE.normal_course[-1]
    assert simulation.outcome_for("Terminated") is None  # final, but not where a run ends


def test_timings_must_not_be_negative() -> None:
    with pytest.raises(ValueError, match="running_s"):
        LifecycleTimings(running_s=-1)


def _phase_by_sql(simulation: Simulation, timeline: Timeline, now_ms: int) -> object:
    columns = phase_columns(simulation, now_ms)
    connection = sqlite3.connect(":memory:")
    connection.execute(
        "CREATE TABLE jobs (created_ms INTEGER, outcome TEXT, terminate_requested_ms INTEGER)"
    )
    connection.execute(
        "INSERT INTO jobs VALUES (?, ?, ?)",
        (timeline.created_ms, timeline.outcome, timeline.terminate_requested_ms),
    )
    return connection.execute(f"SELECT {columns.text}, {columns.fold} FROM jobs").fetchone()


@given(
    timing=timings | st.builds(LifecycleTimings, st.just(0.0), st.just(0.0), st.just(0.0)),
    outcome=outcomes,
    stop=st.none() | st.integers(-1_000, 2_000_000),
    now=st.integers(-2_000, 2_000_000),
)
@example(timing=LifecycleTimings(0, 0, 0), outcome="Completed", stop=-10, now=-20)  # clamped
def test_the_list_query_computes_the_phase_show_answers(
    timing: LifecycleTimings, outcome: str, stop: int | None, now: int
) -> None:
    """The SQL phase of the store's search (``search_sql.phase_columns``) is the phase of
    ``snapshot_at`` for any history and moment, before the request included (clamped)."""
    simulation = Simulation(LIFECYCLE, timing)
    timeline = Timeline(CREATED_MS, outcome, None if stop is None else CREATED_MS + stop)
    phase = simulation.snapshot_at(timeline, CREATED_MS + now).phase
    assert _phase_by_sql(simulation, timeline, CREATED_MS + now) == (phase, phase.casefold())
