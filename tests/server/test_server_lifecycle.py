"""Lifecycle properties: for any history and any moment, the status is self-consistent."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from modelarts_kit_server.lifecycle import (
    TERMINABLE_PHASES,
    LifecycleTimings,
    Outcome,
    Phase,
    Timeline,
    can_terminate,
    render_status,
    snapshot_at,
)

CREATED_MS = 1_700_000_000_000
ORDER = [Phase.CREATING, Phase.PENDING, Phase.RUNNING]
FINAL = {Phase.COMPLETED, Phase.FAILED, Phase.TERMINATED}

timings = st.builds(
    LifecycleTimings,
    creating_s=st.floats(0, 100),
    pending_s=st.floats(0, 100),
    running_s=st.floats(0, 1000),
    terminating_s=st.floats(0, 100),
)
offsets = st.integers(0, 2_000_000)


@given(
    timing=timings,
    outcome=st.sampled_from(list(Outcome)),
    stop=st.none() | offsets,
    moments=st.lists(offsets, min_size=2, max_size=6),
    nodes=st.integers(1, 10),
)
def test_status_is_consistent_and_phases_only_move_forward(
    timing: LifecycleTimings, outcome: Outcome, stop: int | None, moments: list[int], nodes: int
) -> None:
    timeline = Timeline(CREATED_MS, outcome, None if stop is None else CREATED_MS + stop)
    previous: Phase | None = None
    for offset in sorted(moments):
        now = CREATED_MS + offset
        snapshot = snapshot_at(timeline, timing, now)
        status = render_status(snapshot, nodes)
        assert status["phase"] == snapshot.phase.value
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
            assert ("end_at" in record) == (snapshot.phase is not Phase.RUNNING)
        else:
            assert status["duration"] == 0
        if snapshot.phase is Phase.FAILED:
            assert outcome is Outcome.FAILED
        if snapshot.phase in (Phase.TERMINATING, Phase.TERMINATED):
            assert stop is not None
        assert can_terminate(snapshot) == (snapshot.phase in TERMINABLE_PHASES)
        if previous is not None:
            assert not (previous in FINAL and snapshot.phase is not previous)
            if previous in ORDER and snapshot.phase in ORDER:
                assert ORDER.index(snapshot.phase) >= ORDER.index(previous)
        previous = snapshot.phase
