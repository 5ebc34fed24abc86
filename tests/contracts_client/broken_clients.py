"""Deliberately broken variants of the generated client, each breaking one rule.

Each variant is a real ``TrainingJobsClient`` with one fault: a transport that changes what goes
on the wire, a wrapper that changes what the caller gets, or a wrong retry policy. The client
check must report each with the check named in :data:`BROKEN_CLIENTS`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
from modelarts_kit_contracts.client.adapters import ClientTarget
from modelarts_kit_contracts.client.adapters.generated import GeneratedClientAdapter
from modelarts_kit_spec.load import Operation
from modelarts_training_client import ApiError, RetryPolicy, TrainingJobsClient
from pydantic import BaseModel

JSON = Any
RequestFault = Callable[[httpx.Request], httpx.Request]


class FaultyTransport(httpx.BaseTransport):
    """Hands the request, changed by ``fault``, to the real transport."""

    def __init__(self, inner: httpx.BaseTransport, fault: RequestFault) -> None:
        self.inner = inner
        self.fault = fault

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        return self.inner.handle_request(self.fault(request))

    def close(self) -> None:
        self.inner.close()


def _rebuild(
    request: httpx.Request,
    *,
    method: str | None = None,
    path: str | None = None,
    headers: dict[str, str] | None = None,
    body: bytes | None = None,
) -> httpx.Request:
    new_headers = dict(headers if headers is not None else request.headers)
    content = body if body is not None else request.read()
    new_headers.pop("content-length", None)
    url = request.url.copy_with(path=path) if path is not None else request.url
    return httpx.Request(method or request.method, url, headers=new_headers, content=content)


def wrong_path(request: httpx.Request) -> httpx.Request:
    return _rebuild(request, path=request.url.path.replace("/training-jobs", "/training_jobs"))


def wrong_method(request: httpx.Request) -> httpx.Request:
    # PATCH: no path of the spec documents it (PUT on a job's path is the description change).
    return _rebuild(request, method="PATCH") if request.method == "GET" else request


def delete_sent_as_post(request: httpx.Request) -> httpx.Request:
    return _rebuild(request, method="POST") if request.method == "DELETE" else request


def search_without_limit(request: httpx.Request) -> httpx.Request:
    """Drops the caller's page size from a list search body."""
    if request.method == "POST" and request.url.path.endswith("/training-job-searches"):
        body = json.loads(request.read())
        if isinstance(body, dict) and "limit" in body:
            del body["limit"]
            return _rebuild(request, body=json.dumps(body).encode())
    return request


def wrong_action_type(request: httpx.Request) -> httpx.Request:
    if request.url.path.endswith("/actions"):
        return _rebuild(request, body=b'{"action_type": "stop"}')
    return request


def missing_auth(request: httpx.Request) -> httpx.Request:
    headers = {k: v for k, v in request.headers.items() if k.lower() != "x-auth-token"}
    return _rebuild(request, headers=headers)


def body_without_kind(request: httpx.Request) -> httpx.Request:
    if request.method == "POST" and request.url.path.endswith("/training-jobs"):
        body = json.loads(request.read())
        body.pop("kind", None)
        return _rebuild(request, body=json.dumps(body).encode())
    return request


def unknown_field_in_action(request: httpx.Request) -> httpx.Request:
    """Breaks a guidance rule (the action body is closed): a server may ignore the field, a
    client must not send it."""
    if request.url.path.endswith("/actions"):
        return _rebuild(request, body=b'{"action_type": "terminate", "force": true}')
    return request


def engine_id_and_image_url(request: httpx.Request) -> httpx.Request:
    """Breaks a guidance rule (choose one of engine_id and image_url)."""
    if request.method == "POST" and request.url.path.endswith("/training-jobs"):
        body = json.loads(request.read())
        engine = body.setdefault("algorithm", {}).setdefault("engine", {})
        engine.update({"engine_id": "caffe-1.0.0-python2.7", "image_url": "swr.example.com/a/b:1"})
        return _rebuild(request, body=json.dumps(body).encode())
    return request


def form_encoded_body(request: httpx.Request) -> httpx.Request:
    headers = dict(request.headers)
    if request.method == "POST":
        headers["content-type"] = "application/x-www-form-urlencoded"
    return _rebuild(request, headers=headers)


