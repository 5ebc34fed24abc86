"""The server's one exception tree and the vendor error catalogue it answers with.

Every client-visible failure is an :class:`ApiError` carrying one :class:`ErrorCode` from the
catalogue below. Status, code, message template and solution are copied from the vendor's
``Error Codes`` page (``../shared/reference/error_codes.rst``); where a template has a ``%s``
the server fills it, and where the vendor text is generic the server appends one sentence of
detail (the field, the value, the rule). :func:`error_body` renders the vendor error body
``{"error_code", "error_msg", "error_solution"}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from modelarts_kit_spec.errors import KitError

__all__ = [
    "ApiError",
    "ConfigError",
    "ErrorCode",
    "ServerError",
    "error_body",
]


@dataclass(frozen=True)
class ErrorCode:
    """One row of the vendor's error-code table."""

    status: int
    code: str
    message: str  # the vendor's description; "%s" placeholders are filled per request
    solution: str


class ServerError(KitError):
    """Base of every exception the reference server raises."""


class ConfigError(ServerError, ValueError):
    """Invalid server settings (a bad --token, --aksk, --faults or --clock-speed value)."""


class ApiError(ServerError):
    """A request the server answers with a vendor error body."""

    def __init__(
        self,
        error: ErrorCode,
        *arguments: str,
        detail: str = "",
        headers: Mapping[str, str] | None = None,
    ) -> None:
        message = error.message % arguments if arguments else error.message
        if detail:
            message = f"{message} {detail}"
        super().__init__(f"{error.code}: {message}")
        self.error = error
        self.message = message
        self.headers: Mapping[str, str] = dict(headers or {})

    @property
    def status(self) -> int:
        return self.error.status


def error_body(error: ApiError) -> dict[str, str]:
    """The vendor error body for ``error``."""
    return {
        "error_code": error.error.code,
        "error_msg": error.message,
        "error_solution": error.error.solution,
    }


# -- the catalogue (vendor text, verbatim) ------------------------------------------------------

DUPLICATE_JOB_NAME = ErrorCode(
    400, "ModelArts.2751", "Duplicate training job (name %s).", "Change training job name."
)
JOB_NOT_FOUND = ErrorCode(
    400,
    "ModelArts.2775",
    "Training job (ID: %s) not found.",
    "Check whether the training job information in the request is valid.",
)
INVALID_JSON_BODY = ErrorCode(
    400, "ModelArts.2787", "Invalid JSON request body.", "Check the request body."
)
INVALID_PARAM = ErrorCode(
    400, "ModelArts.2788", "Invalid parameter(%s).", "Check the request parameter."
)
UNSUPPORTED_ACTION_TYPE = ErrorCode(
    400,
    "ModelArts.2812",
    "Unsupported action type:%s",
    "Check whether the action type is valid.",
)
TOKEN_MISSING = ErrorCode(
    401, "ModelArts.0201", "The token is empty.", "Add a correct token in the request header."
)
TOKEN_INVALID = ErrorCode(
    401,
    "ModelArts.4201",
    "The token is invalid.",
    "Check the token of the account to which the user belongs.",
)
AUTHORIZATION_MALFORMED = ErrorCode(
    401,
    "ModelArts.0206",
    "The authorization request header is in an incorrect format.",
    "Use the correct AppCode URL or contact technical support.",
)
CREDENTIAL_NOT_FOUND = ErrorCode(
    401, "ModelArts.3801", "The user certificate does not exist.", "Add the AK/SK again."
)
SIGNATURE_MISMATCH = ErrorCode(
    401,
    "ModelArts.0208",
    "Checking the authorization request header failed.",
    "Use the correct AppCode URL or contact technical support.",
)
REQUEST_EXPIRED = ErrorCode(
    401,
    "ModelArts.4203",
    "Invalid request because %s.",
    "Ensure you have the access permission.",
)
PROJECT_MISMATCH = ErrorCode(
    404,
    "ModelArts.2786",
    "The project ID (%s) in the request does not match that(%s) in the token.",
    "Change the request token or change the project ID in the request.",
)
PATH_NOT_FOUND = ErrorCode(
    404, "ModelArts.2836", "Path not found.", "Please confirm that the PATH is correct"
)
METHOD_NOT_ALLOWED = ErrorCode(
    405, "ModelArts.2803", "Method not allowed.", "Please confirm that the HTTP Method is correct"
)
NOT_ALLOWED_TO_TERMINATE = ErrorCode(
    409,
    "ModelArts.2796",
    "The job cannot be terminated.",
    "Check whether the job status is valid.",
)
BODY_TOO_LARGE = ErrorCode(
    413,
    "ModelArts.4104",
    "The size of the request body is invalid.",
    "Use a request body smaller than 12 MB.",
)
TOO_MANY_REQUESTS = ErrorCode(
    429, "ModelArts.2799", "services too many requests", "Please try again later"
)
INTERNAL_ERROR = ErrorCode(
    500, "ModelArts.0010", "Internal error.", "Contact R&D and O&M personnel."
)
BACKEND_UNAVAILABLE = ErrorCode(
    503,
    "ModelArts.4302",
    "The backend service is unavailable.",
    "Internal error. Contact technical support.",
)
SERVICE_UNAVAILABLE = ErrorCode(
    503,
    "ModelArts.4700",
    "The gateway is being stopped.",
    "The platform is being upgraded. Try again later.",
)
