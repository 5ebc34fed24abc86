"""The wire layer runs a server in a thread: started within a deadline, stopped on exit."""

from __future__ import annotations

import socket
import threading
import time

import pytest
from modelarts_kit_wire.threads import running_in_thread


class FakeServer:
    """Starts (or not) and runs until told to exit, as uvicorn's Server does (bounded)."""

    def __init__(self, starts: bool) -> None:
        self.starts = starts
        self.started = False
        self.should_exit = False
        self.ran_in = ""

    def run(self, sockets: list[socket.socket] | None = None) -> None:
        self.ran_in = threading.current_thread().name
        if not self.starts:
            return  # e.g. the address could not be bound
        self.started = True
        deadline = time.monotonic() + 10
        while not self.should_exit and time.monotonic() < deadline:
            time.sleep(0.005)


def test_the_server_runs_in_a_named_thread_and_is_stopped_on_exit() -> None:
    server = FakeServer(starts=True)
    with running_in_thread(server, name="wire-test", not_started=lambda: OSError("no")):
        assert server.started
        assert server.ran_in == "wire-test"
    assert server.should_exit


def test_a_server_that_does_not_start_raises_the_callers_error() -> None:
    server = FakeServer(starts=False)
    with (
        pytest.raises(OSError, match="did not start"),
        running_in_thread(server, name="wire-test", not_started=lambda: OSError("did not start")),
    ):
        pass
    assert server.should_exit
