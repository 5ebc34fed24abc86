"""The error classes the generated client raises for HTTP statuses."""

from __future__ import annotations

from modelarts_kit_generator.ir.model import ErrorClassIR

__all__ = ["error_classes"]


def error_classes() -> tuple[ErrorClassIR, ...]:
    """The subclasses of ``ApiError``, most general first (a base precedes its children)."""
    return (
        ErrorClassIR("ClientError", "ApiError", None, "A 4xx answer: the request was refused."),
        ErrorClassIR("BadRequestError", "ClientError", 400, "400: the request is invalid."),
        ErrorClassIR(
            "AuthenticationError", "ClientError", 401, "401: missing or invalid credentials."
        ),
        ErrorClassIR(
            "PermissionDeniedError", "ClientError", 403, "403: the credentials may not do this."
        ),
        ErrorClassIR("NotFoundError", "ClientError", 404, "404: the resource does not exist."),
        ErrorClassIR(
            "ConflictError", "ClientError", 409, "409: the resource's state forbids this."
        ),
        ErrorClassIR(
            "UnprocessableEntityError",
            "ClientError",
            422,
            "422: the request was understood but not processed.",
        ),
        ErrorClassIR("RateLimitError", "ClientError", 429, "429: too many requests."),
        ErrorClassIR("ServerError", "ApiError", None, "A 5xx answer: the server failed."),
    )
