"""The ModelArts checks: every rule of our own, registered in one place.

Two kinds of check report into the same :class:`~modelarts_kit_contracts.core.RunReport`,
both registered in the one check registry (:mod:`modelarts_kit_contracts.core.registry`,
product ``server``):

- **response checks** look at one exchange (request + response). They run on every response
  schemathesis gets (registered as schemathesis custom checks by
  :mod:`~modelarts_kit_contracts.server.schemathesis_adapter`) and on every response of the
  scenarios below.
- **scenario checks** drive a short conversation with the server themselves (create -> show ->
  terminate -> terminate, cross-project reads, requests without credentials) through a
  :class:`Probe`, which the runner gives them.

Every response check is a small named function decorated with ``@check`` returning a
:class:`~modelarts_kit_contracts.core.Finding` (a one-line title and "expected ... / got ..."),
or ``None`` when the rule holds; the outcomes the scenarios record are registered with
``declare``. Titles and meanings live there, once; :data:`SCENARIOS` lists the drivers.

The three operations are the ones the spec's ``x-modelarts-role`` names (:class:`ApiMap`, from
``spec.meaning.roles``); the job id and phase fields, the final and terminable phases and the
accepted error codes come from the spec's meaning too, never from hard-coded paths, component
names, phases or codes.
"""

from __future__ import annotations

import functools
import itertools
import json
import random
import string
import time
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from modelarts_kit_spec import Operation, Spec, load_spec
from modelarts_kit_spec.load import pointer_join, unescape_pointer_token
from modelarts_kit_spec.wirejson import MAX_WIRE_JSON_DEPTH, WireJsonError, decode_wire_json

from modelarts_kit_contracts.core import (
    REGISTRY,
    Check,
    Finding,
    Observation,
    check,
    clip,
    declare,
)
from modelarts_kit_contracts.core.envelopes import Envelopes, Placement
from modelarts_kit_contracts.core.wire import Exchange, decode_json_body
from modelarts_kit_contracts.errors import ContractError
from modelarts_kit_contracts.server.choices import choices_made, cite
from modelarts_kit_contracts.server.meaning import Meaning, accepted_codes, lifecycle

__all__ = [
    "SCENARIOS",
    "ApiMap",
    "Probe",
    "ProbeResponse",
    "Role",
    "Scenario",
    "echo_values",
    "response_checks",
]

JSON = Any
# Error codes from the vendor's error-code table (see /work/shared/reference/error_codes.rst).
AUTH_REJECTION_STATUSES = (401, 403)


class Role(StrEnum):
    CREATE = "create"
    SHOW = "show"
    TERMINATE = "terminate"


# --- the API, as the spec describes it ------------------------------------------------------


@dataclass(frozen=True)
class ApiMap:
    """The three training-job operations of the spec, found by what they do."""

    spec: Spec
    create: Operation
    show: Operation
    terminate: Operation
    project_param: str
    job_param: str

    @classmethod
    def from_spec(cls, spec: Spec | None = None) -> ApiMap:
        """The operations the spec's ``x-modelarts-role`` names (``spec.meaning.roles``).

        A spec without the meaning extensions raises
        :class:`~modelarts_kit_spec.meaning.MeaningError` (exit 2), naming what is missing.
        """
        spec = spec if spec is not None else load_spec()
        roles = spec.meaning.roles
        job_param = roles.job_id_parameter
        project_params = [
            p.name for p in roles.create.parameters if p.location == "path" and p.name != job_param
        ]
        if len(project_params) != 1:
            raise ContractError(
                f"{roles.create.operation_id}: expected one project path parameter, found "
                f"{project_params}"
            )
        return cls(spec, roles.create, roles.show, roles.terminate, project_params[0], job_param)

    @functools.cached_property
    def obligations(self) -> Spec:
        """The spec without its guidance rules: what a server must enforce."""
        return self.spec.obligations()

    @functools.cached_property
    def envelopes(self) -> Envelopes:
        """must-accept and must-reject: what every correct server accepts, and refuses."""
        return Envelopes(self.spec)

    def request_pointer(self, role: Role) -> str:
        """Where the JSON request body schema of ``role`` is written in the spec."""
        return pointer_join(
            self.operation(role).pointer, "requestBody", "content", "application/json", "schema"
        )

    @property
    def job_id_pointer(self) -> str:
        """Where a job response carries the job id (``/metadata/id``)."""
        return str(self.spec.meaning.roles.job_id_field)

    @property
    def job_id_name(self) -> str:
        """The job id field as people write it (``metadata.id``)."""
        return _dotted(self.job_id_pointer)

    @property
    def phase_pointer(self) -> str:
        """Where a job response carries the phase (``/status/phase``)."""
        return str(self.spec.meaning.lifecycle.phase_field)

    @property
    def phase_name(self) -> str:
        return _dotted(self.phase_pointer)

    def job_id_of(self, body: JSON) -> JSON:
        """The job id in a job response (the lifecycle's ``job-id.field``), or None."""
        return _value_at(body, self.job_id_pointer)

    def phase_of(self, body: JSON) -> JSON:
        """The phase in a job response (the lifecycle's ``phase-field``), or None."""
        return _value_at(body, self.phase_pointer)

    @property
    def obligations_create_schema(self) -> JSON:
        return self.obligations.operation(self.create.operation_id).request_schema

    def role_for(self, exchange: Exchange) -> Role | None:
        """The role of the operation ``exchange`` was routed to (None: not one of ours)."""
        for role, op in self.roles():
            if op.operation_id == exchange.operation:
                return role
        return None

    def operation_at(self, method: str, path_template: str) -> Operation | None:
        role = self.role_of(method, path_template)
        return self.operation(role) if role is not None else None

    def role_of(self, method: str, path_template: str) -> Role | None:
        for role, op in self.roles():
            if op.method == method.lower() and op.path == path_template:
                return role
        return None

    def roles(self) -> Iterator[tuple[Role, Operation]]:
        yield Role.CREATE, self.create
        yield Role.SHOW, self.show
        yield Role.TERMINATE, self.terminate

    def operation(self, role: Role) -> Operation:
        return {Role.CREATE: self.create, Role.SHOW: self.show, Role.TERMINATE: self.terminate}[
            role
        ]

    def path(self, role: Role, project_id: str, job_id: str | None = None) -> str:
        values = {self.project_param: project_id, self.job_param: job_id or ""}
        return self.operation(role).path.format(**values)

    def example_body(self, role: Role) -> JSON:
        """The first request example the spec gives for ``role`` (a deep copy)."""
        op = self.operation(role)
        body = self.spec.deref(self.spec.at(op.pointer + "/requestBody"))
        media = body["content"]["application/json"]
        examples = media.get("examples") or {}
        for example in examples.values():
            example = self.spec.deref(example)
            if "value" in example:
                return json.loads(json.dumps(example["value"]))
        if "example" in media:
            return json.loads(json.dumps(media["example"]))
        raise LookupError(f"{op.operation_id}: the spec gives no request example")

    @property
    def error_schema(self) -> JSON:
        """The schema of the error body, as documented for the show operation's 4xx."""
        for status in (400, 401, 403, 404):
            response = self.show.response_for(status)
            if response is not None and response.schema is not None:
                return response.schema
        raise LookupError(f"{self.show.operation_id}: no documented error body")


