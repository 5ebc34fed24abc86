"""The server's clocks move forward on request (server/clock.py): the embedded server's owner
moves its simulated clock instead of sleeping while a scenario waits for a job's phases."""

from __future__ import annotations

import math

import pytest
from modelarts_kit_server.clock import AdvanceableClock, ManualClock, SimulatedClock


def test_a_simulated_clock_moves_forward_at_once_and_runs_on_from_there() -> None:
    clock = SimulatedClock()
    before = clock.now_ms()
    after = clock.advance(90.0)
    assert after >= before + 90_000
    assert clock.now_ms() >= after  # it keeps running from where it was moved to
    assert clock.advance(0.0) >= after


def test_a_faster_clock_is_moved_by_the_seconds_given_not_scaled() -> None:
    clock = SimulatedClock(speed=1000.0)
    before = clock.now_ms()
    moved = clock.advance(3.0) - before
    # 3 s moved, plus what ran meanwhile at 1000x (well under a minute of simulated time)
    assert 3_000 <= moved < 60_000


@pytest.mark.parametrize("seconds", [-1.0, math.inf, math.nan])
@pytest.mark.parametrize("make", [SimulatedClock, ManualClock])
def test_no_clock_moves_back_or_by_an_unbounded_time(
    make: type[SimulatedClock] | type[ManualClock], seconds: float
) -> None:
    clock = make()
    before = clock.now_ms()
    with pytest.raises(ValueError, match="clock"):
        clock.advance(seconds)
    assert clock.now_ms() - before < 60_000  # unchanged (a SimulatedClock runs on)


def test_both_clocks_can_be_moved_forward() -> None:
    assert isinstance(SimulatedClock(), AdvanceableClock)
    assert isinstance(ManualClock(), AdvanceableClock)
