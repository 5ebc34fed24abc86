"""The nesting bound of decode_wire_json holds for a body decoded again and again."""

from __future__ import annotations

import json

import pytest
from modelarts_kit_wire import wirejson
from modelarts_kit_wire.wirejson import WireJsonError, decode_wire_json


def _nested(depth: int, width: int = 70) -> bytes:
    """``depth`` levels of lists, with enough siblings to pass the cheap count of openers."""
    return json.dumps(
        {"wide": [[] for _ in range(width)], "deep": json.loads("[" * depth + "]" * depth)}
    ).encode()


def test_a_body_within_one_depth_is_refused_at_a_smaller_depth_every_time() -> None:
    body = _nested(10)
    for _ in range(3):
        assert decode_wire_json(body, max_depth=64)["deep"] is not None
    for _ in range(3):
        with pytest.raises(WireJsonError, match="nested deeper than 5 levels"):
            decode_wire_json(body, max_depth=5)


def test_a_body_too_deep_is_refused_every_time_and_never_remembered() -> None:
    body = _nested(80)
    for _ in range(3):
        with pytest.raises(WireJsonError, match="nested deeper than 64 levels"):
            decode_wire_json(body)
    assert (body, 64) not in wirejson._NESTED_WITHIN


def test_the_memo_of_bodies_within_the_depth_stays_bounded() -> None:
    for n in range(wirejson.NESTED_WITHIN_MEMO + 5):
        decode_wire_json(_nested(3, width=70 + n))
    assert len(wirejson._NESTED_WITHIN) <= wirejson.NESTED_WITHIN_MEMO
    last = _nested(3, width=70 + wirejson.NESTED_WITHIN_MEMO + 4)
    assert (last, 64) in wirejson._NESTED_WITHIN  # the latest stays; the earliest went
    assert (_nested(3, width=70), 64) not in wirejson._NESTED_WITHIN
    large = _nested(3, width=wirejson.NESTED_WITHIN_MAX_BYTES // 2)  # beyond the size kept
    decode_wire_json(large)
    assert (large, 64) not in wirejson._NESTED_WITHIN