# --- response checks --------------------------------------------------------------------------


NOT_DESCRIBABLE = "the body is not JSON the spec can describe"


def _get(document: JSON, *path: str) -> JSON:
    for key in path:
        if not isinstance(document, Mapping):
            return None
        document = document.get(key)
    return document


def _dotted(pointer: str) -> str:
    return ".".join(unescape_pointer_token(t) for t in pointer.split("/")[1:])


def _value_at(document: JSON, pointer: str) -> JSON:
    """The value at a JSON pointer into an instance (None where it is absent)."""
    return _get(document, *(unescape_pointer_token(t) for t in pointer.split("/")[1:]))


@check(
    product="server",
    title="the job returned is not the job in the path",
    meaning="show/terminate return the job whose id is in the path",
)
def returned_job_matches_path(api: ApiMap, exchange: Exchange) -> Finding | None:
    """A job returned for /{project}/training-jobs/{id} (show or terminate) is job {id}."""
    if (
        api.role_for(exchange) not in (Role.SHOW, Role.TERMINATE)
        or not 200 <= exchange.status < 300
    ):
        return None
    requested = exchange.path_params.get(api.job_param)
    ok, body = exchange.json()
    returned = api.job_id_of(body) if ok else None
    if requested is None or returned == requested:
        return None
    return Finding(
        title="The job returned is not the job in the path",
        expected=f"{api.job_id_name} == {requested!r}",
        got=f"{api.job_id_name} == {returned!r}",
        pointer=api.job_id_pointer,
    )


@check(
    product="server",
    title="an accepted terminate does not answer the terminating job",
    meaning="terminate answers its 2xx with the job in the stopping phase or later",
)
def terminate_accepted_phase(api: ApiMap, exchange: Exchange) -> Finding | None:
    """An accepted terminate answers its documented 2xx with the job in the lifecycle's stopping
    phase or a phase it leads to (with the curated spec: Terminating, Terminated, Abnormal)."""
    if api.role_for(exchange) is not Role.TERMINATE or not 200 <= exchange.status < 300:
        return None
    documented = int(api.terminate.success.status)
    ok, body = exchange.json()
    phase = api.phase_of(body) if ok else None
    if exchange.status != documented:
        return Finding(
            title="Terminate accepted with the wrong status code",
            expected=f"HTTP {documented}",
            got=f"HTTP {exchange.status}",
        )
    accepted = sorted(lifecycle(api).terminate_accepted_phases)
    if phase not in accepted:
        return Finding(
            title="Terminate accepted but the job is not terminating",
            expected=f"{api.phase_name} in {accepted}",
            got=f"{api.phase_name} == {phase!r}",
            pointer=api.phase_pointer,
        )
    return None


@check(
    product="server",
    title="error response without the vendor error body",
    meaning="every error response is JSON with error_code ModelArts.NNNN, error_msg",
)
def vendor_error_body(api: ApiMap, exchange: Exchange) -> Finding | None:
    """Every error response (4xx/5xx) is JSON in the vendor's error shape."""
    if exchange.status < 400:
        return None
    body, problem = decode_json_body(exchange.response.body, exchange.response.headers)
    if problem is not None:
        return Finding(
            title="Error response without the vendor error body",
            expected='a JSON body {"error_code": "ModelArts.NNNN", "error_msg": ...}',
            got=f"HTTP {exchange.status} {exchange.response.content_type or 'no content type'}: "
            f"{exchange.response.body[:120]!r} ({NOT_DESCRIBABLE}: {problem})",
        )
    if not exchange.response.content_type.split(";")[0].strip().lower().endswith("json"):
        return Finding(
            title="Error response is not declared as JSON",
            expected="Content-Type: application/json",
            got=f"Content-Type: {exchange.response.content_type or '(none)'}",
        )
    errors = sorted(
        api.spec.validator(api.error_schema).iter_errors(body), key=lambda e: list(e.path)
    )
    if errors:
        first = errors[0]
        pointer = "".join(f"/{part}" for part in first.absolute_path)
        return Finding(
            title="Error body does not follow the vendor error shape",
            expected=f"{first.validator} {first.validator_value!r} at {pointer or '/'}",
            got=f"HTTP {exchange.status}: {json.dumps(body)[:200]}",
            pointer=pointer,
        )
    return None


@check(
    product="server",
    title="an answer is not JSON the spec can describe",
    meaning="every non-error answer with a body is JSON the spec can describe",
)
def answer_body_decodable(api: ApiMap, exchange: Exchange) -> Finding | None:
    """A 1xx-3xx answer with a body decodes: UTF-8, nested at most 64 levels, finite numbers.

    The spec documents JSON answers only; an answer nested 200,000 levels deep, in invalid
    UTF-8 or with ``NaN`` is no document a schema can describe, and a client cannot read it.
    (Error answers: :func:`vendor_error_body`.)
    """
    if exchange.status >= 400 or not exchange.response.body.strip():
        return None
    _, problem = decode_json_body(exchange.response.body, exchange.response.headers)
    if problem is None:
        return None
    return Finding(
        title="Answer body is not JSON the spec can describe",
        expected=(
            f"a JSON body (UTF-8, nested at most {MAX_WIRE_JSON_DEPTH} levels, finite numbers)"
        ),
        got=f"HTTP {exchange.status}: {NOT_DESCRIBABLE}: {problem}",
    )


