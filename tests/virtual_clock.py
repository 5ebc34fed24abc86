"""A clock for tests that wait on deadlines: seconds pass only when the test says so.

Tests bound work by counts and by this clock's time, never by the wall clock (issue 34 item
11): a deadline of 10 s virtual is honoured when the work stops at the first check after
virtual t=10, however slow the machine is. A fake server moves the clock in lock step with
the code under test: it advances the clock, sends one piece, and waits until the code has
read the clock again (``wait_for_read``) before it sends the next.
"""

from __future__ import annotations

import asyncio
import threading


class VirtualClock:
    """Monotonic seconds (from 0) moved only by ``advance`` and ``sleep``; thread-safe.
    ``now`` counts its readers, so a fake server can wait until the code under test looked."""

    def __init__(self) -> None:
        self._now = 0.0
        self._reads = 0
        self._changed = threading.Condition()

    def now(self) -> float:
        with self._changed:
            self._reads += 1
            self._changed.notify_all()
            return self._now

    def peek(self) -> float:
        """The time, without counting as a read (for the test's own assertions)."""
        with self._changed:
            return self._now

    @property
    def reads(self) -> int:
        with self._changed:
            return self._reads

    def advance(self, seconds: float) -> None:
        with self._changed:
            self._now += seconds

    def sleep(self, seconds: float) -> None:
        self.advance(seconds)

    async def async_sleep(self, seconds: float) -> None:
        self.advance(seconds)

    def wait_for_read(self, after: int, stop: threading.Event, bound_s: float = 5.0) -> bool:
        """Block until the clock was read more than ``after`` times; False when ``stop`` is
        set first, or after ``bound_s`` real seconds (a bound on waiting for code that never
        looks, not a measurement)."""
        for _ in range(int(bound_s / 0.05)):
            if stop.is_set():
                return False
            with self._changed:
                if self._changed.wait_for(lambda: self._reads > after, timeout=0.05):
                    return True
        return False


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    """An asyncio loop whose clock is a ``VirtualClock``: its timers (``anyio.fail_after``,
    ``asyncio.timeout``) fire at the first turn of the loop at or after their virtual time."""

    def __init__(self, clock: VirtualClock) -> None:
        super().__init__()
        self._virtual = clock

    def time(self) -> float:
        return self._virtual.now()
