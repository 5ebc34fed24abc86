"""The server's one exception tree, and how an error becomes the vendor's error body.

Every client-visible failure is an :class:`ApiError` that names a **meaning** (the constants
below: ``invalid-parameter``, ``not-found``, ``token-missing`` ...). The code, the HTTP status,
the message template and the solution come from the spec (``load_spec().meaning.errors``, the
``x-modelarts-error-codes`` of the operation's responses, ``x-modelarts-gateway-errors`` for
what happens before an operation is known, and the ``x-modelarts-error-catalogue`` rows copied
from the vendor's ``Error Codes`` page): the server answers with the first code the spec lists
for that meaning, so a spec edit changes the answer without a code change. Where the template
has ``%s`` the server fills it, and where the vendor text is generic it appends one sentence of
detail (the field, the value, the rule). :func:`error_body` renders
``{"error_code", "error_msg", "error_solution"}``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from modelarts_kit_spec.meaning import CatalogueEntry, ErrorModel
from modelarts_kit_wire.errors import KitError

__all__ = [
    "ApiError",
    "ConfigError",
    "ServerError",
    "error_body",
    "resolve_error",
]

logger = logging.getLogger("modelarts_kit_server")


class ServerError(KitError):
    """Base of every exception the reference server raises."""


class ConfigError(ServerError, ValueError):
    """Invalid server settings (a bad --token, --aksk, --faults or --clock-speed value)."""


class ApiError(ServerError):
    """A request the server answers with a vendor error body, for ``meaning``."""

    def __init__(
        self,
        meaning: str,
        *arguments: str,
        detail: str = "",
        headers: Mapping[str, str] | None = None,
        solution: str | None = None,
    ) -> None:
        super().__init__(f"{meaning}: {', '.join(arguments)} {detail}".strip())
        self.meaning = meaning
        self.arguments = arguments
        self.detail = detail
        self.solution = solution  # replaces the vendor's solution (e.g. this server's limit)
        self.headers: Mapping[str, str] = dict(headers or {})
        self.operation_id: str | None = None  # set once the request's operation is known


def resolve_error(errors: ErrorModel, error: ApiError) -> CatalogueEntry:
    """The catalogue row that answers ``error``: the first code the spec lists for its meaning
    on its operation, else on any operation, else among the gateway errors, else an internal
    error (a spec without the meaning is logged, not hidden)."""
    if error.operation_id is not None and error.meaning in errors.meanings(error.operation_id):
        return errors.preferred(error.operation_id, error.meaning)
    for response in errors.responses:
        if error.meaning in response.by_meaning:
            return errors.preferred(response.operation_id, error.meaning)
    try:
        return errors.gateway_error(error.meaning)
    except KeyError:
        logger.error("the spec lists no error code for %r; answering internal-error", error.meaning)
        return errors.gateway_error(INTERNAL_ERROR)


def _fill(template: str, arguments: tuple[str, ...]) -> str:
    """``template`` with its ``%s`` filled in order; arguments it has no room for are appended."""
    slots = template.count("%s")
    used = arguments[:slots] + ("",) * (slots - len(arguments[:slots]))
    text = template.replace("%%", "\0") % used if slots else template
    extra = arguments[slots:]
    text = text.replace("\0", "%")
    return f"{text} ({', '.join(extra)})" if extra else text


def error_body(entry: CatalogueEntry, error: ApiError) -> dict[str, str]:
    """The vendor error body for ``error`` answered with ``entry``."""
    message = _fill(entry.message, error.arguments)
    if error.detail:
        message = f"{message} {error.detail}"
    solution = error.solution if error.solution is not None else entry.solution
    return {"error_code": entry.code, "error_msg": message, "error_solution": solution}


# -- the meanings the server answers (their codes are the spec's) --------------------------------

DUPLICATE_JOB_NAME = "duplicate-name"
JOB_NOT_FOUND = "not-found"
INVALID_JSON_BODY = "malformed-body"
INVALID_PARAM = "invalid-parameter"
UNSUPPORTED_ACTION_TYPE = "unsupported-action"
TOKEN_MISSING = "token-missing"
TOKEN_INVALID = "token-invalid"
AUTHORIZATION_MALFORMED = "authorization-malformed"
CREDENTIAL_NOT_FOUND = "credential-not-found"
SIGNATURE_MISMATCH = "signature-invalid"
REQUEST_EXPIRED = "request-expired"
PROJECT_MISMATCH = "project-mismatch"
PATH_NOT_FOUND = "path-not-found"
METHOD_NOT_ALLOWED = "method-not-allowed"
NOT_ALLOWED_TO_TERMINATE = "not-terminable"
BODY_TOO_LARGE = "body-too-large"
TOO_MANY_REQUESTS = "too-many-requests"
INTERNAL_ERROR = "internal-error"
SERVICE_UNAVAILABLE = "service-unavailable"
BACKEND_UNAVAILABLE = "backend-unavailable"

# Where the spec may name a finer meaning than its general one, the server answers the first of
# these the operation lists (so a spec that adds the finer one changes the answer).
FLAVOR_NOT_FOUND_MEANINGS = ("flavor-not-found", "reference-not-found", INVALID_PARAM)
ENGINE_NOT_FOUND_MEANINGS = ("engine-not-found", "reference-not-found", INVALID_PARAM)
TASK_NOT_FOUND_MEANINGS = ("task-not-found", JOB_NOT_FOUND)
DELETED_JOB_MEANINGS = ("job-deleted", "already-deleted", JOB_NOT_FOUND)
