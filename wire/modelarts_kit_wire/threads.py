"""Running an HTTP server (uvicorn's ``Server``) in a daemon thread for the length of a
``with`` block: started within a deadline, stopped and joined on exit."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol

__all__ = ["SHUTDOWN_TIMEOUT_S", "STARTUP_TIMEOUT_S", "ThreadedServer", "running_in_thread"]

STARTUP_TIMEOUT_S = 10.0
SHUTDOWN_TIMEOUT_S = 10.0
STARTUP_POLL_S = 0.005


class ThreadedServer(Protocol):
    """What is used of uvicorn's ``Server`` (imported by the caller, not here)."""

    started: bool
    should_exit: bool

    def run(self, sockets: list[socket.socket] | None = None) -> None: ...


@contextmanager
def running_in_thread(
    server: ThreadedServer,
    *,
    name: str,
    not_started: Callable[[], Exception],
    sockets: list[socket.socket] | None = None,
    startup_timeout_s: float = STARTUP_TIMEOUT_S,
    shutdown_timeout_s: float = SHUTDOWN_TIMEOUT_S,
) -> Iterator[None]:
    """Run ``server`` in a daemon thread named ``name`` until the block ends.

    Raises ``not_started()`` when the server has not started within ``startup_timeout_s`` or
    its thread ended first (e.g. the address could not be bound). On exit (also on failure)
    the server is told to stop and its thread is joined for up to ``shutdown_timeout_s``.
    """
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": sockets}, name=name, daemon=True
    )
    thread.start()
    try:
        deadline = time.monotonic() + startup_timeout_s
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise not_started()
            time.sleep(STARTUP_POLL_S)
        yield
    finally:
        server.should_exit = True
        thread.join(shutdown_timeout_s)
