"""The client check's cases: every call it makes, and the answers the mock gives it.

Cases come from the spec: for each operation (every operation the spec has, found with its
role: three in a first-edition spec, twelve today), success bodies drawn by hypothesis for
every :class:`~modelarts_kit_contracts.mock.Variant` (``max_examples`` in all per operation, at
least one per variant), every documented error status with each documented example body plus
generated ones (unicode, extra fields), and the retry probes. What the caller hands the client
is drawn too: path parameters from their schemas, query parameters and request bodies from the
must-accept envelope (what every correct server accepts). The same seed gives the same cases.
503 is not in the spec: the check sends it only as a retry probe, as the vendor's API gateway
does.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from modelarts_kit_spec.load import Operation, Spec, SpecError
from modelarts_kit_spec.meaning import Role
from modelarts_kit_spec.schemamodel import MUST_ACCEPT
from modelarts_kit_wire.recent import Recent

from modelarts_kit_contracts.client.adapters import OperationCall
from modelarts_kit_contracts.mock import PlannedResponse, ResponseGenerator, Variant, draw_examples

__all__ = ["Case", "ClientCheckSettings", "build_cases"]

JSON = Any

DEV_PROJECT_ID = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
# Statuses a client may retry a GET on, and how often the check repeats such an error.
RETRIED = frozenset({429, 500, 502, 503, 504})
PERSISTENT_ERROR_REPEATS = 10
# RFC 9110 section 9.2.2: a client may send these again on a transient error; GET (safe) must.
IDEMPOTENT_METHODS = frozenset({"get", "head", "options", "put", "delete"})
RETRY_REQUIRED_METHODS = frozenset({"get"})
INPUT_DRAWS = 8  # drawn values per path or query parameter


@dataclass(frozen=True)
class ClientCheckSettings:
    seed: int = 0
    max_examples: int = 20  # generated success responses per operation (>= one per variant)
    auth: Literal["token", "aksk"] = "token"
    in_process: bool = False  # serve the mock through an httpx transport instead of loopback
    call_timeout_s: float = 15.0


@dataclass(frozen=True)
class Case:
    """One call the check makes, and the answers the mock gives it."""

    name: str
    operation: Operation
    role: Role
    responses: tuple[PlannedResponse, ...]
    expect: Literal["success", "error"]
    retry: Literal["required", "forbidden", "none"] = "none"
    project_id: str = DEV_PROJECT_ID
    job_id: str = ""  # the job-id path parameter's value ("" where the path has none)
    body: JSON = None  # the request body the caller hands the client (None: none)
    # Every path parameter but the project's, and the query parameters, by the spec's names.
    path_params: Mapping[str, str] = field(default_factory=dict)
    query: Mapping[str, JSON] = field(default_factory=dict)

    def call(self) -> OperationCall:
        """The call as an adapter's ``call`` receives it."""
        return OperationCall(
            operation_id=self.operation.operation_id,
            role=self.role,
            project_id=self.project_id,
            path_params=dict(self.path_params),
            query=dict(self.query),
            body=self.body,
            has_body=self.operation.request_schema is not None,
        )


# ---------------------------------------------------------------- cases


def _role_of(spec: Spec, op: Operation) -> Role:
    """The role the spec gives ``op`` (``x-modelarts-role``)."""
    role = spec.meaning.roles.role_of(op.operation_id)
    if role is None:
        raise SpecError(f"{op.operation_id}: the spec gives it no role (x-modelarts-role)")
    return role


# One generator per spec object (the envelopes are cached Specs of their own): its strategies,
# built and then validated by hypothesis on their first draw, serve every operation of a
# check and every later check of the same spec, instead of being built again per operation.
# A generator holds nothing but those strategies, made from the spec alone: sharing one
# changes no draw. Keyed by identity, the spec kept beside its generator.
_GENERATORS: Recent[int, tuple[Spec, ResponseGenerator]] = Recent(8)


def generator_for(spec: Spec) -> ResponseGenerator:
    entry = _GENERATORS.get(id(spec))
    if entry is None or entry[0] is not spec:
        entry = (spec, ResponseGenerator(spec))
        _GENERATORS.put(id(spec), entry)
    return entry[1]


