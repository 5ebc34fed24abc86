"""ASGI plumbing: the types, a request body read under a byte cap, lifespan events answered,
and the mark of an app any thread's event loop may run."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "RUNS_ON_ANY_LOOP",
    "ASGIApp",
    "Message",
    "Receive",
    "RequestBody",
    "Scope",
    "Send",
    "answer_lifespan",
    "read_body",
    "runs_on_any_loop",
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# The attribute an app sets to True when it holds no state bound to one event loop and needs
# no lifespan events: an in-process client may then run each request on the calling thread's
# own loop instead of handing it to one shared event-loop thread.
RUNS_ON_ANY_LOOP = "modelarts_kit_runs_on_any_loop"


def runs_on_any_loop(app: object) -> bool:
    """Whether ``app`` says any thread's event loop may run it (:data:`RUNS_ON_ANY_LOOP`)."""
    return getattr(app, RUNS_ON_ANY_LOOP, False) is True


@dataclass(frozen=True)
class RequestBody:
    """A request body as read: ``exceeded`` when the client sent more than the cap, and then
    ``data`` holds only its first ``max_bytes + 1`` bytes (the rest is left unread)."""

    data: bytes
    exceeded: bool


async def read_body(receive: Receive, max_bytes: int) -> RequestBody:
    """Read the body of one request, stopping as soon as it passes ``max_bytes`` (a hostile
    client cannot make the process buffer more than one chunk beyond the cap)."""
    body = bytearray()
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        body += message.get("body", b"")
        if len(body) > max_bytes:
            del body[max_bytes + 1 :]
            return RequestBody(bytes(body), exceeded=True)
        if not message.get("more_body", False):
            break
    return RequestBody(bytes(body), exceeded=False)


async def answer_lifespan(
    receive: Receive, send: Send, on_shutdown: Callable[[], Awaitable[None]] | None = None
) -> None:
    """Acknowledge startup and shutdown (``on_shutdown`` runs first); returns at shutdown."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            if on_shutdown is not None:
                await on_shutdown()
            await send({"type": "lifespan.shutdown.complete"})
            return