def wrong_job_id(request: httpx.Request) -> httpx.Request:
    path = request.url.path
    if "/training-jobs/" in path:
        head, _, rest = path.partition("/training-jobs/")
        job_id, sep, tail = rest.partition("/")
        return _rebuild(request, path=f"{head}/training-jobs/{job_id}x{sep}{tail}")
    return request


# ---------------------------------------------------------------- result faults


def _walk(value: JSON, change: Callable[[str, JSON], tuple[bool, JSON]]) -> JSON:
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            keep, new = change(key, item)
            if keep:
                out[key] = _walk(new, change)
        return out
    if isinstance(value, list):
        return [_walk(item, change) for item in value]
    return value


def drop_nulls(value: JSON) -> JSON:
    return _walk(value, lambda _k, v: (v is not None, v))


def ints_to_strings(value: JSON) -> JSON:
    def change(_key: str, item: JSON) -> tuple[bool, JSON]:
        if isinstance(item, int) and not isinstance(item, bool):
            return True, str(item)
        return True, item

    return _walk(value, change)


def declared_only(model: Any) -> JSON:
    """What a client with closed models returns: the declared fields only."""
    if isinstance(model, BaseModel):
        dumped: dict[str, JSON] = {}
        for name, info in type(model).model_fields.items():
            if name in model.model_fields_set:
                dumped[info.alias or name] = declared_only(getattr(model, name))
        return dumped
    if isinstance(model, list):
        return [declared_only(item) for item in model]
    if isinstance(model, dict):
        return {key: declared_only(item) for key, item in model.items()}
    return json.loads(json.dumps(model, default=str))


# ---------------------------------------------------------------- adapters


@dataclass(frozen=True)
class Fault:
    request: RequestFault | None = None
    retry: RetryPolicy | None = None


class BrokenAdapter(GeneratedClientAdapter):
    """The generated-client adapter with one fault; subclasses override one behaviour."""

    fault = Fault()

    def __init__(self, target: ClientTarget) -> None:
        super().__init__(target)
        self.name = type(self).__name__

    def client(self, project_id: str) -> TrainingJobsClient:
        client = self._clients.get(project_id)
        if client is None:
            inner = self.target.transport or httpx.HTTPTransport()
            transport = FaultyTransport(inner, self.fault.request) if self.fault.request else inner
            client = TrainingJobsClient(
                project_id=project_id,
                auth=self.auth(project_id),
                base_url=self.target.base_url,
                timeout=self.target.timeout_s,
                transport=transport,
                retry=self.fault.retry,
            )
            self._clients[project_id] = client
        return client

    def auth(self, project_id: str) -> httpx.Auth:
        from modelarts_training_client import TokenAuth

        return TokenAuth(self.target.token)


def _request_fault(fault: RequestFault) -> type[BrokenAdapter]:
    return type(fault.__name__, (BrokenAdapter,), {"fault": Fault(request=fault)})


class DropsResponseField(BrokenAdapter):
    def to_dict(self, result: object) -> JSON:
        out = super().to_dict(result)
        if isinstance(out, dict):
            out.pop("kind", None)
        return out


class NullToAbsent(BrokenAdapter):
    def to_dict(self, result: object) -> JSON:
        return drop_nulls(super().to_dict(result))


class AbsentToNull(BrokenAdapter):
    def to_dict(self, result: object) -> JSON:
        if not isinstance(result, BaseModel):
            return super().to_dict(result)  # an answer without content
        return result.model_dump(mode="json", by_alias=True)  # forgets exclude_unset


class CoercesType(BrokenAdapter):
    def to_dict(self, result: object) -> JSON:
        return ints_to_strings(super().to_dict(result))


class DropsUnknownFields(BrokenAdapter):
    def to_dict(self, result: object) -> JSON:
        return declared_only(result)


class SwallowsErrorCode(BrokenAdapter):
    def error_info(self, exc: BaseException) -> tuple[int | None, str | None, str | None] | None:
        if isinstance(exc, ApiError):
            return (exc.status, None, exc.error_msg)  # the client keeps only the message
        return None


