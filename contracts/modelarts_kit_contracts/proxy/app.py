"""The validating proxy: forward traffic unchanged, report what breaks the spec.

:class:`ValidatingProxy` is an ASGI app. Each request is forwarded to the upstream server as it
came (method, path, query, headers - ``Host`` included, so AK/SK signatures stay valid - and
body bytes), except the hop-by-hop headers; the upstream's answer goes back the same way
(status, headers except hop-by-hop, raw body bytes, still compressed if they were). Both
directions are validated against the spec (the ``wire`` checks of
:mod:`~modelarts_kit_contracts.core.wire`); every finding is passed to ``on_violation`` as it
happens and recorded in :attr:`ValidatingProxy.report`, a
:class:`~modelarts_kit_contracts.core.RunReport` (one evaluation of each check per request and
per response). An upstream that cannot be reached is
answered with 502 and recorded as a run error (exit 2); one that does not finish its answer
within ``timeout_s`` (it stalls, or trickles a byte at a time) is cut there, answered with
504, and recorded the same way. Both answers have the spec's error body.

The proxy learns the credentials each request carries (``X-Auth-Token``,
``X-Security-Token``, the AK of an SDK-HMAC ``Authorization``, the credentials of any other
scheme) into its report's scrubber, before it validates the exchange: a finding passed to
``on_violation`` and every reporter's output are scrubbed of them, also when the upstream
echoes them (base64- or URL-encoded included).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator, MutableMapping
from typing import Any

import httpx
from modelarts_kit_spec import load_spec
from modelarts_kit_spec.load import Spec
from modelarts_kit_wire.asgi import Receive, Send
from modelarts_kit_wire.redaction import scrubbed
from modelarts_kit_wire.wirejson import MAX_WIRE_JSON_BYTES

from modelarts_kit_contracts.core import Finding, RunReport
from modelarts_kit_contracts.core.answers import AnswerTooLarge
from modelarts_kit_contracts.core.asgi import serve_asgi
from modelarts_kit_contracts.core.wire import (
    Headers,
    WireRequest,
    WireResponse,
    validate_request,
    validate_response,
)
from modelarts_kit_contracts.errors import ContractError

__all__ = ["HOP_BY_HOP", "ValidatingProxy"]

# RFC 9110 section 7.6.1: meaningful for one connection only, never forwarded.
HOP_BY_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "proxy-connection",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
    }
)


# The spec lists no gateway code of its own for an upstream that fails: the proxy answers
# with the code of the spec's internal error, in the spec's error body.
GATEWAY_FAILURE_MEANING = "internal-error"
TOKEN_HEADERS = ("x-auth-token", "x-security-token")


def credentials_in(headers: Headers) -> Iterator[str]:
    """The credential values a request carries (the SK never travels: only its signature)."""
    for name in TOKEN_HEADERS:
        yield from (value.strip() for value in headers.get_all(name))
    for value in headers.get_all("authorization"):
        scheme, _, rest = value.strip().partition(" ")
        if scheme.upper().startswith("SDK-HMAC"):
            for part in rest.split(","):
                name, _, given = part.strip().partition("=")
                if name.strip().lower() == "access":
                    yield given.strip()
        else:  # Bearer, Basic, ...: the credentials after the scheme
            yield rest.strip()


def _forwardable(headers: Headers) -> list[tuple[str, str]]:
    named = {
        token.strip().lower()
        for value in headers.get_all("connection")
        for token in value.split(",")
        if token.strip()
    }
    dropped = HOP_BY_HOP | named | {"content-length"}  # recomputed from the same bytes
    return [(k, v) for k, v in headers.items if k.lower() not in dropped]


class NoAnswer(Exception):
    """The upstream gave no (complete) answer: the proxy answers ``status`` itself."""

    def __init__(self, status: int, problem: str, message: str) -> None:
        super().__init__(problem)
        self.status = status
        self.problem = problem  # the run's error
        self.message = message  # the client's error_msg


async def _read_capped(response: httpx.Response, cap: int) -> bytes:
    """The raw (still encoded) body, at most ``cap`` bytes; a gzip bomb is capped when the
    response check inflates it (:func:`~modelarts_kit_wire.wirejson.bounded_inflate`)."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_raw():
        size += len(chunk)
        if size > cap:
            raise AnswerTooLarge(
                f"HTTP {response.status_code}: the answer is larger than {cap} bytes"
            )
        chunks.append(chunk)
    return b"".join(chunks)


