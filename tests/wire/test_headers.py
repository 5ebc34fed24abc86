"""The wire layer's headers: case-insensitive and multi-valued, latin-1 both ways, and no
credential value in a ``repr``."""

from __future__ import annotations

from modelarts_kit_wire.headers import Headers, asgi_headers
from modelarts_kit_wire.redaction import REDACTED, SECRET_HEADERS, is_secret_header

SECRET = "s3cr3t-value-1234"


def test_headers_from_asgi_keep_order_repeats_and_obs_text_bytes() -> None:
    raw = [(b"x-thing", b"one"), (b"X-Other", b"caf\xe9"), (b"x-thing", b"two")]
    headers = Headers.from_asgi(raw)
    assert headers.get_all("X-THING") == ["one", "two"]
    assert headers.get("x-other") == "caf\xe9"
    assert [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers.items] == raw


def test_asgi_headers_are_lower_case_latin_1_bytes() -> None:
    pairs = asgi_headers([("Content-Type", "application/json"), ("X-Note", "caf\xe9")])
    assert pairs == [(b"content-type", b"application/json"), (b"x-note", b"caf\xe9")]


def test_no_credential_header_value_shows_in_a_repr() -> None:
    for name in SECRET_HEADERS:
        for spelled in (name, name.upper(), name.title()):
            assert is_secret_header(spelled)
            shown = repr(Headers([(spelled, SECRET), ("x-request-id", "r-1")]))
            assert SECRET not in shown, spelled
            assert REDACTED in shown
            assert "r-1" in shown  # other headers stay readable
    assert not is_secret_header("content-type")