@check(
    product="server",
    title="schema-valid request rejected",
    meaning="a must-accept request gets no 400 but not-found/duplicate-name (a body between "
    "the envelopes: an observation)",
)
def valid_request_accepted(api: ApiMap, exchange: Exchange) -> Finding | None:
    """A must-accept request is not refused with 400, except for the state it depends on.

    Only a body every correct server accepts (``exchange.positive``: the schemathesis adapter
    sets it from the must-accept envelope) demands acceptance; a refused body between the
    envelopes is the server's choice, recorded as an observation by the run.

    ModelArts answers 400 for an unknown job and for a name already in use: a valid request can
    meet both, so the codes the spec lists for those meanings are not a rejection of its data.
    Any other 400 (an invalid parameter, invalid JSON, ...) is.
    """
    role = api.role_for(exchange)
    if exchange.positive is not True or role is None or exchange.status != 400:
        return None
    ok, body = exchange.json()
    code = _get(body, "error_code") if ok else None
    state_dependent = accepted_codes(api, role, 400, Meaning.NOT_FOUND) | accepted_codes(
        api, role, 400, Meaning.DUPLICATE_NAME
    )
    if code in state_dependent:
        return None
    return Finding(
        title="Schema-valid request rejected",
        expected=f"acceptance, or a 400 only with {' / '.join(sorted(state_dependent))}",
        got=f"HTTP 400 {code!r}: {clip(exchange.response.body.decode('utf-8', 'replace'), 160)}",
    )


def response_checks() -> tuple[Check, ...]:
    """The server checks that judge one exchange (run on every response the run sees)."""
    return tuple(c for c in REGISTRY.select("server") if c.function is not None)


# --- scenario checks ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ProbeResponse:
    """What a scenario gets back from :meth:`Probe.send`."""

    status: int
    body: bytes
    content_type: str
    curl: str  # reproduces the request, credentials redacted

    def json(self) -> JSON:
        """The decoded body; None when it is not JSON (or not JSON the kit accepts: too deep...)."""
        try:
            return decode_wire_json(self.body)
        except WireJsonError:
            return None


class Probe(Protocol):
    """What a scenario may do: send requests and record check outcomes."""

    api: ApiMap
    project_id: str
    other_project_id: str
    final_phase_wait_s: float
    read_only: bool  # send no create a correct target could accept
    seed: int  # the run's seed: values drawn by scenarios repeat with it
    state: dict[str, JSON]  # scenario-shared memo (the job template chosen)

    def send(
        self,
        role: Role,
        *,
        project_id: str | None = None,
        job_id: str | None = None,
        body: JSON = None,
        credentials: str = "valid",  # "valid" | "none" | "invalid"
    ) -> ProbeResponse: ...

    def record(
        self, check: str, violation: Finding | None, *, role: Role, reproduce: str = ""
    ) -> None: ...

    def note(self, text: str) -> None: ...

    def observe(self, observation: Observation) -> None: ...


def _unique_name(prefix: str = "contract") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def minimal_instance(spec: Spec, schema: JSON) -> JSON:
    """The smallest instance of ``schema``: required properties only, first enum value."""
    if not isinstance(spec.walker.deref(schema)[0], Mapping):
        return None
    schema = spec.walker.view(schema).schema  # $ref followed, allOf merged
    if "enum" in schema:
        return schema["enum"][0]
    if "default" in schema:
        return json.loads(json.dumps(schema["default"]))
    kind = schema.get("type")
    kind = next((k for k in kind if k != "null"), None) if isinstance(kind, list) else kind
    if kind == "object" or "properties" in schema:
        properties = schema.get("properties") or {}
        return {
            name: minimal_instance(spec, properties.get(name, {}))
            for name in schema.get("required") or []
        }
    if kind == "array":
        return []
    if kind in ("integer", "number"):
        return schema.get("minimum", 1)
    if kind == "boolean":
        return False
    return "contract"


def _job_templates(api: ApiMap) -> Iterator[JSON]:
    """Bodies to create jobs from: the spec's examples, then its minimal valid body."""
    op = api.create
    media = api.spec.deref(api.spec.at(op.pointer + "/requestBody"))["content"]["application/json"]
    for example in (media.get("examples") or {}).values():
        example = api.spec.deref(example)
        if "value" in example:
            yield example["value"]
    yield minimal_instance(api.spec, op.request_schema)


def _new_job_body(probe: Probe) -> JSON:
    """A fresh job body (unique name) from the first template the server accepts.

    The choice is made once per probe: a template the server refuses is reported by the
    schemathesis phases (the examples phase sends every spec example), so the scenarios can
    still test the lifecycle with a body the server takes.
    """
    template = probe.state.get("job_template")
    if template is None:
        template = next(iter(_job_templates(probe.api)))
        for candidate in () if probe.read_only else _job_templates(probe.api):
            body = json.loads(json.dumps(candidate))
            body.setdefault("metadata", {})["name"] = _unique_name()
            response = probe.send(Role.CREATE, body=body)
            if response.status == int(probe.api.create.success.status):
                template = candidate
                break
        probe.state["job_template"] = template
    body = json.loads(json.dumps(template))
    body.setdefault("metadata", {})["name"] = _unique_name()
    return body


def _first_difference(sent: JSON, returned: JSON, pointer: str = "") -> tuple[str, JSON] | None:
    """The first leaf of ``sent`` that ``returned`` reports differently (None: all match).

    A field the response leaves out is not compared: the response schema decides what is
    echoed; a field it does return must carry the value that was sent, exactly (no trimming,
    re-casing, truncation or normalisation). A request map the response gives back as a list
    of one-entry maps (the spec does so for some maps) is compared entry by entry.
    """
    if isinstance(sent, Mapping) and _is_list_of_maps(returned):
        # A map of the caller's own keys (environment variables...): every key comes back.
        merged: dict[str, JSON] = {}
        for entry in returned:
            merged.update(entry)
        if set(merged) != set(sent):
            return pointer, returned
        returned = merged
    if isinstance(sent, Mapping | list) and not isinstance(returned, type(sent)):
        # Another JSON container is a representation the response schema defines;
        # response_schema_conformance judges it, value comparison cannot.
        return None
    if isinstance(sent, Mapping):
        for key, value in sent.items():
            if key not in returned:
                continue
            found = _first_difference(value, returned[key], f"{pointer}/{key}")
            if found is not None:
                return found
        return None
    if isinstance(sent, list):
        if len(returned) != len(sent):
            return pointer, returned
        for index, (a, b) in enumerate(zip(sent, returned, strict=True)):
            found = _first_difference(a, b, f"{pointer}/{index}")
            if found is not None:
                return found
        return None
    return None if sent == returned else (pointer, returned)