class ValidatingProxy:
    """Forward to ``upstream``; validate both directions against the spec.

    ``timeout_s`` bounds each relayed request whole: connecting, sending and the upstream's
    complete answer.
    """

    def __init__(
        self,
        upstream: str,
        spec: Spec | None = None,
        *,
        on_violation: Callable[[Finding], None] | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        timeout_s: float = 60.0,
    ) -> None:
        parsed = httpx.URL(upstream)
        if parsed.scheme not in ("http", "https") or not parsed.host:
            raise ContractError(f"--upstream {upstream!r}: expected an http(s) URL with a host")
        self.upstream = parsed
        self.spec = spec or load_spec()
        self.on_violation = on_violation
        self.transport = transport
        self.timeout_s = timeout_s
        self.report = RunReport(target=f"traffic to {upstream}")
        self.requests = 0
        self._started = time.monotonic()
        self._client: httpx.AsyncClient | None = None
        self._full_noted = False

    def _http(self) -> httpx.AsyncClient:
        if self._client is None:
            self._client = httpx.AsyncClient(
                transport=self.transport,
                timeout=self.timeout_s,
                follow_redirects=False,
                trust_env=False,
            )
        return self._client

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    def finish(self) -> RunReport:
        """The report of everything seen so far, with its duration."""
        self.report.duration_s = time.monotonic() - self._started
        return self.report

    async def __call__(self, scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
        await serve_asgi(scope, receive, send, self.exchange, on_shutdown=self.aclose)

    async def exchange(self, request: WireRequest) -> WireResponse:
        """Forward ``request``, validate both directions, return the answer to send back."""
        self.requests += 1
        began = time.monotonic()
        self._learn(request)
        if request.truncated:  # never forward a body cut at the cap; its check says why
            entry = self.spec.meaning.errors.gateway_error("body-too-large")
            content = json.dumps({"error_code": entry.code, "error_msg": entry.message})
            refusal = WireResponse(
                entry.status, Headers([("Content-Type", "application/json")]), content.encode()
            )
            self._validate(request, refusal, (time.monotonic() - began) * 1000)
            return refusal
        try:
            async with asyncio.timeout(self.timeout_s):
                answer = await self._forward(request)
        except TimeoutError:
            return self._no_answer(
                NoAnswer(
                    504,
                    f"upstream {self.upstream} did not answer {request.method} {request.path} "
                    f"within {self.timeout_s:g}s (the proxy's deadline per request)",
                    f"Gateway timeout: the upstream did not answer within {self.timeout_s:g}s.",
                )
            )
        except NoAnswer as failed:
            return self._no_answer(failed)
        self._validate(request, answer, (time.monotonic() - began) * 1000)
        headers = [*_forwardable(answer.headers), ("Content-Length", str(len(answer.body)))]
        return WireResponse(answer.status, Headers(headers), answer.body)

    def _learn(self, request: WireRequest) -> None:
        scrubber = self.report.scrubber
        for secret in credentials_in(request.headers):
            if not scrubber.learn(secret) and scrubber.full and not self._full_noted:
                self._full_noted = True
                self.report.notes.append(
                    "more distinct credentials than the proxy keeps: later ones are redacted "
                    "as header values only"
                )

    def _no_answer(self, failed: NoAnswer) -> WireResponse:
        """The gateway's answer for an upstream that gave none; the run records the problem."""
        if failed.problem not in self.report.errors:
            self.report.errors.append(failed.problem)
        entry = self.spec.meaning.errors.gateway_error(GATEWAY_FAILURE_MEANING)
        body = json.dumps({"error_code": entry.code, "error_msg": failed.message})
        return WireResponse(
            failed.status, Headers([("Content-Type", "application/json")]), body.encode()
        )

    async def _forward(self, request: WireRequest) -> WireResponse:
        """The upstream's answer; :class:`NoAnswer` when it gave none."""
        base_path = self.upstream.raw_path.decode("ascii").split("?", 1)[0].rstrip("/")
        query = f"?{request.query}" if request.query else ""
        target = self.upstream.copy_with(
            raw_path=(base_path + request.path + query).encode("latin-1")
        )
        # Header bytes travel as they came (latin-1 both ways): obs-text bytes (0x80-0xFF) are
        # legal on the wire, and httpx would refuse to encode them from str as ASCII.
        forwarded = [
            (k.encode("latin-1"), v.encode("latin-1")) for k, v in _forwardable(request.headers)
        ]
        outgoing = self._http().build_request(
            request.method, target, headers=forwarded, content=request.body
        )
        try:
            response = await self._http().send(outgoing, stream=True)
            try:
                raw = await _read_capped(response, MAX_WIRE_JSON_BYTES)
            finally:
                await response.aclose()
        except (httpx.HTTPError, AnswerTooLarge) as exc:
            raise NoAnswer(
                502,
                f"upstream {self.upstream} did not answer {request.method} {request.path}: "
                f"{type(exc).__name__}: {exc}",
                "Bad gateway: the upstream did not answer.",
            ) from exc
        return WireResponse(response.status_code, Headers.from_asgi(response.headers.raw), raw)

    def _validate(self, request: WireRequest, response: WireResponse, elapsed_ms: float) -> None:
        verdict = validate_request(self.spec, request)
        query = f"?{request.query}" if request.query else ""
        reproduce = f"{request.method} {request.path}{query} -> {response.status}"
        verdict.record(self.report, reproduce=reproduce)
        findings = list(verdict.findings)
        if verdict.operation is not None:
            self.report.record_time(verdict.operation.operation_id, elapsed_ms)
            answered = validate_response(self.spec, verdict.operation, response)
            answered.record(self.report, reproduce=reproduce)
            findings += answered.findings
        if self.on_violation is not None:
            for finding in findings:
                self.on_violation(scrubbed(finding, self.report.scrubber))
