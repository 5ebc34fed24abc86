"""Adapter for the generated client, ``modelarts_training_client`` (httpx + pydantic).

The client has one method per operation, named after the operation id in snake case (the
generator's own naming): ``call`` finds it by the operation id, so the adapter makes every
operation the generated client has, whichever spec it was generated from. Path parameters and
query parameters are passed as keyword arguments by their names in snake case (the generator's
naming again), the body as ``body``.
"""

from __future__ import annotations

from typing import Any

from modelarts_kit_generator.naming import snake_case
from modelarts_training_client import (
    AkSkAuth,
    ApiError,
    TokenAuth,
    TrainingJobsClient,
)
from pydantic import BaseModel

from modelarts_kit_contracts.client.adapters import (
    ClientTarget,
    ErrorInfo,
    OperationCall,
    OperationNotSupported,
    terminate_body,
)

__all__ = ["GeneratedClientAdapter", "create_adapter"]

JSON = Any


class GeneratedClientAdapter:
    """Drives :class:`TrainingJobsClient`; one client per project (it is bound at creation)."""

    name = "generated"

    def __init__(self, target: ClientTarget) -> None:
        self.target = target
        self._clients: dict[str, TrainingJobsClient] = {}

    def client(self, project_id: str) -> TrainingJobsClient:
        client = self._clients.get(project_id)
        if client is None:
            target = self.target
            auth = (
                TokenAuth(target.token)
                if target.auth == "token"
                else AkSkAuth(target.access_key, target.secret_key, project_id=project_id)
            )
            client = TrainingJobsClient(
                project_id=project_id,
                auth=auth,
                base_url=target.base_url,
                timeout=target.timeout_s,
                transport=target.transport,
            )
            self._clients[project_id] = client
        return client

    def create(self, project_id: str, body: JSON) -> object:
        return self.client(project_id).create_training_job(body)

    def show(self, project_id: str, job_id: str) -> object:
        return self.client(project_id).show_training_job_details(job_id)

    def stop(self, project_id: str, job_id: str) -> object:
        return self.client(project_id).stop_training_job(job_id, terminate_body())

    def call(self, request: OperationCall) -> object:
        client = self.client(request.project_id)
        name = snake_case(request.operation_id)
        method = getattr(client, name, None)
        if not callable(method):
            raise OperationNotSupported(
                f"{type(client).__name__} has no method {name} ({request.operation_id})"
            )
        # Parameters are keyword arguments named as the generator names them ("Content-Type"
        # is content_type).
        given = {**request.path_params, **request.query}
        arguments: dict[str, Any] = {snake_case(name): value for name, value in given.items()}
        if request.has_body:
            arguments["body"] = request.body
        return method(**arguments)

    def to_dict(self, result: object) -> JSON:
        if result is None:
            return None  # an answer without a body (a delete's 204)
        if not isinstance(result, BaseModel):
            raise TypeError(f"expected a pydantic model; got {type(result).__name__}")
        # exclude_unset keeps the difference between an absent field and a null one.
        return result.model_dump(mode="json", by_alias=True, exclude_unset=True)

    def error_info(self, exc: BaseException) -> ErrorInfo | None:
        if isinstance(exc, ApiError):
            return (exc.status, exc.error_code, exc.error_msg)
        return None

    def close(self) -> None:
        for client in self._clients.values():
            client.close()
        self._clients.clear()


def create_adapter(target: ClientTarget) -> GeneratedClientAdapter:
    return GeneratedClientAdapter(target)
