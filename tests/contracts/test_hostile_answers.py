"""A server under test answers what it likes: the kit's verdict stays right and bounded.

Raw answers (see :mod:`tests.contracts.hostile`) the kit must judge, never crash on:

- JSON nested 200,000 levels deep, in a 200 or in an error body: a finding naming why
  ("nested deeper than 64 levels"), exit 1 -- before, a RecursionError killed the run's thread
  and the run blamed ``--max-time``;
- invalid UTF-8 and ``NaN`` in a body: a finding;
- a header with obs-text bytes (0x80-0xFF): the run goes on;
- an answer larger than the cap (16 MiB), plain or as a gzip bomb: a finding naming the cap,
  exit 1 in seconds, memory bounded -- before, read whole (and inflated) into memory;
- a Content-Length that lies, a close mid-body: exit 2 "no complete answer", no traceback.

The one wire decoder (:func:`modelarts_kit_wire.wirejson.decode_wire_json`) is checked on
arbitrary bytes: it returns what ``json.loads`` returns or raises ``WireJsonError``, never
anything else (RecursionError included), whatever the nesting.
"""

from __future__ import annotations

import json
import math
import zlib
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from modelarts_kit_contracts.core import ExitCode, RunReport
from modelarts_kit_contracts.core.wire import Headers, decode_json_body
from modelarts_kit_contracts.server.run import Budget, RunOptions, run_server_contract
from modelarts_kit_contracts.server.target import ServerTarget
from modelarts_kit_contracts.transport_auth import Credentials
from modelarts_kit_wire.wirejson import (
    MAX_WIRE_JSON_BYTES,
    MAX_WIRE_JSON_DEPTH,
    WireJsonError,
    bounded_inflate,
    decode_wire_json,
)

from . import hostile

# --- the one wire decoder ------------------------------------------------------------------


def _nested(depth: int, opener: str, closer: str, inner: str = "1") -> bytes:
    return (opener * depth + inner + closer * depth).encode()


@pytest.mark.parametrize("depth", [MAX_WIRE_JSON_DEPTH + 1, 2_000, 200_000])
@pytest.mark.parametrize("shape", ["[]", "{}", "mixed", "unbalanced"])
def test_deep_nesting_is_refused_without_recursion(depth: int, shape: str) -> None:
    if shape == "[]":
        body = _nested(depth, "[", "]")
    elif shape == "{}":
        body = ('{"a":' * depth + "1" + "}" * depth).encode()
    elif shape == "mixed":
        body = ('[{"a":' * (depth // 2 + 1) + "1" + "}]" * (depth // 2 + 1)).encode()
    else:
        body = b"[" * depth
    with pytest.raises(WireJsonError, match=f"nested deeper than {MAX_WIRE_JSON_DEPTH}"):
        decode_wire_json(body)


def test_nesting_up_to_the_cap_decodes() -> None:
    body = _nested(MAX_WIRE_JSON_DEPTH, "[", "]")
    assert decode_wire_json(body) == json.loads(body)
    # Brackets inside strings are text, not nesting.
    text = json.dumps(["[" * 1000, {"k": "{" * 1000}])
    assert decode_wire_json(text.encode()) == json.loads(text)


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b"\xff\xfe{}", "not UTF-8 at byte 0"),
        (b'{"a": NaN}', "NaN"),
        (b'{"a": -Infinity}', "Infinity"),
        (b'{"a": 1e999}', "out of range"),
        (b'{"a": "\\ud800"}', "/a holds an unpaired surrogate"),
        (b"", "empty"),
        (b"1" * 5000, "digits"),
        (b'{"a": 1', "line 1"),
    ],
)
def test_what_the_decoder_refuses_and_why(body: bytes, reason: str) -> None:
    with pytest.raises(WireJsonError, match=reason) as caught:
        decode_wire_json(body)
    assert isinstance(caught.value, ValueError)  # caught wherever json's errors are


def test_size_cap() -> None:
    with pytest.raises(WireJsonError, match="larger than the cap of 100 bytes"):
        decode_wire_json(b"[" + b"0," * 100 + b"0]", max_bytes=100)


