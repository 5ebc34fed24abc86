"""The mock's ASGI app: validates what a client sends, answers what the spec allows."""

from __future__ import annotations

import copy
import random
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from typing import Any

import httpx
from modelarts_kit_spec import load_spec
from modelarts_kit_spec.load import Operation, Spec, SpecError, unescape_pointer_token
from modelarts_kit_spec.meaning import Role
from modelarts_kit_wire.asgi import Receive, Send

from modelarts_kit_contracts.core import (
    REGISTRY,
    SKIP,
    CheckResult,
    Finding,
    RunReport,
    check,
    declare,
)
from modelarts_kit_contracts.core.asgi import serve_asgi
from modelarts_kit_contracts.core.paging import LIMIT, OFFSET, paging_of
from modelarts_kit_contracts.core.wire import (
    Exchange,
    Headers,
    WireRequest,
    WireResponse,
    decode_json_body,
    parse_query,
    validate_request,
)
from modelarts_kit_contracts.mock.scenario import PlannedResponse, ScenarioFile
from modelarts_kit_contracts.mock.strategies import ResponseGenerator, Variant

__all__ = ["MOCK_PREFIX", "MockServer"]

JSON = Any
MOCK_PREFIX = "/__mock__/"
# What a broken request rule means, in the spec's error model (x-modelarts-error-codes).
INVALID_PARAMETER = "invalid-parameter"
MALFORMED_BODY = "malformed-body"
UNSUPPORTED_ACTION = "unsupported-action"
TOKEN_MISSING = "token-missing"
TOKEN_INVALID = "token-invalid"
AUTHORIZATION_MALFORMED = "authorization-malformed"
BODY_TOO_LARGE = "body-too-large"
# Meanings a request earns by breaking a rule of its own: never the answer to a valid one.
BROKEN_REQUEST_MEANINGS = frozenset(
    {
        INVALID_PARAMETER,
        MALFORMED_BODY,
        UNSUPPORTED_ACTION,
        TOKEN_MISSING,
        AUTHORIZATION_MALFORMED,
        BODY_TOO_LARGE,
    }
)


@check(
    product="mock",
    title="request out of the scenario's order",
    meaning="each request is the one the scenario's step expects",
)
def scenario_order(planned: PlannedResponse | None, op: Operation | None) -> CheckResult:
    if planned is None or not planned.expect_operation or op is None:
        return SKIP
    if planned.expect_operation == op.operation_id:
        return None
    return Finding(
        title="request out of the scenario's order",
        expected=f"a {planned.expect_operation} request at this step",
        got=op.operation_id,
        rule="order",
    )


SCENARIO_EXHAUSTED = declare(
    "scenario_exhausted",
    product="mock",
    title="more requests than the scenario has steps",
    meaning="a client sends no more requests than the scenario (on_exhausted: error) answers",
)


