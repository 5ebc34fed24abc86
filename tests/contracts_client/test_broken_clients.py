"""Each deliberately broken client variant is caught by the check named for its fault."""

from __future__ import annotations

import pytest
from modelarts_kit_contracts.client import (
    Case,
    ClientCheckSettings,
    build_cases,
    run_client_check,
)
from modelarts_kit_contracts.core.wire import GUIDANCE_NOTE
from modelarts_kit_spec import load_spec

from .broken_clients import BROKEN_CLIENTS, REACHES, BrokenAdapter

# One generated success response per edge variant per operation, in-process: enough to
# exercise every check, small enough for 18 variants within the time budget.
SETTINGS = ClientCheckSettings(seed=3, max_examples=10, in_process=True)


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    return build_cases(load_spec(), SETTINGS)


def reached(name: str, cases: list[Case]) -> list[Case]:
    """The cases of the operations the variant's fault reaches (``REACHES``), all without an
    entry: elsewhere it is the base adapter, whose every case the base adapter's test runs."""
    reaches = REACHES.get(name)
    return cases if reaches is None else [c for c in cases if reaches(c.operation)]


def test_each_restricted_variant_keeps_cases_and_names_a_variant(cases: list[Case]) -> None:
    names = {variant.__name__ for variant in BROKEN_CLIENTS}
    assert set(REACHES) <= names
    for name in REACHES:
        assert 0 < len(reached(name, cases)) < len(cases), name


def test_there_are_at_least_twelve_broken_variants() -> None:
    assert len(BROKEN_CLIENTS) >= 12


@pytest.mark.parametrize(
    ("variant", "expected_check"),
    list(BROKEN_CLIENTS.items()),
    ids=[variant.__name__ for variant in BROKEN_CLIENTS],
)
def test_broken_client_is_detected(
    variant: type[BrokenAdapter], expected_check: str, cases: list[Case]
) -> None:
    name = variant.__name__
    report = run_client_check(
        variant, settings=SETTINGS, cases=reached(name, cases), target_name=name
    )
    failed = {failure.check for failure in report.failures}
    assert expected_check in failed, f"{variant.__name__}: found only {sorted(failed)}"
    assert int(report.exit_code) == 1
    assert not report.errors


def test_the_unbroken_base_adapter_passes_the_same_cases(cases: list[Case]) -> None:
    # The variants differ from this adapter by their one fault only: its findings (if any)
    # must not be what the variants are credited with.
    report = run_client_check(BrokenAdapter, settings=SETTINGS, cases=cases)
    failed = {failure.check for failure in report.failures}
    assert failed <= {"error_msg_intact"}, failed


@pytest.mark.parametrize("fault", ["unknown_field_in_action", "engine_id_and_image_url"])
def test_a_client_breaking_a_guidance_rule_fails_and_the_finding_says_guidance(
    fault: str, cases: list[Case]
) -> None:
    # Issue 12: servers need not enforce guidance rules, clients must follow them.
    [variant] = [v for v in BROKEN_CLIENTS if v.__name__ == fault]
    report = run_client_check(
        variant, settings=SETTINGS, cases=reached(fault, cases), target_name=fault
    )
    guidance = [
        f for f in report.failures if f.check == "request_body" and GUIDANCE_NOTE in f.title
    ]
    assert guidance, [f.title for f in report.failures]
    assert {f.rule for f in guidance} <= {"additionalProperties", "not"}
