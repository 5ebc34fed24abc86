"""Serving the ASGI app over real HTTP with uvicorn: in a background thread, or in the foreground.

:func:`serve_in_thread` binds the socket itself (``port=0`` picks a free port), so the URL is
known before uvicorn starts, and it waits for uvicorn to be ready and to stop. Pass ``app`` to
serve an already-built (or wrapped) app instead of one built from ``settings``.

Logging: uvicorn's own messages go to the ``uvicorn.error`` logger. A connection the server
drops on purpose (``--faults drop=RATE``) is not a crash: the app logs one line for it and
:class:`DeliberateDropFilter` keeps uvicorn from adding its "Exception in ASGI application"
traceback. The embedded server (:func:`serve_in_thread`, what ``contract server --http`` and
the tests run) logs uvicorn's messages from ``error`` up: its clients send malformed requests on
purpose (schemathesis probes whether a NUL byte in a header gets through; uvicorn answers 400
and would log "Invalid HTTP request received." at warning level into the kit's output).
"""

from __future__ import annotations

import asyncio
import logging
import signal
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

import uvicorn
from modelarts_kit_wire.threads import running_in_thread
from uvicorn.protocols.http.h11_impl import H11Protocol

from modelarts_kit_server.app import ASGIApp, ConnectionDropped, ReferenceServer, create_app
from modelarts_kit_server.errors import ConfigError, ServerError
from modelarts_kit_server.settings import ServerSettings

__all__ = [
    "DEFAULT_HEADER_TIMEOUT_S",
    "DeliberateDropFilter",
    "HeaderDeadlineProtocol",
    "bind_socket",
    "serve_in_thread",
    "uvicorn_server",
]

STARTUP_TIMEOUT_S = 10.0
SHUTDOWN_TIMEOUT_S = 10.0
EMBEDDED_LOG_LEVEL = "error"
# How long a connection may take to send a request's headers (after connecting, or after
# the previous response): far above any real client, far below holding sockets for minutes.
DEFAULT_HEADER_TIMEOUT_S = 10.0
MAX_HEADER_TIMEOUT_S = 3600.0


def bind_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (``port=0``: a free one)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # proto must be IPPROTO_TCP explicitly: asyncio only disables Nagle (TCP_NODELAY) on
    # accepted sockets whose proto says TCP; with proto 0 every keep-alive response waits
    # ~40 ms for a delayed ACK.
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.listen(512)
    sock.set_inheritable(True)
    return sock


def base_url(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


class StoppableServer(uvicorn.Server):
    """uvicorn, but SIGINT/SIGTERM end ``run`` normally (exit 0) instead of being re-raised."""

    @contextmanager
    def capture_signals(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield
            return

        def stop(signum: int, frame: FrameType | None) -> None:
            self.force_exit = self.should_exit  # a second signal skips the graceful wait
            self.should_exit = True

        previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


class DeliberateDropFilter(logging.Filter):
    """Drops uvicorn's crash report for :class:`ConnectionDropped` (a fault, logged by the app)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and isinstance(record.exc_info[1], ConnectionDropped))


class HeaderDeadlineProtocol(H11Protocol):
    """uvicorn's h11 protocol, closing a connection whose request headers are not all in
    within :attr:`header_timeout_s` of connecting or of the previous response.

    uvicorn's ``timeout_keep_alive`` only covers an idle connection between requests: a
    client that connects and sends nothing, or trickles a header, held its socket forever
    (slowloris). A new request cycle is what complete headers start, so the deadline checks
    that the cycle changed since it was armed; a slow handler is never cut off by it.
    """

    header_timeout_s = DEFAULT_HEADER_TIMEOUT_S
    _header_deadline: asyncio.TimerHandle | None = None
    _cycle_when_armed: object = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_header_deadline()

    def on_response_complete(self) -> None:
        self._arm_header_deadline()  # first: the base class may start a pipelined request
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm_header_deadline()
        super().connection_lost(exc)

    def _arm_header_deadline(self) -> None:
        self._disarm_header_deadline()
        self._cycle_when_armed = self.cycle
        self._header_deadline = self.loop.call_later(
            self.header_timeout_s, self._header_deadline_passed
        )

    def _disarm_header_deadline(self) -> None:
        if self._header_deadline is not None:
            self._header_deadline.cancel()
            self._header_deadline = None

    def _header_deadline_passed(self) -> None:
        self._header_deadline = None
        if self.cycle is self._cycle_when_armed and not self.transport.is_closing():
            self.transport.close()


def check_header_timeout(timeout_s: float) -> None:
    if not 0 < timeout_s <= MAX_HEADER_TIMEOUT_S:
        raise ConfigError(
            f"--header-timeout must be > 0 and <= {MAX_HEADER_TIMEOUT_S:g} seconds, "
            f"got {timeout_s!r}"
        )


def header_deadline_protocol(timeout_s: float) -> type[HeaderDeadlineProtocol]:
    """The protocol class with its header timeout set (uvicorn instantiates it per connection)."""
    check_header_timeout(timeout_s)

    class Configured(HeaderDeadlineProtocol):
        header_timeout_s = timeout_s

    return Configured


def uvicorn_server(
    app: ASGIApp | Any,
    *,
    log_level: str = "warning",
    header_timeout_s: float = DEFAULT_HEADER_TIMEOUT_S,
) -> uvicorn.Server:
    """uvicorn serving ``app`` over h11, closing connections whose headers take longer than
    ``header_timeout_s`` seconds."""
    config = uvicorn.Config(
        app,
        http=header_deadline_protocol(header_timeout_s),
        lifespan="off",
        log_level=log_level,
        access_log=False,
        timeout_graceful_shutdown=2,
    )
    # After Config: it (re)configures uvicorn's loggers, keeping filters already there.
    uvicorn_logger = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, DeliberateDropFilter) for f in uvicorn_logger.filters):
        uvicorn_logger.addFilter(DeliberateDropFilter())
    return StoppableServer(config)


@contextmanager
def serve_in_thread(
    settings: ServerSettings | None = None,
    host: str = "127.0.0.1",
    port: int = 0,
    *,
    app: ASGIApp | None = None,
    log_level: str = EMBEDDED_LOG_LEVEL,
    header_timeout_s: float = DEFAULT_HEADER_TIMEOUT_S,
) -> Iterator[str]:
    """Serve the reference server on real HTTP in a thread; yields its base URL.

    ``log_level`` is uvicorn's (default ``error``: see the module's notes on logging).
    ``header_timeout_s``: a connection whose request headers take longer is closed.

    On exit the server stops (in-flight requests finish) and an app this function built is
    closed (its in-memory store is discarded; a ``db_path`` store stays on disk).
    """
    check_header_timeout(header_timeout_s)  # before anything is built that needs closing
    owned: ReferenceServer | None = None
    if app is None:
        owned = create_app(settings)
        app = owned
    sock = bind_socket(host, port)
    server = uvicorn_server(app, log_level=log_level, header_timeout_s=header_timeout_s)
    try:
        with running_in_thread(
            server,
            name="modelarts-kit-serve",
            sockets=[sock],
            not_started=lambda: ServerError("the reference server did not start"),
            startup_timeout_s=STARTUP_TIMEOUT_S,
            shutdown_timeout_s=SHUTDOWN_TIMEOUT_S,
        ):
            yield base_url(sock)
    finally:
        sock.close()
        if owned is not None:
            owned.close()
