"""The reference server's refusal of invalid create bodies: the pruned walk against the full one.

The coverage phase of a default ``contract server`` run sends the reference server about 1,100
invalid create bodies; for each, ``validate_instance`` builds Python jsonschema's error list
and keeps the best violation (its message is the answer). ``Spec.validator`` no longer walks
the members and items the quick Rust verdict proves valid. This times both over the same
bodies, in CPU seconds of one pass, interleaved rounds:

- ``full walk (as before)``: Python's whole error list (``Spec.walking_validator`` with the
  server's int32/int64 checker), as the server chose before the pruning;
- ``pruned (the server's)``: ``validate_instance`` as the server calls it.

Two sets of create bodies, each judged by the lenient end's envelope (must-reject, the
embedded server's default):

- ``coverage``: the bodies the reference server could not call valid at once during the
  coverage phase of a default in-process run (captured from the run itself): mostly a valid
  body with one place broken, where the pruning skips the rest;
- ``negative``: schemathesis's own negative generation for the create operation
  (derandomized): often broken at the top, or holding values only Python judges.

Before timing, every body's chosen violation is checked to be the same both ways.

    .venv/bin/python benchmarks/bench_refusals.py [--rounds 5] [--bodies 300]
"""

from __future__ import annotations

import argparse
import time
from typing import Any
from unittest import mock

import schemathesis
from harness import Stats, interleave, table
from hypothesis import HealthCheck, Phase, given, settings
from jsonschema import ValidationError
from modelarts_kit_server.validation import (
    OPENAPI_FORMATS,
    best_violation,
    describe_violation,
    validate_instance,
)
from modelarts_kit_spec import Spec, load_spec
from modelarts_kit_spec.schemamodel import MUST_REJECT
from schemathesis.generation import GenerationMode

OPERATION = "CreateTrainingJob"


def negative_bodies(spec: Spec, count: int) -> list[Any]:
    operation = spec.operation(OPERATION)
    raw = schemathesis.openapi.from_dict(spec.document)[operation.path][operation.method.upper()]
    bodies: list[Any] = []

    @settings(
        max_examples=count,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(raw.as_strategy(generation_mode=GenerationMode.NEGATIVE))
    def draw(case: Any) -> None:
        bodies.append(case.body)

    draw()
    return bodies


def coverage_bodies() -> list[Any]:
    """The create bodies the server validated in full during a default run's coverage phase."""
    from harness import contracts_setup, dev_run_options
    from modelarts_kit.embedded import embedded_target
    from modelarts_kit_contracts.server.run import DEFAULT_MAX_EXAMPLES, run_server_contract
    from modelarts_kit_server.handlers import job_core

    contracts_setup()
    captured: list[Any] = []

    def capturing(spec: Spec, schema: Any, instance: Any) -> ValidationError | None:
        if not spec.surely_valid(schema, instance):
            captured.append(instance)
        return validate_instance(spec, schema, instance)

    options = dev_run_options(DEFAULT_MAX_EXAMPLES, phases=("coverage",))
    # The create handler's one call (validate_body).
    with (
        mock.patch.object(job_core, "validate_instance", capturing),
        embedded_target(http=False) as target,
    ):
        run_server_contract(target, options)
    return captured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--bodies", type=int, default=300)
    args = parser.parse_args()

    sets = {
        "coverage": coverage_bodies(),
        "negative": [b for b in negative_bodies(load_spec(), args.bodies) if b is not None],
    }
    for name, bodies in sets.items():
        compare(name, bodies, args.rounds)


def compare(name: str, bodies: list[Any], rounds: int) -> None:
    envelope = load_spec().envelope(MUST_REJECT)
    schema = envelope.operation(OPERATION).request_schema
    walking = envelope.walking_validator(schema).evolve(format_checker=OPENAPI_FORMATS)

    def full(body: Any) -> ValidationError | None:
        if envelope.surely_valid(schema, body):
            return None
        return best_violation(walking.iter_errors(body))

    def pruned(body: Any) -> ValidationError | None:
        return validate_instance(envelope, schema, body)

    refused = 0
    for body in bodies:
        before, after = full(body), pruned(body)
        assert (before is None) == (after is None), body
        if before is not None and after is not None:
            assert describe_violation(before) == describe_violation(after), body
            refused += 1

    def cpu(choose: Any) -> float:
        started = time.process_time()
        for body in bodies:
            choose(body)
        return time.process_time() - started

    stats: dict[str, Stats] = interleave(
        {"full walk (as before)": lambda: cpu(full), "pruned (the server's)": lambda: cpu(pruned)},
        rounds,
    )
    print(f"{name}: {len(bodies)} create bodies, {refused} refused, the same violation each way")
    table(
        f"{name}: CPU of one pass (the server's choice of violation)",
        stats,
        unit="ms",
        scale=1000,
        baseline="full walk (as before)",
    )


if __name__ == "__main__":
    main()
