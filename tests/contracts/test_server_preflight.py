"""The user's mistakes are told from the server's: exit 2, in seconds, one line saying what to fix.

Each case is a real HTTP target on 127.0.0.1 (the reference server with a token bound to one
project, a static HTML server, a refused port). Before this, a wrong token produced about a
thousand requests and "21 contract violation(s)" with exit 1, and a URL without a scheme a
``requests`` traceback.
"""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator

import pytest
from click.testing import CliRunner
from modelarts_kit.commands.contract import server
from modelarts_kit_contracts.server.api_map import ApiMap
from modelarts_kit_contracts.server.preflight import check_path_parameters
from modelarts_kit_contracts.server.target import ServerCheckError, ServerTarget, parse_base_url
from modelarts_kit_server import ServerSettings, serve_in_thread

from .test_server_cli import free_port

PROJECT = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
TOKEN = "preflight-token-5f1e"


@pytest.fixture(scope="module")
def reference_url() -> Iterator[str]:
    with serve_in_thread(ServerSettings(tokens=(f"{TOKEN}:{PROJECT}",))) as url:
        yield url


@pytest.fixture(scope="module")
def html_url() -> Iterator[str]:
    class Page(http.server.BaseHTTPRequestHandler):
        def _answer(self) -> None:
            body = b"<!doctype html><html><body>Welcome</body></html>"
            self.send_response(200 if self.path == "/" else 404)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        do_GET = do_POST = _answer

        def log_message(self, *args: object) -> None:
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()


def run_cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(server, list(args), env={"MODELARTS_KIT_TOKEN": None})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


def error_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith(("error:", "Error:"))]


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("wrong-token", "credentials rejected"),
        ("other-project", "is not reachable with these credentials"),
        ("extra-v2", "remove '/v2' from the URL"),
        ("html", "does not speak this API"),
        ("refused", "connection refused"),
    ],
)
def test_user_mistakes_exit_2_with_one_line(
    case: str, expected: str, reference_url: str, html_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from modelarts_kit_contracts.server import run

    phases: list[str] = []
    monkeypatch.setattr(run._Run, "_scenarios", lambda *_: phases.append("scenarios"))
    monkeypatch.setattr(run._Run, "_schemathesis", lambda *_: phases.append("schemathesis"))
    url, token, project = reference_url, TOKEN, PROJECT
    if case == "wrong-token":
        token = "not-the-token-7a3c"
    elif case == "other-project":
        project = "ffff0000ffff0000"
    elif case == "extra-v2":
        url = f"{reference_url}/v2"
    elif case == "html":
        url = html_url
    elif case == "refused":
        url = f"http://127.0.0.1:{free_port()}"
    code, output = run_cli(url, "--token", token, "--project-id", project, "--seed", "1")
    assert code == 2, output
    errors = error_lines(output)
    assert len(errors) == 1, output
    assert expected in errors[0], output
    assert "contract violation" not in output
    assert "Traceback" not in output
    # The preflight's handful of requests, not a fuzzing run: no phase was started (an order,
    # not a time: issue 34 item 11).
    assert phases == []


@pytest.mark.parametrize(
    "url", ["127.0.0.1:8000", "ftp://127.0.0.1:8000", "http://", "file:///etc/passwd", "localhost"]
)
def test_url_without_http_scheme_is_a_usage_error(url: str) -> None:
    code, output = run_cli(url, "--token", TOKEN, "--project-id", PROJECT)
    assert code == 2
    assert "Traceback" not in output
    assert "http://" in output


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("http://127.0.0.1:8000/", "http://127.0.0.1:8000"),
        ("https://modelarts.cn-north-4.myhuaweicloud.com", None),
        ("HTTP://127.0.0.1:9", None),
    ],
)
def test_good_urls_are_kept(url: str, expected: str | None) -> None:
    assert parse_base_url(url) == (expected or url)


def test_credentials_in_the_url_are_refused_without_echoing_them() -> None:
    with pytest.raises(ServerCheckError) as caught:
        parse_base_url("http://user:s3cr3t-pass@127.0.0.1:8000")
    assert "s3cr3t-pass" not in str(caught.value)


@pytest.mark.parametrize("project", ["a/b", "", "proj id", "p?x=1", "\u00e9t\u00e9"])
def test_project_id_is_checked_against_the_spec_rule(project: str) -> None:
    api = ApiMap.from_spec()
    with pytest.raises(ServerCheckError) as caught:
        check_path_parameters(api, {api.project_param: ("--project-id", project)})
    assert "--project-id" in str(caught.value)
    assert "project_id" in str(caught.value)


def test_project_id_breaking_the_pattern_exits_2(reference_url: str) -> None:
    code, output = run_cli(reference_url, "--token", TOKEN, "--project-id", "my/project")
    assert code == 2
    assert "--project-id 'my/project'" in output
    assert "pattern" in output


@pytest.mark.parametrize(
    ("url", "live"),
    [
        ("http://127.0.0.1:8000", False),
        ("http://localhost:8000", False),
        ("http://[::1]:8000", False),
        ("http://127.10.0.3", False),
        ("https://modelarts.cn-north-4.myhuaweicloud.com", True),
        ("http://10.0.0.5:8000", True),
        ("http://192.168.1.10", True),
    ],
)
def test_any_target_that_is_not_loopback_is_live(url: str, live: bool) -> None:
    assert ServerTarget.from_url(url).live is live
    assert ServerTarget.from_url(url, live=True).live is True
    assert ServerTarget.asgi(lambda: None).live is False


def test_preflight_errors_go_to_stderr_after_the_verdict(reference_url: str) -> None:
    """Every other command writes its errors to stderr; so does contract server's preflight."""
    result = CliRunner().invoke(
        server,
        [reference_url, "--token", "not-the-token-7a3c", "--project-id", PROJECT, "--seed", "1"],
        env={"MODELARTS_KIT_TOKEN": None},
    )
    assert result.exit_code == 2, result.output
    assert error_lines(result.stdout) == [], result.stdout
    (line,) = error_lines(result.stderr)
    assert "credentials rejected" in line
    assert result.stdout.rstrip().splitlines()[-1].startswith("ERROR: the run could not complete")
