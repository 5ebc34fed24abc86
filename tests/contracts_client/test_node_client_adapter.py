"""The adapter protocol, for a client in another language: examples/node_client (JavaScript).

The JavaScript client talks HTTP to the mock on loopback; the adapter drives it as a program.
The check must see the client's requests, errors and retries as they are, and find what a
typical JavaScript client gets wrong: JSON.parse turns an int64 into a double.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

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


INT64_MIN = -9223372036854775808


class _Recorder(BaseHTTPRequestHandler):
    """Answers every POST with 201 ``{}`` and keeps the body it got."""

    bodies: ClassVar[list[bytes]] = []

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        self.bodies.append(self.rfile.read(length))
        self.send_response(201)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, format: str, *args: object) -> None:
        return


def test_the_javascript_client_sends_an_int64_create_field_unchanged() -> None:
    """issue 35: JSON.parse then JSON.stringify sent -9223372036854775808 as
    -9223372036854776000, which the mock's request_body check refuses; the body now goes out
    as the caller wrote it."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        body = json.dumps({"kind": "job", "metadata": {"name": "n", "create_time": INT64_MIN}})
        env = {
            **os.environ,
            "MODELARTS_BASE_URL": f"http://127.0.0.1:{server.server_address[1]}",
            "MODELARTS_TOKEN": "t",
        }
        script = REPO / "examples" / "node_client" / "client.mjs"
        done = subprocess.run(
            ["node", str(script), "create", "p", body],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    finally:
        server.shutdown()
        server.server_close()
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"result": {}}
    [sent] = _Recorder.bodies
    assert json.loads(sent)["metadata"]["create_time"] == INT64_MIN
    assert str(INT64_MIN).encode() in sent
