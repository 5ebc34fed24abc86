"""Every request README.md shows runs as written on every mode of the reference server
(issue 35): lenient and strict, each with and without ``--catalogue``. A create body refused
by one mode, or a list body one mode reads otherwise, fails here.

The requests are README's ``curl`` commands, read from its ``sh`` blocks and sent with httpx
to a server started for the mode (the README's ``127.0.0.1:8000`` replaced by its URL)."""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from modelarts_kit_server import ServerSettings, serve_in_thread
from modelarts_kit_spec import load_spec

from tests.cli_support import REPO

README_URL = "http://127.0.0.1:8000"
MODES = {
    "lenient": ServerSettings(),
    "strict": ServerSettings(strictness="strict"),
    "lenient --catalogue": ServerSettings(catalogue=True),
    "strict --catalogue": ServerSettings(strictness="strict", catalogue=True),
}
_SH_BLOCK = re.compile(r"^```sh\n(.*?)^```", re.DOTALL | re.MULTILINE)


@dataclass(frozen=True)
class CurlRequest:
    method: str
    url: str
    headers: dict[str, str]
    body: str | None


def _commands(block: str) -> list[str]:
    """The ``curl`` commands of a block: continued lines joined, a quoted body spanning lines
    kept whole."""
    commands: list[str] = []
    pending = ""
    for line in re.sub(r"\\\n", " ", block).splitlines(keepends=True):
        if not pending and not line.strip().startswith("curl "):
            continue
        pending += line
        try:
            shlex.split(pending, comments=True)
        except ValueError:  # a quote still open: the body goes on
            continue
        commands.append(pending.strip())
        pending = ""
    return commands


def _parse_curl(command: str) -> CurlRequest:
    words = shlex.split(command, comments=True)
    method, url, body, headers = "GET", "", None, {}
    iterator = iter(words[1:])
    for word in iterator:
        if word == "-X":
            method = next(iterator)
        elif word == "-H":
            name, _, value = next(iterator).partition(":")
            headers[name.strip()] = value.strip()
        elif word in ("-d", "--data"):
            body = next(iterator)
            method = "POST" if method == "GET" else method
        elif word == "-s":
            continue
        else:
            assert word.startswith("http"), f"a curl option this test does not know: {word}"
            url = word
    return CurlRequest(method, url, headers, body)


def readme_requests() -> list[CurlRequest]:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    return [
        _parse_curl(command)
        for block in _SH_BLOCK.findall(text)
        for command in _commands(block)
        if README_URL in command
    ]


def _expected(request: CurlRequest) -> tuple[int, str | None]:
    """The answer README promises: the operation's success, or for the job id ``unknown`` the
    unknown-job error."""
    spec = load_spec()
    path = request.url.removeprefix(README_URL).split("?")[0]
    operation = next(
        op
        for op in spec.operations
        if op.method.upper() == request.method
        and re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", op.path), path)
    )
    if path.endswith("/unknown"):
        return 400, "ModelArts.2775"
    return int(operation.success.status), None


def test_readme_shows_a_create_and_a_list_request() -> None:
    shown = {
        (r.method, r.url.removeprefix(README_URL).rsplit("/", 1)[-1]) for r in readme_requests()
    }
    assert ("POST", "training-jobs") in shown
    assert ("POST", "training-job-searches") in shown


@pytest.mark.parametrize("mode", list(MODES))
def test_every_readme_request_runs_on_every_server_mode(mode: str) -> None:
    requests = readme_requests()
    with serve_in_thread(MODES[mode]) as url:
        for request in requests:
            answer = httpx.request(
                request.method,
                request.url.replace(README_URL, url),
                headers=request.headers,
                content=request.body.encode("utf-8") if request.body is not None else None,
                timeout=30,
            )
            status, code = _expected(request)
            shown = f"{mode}: {request.method} {request.url}: {answer.text[:300]}"
            assert answer.status_code == status, shown
            if code is not None:
                body: Any = json.loads(answer.content)
                assert body["error_code"] == code, shown
