"""The scenarios' HTTP probe: requests through the traffic guard, a curl line for each."""

from __future__ import annotations

import json
import shlex
import threading
import time
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import requests
from modelarts_kit_spec.meaning import Role
from modelarts_kit_wire.redaction import redact

from modelarts_kit_contracts.core import Finding, Observation, RunReport
from modelarts_kit_contracts.core.wire import Exchange, Headers, WireRequest, WireResponse
from modelarts_kit_contracts.server.api_map import ApiMap
from modelarts_kit_contracts.server.choices import answer_choices, cite
from modelarts_kit_contracts.server.guard import GuardedAdapter, StallWatchdog, TrafficGuard
from modelarts_kit_contracts.server.options import RunOptions
from modelarts_kit_contracts.server.probe import ProbeResponse
from modelarts_kit_contracts.server.response_checks import response_checks
from modelarts_kit_contracts.server.schemathesis_adapter import asgi_session
from modelarts_kit_contracts.server.sequence import RequestSequence
from modelarts_kit_contracts.server.target import ServerTarget
from modelarts_kit_contracts.transport_auth import Credentials

_CURL_HEADERS = ("content-type", "x-auth-token", "authorization", "x-sdk-date", "x-project-id")


def curl_command(request: requests.PreparedRequest) -> str:
    """A curl line reproducing ``request``; credential headers are redacted."""
    parts = ["curl", "-X", str(request.method), shlex.quote(str(request.url))]
    for name, value in request.headers.items():
        if name.lower() in _CURL_HEADERS:
            header_value = value.decode("latin-1") if isinstance(value, bytes) else value
            parts += ["-H", shlex.quote(redact(f"{name}: {header_value}"))]
    body = request.body
    if body:
        text = body.decode("utf-8", "replace") if isinstance(body, bytes) else str(body)
        parts += ["-d", shlex.quote(text)]
    return " ".join(parts)


def operation_label(method: str, template: str) -> str:
    return f"{method.upper()} {template}"


@dataclass
class Traffic:
    """The guard, the watchdog and how sessions are prepared for one run."""

    target: ServerTarget
    guard: TrafficGuard
    watchdog: StallWatchdog
    request_timeout_s: float

    def prepare(self, session: requests.Session) -> None:
        session.auth = self.guard
        if self.target.app is None:
            adapter = GuardedAdapter(self.watchdog, self.request_timeout_s)
            session.mount("http://", adapter)
            session.mount("https://", adapter)

    @contextmanager
    def session(self) -> Iterator[requests.Session]:
        if self.target.app is None:
            with requests.Session() as session:
                self.prepare(session)
                yield session
            return
        with asgi_session(self.target.app) as client:
            self.prepare(client)
            yield client