class MockServer:
    """A spec-driven mock of the training-job API (an ASGI app; see the module docstring)."""

    def __init__(
        self,
        spec: Spec | None = None,
        *,
        seed_value: int = 0,
        scenario: ScenarioFile | None = None,
        error_rate: float = 0.2,
        pool_size: int = 8,
        on_violation: Callable[[Finding], None] | None = None,
    ) -> None:
        if not 0.0 <= error_rate <= 1.0:
            raise ValueError(f"error_rate: expected 0.0-1.0; got {error_rate!r}")
        self.spec = spec or load_spec()
        self.seed = seed_value
        self.scenario = scenario
        self.error_rate = error_rate
        self.pool_size = pool_size
        self.on_violation = on_violation
        self.generator = ResponseGenerator(self.spec)
        self.exchanges: list[Exchange] = []
        self._queue: deque[PlannedResponse] = deque()
        self._scenario_position = 0
        self._rng = random.Random(seed_value)
        self._pools: dict[str, list[JSON]] = {}
        self._lock = threading.Lock()
        self._since = time.monotonic()

    # -- in-process API

    @property
    def violations(self) -> list[Finding]:
        """Every way the requests so far broke the spec, in order."""
        with self._lock:
            return [f for exchange in self.exchanges for f in exchange.findings]

    def reset(self) -> None:
        """Forget recorded exchanges and queued responses."""
        with self._lock:
            self.exchanges.clear()
            self._queue.clear()

    def begin(self) -> None:
        """Start the session clock (the report's duration counts from here)."""
        self._since = time.monotonic()

    def report(self, target: str) -> RunReport:
        """The session so far: one evaluation of each applicable check per request, the
        findings once each, the time the mock took to answer per operation, the duration."""
        report = RunReport(target=target, seed=self.seed)
        with self._lock:
            exchanges = list(self.exchanges)
        for exchange in exchanges:
            report.record_all(exchange.checked, exchange.findings)
            report.record_time(exchange.operation or "(no operation)", exchange.elapsed_ms)
        report.duration_s = time.monotonic() - self._since
        return report

    def enqueue(self, *responses: PlannedResponse) -> None:
        """Answer the next requests with ``responses``, in order, before anything else."""
        with self._lock:
            self._queue.extend(responses)

    def handle(self, request: WireRequest) -> WireResponse:
        """Validate ``request``, record what is wrong with it, and answer it."""
        began = time.perf_counter()
        verdict = validate_request(self.spec, request)
        op = verdict.operation
        findings = list(verdict.findings)
        checked = list(verdict.checked)
        with self._lock:
            planned = self._queue.popleft() if self._queue else None
            index = len(self.exchanges)
        if planned is None and self.scenario is not None:
            planned, exhausted = self._scenario_answer(op)
            if exhausted is not None:
                checked.append(SCENARIO_EXHAUSTED.name)
                findings.append(exhausted)
        order = REGISTRY["scenario_order"].run(planned, op)
        if order is not None:
            checked.append("scenario_order")
            findings += [f.but(operation=op.operation_id if op else "") for f in order]
        if planned is not None:
            response = planned.to_wire()
        else:
            response = self._generated_answer(request, op, verdict.path_params, findings)
        exchange = Exchange(
            request=request,
            response=response,
            operation=op.operation_id if op else "",
            path_params=verdict.path_params,
            findings=tuple(findings),
            checked=tuple(checked),
            index=index,
            elapsed_ms=(time.perf_counter() - began) * 1000,
        )
        with self._lock:
            self.exchanges.append(exchange)
        if self.on_violation is not None:
            for finding in findings:
                self.on_violation(finding)
        return response

    # -- answers

    def _scenario_answer(
        self, op: Operation | None
    ) -> tuple[PlannedResponse | None, Finding | None]:
        assert self.scenario is not None
        steps = self.scenario.steps
        with self._lock:
            position = self._scenario_position
            self._scenario_position += 1
        if position >= len(steps):
            if self.scenario.on_exhausted == "repeat":
                position %= len(steps)
            elif self.scenario.on_exhausted == "generate":
                return None, None
            else:
                exhausted = Finding(
                    title=SCENARIO_EXHAUSTED.title,
                    expected=f"at most {len(steps)} requests (the scenario's steps)",
                    got=f"request {position + 1}",
                    check=SCENARIO_EXHAUSTED.name,
                    operation=op.operation_id if op else "",
                    rule="order",
                )
                internal = self.spec.meaning.errors.gateway_error("internal-error")
                body = {"error_code": internal.code, "error_msg": "Scenario exhausted."}
                return PlannedResponse(internal.status, body), exhausted
        step = steps[position]
        if isinstance(step, PlannedResponse):
            return step, None
        operation_id, status, variant = step
        body = self.generate_body(self.spec.operation(operation_id), status, variant, position)
        return PlannedResponse(status, body, expect_operation=operation_id), None

    def generate_body(self, op: Operation, status: int, variant: Variant, salt: int) -> JSON:
        """One generated, spec-valid body for ``op``'s ``status`` response."""
        documented = op.response_for(status)
        if documented is None or documented.schema is None:
            return None
        if status >= 400:
            bodies = self.generator.error_bodies(documented)
            if bodies:
                return bodies[salt % len(bodies)]
        values = self.generator.draw(
            documented.schema,
            variant,
            count=1,
            seed_value=self.seed * 1_000_003 + salt,
        )
        if not values:
            raise SpecError(
                f"{op.operation_id} {status}: the schema admits no value to answer with"
            )
        return values[0]

    def warm(self) -> None:
        """Generate the answer pools now rather than on each operation's first request."""
        for op in self.spec.operations:
            self._success_pool(op)

    def _success_pool(self, op: Operation) -> list[JSON]:
        pool = self._pools.get(op.operation_id)
        if pool is None:
            pool = []
            variants = list(Variant)
            schema = op.success.schema
            for position, variant in enumerate(variants):
                if schema is None:
                    break
                pool += self.generator.draw(
                    schema,
                    variant,
                    count=max(1, self.pool_size // len(variants) + 1),
                    seed_value=self.seed * 1_000_003 + position,
                )
            random.Random(self.seed).shuffle(pool)
            self._pools[op.operation_id] = pool
        return pool

    def _generated_answer(
        self,
        request: WireRequest,
        op: Operation | None,
        path_params: Mapping[str, str],
        findings: Sequence[Finding],
    ) -> WireResponse:
        if op is None:
            return self._gateway_answer(request)
        if findings:
            return self._rejection(op, findings)
        with self._lock:
            roll = self._rng.random()
            pick = self._rng.randrange(1_000_000)
        errors = [
            int(r.status)
            for r in op.responses
            if r.status.isdigit()
            and int(r.status) >= 400
            and r.schema is not None
            and not self._earned_only(op, r.status)
        ]
        if errors and roll < self.error_rate:
            return self._error(op, errors[pick % len(errors)])
        pool = self._success_pool(op)
        status = int(op.success.status)
        if not pool:
            return PlannedResponse(status, has_body=False).to_wire()
        body = self._as_the_spec_means(op, path_params, pool[pick % len(pool)])
        body = self._one_page(op, request, body)
        return PlannedResponse(status, body).to_wire()

    def _one_page(self, op: Operation, request: WireRequest, body: JSON) -> JSON:
        """A paged answer cut to the page the request asks for (its ``limit``, else the spec's
        default or maximum), echoing the request's limit and offset where the answer has them.
        A body the echo would make invalid keeps its drawn values."""
        paging = paging_of(self.spec, op)
        if paging is None or not isinstance(body, dict) or op.success.schema is None:
            return body
        page = body.get(paging.page_field)
        sent, _ = decode_json_body(request.body, request.headers) if request.body else (None, None)
        query = parse_query(request.query)
        size = paging.page_size(query, sent)
        cut = dict(body)
        if isinstance(page, list) and size is not None:
            cut[paging.page_field] = page[:size]
        echoed = dict(cut)
        for name in (LIMIT, OFFSET):
            value = paging.requested(query, sent, name)
            if value is not None and name in echoed:
                echoed[name] = value
        return echoed if self.spec.validator(op.success.schema).is_valid(echoed) else cut

    def _as_the_spec_means(self, op: Operation, path_params: Mapping[str, str], body: JSON) -> JSON:
        """A generated job answer made consistent with the spec's roles and lifecycle.

        An answer to a path with a job id is about that job (the job-id field, where the answer
        has one: show, terminate, describe); create answers a job in the initial phase, an
        accepted terminate one in the stopping phase (and the first secondary phase the
        lifecycle lists for it). A body the change would make invalid is served as drawn.
        """
        if not isinstance(body, dict) or op.success.schema is None:
            return body
        meaning = self.spec.meaning
        role = meaning.roles.role_of(op.operation_id)
        lifecycle = meaning.lifecycle
        shaped = copy.deepcopy(body)
        job_id = path_params.get(meaning.roles.job_id_parameter)
        if job_id is not None:
            _set(shaped, meaning.roles.job_id_field, job_id)
        phases = {Role.CREATE: lifecycle.initial, Role.TERMINATE: lifecycle.stopping}
        phase = phases.get(role) if role is not None else None
        if phase is not None:
            _set(shaped, lifecycle.phase_field, phase)
            secondary = lifecycle.secondary_of.get(phase)
            if secondary:
                _set(shaped, lifecycle.secondary_phase_field, secondary[0])
        if self.spec.validator(op.success.schema).is_valid(shaped):
            return shaped
        return body

    def _gateway_answer(self, request: WireRequest) -> WireResponse:
        """An unknown path or method: the error the spec documents for any request."""
        route = self.spec.match(request.method, request.path)
        headers: tuple[tuple[str, str], ...] = ()
        meaning = "path-not-found"
        if route is not None:  # the path exists, not with this method
            meaning = "method-not-allowed"
            headers = (("Allow", ", ".join(route.allowed_methods)),)
        entry = self.spec.meaning.errors.gateway_error(meaning)
        body = {"error_code": entry.code, "error_msg": entry.message}
        if entry.solution:
            body["error_solution"] = entry.solution
        return PlannedResponse(entry.status, body, headers).to_wire()

    def _rejection(self, op: Operation, findings: Sequence[Finding]) -> WireResponse:
        """The documented error that fits what the request broke, naming the first rule.

        Credentials first (token missing, malformed Authorization, invalid token), then a body
        that is not JSON (malformed body), an action outside the documented ones (unsupported
        action), anything else (invalid parameter): the code is the first the spec's error
        model lists for that meaning and operation, the message names pointer, value and rule.
        """
        auth = next((f for f in findings if f.check == "request_auth"), None)
        first = auth or findings[0]
        meanings = [_meaning_of(self.spec, op, first)]
        if auth is not None:
            meanings.append(TOKEN_INVALID)
        for meaning in meanings:
            try:
                entry = self.spec.meaning.errors.preferred(op.operation_id, meaning)
            except KeyError:
                continue
            body = {
                "error_code": entry.code,
                "error_msg": _naming(entry.message, meaning, first),
                "error_solution": entry.solution,
            }
            return PlannedResponse(entry.status, body).to_wire()
        return self._error(op, 401 if auth is not None else 400)

    def _earned_only(self, op: Operation, status: str) -> bool:
        """Whether every meaning the spec lists for ``status`` is one only a broken request
        earns (413 body too large): such a status is never drawn for a valid request."""
        meanings = {
            meaning
            for response in self.spec.meaning.errors.responses
            if response.operation_id == op.operation_id and response.status == status
            for meaning in response.by_meaning
        }
        return bool(meanings) and meanings <= BROKEN_REQUEST_MEANINGS

    def _error(self, op: Operation, status: int) -> WireResponse:
        """A documented ``status`` error for a request that broke no rule (``--error-rate``).

        The meaning is drawn from what the spec's error model lists for the operation and
        status, except the meanings only a broken request earns (invalid parameter, malformed
        body, ...): a valid request is never told it is invalid.
        """
        documented = op.response_for(status)
        errors = self.spec.meaning.errors
        choices = [
            (meaning, codes[0])
            for response in errors.responses
            if response.operation_id == op.operation_id and response.status == str(status)
            for meaning, codes in response.by_meaning.items()
            if codes and meaning not in BROKEN_REQUEST_MEANINGS
        ]
        headers: list[tuple[str, str]] = []
        if documented is not None:
            for name, header in documented.headers.items():
                headers.append((name, self.generator.header_value(header, self._rng)))
        with self._lock:
            pick = self._rng.randrange(1_000_000)
        if choices:
            _, code = choices[pick % len(choices)]
            entry = errors.entry(code, status)
            body: JSON = {"error_code": code, "error_msg": code}
            if entry is not None:
                message = entry.message.replace("%s", op.operation_id)
                body = {
                    "error_code": code,
                    "error_msg": message.replace("{0}", op.operation_id),
                    "error_solution": entry.solution,
                }
            return PlannedResponse(status, body, tuple(headers)).to_wire()
        bodies = self.generator.error_bodies(documented) if documented is not None else []
        if bodies:
            return PlannedResponse(status, bodies[pick % len(bodies)], tuple(headers)).to_wire()
        entry = errors.gateway_error("internal-error")
        body = {"error_code": entry.code, "error_msg": entry.message}
        return PlannedResponse(entry.status, body).to_wire()

    # -- transports

    def httpx_transport(self) -> httpx.BaseTransport:
        """A sync httpx transport that serves requests from this mock, in-process."""

        def serve(request: httpx.Request) -> httpx.Response:
            wire = WireRequest(
                method=request.method,
                path=request.url.raw_path.decode("ascii").split("?", 1)[0],
                headers=Headers(request.headers.multi_items()),
                body=request.read(),
                query=request.url.query.decode("ascii"),
            )
            answer = self.handle(wire)
            return httpx.Response(answer.status, headers=answer.headers.items, content=answer.body)

        return httpx.MockTransport(serve)

    async def __call__(self, scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
        async def answer(request: WireRequest) -> WireResponse:
            if request.path.startswith(MOCK_PREFIX):
                return self._control(request)
            return self.handle(request)

        await serve_asgi(scope, receive, send, answer)

    def _control(self, request: WireRequest) -> WireResponse:
        name = request.path[len(MOCK_PREFIX) :].rstrip("/")
        if name == "violations" and request.method == "GET":
            payload = {
                "requests": len(self.exchanges),
                "violations": [{**f.to_json(), "direction": "request"} for f in self.violations],
            }
            return PlannedResponse(200, payload).to_wire()
        if name == "violations" and request.method == "DELETE":
            self.reset()
            return PlannedResponse(204, has_body=False).to_wire()
        if name == "health":
            return PlannedResponse(200, {"status": "ok"}).to_wire()
        return PlannedResponse(404, {"error": f"no mock endpoint {request.path}"}).to_wire()


def _meaning_of(spec: Spec, op: Operation, finding: Finding) -> str:
    """What the broken rule means, in the spec's error model."""
    if finding.check == "request_auth":
        if "got neither" in finding.message or "an empty one" in finding.message:
            return TOKEN_MISSING
        if "SDK-HMAC-SHA256" in finding.expected:
            return AUTHORIZATION_MALFORMED
        return TOKEN_INVALID
    if finding.check == "request_body" and finding.rule == "json":
        return MALFORMED_BODY
    roles = spec.meaning.roles
    if roles.role_of(op.operation_id) is Role.TERMINATE and finding.rule.endswith("enum"):
        action_fields = {f"/{name}" for name in roles.terminate_body}
        if finding.pointer in action_fields:
            return UNSUPPORTED_ACTION
    return INVALID_PARAMETER


def _naming(template: str, meaning: str, finding: Finding) -> str:
    """The catalogue's message for the code, filled in, naming pointer, value and rule."""
    filler = finding.got if meaning == UNSUPPORTED_ACTION else finding.pointer or "request"
    message = template.replace("%s", filler) if "%s" in template else template
    at = f" at {finding.pointer}" if finding.pointer else ""
    return f"{message} (rule {finding.rule!r}{at}: expected {finding.expected}; got {finding.got})"


def _set(document: dict[str, JSON], pointer: str, value: JSON) -> None:
    """Set ``pointer`` in ``document`` when its parent object is there (nothing is created)."""
    *parents, last = [unescape_pointer_token(t) for t in pointer.lstrip("/").split("/")]
    node: JSON = document
    for token in parents:
        node = node.get(token) if isinstance(node, dict) else None
    if isinstance(node, dict) and last in node:
        node[last] = value
