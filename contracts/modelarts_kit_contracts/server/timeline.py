"""The time a target's jobs move on, as the scenarios that wait for a job's phases see it.

On a target the run does not own (a URL, live or local), that time is the wall clock: a wait
sleeps. On the embedded server the run owns the server's clock: a wait moves that clock
forward instead (:class:`SkippingTimeline`), so the job's phases come at once and the run
sleeps for nothing. Everything else about time (``--max-time``, each request's limit, the
report's duration) stays on the wall clock: only the server's simulated time is skipped.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

__all__ = ["WALL_TIMELINE", "SkippingTimeline", "Timeline", "WallTimeline"]


class Timeline(Protocol):
    def now(self) -> float:
        """Seconds on this timeline (``time.monotonic()`` plus any time skipped)."""
        ...

    def wait(self, seconds: float) -> None:
        """Let ``seconds`` pass on this timeline (nothing when ``seconds`` <= 0)."""
        ...


class WallTimeline:
    """The wall clock: a wait sleeps."""

    def now(self) -> float:
        return time.monotonic()

    def wait(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)

    def __repr__(self) -> str:
        return "WallTimeline()"


WALL_TIMELINE = WallTimeline()


@dataclass
class SkippingTimeline:
    """A server's clock the run owns: a wait moves it forward by ``advance`` (the server
    clock's own method) instead of sleeping, and this timeline's ``now`` with it."""

    advance: Callable[[float], object]
    skipped_s: float = 0.0  # moved forward so far

    def now(self) -> float:
        return time.monotonic() + self.skipped_s

    def wait(self, seconds: float) -> None:
        if seconds > 0:
            self.advance(seconds)
            self.skipped_s += seconds