def _is_list_of_maps(value: JSON) -> bool:
    return isinstance(value, list) and all(isinstance(entry, Mapping) for entry in value)


def _expect_status(
    response: ProbeResponse, expected: int | tuple[int, ...], title: str, what: str
) -> Finding | None:
    allowed = (expected,) if isinstance(expected, int) else expected
    if response.status in allowed:
        return None
    return Finding(
        title=title,
        expected=f"HTTP {' or '.join(map(str, allowed))} ({what})",
        got=f"HTTP {response.status}: {response.body[:160].decode('utf-8', 'replace')}",
    )


def _create(probe: Probe, check: str) -> tuple[str | None, JSON]:
    """Create a job; record ``check`` failed if the spec's own example is refused."""
    body = _new_job_body(probe)
    response = probe.send(Role.CREATE, body=body)
    expected = int(probe.api.create.success.status)
    violation = _expect_status(response, expected, "Creating a valid job failed", "job created")
    job_id = probe.api.job_id_of(response.json())
    if violation is None and not isinstance(job_id, str):
        violation = Finding(
            title="Created job has no id",
            expected=f"{probe.api.job_id_name}: a string",
            got=f"{probe.api.job_id_name} == {job_id!r}",
            pointer=probe.api.job_id_pointer,
        )
    if violation is not None:
        probe.record(check, violation, role=Role.CREATE, reproduce=response.curl)
        return None, body
    return str(job_id), body


NAME_ALPHABET = string.ascii_letters + string.digits + "_-"
# Non-ASCII text of every width: Latin-1, CJK, an astral-plane character, a combining mark.
DESCRIPTION_TEXT = " Ünïcödé 训练作业 — \U0001d510odelArts e\u0301 ✓ "
# Valid but unusual keys: lower case, mixed, dots, leading underscore, digits first.
UNUSUAL_ENV_KEYS = ("lower_case", "MiXeD-Key.v2", "_LEADING", "9DIGIT_FIRST", "a")
UNUSUAL_PARAMETER_NAMES = ("Lr-Rate_2", "x", "UPPER.case", "名字")


def _string_rule(api: ApiMap, *path: str) -> Mapping[str, JSON]:
    """The (resolved) schema of a string property of the create body, or {}."""
    found = api.spec.walker.at_path(api.create.request_schema, ".".join(path))
    return found.schema if found is not None else {}


