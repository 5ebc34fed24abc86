"""The reference server refuses an invalid body with the same violation, hence the same answer,
whether Python walks the whole body or skips the parts the quick Rust verdict proves valid
(``Spec.validator``'s pruning): differential over schemathesis's own negative bodies for every
operation with a request body, against both ends' envelopes (strict and lenient)."""

from __future__ import annotations

import functools
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from jsonschema import ValidationError
from modelarts_kit_server.validation import (
    OPENAPI_FORMATS,
    best_violation,
    describe_violation,
    validate_instance,
)
from modelarts_kit_spec import Spec, load_spec
from modelarts_kit_spec.schemamodel import MUST_ACCEPT, MUST_REJECT
from schemathesis.generation import GenerationMode

SPEC = load_spec()
WITH_BODIES = [op for op in SPEC.operations if op.request_schema is not None]


# Built when a test first asks, not at collection (every pytest worker collects this module).
@functools.cache
def ends() -> dict[str, Spec]:
    return {"strict": SPEC.envelope(MUST_ACCEPT), "lenient": SPEC.envelope(MUST_REJECT)}


@functools.cache
def raw_schema() -> Any:
    return schemathesis.openapi.from_dict(SPEC.document)


def _negative_bodies(operation_id: str) -> list[Any]:
    """Bodies schemathesis generates as invalid for the operation (the profile's number)."""
    found = next(op for op in WITH_BODIES if op.operation_id == operation_id)
    cases = raw_schema()[found.path][found.method.upper()].as_strategy(
        generation_mode=GenerationMode.NEGATIVE
    )
    bodies: list[Any] = []

    @settings(
        database=None,
        phases=[Phase.generate],
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(cases)
    def draw(case: Any) -> None:
        bodies.append(case.body)

    draw()
    return bodies


def _told(error: ValidationError) -> tuple[Any, ...]:
    return (
        error.message,
        error.validator,
        list(error.absolute_path),
        list(error.absolute_schema_path),
        [_told(branch) for branch in error.context],
    )


def _full_walk(spec: Spec, schema: Any, body: Any) -> ValidationError | None:
    """The server's choice as it was made before the pruning: Python's whole error list."""
    if spec.surely_valid(schema, body):
        return None
    walking = spec.walking_validator(schema).evolve(format_checker=OPENAPI_FORMATS)
    return best_violation(walking.iter_errors(body))


@pytest.mark.parametrize("operation_id", [op.operation_id for op in WITH_BODIES])
def test_the_server_refuses_with_the_full_walks_violation(operation_id: str) -> None:
    bodies = _negative_bodies(operation_id)
    refused = 0
    for body in bodies:
        for spec in ends().values():
            schema = spec.operation(operation_id).request_schema
            expected = _full_walk(spec, schema, body)
            found = validate_instance(spec, schema, body)
            if expected is None:
                assert found is None, body
                continue
            assert found is not None, body
            assert _told(found) == _told(expected), body
            assert describe_violation(found) == describe_violation(expected), body
            refused += 1
    # Not vacuous: most negative bodies are refused by at least the strict end.
    assert refused >= len(bodies) // 2, (refused, len(bodies))