def build_cases(spec: Spec, settings: ClientCheckSettings) -> list[Case]:
    """Every case the check runs, deterministic for ``settings.seed``."""
    generator = generator_for(spec)
    cases: list[Case] = []
    variants = list(Variant)
    per_variant = [
        settings.max_examples // len(variants)
        + (1 if i < settings.max_examples % len(variants) else 0)
        for i in range(len(variants))
    ]
    for op_index, op in enumerate(spec.operations):
        role = _role_of(spec, op)
        success = op.success
        seed_base = settings.seed * 7919 + op_index * 104729
        inputs = _Inputs(
            job_id_parameter=spec.meaning.roles.job_id_parameter,
            path=_path_values(op, generator, seed_base),
            query=_query_values(spec, op, seed_base),
            required_query=frozenset(
                p.name for p in op.parameters if p.location == "query" and p.required
            ),
            bodies=_request_bodies(spec, op, role, seed_base, settings.max_examples + 16),
        )

        counter = 0
        for v_index, variant in enumerate(variants):
            count = max(1, per_variant[v_index])
            drawn = (
                generator.draw(
                    success.schema,
                    variant,
                    count=count,
                    seed_value=seed_base + v_index,
                )
                if success.schema is not None
                else [None]
            )
            for n, body in enumerate(drawn):
                cases.append(
                    Case(
                        name=f"{op.operation_id} {success.status} {variant.value} #{n + 1}",
                        operation=op,
                        role=role,
                        responses=(
                            PlannedResponse(
                                int(success.status), body, has_body=success.schema is not None
                            ),
                        ),
                        expect="success",
                        **inputs.at(counter),
                    )
                )
                counter += 1
        for status, bodies_for_status, headers in _error_answers(spec, op, generator, seed_base):
            # A client may retry an idempotent call on 429/5xx: the error repeats until it gives
            # up, and must then surface. (Retrying more often than this is reported as not
            # surfacing.) Each repeat says Retry-After: 0, so a client that honours it does not
            # back off for seconds on every such case of every operation.
            retried = op.method in IDEMPOTENT_METHODS and status in RETRIED
            repeats = PERSISTENT_ERROR_REPEATS if retried else 1
            if retried and not any(name.lower() == "retry-after" for name, _ in headers):
                headers = (*headers, ("Retry-After", "0"))
            for n, error_body in enumerate(bodies_for_status):
                cases.append(
                    Case(
                        name=f"{op.operation_id} {status} error #{n + 1}",
                        operation=op,
                        role=role,
                        responses=(PlannedResponse(status, error_body, headers),) * repeats,
                        expect="error",
                        **inputs.at(counter),
                    )
                )
                counter += 1
        cases += _retry_cases(spec, op, role, generator, seed_base, inputs.at(counter))
    return cases


