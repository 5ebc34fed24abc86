"""In-process sessions: an ASGI app run on the calling thread's own event loop.

schemathesis's ASGI client builds a new ``requests.Session`` (and its adapters) for every
request of a run, and hands each request twice to one shared event-loop thread (an anyio
portal); over the two thousand requests of a default run, those hops cost more CPU than the
reference server's own work. For an app that says any thread's loop may run it
(:func:`modelarts_kit_wire.asgi.runs_on_any_loop`: the reference server), the session
``schemathesis_adapter.asgi_session`` gives mounts a :class:`CallerThreadAdapter`: each
request runs to completion on an event loop owned by the calling thread, with the wire a
server would give (the scope schemathesis's client builds, latin-1 headers, the read
timeout). Any other app keeps schemathesis's client: its single loop thread and its lifespan
events are what an app with loop-bound state (a pool, a task started at start-up) needs.

Nothing here imports schemathesis: :mod:`.schemathesis_adapter` (where every schemathesis
call is) builds the session from :class:`InProcessMixin` and schemathesis's ASGI client.
"""

from __future__ import annotations

import asyncio
import http
import http.client
import io
import threading
from collections.abc import Iterable
from typing import Any, Self, cast
from urllib.parse import unquote, urlsplit

import requests
import requests.adapters
import urllib3
from modelarts_kit_wire.asgi import ASGIApp, Message, Scope
from urllib3 import HTTPHeaderDict
from urllib3.exceptions import ReadTimeoutError

__all__ = ["CallerThreadAdapter", "InProcessMixin"]

DEFAULT_PORTS = {"http": 80, "https": 443}


class InProcessMixin(requests.Session):
    """What makes a session of schemathesis's ASGI client run each request on the calling
    thread's loop (the adapter puts the mixin first, before the client it subclasses): no
    lifespan, since an app any loop may run declares it needs none."""

    def __init__(self, app: ASGIApp) -> None:
        super().__init__(app)  # type: ignore[call-arg]  # the ASGI client's: (app)
        # Nothing leaves the process: the environment's proxies, CA bundle and .netrc mean
        # nothing here, and reading them is a third of a request's cost.
        self.trust_env = False
        self.in_thread = CallerThreadAdapter(app)
        self.mount("http://", self.in_thread)
        self.mount("https://", self.in_thread)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *args: object) -> None:
        self.close()

    @classmethod
    def like(cls, session: requests.Session, app: ASGIApp) -> Self:
        """One configured as ``session`` (its headers, credentials and cookies, as the ASGI
        transport copies them onto the client it builds per request); ``session`` is closed."""
        client = cls(app)
        client.headers.update(session.headers)
        client.auth = session.auth
        client.cookies.update(session.cookies)
        session.close()
        return client


