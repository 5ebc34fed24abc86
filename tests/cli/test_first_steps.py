"""A newcomer's first steps work as written: the create body README.md and `serve --help` show
is the one examples/first_job.py sends, the reference server creates it, and the example's
doctest passes (create, wait, stop)."""

from __future__ import annotations

import doctest
import json
import re
from typing import Any

import httpx
import pytest
from modelarts_kit_server import DEV_PROJECT_ID, DEV_TOKEN, ServerSettings, serve_in_thread
from modelarts_kit_spec import load_spec
from modelarts_training_client.models import Job

import examples.first_job
from tests.cli.manual_clock_examples import on_a_manual_clock
from tests.cli_support import REPO, Kit

_BODY = re.compile(r"-d '(\{.*?\})'", re.DOTALL)


def _shown_body(text: str) -> object:
    match = _BODY.search(text)
    assert match, "a curl -d '{...}' create body is shown"
    return json.loads(match.group(1))


def test_readme_and_serve_help_show_the_examples_body(kit: Kit) -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    help_text = kit("serve", "--help").stdout
    assert _shown_body(readme) == examples.first_job.BODY
    assert _shown_body(help_text) == examples.first_job.BODY


def test_the_shown_body_is_created_and_passes_the_clients_checks() -> None:
    Job.model_validate(examples.first_job.BODY)  # the generated client's own request checks
    with serve_in_thread(ServerSettings()) as url:
        answer = httpx.post(
            f"{url}/v2/{DEV_PROJECT_ID}/training-jobs",
            json=examples.first_job.BODY,
            headers={"X-Auth-Token": DEV_TOKEN},
            timeout=30,
        )
    assert answer.status_code == 201, answer.text
    assert answer.json()["metadata"]["name"] == "my-first-job"


def test_the_first_job_example_doctest(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = on_a_manual_clock(monkeypatch, examples.first_job)
    started = clock.now_ms()
    result = doctest.testmod(examples.first_job, raise_on_error=False)
    assert result.attempted >= 3
    assert result.failed == 0
    assert clock.now_ms() > started  # the job ran because the client's waits moved it


def test_contract_server_help_names_the_credential_variables(kit: Kit) -> None:
    help_text = kit("contract", "server", "--help").stdout
    for variable in ("MODELARTS_KIT_TOKEN", "HUAWEICLOUD_SDK_AK", "HUAWEICLOUD_SDK_SK"):
        assert variable in help_text


_ROW = re.compile(r"^\| `(\w+)` \| (\w+) \| `([^`]+)` \| (\d{3}) \|$", re.MULTILINE)
FIRST_SCREEN_LINES = 40


def _operation_rows(text: str) -> list[tuple[str, str, str, str]]:
    return [
        (name, method.lower(), path, status) for name, method, path, status in _ROW.findall(text)
    ]


@pytest.mark.parametrize("readme", ["README.md", "spec/README.md"])
def test_the_first_screen_lists_every_operation_of_the_spec(readme: str) -> None:
    """The endpoint table near the top names each operation of the spec once, with its method,
    path and success status as the spec has them (issue 35: it listed 3 of 12)."""
    text = (REPO / readme).read_text(encoding="utf-8")
    first_screen = "\n".join(text.splitlines()[:FIRST_SCREEN_LINES])
    shown = _operation_rows(first_screen)
    expected = [
        (op.operation_id, op.method, op.path, op.success.status) for op in load_spec().operations
    ]
    assert sorted(shown) == sorted(expected)
    assert "three training-job operations" not in text


def _python_blocks(text: str) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", text, re.DOTALL | re.MULTILINE)


def test_readme_list_example_in_python_searches_like_its_curl() -> None:
    """README's search, in Python with the generated client, sends the curl's body and finds
    the job README's create made (issue 35: the list call had no example)."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    snippet = next(block for block in _python_blocks(readme) if "list_training_jobs" in block)
    curl_bodies = [json.loads(body) for body in _BODY.findall(readme)]
    with serve_in_thread(ServerSettings()) as url:
        created = httpx.post(
            f"{url}/v2/{DEV_PROJECT_ID}/training-jobs",
            json=examples.first_job.BODY,
            headers={"X-Auth-Token": DEV_TOKEN},
            timeout=30,
        )
        assert created.status_code == 201, created.text
        httpx.post(  # another job the search must leave out
            f"{url}/v2/{DEV_PROJECT_ID}/training-jobs",
            json={"kind": "job", "metadata": {"name": "someone-elses"}},
            headers={"X-Auth-Token": DEV_TOKEN},
            timeout=30,
        )
        scope: dict[str, Any] = {}
        code = snippet.replace("http://127.0.0.1:8000", url)
        exec(compile(code, "README.md", "exec"), scope)
    assert scope["search"] in curl_bodies
    page = scope["page"]
    assert (page.count, page.total) == (1, 2)
    assert [job.metadata.name for job in page.items] == ["my-first-job"]
    assert scope["names"] == ["my-first-job"]
