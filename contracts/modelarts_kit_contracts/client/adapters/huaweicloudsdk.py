"""Adapter for the vendor's Python SDK: ``huaweicloudsdkmodelarts`` (v1 ``ModelArtsClient``).

The SDK is configured as a user would: ``BasicCredentials(ak, sk, project_id)`` (AK/SK request
signing; the SDK has no token auth) and an endpoint override pointing at the mock; its HTTP
settings are the SDK defaults (no retries), because the check judges the SDK as shipped.

What the SDK hands its caller is a typed response model. ``to_dict`` reads it with the SDK's
own serializer, ``huaweicloudsdkcore.utils.http_utils.sanitize_for_serialization`` (the one its
``repr`` uses; the models' ``to_dict()`` is deprecated). A typed model cannot tell an absent
field from a null one, and has no place for a field it does not declare: those losses are the
SDK's, and the check reports them. ``Decimal`` values (the SDK parses JSON numbers with
fractions as ``Decimal``) are handed back as ``float``.

Every operation beyond the three goes through ``call``, by the operation id, as the SDK names
its calls: the request class ``<OperationId>Request`` (its fields are the path and query
parameters by name, and ``body`` of the model type it declares) and the client method in snake
case. An operation the SDK lacks (it has no logs URL operation) is not supported.
"""

from __future__ import annotations

import decimal
import logging
from typing import Any

import huaweicloudsdkmodelarts.v1 as sdk_v1
from huaweicloudsdkcore.auth.credentials import BasicCredentials
from huaweicloudsdkcore.exceptions.exceptions import ServiceResponseException
from huaweicloudsdkcore.http.http_config import HttpConfig
from huaweicloudsdkcore.utils.http_utils import sanitize_for_serialization
from huaweicloudsdkmodelarts.v1 import (
    CreateTrainingJobRequest,
    ModelArtsClient,
    ShowTrainingJobDetailsRequest,
    StopTrainingJobRequest,
)
from modelarts_kit_generator.naming import snake_case

from modelarts_kit_contracts.client.adapters import (
    AdapterError,
    ClientTarget,
    ErrorInfo,
    OperationCall,
    OperationNotSupported,
    terminate_body,
)

__all__ = ["HuaweiCloudSdkAdapter", "create_adapter"]

JSON = Any


class HuaweiCloudSdkAdapter:
    """Drives ``ModelArtsClient``; one client per project (the project is in its credentials)."""

    name = "huaweicloudsdk"

    def __init__(self, target: ClientTarget) -> None:
        self.target = target
        self._clients: dict[str, Any] = {}

    def client(self, project_id: str) -> Any:
        client = self._clients.get(project_id)
        if client is None:
            config = HttpConfig.get_default_config()
            config.timeout = (self.target.timeout_s, self.target.timeout_s)
            credentials = BasicCredentials(
                self.target.access_key, self.target.secret_key, project_id
            )
            client = (
                ModelArtsClient.new_builder()
                .with_http_config(config)
                .with_credentials(credentials)
                .with_endpoint(self.target.base_url)
                .build()
            )
            # The SDK logs each error response to a handler-less logger (so Python prints it);
            # the check reports errors itself.
            logger = logging.getLogger(f"HuaweiCloud-SDK-{ModelArtsClient.__name__}")
            if not logger.handlers:
                logger.addHandler(logging.NullHandler())
            self._clients[project_id] = client
        return client

    def _model(self, project_id: str, data: JSON, type_name: str) -> Any:
        # The SDK's own JSON -> model reader, the one it uses for responses.
        return self.client(project_id)._deserialize(data, type_name)

    def create(self, project_id: str, body: JSON) -> object:
        request = CreateTrainingJobRequest(body=self._model(project_id, body, "Job"))
        return self.client(project_id).create_training_job(request)

    def show(self, project_id: str, job_id: str) -> object:
        request = ShowTrainingJobDetailsRequest(training_job_id=job_id)
        return self.client(project_id).show_training_job_details(request)

    def stop(self, project_id: str, job_id: str) -> object:
        body = self._model(project_id, terminate_body(), "JobActionType")
        request = StopTrainingJobRequest(training_job_id=job_id, body=body)
        return self.client(project_id).stop_training_job(request)

    def call(self, request: OperationCall) -> object:
        request_type = getattr(sdk_v1, f"{request.operation_id}Request", None)
        client = self.client(request.project_id)
        method = getattr(client, snake_case(request.operation_id), None)
        if request_type is None or not callable(method):
            raise OperationNotSupported(
                f"huaweicloudsdkmodelarts has no {request.operation_id}Request "
                f"(ModelArtsClient.{snake_case(request.operation_id)})"
            )
        given = {**request.path_params, **request.query}
        fields: dict[str, Any] = {snake_case(name): value for name, value in given.items()}
        declared = getattr(request_type, "openapi_types", {})
        if request.has_body and "body" in declared:
            fields["body"] = self._model(request.project_id, request.body, declared["body"])
        unknown = sorted(set(fields) - set(declared))
        if unknown:
            raise OperationNotSupported(
                f"{request.operation_id}Request has no field {', '.join(unknown)}"
            )
        return method(request_type(**fields))

    def to_dict(self, result: object) -> JSON:
        return _plain(sanitize_for_serialization(result))

    def error_info(self, exc: BaseException) -> ErrorInfo | None:
        if isinstance(exc, ServiceResponseException):
            return (exc.status_code, exc.error_code, exc.error_msg)
        return None

    def close(self) -> None:
        for client in self._clients.values():
            client.close()
        self._clients.clear()


def _plain(value: JSON) -> JSON:
    if isinstance(value, decimal.Decimal):
        return float(value)
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


def create_adapter(target: ClientTarget) -> HuaweiCloudSdkAdapter:
    if target.auth != "aksk":
        # The SDK signs with AK/SK only; use the same throw-away keys the check provides.
        target = ClientTarget(
            base_url=target.base_url,
            token=target.token,
            access_key=target.access_key,
            secret_key=target.secret_key,
            auth="aksk",
            timeout_s=target.timeout_s,
            transport=None,
        )
    if target.transport is not None:
        raise AdapterError("huaweicloudsdk: the SDK sends through requests; use loopback")
    return HuaweiCloudSdkAdapter(target)
