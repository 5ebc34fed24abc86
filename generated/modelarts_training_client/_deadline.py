"""The synchronous client's deadline inside the network: httpcore's backend, with every
connect, TLS handshake, read and write of a call capped at the time that call has left.

httpcore restarts its read timeout on every read, so a server trickling the status line a
byte at a time would otherwise hold a call forever. Loaded when the first client is made
(which loads httpcore anyway), not when the package is imported."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import httpcore
import httpx

from ._http import CALL_END

__all__ = ["DeadlineBackend", "DeadlineStream", "bound_network", "within_deadline"]

_Result = TypeVar("_Result")


def within_deadline(wait: Callable[[float | None], _Result], timeout: float | None) -> _Result:
    """Run one network wait with ``timeout`` capped at the time left of the current call;
    ``TimeoutError`` when the call's deadline (not the wait's own timeout) ends it."""
    deadline = CALL_END.get()
    left = math.inf if deadline is None else deadline.remaining()
    if left <= 0:
        raise TimeoutError("the call's deadline has passed")
    capped = timeout is None or left < timeout
    try:
        return wait(None if left == math.inf else left if capped else timeout)
    except httpcore.TimeoutException:
        if capped and left != math.inf:
            raise TimeoutError("the call's deadline has passed") from None
        raise


class DeadlineStream(httpcore.NetworkStream):
    """A connection whose every wait ends at the current call's deadline."""

    def __init__(self, stream: httpcore.NetworkStream) -> None:
        self._stream = stream

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return within_deadline(lambda left: self._stream.read(max_bytes, left), timeout)

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        within_deadline(lambda left: self._stream.write(buffer, left), timeout)

    def close(self) -> None:
        self._stream.close()

    def start_tls(
        self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.NetworkStream:
        return DeadlineStream(
            within_deadline(
                lambda left: self._stream.start_tls(ssl_context, server_hostname, left), timeout
            )
        )

    def get_extra_info(self, info: str) -> Any:
        return self._stream.get_extra_info(info)


class DeadlineBackend(httpcore.NetworkBackend):
    """httpcore's network backend, with every connection bounded by the call's deadline."""

    def __init__(self, backend: httpcore.NetworkBackend) -> None:
        self._backend = backend

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        def connect(left: float | None) -> httpcore.NetworkStream:
            return self._backend.connect_tcp(host, port, left, local_address, socket_options)

        return DeadlineStream(within_deadline(connect, timeout))

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.NetworkStream:
        def connect(left: float | None) -> httpcore.NetworkStream:
            return self._backend.connect_unix_socket(path, left, socket_options)

        return DeadlineStream(within_deadline(connect, timeout))

    def sleep(self, seconds: float) -> None:
        self._backend.sleep(seconds)


def bound_network(http: httpx.Client | httpx.AsyncClient) -> None:
    """Bound every network wait of ``http``'s ``httpx.HTTPTransport``s (its own transport and
    the proxy mounts) by the deadline of the synchronous call in progress; outside a call of
    this client nothing changes. Other transports are left alone."""
    transports = [getattr(http, "_transport", None), *getattr(http, "_mounts", {}).values()]
    for transport in transports:
        pool = getattr(transport, "_pool", None)
        backend = getattr(pool, "_network_backend", None)
        if (
            isinstance(transport, httpx.HTTPTransport)
            and isinstance(backend, httpcore.NetworkBackend)
            and not isinstance(backend, DeadlineBackend)
        ):
            pool._network_backend = DeadlineBackend(backend)  # type: ignore[union-attr]
