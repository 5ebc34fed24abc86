"""Log downloads end to end (issue 35): the logs URL's link points to the reference server's
own download path on the loopback host the request reached, serves the task's whole log (the
bytes the preview shows) without credentials, like a presigned OBS link, and stops after the
five minutes the logs-URL page gives it. A real third-party CLI's ``log`` command is replayed
too: modelarts-macli 0.2.0's traffic, recorded by ``macli/record_macli.py``."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from modelarts_kit_server import (
    DEV_PROJECT_ID,
    DEV_TOKEN,
    LifecycleTimings,
    ManualClock,
    ServerSettings,
    serve_in_thread,
)

from .macli_traffic import TRAFFIC, replay

AUTH = {"X-Auth-Token": DEV_TOKEN}
LINK_VALIDITY_S = 300  # the logs-URL page: "valid for 5 minutes"
JOBS = 55


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def url(clock: ManualClock) -> Iterator[str]:
    timings = LifecycleTimings(startup_s=10, running_s=600, terminating_s=3)
    with serve_in_thread(ServerSettings(clock=clock, timings=timings)) as base_url:
        yield base_url


def _create(url: str, name: str) -> str:
    answer = httpx.post(
        f"{url}/v2/{DEV_PROJECT_ID}/training-jobs",
        json={"kind": "job", "metadata": {"name": name}},
        headers=AUTH,
        timeout=30,
    )
    assert answer.status_code == 201, answer.text
    return str(answer.json()["metadata"]["id"])


def _task_url(url: str, job_id: str, what: str) -> str:
    return f"{url}/v2/{DEV_PROJECT_ID}/training-jobs/{job_id}/tasks/worker-0/logs/{what}"


def _link(url: str, job_id: str, kind: str = "application/octet-stream") -> str:
    answer = httpx.get(_task_url(url, job_id, "url"), params={"Content-Type": kind}, headers=AUTH)
    assert answer.status_code == 200, answer.text
    return str(answer.json()["obs_url"])


def test_the_link_downloads_the_previewed_log_without_credentials(
    url: str, clock: ManualClock
) -> None:
    job_id = _create(url, "download-me")
    clock.advance(120)
    link = _link(url, job_id)
    assert link.startswith(f"{url}/modelarts-kit/obs/{DEV_PROJECT_ID}/{job_id}/worker-0.log?")
    preview = httpx.get(_task_url(url, job_id, "preview"), headers=AUTH).json()
    download = httpx.get(link)  # no token: the link itself is the credential
    assert download.status_code == 200, download.text
    assert download.content.decode("utf-8") == preview["content"]
    assert len(download.content) == preview["full_size"] > 0
    assert download.headers["content-type"] == "text/plain; charset=utf-8"
    assert download.headers["content-disposition"].startswith("attachment;")
    shown = httpx.get(_link(url, job_id, "text/plain"))
    assert shown.headers["content-disposition"].startswith("inline;")
    assert shown.content == download.content


def test_the_link_expires_after_five_minutes_and_refuses_edits(
    url: str, clock: ManualClock
) -> None:
    job_id = _create(url, "expiring")
    link = _link(url, job_id)
    clock.advance(LINK_VALIDITY_S - 1)
    assert httpx.get(link).status_code == 200
    longer = link.replace("Expires=", "Expires=9")
    assert httpx.get(longer).status_code == 403
    assert b"SignatureDoesNotMatch" in httpx.get(longer).content
    clock.advance(2)
    expired = httpx.get(link)
    assert expired.status_code == 403
    assert b"<Code>AccessDenied</Code><Message>Request has expired</Message>" in expired.content


def test_a_link_to_a_deleted_job_is_gone(url: str) -> None:
    job_id = _create(url, "deleted")
    link = _link(url, job_id)
    deleted = httpx.delete(f"{url}/v2/{DEV_PROJECT_ID}/training-jobs/{job_id}", headers=AUTH)
    assert deleted.status_code == 202
    gone = httpx.get(link)
    assert gone.status_code == 404
    assert b"NoSuchKey" in gone.content


def test_the_link_is_built_from_the_host_the_request_reached(url: str) -> None:
    job_id = _create(url, "hosts")
    port = url.rsplit(":", 1)[1]
    for host, origin in [
        (f"localhost:{port}", f"http://localhost:{port}"),
        ("modelarts.example.com", "https://obs.modelarts-kit.invalid"),
    ]:
        answer = httpx.get(_task_url(url, job_id, "url"), headers={**AUTH, "Host": host}).json()[
            "obs_url"
        ]
        assert answer.startswith(f"{origin}/modelarts-kit/obs/")


def test_macli_log_command_downloads_the_log(url: str, clock: ManualClock) -> None:
    """macli's ``log``: its task list call (an operation the spec has not: 404), the logs URL
    as it asks for it, then a download of the link with no token, as it does."""
    recorded = TRAFFIC["log"]
    assert [(e["method"], e["status"], e["auth"]) for e in recorded] == [
        ("GET", 404, True),
        ("GET", 200, True),
        ("GET", 200, False),
    ]
    job_id = _create(url, "macli-log")
    clock.advance(120)
    tasks, logs_url, _ = recorded
    assert replay(url, tasks, [job_id]).status_code == 404
    answer = replay(url, logs_url, [job_id])
    assert answer.status_code == 200
    download = httpx.get(answer.json()["obs_url"])  # what macli's download_from_obs_url sends
    assert download.status_code == 200
    preview = httpx.get(_task_url(url, job_id, "preview"), headers=AUTH).json()
    assert download.text == preview["content"] != ""