class RewritesErrorMessage(BrokenAdapter):
    def error_info(self, exc: BaseException) -> tuple[int | None, str | None, str | None] | None:
        if isinstance(exc, ApiError):
            return (exc.status, exc.error_code, str(exc))
        return None


class SwallowsErrors(BrokenAdapter):
    def show(self, project_id: str, job_id: str) -> object:
        try:
            return super().show(project_id, job_id)
        except ApiError:
            return None  # "not found" becomes an empty result


class RetriesCreate(BrokenAdapter):
    def create(self, project_id: str, body: JSON) -> object:
        for _attempt in range(3):
            try:
                return super().create(project_id, body)
            except ApiError as exc:
                if exc.status < 429:
                    raise
        return super().create(project_id, body)


class NeverRetriesGet(BrokenAdapter):
    fault = Fault(retry=RetryPolicy(max_attempts=1))


class RejectsUnknownEnum(BrokenAdapter):
    KNOWN = frozenset(
        {
            "Creating",
            "Queuing",
            "Running",
            "Failed",
            "Completed",
            "Terminating",
            "Terminated",
            "CreateFailed",
            "TerminatedFailed",
            "Unknown",
            "Lost",
        }
    )

    def show(self, project_id: str, job_id: str) -> object:
        result = super().show(project_id, job_id)
        secondary = self.to_dict(result).get("status", {}).get("secondary_phase")
        if secondary is not None and secondary not in self.KNOWN:
            raise ValueError(f"unknown secondary_phase {secondary!r}")
        return result


# variant -> the check that must report it
BROKEN_CLIENTS: dict[type[BrokenAdapter], str] = {
    _request_fault(wrong_path): "request_path",
    _request_fault(wrong_method): "request_method",
    _request_fault(delete_sent_as_post): "request_method",
    _request_fault(search_without_limit): "request_body_fidelity",
    _request_fault(wrong_action_type): "request_body",
    _request_fault(missing_auth): "request_auth",
    _request_fault(body_without_kind): "request_body",
    _request_fault(unknown_field_in_action): "request_body",
    _request_fault(engine_id_and_image_url): "request_body",
    _request_fault(form_encoded_body): "request_headers",
    _request_fault(wrong_job_id): "request_path",
    DropsResponseField: "fidelity_dropped_field",
    NullToAbsent: "fidelity_null_to_absent",
    AbsentToNull: "fidelity_absent_to_null",
    CoercesType: "fidelity_coerced_type",
    DropsUnknownFields: "fidelity_unknown_field",
    SwallowsErrorCode: "error_code_intact",
    RewritesErrorMessage: "error_msg_intact",
    SwallowsErrors: "error_surfaced",
    RetriesCreate: "no_blind_retry",
    NeverRetriesGet: "retry_safe",
    RejectsUnknownEnum: "response_accepted",
}


# variant -> the operations its fault reaches, where that is not all of them: on every other
# operation the variant is the unbroken BrokenAdapter, whose run over every case is
# test_the_unbroken_base_adapter_passes_the_same_cases'. Each condition is its fault's own
# (the method or path it changes, the adapter method it overrides).
def _method(method: str) -> Callable[[Operation], bool]:
    return lambda op: op.method == method


def _operation(operation_id: str) -> Callable[[Operation], bool]:
    return lambda op: op.operation_id == operation_id


REACHES: dict[str, Callable[[Operation], bool]] = {
    "wrong_method": _method("get"),
    "delete_sent_as_post": _method("delete"),
    "search_without_limit": _operation("ListTrainingJobs"),  # POST .../training-job-searches
    "wrong_action_type": _operation("StopTrainingJob"),  # .../actions
    "body_without_kind": _operation("CreateTrainingJob"),  # POST .../training-jobs
    "unknown_field_in_action": _operation("StopTrainingJob"),
    "engine_id_and_image_url": _operation("CreateTrainingJob"),
    "form_encoded_body": _method("post"),
    "SwallowsErrors": _operation("ShowTrainingJobDetails"),  # show()
    "RetriesCreate": _operation("CreateTrainingJob"),  # create()
    "RejectsUnknownEnum": _operation("ShowTrainingJobDetails"),  # show()
}
