"""``contract proxy`` between a client and an upstream answering hostile bytes: transparent,
bounded, and its findings say why.

Before: header bytes were decoded and re-encoded (UTF-8-looking obs-text changed on the way,
a request header with a 0x80-0xFF byte crashed the forward with UnicodeEncodeError), an
upstream answer was buffered whole whatever its size, and a gzip answer was inflated whole.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import httpx
from modelarts_kit_contracts.core import Finding
from modelarts_kit_contracts.mock.serving import serve_in_thread as serve_app
from modelarts_kit_contracts.proxy import ValidatingProxy
from modelarts_kit_spec.wirejson import MAX_WIRE_JSON_BYTES

from tests.contracts import hostile

PROJECT = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
SHOW = f"/v2/{PROJECT}/training-jobs/3faf7e3b-1d5c-4e2e-9a3b-7f6d2c1b0a99"
ERROR = b'{"error_code": "ModelArts.2775", "error_msg": "no such job"}'


@contextmanager
def proxied(answer: hostile.Answer) -> Iterator[tuple[str, ValidatingProxy, list[Finding]]]:
    seen: list[Finding] = []
    with hostile.raw_server(answer) as upstream:
        proxy = ValidatingProxy(upstream, on_violation=seen.append, timeout_s=20)
        with serve_app(proxy) as url:
            yield url, proxy, seen


def test_header_bytes_pass_unchanged_both_ways() -> None:
    heads: list[bytes] = []
    weird = b"\xe2\x82\xac \xc3\xa9 \xe9\xb2"  # UTF-8-looking and not: obs-text all the same
    answer = hostile.fixed(400, ERROR, [(b"X-Weird", weird)])

    def recording(request_head: bytes) -> list[bytes]:
        heads.append(request_head)
        return list(answer(request_head))

    with proxied(recording) as (url, proxy, _):
        got = httpx.get(url + SHOW, headers=[(b"X-Auth-Token", b"t"), (b"X-Client", b"\xe9\xff")])
    assert got.status_code == 400
    assert (b"x-weird", weird) in got.headers.raw  # ASGI lowercases names; bytes kept
    assert len(heads) == 1
    assert b"\r\nx-client: \xe9\xff" in heads[0].lower()
    assert proxy.finish().errors == []


def test_a_deep_answer_is_forwarded_and_named() -> None:
    body = b'{"error_code": ' + hostile.DEEP + b"}"
    with proxied(hostile.fixed(400, body)) as (url, proxy, seen):
        got = httpx.get(url + SHOW, headers={"X-Auth-Token": "t"})
    assert got.status_code == 400
    assert got.content == body  # transparent
    assert any("nested deeper than 64 levels" in f.got for f in seen), seen
    assert proxy.finish().errors == []


def test_an_answer_above_the_cap_is_not_buffered() -> None:
    with proxied(hostile.huge(total=2 * MAX_WIRE_JSON_BYTES)) as (url, proxy, _):
        got = httpx.get(url + SHOW, headers={"X-Auth-Token": "t"}, timeout=20)
    assert got.status_code == 502
    errors = proxy.finish().errors
    assert len(errors) == 1
    assert f"larger than {MAX_WIRE_JSON_BYTES} bytes" in errors[0]


def test_a_gzip_bomb_is_forwarded_compressed_and_inflated_only_to_the_cap() -> None:
    bomb = hostile.gzip_bomb(4 * MAX_WIRE_JSON_BYTES)
    with (
        proxied(hostile.gzipped(200, bomb)) as (url, proxy, seen),
        httpx.stream("GET", url + SHOW, headers={"X-Auth-Token": "t"}, timeout=20) as got,
    ):
        raw = b"".join(got.iter_raw())
    assert raw == bomb  # still compressed, byte for byte
    assert any("inflates (gzip) to more than the cap" in f.got for f in seen), seen
    assert proxy.finish().errors == []


def test_a_request_above_the_cap_is_refused_not_forwarded() -> None:
    heads: list[bytes] = []

    def recording(request_head: bytes) -> list[bytes]:
        heads.append(request_head)
        return list(hostile.fixed(400, ERROR)(request_head))

    body = b'{"action_type": "' + b"x" * (MAX_WIRE_JSON_BYTES + 1024**2) + b'"}'
    with proxied(recording) as (url, proxy, seen):
        try:
            got = httpx.post(url + SHOW + "/actions", content=body, timeout=20)
        except httpx.TransportError:  # the proxy may close before the whole body is sent
            got = None
    assert heads == []  # nothing forwarded
    assert got is None or got.status_code == 413
    assert any(f"larger than the cap of {MAX_WIRE_JSON_BYTES} bytes" in f.got for f in seen), seen
    assert proxy.finish().errors == []
