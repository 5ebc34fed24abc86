"""One validator (issue 31 items 7 and 8): the reference server at both ends, the wire checks
(what ``contract mock``, ``contract proxy`` and ``contract client`` run) and the contract run's
placement give one answer for the same request, bounds of query parameters included; and a
real client's requests (modelarts-macli 0.2.0, kept in ``data/``) pass all of them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import httpx
import pytest
from modelarts_kit_contracts.core.envelopes import Placement
from modelarts_kit_contracts.core.wire import Headers, WireRequest, validate_request
from modelarts_kit_contracts.server.api_map import ApiMap
from modelarts_kit_server import DEV_PROJECT_ID, DEV_TOKEN, ManualClock, ServerSettings, create_app
from modelarts_kit_spec import load_spec

from tests.server.server_support import SyncASGITransport

BASE = f"/v2/{DEV_PROJECT_ID}"
MACLI = json.loads((Path(__file__).parent / "data" / "macli_0.2.0_requests.json").read_text())
CREATE = {
    "kind": "job",
    "metadata": {"name": "one-validator"},
    "algorithm": {"code_dir": "obs://b/code/", "boot_file": "obs://b/code/train.py"},
    "spec": {"resource": {"flavor_id": "modelarts.vm.cpu.8u", "node_count": 1}},
}


class Reference:
    """The reference server at one end, in-process, with one job."""

    def __init__(self, strictness: str) -> None:
        self.app = create_app(ServerSettings(clock=ManualClock(), strictness=strictness))
        self.client = httpx.Client(
            transport=SyncASGITransport(self.app),
            base_url="http://127.0.0.1",
            headers={"X-Auth-Token": DEV_TOKEN},
        )
        self.created = 0

    def send(self, method: str, path: str, query: str = "", body: Any = None) -> int:
        """The status of the request, on a job of its own (a stop or delete ends one)."""
        self.created += 1
        created = {**CREATE, "metadata": {"name": f"one-validator-{self.created}"}}
        job = self.client.post(f"{BASE}/training-jobs", json=created).json()
        filled = path.format(job=job["metadata"]["id"], task=job["status"]["tasks"][0])
        url = BASE + filled + (f"?{query}" if query else "")
        content = None if body is None else json.dumps(body).encode()
        headers = {"Content-Type": "application/json"} if body is not None else {}
        answer = self.client.request(method, url, content=content, headers=headers)
        self.last = answer.text
        return answer.status_code

    def close(self) -> None:
        self.client.close()
        self.app.close()


@pytest.fixture(scope="module")
def servers() -> Iterator[dict[str, Reference]]:
    found = {end: Reference(end) for end in ("lenient", "strict")}
    yield found
    for server in found.values():
        server.close()


def wire_findings(method: str, path: str, query: str = "", body: Any = None) -> list[str]:
    """What the mock, the proxy and the client check say of the request (their one check)."""
    filled = BASE + path.format(job="3faf5c03-aaa1-4cbe-879d-24b05d997347", task="worker-0")
    headers = {"X-Auth-Token": DEV_TOKEN}
    if body is not None:
        headers["Content-Type"] = "application/json"
    raw = b"" if body is None else json.dumps(body).encode()
    verdict = validate_request(
        load_spec(), WireRequest(method, filled, Headers(headers), raw, query)
    )
    return [f"{f.check}: {f.title}" for f in verdict.findings]


def placement(operation_id: str, query: str) -> Placement:
    """Where the contract run places the request's parameters."""
    return ApiMap.from_spec().envelopes.place_parameters(
        operation_id, parse_qsl(query, keep_blank_values=True)
    )


@pytest.mark.parametrize("request_", MACLI["requests"], ids=lambda r: r["name"])
def test_the_third_party_cli_requests_pass_everywhere(
    servers: dict[str, Reference], request_: dict[str, Any]
) -> None:
    method, path = request_["method"], request_["path"]
    query, body = request_.get("query", ""), request_.get("body")
    assert wire_findings(method, path, query, body) == []  # mock, proxy, client check
    for end, server in servers.items():
        status = server.send(method, path, query, body)
        assert 200 <= status < 300, (end, request_["name"], status, server.last)


EVENTS = "/training-jobs/{job}/events"
# (query, accepted by every reader of must-reject, contract placement)
TABLE = [
    (f"offset={2**40}", False, Placement.MUST_REJECT),  # int32: the server said 400, mock 200
    ("offset=-1", True, Placement.BETWEEN),  # no range on the page: minimum 0 is a decision
    ("limit=0", False, Placement.MUST_REJECT),
    ("limit=100", True, Placement.MUST_ACCEPT),
    ("level=", True, Placement.BETWEEN),  # an empty filter is not given
    # An empty free-text filter too: the page's strict reading may refuse it (issue 31 item 5:
    # whether a server refuses an empty value is an observation).
    ("pattern=", True, Placement.BETWEEN),
    ("level=Debug", False, Placement.MUST_REJECT),
    ("end_time=1669711991259", False, Placement.MUST_REJECT),  # "must be passed together"
    ("start_time=a&end_time=b", True, Placement.BETWEEN),  # epoch ms: guidance
    ("start_time=1&end_time=2", True, Placement.MUST_ACCEPT),
]


@pytest.mark.parametrize(("query", "accepted", "placed"), TABLE)
def test_one_answer_for_the_same_query(
    servers: dict[str, Reference], query: str, accepted: bool, placed: Placement
) -> None:
    assert placement("ListTrainingJobEvents", query) is placed
    lenient = servers["lenient"].send("GET", EVENTS, query)
    strict = servers["strict"].send("GET", EVENTS, query)
    findings = wire_findings("GET", EVENTS, query)
    assert (lenient == 200) is accepted
    # The strict end and the clients' check hold to must-accept; an empty value is not
    # given at both ends of the reference server (a real client sends level=).
    empty = query.endswith("=")
    assert (strict == 200) is (placed is Placement.MUST_ACCEPT or empty)
    assert (findings == []) is (placed is Placement.MUST_ACCEPT or empty)
