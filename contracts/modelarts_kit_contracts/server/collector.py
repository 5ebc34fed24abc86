"""The cyclic garbage collector during a run, and while its report is rendered.

The phases make many objects that live long enough to reach the oldest generation (the
cases, what hypothesis keeps alive), and every full pass walks all of them, and the run's
whole setup (the imports, the spec, its envelopes and schema model, the compiled validators)
with them. From the run's first request the setup is frozen out of those passes, and before
each engine run what is alive by then (what the preflight, the scenarios and the valid run
left: the invalid run's passes walked the valid run's survivors, about 0.25 s of a default
run, for 5 MB more at peak); during the phases the passes are rarer; after the run the
collector is as it was. The report is rendered with the
run's objects frozen the same way. A process that tuned its collector itself is left alone.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager

__all__ = [
    "PHASES_OLDEST_THRESHOLD",
    "PYTHON_THRESHOLDS",
    "frozen",
    "full_passes_rarer",
]


@contextmanager
def frozen() -> Iterator[Callable[[], None]]:
    """The objects alive now kept out of the cyclic collector's passes until the block ends,
    then returned to it: a pass in the block walks only what the block made. What it gives
    freezes the objects alive by then too. A process that froze objects of its own is left
    as it is (what it gives then does nothing)."""
    if gc.get_freeze_count():
        yield _left_as_it_is
        return
    gc.freeze()
    try:
        yield gc.freeze
    finally:
        gc.unfreeze()


def _left_as_it_is() -> None:
    """Freezes nothing: the process froze objects of its own."""


# Python's own thresholds, and the oldest generation's during the phases: the cases and what
# hypothesis keeps alive reach the oldest generation, and each full pass walks all of them
# (a default run: about 7% less CPU at 100 than at 10, for 18 MB more at peak).
PYTHON_THRESHOLDS = (700, 10, 10)
PHASES_OLDEST_THRESHOLD = 100


@contextmanager
def full_passes_rarer() -> Iterator[None]:
    """Full collections ten times rarer during the phases, Python's thresholds back after. A
    process that set thresholds of its own is left as it is."""
    if gc.get_threshold() != PYTHON_THRESHOLDS:
        yield
        return
    young, middle, _ = PYTHON_THRESHOLDS
    gc.set_threshold(young, middle, PHASES_OLDEST_THRESHOLD)
    try:
        yield
    finally:
        gc.set_threshold(*PYTHON_THRESHOLDS)
