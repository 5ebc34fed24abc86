"""An answer's body decoded once for every reader (the event collector's two observations)."""

from __future__ import annotations

from unittest import mock

from modelarts_kit_wire import wirejson
from modelarts_kit_wire.wirejson import NOT_WIRE_JSON, LazyWireJson


def test_the_body_is_decoded_once_and_only_when_read() -> None:
    with mock.patch.object(wirejson, "decode_wire_json", wraps=wirejson.decode_wire_json) as decode:
        body = LazyWireJson(b'{"error_code": "ModelArts.2762"}')
        assert decode.call_count == 0
        assert body.value == {"error_code": "ModelArts.2762"}
        assert body.value is body.value
        assert decode.call_count == 1


def test_a_body_the_decoder_refuses_is_not_json_and_null_is_none() -> None:
    assert LazyWireJson(b"{not json").value is NOT_WIRE_JSON
    assert LazyWireJson(b"[" * 100 + b"]" * 100).value is NOT_WIRE_JSON  # deeper than the cap
    assert LazyWireJson(b"null").value is None
