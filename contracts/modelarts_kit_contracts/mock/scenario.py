"""The scenario format: a fixed sequence of mock responses read from a YAML/JSON file.

A :class:`PlannedResponse` is one answer the mock will give; a :class:`ScenarioFile` is the
sequence a ``--scenario`` file holds (the format is documented on :func:`load_scenario`), for
testing clients written in other languages.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from modelarts_kit_spec import load_spec
from modelarts_kit_spec.load import Operation, Spec, SpecError, read_yaml

from modelarts_kit_contracts.core.findings import short
from modelarts_kit_contracts.core.wire import Headers, WireResponse, schema_findings
from modelarts_kit_contracts.errors import ContractError
from modelarts_kit_contracts.mock.strategies import ResponseGenerator, Variant

__all__ = ["PlannedResponse", "ScenarioError", "ScenarioFile", "load_scenario"]

JSON = Any


@dataclass(frozen=True)
class PlannedResponse:
    """One answer the mock will give, whatever it is asked."""

    status: int
    body: JSON = None
    headers: tuple[tuple[str, str], ...] = ()
    has_body: bool = True
    expect_operation: str | None = None  # record a violation if a different operation comes

    def to_wire(self) -> WireResponse:
        headers = list(self.headers)
        content = b""
        if self.has_body:
            content = json.dumps(self.body, ensure_ascii=False).encode("utf-8")
            if not any(k.lower() == "content-type" for k, _ in headers):
                headers.append(("Content-Type", "application/json"))
        return WireResponse(self.status, Headers(headers), content)


# ---------------------------------------------------------------- scenarios


class ScenarioError(ContractError, ValueError):
    """A scenario file is unreadable or breaks the format; the message names the pointer."""


@dataclass(frozen=True)
class ScenarioFile:
    """The steps of a ``--scenario`` file and what to do after the last one."""

    steps: tuple[PlannedResponse | tuple[str, int, Variant], ...]
    on_exhausted: str  # "error" | "repeat" | "generate"
    source: str


_ON_EXHAUSTED = ("error", "repeat", "generate")


def load_scenario(path: Path | str, spec: Spec | None = None) -> ScenarioFile:
    """Read a scenario file (YAML or JSON)::

        on_exhausted: error        # after the last step: error (500 + a violation),
                                   # repeat (start over) or generate (random spec answers)
        steps:
          - operation: CreateTrainingJob   # optional: the request this step expects; another
                                           # one is recorded as a 'scenario_order' violation
            status: 201
            generate: full                 # a Variant name: a generated body (needs operation)
          - operation: ShowTrainingJobDetails
            status: 200
            body: {kind: job, metadata: {...}, status: {phase: Running}}
            headers: {X-Request-Id: "42"}
          - status: 429                    # an error status without body: the spec's example
            headers: {Retry-After: "1"}
          - status: 200
            body: {unexpected: shape}
            off_spec: true                 # deliberately not spec-valid: skip the check

    Each ``body`` is checked against the spec for the step's operation and status (unless
    ``off_spec: true``); a problem raises :class:`ScenarioError` naming ``/steps/N/...``.
    """
    spec = spec or load_spec()
    source = str(path)
    try:
        data = read_yaml(Path(path))  # the kit's one reader: size, alias and depth bounds
    except SpecError as exc:
        raise ScenarioError(str(exc)) from exc
    if not isinstance(data, Mapping):
        raise ScenarioError(f"{source}: expected a mapping with 'steps'; got {short(data)}")
    unknown = sorted(set(data) - {"steps", "on_exhausted"})
    if unknown:
        raise ScenarioError(f"{source}: /{unknown[0]}: unknown key (allowed: steps, on_exhausted)")
    on_exhausted = data.get("on_exhausted", "error")
    if on_exhausted not in _ON_EXHAUSTED:
        raise ScenarioError(
            f"{source}: /on_exhausted: expected one of {', '.join(_ON_EXHAUSTED)}; "
            f"got {short(on_exhausted)}"
        )
    raw_steps = data.get("steps")
    if not isinstance(raw_steps, list) or not raw_steps:
        raise ScenarioError(f"{source}: /steps: expected a non-empty list; got {short(raw_steps)}")
    steps = tuple(_scenario_step(spec, source, i, s) for i, s in enumerate(raw_steps))
    return ScenarioFile(steps=steps, on_exhausted=str(on_exhausted), source=source)


_STEP_KEYS = {"operation", "status", "body", "headers", "generate", "off_spec"}


def _scenario_step(
    spec: Spec, source: str, index: int, step: JSON
) -> PlannedResponse | tuple[str, int, Variant]:
    where = f"{source}: /steps/{index}"
    if not isinstance(step, Mapping):
        raise ScenarioError(f"{where}: expected a mapping; got {short(step)}")
    unknown = sorted(set(step) - _STEP_KEYS)
    if unknown:
        raise ScenarioError(
            f"{where}/{unknown[0]}: unknown key (allowed: {', '.join(sorted(_STEP_KEYS))})"
        )
    status = step.get("status")
    if not isinstance(status, int) or isinstance(status, bool) or not 100 <= status <= 599:
        raise ScenarioError(f"{where}/status: expected an HTTP status 100-599; got {short(status)}")
    operation_id = step.get("operation")
    op: Operation | None = None
    if operation_id is not None:
        try:
            op = spec.operation(str(operation_id))
        except KeyError as exc:
            raise ScenarioError(f"{where}/operation: {exc.args[0]}") from exc
    headers = step.get("headers") or {}
    if not isinstance(headers, Mapping):
        raise ScenarioError(f"{where}/headers: expected a mapping; got {short(headers)}")
    header_items = tuple((str(k), str(v)) for k, v in headers.items())
    if "generate" in step:
        if "body" in step:
            raise ScenarioError(f"{where}: give either 'body' or 'generate', not both")
        if op is None:
            raise ScenarioError(f"{where}/generate: needs 'operation' to know the schema")
        try:
            variant = Variant(step["generate"])
        except ValueError as exc:
            raise ScenarioError(
                f"{where}/generate: expected one of {', '.join(v.value for v in Variant)}; "
                f"got {short(step['generate'])}"
            ) from exc
        if op.response_for(status) is None:
            raise ScenarioError(f"{where}/status: {status} is not documented for {op.operation_id}")
        return (op.operation_id, status, variant)
    body = step.get("body")
    has_body = "body" in step
    if not has_body and status >= 400:
        example = _documented_error(spec, op, status)
        if example is not None:
            body, has_body = example, True
    if has_body and op is not None and not step.get("off_spec", False):
        documented = op.response_for(status)
        if documented is None:
            raise ScenarioError(f"{where}/status: {status} is not documented for {op.operation_id}")
        if documented.schema is not None:
            problems = schema_findings(
                spec,
                documented.schema,
                body,
                operation=op.operation_id,
                base_pointer=f"/steps/{index}/body",
            )
            if problems:
                listed = "; ".join(
                    f"{p.pointer}: expected {p.expected}; got {p.got}" for p in problems[:5]
                )
                raise ScenarioError(f"{source}: {listed} (set off_spec: true to send it anyway)")
    return PlannedResponse(
        status=status,
        body=body,
        headers=header_items,
        has_body=has_body,
        expect_operation=op.operation_id if op is not None else None,
    )


def _documented_error(spec: Spec, op: Operation | None, status: int) -> JSON | None:
    operations = [op] if op is not None else list(spec.operations)
    generator = ResponseGenerator(spec)
    for candidate in operations:
        response = candidate.response_for(status)
        if response is not None:
            bodies = generator.error_bodies(response)
            if bodies:
                return bodies[0]
    return None
