"""The adapter protocol, for a client in another language: examples/node_client (JavaScript).

The JavaScript client talks HTTP to the mock on loopback; the adapter drives it as a program.
The check must see the client's requests, errors and retries as they are, and find what a
typical JavaScript client gets wrong: JSON.parse turns an int64 into a double.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from modelarts_kit_contracts.client import (
    ClientCheckSettings,
    build_cases,
    load_adapter_factory,
    run_client_check,
)
from modelarts_kit_spec import load_spec

REPO = Path(__file__).resolve().parents[2]
KEPT = ("typical #1", "int64_extremes #1", "400 error #1", "(retry)", "(no blind retry)")

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js 18+")


def test_a_javascript_client_is_checked_through_the_adapter_protocol(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.syspath_prepend(str(REPO))
    factory = load_adapter_factory("examples.node_client.adapter:create_adapter")
    settings = ClientCheckSettings(seed=0, max_examples=10)
    cases = [c for c in build_cases(load_spec(), settings) if c.name.endswith(KEPT)]
    report = run_client_check(factory, settings=settings, cases=cases, target_name="node")
    assert report.errors == []
    for check in ("request_body", "request_auth", "error_code_intact", "retry_safe"):
        tally = report.tallies[check]
        assert (tally.passed > 0, tally.failed) == (True, 0), check
    assert report.tallies["no_blind_retry"].failed == 0
    # It makes the three core calls (it has no call() for the others: each is one note, not a
    # failure), and the one thing it gets wrong, on each of them: int64 values lose precision.
    spec = load_spec()
    core = _core_ids()
    assert {(f.check, f.operation) for f in report.failures} == {
        ("fidelity_value_changed", operation_id) for operation_id in core
    }
    others = {op.operation_id for op in spec.operations} - core
    assert {note.split(":")[0] for note in report.notes} == others
    assert all("not supported by this client" in note for note in report.notes)
    assert all(f.expected.startswith(("-9223372036854775808", "9223372036854775807",
                                      "9007199254740993", "-9007199254740993"))
               for f in report.failures)  # fmt: skip
    assert sys.modules["examples.node_client.adapter"].SCRIPT.exists()


def _core_ids() -> set[str]:
    roles = load_spec().meaning.roles
    return {roles.create.operation_id, roles.show.operation_id, roles.terminate.operation_id}
