"""The server checks read the API's meaning from the spec (issue 12).

- a check accepts any error code the spec lists for a meaning and never demands one it does not
  list: a server answering the generic ``ModelArts.0104`` for a bad parameter passes once the
  spec lists that code, and fails while it does not;
- rules the spec marks ``x-modelarts-guidance`` are not demanded: a server that accepts a body
  breaking only guidance makes a choice the report records as an observation, not a failure,
  and schemathesis's negative cases come from the obligations view (guidance stripped).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any
from unittest import mock

import pytest
from modelarts_kit_contracts.core import ExitCode, RunReport
from modelarts_kit_contracts.server import run as server_run
from modelarts_kit_contracts.server.api_map import ApiMap
from modelarts_kit_contracts.server.breaks import guidance_breaks
from modelarts_kit_contracts.server.checks import SCENARIOS
from modelarts_kit_contracts.server.meaning import ErrorMeaning, accepted_codes
from modelarts_kit_contracts.server.run import Budget, RunOptions, run_server_contract
from modelarts_kit_contracts.server.target import ServerTarget
from modelarts_kit_contracts.transport_auth import Credentials
from modelarts_kit_server import DEV_PROJECT_ID, DEV_TOKEN
from modelarts_kit_spec import SPEC_PATH, KitError, load_spec, parse_spec
from modelarts_kit_spec.meaning import Role

from .mutants import LENIENT, Exchange, Mutant, _rewriting, mutated_app
from .test_mutants import ScenariosDriven

GENERIC = "ModelArts.0104"


def spec_with(change: Callable[[dict[str, Any]], None]) -> ApiMap:
    document = copy.deepcopy(load_spec().document)
    change(document)
    return ApiMap.from_spec(parse_spec(document, SPEC_PATH))


def _response(document: dict[str, Any], path: str, method: str, status: str) -> dict[str, Any]:
    node: dict[str, Any] = document["paths"][path][method]["responses"][status]
    return node


def list_generic_code(document: dict[str, Any]) -> None:
    """The spec lists ModelArts.0104 for an invalid parameter on create (400)."""
    response = _response(document, "/v2/{project_id}/training-jobs", "post", "400")
    response["description"] += f" A generic parameter error ({GENERIC}) is also possible."
    codes = response.get("x-modelarts-error-codes")
    if isinstance(codes, dict):
        listed = codes.setdefault("invalid-parameter", [])
        if GENERIC not in listed:
            listed.append(GENERIC)


def unlist_generic_code(document: dict[str, Any]) -> None:
    response = _response(document, "/v2/{project_id}/training-jobs", "post", "400")
    response["description"] = response["description"].replace(GENERIC, "")
    codes = response.get("x-modelarts-error-codes")
    if isinstance(codes, dict):
        codes["invalid-parameter"] = [c for c in codes.get("invalid-parameter", []) if c != GENERIC]


def _generic_code(exchange: Exchange) -> None:
    if exchange.status == 400 and exchange.role == "create" and b"ModelArts.2788" in exchange.body:
        document = exchange.json()
        document["error_code"] = GENERIC
        exchange.set_json(document)


GENERIC_SERVER = Mutant(
    "generic_code",
    "variant",
    "invalid parameters on create answered 0104",
    _rewriting(_generic_code),
)


def run(
    api: ApiMap, variant: Mutant | None, phases: tuple[str, ...] = (), scenario: str | None = None
) -> RunReport:
    """A run against ``variant``; ``scenario`` names the one scenario it drives (None: all)."""
    options = RunOptions(
        credentials=Credentials(token=DEV_TOKEN),
        project_id=DEV_PROJECT_ID,
        other_project_id=DEV_PROJECT_ID[::-1],
        budget=Budget(max_examples=3, seed=5),
        phases=phases,
        final_phase_wait_s=3.0,
    )
    driven = ScenariosDriven()
    with ExitStack() as stack:
        if scenario is not None:
            chosen = tuple(s for s in SCENARIOS if s.name == scenario)
            stack.enter_context(mock.patch.object(server_run, "SCENARIOS", chosen))
        app = stack.enter_context(mutated_app(variant))
        report = run_server_contract(ServerTarget.asgi(app), options, api=api, progress=driven)
    if scenario is not None:
        assert driven.names == [scenario], driven.names  # that one, and no other
    return report


# The one scenario that reports invalid_job_rejected (checks.SCENARIOS; a second one would
# fail this unpacking): the two tests of the invalid-parameter codes read that check's tally
# alone, so they drive that scenario alone.
[INVALID_JOB] = [s.name for s in SCENARIOS if "invalid_job_rejected" in s.reports]


def test_a_code_the_spec_lists_for_the_meaning_is_accepted() -> None:
    api = spec_with(list_generic_code)
    assert GENERIC in accepted_codes(api, Role.CREATE, 400, ErrorMeaning.INVALID_PARAMETER)
    report = run(api, GENERIC_SERVER, scenario=INVALID_JOB)
    assert report.tallies["invalid_job_rejected"].passed > 0
    assert report.tallies["invalid_job_rejected"].failed == 0, report.failures


def test_a_code_the_spec_does_not_list_is_not_accepted() -> None:
    api = spec_with(unlist_generic_code)
    assert GENERIC not in accepted_codes(api, Role.CREATE, 400, ErrorMeaning.INVALID_PARAMETER)
    report = run(api, GENERIC_SERVER, scenario=INVALID_JOB)
    assert report.tallies["invalid_job_rejected"].failed > 0
    assert all(
        GENERIC not in f.expected for f in report.failures if f.check == "invalid_job_rejected"
    )


def mark_guidance(document: dict[str, Any]) -> None:
    """The rules issue 12 names as guidance: the closed terminate body, choose-one pairs."""
    schemas = document["components"]["schemas"]
    for name, keyword in (("JobActionType", "additionalProperties"), ("Job", "not")):
        marked = schemas[name].setdefault("x-modelarts-guidance", [])
        if keyword not in marked:
            marked.append(keyword)


def test_guidance_breaks_come_from_the_markers() -> None:
    api = spec_with(mark_guidance)
    create = list(guidance_breaks(api.spec, api.create.request_schema))
    terminate = list(guidance_breaks(api.spec, api.terminate.request_schema))
    assert ((), "not") in [(path, keyword) for path, keyword, _ in create]
    assert [(path, keyword) for path, keyword, _ in terminate] == [((), "additionalProperties")]
    stripped = api.obligations.document["components"]["schemas"]
    assert "additionalProperties" not in stripped["JobActionType"]
    assert "not" not in stripped["Job"]


@pytest.mark.parametrize("phases", [(), ("coverage", "fuzzing")], ids=["scenarios", "phases"])
def test_a_lenient_server_gets_observations_not_failures(phases: tuple[str, ...]) -> None:
    """Guidance lies between the envelopes: a server ignoring it makes a choice the run
    records as an observation, never a failure (issue 23)."""
    api = spec_with(mark_guidance)
    report = run(api, LENIENT, phases)
    assert report.failures == [], [str(f) for f in report.failures]
    assert report.exit_code is ExitCode.PASSED
    choices = {o.choice for o in report.observations}
    assert "ignores unknown fields" in choices, choices
    assert all(not c.startswith("enforces") for c in choices), choices
    assert report.warnings == []


def test_the_reference_server_passes_and_guidance_is_only_observed() -> None:
    """The reference server enforces the spec's obligations only, as the real service does
    (issue 12): a body breaking guidance alone is accepted, an observation, never a failure."""
    api = spec_with(mark_guidance)
    report = run(api, None)
    assert report.exit_code is ExitCode.PASSED, [str(f) for f in report.failures]
    assert report.failures == []
    assert report.observations
    assert all(o.operation and o.choice for o in report.observations)


@pytest.mark.parametrize(
    ("remove", "named"),
    [
        (lambda d: d.pop("x-modelarts-lifecycle"), "x-modelarts-lifecycle"),
        (
            lambda d: d["paths"]["/v2/{project_id}/training-jobs"]["post"].pop("x-modelarts-role"),
            "x-modelarts-role: create",
        ),
    ],
    ids=["lifecycle", "role"],
)
def test_a_spec_without_the_meaning_extensions_is_refused(
    remove: Callable[[dict[str, Any]], object], named: str
) -> None:
    """The checks know no phase, code or role of their own: without the extension that states
    them, the run refuses to start (exit 2, naming it) instead of checking a built-in table."""
    document = copy.deepcopy(load_spec().document)
    remove(document)
    with pytest.raises(KitError) as caught:
        ApiMap.from_spec(parse_spec(document, SPEC_PATH))
    assert caught.value.exit_code == 2
    assert named in str(caught.value)
