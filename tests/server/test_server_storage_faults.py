"""Storage faults: a database the server cannot write stops ``serve`` at start-up (exit 2, one
line); a failure under a request (full disk, I/O error) is a 503 with the vendor error body and
one log line, never a traceback; nothing acknowledged with 201 is lost.

Real faults run in a ``serve`` subprocess: a read-only file or directory (as root, the child
loses CAP_DAC_OVERRIDE so file modes bind it too) and a full disk (RLIMIT_FSIZE: every write
past the limit fails with EFBIG, which SQLite reports as "disk I/O error"). In
process, the store's SQLite connection is wrapped so that chosen statements fail.
"""

from __future__ import annotations

import ctypes
import json
import logging
import os
import resource
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from modelarts_kit_server import (
    DEV_PROJECT_ID,
    DEV_TOKEN,
    JobStore,
    ManualClock,
    ReferenceServer,
    ServerSettings,
    create_app,
)
from modelarts_kit_spec import load_spec

from .server_support import (
    CREATE,
    SHOW,
    TERMINATE,
    SyncASGITransport,
    check_documented_error,
    check_error,
    job_body,
)

JOBS = f"/v2/{DEV_PROJECT_ID}/training-jobs"
HEADERS = {"X-Auth-Token": DEV_TOKEN}
PR_CAPBSET_DROP = 24
CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH = 1, 2
SERVE = [sys.executable, "-c", "from modelarts_kit.main import cli; cli()", "serve"]


def without_root_override() -> None:
    """preexec: as root, drop the capabilities that ignore file modes (no-op otherwise)."""
    if os.geteuid() != 0:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH):
        if libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def wal_database(path: Path) -> Path:
    """A job database as ``serve --db`` leaves it (WAL mode), closed."""
    JobStore(path).close()
    return path


def read_only_file(tmp_path: Path) -> Path:
    database = wal_database(tmp_path / "jobs.sqlite")
    database.chmod(0o444)
    return database


def read_only_directory(tmp_path: Path) -> Path:
    folder = tmp_path / "frozen"
    folder.mkdir()
    database = wal_database(folder / "jobs.sqlite")
    folder.chmod(0o555)
    return database


