"""ASGI plumbing shared by the mock and the proxy: one HTTP exchange as wire values."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from modelarts_kit_spec.wirejson import MAX_WIRE_JSON_BYTES

from modelarts_kit_contracts.core.wire import Headers, WireRequest, WireResponse

__all__ = ["ASGIReceive", "ASGISend", "WireHandler", "serve_asgi"]

ASGIReceive = Callable[[], Awaitable[MutableMapping[str, Any]]]
ASGISend = Callable[[MutableMapping[str, Any]], Awaitable[None]]
WireHandler = Callable[[WireRequest], Awaitable[WireResponse]]


async def serve_asgi(
    scope: MutableMapping[str, Any],
    receive: ASGIReceive,
    send: ASGISend,
    handler: WireHandler,
    on_shutdown: Callable[[], Awaitable[None]] | None = None,
    max_body_bytes: int = MAX_WIRE_JSON_BYTES,
) -> None:
    """Run one ASGI connection: read the request, answer with ``handler``'s response.

    At most ``max_body_bytes`` + 1 bytes of the body are read (a hostile client cannot make
    the process buffer a gigabyte): beyond, the request reaches ``handler`` marked
    ``truncated``, its checks refuse the body as larger than the cap.

    Lifespan events are acknowledged (``on_shutdown`` runs at shutdown); other scope types are
    ignored. Header names go out in lower case, as ASGI requires.
    """
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                if on_shutdown is not None:
                    await on_shutdown()
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["type"] != "http":
        return
    body = bytearray()
    truncated = False
    while True:
        message = await receive()
        body += message.get("body", b"")
        if len(body) > max_body_bytes:
            del body[max_body_bytes + 1 :]
            truncated = True
            break
        if not message.get("more_body", False):
            break
    raw_path = (scope.get("raw_path") or scope["path"].encode("utf-8")).decode("latin-1")
    request = WireRequest(
        method=scope["method"],
        path=raw_path.split("?", 1)[0],
        headers=Headers(
            (k.decode("latin-1"), v.decode("latin-1")) for k, v in scope.get("headers", [])
        ),
        body=bytes(body),
        query=scope.get("query_string", b"").decode("latin-1"),
        truncated=truncated,
    )
    answer = await handler(request)
    await send(
        {
            "type": "http.response.start",
            "status": answer.status,
            "headers": [
                (k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in answer.headers.items
            ],
        }
    )
    await send({"type": "http.response.body", "body": answer.body})
