"""The mock and the client check read what the spec means; they follow a changed spec.

A temporary copy of the spec gets a new phase (with its lifecycle), a new accepted error code
(first for its meaning) and new enum values (a request enum and an open response enum). With no
code change, the mock answers and generates from the copy, and the client check's cases carry
the new values. Each assertion is also made against the original spec, so it cannot pass by
accident. Issue 12 (done when), for the mock and the client check.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import settings
from modelarts_kit_contracts.client import ClientCheckSettings, build_cases
from modelarts_kit_contracts.mock import MockServer, Variant
from modelarts_kit_spec import SPEC_PATH, Spec, load_spec

from tests.yaml_files import dump_yaml, load_yaml

PROJECT = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
JOBS = f"/v2/{PROJECT}/training-jobs"
AUTH = {"X-Auth-Token": "any-token"}
NEW_PHASE = "Suspended"
NEW_SECONDARY = "Hibernating"
NEW_CODE = "ModelArts.2999"
NEW_ACTION = "pause"


def _at(document: Any, pointer: str) -> Any:
    for token in pointer.lstrip("/").split("/"):
        document = document[token.replace("~1", "/").replace("~0", "~")]
    return document


def _add_value(node: dict[str, Any], value: str) -> None:
    """Add ``value`` to a node's documented values, closed (enum) or open (anyOf enum)."""
    if "enum" in node:
        node["enum"].append(value)
        return
    [listed] = [b for b in node["anyOf"] if "enum" in b]
    listed["enum"].append(value)


def changed_spec(tmp_path: Path) -> Spec:
    original = load_spec()
    document = load_yaml(SPEC_PATH.read_text(encoding="utf-8"))
    walker = original.walker
    show = original.meaning.roles.show
    lifecycle = document["x-modelarts-lifecycle"]
    # A phase, and where the lifecycle puts it.
    phase = walker.at_pointer(show.success.schema, lifecycle["phase-field"])
    secondary = walker.at_pointer(show.success.schema, lifecycle["secondary-phase-field"])
    assert phase is not None
    assert secondary is not None
    _add_value(_at(document, phase.pointer), NEW_PHASE)
    _add_value(_at(document, secondary.pointer), NEW_SECONDARY)
    lifecycle["transitions"][lifecycle["running"]].append(NEW_PHASE)
    lifecycle["transitions"][NEW_PHASE] = [lifecycle["running"], lifecycle["stopping"]]
    lifecycle["terminable"].append(NEW_PHASE)
    lifecycle["secondary-phases"][NEW_PHASE] = [NEW_SECONDARY]
    # An accepted error code, first for "invalid parameter" on create.
    create = original.meaning.roles.create
    response = _at(document, create.response_for(400).pointer)  # type: ignore[union-attr]
    response["x-modelarts-error-codes"]["invalid-parameter"].insert(0, NEW_CODE)
    document["x-modelarts-error-catalogue"].append(
        {"code": NEW_CODE, "status": 400, "name": "Bad field.", "message": "Bad field (%s).",
         "solution": "Fix the field."}
    )  # fmt: skip
    # A request enum value: a new action.
    terminate = original.meaning.roles.terminate
    action = next(iter(original.meaning.roles.terminate_body))
    action_node = walker.at_path(terminate.request_schema, action)
    assert action_node is not None
    _add_value(_at(document, action_node.pointer), NEW_ACTION)
    path = tmp_path / "openapi.yaml"
    path.write_text(dump_yaml(document, sort_keys=False), encoding="utf-8")
    return load_spec(path)


@pytest.fixture(scope="module")
def specs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Spec, Spec]:
    return load_spec(), changed_spec(tmp_path_factory.mktemp("spec"))


def mock_answers(spec: Spec, *requests: tuple[str, str, Any]) -> Iterator[httpx.Response]:
    mock = MockServer(spec, error_rate=0.0)
    with httpx.Client(transport=mock.httpx_transport(), base_url="http://m", headers=AUTH) as c:
        for method, path, body in requests:
            yield c.request(method, path, json=body)


def test_the_mock_answers_with_the_code_the_spec_prefers(specs: tuple[Spec, Spec]) -> None:
    original, changed = specs
    [before] = mock_answers(original, ("POST", JOBS, {}))
    [after] = mock_answers(changed, ("POST", JOBS, {}))
    assert before.json()["error_code"] == "ModelArts.2788"
    assert (after.status_code, after.json()["error_code"]) == (400, NEW_CODE)
    assert after.json()["error_msg"].startswith("Bad field (/kind)")


def test_the_mock_accepts_a_new_request_enum_value(specs: tuple[Spec, Spec]) -> None:
    original, changed = specs
    pause = ("POST", f"{JOBS}/job-1/actions", {"action_type": NEW_ACTION})
    [before] = mock_answers(original, pause)
    [after] = mock_answers(changed, pause)
    assert before.status_code == 400
    assert after.status_code == int(changed.meaning.roles.terminate.success.status)


def test_the_mock_generates_the_new_phase_and_secondary_phase(specs: tuple[Spec, Spec]) -> None:
    for spec, expected in zip(specs, (False, True), strict=True):
        generator = MockServer(spec).generator
        show = spec.meaning.roles.show
        lifecycle = spec.meaning.lifecycle
        for field, value in (
            (lifecycle.phase_field, NEW_PHASE),
            (lifecycle.secondary_phase_field, NEW_SECONDARY),
        ):
            node = spec.walker.at_pointer(show.success.schema, field)
            assert node is not None
            drawn = generator.draw(spec.at(node.pointer), Variant.TYPICAL, count=200, seed_value=3)
            assert (value in drawn) is expected, field


# Cases drawn per operation: 20 locally (the changed spec's cases carry the new code once and
# the new phase 5 times; building both specs' cases cost 19.5 s of CPU at 40, 8 s at 20), 40
# under the ci profile. At 10 the new phase is drawn no more.
CASES_MAX_EXAMPLES = 40 if settings().max_examples >= 100 else 20


def test_the_client_check_sends_the_new_values(specs: tuple[Spec, Spec]) -> None:
    for spec, expected in zip(specs, (False, True), strict=True):
        cases = build_cases(spec, ClientCheckSettings(seed=0, max_examples=CASES_MAX_EXAMPLES))
        sent = [json.dumps(r.body) for c in cases for r in c.responses]
        assert any(NEW_CODE in text for text in sent) is expected
        assert any(f'"{NEW_PHASE}"' in text for text in sent) is expected
