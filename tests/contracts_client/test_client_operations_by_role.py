"""The client check covers every operation of the spec it is given, through the spec's roles.

A spec with three operations (older users' specs) gives three operations' cases, one with more
gives more; an operation a client cannot make is reported as not supported by that client, not
as a failure; a client that sends the wrong method or path for one operation is caught there.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from modelarts_kit_contracts.client import Case, ClientCheckSettings, build_cases, run_client_check
from modelarts_kit_contracts.client.adapters.generated import GeneratedClientAdapter
from modelarts_kit_contracts.client.run import not_supported_notes
from modelarts_kit_contracts.core import RunReport
from modelarts_kit_spec import Spec, load_spec
from modelarts_kit_spec.meaning import Role

from .edition_specs import EVENTS_ID, SEARCH_ID, first_edition_spec, paged_spec
from .spec_client import adapter_for

SETTINGS = ClientCheckSettings(seed=1, max_examples=6, in_process=True)


@pytest.fixture(scope="module")
def spec(tmp_path_factory: pytest.TempPathFactory) -> Spec:
    return paged_spec(tmp_path_factory.mktemp("paged"))


@pytest.fixture(scope="module")
def cases(spec: Spec) -> list[Case]:
    return build_cases(spec, SETTINGS)


@pytest.fixture(scope="module")
def check(spec: Spec, cases: list[Case]) -> Callable[..., RunReport]:
    def run(factory: Any) -> RunReport:
        return run_client_check(factory, settings=SETTINGS, spec=spec, cases=cases)

    return run


def _operations(spec: Spec) -> set[str]:
    return {op.operation_id for op in spec.operations}


def test_cases_cover_every_operation_with_its_inputs(spec: Spec, cases: list[Case]) -> None:
    assert {case.operation.operation_id for case in cases} == _operations(spec)
    events = [case for case in cases if case.operation.operation_id == EVENTS_ID]
    job_id = spec.meaning.roles.job_id_parameter
    assert all(case.path_params[job_id] == case.job_id != "" for case in events)
    assert any("limit" in case.query for case in events)
    assert any(not case.query for case in events)  # optional parameters are sometimes left out
    searches = [case for case in cases if case.operation.operation_id == SEARCH_ID]
    assert all(isinstance(case.body, dict) for case in searches)
    # A GET must be retried on 429/503; the search is a POST and is not probed for it.
    assert {c.retry for c in events} == {"none", "required"}
    assert {c.retry for c in searches} == {"none"}


def test_a_correct_client_passes_every_operation(
    spec: Spec, check: Callable[..., RunReport]
) -> None:
    report = check(adapter_for(spec))
    assert [f.message for f in report.failures] == []
    assert set(report.response_times_ms) == _operations(spec)
    assert report.notes == []
    assert int(report.exit_code) == 0


def test_a_first_edition_spec_is_checked_on_its_three_operations(tmp_path: Path) -> None:
    first = first_edition_spec(tmp_path)
    report = run_client_check(adapter_for(first), settings=SETTINGS, spec=first)
    assert [f.message for f in report.failures] == []
    assert set(report.response_times_ms) == _operations(first)
    assert len(report.response_times_ms) == 3


def test_an_operation_the_client_lacks_is_not_supported_not_failed(
    spec: Spec, check: Callable[..., RunReport]
) -> None:
    report = check(adapter_for(spec, unsupported=frozenset({Role.EVENTS})))
    assert int(report.exit_code) == 0
    [note] = report.notes
    assert note.startswith(f"{EVENTS_ID}: not supported by this client")
    assert EVENTS_ID not in report.response_times_ms
    assert SEARCH_ID in report.response_times_ms


def test_a_query_parameter_the_client_cannot_send_skips_only_those_cases(
    spec: Spec, check: Callable[..., RunReport], cases: list[Case]
) -> None:
    # The vendor SDK's events request has no field for one documented query parameter.
    report = check(adapter_for(spec, unsupported_query=frozenset({"offset"})))
    assert int(report.exit_code) == 0
    [note] = report.notes
    assert note.startswith(f"{EVENTS_ID}: not supported by this client (spec-client cannot send")
    assert "offset" in note
    assert report.response_times_ms[EVENTS_ID]  # its other cases ran
    # The note names each case it skipped (issue 35), and how many of the operation's ran.
    events = [case for case in cases if case.operation.operation_id == EVENTS_ID]
    skipped = [case.name for case in events if "offset" in case.call().query]
    assert 0 < len(skipped) < len(events)
    named = note.split(" not checked: ", 1)[1].split("; the other ", 1)
    assert named[0].split(", ") == [name.removeprefix(f"{EVENTS_ID} ") for name in skipped]
    assert f"{len(skipped)} of {len(events)} cases not checked" in note
    assert named[1] == f"{len(events) - len(skipped)} ran"


def test_a_note_for_an_operation_the_client_lacks_says_all_its_cases() -> None:
    notes = not_supported_notes(
        {("Op", "no OpRequest"): ["Op 200 typical #1", "Op 401 error #1"]}, {"Op": 2}
    )
    assert notes == ["Op: not supported by this client (no OpRequest): all 2 cases not checked"]


def test_the_generated_client_adapter_finds_operations_by_id(
    spec: Spec, check: Callable[..., RunReport]
) -> None:
    # The generated client has no method for the test operations.
    report = check(GeneratedClientAdapter)
    unsupported = sorted(note.split(":")[0] for note in report.notes)
    assert unsupported == sorted([EVENTS_ID, SEARCH_ID])
    assert "has no method paged_test_search" in " ".join(report.notes)
    assert int(report.exit_code) == 0, [f.message for f in report.failures]


@pytest.mark.parametrize(
    ("fault", "expected"),
    [
        ({"wrong_method": "DELETE"}, "request_method"),
        ({"path_suffix": "/all"}, "request_path"),
        ({"drops_query": True}, "request_query_fidelity"),
    ],
    ids=["wrong-method", "wrong-path", "drops-query"],
)
def test_a_wrong_method_path_or_query_for_one_operation_is_caught_there(
    spec: Spec, check: Callable[..., RunReport], fault: dict[str, str], expected: str
) -> None:
    report = check(adapter_for(spec, faulty_role=Role.EVENTS, **fault))
    found = {(f.check, f.operation) for f in report.failures}
    assert (expected, EVENTS_ID) in found, found
    assert {operation for _, operation in found} == {EVENTS_ID}
    assert int(report.exit_code) == 1


@pytest.fixture(scope="module")
def delete_cases() -> list[Case]:
    spec = load_spec()
    delete = spec.meaning.roles.get(Role.DELETE)
    assert delete is not None
    return [c for c in build_cases(spec, SETTINGS) if c.operation is delete]


@pytest.mark.parametrize(
    ("fault", "expected"),
    [({"wrong_method": "POST"}, "request_method"), ({"path_suffix": "/x"}, "request_path")],
    ids=["wrong-method", "wrong-path"],
)
def test_a_client_deleting_with_a_wrong_method_or_path_is_caught(
    delete_cases: list[Case], fault: dict[str, str], expected: str
) -> None:
    spec = load_spec()
    correct = run_client_check(adapter_for(spec), settings=SETTINGS, cases=delete_cases)
    assert correct.failures == [], [f.message for f in correct.failures]
    report = run_client_check(
        adapter_for(spec, faulty_role=Role.DELETE, **fault), settings=SETTINGS, cases=delete_cases
    )
    delete_id = delete_cases[0].operation.operation_id
    assert (expected, delete_id) in {(f.check, f.operation) for f in report.failures}
    assert int(report.exit_code) == 1


def test_no_body_for_an_empty_optional_one_and_an_empty_result_for_no_content_pass(
    delete_cases: list[Case],
) -> None:
    # The vendor SDK sends no body where the caller's optional body is {}, and hands back an
    # empty object for an answer without content: neither loses anything.
    spec = load_spec()
    sdk_like = adapter_for(spec, omits_empty_body=True, empty_result=True)
    assert any(case.body == {} for case in delete_cases)
    report = run_client_check(sdk_like, settings=SETTINGS, cases=delete_cases)
    assert report.failures == [], [f.message for f in report.failures]
    assert report.tallies["request_body_fidelity"].passed > 0
    assert report.tallies["fidelity_value_changed"].passed > 0
