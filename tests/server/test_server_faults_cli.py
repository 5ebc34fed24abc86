"""Fault injection (seeded, off by default) and the ``modelarts-kit serve`` command."""

from __future__ import annotations

import errno
import signal
import socket
import subprocess
import sys
from collections import Counter

import httpx
import pytest
from click.testing import CliRunner
from modelarts_kit.commands import serve as serve_command
from modelarts_kit.main import cli
from modelarts_kit_server import (
    DEV_PROJECT_ID,
    DEV_TOKEN,
    ConfigError,
    FaultPlan,
    ServerSettings,
    create_app,
    serve_in_thread,
)
from modelarts_kit_server.app import ConnectionDropped

from .server_support import SyncASGITransport, check_error

SHOW = f"/v2/{DEV_PROJECT_ID}/training-jobs/nope"
HEADERS = {"X-Auth-Token": DEV_TOKEN}
SERVE = [sys.executable, "-c", "from modelarts_kit.main import cli; cli()", "serve"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", "no fault given"),
        ("boom=0.1", "unknown fault 'boom'"),
        ("429", "must be KIND=RATE"),
        ("503=2", "between 0 and 1"),
        ("503=x", "not a number"),
        ("503=0.1:3", "takes no parameter"),
        ("latency=0.1:-1", "between 0 and 3600"),
        ("drop=0.1,drop=0.2", "given twice"),
    ],
)
def test_fault_spec_errors_name_the_problem(text: str, expected: str) -> None:
    with pytest.raises(ConfigError, match=expected):
        FaultPlan.parse(text)


def statuses(plan: FaultPlan, count: int, waits: list[float] | None = None) -> Counter[int]:
    async def record(seconds: float) -> None:
        if waits is not None:
            waits.append(seconds)

    app = create_app(ServerSettings(faults=plan, fault_sleep=record))
    seen: Counter[int] = Counter()
    with httpx.Client(transport=SyncASGITransport(app), base_url="http://t") as client:
        for _ in range(count):
            response = client.get(SHOW, headers=HEADERS)
            seen[response.status_code] += 1
            if response.status_code == 429:
                check_error(response, 429, "ModelArts.2799")
                assert response.headers["retry-after"] == "2"
            elif response.status_code == 503:
                check_error(response, 503, "ModelArts.4700")
            assert "x-request-id" in response.headers
    app.close()
    return seen


def test_faults_follow_their_rates_and_the_seed() -> None:
    first = statuses(FaultPlan.parse("429=0.3:2,503=0.2", seed=7), 200)
    again = statuses(FaultPlan.parse("429=0.3:2,503=0.2", seed=7), 200)
    assert first == again  # reproducible
    assert 40 <= first[429] <= 80
    assert 20 <= first[503] <= 60
    assert first[400] == 200 - first[429] - first[503]  # the rest reach the server
    assert statuses(FaultPlan.parse("429=0,503=0"), 20) == Counter({400: 20})


def test_latency_fault_delays() -> None:
    waits: list[float] = []  # counted, not timed: the fault asks its sleep for the delay
    assert statuses(FaultPlan.parse("latency=1:0.05"), 4, waits) == Counter({400: 4})
    assert waits == [0.05] * 4
    assert statuses(FaultPlan.parse("latency=0"), 4, waits) == Counter({400: 4})
    assert waits == [0.05] * 4


def test_dropped_connection_in_process_and_over_http() -> None:
    app = create_app(ServerSettings(faults=FaultPlan.parse("drop=1")))
    transport = SyncASGITransport(app)
    with (
        httpx.Client(transport=transport, base_url="http://t") as client,
        pytest.raises(ConnectionDropped),
    ):
        client.get(SHOW, headers=HEADERS)
    with serve_in_thread(app=app) as url, pytest.raises(httpx.RemoteProtocolError):
        httpx.get(f"{url}{SHOW}", headers=HEADERS)
    app.close()


