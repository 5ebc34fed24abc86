"""`contract server` against a second server written from the vendor's pages alone (issue 31).

``tests/contracts/independent`` reads only ``spec/sources`` (its own page readers, no spec, no
ledger, no reference-server code), takes the choices the reference server does not take where
the pages leave one open, and answers the status and error codes of
``reference/error_codes.rst``. Both of its ends must pass, default and ``--quick``; the
20-seed runs are ``benchmarks/seeds_no_false_positives.py --servers independent-lenient,
independent-strict`` (and ``--quick``). ``DISAGREEMENTS.md`` beside the server lists every
place where it and the kit first disagreed, and who was right by the pages.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import MutableMapping
from typing import Any

import pytest
from modelarts_kit_contracts.core import ExitCode, RunReport
from modelarts_kit_contracts.server.run import (
    QUICK,
    Budget,
    RunOptions,
    ServerTarget,
    run_server_contract,
)
from modelarts_kit_contracts.transport_auth import Credentials

from .independent import PROJECT, TOKEN, IndependentServer, Mode

BASE = f"/v2/{PROJECT}"
CREATE = {
    "kind": "job",
    "metadata": {"name": "independent-case"},
    "algorithm": {"code_dir": "obs://b/code/", "boot_file": "obs://b/code/train.py"},
    "spec": {"resource": {"flavor_id": "modelarts.vm.cpu.8u", "node_count": 1}},
}


def call(
    app: IndependentServer, method: str, path: str, body: Any = None, query: str = ""
) -> tuple[int, Any]:
    raw = b"" if body is None else json.dumps(body).encode()
    sent: list[dict[str, Any]] = []

    async def receive() -> MutableMapping[str, Any]:
        return {"type": "http.request", "body": raw, "more_body": False}

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(dict(message))

    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "query_string": query.encode(),
        "headers": [(b"x-auth-token", TOKEN.encode()), (b"content-type", b"application/json")],
    }
    asyncio.run(app(scope, receive, send))
    payload = sent[1]["body"]
    return int(sent[0]["status"]), json.loads(payload) if payload else None


def events_status(mode: Mode, query: str) -> int:
    app = IndependentServer(mode)
    status, job = call(app, "POST", f"{BASE}/training-jobs", CREATE)
    assert status == 201, job
    return call(app, "GET", f"{BASE}/training-jobs/{job['metadata']['id']}/events", query=query)[0]


# (query, lenient, strict): what each end answers, and the page line that decides it.
EVENTS = [
    ("", 200, 200),
    # The third-party CLI's request (modelarts-macli 0.2.0): empty level and pattern.
    ("limit=50&offset=0&order=desc&pattern=&level=", 200, 400),
    # "Start time, which must be passed together with the end time" (Table 2)
    ("end_time=1669711991259", 400, 400),
    ("start_time=1669449696964", 400, 400),
    ("start_time=1669449696964&end_time=1669711991259", 200, 200),
    # Type String; only the example shows epoch milliseconds: the strict end takes only those.
    ("start_time=yesterday&end_time=today", 200, 400),
    ("level=Debug", 400, 400),  # "The value range is [Info Error Warning]."
    ("limit=101", 400, 400),  # "The value ranges from 1 to 100."
    (f"offset={2**40}", 400, 400),  # Integer
]


@pytest.mark.parametrize(("query", "lenient", "strict"), EVENTS)
def test_each_end_answers_the_events_query_as_the_page_says(
    query: str, lenient: int, strict: int
) -> None:
    assert (events_status("lenient", query), events_status("strict", query)) == (lenient, strict)


@pytest.mark.parametrize(
    ("query", "lenient", "strict"),
    [
        ("", 200, 200),
        ("flavor_type=GPU", 200, 200),
        # "If this parameter is not specified, all flavors will be obtained."
        ("flavor_type=", 200, 400),
        ("flavor_type=Ascend", 400, 400),  # "Options: CPU, GPU"
    ],
)
def test_flavor_type_is_cpu_or_gpu_and_empty_is_not_specified_at_the_lenient_end(
    query: str, lenient: int, strict: int
) -> None:
    got = tuple(
        call(IndependentServer(mode), "GET", f"{BASE}/training-job-flavors", query=query)[0]
        for mode in ("lenient", "strict")
    )
    assert got == (lenient, strict)


@pytest.mark.parametrize("mode", ["lenient", "strict"])
def test_a_list_without_a_body_is_every_job(mode: Mode) -> None:
    """Every parameter of the list page is "Mandatory: No": no body, no criteria."""
    app = IndependentServer(mode)
    assert call(app, "POST", f"{BASE}/training-jobs", CREATE)[0] == 201
    status, answer = call(app, "POST", f"{BASE}/training-job-searches")
    assert status == 200
    assert answer["count"] == len(answer["items"]) == 1


def contract_run(mode: Mode, seed: int, quick: bool) -> RunReport:
    options = RunOptions(
        credentials=Credentials(token=TOKEN),
        project_id=PROJECT,
        other_project_id=PROJECT[::-1],
        budget=Budget(max_examples=QUICK.max_examples if quick else 3, seed=seed),
        final_phase_wait_s=5.0,
    )
    if quick:
        options = dataclasses.replace(options, phases=QUICK.phases)
    return run_server_contract(ServerTarget.asgi(IndependentServer(mode)), options)


@pytest.mark.parametrize(("seed", "quick"), [(3, True), (4, False)])
@pytest.mark.parametrize("mode", ["lenient", "strict"])
def test_contract_server_passes_the_independent_server(mode: Mode, seed: int, quick: bool) -> None:
    report = contract_run(mode, seed, quick)
    assert report.errors == []
    assert [f"{f.check}: {f.title} ({f.evidence})" for f in report.failures] == []
    assert report.exit_code is ExitCode.PASSED
    assert sum(t.passed for t in report.tallies.values()) > 50


def test_a_busy_machine_does_not_end_a_run_with_a_health_check() -> None:
    """Default run, seed 0, load average 21: "Failed Health Check: Data generation is too
    slow" ended both ends' runs; a wall-clock health check says nothing of the server."""
    from modelarts_kit_contracts.server.schemathesis_adapter import build_config

    config = build_config(
        base_url="http://127.0.0.1",
        seed=0,
        phases=("examples",),
        max_examples=1,
        max_time_s=None,
        workers=1,
        request_timeout_s=1.0,
        parameters={},
        headers={},
        checks=(),
        signed_at_transport=False,
    )
    assert "too_slow" in {str(check) for check in config.suppress_health_check}
