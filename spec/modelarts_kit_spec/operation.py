"""An operation of the spec as the kit indexes it: its parameters, request body and responses.
Built by :mod:`modelarts_kit_spec.load`; the layers that read operations import it from here."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from modelarts_kit_spec.document import JSON, SpecError

__all__ = ["Operation", "Parameter", "Response"]


@dataclass(frozen=True)
class Parameter:
    name: str
    location: str  # "path" | "query" | "header" | "cookie"
    required: bool
    schema: JSON
    description: str


@dataclass(frozen=True)
class Response:
    status: str  # "201", "4XX", "default"
    description: str
    schema: JSON | None  # as written (may be a $ref)
    headers: Mapping[str, JSON]
    pointer: str  # JSON pointer of the response object in the document


@dataclass(frozen=True)
class Operation:
    operation_id: str
    method: str  # lower case
    path: str
    summary: str
    description: str
    parameters: tuple[Parameter, ...]
    request_schema: JSON | None  # application/json body schema as written
    request_required: bool
    responses: tuple[Response, ...]
    pointer: str  # JSON pointer of the operation object

    @property
    def success(self) -> Response:
        """The documented 2xx response (each of our operations has exactly one)."""
        for response in self.responses:
            if response.status.startswith("2"):
                return response
        raise SpecError(f"{self.operation_id}: no 2xx response")

    def response_for(self, status: int) -> Response | None:
        """The response documented for ``status``: exact code, then ``4XX``, then ``default``."""
        by_status = {r.status.upper(): r for r in self.responses}
        code = str(status)
        return by_status.get(code) or by_status.get(code[0] + "XX") or by_status.get("DEFAULT")
