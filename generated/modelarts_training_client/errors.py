"""The one exception tree of the ModelArts training jobs client.

``ModelArtsError`` is the base of everything this package raises. Messages are
useful on their own and never contain credentials (tokens, AK/SK, signatures).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = [
    "ApiError",
    "AuthenticationError",
    "BadRequestError",
    "ClientError",
    "ConflictError",
    "DeadlineExceededError",
    "DecodeError",
    "ModelArtsError",
    "NotFoundError",
    "PagingError",
    "PermissionDeniedError",
    "RateLimitError",
    "RequestValidationError",
    "ResponseTooLargeError",
    "ResponseValidationError",
    "ServerError",
    "TransportError",
    "UnprocessableEntityError",
    "WaitTimeoutError",
]


class ModelArtsError(Exception):
    """Base class of every error raised by this client."""


class RequestValidationError(ModelArtsError, ValueError):
    """An argument breaks a rule of the spec; nothing was sent.

    ``errors`` lists each problem as ``(field path, message, offending value)``.
    """

    def __init__(self, operation: str, errors: Sequence[tuple[str, str, Any]]) -> None:
        self.operation = operation
        self.errors = tuple(errors)
        details = "; ".join(f"{path}: {message} (got {value!r})" for path, message, value in errors)
        super().__init__(f"{operation}: invalid request, nothing was sent: {details}")


class TransportError(ModelArtsError):
    """The request could not be sent or no answer arrived (connection, TLS, timeout)."""

    def __init__(self, operation: str, method: str, url: str, reason: str, attempts: int) -> None:
        self.operation = operation
        self.method = method
        self.url = url
        self.reason = reason
        self.attempts = attempts
        tries = "" if attempts == 1 else f" after {attempts} attempts"
        super().__init__(f"{operation}: {method} {url} failed{tries}: {reason}")


class DeadlineExceededError(TransportError):
    """The call did not finish within its overall deadline (``deadline`` seconds for every
    attempt, every wait between attempts and every byte of the answer)."""

    def __init__(
        self, operation: str, method: str, url: str, deadline: float, attempts: int
    ) -> None:
        self.deadline = deadline
        super().__init__(
            operation,
            method,
            url,
            f"no complete answer within the {deadline:g} s deadline",
            attempts,
        )


class ResponseTooLargeError(TransportError):
    """The answer is larger than ``max_response_bytes``; it was not read whole."""

    def __init__(self, operation: str, method: str, url: str, limit: int, attempts: int) -> None:
        self.limit = limit
        super().__init__(
            operation,
            method,
            url,
            f"answer larger than {limit} bytes (max_response_bytes)",
            attempts,
        )


class DecodeError(ModelArtsError):
    """An answer whose body cannot be read as documented: a 2xx that is not the documented
    JSON, or any answer whose body does not match its ``Content-Encoding``."""

    def __init__(self, operation: str, status: int, reason: str, request_id: str | None) -> None:
        self.operation = operation
        self.status = status
        self.reason = reason
        self.request_id = request_id
        suffix = f" [request id {request_id}]" if request_id else ""
        super().__init__(f"{operation}: HTTP {status}: undecodable response: {reason}{suffix}")


class ResponseValidationError(DecodeError):
    """A 2xx JSON answer that breaks the documented schema (a wrong type, a missing field).

    ``errors`` lists each problem as ``(field path, message, offending value)``.
    """

    def __init__(
        self,
        operation: str,
        status: int,
        errors: Sequence[tuple[str, str, Any]],
        request_id: str | None,
    ) -> None:
        self.errors = tuple(errors)
        details = "; ".join(f"{path}: {message} (got {value!r})" for path, message, value in errors)
        super().__init__(operation, status, f"does not match the spec: {details}", request_id)


class WaitTimeoutError(ModelArtsError, TimeoutError):
    """A wait gave up: the resource did not reach an awaited phase within ``timeout`` seconds.

    ``last_response`` is the last poll's ``ApiResponse`` (``.parsed`` is the resource),
    ``phase`` the phase it reported, ``until`` the phases that were awaited.
    """

    def __init__(
        self,
        operation: str,
        resource_id: str,
        phase: Any,
        until: Sequence[str],
        timeout: float,
        last_response: Any,
    ) -> None:
        self.operation = operation
        self.resource_id = resource_id
        self.phase = phase
        self.until = tuple(until)
        self.timeout = timeout
        self.last_response = last_response
        request_id = getattr(last_response, "request_id", None)
        suffix = f" [request id {request_id}]" if request_id else ""
        super().__init__(
            f"{operation}: {resource_id} is still {phase!r} after {timeout:g} s "
            f"(waiting for {', '.join(self.until)}){suffix}"
        )


class PagingError(ModelArtsError):
    """An iteration gave up: the server's pages did not end within ``max_pages`` pages (a
    page always full and no total reached), so the listing would never end."""

    def __init__(self, operation: str, max_pages: int, seen: int) -> None:
        self.operation = operation
        self.max_pages = max_pages
        self.seen = seen
        super().__init__(
            f"{operation}: the pages did not end after {max_pages} pages ({seen} items); "
            "pass a larger max_pages to read further"
        )


class ApiError(ModelArtsError):
    """The API answered with a non-2xx status.

    Carries the HTTP ``status``, the API's ``error_code``, ``error_msg`` and
    ``error_solution`` (when the body has them), the ``request_id`` from the
    ``X-Request-Id`` header, the ``operation`` that failed, the decoded ``body`` and the
    HTTP ``reason`` phrase (used in the message when the body has no ``error_msg``).
    """

    def __init__(
        self,
        *,
        operation: str,
        status: int,
        error_code: str | None = None,
        error_msg: str | None = None,
        error_solution: str | None = None,
        request_id: str | None = None,
        body: Any = None,
        reason: str | None = None,
    ) -> None:
        self.operation = operation
        self.reason = reason
        self.status = status
        self.error_code = error_code
        self.error_msg = error_msg
        self.error_solution = error_solution
        self.request_id = request_id
        self.body = body
        super().__init__(self._message())

    def _message(self) -> str:
        parts = [f"{self.operation}: HTTP {self.status}"]
        if self.error_code:
            parts.append(self.error_code)
        detail = " ".join(parts)
        if self.error_msg or self.reason:
            detail += f": {self.error_msg or self.reason}"
        if self.error_solution:
            detail += f" (solution: {self.error_solution})"
        if self.request_id:
            detail += f" [request id {self.request_id}]"
        return detail


class ClientError(ApiError):
    """A 4xx answer: the request was refused."""


class BadRequestError(ClientError):
    """400: the request is invalid."""


class AuthenticationError(ClientError):
    """401: missing or invalid credentials."""


class PermissionDeniedError(ClientError):
    """403: the credentials may not do this."""


class NotFoundError(ClientError):
    """404: the resource does not exist."""


class ConflictError(ClientError):
    """409: the resource's state forbids this."""


class UnprocessableEntityError(ClientError):
    """422: the request was understood but not processed."""


class RateLimitError(ClientError):
    """429: too many requests."""


class ServerError(ApiError):
    """A 5xx answer: the server failed."""


# The most specific class for each status; other statuses fall back to their family.
STATUS_ERRORS: dict[int, type[ApiError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    422: UnprocessableEntityError,
    429: RateLimitError,
}


def error_class_for(status: int) -> type[ApiError]:
    """The exception class for an HTTP status: exact, else 4xx/5xx family, else ``ApiError``."""
    exact = STATUS_ERRORS.get(status)
    if exact is not None:
        return exact
    if 400 <= status < 500:
        return ClientError
    if 500 <= status < 600:
        return ServerError
    return ApiError
