"""SIGTERM is Ctrl-C: ``timeout``, a cancelled CI job and ``docker stop`` end a long command the
way an interrupt does (clean-up, reports, the exit code of Ctrl-C), never by killing it.

Signal handlers are process state, so they are installed here, in the CLI layer only, for the
time of one command, and the previous handler is restored after.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

__all__ = ["TerminateSignal", "sigterm_as_interrupt"]


class TerminateSignal:
    """What the handler saw: ``received`` is True once a SIGTERM came."""

    name = "SIGTERM"

    def __init__(self) -> None:
        self.received = False


@contextmanager
def sigterm_as_interrupt(
    on_terminate: Callable[[str], None] | None = None,
) -> Iterator[TerminateSignal]:
    """While the block runs, the first SIGTERM does what Ctrl-C does.

    With ``on_terminate``, it is called with the signal's name (a run that then stops itself
    in order: see :class:`~modelarts_kit_contracts.server.run.Interruption`); without, a
    ``KeyboardInterrupt`` is raised where the main thread is. Later SIGTERMs are ignored, so
    they cannot cut the (bounded) clean-up the first one started.
    """
    seen = TerminateSignal()
    if threading.current_thread() is not threading.main_thread():
        yield seen  # only the main thread may install handlers
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        if seen.received:
            return
        seen.received = True
        if on_terminate is None:
            raise KeyboardInterrupt(seen.name)
        on_terminate(seen.name)

    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield seen
    finally:
        signal.signal(signal.SIGTERM, previous)