_json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=30,
)


@given(
    prefix=st.binary(max_size=40),
    brackets=st.text(alphabet='[]{}"\\:,1 ', max_size=300),
    depth=st.integers(0, 5_000),
)
def test_arbitrary_bytes_give_a_value_or_a_wire_json_error(
    prefix: bytes, brackets: str, depth: int
) -> None:
    body = prefix + b"[" * depth + brackets.encode() + b"]" * depth
    outcome: Any
    try:
        outcome = decode_wire_json(body)
    except WireJsonError as refused:  # one named reason, never another exception type
        outcome = refused
    if isinstance(outcome, WireJsonError):
        assert outcome.reason
    else:  # accepted: exactly what json.loads gives
        assert repr(outcome) == repr(json.loads(body))


@given(_json_values)
def test_valid_json_within_the_caps_decodes_as_json_loads_does(value: Any) -> None:
    body = json.dumps(value).encode()
    decoded = decode_wire_json(body)
    assert json.dumps(decoded, sort_keys=True) == json.dumps(json.loads(body), sort_keys=True)


def test_a_gzip_bomb_inflates_only_to_the_cap() -> None:
    bomb = hostile.gzip_bomb(64 * 1024**2)
    with pytest.raises(WireJsonError, match="inflates"):
        bounded_inflate(bomb, "gzip", max_bytes=1024**2)
    body, problem = decode_json_body(bomb, Headers([("Content-Encoding", "gzip")]))
    assert body is None
    assert problem is not None
    assert "inflates" in problem


def test_the_mock_and_proxy_wire_checks_name_why() -> None:
    body, problem = decode_json_body(hostile.DEEP, Headers())
    assert body is None
    assert problem == f"nested deeper than {MAX_WIRE_JSON_DEPTH} levels"
    deflated = zlib.compress(b'{"a": 1}')
    headers = Headers([("Content-Encoding", "deflate")])
    assert decode_json_body(deflated, headers) == ({"a": 1}, None)


# --- contract server against hostile answers ---------------------------------------------------


# Only a bound against a hang: the runs below are bounded by counts (two examples, the
# examples phase), and whether a run ended by itself is read from its report, never from the
# wall clock (issue 34 item 11: deep-200 took 25.4 s at load 10 against ``elapsed < 25``).
HANG_BOUND_S = 600


def run_against(answer: hostile.Answer, *, max_time: int = HANG_BOUND_S) -> RunReport:
    with hostile.raw_server(answer) as url:
        return run_server_contract(
            ServerTarget.from_url(url),
            RunOptions(
                credentials=Credentials(token="t0ken-hostile"),
                project_id="p1",
                other_project_id="p2",
                budget=Budget(max_examples=2, seed=7, max_time=max_time),
                phases=("examples",),
                final_phase_wait_s=1.0,
            ),
        )


def ended_by_itself(report: RunReport) -> bool:
    """The run ended when its checks were done, not cut at its ``--max-time``."""
    return not any("--max-time" in text for text in [*report.notes, *report.errors])


def _failures(report: RunReport, check: str) -> list[str]:
    return [f"{f.title}: {f.got}" for f in report.failures if f.check == check]


@pytest.mark.parametrize(
    ("answer", "check", "reason"),
    [
        (hostile.fixed(200, hostile.DEEP), "answer_body_decodable", "nested deeper than 64"),
        (
            hostile.fixed(400, b'{"error_code": ' + hostile.DEEP + b', "error_msg": "x"}'),
            "vendor_error_body",
            "nested deeper than 64",
        ),
        (
            hostile.fixed(200, b'{"kind": "job", "metadata": {"id": "\xff\xfe"}}'),
            "answer_body_decodable",
            "not UTF-8 at byte 36",
        ),
        (
            hostile.fixed(200, b'{"kind": "job", "metadata": {"id": "a", "x": NaN}}'),
            "answer_body_decodable",
            "NaN is not a JSON number",
        ),
    ],
    ids=["deep-200", "deep-error-body", "invalid-utf8", "nan"],
)
def test_an_undecodable_answer_is_the_servers_violation(
    answer: hostile.Answer, check: str, reason: str
) -> None:
    report = run_against(answer)
    assert report.errors == [], report.errors
    assert report.exit_code is ExitCode.CONTRACT_VIOLATION
    found = _failures(report, check)
    assert any(reason in text for text in found), found
    assert ended_by_itself(report), report.notes


