"""``modelarts-kit contract server``: exit codes, usage errors, reports, the embedded run."""

from __future__ import annotations

import json
import socket
from pathlib import Path

from click.testing import CliRunner
from modelarts_kit.commands.contract import server


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_refused_connection_exits_2_with_a_clear_message() -> None:
    url = f"http://127.0.0.1:{free_port()}"
    result = CliRunner().invoke(server, [url, "--token", "t", "--project-id", "p"])
    assert result.exit_code == 2
    assert "connection refused" in result.output


def test_url_without_credentials_is_a_usage_error() -> None:
    result = CliRunner().invoke(server, ["http://127.0.0.1:1", "--project-id", "p"])
    assert result.exit_code == 2
    assert "needs credentials" in result.output


def test_token_and_aksk_together_is_a_usage_error() -> None:
    args = ["--token", "t", "--ak", "a", "--sk", "s"]
    result = CliRunner().invoke(server, args, env={"MODELARTS_KIT_TOKEN": None})
    assert result.exit_code == 2
    assert "not both" in result.output


def test_bad_report_and_phase_are_usage_errors() -> None:
    assert CliRunner().invoke(server, ["--report", "html:x"]).exit_code == 2
    result = CliRunner().invoke(server, ["--phases", "examples,bogus"])
    assert result.exit_code == 2
    assert "bogus" in result.output


def test_embedded_run_passes_and_writes_reports(tmp_path: Path) -> None:
    json_path, junit_path = tmp_path / "r.json", tmp_path / "r.xml"
    args = [
        "--phases",
        "examples",
        "--max-examples",
        "2",
        "--seed",
        "3",
        "--final-phase-wait",
        "5",
        "--report",
        f"json:{json_path}",
        "--report",
        f"junit:{junit_path}",
    ]
    result = CliRunner().invoke(server, args)
    assert result.exit_code == 0, result.output
    assert "PASSED" in result.output
    assert "modelarts-kit-dev-token" not in result.output
    document = json.loads(json_path.read_text())
    assert document["seed"] == 3
    assert document["failures"] == []
    assert junit_path.read_text().startswith("<?xml")
