"""How a scenario waits: it yields the time it waits for, and the run goes on meanwhile.

A scenario that needs time to pass (a job's phases spread over seconds, a terminated job
reaching its final phase) is a generator: ``yield until(seconds)`` parks it, the runner runs
the next scenarios, and resumes it, between two of them, once the time has come. A scenario
that never waits is a plain function. Scenarios never run at once: one is resumed only
between two others, so no scenario sees another's requests in the middle of its own.

Waits are on the target's timeline (``probe.timeline``): the wall clock, or on the embedded
server its own clock, which a wait moves forward instead of sleeping.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from typing import Generic, TypeAlias, TypeVar

from modelarts_kit_contracts.server.timeline import WALL_TIMELINE, Timeline

__all__ = ["POLL_S", "Parked", "ScenarioSteps", "Until", "run_to_end", "until"]

POLL_S = 0.05  # how soon a scenario waiting on a job's phase asks again


@dataclass(frozen=True)
class Until:
    """A scenario's wait: resume it once its target's timeline reaches ``at``."""

    at: float


T = TypeVar("T")

# What a waiting scenario (or a step it shares with others) is: it yields its waits.
ScenarioSteps: TypeAlias = Generator[Until, None, T]


def until(timeline: Timeline, seconds: float) -> Until:
    """The wait for ``seconds`` from now on ``timeline``."""
    return Until(timeline.now() + max(0.0, seconds))


def run_to_end(steps: Iterator[Until] | None, timeline: Timeline = WALL_TIMELINE) -> None:
    """Run a scenario to its end on its own, waiting through each of its waits on
    ``timeline`` (its probe's)."""
    for wait in steps or ():
        timeline.wait(wait.at - timeline.now())


@dataclass
class Parked(Generic[T]):
    """The scenarios waiting, earliest first (ties: the first parked first), each with what
    the runner keeps for it (its name and its request sequence)."""

    _heap: list[tuple[float, int, Iterator[Until], T]] = field(default_factory=list)
    _order: Iterator[int] = field(default_factory=itertools.count)

    def __len__(self) -> int:
        return len(self._heap)

    def park(self, wait: Until, steps: Iterator[Until], kept: T) -> None:
        heapq.heappush(self._heap, (wait.at, next(self._order), steps, kept))

    def next_due(self) -> float:
        """When the earliest waiting scenario may resume (on the target's timeline)."""
        return self._heap[0][0]

    def take_due(self, now: float) -> list[tuple[Iterator[Until], T]]:
        """The scenarios whose time has come, in the order they are due; they leave."""
        due: list[tuple[Iterator[Until], T]] = []
        while self._heap and self._heap[0][0] <= now:
            _, _, steps, kept = heapq.heappop(self._heap)
            due.append((steps, kept))
        return due
