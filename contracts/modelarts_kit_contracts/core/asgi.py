"""ASGI plumbing shared by the mock and the proxy: one HTTP exchange as wire values."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from modelarts_kit_wire.asgi import Receive, Scope, Send, answer_lifespan, read_body
from modelarts_kit_wire.headers import Headers, asgi_headers
from modelarts_kit_wire.wirejson import MAX_WIRE_JSON_BYTES

from modelarts_kit_contracts.core.wire import WireRequest, WireResponse

__all__ = ["WireHandler", "serve_asgi"]

WireHandler = Callable[[WireRequest], Awaitable[WireResponse]]


async def serve_asgi(
    scope: Scope,
    receive: Receive,
    send: Send,
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
        await answer_lifespan(receive, send, on_shutdown)
        return
    if scope["type"] != "http":
        return
    body = await read_body(receive, max_body_bytes)
    raw_path = (scope.get("raw_path") or scope["path"].encode("utf-8")).decode("latin-1")
    request = WireRequest(
        method=scope["method"],
        path=raw_path.split("?", 1)[0],
        headers=Headers.from_asgi(scope.get("headers", [])),
        body=body.data,
        query=scope.get("query_string", b"").decode("latin-1"),
        truncated=body.exceeded,
    )
    answer = await handler(request)
    await send(
        {
            "type": "http.response.start",
            "status": answer.status,
            "headers": asgi_headers(answer.headers.items),
        }
    )
    await send({"type": "http.response.body", "body": answer.body})
