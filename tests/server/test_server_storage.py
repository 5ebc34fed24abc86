"""Storage: restart persistence, crash safety, atomic writes, concurrent clients over HTTP."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from modelarts_kit_server import (
    DEV_PROJECT_ID,
    DEV_TOKEN,
    JobStore,
    ManualClock,
    ServerSettings,
    create_app,
    serve_in_thread,
)
from modelarts_kit_server.lifecycle import Timeline
from modelarts_kit_server.store import JobRecord
from modelarts_kit_spec import load_spec

from .server_support import SyncASGITransport, check_documented, job_body

JOBS = f"/v2/{DEV_PROJECT_ID}/training-jobs"
HEADERS = {"X-Auth-Token": DEV_TOKEN}


def test_job_acknowledged_with_201_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "jobs.sqlite"
    clock = ManualClock()
    settings = ServerSettings(db_path=db, clock=clock)
    with serve_in_thread(settings) as url:
        created = httpx.post(f"{url}{JOBS}", json=job_body("persist-1"), headers=HEADERS)
        assert created.status_code == 201
        job_id = created.json()["metadata"]["id"]
        stopped = httpx.post(
            f"{url}{JOBS}/{job_id}/actions", json={"action_type": "terminate"}, headers=HEADERS
        )
        assert stopped.status_code == 202
    with serve_in_thread(settings) as url:
        shown = httpx.get(f"{url}{JOBS}/{job_id}", headers=HEADERS)
        assert shown.status_code == 200
        assert shown.json()["metadata"] == created.json()["metadata"]
        assert shown.json()["status"]["phase"] == "Terminating"
        duplicate = httpx.post(f"{url}{JOBS}", json=job_body("persist-1"), headers=HEADERS)
        assert duplicate.json()["error_code"] == "ModelArts.2751"


def test_in_memory_store_forgets(tmp_path: Path) -> None:
    with serve_in_thread(ServerSettings()) as url:
        job_id = httpx.post(f"{url}{JOBS}", json=job_body("m"), headers=HEADERS).json()["metadata"][
            "id"
        ]
    with serve_in_thread(ServerSettings()) as url:
        assert httpx.get(f"{url}{JOBS}/{job_id}", headers=HEADERS).status_code == 400


def test_simulated_clock_never_goes_back_after_restart(tmp_path: Path) -> None:
    db = tmp_path / "fast.sqlite"
    # A server whose clock ran far ahead of the wall clock (a virtual clock in 2100): the
    # restarted server's own clock could never catch up with it by itself.
    ahead = ManualClock(start_ms=4_102_444_800_000)
    fast = create_app(ServerSettings(db_path=db), clock=ahead)
    client = httpx.Client(transport=SyncASGITransport(fast), base_url="http://t", headers=HEADERS)
    ahead.advance(50)
    job = client.post(JOBS, json=job_body("fast")).json()
    fast.close()
    slow = create_app(ServerSettings(db_path=db))
    assert slow.clock.now_ms() >= job["metadata"]["create_time"]
    slow.close()


def record(name: str, job_id: str) -> JobRecord:
    return JobRecord(DEV_PROJECT_ID, job_id, name, {"kind": "job"}, Timeline(1, "Completed"))


def test_a_failure_inside_a_transaction_leaves_nothing(tmp_path: Path) -> None:
    store = JobStore(tmp_path / "t.sqlite")
    store.insert(record("a", "1"))

    def refuse(_: JobRecord) -> bool:
        raise RuntimeError("crash mid-request")

    with pytest.raises(RuntimeError):
        store.request_termination(DEV_PROJECT_ID, "1", 5, refuse)
    assert store.get(DEV_PROJECT_ID, "1") == record("a", "1")
    store.close()
    reopened = JobStore(tmp_path / "t.sqlite")
    assert reopened.all_jobs() == [record("a", "1")]
    reopened.close()


CRASH_CLIENT = (
    """
import json, sys, httpx
url, out = sys.argv[1], sys.argv[2]
with open(out, "a") as log, httpx.Client(headers={"X-Auth-Token": TOKEN}) as client:
    for index in range(100000):
        body = {"kind": "job", "metadata": {"name": f"crash-{index}"}}
        body["algorithm"] = {"command": "x" * 2000}
        try:
            response = client.post(url, json=body)
        except httpx.HTTPError:
            break
        if response.status_code == 201:
            log.write(response.json()["metadata"]["id"] + "\\n")
            log.flush()
