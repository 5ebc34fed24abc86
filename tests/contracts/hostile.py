"""A raw HTTP/1.1 server on 127.0.0.1 that answers whatever bytes a test gives it.

No framework in between: the answers may break HTTP and JSON in ways no ASGI app can produce
(obs-text header bytes, a lying Content-Length, a close mid-body, a gzip bomb, an endless body).
Every server is bounded in time: it stops with the ``with`` block, and a streaming answer stops
after ``max_stream_s``.
"""

from __future__ import annotations

import functools
import socket
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

Answer = Callable[[bytes], Iterable[bytes]]  # the request head -> the chunks to send, then close

DEEP = b"[" * 200_000 + b"]" * 200_000
GIB = 1024**3


def head(
    status: int, headers: Iterable[tuple[bytes, bytes]] = (), length: int | None = None
) -> bytes:
    lines = [b"HTTP/1.1 %d X" % status]
    lines += [name + b": " + value for name, value in headers]
    if length is not None:
        lines.append(b"Content-Length: %d" % length)
    return b"\r\n".join(lines) + b"\r\n\r\n"


def fixed(status: int, body: bytes, headers: Iterable[tuple[bytes, bytes]] = ()) -> Answer:
    """Always the same answer, with a correct Content-Length (keep-alive)."""
    every = [(b"Content-Type", b"application/json"), *headers]
    answer = head(status, every, len(body)) + body
    return lambda _request: [answer]


def huge(status: int = 200, total: int = 512 * 1024**2, chunk: int = 1 << 20) -> Answer:
    """A JSON array of ``total`` bytes, streamed (no Content-Length, then close)."""
    block = b"0," * (chunk // 2)

    def answer(_request: bytes) -> Iterator[bytes]:
        yield head(status, [(b"Content-Type", b"application/json"), (b"Connection", b"close")])
        yield b"["
        for _ in range(total // chunk):
            yield block
        yield b"0]"

    return answer


@functools.cache
def gzip_bomb(size: int = GIB) -> bytes:
    """``size`` zero bytes, gzipped (about 1 MB for 1 GiB)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    zeros = bytes(1 << 24)
    out = [packer.compress(zeros) for _ in range(size // len(zeros))]
    out.append(packer.flush())
    return b"".join(out)


def gzipped(status: int, body: bytes) -> Answer:
    headers = [(b"Content-Type", b"application/json"), (b"Content-Encoding", b"gzip")]
    answer = head(status, headers, len(body)) + body
    return lambda _request: [answer]


@contextmanager
def raw_server(answer: Answer, *, max_stream_s: float = 20.0) -> Iterator[str]:
    """Serve ``answer`` to every request on 127.0.0.1 until the block ends; yields the URL."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    stop = threading.Event()

    def read_request(conn: socket.socket, pending: bytes) -> tuple[bytes, bytes] | None:
        while b"\r\n\r\n" not in pending:
            data = conn.recv(65536)
            if not data:
                return None
            pending += data
        request_head, _, rest = pending.partition(b"\r\n\r\n")
        length = 0
        for line in request_head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":", 1)[1])
        while len(rest) < length:
            data = conn.recv(65536)
            if not data:
                return None
            rest += data
        return request_head, rest[length:]

    def handle(conn: socket.socket) -> None:
        conn.settimeout(max_stream_s)
        pending = b""
        ends = time.monotonic() + max_stream_s
        with conn:
            try:
                while not stop.is_set():
                    got = read_request(conn, pending)
                    if got is None:
                        return
                    request_head, pending = got
                    chunks = iter(answer(request_head))
                    first = next(chunks)
                    conn.sendall(first)
                    for chunk in chunks:
                        if stop.is_set() or time.monotonic() > ends:
                            return
                        conn.sendall(chunk)
                    if b"\r\nconnection: close\r\n" in first.lower():
                        return
            except OSError:
                return

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=handle, args=(conn,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        listener.close()
