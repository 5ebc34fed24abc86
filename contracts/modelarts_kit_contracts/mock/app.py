"""The mock's ASGI app: validates what a client sends, answers what the spec allows."""

from __future__ import annotations

import random
import threading
import time
from collections import deque
from collections.abc import Callable, MutableMapping, Sequence
from typing import Any

import httpx
from modelarts_kit_spec import load_spec
from modelarts_kit_spec.load import Operation, Spec, SpecError

from modelarts_kit_contracts.core import (
    REGISTRY,
    SKIP,
    CheckResult,
    Finding,
    RunReport,
    check,
    declare,
)
from modelarts_kit_contracts.core.asgi import ASGIReceive, ASGISend, serve_asgi
from modelarts_kit_contracts.core.wire import (
    Exchange,
    Headers,
    WireRequest,
    WireResponse,
    validate_request,
)
from modelarts_kit_contracts.mock.scenario import PlannedResponse, ScenarioFile
from modelarts_kit_contracts.mock.strategies import ResponseGenerator, Variant

__all__ = ["MOCK_PREFIX", "UNKNOWN_ROUTE_BODY", "MockServer"]

JSON = Any
MOCK_PREFIX = "/__mock__/"
UNKNOWN_ROUTE_BODY = {
    "error_code": "APIGW.0101",
    "error_msg": "The API does not exist or has not been published in the environment",
}
# Documented error codes by what they mean (interim: read from the spec's error model once it
# states them).
INVALID_PARAMETER = "ModelArts.2788"
MALFORMED_BODY = "ModelArts.2787"
UNSUPPORTED_ACTION = "ModelArts.2812"


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
        time_budget_s: float = 10.0,
        on_violation: Callable[[Finding], None] | None = None,
    ) -> None:
        if not 0.0 <= error_rate <= 1.0:
            raise ValueError(f"error_rate: expected 0.0-1.0; got {error_rate!r}")
        self.spec = spec or load_spec()
        self.seed = seed_value
        self.scenario = scenario
        self.error_rate = error_rate
        self.pool_size = pool_size
        self.time_budget_s = time_budget_s
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
            response = self._generated_answer(op, findings)
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
                body = {"error_code": "ModelArts.0010", "error_msg": "Scenario exhausted."}
                return PlannedResponse(500, body), exhausted
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
            time_budget_s=self.time_budget_s,
        )
        if not values:
            raise SpecError(f"{op.operation_id} {status}: no value generated within the budget")
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
                    time_budget_s=self.time_budget_s / len(variants),
                )
            random.Random(self.seed).shuffle(pool)
            self._pools[op.operation_id] = pool
        return pool

    def _generated_answer(self, op: Operation | None, findings: Sequence[Finding]) -> WireResponse:
        if op is None:
            return PlannedResponse(404, UNKNOWN_ROUTE_BODY).to_wire()
        if findings:
            return self._rejection(op, findings)
        with self._lock:
            roll = self._rng.random()
            pick = self._rng.randrange(1_000_000)
        errors = [
            int(r.status)
            for r in op.responses
            if r.status.isdigit() and int(r.status) >= 400 and r.schema is not None
        ]
        if errors and roll < self.error_rate:
            return self._error(op, errors[pick % len(errors)])
        pool = self._success_pool(op)
        status = int(op.success.status)
        if not pool:
            return PlannedResponse(status, has_body=False).to_wire()
        return PlannedResponse(status, pool[pick % len(pool)]).to_wire()

    def _rejection(self, op: Operation, findings: Sequence[Finding]) -> WireResponse:
        """The documented error that fits what the request broke, naming the first rule.

        Credentials first (401), then a body that is not JSON (malformed body), an action
        outside the documented ones (unsupported action), anything else (invalid parameter).
        """
        auth = [f for f in findings if f.check == "request_auth"]
        if auth:
            return self._error(op, 401)
        first = findings[0]
        if first.check == "request_body" and first.rule == "json":
            code = MALFORMED_BODY
        elif first.rule.endswith("enum") and first.pointer.count("/") == 1:
            code = UNSUPPORTED_ACTION
        else:
            code = INVALID_PARAMETER
        documented = op.response_for(400)
        bodies = self.generator.error_bodies(documented) if documented is not None else []
        fitting = [b for b in bodies if isinstance(b, dict) and b.get("error_code") == code]
        if not fitting:
            fitting = [
                b
                for b in bodies
                if isinstance(b, dict) and b.get("error_code") == INVALID_PARAMETER
            ]
        body = dict(fitting[0]) if fitting else {"error_code": INVALID_PARAMETER}
        body["error_msg"] = _naming(code, first)
        return PlannedResponse(400, body).to_wire()

    def _error(self, op: Operation, status: int) -> WireResponse:
        documented = op.response_for(status)
        body: JSON = {"error_code": "ModelArts.0010", "error_msg": "Internal error."}
        headers: list[tuple[str, str]] = []
        if documented is not None:
            bodies = self.generator.error_bodies(documented)
            if bodies:
                with self._lock:
                    body = bodies[self._rng.randrange(len(bodies))]
            for name, header in documented.headers.items():
                headers.append((name, self.generator.header_value(header, self._rng)))
        return PlannedResponse(status, body, tuple(headers)).to_wire()

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

    async def __call__(
        self, scope: MutableMapping[str, Any], receive: ASGIReceive, send: ASGISend
    ) -> None:
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


def _naming(code: str, finding: Finding) -> str:
    """An error message naming the broken rule: where, the value, the rule."""
    where = finding.pointer or "the request"
    if code == MALFORMED_BODY:
        return f"Invalid JSON request body: {finding.got}."
    if code == UNSUPPORTED_ACTION:
        return f"Unsupported action type: {finding.got} at {where} (expected {finding.expected})."
    return (
        f"Invalid parameter({where}): rule {finding.rule!r}: expected {finding.expected}; "
        f"got {finding.got}."
    )