class HttpProbe:
    """The scenarios' :class:`~modelarts_kit_contracts.server.probe.Probe`, over ``requests``."""

    def __init__(
        self,
        *,
        api: ApiMap,
        session: requests.Session,
        traffic: Traffic,
        options: RunOptions,
        report: RunReport,
        lock: threading.Lock,
    ) -> None:
        self.api = api
        self.project_id = options.project_id
        self.other_project_id = options.other_project_id
        self.final_phase_wait_s = options.final_phase_wait_s
        self.timeline = traffic.target.timeline
        self.read_only = options.read_only
        self.seed = report.seed or 0
        self._session = session
        self._traffic = traffic
        self._base_url = traffic.target.base_url.rstrip("/")
        self._options = options
        self._report = report
        self._lock = lock
        self.state: dict[str, Any] = {}
        self.sequence = RequestSequence()  # a failure reproduces with its whole sequence

    def begin_sequence(self, resumed: list[str] | None = None) -> None:
        """A new scenario starts: the requests it sends are its sequence (after ``resumed``,
        the requests it sent before it waited)."""
        self.sequence.begin(resumed)

    def _auth_for(self, credentials: str) -> tuple[dict[str, str], requests.auth.AuthBase]:
        valid = self._options.credentials
        guard = self._traffic.guard
        if credentials == "none":
            return {}, guard.using(None, refusal_expected=True)
        if credentials == "invalid":
            if valid.kind == "aksk":
                wrong = Credentials(ak=valid.ak, sk=f"wrong-{uuid.uuid4().hex}")
                return valid.headers(), guard.using(wrong.requests_auth(), refusal_expected=True)
            return {"X-Auth-Token": f"invalid-{uuid.uuid4().hex}"}, guard.using(
                None, refusal_expected=True
            )
        return valid.headers(), guard.using(valid.requests_auth())

    def send(
        self,
        role: Role,
        *,
        project_id: str | None = None,
        job_id: str | None = None,
        body: Any = None,
        credentials: str = "valid",
        params: Mapping[str, str] | None = None,
        query: Mapping[str, str] | None = None,
        record: bool = True,
        timeout_s: float | None = None,
    ) -> ProbeResponse:
        op = self.api.operation(role)
        path = self.api.path(role, project_id or self.project_id, job_id, params)
        headers, auth = self._auth_for(credentials)
        data = None
        if body is not None:
            headers = {**headers, "Content-Type": "application/json"}
            data = json.dumps(body).encode("utf-8")
        request = requests.Request(
            op.method.upper(),
            self._base_url + path,
            headers=headers,
            data=data,
            params=dict(query or {}),
            auth=auth,
        )
        prepared = self._session.prepare_request(request)
        started = time.perf_counter()
        timeout = self._options.request_timeout_s
        if timeout_s is not None:
            timeout = min(timeout, timeout_s)
        response = self._session.send(prepared, timeout=timeout)
        elapsed_ms = (time.perf_counter() - started) * 1000
        result = ProbeResponse(
            status=response.status_code,
            body=response.content,
            content_type=response.headers.get("content-type", ""),
            curl=curl_command(response.request),
        )
        if not record:
            return result
        self._remember(role, job_id, result)
        label = operation_label(op.method, op.path)
        exchange = Exchange(
            request=WireRequest(method=op.method.upper(), path=path),
            response=WireResponse(
                status=result.status,
                headers=Headers(response.headers.items()),
                body=result.body,
            ),
            operation=op.operation_id,
            path_params={
                **(params or {}),
                self.api.project_param: project_id or self.project_id,
                self.api.job_param: job_id or "",
            },
        )
        with self._lock:
            self._report.record_time(label, elapsed_ms)
        self._observe_answer(op.operation_id, result)
        for entry in response_checks():
            self.record(entry.name, entry.run(self.api, exchange), role=role, reproduce=result.curl)
        return result

    def _observe_answer(self, operation_id: str, result: ProbeResponse) -> None:
        """Where an answer departs from a decision of the ledger: an observation."""
        body = result.json()
        if body is None:
            return
        for found in answer_choices(self.api, operation_id, result.status, body, check="probe"):
            self.observe(found)

    def _remember(self, role: Role, job_id: str | None, result: ProbeResponse) -> None:
        self.sequence.sent(result.curl, job_id=job_id)
        if role is Role.CREATE and 200 <= result.status < 300:
            created = self.api.job_id_of(result.json())
            if isinstance(created, str):
                self.sequence.created(created, result.curl)

    def record(
        self,
        check: str,
        found: Finding | list[Finding] | None,
        *,
        role: Role,
        reproduce: str = "",
    ) -> None:
        op = self.api.operation(role)
        findings = [] if found is None else [found] if isinstance(found, Finding) else found
        stamped = [
            cite(self.api, f, op.operation_id).but(
                check=check,
                operation=operation_label(op.method, op.path),
                reproduce=self.sequence.steps_to(f.reproduce or reproduce),
            )
            for f in findings
        ]
        with self._lock:
            self._report.record(check, stamped)

    def note(self, text: str) -> None:
        with self._lock:
            self._report.notes.append(text)

    def observe(self, observation: Observation) -> None:
        """Keep what the server chose where the spec leaves it free."""
        with self._lock:
            self._report.observe(observation)
