"""``contract mock`` against a hostile client: deep JSON, invalid UTF-8, obs-text header bytes.

The mock answers (no 500, no traceback) and records the violation with why. Before, a request
body nested deeply raised RecursionError inside the request check (a 500 and no finding).
"""

from __future__ import annotations

import httpx
import pytest
from modelarts_kit_contracts.mock import MockServer
from modelarts_kit_contracts.mock.serving import serve_in_thread as serve_app
from modelarts_kit_spec import load_spec
from modelarts_kit_wire.wirejson import MAX_WIRE_JSON_BYTES

from tests.contracts import hostile

PROJECT = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
ACTIONS = f"/v2/{PROJECT}/training-jobs/3faf7e3b-1d5c-4e2e-9a3b-7f6d2c1b0a99/actions"


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (hostile.DEEP, "nested deeper than 64 levels"),
        (b'{"action_type": ' + hostile.DEEP + b"}", "nested deeper than 64 levels"),
        (b'{"action_type": "\xff"}', "not UTF-8 at byte 17"),
        (b'{"action_type": NaN}', "NaN is not a JSON number"),
    ],
    ids=["deep", "deep-field", "invalid-utf8", "nan"],
)
def test_an_undecodable_request_is_a_recorded_violation(body: bytes, reason: str) -> None:
    mock = MockServer(load_spec(), seed_value=1, error_rate=0.0)
    headers = [
        (b"X-Auth-Token", b"t"),
        (b"Content-Type", b"application/json"),
        (b"X-Weird", b"\xe9\xb2"),
    ]
    with serve_app(mock) as url:
        answer = httpx.post(url + ACTIONS, content=body, headers=headers, timeout=20)
    assert answer.status_code < 500
    found = [f.got for f in mock.violations if f.check == "request_body"]
    assert any(reason in got for got in found), found


def test_a_request_above_the_cap_is_not_buffered_whole() -> None:
    mock = MockServer(load_spec(), seed_value=1, error_rate=0.0)
    body = b'{"action_type": "' + b"x" * (MAX_WIRE_JSON_BYTES + 1024**2) + b'"}'
    headers = {"X-Auth-Token": "t", "Content-Type": "application/json"}
    with serve_app(mock) as url:
        try:
            answer = httpx.post(url + ACTIONS, content=body, headers=headers, timeout=20)
        except httpx.TransportError:  # the mock may close before the whole body is sent
            answer = None
    assert answer is None or answer.status_code == 400
    found = [f.got for f in mock.violations if f.check == "request_body"]
    assert found == [f"larger than the cap of {MAX_WIRE_JSON_BYTES} bytes"], found