class _OriginalResponse:
    """What ``requests`` reads cookies from (``msg.get_all``) and ``urllib3`` closes."""

    __slots__ = ("closed", "msg")

    def __init__(self, headers: list[tuple[str, str]]) -> None:
        self.msg = http.client.HTTPMessage()
        for name, value in headers:
            self.msg[name] = value  # a message's item assignment adds: repeats are kept
        self.closed = False

    def isclosed(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True


class _Exchange:
    """One request's ASGI ``receive`` and ``send``, and the answer they collected."""

    def __init__(self, body: bytes) -> None:
        self._body: bytes | None = body
        self.complete = asyncio.Event()
        self.status: int | None = None
        self.headers: list[tuple[str, str]] = []
        self.body = io.BytesIO()

    async def receive(self) -> Message:
        if self._body is not None:
            body, self._body = self._body, None
            return {"type": "http.request", "body": body, "more_body": False}
        # The whole body was read: as a server does, report the client gone once answered.
        await self.complete.wait()
        return {"type": "http.disconnect"}

    async def send(self, message: Message) -> None:
        kind = message["type"]
        if kind == "http.response.start":
            if self.status is not None:
                raise RuntimeError("the app sent http.response.start twice")
            self.status = int(message["status"])
            # Headers travel as latin-1 on the wire: the caller reads the octets a server sends.
            self.headers = [
                (name.decode("latin-1"), value.decode("latin-1"))
                for name, value in message.get("headers", [])
            ]
        elif kind == "http.response.body":
            if self.status is None:
                raise RuntimeError("the app sent http.response.body before http.response.start")
            if self.complete.is_set():
                raise RuntimeError("the app sent http.response.body after the response ended")
            self.body.write(message.get("body", b""))
            if not message.get("more_body", False):
                self.complete.set()


class CallerThreadAdapter(requests.adapters.HTTPAdapter):
    """Runs ``app`` on an event loop of the calling thread, one loop per thread, closed with
    the adapter."""

    def __init__(self, app: ASGIApp) -> None:
        super().__init__()
        self.app = app
        self._local = threading.local()
        self._loops: list[asyncio.AbstractEventLoop] = []
        self._loops_lock = threading.Lock()

    def _loop(self) -> asyncio.AbstractEventLoop:
        loop: asyncio.AbstractEventLoop | None = getattr(self._local, "loop", None)
        if loop is None or loop.is_closed():
            loop = asyncio.new_event_loop()
            self._local.loop = loop
            with self._loops_lock:
                self._loops.append(loop)
        return loop

    def close(self) -> None:
        with self._loops_lock:
            loops, self._loops = self._loops, []
        for loop in loops:
            if not loop.is_running():
                loop.close()
        super().close()

    def send(
        self,
        request: requests.PreparedRequest,
        stream: bool = False,
        timeout: Any = None,
        *args: Any,
        **kwargs: Any,
    ) -> requests.Response:
        exchange = _Exchange(_body_bytes(request.body))
        # requests passes (connect, read); without a socket only the read half means anything.
        read_timeout = timeout[1] if isinstance(timeout, tuple) else timeout
        loop = self._loop()
        served = self.app(_scope(request), exchange.receive, exchange.send)
        call: asyncio.Future[None] = asyncio.ensure_future(served, loop=loop)
        deadline = None if read_timeout is None else loop.call_later(read_timeout, call.cancel)
        try:
            loop.run_until_complete(call)
        except asyncio.CancelledError:
            url = str(request.url)
            error = ReadTimeoutError(None, url, f"Read timed out. (read timeout={read_timeout})")  # type: ignore[arg-type]
            raise requests.exceptions.ReadTimeout(error, request=request) from None
        finally:
            if deadline is not None:
                deadline.cancel()
        if exchange.status is None:
            raise RuntimeError("the app returned without a response")
        exchange.body.seek(0)
        raw = urllib3.HTTPResponse(
            body=exchange.body,
            headers=HTTPHeaderDict(exchange.headers),
            status=exchange.status,
            reason=_reason_phrase(exchange.status),
            version=11,
            preload_content=False,
            original_response=cast(Any, _OriginalResponse(exchange.headers)),
            request_method=request.method,
        )
        response = self.build_response(request, raw)
        if not stream:
            # requests would read it back through urllib3's stream at once; it is all here.
            response._content = exchange.body.getvalue()
            response._content_consumed = True
        return response


def _body_bytes(body: object) -> bytes:
    if body is None:
        return b""
    if isinstance(body, str):
        return body.encode("utf-8")
    if isinstance(body, bytes):
        return body
    if isinstance(body, bytearray | memoryview):
        return bytes(body)
    # A generator body: requests streams it; in-process it is read whole.
    chunks: Iterable[str | bytes] = body  # type: ignore[assignment]
    return b"".join(c.encode("utf-8") if isinstance(c, str) else bytes(c) for c in chunks)


def _scope(request: requests.PreparedRequest) -> Scope:
    """The ASGI HTTP scope of ``request``, as schemathesis's ASGI client builds it."""
    parts = urlsplit(str(request.url))
    scheme = parts.scheme
    host = parts.hostname or ""
    port = parts.port or DEFAULT_PORTS[scheme]
    # IPv6 literals keep their brackets in a Host header but not in the scope.
    header_host = f"[{host}]" if ":" in host else host
    headers: list[tuple[bytes, bytes]] = []
    if "host" not in request.headers:
        shown = header_host if port == DEFAULT_PORTS[scheme] else f"{header_host}:{port}"
        headers.append((b"host", shown.encode()))
    headers += [(_latin1(name).lower(), _latin1(value)) for name, value in request.headers.items()]
    return {
        "type": "http",
        "http_version": "1.1",
        "method": request.method,
        "path": unquote(parts.path),
        "raw_path": parts.path.encode(),
        "root_path": "",
        "scheme": scheme,
        "query_string": parts.query.encode(),
        "headers": headers,
        "client": ["testclient", 50000],
        "server": [host, port],
        "state": {},
    }


def _latin1(text: str | bytes) -> bytes:
    return text if isinstance(text, bytes) else text.encode("latin-1")


_PHRASES = {status.value: status.phrase for status in http.HTTPStatus}


def _reason_phrase(status: int) -> str:
    return _PHRASES.get(status, "")
