"""`contract server` against an independent server written from the vendor's pages (issue 23).

The kit demands acceptance only of must-accept bodies and rejection only of bodies outside
must-reject; what a correct server does in between is recorded as an observation. The pages
server (``pages_server.py``) plays both ends: ``lenient`` ignores what the pages do not state,
``strict`` refuses it. Both must pass, and the issue's five bodies must each be a choice.
"""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import MutableMapping
from typing import Any

import pytest
from modelarts_kit_contracts.core import ExitCode, RunReport
from modelarts_kit_contracts.core.envelopes import Placement
from modelarts_kit_contracts.server.api_map import ApiMap
from modelarts_kit_contracts.server.choices import choices_made
from modelarts_kit_contracts.server.run import Budget, RunOptions, ServerTarget, run_server_contract
from modelarts_kit_contracts.transport_auth import Credentials

from .pages_server import PROJECT, TOKEN, Mode, PagesServer

CI_PHASES = ("examples", "fuzzing", "stateful")
SEEDS = (1, 2)
JOBS = f"/v2/{PROJECT}/training-jobs"

# A create body the create page's own first example is made of, with a task that has inputs.
CREATE: dict[str, Any] = {
    "kind": "job",
    "metadata": {"name": "pages-case"},
    "algorithm": {
        "code_dir": "obs://bucket/code/",
        "boot_file": "obs://bucket/code/train.py",
        "outputs": [{"name": "out", "remote": {"obs": {"obs_url": "obs://bucket/out/"}}}],
        "parameters": [{"name": "lr", "value": "0.1"}],
    },
    "spec": {"resource": {"flavor_id": "modelarts.p3.large.public.free", "node_count": 1}},
}


def with_change(path: tuple[str | int, ...], value: Any, body: Any = None) -> Any:
    changed: Any = copy.deepcopy(CREATE if body is None else body)
    node = changed
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return changed


def without(path: tuple[str | int, ...]) -> Any:
    changed: Any = copy.deepcopy(CREATE)
    node = changed
    for key in path[:-1]:
        node = node[key]
    del node[path[-1]]
    return changed


REMOTE_NEITHER = with_change(
    ("tasks",),
    [
        {
            "role": "worker",
            "algorithm": {
                "job_config": {"inputs": [{"name": "data", "remote": {}}]},
            },
        }
    ],
    without(("spec",)),
)
# The issue's five bodies: (operation, body, what the strict server refuses there).
CASES = {
    "access_method_sdk_only": (
        "CreateTrainingJob",
        with_change(("algorithm", "outputs", 0, "access_method"), {}),
    ),
    "remote_neither_dataset_nor_obs": ("CreateTrainingJob", REMOTE_NEITHER),
    "terminate_extra_empty_key": ("StopTrainingJob", {"action_type": "terminate", "": 1}),
    "resource_neither_flavor_nor_pool": (
        "CreateTrainingJob",
        with_change(("spec", "resource"), {"node_count": 1}),
    ),
    "i18n_description_null": (
        "CreateTrainingJob",
        with_change(("algorithm", "parameters", 0, "i18n_description"), None),
    ),
}


def call(app: PagesServer, method: str, path: str, body: Any) -> tuple[int, Any]:
    """One request to the ASGI app, in-process."""
    raw = json.dumps(body).encode()
    sent: list[dict[str, Any]] = []

    async def receive() -> MutableMapping[str, Any]:
        return {"type": "http.request", "body": raw, "more_body": False}

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(dict(message))

    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "headers": [(b"x-auth-token", TOKEN.encode()), (b"content-type", b"application/json")],
    }
    asyncio.run(app(scope, receive, send))
    return int(sent[0]["status"]), json.loads(sent[1]["body"])


def answer(mode: Mode, operation: str, body: Any) -> int:
    app = PagesServer(mode)
    if operation == "CreateTrainingJob":
        return call(app, "POST", JOBS, body)[0]
    status, job = call(app, "POST", JOBS, CREATE)
    assert status == 201, job
    return call(app, "POST", f"{JOBS}/{job['metadata']['id']}/actions", body)[0]


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_issue_body_lies_between_the_envelopes(case: str) -> None:
    """Neither accepting nor refusing these bodies is a failure: they are must-reject (no
    documented rule broken) but not must-accept."""
    operation, body = CASES[case]
    api = ApiMap.from_spec()
    assert api.envelopes.place(operation, body) is Placement.BETWEEN


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_two_pages_servers_choose_differently_and_each_choice_is_observed(case: str) -> None:
    operation, body = CASES[case]
    api = ApiMap.from_spec()
    lenient, strict = answer("lenient", operation, body), answer("strict", operation, body)
    assert strict == 400
    choices = {
        mode: [o.choice for o in choices_made(api, operation, body, status)]
        for mode, status in (("lenient", lenient), ("strict", strict))
    }
    assert choices["strict"], choices
    assert all(not c.startswith(("ignores", "does not", "accepts")) for c in choices["strict"])
    if lenient < 300:
        assert choices["lenient"], choices
        assert all(c.startswith(("ignores", "does not", "accepts")) for c in choices["lenient"])


def contract_run(mode: Mode, seed: int) -> RunReport:
    options = RunOptions(
        credentials=Credentials(token=TOKEN),
        project_id=PROJECT,
        other_project_id=PROJECT[::-1],
        budget=Budget(max_examples=3, seed=seed),
        phases=CI_PHASES,
        final_phase_wait_s=5.0,
    )
    return run_server_contract(ServerTarget.asgi(PagesServer(mode)), options)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("mode", ["lenient", "strict"])
def test_contract_server_passes_the_pages_server(mode: Mode, seed: int) -> None:
    report = contract_run(mode, seed)
    assert report.errors == []
    failures = [f"{f.check}: {f.title} ({f.evidence})" for f in report.failures]
    assert failures == []
    assert report.exit_code is ExitCode.PASSED
    assert sum(t.passed for t in report.tallies.values()) > 100
    choices = [o.choice for o in report.observations]
    resource = "/spec/resource needs one of flavor_id, pool_id (guidance)"
    if mode == "strict":
        assert "refuses unknown fields" in choices, choices  # the terminate body's "" key
        assert f"enforces: {resource}" in choices, choices
    else:
        assert "ignores unknown fields" in choices, choices
        assert f"does not enforce: {resource}" in choices, choices
