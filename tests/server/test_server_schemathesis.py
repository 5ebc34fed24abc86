"""Schemathesis (all phases, all checks) against the reference server over real HTTP.

The departures from a plain run: schemathesis reads the spec's obligations (the spec without
its guidance rules, ``Spec.obligations()``: what a server must enforce; the reference server
ignores unknown fields and accepts both members of a choose-one pair), and its
``positive_data_acceptance`` is replaced by the same check allowing exactly the vendor's two
400s for schema-valid requests (unknown job ``ModelArts.2775``, duplicate name
``ModelArts.2751``); see ``server_schemathesis_hooks.py``.
A second, short run against a server that ignores authentication proves the run can fail.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from modelarts_kit_server import DEV_TOKEN, ServerSettings, create_app, serve_in_thread
from modelarts_kit_server.handlers.job_records import enforced_document
from modelarts_kit_spec import load_spec

from tests.yaml_files import dump_yaml

HOOKS_DIR = Path(__file__).resolve().parent
SCHEMATHESIS = Path(sys.executable).parent / "schemathesis"


def obligations_file() -> Path:
    """What the reference server enforces (the spec's obligations, and the SDK's type of the
    fields it acts on: ``enforced_document``) as a file schemathesis can read."""
    import tempfile

    directory = Path(tempfile.mkdtemp(prefix="obligations-"))
    path = directory / "openapi.yaml"
    document = enforced_document(load_spec())
    path.write_text(dump_yaml(document, sort_keys=False), encoding="utf-8")
    return path


def run_schemathesis(
    url: str, *extra: str, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    environment = {
        **os.environ,
        "SCHEMATHESIS_HOOKS": "server_schemathesis_hooks",
        "PYTHONPATH": os.pathsep.join([str(HOOKS_DIR), os.environ.get("PYTHONPATH", "")]),
    }
    command = [
        str(SCHEMATHESIS),
        "run",
        str(obligations_file()),
        "--url",
        url,
        "--header",
        f"X-Auth-Token: {DEV_TOKEN}",
        "--checks",
        "all",
        "--exclude-checks",
        "positive_data_acceptance",
        "--seed",
        "1",
        "--generation-database",
        "none",
        "--request-timeout",
        "5",
        "--no-color",
        *extra,
    ]
    return subprocess.run(
        command, env=environment, capture_output=True, text=True, timeout=timeout, check=False
    )


def test_schemathesis_all_phases_all_checks_finds_nothing() -> None:
    with serve_in_thread(ServerSettings()) as url:
        result = run_schemathesis(url, "--max-examples", "40")
    report = result.stdout[-6000:] + result.stderr[-2000:]
    assert result.returncode == 0, report
    for phase in ("Examples", "Coverage", "Fuzzing", "Stateful"):
        assert f"✅ {phase}" in result.stdout, report


def ignore_auth(app: Any) -> Any:
    """A broken server: every request is treated as carrying the development token."""

    async def broken(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            headers = [(k, v) for k, v in scope["headers"] if k.lower() != b"x-auth-token"]
            headers.append((b"x-auth-token", DEV_TOKEN.encode()))
            scope = {**scope, "headers": headers}
        await app(scope, receive, send)

    return broken


def test_schemathesis_run_fails_on_a_server_that_ignores_auth() -> None:
    app = create_app(ServerSettings())
    with serve_in_thread(app=ignore_auth(app)) as url:
        result = run_schemathesis(url, "--max-examples", "5", "--phases", "examples,stateful")
    app.close()
    assert result.returncode == 1, result.stdout[-4000:]
    assert "authentication" in result.stdout.lower()