@dataclass(frozen=True)
class _Inputs:
    """What the caller hands the client, drawn once per operation and used in turn."""

    job_id_parameter: str
    path: Mapping[str, list[str]]
    query: Mapping[str, list[JSON]]
    required_query: frozenset[str]  # optional query parameters are left out every other case
    bodies: list[JSON]

    def at(self, i: int) -> dict[str, Any]:
        path = {name: values[i % len(values)] for name, values in self.path.items()}
        query = {
            name: values[(i // 2) % len(values)]
            for name, values in self.query.items()
            if values and (i % 2 == 0 or name in self.required_query)
        }
        return {
            "job_id": path.get(self.job_id_parameter, ""),
            "path_params": path,
            "query": query,
            "body": self.bodies[i % len(self.bodies)] if self.bodies else None,
        }


def _path_values(
    op: Operation, generator: ResponseGenerator, seed_base: int
) -> dict[str, list[str]]:
    """Drawn values of every path parameter but the project's (a job id, a task name)."""
    out: dict[str, list[str]] = {}
    for offset, parameter in enumerate(op.parameters):
        if parameter.location != "path" or parameter.name == "project_id":
            continue
        drawn = draw_examples(
            generator.strategy(parameter.schema, Variant.TYPICAL).filter(
                lambda v: isinstance(v, str) and bool(v) and "/" not in v
            ),
            INPUT_DRAWS,
            seed_base + 97 + offset,
        )
        out[parameter.name] = [str(v) for v in drawn] or ["3faf5c03-aaa1-4cbe-879d-24b05d997347"]
    return out


def _query_values(spec: Spec, op: Operation, seed_base: int) -> dict[str, list[JSON]]:
    """Drawn values of every query parameter, inside the must-accept envelope."""
    envelope = spec.envelope(MUST_ACCEPT)
    must_accept = generator_for(envelope)
    out: dict[str, list[JSON]] = {}
    # The envelope's own parameters: a prose format (events start_time) is its pattern there.
    for offset, parameter in enumerate(envelope.operation(op.operation_id).parameters):
        if parameter.location == "query":
            out[parameter.name] = must_accept.draw(
                parameter.schema,
                Variant.TYPICAL,
                count=INPUT_DRAWS,
                seed_value=seed_base + 61 + offset,
            )
    return out


def _request_bodies(
    spec: Spec, op: Operation, role: Role, seed_base: int, count: int
) -> list[JSON]:
    if op.request_schema is None:
        return []
    if role is Role.TERMINATE:
        # What an adapter's stop sends: the spec's terminate body.
        return [dict(spec.meaning.roles.terminate_body)]
    # What a client is given to send: bodies inside the must-accept envelope (documented
    # fields only, guidance followed), which every correct server accepts.
    must_accept = generator_for(spec.envelope(MUST_ACCEPT))
    out: list[JSON] = []
    for index, variant in enumerate((Variant.TYPICAL, Variant.MINIMAL, Variant.FULL)):
        out += must_accept.draw(
            op.request_schema,
            variant,
            count=max(1, count // 3),
            seed_value=seed_base + 31 + index,
        )
    return out


def _error_answers(
    spec: Spec, op: Operation, generator: ResponseGenerator, seed_base: int
) -> Iterator[tuple[int, list[JSON], tuple[tuple[str, str], ...]]]:
    for response in op.responses:
        if not (response.status.isdigit() and int(response.status) >= 400):
            continue
        status = int(response.status)
        bodies = list(generator.error_bodies(response))
        bodies += _meaning_bodies(spec, op, status, {_code(b) for b in bodies})
        if response.schema is not None:
            for offset, variant in enumerate((Variant.UNICODE, Variant.EXTRA_FIELDS)):
                bodies += generator.draw(
                    response.schema,
                    variant,
                    count=1,
                    seed_value=seed_base + status * 10 + offset,
                )
        # Retry-After: 0 keeps a client that honours it fast; the spec allows minimum 0.
        headers = tuple((name, "0") for name in response.headers if name.lower() == "retry-after")
        yield status, bodies, headers


def _retry_cases(
    spec: Spec,
    op: Operation,
    role: Role,
    generator: ResponseGenerator,
    seed_base: int,
    inputs: Mapping[str, Any],
) -> list[Case]:
    success = op.success
    if success.schema is None:
        return []
    [body] = generator.draw(success.schema, Variant.TYPICAL, count=1, seed_value=seed_base + 5)
    ok = PlannedResponse(int(success.status), body)
    out: list[Case] = []
    # The transient errors, as the spec's error model states them (503 only at the gateway).
    errors = spec.meaning.errors
    transient = {
        status: {"error_code": entry.code, "error_msg": entry.message}
        for status, entry in (
            (429, errors.preferred(op.operation_id, "too-many-requests")),
            (503, errors.gateway_error("service-unavailable")),
            (500, errors.preferred(op.operation_id, "internal-error")),
        )
    }
    if op.method in RETRY_REQUIRED_METHODS:
        for status in (429, 503):
            first = PlannedResponse(status, transient[status], (("Retry-After", "0"),))
            out.append(
                Case(
                    name=f"{op.operation_id} {status} then {success.status} (retry)",
                    operation=op,
                    role=role,
                    responses=(first, ok),
                    expect="success",
                    retry="required",
                    **inputs,
                )
            )
    if role is Role.CREATE:
        for status in (429, 500, 503):
            first = PlannedResponse(status, transient[status], (("Retry-After", "0"),))
            out.append(
                Case(
                    name=f"{op.operation_id} {status} then {success.status} (no blind retry)",
                    operation=op,
                    role=role,
                    responses=(first, ok),
                    expect="error",
                    retry="forbidden",
                    **inputs,
                )
            )
    return out


def _code(body: JSON) -> object:
    return body.get("error_code") if isinstance(body, dict) else None


def _meaning_bodies(spec: Spec, op: Operation, status: int, known: set[object]) -> list[JSON]:
    """One error body per meaning the spec's error model lists for ``op`` and ``status``
    (its first code, with the vendor's message), unless an example already carries the code."""
    errors = spec.meaning.errors
    out: list[JSON] = []
    for response in errors.responses:
        if response.operation_id != op.operation_id or response.status != str(status):
            continue
        for meaning, codes in response.by_meaning.items():
            if not codes or codes[0] in known:
                continue
            entry = errors.entry(codes[0], status)
            message = entry.message.replace("%s", "x") if entry is not None else meaning
            body = {"error_code": codes[0], "error_msg": message}
            if entry is not None and entry.solution:
                body["error_solution"] = entry.solution
            out.append(body)
            known.add(codes[0])
    return out
