"""The generated client's README shows a call that works as written: its snippet, pointed at a
reference server, creates the job it shows (a snippet without a body or an endpoint fails)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from modelarts_kit_server import DEV_PROJECT_ID, DEV_TOKEN, ServerSettings, serve_in_thread

README = Path(__file__).resolve().parents[2] / "generated" / "README.md"


def _use_snippet() -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Use", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert match, "the Use section has a Python snippet"
    return match.group(1)


def test_the_use_snippet_names_an_endpoint_and_a_body() -> None:
    snippet = _use_snippet()
    assert "base_url=" in snippet
    assert "(...)" not in snippet, "the call shows a real body"


def test_the_use_snippet_creates_its_job_on_a_reference_server() -> None:
    snippet = _use_snippet()
    with serve_in_thread(ServerSettings()) as url:
        code = re.sub(r'base_url="[^"]*"', f"base_url={url!r}", snippet)
        code = code.replace("<project_id>", DEV_PROJECT_ID).replace("<token>", DEV_TOKEN)
        scope: dict[str, Any] = {}
        exec(compile(code, str(README), "exec"), scope)
    result = scope["result"]
    assert result.metadata.name == scope["body"]["metadata"]["name"]
    assert result.metadata.id