@pytest.mark.parametrize("make", [read_only_file, read_only_directory])
def test_a_read_only_database_stops_serve_with_one_line_and_exit_2(
    tmp_path: Path, make: Callable[[Path], Path]
) -> None:
    database = make(tmp_path)
    try:
        result = subprocess.run(
            [*SERVE, "--port", "0", "--db", str(database)],
            preexec_fn=without_root_override,
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        database.parent.chmod(0o755)
        database.chmod(0o644)
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert str(database) in lines[0]
    assert "readonly" in lines[0] or "read-only" in lines[0]


def test_a_full_disk_answers_503_and_loses_no_acknowledged_job(tmp_path: Path) -> None:
    database = wal_database(tmp_path / "jobs.sqlite")
    limit = database.stat().st_size + 96 * 1024  # room for a few jobs, then EFBIG

    def small_disk() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a failed write, not a killed process
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    process = subprocess.Popen(
        [*SERVE, "--port", "0", "--db", str(database)],
        preexec_fn=small_disk,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    acknowledged: dict[str, str] = {}
    refused: list[str] = []
    try:
        assert process.stdout is not None
        url = process.stdout.readline().split()[-1]
        with httpx.Client(base_url=url, headers=HEADERS, timeout=30) as client:
            for index in range(80):
                name = f"disk-{index}"
                body = job_body(name, algorithm={"command": "x" * 4000})
                response = client.post(JOBS, json=body)
                if response.status_code == 201:
                    acknowledged[response.json()["metadata"]["id"]] = name
                else:
                    check_error(response, 503, "ModelArts.4302")
                    refused.append(name)
            if acknowledged:  # reads still work on a full disk
                shown = client.get(f"{JOBS}/{next(iter(acknowledged))}")
                assert shown.status_code == 200
    finally:
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    assert acknowledged, "no create succeeded before the disk filled"
    assert refused, "the disk never filled"
    assert "Traceback" not in stderr
    failures = [line for line in stderr.splitlines() if "storage failure" in line]
    assert len(failures) == len(refused)
    # SQLite reports EFBIG as an I/O error (ENOSPC would be "database or disk is full")
    assert all("disk I/O error" in line for line in failures), failures[:3]
    reopened = JobStore(database)
    stored = {job.job_id: job.name for job in reopened.all_jobs()}
    reopened.close()
    assert stored == acknowledged  # every 201 kept, nothing refused half-stored


# -- injected SQLite failures, in process --------------------------------------------------------


class FailingConnection:
    """An SQLite connection whose statements starting with ``fail_on`` raise ``error``."""

    def __init__(self, connection: sqlite3.Connection, fail_on: str, error: sqlite3.Error) -> None:
        self._connection = connection
        self.fail_on = fail_on
        self.error = error
        self.armed = True

    def execute(self, sql: str, parameters: Any = ()) -> sqlite3.Cursor:
        if self.armed and sql.lstrip().upper().startswith(self.fail_on):
            if self.fail_on == "COMMIT":
                self._connection.execute("ROLLBACK")  # as SQLite does when COMMIT hits a full disk
            raise self.error
        return self._connection.execute(sql, parameters)

    @property
    def in_transaction(self) -> bool:
        return self._connection.in_transaction

    def close(self) -> None:
        self._connection.close()


@pytest.fixture
def faulty(tmp_path: Path) -> Iterator[tuple[ReferenceServer, httpx.Client]]:
    server = create_app(ServerSettings(clock=ManualClock(), db_path=tmp_path / "jobs.sqlite"))
    client = httpx.Client(transport=SyncASGITransport(server), base_url="http://t", headers=HEADERS)
    yield server, client
    server.close()


def inject(server: ReferenceServer, fail_on: str, message: str) -> FailingConnection:
    store: Any = server.store
    wrapper = FailingConnection(store._connection, fail_on, sqlite3.OperationalError(message))
    store._connection = wrapper
    return wrapper


@pytest.mark.parametrize(
    ("fail_on", "message"),
    [
        ("INSERT", "database or disk is full"),
        ("COMMIT", "database or disk is full"),
        ("BEGIN", "database is locked"),
    ],
)
def test_a_failed_create_is_503_one_line_and_the_store_recovers(
    faulty: tuple[ReferenceServer, httpx.Client],
    caplog: pytest.LogCaptureFixture,
    fail_on: str,
    message: str,
) -> None:
    server, client = faulty
    caplog.set_level(logging.INFO, logger="modelarts_kit_server")
    kept = client.post(JOBS, json=job_body("before")).json()["metadata"]["id"]
    fault = inject(server, fail_on, message)
    response = client.post(JOBS, json=job_body("during"))
    check_error(response, 503, "ModelArts.4302")
    check_documented_error(load_spec(), CREATE, response)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1
    assert errors[0].exc_info is None
    assert message in errors[0].getMessage()
    fault.armed = False
    again = client.post(JOBS, json=job_body("during"))  # the name was not taken
    assert again.status_code == 201, again.text
    names = sorted(job.name for job in server.store.all_jobs())
    assert names == ["before", "during"]
    assert client.get(f"{JOBS}/{kept}").status_code == 200


def test_a_failed_read_or_terminate_is_503(
    faulty: tuple[ReferenceServer, httpx.Client],
) -> None:
    server, client = faulty
    job_id = client.post(JOBS, json=job_body("j")).json()["metadata"]["id"]
    fault = inject(server, "SELECT", "disk I/O error")
    shown = client.get(f"{JOBS}/{job_id}")
    check_error(shown, 503, "ModelArts.4302")
    check_documented_error(load_spec(), SHOW, shown)
    stop = client.post(f"{JOBS}/{job_id}/actions", json={"action_type": "terminate"})
    check_error(stop, 503, "ModelArts.4302")
    check_documented_error(load_spec(), TERMINATE, stop)
    fault.armed = False
    shown = client.get(f"{JOBS}/{job_id}").json()
    assert shown["status"]["phase"] != "Terminating"  # the failed terminate changed nothing
    assert json.loads(json.dumps(shown))["metadata"]["id"] == job_id
