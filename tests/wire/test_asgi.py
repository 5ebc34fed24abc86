"""The wire layer's ASGI plumbing: a request body under a cap, lifespan events."""

from __future__ import annotations

from modelarts_kit_wire.asgi import Message, answer_lifespan, read_body


class Messages:
    """An ASGI ``receive`` over a fixed list of messages, counting how many were pulled."""

    def __init__(self, *messages: Message) -> None:
        self._messages = list(messages)
        self.pulled = 0

    async def __call__(self) -> Message:
        self.pulled += 1
        return self._messages.pop(0)


def chunk(data: bytes, more: bool) -> Message:
    return {"type": "http.request", "body": data, "more_body": more}


async def test_a_body_within_the_cap_is_read_whole_across_chunks() -> None:
    receive = Messages(chunk(b"abc", True), chunk(b"def", False))
    body = await read_body(receive, max_bytes=6)
    assert (body.data, body.exceeded) == (b"abcdef", False)


async def test_a_body_past_the_cap_stops_at_the_first_chunk_beyond_it() -> None:
    receive = Messages(chunk(b"abcd", True), chunk(b"efgh", True), chunk(b"ijkl", False))
    body = await read_body(receive, max_bytes=5)
    assert (body.data, body.exceeded) == (b"abcdef", True)  # max_bytes + 1 bytes kept
    assert receive.pulled == 2  # the rest is left unread


async def test_a_disconnect_ends_the_body() -> None:
    receive = Messages(chunk(b"ab", True), {"type": "http.disconnect"})
    body = await read_body(receive, max_bytes=10)
    assert (body.data, body.exceeded) == (b"ab", False)


async def test_lifespan_is_acknowledged_and_shutdown_runs_first() -> None:
    sent: list[str] = []

    async def send(message: Message) -> None:
        sent.append(message["type"])

    async def on_shutdown() -> None:
        sent.append("on_shutdown")

    receive = Messages({"type": "lifespan.startup"}, {"type": "lifespan.shutdown"})
    await answer_lifespan(receive, send, on_shutdown)
    assert sent == ["lifespan.startup.complete", "on_shutdown", "lifespan.shutdown.complete"]