def echo_values(api: ApiMap, rng: random.Random) -> list[dict[str, JSON]]:
    """Values drawn over the whole space the spec allows, for the echo check.

    Two bodies' worth: a name of the maximum length in mixed case with digits, ``_`` and ``-``
    and a non-ASCII description of exactly the maximum length (starting and ending with a
    space), unusual parameter names and environment keys; then a one-character name with an
    empty description. A server that trims, re-cases, truncates or normalises what it stores
    returns something else.
    """
    name_rule = _string_rule(api, "metadata", "name")
    description_rule = _string_rule(api, "metadata", "description")
    longest = int(name_rule.get("maxLength", 64))
    shortest = max(1, int(name_rule.get("minLength", 1)))
    described = int(description_rule.get("maxLength", 256))
    mandatory = "aZ9_-"  # every class of the alphabet, in mixed case
    tail = "".join(rng.choice(NAME_ALPHABET) for _ in range(longest - len(mandatory)))
    long_name = "".join(rng.sample(mandatory, len(mandatory))) + tail
    text = (DESCRIPTION_TEXT * (described // len(DESCRIPTION_TEXT) + 1))[:described]
    description = " " + text[1:-1] + " "
    parameters = [
        {"name": name, "value": f" {rng.choice(NAME_ALPHABET)}Value {index} "}
        for index, name in enumerate(UNUSUAL_PARAMETER_NAMES)
    ]
    environments = {key: f"Value-{rng.randrange(10**6)} " for key in UNUSUAL_ENV_KEYS}
    short_name = "".join(rng.choice(NAME_ALPHABET) for _ in range(shortest))
    return [
        {
            "metadata": {"name": long_name, "description": description},
            "algorithm": {"parameters": parameters, "environments": environments},
        },
        {"metadata": {"name": short_name, "description": ""}},
    ]


def _merge(base: JSON, extra: Mapping[str, JSON]) -> JSON:
    merged = json.loads(json.dumps(base))
    for key, value in extra.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


ECHO_NAME_ATTEMPTS = 4  # a one-character name may already be taken on a long-lived server


def create_then_show_returns_sent(probe: Probe) -> None:
    """create and then show return exactly what was sent, for values over the allowed space."""
    check = "create_then_show_returns_sent"
    api = probe.api
    rng = random.Random(probe.seed)
    for extra in echo_values(api, rng):
        body = _must_accept_body(probe, extra)
        if body is None:
            probe.note(f"{check}: a drawn body is not one every server accepts, skipped: {extra}")
            continue
        response = None
        for _ in range(ECHO_NAME_ATTEMPTS):
            response = probe.send(Role.CREATE, body=body)
            code = _get(response.json(), "error_code")
            duplicate = accepted_codes(api, Role.CREATE, 400, Meaning.DUPLICATE_NAME)
            if response.status != 400 or code not in duplicate:
                break
            name = body["metadata"]["name"]
            body["metadata"]["name"] = "".join(rng.choice(NAME_ALPHABET) for _ in name)
        assert response is not None
        expected_status = int(api.create.success.status)
        violation = _expect_status(
            response, expected_status, "Creating a valid job failed", "job created"
        )
        job_id = probe.api.job_id_of(response.json())
        if violation is None:
            violation = _echo_violation(body, response.json(), "Create")
        probe.record(check, violation, role=Role.CREATE, reproduce=response.curl)
        if not isinstance(job_id, str) or response.status != expected_status:
            continue
        shown = probe.send(Role.SHOW, job_id=job_id)
        violation = _expect_status(
            shown, int(api.show.success.status), "A created job cannot be shown", "job found"
        )
        if violation is None:
            violation = _echo_violation(body, shown.json(), "Show")
        probe.record(check, violation, role=Role.SHOW, reproduce=shown.curl)


def _must_accept_body(probe: Probe, extra: Mapping[str, JSON]) -> JSON:
    """A job body with ``extra`` merged in that every correct server accepts (None: none).

    The server's own template first, then the spec's examples and its minimal body (an
    example may hold what only examples show, which a server may refuse); ``extra`` whole,
    then its metadata alone.
    """
    api = probe.api
    create_id = api.create.operation_id
    templates = [_new_job_body(probe), *_job_templates(api)]
    for template in templates:
        for part in (extra, {"metadata": extra.get("metadata", {})}):
            body = _merge(template, part)
            if api.envelopes.place(create_id, body) is Placement.MUST_ACCEPT:
                return body
    return None


def _echo_violation(sent: JSON, returned: JSON, what: str) -> Finding | None:
    difference = _first_difference(sent, returned)
    if difference is None:
        return None
    pointer, got = difference
    return Finding(
        title=f"{what} does not return exactly what was sent to create",
        expected=f"{pointer} == {json.dumps(_at(sent, pointer), ensure_ascii=False)}",
        got=f"{pointer} == {json.dumps(got, ensure_ascii=False)}",
        pointer=pointer,
    )


def _at(document: JSON, pointer: str) -> JSON:
    for token in pointer.strip("/").split("/") if pointer.strip("/") else []:
        document = document[int(token)] if isinstance(document, list) else document[token]
    return document


def job_ids_unique(probe: Probe, count: int = 3) -> None:
    """Every created job gets an id no other job has."""
    check = "job_ids_unique"
    seen: dict[str, str] = {}
    for _ in range(count):
        job_id, sent = _create(probe, check)
        if job_id is None:
            return
        name = sent["metadata"]["name"]
        if job_id in seen:
            probe.record(
                check,
                Finding(
                    title="Two created jobs share an id",
                    expected=f"a new id for job {name!r}",
                    got=f"id {job_id!r}, already given to job {seen[job_id]!r}",
                    pointer=probe.api.job_id_pointer,
                ),
                role=Role.CREATE,
            )
            return
        seen[job_id] = name
    probe.record(check, None, role=Role.CREATE)


def terminate_lifecycle(probe: Probe) -> None:
    """terminate -> 2xx, the job stopping; terminate again -> not-terminable; final job -> same."""
    job_id, _ = _create(probe, "terminate_accepted_phase")
    if job_id is None:
        return
    first = probe.send(Role.TERMINATE, job_id=job_id, body=probe.api.example_body(Role.TERMINATE))
    violation = _expect_status(
        first,
        int(probe.api.terminate.success.status),
        "Terminating a fresh job was refused",
        "termination accepted",
    )
    probe.record("terminate_accepted_phase", violation, role=Role.TERMINATE, reproduce=first.curl)
    if violation is not None:
        return
    shown = probe.send(Role.SHOW, job_id=job_id)
    phase = probe.api.phase_of(shown.json())
    probe.record(
        "terminate_takes_effect",
        None
        if phase in lifecycle(probe.api).terminate_accepted_phases
        else Finding(
            title="Terminate was accepted but the job was not terminated",
            expected=f"show: {probe.api.phase_name} in "
            f"{sorted(lifecycle(probe.api).terminate_accepted_phases)}",
            got=f"{probe.api.phase_name} == {phase!r} (HTTP {shown.status})",
            pointer=probe.api.phase_pointer,
        ),
        role=Role.SHOW,
        reproduce=shown.curl,
    )

    second = probe.send(Role.TERMINATE, job_id=job_id, body=probe.api.example_body(Role.TERMINATE))
    probe.record(
        "second_terminate_rejected",
        _not_terminable(probe.api, second, "A second terminate of the same job was accepted"),
        role=Role.TERMINATE,
        reproduce=second.curl,
    )

    deadline = time.monotonic() + probe.final_phase_wait_s
    final_phases = lifecycle(probe.api).final_phases
    while phase not in final_phases and time.monotonic() < deadline:
        time.sleep(0.05)
        phase = probe.api.phase_of(probe.send(Role.SHOW, job_id=job_id).json())
    if phase not in final_phases:
        probe.note(
            f"final_phase_not_terminable: not evaluated, job {job_id} was still {phase!r} after "
            f"{probe.final_phase_wait_s:g}s (raise --final-phase-wait)"
        )
        return
    final = probe.send(Role.TERMINATE, job_id=job_id, body=probe.api.example_body(Role.TERMINATE))
    probe.record(
        "final_phase_not_terminable",
        _not_terminable(probe.api, final, f"A job in final phase {phase} was terminated"),
        role=Role.TERMINATE,
        reproduce=final.curl,
    )


def _not_terminable(api: ApiMap, response: ProbeResponse, title: str) -> Finding | None:
    return _documented_error(api, Role.TERMINATE, response, Meaning.NOT_TERMINABLE, title)


def _documented_error(
    api: ApiMap,
    role: Role,
    response: ProbeResponse,
    meaning: Meaning,
    title: str,
    pointer: str = "",
) -> Finding | None:
    """None when ``response`` is an error the spec documents for ``meaning`` on ``role``.

    The status is one whose documented codes carry that meaning; the code is any of them
    (a generic code the spec lists for the meaning counts as much as a specific one). When
    the spec lists no code for the meaning, the status alone is judged: a check never
    demands a code the spec does not list.
    """
    statuses = {
        status: codes
        for status in (400, 404, 409, 422)
        if (codes := accepted_codes(api, role, status, meaning))
    }
    code = _get(response.json(), "error_code")
    if response.status in statuses and code in statuses[response.status]:
        return None
    if not statuses and 400 <= response.status < 500:
        return None
    wanted = " or ".join(
        f"HTTP {status} with error_code in {sorted(codes)}" for status, codes in statuses.items()
    )
    operation = api.operation(role)
    # The codes a meaning may answer are listed per response (x-modelarts-error-codes).
    evidence = "; ".join(
        api.envelopes.evidence(f"{operation.pointer}/responses/{status}/x-modelarts-error-codes")
        + f" ({meaning})"
        for status in statuses
    )
    return Finding(
        title=title,
        expected=wanted or "a 4xx error",
        got=f"HTTP {response.status}, error_code {code!r}",
        pointer=pointer,
        evidence=evidence,
    )


def unknown_job_documented_error(probe: Probe) -> None:
    """show/terminate of a job that does not exist -> 400 ModelArts.2775."""
    missing = str(uuid.uuid4())
    for role in (Role.SHOW, Role.TERMINATE):
        body = probe.api.example_body(Role.TERMINATE) if role is Role.TERMINATE else None
        response = probe.send(role, job_id=missing, body=body)
        violation = _documented_error(
            probe.api,
            role,
            response,
            Meaning.NOT_FOUND,
            f"{role.value} of an unknown job does not give the documented error",
        )
        probe.record("unknown_job_documented_error", violation, role=role, reproduce=response.curl)


def credentials_required(probe: Probe) -> None:
    """Requests without credentials, or with invalid ones, are refused (401/403), and do nothing."""
    job_id, _ = _create(probe, "credentials_required")
    if job_id is None:
        return
    for kind in ("none", "invalid"):
        attempts: list[tuple[Role, str | None, JSON]] = [
            (Role.CREATE, None, _new_job_body(probe)),
            (Role.SHOW, job_id, None),
            (Role.TERMINATE, job_id, probe.api.example_body(Role.TERMINATE)),
        ]
        for role, target, body in attempts:
            response = probe.send(role, job_id=target, body=body, credentials=kind)
            violation = _expect_status(
                response,
                AUTH_REJECTION_STATUSES,
                f"A request with {'no' if kind == 'none' else 'invalid'} credentials "
                "was not refused",
                "credentials refused",
            )
            probe.record("credentials_required", violation, role=role, reproduce=response.curl)
    shown = probe.send(Role.SHOW, job_id=job_id)
    phase = probe.api.phase_of(shown.json())
    probe.record(
        "credentials_required",
        None
        if phase not in lifecycle(probe.api).terminate_accepted_phases
        else Finding(
            title="An unauthenticated terminate took effect",
            expected="the job keeps running after refused terminate requests",
            got=f"{probe.api.phase_name} == {phase!r}",
            pointer=probe.api.phase_pointer,
        ),
        role=Role.SHOW,
        reproduce=shown.curl,
    )


def invisible_from_other_project(probe: Probe) -> None:
    """A job of one project cannot be seen or terminated through another project's path."""
    check = "invisible_from_other_project"
    job_id, sent = _create(probe, check)
    if job_id is None:
        return
    other = probe.other_project_id
    shown = probe.send(Role.SHOW, project_id=other, job_id=job_id)
    # The id may be echoed in a "not found" message; the (unique) name may not appear at all.
    leaked = 200 <= shown.status < 300 or sent["metadata"]["name"].encode() in shown.body
    probe.record(
        check,
        Finding(
            title="A job is visible from another project",
            expected=f"show in project {other!r}: an error, without the job",
            got=f"HTTP {shown.status}: {shown.body[:160].decode('utf-8', 'replace')}",
        )
        if leaked
        else None,
        role=Role.SHOW,
        reproduce=shown.curl,
    )
    stopped = probe.send(
        Role.TERMINATE, project_id=other, job_id=job_id, body=probe.api.example_body(Role.TERMINATE)
    )
    after = probe.send(Role.SHOW, job_id=job_id)
    phase = probe.api.phase_of(after.json())
    touched = 200 <= stopped.status < 300 or phase in lifecycle(probe.api).terminate_accepted_phases
    probe.record(
        check,
        Finding(
            title="A job was terminated from another project",
            expected=f"terminate in project {other!r} refused, the job untouched",
            got=f"HTTP {stopped.status}; afterwards {probe.api.phase_name} == {phase!r}",
        )
        if touched
        else None,
        role=Role.TERMINATE,
        reproduce=stopped.curl,
    )


MAX_CONSTRAINT_BREAKS = 40
DROP = object()  # constraint_breaks: "remove this (required) field"
_PATTERN_BREAKERS = ("", "not valid!", "x" * 300, "\u00e9\u00e8")


def constraint_breaks(
    spec: Spec, schema: JSON, path: tuple[str, ...] = (), depth: int = 0, pointer: str = ""
) -> Iterator[tuple[tuple[str, ...], JSON, str]]:
    """(path, value, rule) for each single-field violation of the request schema's constraints.

    ``value`` is :data:`DROP` for a required property left out.
    Only leaves reachable through object properties are broken (enum, pattern, minimum,
    maximum, maxLength, minLength, integer type); the caller checks that the body built around
    each value is valid except at ``path``.
    """
    schema, pointer, _ = spec.walker.deref(schema, pointer)
    if not isinstance(schema, Mapping) or depth > 5:
        return
    guidance = spec.meaning.guidance.at(pointer)  # rules a server need not enforce
    for found in _enforced_breaks(schema, path):
        if found[2] not in guidance:
            yield found
    for name, child in (schema.get("properties") or {}).items():
        yield from constraint_breaks(
            spec, child, (*path, str(name)), depth + 1, _child(pointer, "properties", name)
        )


def _child(pointer: str, *tokens: str | int) -> str:
    """The pointer of a nested schema ("" stays "": an inline node without a known place)."""
    return pointer_join(pointer, *tokens) if pointer else ""


def _enforced_breaks(
    schema: Mapping[str, JSON], path: tuple[str, ...]
) -> Iterator[tuple[tuple[str, ...], JSON, str]]:
    if "enum" in schema and path:
        yield path, "not-a-listed-value", "enum"
    if "pattern" in schema and path:
        for candidate in _PATTERN_BREAKERS:
            yield path, candidate, "pattern"
    if "minimum" in schema and path:
        yield path, schema["minimum"] - 1, "minimum"
    if "maximum" in schema and path:
        yield path, schema["maximum"] + 1, "maximum"
    if "maxLength" in schema and path:
        yield path, "x" * (int(schema["maxLength"]) + 1), "maxLength"
    if schema.get("minLength", 0) > 0 and path:
        yield path, "", "minLength"
    if schema.get("type") == "integer" and path:
        yield path, "1", "type"
    for name in schema.get("required") or []:
        yield (*path, str(name)), DROP, "required"


UNKNOWN_FIELD = "x_unknown_field"


def guidance_breaks(
    spec: Spec, schema: JSON, path: tuple[str, ...] = (), depth: int = 0, pointer: str = ""
) -> Iterator[tuple[tuple[str, ...], str, dict[str, JSON]]]:
    """(path, keyword, fields to set in the object at path) breaking one guidance rule.

    Guidance rules are the keywords a schema node lists under ``x-modelarts-guidance``: an
    unknown field where ``additionalProperties`` is closed, both members of a ``not: {required:
    [a, b]}`` pair (also inside ``allOf``), one member of a ``dependentRequired`` pair alone.
    """
    schema, pointer, _ = spec.walker.deref(schema, pointer)
    if not isinstance(schema, Mapping) or depth > 5:
        return
    properties = schema.get("properties") or {}
    for keyword in spec.meaning.guidance.listed_at(pointer):
        if keyword == "additionalProperties" and schema.get("additionalProperties") is False:
            yield path, keyword, {UNKNOWN_FIELD: "1"}
        pairs: list[list[str]] = []
        if keyword == "not":
            pairs.append(list(_get(schema, "not", "required") or []))
        if keyword == "allOf":
            pairs += [list(_get(item, "not", "required") or []) for item in schema["allOf"]]
        if keyword == "dependentRequired":
            pairs += [[name] for name in schema.get("dependentRequired") or {}]
        for pair in pairs:
            if pair and all(name in properties for name in pair):
                yield (
                    path,
                    keyword,
                    {name: minimal_instance(spec, properties[name]) for name in pair},
                )
        if keyword == "anyOf" and path and _choose_one(schema):
            # Neither member of a choose-one: the object with its required fields alone.
            yield path[:-1], keyword, {path[-1]: minimal_instance(spec, schema) or {}}
    for name, child in properties.items():
        yield from guidance_breaks(
            spec, child, (*path, str(name)), depth + 1, _child(pointer, "properties", name)
        )


def _node_by_node(
    breaks: Iterator[tuple[tuple[str, ...], str, dict[str, JSON]]],
) -> list[tuple[tuple[str, ...], str, dict[str, JSON]]]:
    """The breaks, one per place in turn (every object's rules get a try within the cap)."""
    by_path: dict[tuple[str, ...], list[tuple[tuple[str, ...], str, dict[str, JSON]]]] = {}
    for found in breaks:
        by_path.setdefault(found[0], []).append(found)
    rounds = itertools.zip_longest(*by_path.values())
    return [found for round_ in rounds for found in round_ if found is not None]


def _choose_one(schema: Mapping[str, JSON]) -> bool:
    """Whether ``anyOf`` is a choose-one: every branch only requires a property."""
    branches = schema.get("anyOf") or []
    return bool(branches) and all(
        isinstance(b, Mapping) and set(b) == {"required"} for b in branches
    )


# A field no page documents, at the top of a request body (a server may ignore or refuse it).
UNDOCUMENTED_KEY = ""
MAX_GUIDANCE_BREAKS = 12


def guidance_not_enforced(probe: Probe) -> None:
    """Bodies breaking only a guidance rule: whatever the server does is its own choice,
    recorded as an observation ("enforces: ...", "ignores unknown fields"), never a failure."""
    check = "guidance_not_enforced"
    api = probe.api
    create_id = api.create.operation_id
    tried = 0
    for path, _keyword, fields in _node_by_node(
        guidance_breaks(
            api.spec, api.create.request_schema, pointer=api.request_pointer(Role.CREATE)
        )
    ):
        if tried >= MAX_GUIDANCE_BREAKS:
            break  # the terminate body's guidance is still tried below
        body = _new_job_body(probe)
        _merge_at(api.spec, api.create.request_schema, body, path, fields)
        if api.envelopes.place(create_id, body) is not Placement.BETWEEN:
            continue  # not a body that breaks guidance alone
        tried += 1
        response = probe.send(Role.CREATE, body=body)
        _observe(probe, api, create_id, body, response, check)
        probe.record(check, None, role=Role.CREATE)
    job_id, _ = _create(probe, check)
    if job_id is None:
        return
    terminate_id = api.terminate.operation_id
    breaks = [
        *guidance_breaks(
            api.spec, api.terminate.request_schema, pointer=api.request_pointer(Role.TERMINATE)
        ),
        ((), "additionalProperties", {UNDOCUMENTED_KEY: 1}),
    ]
    for path, _keyword, fields in breaks:
        body = api.example_body(Role.TERMINATE)
        _merge_at(api.spec, api.terminate.request_schema, body, path, fields)
        if api.envelopes.place(terminate_id, body) is not Placement.BETWEEN:
            continue
        response = probe.send(Role.TERMINATE, job_id=job_id, body=body)
        _observe(probe, api, terminate_id, body, response, check)
        probe.record(check, None, role=Role.TERMINATE)
        if 200 <= response.status < 300:
            return  # the job is terminating now: a second body would meet another rule


def _observe(
    probe: Probe, api: ApiMap, operation_id: str, body: JSON, response: ProbeResponse, check: str
) -> None:
    code = _get(response.json(), "error_code")
    for found in choices_made(api, operation_id, body, response.status, code, check=check):
        probe.observe(found)


def _merge_at(
    spec: Spec, schema: JSON, document: JSON, path: tuple[str, ...], fields: Mapping[str, JSON]
) -> None:
    for name, value in fields.items():
        _set_path(spec, schema, document, (*path, name), value)


def _set_path(spec: Spec, schema: JSON, document: JSON, path: tuple[str, ...], value: JSON) -> None:
    node, view = document, spec.walker.view(schema)
    for key in path[:-1]:
        child = spec.walker.property(view, key) or spec.walker.view({})
        if not isinstance(node.get(key), dict):
            node[key] = minimal_instance(spec, child.schema) or {}
        node, view = node[key], child
    node[path[-1]] = value


def invalid_job_rejected(probe: Probe) -> None:
    """A create body breaking one documented constraint gets 400 ModelArts.2788, no job."""
    check = "invalid_job_rejected"
    api = probe.api
    must_reject = api.envelopes.must_reject
    create_id = api.create.operation_id
    schema = must_reject.operation(create_id).request_schema
    validator = must_reject.validator(schema)
    tried: set[str] = set()
    for path, value, rule in constraint_breaks(
        must_reject, schema, pointer=api.request_pointer(Role.CREATE)
    ):
        pointer = "/" + "/".join(path)
        if f"{pointer} {rule}" in tried or len(tried) >= MAX_CONSTRAINT_BREAKS:
            continue
        body = _new_job_body(probe)
        base_ok = validator.is_valid(body)
        broken = json.loads(json.dumps(body))
        if value is DROP:
            if not _has_path(body, path):
                continue
            _drop_path(broken, path)
        else:
            _set_path(api.spec, schema, broken, path, value)
        fixed = json.loads(json.dumps(broken))
        # The body must be invalid only at ``path``: valid with that one field restored.
        original = _at(body, "/" + "/".join(path)) if _has_path(body, path) else _MISSING
        if original is _MISSING:
            _drop_path(fixed, path)
        else:
            _set_path(api.spec, schema, fixed, path, original)
        if not base_ok or validator.is_valid(broken) or not validator.is_valid(fixed):
            continue
        tried.add(f"{pointer} {rule}")
        response = probe.send(Role.CREATE, body=broken)
        violation = _documented_error(
            api,
            Role.CREATE,
            response,
            Meaning.INVALID_PARAMETER,
            f"A job breaking the {rule} rule at {pointer} was not rejected",
            pointer,
        )
        if violation is not None:
            # The rule the body breaks is the evidence, not the codes that may answer it.
            violation = cite(api, violation.but(rule=rule, evidence=""), create_id, broken)
        probe.record(check, violation, role=Role.CREATE, reproduce=response.curl)


_MISSING = object()


def _has_path(document: JSON, path: tuple[str, ...]) -> bool:
    node = document
    for key in path:
        if not isinstance(node, Mapping) or key not in node:
            return False
        node = node[key]
    return True


def _drop_path(document: JSON, path: tuple[str, ...]) -> None:
    node = document
    for key in path[:-1]:
        node = node[key]
    node.pop(path[-1], None)


def unsupported_action_rejected(probe: Probe) -> None:
    """terminate with an action_type outside the enum -> 400 ModelArts.2812, job untouched."""
    check = "unsupported_action_rejected"
    job_id, _ = _create(probe, check)
    if job_id is None:
        return
    body = probe.api.example_body(Role.TERMINATE)
    action_key = next(iter(body))
    body[action_key] = "restart"
    response = probe.send(Role.TERMINATE, job_id=job_id, body=body)
    violation = _documented_error(
        probe.api,
        Role.TERMINATE,
        response,
        Meaning.UNSUPPORTED_ACTION,
        "An unsupported action_type was not rejected",
        f"/{action_key}",
    )
    probe.record(check, violation, role=Role.TERMINATE, reproduce=response.curl)
    shown = probe.send(Role.SHOW, job_id=job_id)
    phase = probe.api.phase_of(shown.json())
    probe.record(
        check,
        None
        if phase not in lifecycle(probe.api).terminate_accepted_phases
        else Finding(
            title="An unsupported action terminated the job",
            expected="the job keeps its phase",
            got=f"{probe.api.phase_name} == {phase!r}",
            pointer=probe.api.phase_pointer,
        ),
        role=Role.SHOW,
        reproduce=shown.curl,
    )


@dataclass(frozen=True)
class Scenario:
    name: str
    run: Callable[[Probe], None]
    reports: tuple[str, ...] = field(default=())


SCENARIOS: tuple[Scenario, ...] = (
    Scenario("create_then_show", create_then_show_returns_sent, ("create_then_show_returns_sent",)),
    Scenario("unique_ids", job_ids_unique, ("job_ids_unique",)),
    Scenario(
        "terminate_lifecycle",
        terminate_lifecycle,
        (
            "terminate_accepted_phase",
            "terminate_takes_effect",
            "second_terminate_rejected",
            "final_phase_not_terminable",
        ),
    ),
    Scenario("unknown_job", unknown_job_documented_error, ("unknown_job_documented_error",)),
    Scenario("credentials", credentials_required, ("credentials_required",)),
    Scenario("project_isolation", invisible_from_other_project, ("invisible_from_other_project",)),
    Scenario("invalid_job", invalid_job_rejected, ("invalid_job_rejected",)),
    Scenario("unsupported_action", unsupported_action_rejected, ("unsupported_action_rejected",)),
    Scenario("guidance", guidance_not_enforced, ("guidance_not_enforced",)),
)

# The outcomes the scenarios record (their drivers are above): title and meaning, once.
for _name, _title, _meaning in (
    (
        "create_then_show_returns_sent",
        "create or show does not return exactly what was sent",
        "create and show return exactly what was sent (values drawn over the allowed space: "
        "max/min-length mixed-case names, max-length non-ASCII descriptions, unusual parameter "
        "names and environment keys)",
    ),
    ("job_ids_unique", "two created jobs share an id", "every created job gets a new id"),
    (
        "terminate_takes_effect",
        "an accepted terminate did not terminate the job",
        "after an accepted terminate, show reports the stopping phase or one after it",
    ),
    (
        "second_terminate_rejected",
        "a second terminate of the same job was accepted",
        "terminating a job twice gives a documented not-terminable error (409 ModelArts.2796)",
    ),
    (
        "final_phase_not_terminable",
        "a job in a final phase was terminated",
        "a job in a final phase cannot be terminated (documented not-terminable error)",
    ),
    (
        "unknown_job_documented_error",
        "show/terminate of an unknown job: not the documented error",
        "show/terminate of an unknown job give a documented not-found error (400 ModelArts.2775)",
    ),
    (
        "credentials_required",
        "a request without valid credentials was not refused",
        "requests without or with invalid credentials get 401/403",
    ),
    (
        "invisible_from_other_project",
        "a job is reachable from another project",
        "a job cannot be seen or terminated from another project",
    ),
    (
        "invalid_job_rejected",
        "a create body breaking an enforced constraint was not rejected",
        "a create body breaking one enforced constraint gets a documented invalid-parameter "
        "error (any code the spec lists for it)",
    ),
    (
        "guidance_not_enforced",
        "a body breaking only a guidance rule was judged (never fails)",
        "bodies breaking only rules the spec marks x-modelarts-guidance may be accepted or "
        "refused: the server's choice, reported as an observation, never a failure",
    ),
    (
        "unsupported_action_rejected",
        "an unsupported action_type was not rejected",
        "an action_type outside the enum gets a documented unsupported-action or "
        "invalid-parameter error, and the job keeps running",
    ),
):
    declare(_name, product="server", title=_title, meaning=_meaning)
