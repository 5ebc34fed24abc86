"""A small hand-written client of any spec, as a client-check adapter, and its broken variants.

:class:`SpecClientAdapter` makes every operation of the spec it is given with httpx: the path
and method the spec documents, the query parameters, a JSON body, the check's token; a GET is
retried on 429/5xx. It hands back the answer's JSON. It is correct by construction, so the client
check must pass it on any spec (three operations or more); each variant breaks one rule for the
operations of one role, and the check must name the rule.
"""

from __future__ import annotations

from typing import Any, ClassVar

import httpx
from modelarts_kit_contracts.client.adapters import (
    ClientTarget,
    ErrorInfo,
    OperationCall,
    OperationNotSupported,
)
from modelarts_kit_spec import Spec
from modelarts_kit_spec.meaning import Role

JSON = Any
RETRIED = frozenset({429, 500, 502, 503, 504})


class SpecApiError(Exception):
    def __init__(self, status: int, code: str | None, message: str | None) -> None:
        super().__init__(f"HTTP {status} {code}")
        self.status, self.code, self.message = status, code, message


class SpecClientAdapter:
    """A correct client of ``spec`` (set by :func:`adapter_for`)."""

    name = "spec-client"
    spec: ClassVar[Spec]
    unsupported: ClassVar[frozenset[Role]] = frozenset()
    unsupported_query: ClassVar[frozenset[str]] = frozenset()  # parameters it cannot send
    # One fault: for operations of this role, send this method or this path suffix instead.
    faulty_role: ClassVar[Role | None] = None
    wrong_method: ClassVar[str | None] = None
    path_suffix: ClassVar[str] = ""
    drops_query: ClassVar[bool] = False
    # Not faults: what some correct clients do (the vendor SDK does both).
    omits_empty_body: ClassVar[bool] = False  # an optional body of {} is not sent
    empty_result: ClassVar[bool] = False  # an answer without content gives {}, not None

    def __init__(self, target: ClientTarget) -> None:
        self.http = httpx.Client(
            base_url=target.base_url,
            transport=target.transport,
            headers={"X-Auth-Token": target.token},
            timeout=target.timeout_s,
        )

    def call(self, request: OperationCall) -> JSON:
        if request.role in self.unsupported:
            raise OperationNotSupported(f"spec-client makes no {request.role} call")
        cannot = sorted(self.unsupported_query & set(request.query))
        if cannot:
            raise OperationNotSupported(f"spec-client cannot send {', '.join(cannot)}")
        op = self.spec.operation(request.operation_id)
        path = op.path.replace("{project_id}", request.project_id)
        for name, value in request.path_params.items():
            path = path.replace("{" + name + "}", value)
        method = op.method.upper()
        body = request.body if request.has_body and request.body is not None else None
        if self.omits_empty_body and body == {} and not op.request_required:
            body = None
        params = {k: v if isinstance(v, str) else _text(v) for k, v in request.query.items()}
        if request.role is self.faulty_role:
            method = self.wrong_method or method
            path += self.path_suffix
            params = {} if self.drops_query else params
        for _attempt in range(3):
            answer = self.http.request(method, path, params=params, json=body)
            if not (method == "GET" and answer.status_code in RETRIED):
                break
        if answer.status_code >= 400:
            error = answer.json() if answer.content else {}
            raise SpecApiError(answer.status_code, error.get("error_code"), error.get("error_msg"))
        return answer.json() if answer.content else None

    def _core(self, role: Role, project_id: str, job_id: str, body: JSON) -> JSON:
        op = self.spec.meaning.roles.get(role)
        assert op is not None
        path_params = {self.spec.meaning.roles.job_id_parameter: job_id} if job_id else {}
        return self.call(
            OperationCall(
                op.operation_id, role, project_id, path_params, {}, body, body is not None
            )
        )

    def create(self, project_id: str, body: JSON) -> object:
        return self._core(Role.CREATE, project_id, "", body)

    def show(self, project_id: str, job_id: str) -> object:
        return self._core(Role.SHOW, project_id, job_id, None)

    def stop(self, project_id: str, job_id: str) -> object:
        return self._core(
            Role.TERMINATE, project_id, job_id, dict(self.spec.meaning.roles.terminate_body)
        )

    def to_dict(self, result: object) -> JSON:
        return {} if result is None and self.empty_result else result

    def error_info(self, exc: BaseException) -> ErrorInfo | None:
        if isinstance(exc, SpecApiError):
            return (exc.status, exc.code, exc.message)
        return None

    def close(self) -> None:
        self.http.close()


def _text(value: JSON) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def adapter_for(spec: Spec, **fault: Any) -> type[SpecClientAdapter]:
    """The spec client of ``spec``, with the fault given (class attributes), if any."""
    return type("SpecClientAdapter", (SpecClientAdapter,), {"spec": spec, **fault})
