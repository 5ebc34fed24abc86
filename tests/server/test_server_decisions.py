"""The two ends of the reference server and the ledger's decisions (issue 31 items 3, 4, 6).

The strict end plays must-accept (it may enforce a decision, and offers only documented enum
values); the lenient end plays must-reject (it enforces what a page states, never what only
the ledger decided)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from modelarts_kit_server import ManualClock, ServerSettings, create_app
from modelarts_kit_spec.meaning import Role

from .family_support import Family, family_client
from .server_support import job_body


@pytest.fixture(params=["lenient", "strict"])
def end(request: pytest.FixtureRequest) -> Iterator[tuple[str, Family]]:
    app = create_app(ServerSettings(clock=ManualClock(), strictness=request.param))
    family = family_client(app)
    try:
        yield request.param, family
    finally:
        family.client.close()
        app.close()


def test_flavor_type_only_the_sdk_has_is_the_strict_ends_to_refuse(
    end: tuple[str, Family],
) -> None:
    strictness, family = end
    assert family.by_role(Role.FLAVORS, params={"flavor_type": "GPU"}).status_code == 200
    ascend = family.by_role(Role.FLAVORS, params={"flavor_type": "Ascend"})
    assert ascend.status_code == (400 if strictness == "strict" else 200), ascend.text
    unknown = family.by_role(Role.FLAVORS, params={"flavor_type": "TPU"})
    assert unknown.status_code == 400  # no source has it: every server refuses it


def test_a_borrowed_minimum_binds_only_the_strict_end(end: tuple[str, Family]) -> None:
    strictness, family = end
    body = job_body("zero-nodes", spec={"resource": {"flavor_id": "f", "node_count": 0}})
    answer = family.create(body)
    assert answer.status_code == (400 if strictness == "strict" else 201), answer.text


def test_a_task_engine_with_an_id_and_a_name_is_guidance(end: tuple[str, Family]) -> None:
    strictness, family = end
    body = job_body("task-engine")
    body["tasks"] = [
        {
            "role": "worker",
            "algorithm": {"engine": {"engine_id": "e", "engine_name": "n", "engine_version": "v"}},
            "task_resource": {"flavor_id": "f", "node_count": 1},
        }
    ]
    answer = family.create(body)
    assert answer.status_code == (400 if strictness == "strict" else 201), answer.text
    if strictness == "strict":
        assert "/tasks/0/algorithm/engine" in answer.json()["error_msg"]
