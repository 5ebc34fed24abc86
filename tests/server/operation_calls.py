"""Test helpers for the operations beyond create, show and terminate: calls by role, each answer
checked against what the spec documents for the operation."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import httpx
import pytest
from modelarts_kit_server import ManualClock, ReferenceServer, ServerSettings, create_app
from modelarts_kit_spec import Operation, Spec, load_spec
from modelarts_kit_spec.meaning import Role

from .server_support import Api, SyncASGITransport, check_envelope


def operation_of(spec: Spec, role: Role) -> Operation:
    operation = spec.meaning.roles.get(role)
    assert operation is not None, f"the spec has no operation with role {role}"
    return operation


def check_answer(spec: Spec, operation: Operation, response: httpx.Response) -> None:
    """A documented status, and a body valid against its schema where the spec gives one."""
    documented = operation.response_for(response.status_code)
    assert documented is not None, f"{operation.operation_id}: {response.status_code} undocumented"
    if documented.schema is None:  # documented without content: none is sent
        assert response.content == b"", response.content
        assert "content-type" not in response.headers
    else:
        check_envelope(response)
    if documented.schema is not None and response.content:
        errors = list(spec.validator(documented.schema).iter_errors(response.json()))
        assert not errors, [f"{list(e.absolute_path)}: {e.message[:200]}" for e in errors]
    if not response.is_success:  # a code of the operation, or of the gateway (before routing)
        code = response.json()["error_code"]
        model = spec.meaning.errors
        status = str(response.status_code)
        gateway = {c for r in model.gateway if r.status == status for c in r.codes}
        assert model.accepts(operation.operation_id, response.status_code, code) or code in gateway


class Family(Api):
    """:class:`Api` with a call per role of the nine further operations."""

    def by_role(
        self,
        role: Role,
        *,
        job_id: str = "",
        task: str = "",
        params: Mapping[str, Any] | None = None,
        json_body: Any = None,
        content: bytes | None = None,
        project_id: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> httpx.Response:
        operation = operation_of(self.spec, role)
        job_parameter = self.spec.meaning.roles.job_id_parameter
        values = {"project_id": project_id or self.project_id, job_parameter: job_id}
        for parameter in operation.parameters:
            if parameter.location == "path" and parameter.name not in values:
                values[parameter.name] = task
        response = self.client.request(
            operation.method.upper(),
            operation.path.format(**values),
            params=dict(params or {}),
            json=json_body,
            content=content,
            headers=self.headers(headers),
        )
        check_answer(self.spec, operation, response)
        return response

    def search(self, body: Any = None, **kwargs: Any) -> httpx.Response:
        return self.by_role(Role.LIST, json_body={} if body is None else body, **kwargs)

    def listed_ids(self, body: Any = None, **kwargs: Any) -> list[str]:
        response = self.search(body, **kwargs)
        assert response.status_code == 200, response.text
        return [item["metadata"]["id"] for item in response.json()["items"]]

    def error_code(self, role: Role, meaning: str) -> str:
        """The code the spec prefers for ``meaning`` on the operation of ``role``."""
        operation = operation_of(self.spec, role)
        return self.spec.meaning.errors.preferred(operation.operation_id, meaning).code


@pytest.fixture
def family_app(clock: ManualClock) -> Iterator[ReferenceServer]:
    server = create_app(ServerSettings(clock=clock))
    yield server
    server.close()


def family_client(app: ReferenceServer, spec: Spec | None = None, **kwargs: Any) -> Family:
    client = httpx.Client(transport=SyncASGITransport(app), base_url="http://127.0.0.1")
    return Family(client, spec or load_spec(), **kwargs)


def pages(family: Family, body: Mapping[str, Any], limit: int) -> Iterator[list[str]]:
    """Every page of a search, from page 0 until an empty one (bounded by the count)."""
    first = family.search({**body, "limit": limit, "offset": 0}).json()
    for page in range(first["count"] // limit + 2):
        answer = family.search({**body, "limit": limit, "offset": page}).json()
        yield [item["metadata"]["id"] for item in answer["items"]]