"""
).replace("TOKEN", repr(DEV_TOKEN))


def test_kill_9_mid_requests_keeps_every_acknowledged_job_and_no_torn_one(
    tmp_path: Path,
) -> None:
    db = tmp_path / "crash.sqlite"
    server = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from modelarts_kit.main import cli; cli()",
            "serve",
            "--port",
            "0",
            "--db",
            str(db),
            "--log-level",
            "warning",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        url = server.stdout.readline().split()[-1]
        acknowledged = tmp_path / "acknowledged.txt"
        loaders = [
            subprocess.Popen(
                [sys.executable, "-c", CRASH_CLIENT, f"{url}{JOBS}", str(acknowledged)]
            )
            for _ in range(3)
        ]
        # A bound on a wait, not a speed: a loaded machine takes longer to acknowledge 30 jobs.
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if acknowledged.exists() and len(acknowledged.read_text().split()) >= 30:
                break
            time.sleep(0.05)
        os.kill(server.pid, signal.SIGKILL)
        server.wait(10)
        for loader in loaders:
            loader.wait(10)
    finally:
        if server.poll() is None:
            server.kill()
    acked = set(acknowledged.read_text().split())
    assert len(acked) >= 30
    store = JobStore(db)
    jobs = store.all_jobs()
    store.close()
    stored = {job.job_id for job in jobs}
    assert acked <= stored  # nothing acknowledged was lost
    # ... and every stored job is whole: it renders to a valid response.
    app = create_app(ServerSettings(db_path=db))
    spec = load_spec()
    operation = spec.operation("ShowTrainingJobDetails")
    with httpx.Client(transport=SyncASGITransport(app), base_url="http://t") as client:
        for job in jobs:
            assert job.document["algorithm"]["command"] == "x" * 2000
            check_documented(spec, operation, client.get(f"{JOBS}/{job.job_id}", headers=HEADERS))
    app.close()


def test_concurrent_clients_lose_nothing_and_see_no_torn_job() -> None:
    clients_count, jobs_each = 8, 15
    spec = load_spec()
    show = spec.operation("ShowTrainingJobDetails")
    errors: list[str] = []
    app = create_app(ServerSettings(clock=ManualClock()))

    def worker(index: int) -> list[str]:
        created: list[str] = []
        with httpx.Client(base_url=base, headers=HEADERS, timeout=10) as client:
            for number in range(jobs_each):
                name = f"c{index}-{number}"
                response = client.post(JOBS, json=job_body(name, algorithm={"command": name}))
                if response.status_code != 201:
                    errors.append(response.text)
                    continue
                job_id = response.json()["metadata"]["id"]
                created.append(job_id)
                shown = client.get(f"{JOBS}/{job_id}")
                check_documented(spec, show, shown)
                job: dict[str, Any] = shown.json()
                if job["metadata"]["name"] != name or job["algorithm"]["command"] != name:
                    errors.append(f"torn job {json.dumps(job)[:200]}")
                # Every other job is terminated, twice at once: exactly one wins.
                if number % 2 == 0:
                    codes = sorted(
                        client.post(
                            f"{JOBS}/{job_id}/actions", json={"action_type": "terminate"}
                        ).status_code
                        for _ in range(2)
                    )
                    if codes != [202, 409]:
                        errors.append(f"terminate twice gave {codes}")
        return created

    with serve_in_thread(app=app) as base, ThreadPoolExecutor(clients_count) as pool:
        results = list(pool.map(worker, range(clients_count)))
    created = [job_id for result in results for job_id in result]
    assert errors == []
    assert len(created) == len(set(created)) == clients_count * jobs_each
    assert app.store.count() == clients_count * jobs_each
    terminated = [j for j in app.store.all_jobs() if j.timeline.terminate_requested_ms]
    assert len(terminated) == clients_count * ((jobs_each + 1) // 2)
    app.close()


def test_concurrent_duplicate_names_only_one_wins() -> None:
    app = create_app(ServerSettings(clock=ManualClock()))
    barrier = threading.Barrier(6)

    def attempt(_: int) -> int:
        with httpx.Client(base_url=base, headers=HEADERS, timeout=10) as client:
            barrier.wait(5)
            return client.post(JOBS, json=job_body("same")).status_code

    with serve_in_thread(app=app) as base, ThreadPoolExecutor(6) as pool:
        codes = sorted(pool.map(attempt, range(6)))
    assert codes == [201, 400, 400, 400, 400, 400]
    assert app.store.count() == 1
    app.close()
