"""Simulated clocks: job lifecycles advance on these, never on ``time.time`` directly.

:class:`SimulatedClock` runs ``speed`` times faster than the wall clock (``--clock-speed``);
:class:`ManualClock` only moves when a test calls :meth:`ManualClock.advance`, so lifecycle
tests are deterministic. Both report milliseconds since the Unix epoch, the unit of
``create_time`` in the API, and both can be moved forward (:class:`AdvanceableClock`): the
embedded server's owner moves it instead of sleeping while it waits for a job's phases.
"""

from __future__ import annotations

import threading
import time
from typing import Protocol, runtime_checkable

__all__ = ["AdvanceableClock", "Clock", "ManualClock", "SimulatedClock"]


@runtime_checkable
class Clock(Protocol):
    def now_ms(self) -> int:
        """Milliseconds since the Unix epoch, on this clock."""
        ...


@runtime_checkable
class AdvanceableClock(Clock, Protocol):
    def advance(self, seconds: float) -> int:
        """Move the clock forward by ``seconds`` (>= 0); returns the new time in ms."""
        ...


def _checked_advance(seconds: float) -> float:
    if not 0 <= seconds < float("inf"):
        raise ValueError(f"a clock moves forward by a finite number of seconds, got {seconds!r}")
    return seconds


class SimulatedClock:
    """Wall-clock time that runs ``speed`` times faster from the moment it is created.

    ``not_before_ms`` moves the origin forward, so a restarted server whose earlier clock ran
    ahead of the wall clock never sees time go backwards for the jobs it persisted.
    """

    def __init__(self, speed: float = 1.0, *, not_before_ms: int = 0) -> None:
        if not 0 < speed < float("inf"):
            raise ValueError(f"clock speed must be finite and > 0, got {speed!r}")
        self.speed = speed
        self._origin_ms = max(int(time.time() * 1000), not_before_ms)
        self._origin_monotonic = time.monotonic()
        self._skipped_ms = 0  # moved forward by advance(), on top of the time that ran
        self._lock = threading.Lock()

    def now_ms(self) -> int:
        elapsed = time.monotonic() - self._origin_monotonic
        return self._origin_ms + self._skipped_ms + int(elapsed * 1000 * self.speed)

    def advance(self, seconds: float) -> int:
        """Move the clock forward by ``seconds`` (>= 0) at once; it runs on from there at
        its speed. Returns the new time in ms."""
        with self._lock:
            self._skipped_ms += round(_checked_advance(seconds) * 1000)
        return self.now_ms()

    def __repr__(self) -> str:
        return f"SimulatedClock(speed={self.speed})"


class ManualClock:
    """A clock that stands still until :meth:`advance` is called (thread-safe)."""

    DEFAULT_START_MS = 1_700_000_000_000  # 2023-11-14T22:13:20Z: a fixed, realistic epoch

    def __init__(self, start_ms: int = DEFAULT_START_MS) -> None:
        self._now_ms = start_ms
        self._lock = threading.Lock()

    def now_ms(self) -> int:
        with self._lock:
            return self._now_ms

    def advance(self, seconds: float) -> int:
        """Move the clock forward by ``seconds`` (>= 0); returns the new time in ms."""
        if seconds < 0:
            raise ValueError(f"a clock cannot go backwards (advance({seconds!r}))")
        with self._lock:
            self._now_ms += round(_checked_advance(seconds) * 1000)
            return self._now_ms

    def __repr__(self) -> str:
        return f"ManualClock(now_ms={self.now_ms()})"