def test_schemathesis_own_checks_judge_a_deep_answer_through_the_wire_decoder() -> None:
    # Its JSON deserializer was json.loads: RecursionError killed its worker thread.
    report = run_against(hostile.fixed(200, hostile.DEEP))
    found = _failures(report, "response_schema_conformance")
    assert any("nested deeper than 64 levels" in text for text in found), found


def test_an_obs_text_header_does_not_stop_the_run() -> None:
    body = b'{"error_code": "ModelArts.2787", "error_msg": "x"}'
    answer = hostile.fixed(400, body, [(b"X-Weird", b"\xe9\xb2"), (b"Retry-After", b"\xb2")])
    report = run_against(answer)
    assert report.errors == [], report.errors
    assert report.tallies  # checks were evaluated


# The answers are made when their test runs, not at collection: every pytest worker collects
# this module, and gzipping the bomb's zeros costs about 0.3 s of CPU.
@pytest.mark.parametrize(
    ("answer", "says"),
    [
        (
            lambda: hostile.huge(total=2 * MAX_WIRE_JSON_BYTES),
            f"HTTP 200: the body is not JSON the spec can describe: larger than the cap of "
            f"{MAX_WIRE_JSON_BYTES} bytes",
        ),
        (
            lambda: hostile.gzipped(200, hostile.gzip_bomb(4 * MAX_WIRE_JSON_BYTES)),
            f"larger than the cap of {MAX_WIRE_JSON_BYTES} bytes once inflated (gzip)",
        ),
    ],
    ids=["huge", "gzip-bomb"],
)
def test_an_answer_above_the_cap_is_not_read_into_memory(
    answer: Callable[[], hostile.Answer], says: str
) -> None:
    report = run_against(answer())
    assert report.errors == [], report.errors
    assert report.exit_code is ExitCode.CONTRACT_VIOLATION
    found = _failures(report, "answer_body_decodable")
    assert len(found) == 1
    assert says in found[0]
    assert [f.operation for f in report.failures] == [
        "GET /v2/{project_id}/training-jobs/{training_job_id}"  # the first preflight probe
    ]
    assert ended_by_itself(report), report.notes


def _lying(_request: bytes) -> list[bytes]:
    headers = [(b"Content-Type", b"application/json"), (b"Connection", b"close")]
    return [hostile.head(200, headers, 1000) + b'{"kind": "jo']


def test_an_answer_cut_short_is_a_connection_error_not_a_crash() -> None:
    report = run_against(_lying)
    assert report.exit_code is ExitCode.USAGE_OR_CONNECTION_ERROR
    assert len(report.errors) == 1
    assert "no complete answer" in report.errors[0]
    assert "IncompleteRead" in report.errors[0]
    assert "please report" not in report.errors[0]
    assert ended_by_itself(report), report.notes


def test_a_crash_in_the_run_is_reported_as_such_not_as_max_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from modelarts_kit_contracts.server import run

    def broken(*_args: Any, **_kwargs: Any) -> None:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(run, "preflight", broken)
    report = run_against(hostile.fixed(200, b"{}"))
    assert report.exit_code is ExitCode.USAGE_OR_CONNECTION_ERROR
    assert len(report.errors) == 1
    assert "ZeroDivisionError: a bug" in report.errors[0]
    assert "--max-time" not in report.errors[0]


def test_finite_floats_are_not_refused() -> None:
    assert decode_wire_json(b"[1e308, -0.0, 5e-324]") == [1e308, -0.0, 5e-324]
    assert not math.isinf(decode_wire_json(b"1.7976931348623157e308"))