def test_serve_port_0_prints_the_url_and_serves(tmp_path: object) -> None:
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from modelarts_kit.main import cli; cli()",
            "serve",
            "--port",
            "0",
            "--clock-speed",
            "50",
            "--log-level",
            "warning",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        assert first.startswith("modelarts-kit reference server listening on http://127.0.0.1:")
        url = first.split()[-1]
        banner = "".join(process.stdout.readline() for _ in range(3))
        assert DEV_TOKEN in banner
        response = httpx.get(f"{url}{SHOW}", headers=HEADERS, timeout=60)  # waits, never times
        assert response.json()["error_code"] == "ModelArts.2775"
    finally:
        process.terminate()
        assert process.wait(10) == 0


@pytest.mark.parametrize(
    "arguments",
    [
        ["--token", "a b"],
        ["--aksk", "only:two"],
        ["--faults", "nope=1"],
        ["--clock-speed", "0"],
        ["--clock-speed", "inf"],
        ["--port", "70000"],
    ],
)
def test_serve_usage_errors_exit_2(arguments: list[str]) -> None:
    result = CliRunner().invoke(cli, ["serve", *arguments])
    assert result.exit_code == 2, result.output


def test_serve_busy_port_exits_2() -> None:
    with serve_in_thread(ServerSettings()) as url:
        port = url.rsplit(":", 1)[1]
        result = CliRunner().invoke(cli, ["serve", "--port", port])
    assert result.exit_code == 2
    assert "cannot listen" in result.output


def test_serve_help_documents_the_test_hook_and_faults() -> None:
    result = CliRunner().invoke(cli, ["serve", "--help"])
    assert result.exit_code == 0
    assert "modelarts-kit/simulate" in result.output
    assert "--faults" in result.output
    assert DEV_TOKEN in result.output


def test_a_dropped_connection_is_one_log_line_not_a_traceback() -> None:
    process = subprocess.Popen(
        [*SERVE, "--port", "0", "--faults", "drop=1", "--log-level", "info"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        url = process.stdout.readline().split()[-1]
        for _ in range(3):
            with pytest.raises(httpx.RemoteProtocolError):
                httpx.get(f"{url}{SHOW}", headers=HEADERS, timeout=10)
    finally:
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    assert "Traceback" not in stderr
    assert "Exception in ASGI application" not in stderr
    drops = [line for line in stderr.splitlines() if "connection dropped" in line]
    assert len(drops) == 3, stderr
    assert all(line.startswith("INFO modelarts_kit_server: GET ") for line in drops)


def test_the_embedded_server_is_silent_about_a_malformed_request(
    capfd: pytest.CaptureFixture[str],
) -> None:
    """What schemathesis probes in ``contract server --http``: a NUL byte in a header."""
    with serve_in_thread(ServerSettings()) as url:
        host, port = url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=10) as client:
            client.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Probe-Null: \x00\r\n\r\n")
            answer = client.recv(4096)
    assert answer.startswith(b"HTTP/1.1 400")
    captured = capfd.readouterr()
    assert captured.err == ""
    assert captured.out == ""


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.10", "modelarts.example.com"])
def test_serve_refuses_a_public_host_with_the_development_token(host: str) -> None:
    result = CliRunner().invoke(cli, ["serve", "--host", host, "--port", "0"])
    assert result.exit_code == 2
    lines = result.output.splitlines()
    assert len(lines) == 1, result.output
    assert f"--host {host} is not a loopback address" in lines[0]
    assert "--token" in lines[0]


@pytest.mark.parametrize(
    ("host", "arguments"),
    [
        ("0.0.0.0", ["--token", "team-secret-1"]),
        ("::", ["--token", f"team-secret-2:{DEV_PROJECT_ID}"]),
        ("localhost", []),
        ("127.0.0.2", []),
        ("::1", []),
    ],
)
def test_serve_binds_a_public_host_with_a_token_and_loopback_without(
    host: str, arguments: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host check passes: serve goes on to bind (refused here, so nothing listens)."""

    def no_bind(bound_host: str, port: int) -> socket.socket:
        raise OSError(errno.EADDRNOTAVAIL, "not in this test")

    monkeypatch.setattr(serve_command, "bind_socket", no_bind)
    result = CliRunner().invoke(cli, ["serve", "--host", host, "--port", "0", *arguments])
    assert result.exit_code == 2
    assert result.output.splitlines() == [f"error: cannot listen on {host}:0: not in this test"]
