"""Test helpers: a client that checks every response against the spec."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Mapping
from typing import Any

import httpx
from modelarts_kit_server import DEV_PROJECT_ID, DEV_TOKEN
from modelarts_kit_spec import Operation, Spec

CREATE = "CreateTrainingJob"
SHOW = "ShowTrainingJobDetails"
TERMINATE = "StopTrainingJob"
OPERATION_PATHS = {
    CREATE: "/v2/{project_id}/training-jobs",
    SHOW: "/v2/{project_id}/training-jobs/{training_job_id}",
    TERMINATE: "/v2/{project_id}/training-jobs/{training_job_id}/actions",
}
# Statuses the routing layer may answer that no operation documents (wrong path or method).
ROUTING_STATUSES = {404, 405}


def job_body(name: str, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"kind": "job", "metadata": {"name": name}}
    body.update(extra)
    return body


def check_envelope(response: httpx.Response) -> None:
    """What every response carries: no 5xx, JSON content type, a request id, a JSON body."""
    assert response.status_code < 500, response.text
    assert response.headers["content-type"] == "application/json; charset=utf-8"
    uuid.UUID(response.headers["x-request-id"])
    json.loads(response.content)


def check_documented(spec: Spec, operation: Operation, response: httpx.Response) -> None:
    """The status is documented for the operation and the body validates against its schema."""
    check_envelope(response)
    documented = operation.response_for(response.status_code)
    assert documented is not None, f"{operation.operation_id}: {response.status_code} undocumented"
    assert documented.schema is not None
    errors = sorted(
        spec.validator(documented.schema).iter_errors(response.json()), key=lambda e: e.path
    )
    assert not errors, [f"{list(e.absolute_path)}: {e.message[:200]}" for e in errors]
    for name in documented.headers:
        assert name.lower() in response.headers, f"documented header {name} missing"


def check_error(response: httpx.Response, status: int, code: str) -> str:
    """The response is the vendor error ``code`` with ``status``; returns error_msg."""
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error_code"] == code, body
    assert body["error_msg"], body
    assert body["error_solution"], body
    return str(body["error_msg"])


class SyncASGITransport(httpx.BaseTransport):
    """Sync httpx transport onto an ASGI app (httpx's own ASGITransport is async only)."""

    def __init__(self, app: Any) -> None:
        self._transport = httpx.ASGITransport(app=app)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        async def exchange() -> httpx.Response:
            response = await self._transport.handle_async_request(request)
            content = await response.aread()
            return httpx.Response(response.status_code, headers=response.headers, content=content)

        return asyncio.run(exchange())


class Api:
    """Calls the three operations and checks each response against the spec."""

    def __init__(
        self,
        client: httpx.Client,
        spec: Spec,
        token: str | None = DEV_TOKEN,
        project_id: str = DEV_PROJECT_ID,
    ) -> None:
        self.client = client
        self.spec = spec
        self.token = token
        self.project_id = project_id

    def headers(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        headers = {} if self.token is None else {"X-Auth-Token": self.token}
        headers.update(extra or {})
        return headers

    def call(
        self,
        operation_id: str,
        *,
        project_id: str | None = None,
        job_id: str = "",
        json_body: Any = None,
        content: bytes | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> httpx.Response:
        operation = self.spec.operation(operation_id)
        path = operation.path.format(
            project_id=project_id or self.project_id, training_job_id=job_id
        )
        response = self.client.request(
            operation.method.upper(),
            path,
            json=json_body,
            content=content,
            headers=self.headers(headers),
        )
        check_documented(self.spec, operation, response)
        return response

    def create(self, body: Any, **kwargs: Any) -> httpx.Response:
        return self.call(CREATE, json_body=body, **kwargs)

    def show(self, job_id: str, **kwargs: Any) -> httpx.Response:
        return self.call(SHOW, job_id=job_id, **kwargs)

    def terminate(self, job_id: str, body: Any = None, **kwargs: Any) -> httpx.Response:
        action = {"action_type": "terminate"} if body is None else body
        return self.call(TERMINATE, job_id=job_id, json_body=action, **kwargs)

    def created_id(self, name: str, **extra: Any) -> str:
        response = self.create(job_body(name, **extra))
        assert response.status_code == 201, response.text
        return str(response.json()["metadata"]["id"])


def check_documented_error(spec: Spec, operation_id: str, response: httpx.Response) -> None:
    """The error answer is a response the operation documents under its exact status, with a
    code the spec accepts for that status and a body that validates (5xx included)."""
    operation = spec.operation(operation_id)
    status = response.status_code
    documented = operation.response_for(status)
    assert documented is not None, f"{operation_id}: {status} undocumented"
    assert documented.status == str(status), f"{operation_id}: {status} only as {documented.status}"
    assert documented.schema is not None
    body = response.json()
    assert not list(spec.validator(documented.schema).iter_errors(body)), body
    assert spec.meaning.errors.accepts(operation_id, status, body["error_code"]), body
