"""The mock answers every operation of the spec, whatever it has, with documented answers."""

from __future__ import annotations

import pytest
from modelarts_kit_contracts.client import Case, ClientCheckSettings, build_cases
from modelarts_kit_contracts.client.adapters import ClientTarget
from modelarts_kit_contracts.core.wire import validate_response
from modelarts_kit_contracts.mock import MockServer
from modelarts_kit_spec import Spec, load_spec

from .edition_specs import first_edition_spec
from .spec_client import SpecApiError, adapter_for

SETTINGS = ClientCheckSettings(seed=4, max_examples=1)


def _first_case_of_each(spec: Spec) -> list[Case]:
    firsts: dict[str, Case] = {}
    for case in build_cases(spec, SETTINGS):
        firsts.setdefault(case.operation.operation_id, case)
    return list(firsts.values())


@pytest.fixture(scope="module")
def editions(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Spec, list[Case]]]:
    specs = {"today": load_spec(), "first": first_edition_spec(tmp_path_factory.mktemp("first"))}
    return {name: (spec, _first_case_of_each(spec)) for name, spec in specs.items()}


def _answer_all(spec: Spec, cases: list[Case], error_rate: float) -> MockServer:
    """Call every operation of ``spec`` once per seed-drawn input through a correct client."""
    mock = MockServer(spec, seed_value=4, error_rate=error_rate, pool_size=1)
    target = ClientTarget("http://mock", "token", "ak", "sk", transport=mock.httpx_transport())
    client = adapter_for(spec)(target)
    try:
        for case in cases:
            try:
                client.call(case.call())
            except SpecApiError:
                continue  # a documented error the mock drew: judged below like any answer
    finally:
        client.close()
    return mock


@pytest.mark.parametrize("edition", ["today", "first"])
@pytest.mark.parametrize("error_rate", [0.0, 0.5])
def test_every_operation_gets_a_documented_answer(
    edition: str, error_rate: float, editions: dict[str, tuple[Spec, list[Case]]]
) -> None:
    spec, cases = editions[edition]
    mock = _answer_all(spec, cases, error_rate)
    assert mock.violations == []  # the correct client sent nothing wrong
    answered = {exchange.operation for exchange in mock.exchanges}
    assert answered == {op.operation_id for op in spec.operations}
    for exchange in mock.exchanges:
        op = spec.operation(exchange.operation)
        verdict = validate_response(spec, op, exchange.response, exchange.request)
        assert verdict.findings == [], (exchange.operation, verdict.findings)
        if error_rate == 0.0:
            assert exchange.status == int(op.success.status), exchange.operation
