"""Serving helpers: run an ASGI app (the mock, the proxy) with uvicorn on loopback."""

from __future__ import annotations

import contextlib
import signal
import socket
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from types import FrameType
from typing import TYPE_CHECKING, Literal

from modelarts_kit_wire.threads import running_in_thread

__all__ = ["listening_socket", "run_until_stopped", "serve_in_thread"]

if TYPE_CHECKING:
    import uvicorn


def _config(
    app: Callable[..., Awaitable[None]], host: str, port: int, *, lifespan: Literal["on", "off"]
) -> uvicorn.Config:
    """uvicorn's configuration for the mock and the proxy (uvicorn is imported on first use)."""
    import uvicorn

    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        lifespan=lifespan,
        # A proxy must not add headers the upstream did not send.
        server_header=False,
        date_header=False,
    )


@contextlib.contextmanager
def serve_in_thread(
    app: Callable[..., Awaitable[None]], host: str = "127.0.0.1", port: int = 0
) -> Iterator[str]:
    """Serve an ASGI ``app`` with uvicorn in a daemon thread; yields its base URL."""
    import uvicorn

    server = uvicorn.Server(_config(app, host, port, lifespan="off"))

    def not_started() -> OSError:
        return OSError(f"cannot serve on {host}:{port}")

    with running_in_thread(server, name="modelarts-kit-mock", not_started=not_started):
        bound = server.servers[0].sockets[0].getsockname()
        yield f"http://{host}:{bound[1]}"


def listening_socket(host: str, port: int) -> socket.socket:
    """The address bound and listening, before any costly preparation (a busy port fails in
    milliseconds, not after the mock has drawn its answers); ``run_until_stopped`` serves on
    it. Raises OSError naming the address when it cannot be bound."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        sock.bind((host, port))
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        raise OSError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None
    sock.set_inheritable(True)
    return sock


def run_until_stopped(
    app: Callable[..., Awaitable[None]],
    *,
    host: str,
    port: int,
    on_started: Callable[[str], None],
    should_stop: Callable[[], bool] = lambda: False,
    max_time_s: float | None = None,
    sock: socket.socket | None = None,
) -> None:
    """Serve ``app`` in the calling thread until SIGINT/SIGTERM, ``should_stop()`` or the time;
    on ``sock`` when given (see :func:`listening_socket`), else on ``host:port``.

    Raises OSError when the address cannot be bound.
    """
    import uvicorn

    class OrderlyStop(uvicorn.Server):
        # uvicorn re-raises SIGINT/SIGTERM after shutting down, which would kill the process
        # before the caller writes its report: here a signal is an orderly end of the run.
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            if self.should_exit and sig == signal.SIGINT:
                self.force_exit = True
            self.should_exit = True

    server = OrderlyStop(_config(app, host, port, lifespan="on"))
    stop_at = None if max_time_s is None else time.monotonic() + max_time_s

    def watch() -> None:
        announced = False
        while not server.should_exit:
            if server.started and not announced:
                bound = server.servers[0].sockets[0].getsockname()
                on_started(f"http://{host}:{bound[1]}")
                announced = True
            if should_stop() or (stop_at is not None and time.monotonic() >= stop_at):
                server.should_exit = True
                return
            time.sleep(0.02)

    watcher = threading.Thread(target=watch, name="modelarts-kit-watch", daemon=True)
    watcher.start()
    try:
        server.run(sockets=[sock] if sock is not None else None)
    except SystemExit as exc:  # uvicorn exits when it cannot bind
        raise OSError(f"cannot serve on {host}:{port} (uvicorn exited with {exc.code})") from exc
    finally:
        server.should_exit = True
        watcher.join(timeout=5)
    if not server.started:
        raise OSError(f"cannot serve on {host}:{port}")
