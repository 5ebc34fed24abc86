"""Authentication: ``X-Auth-Token`` and ``SDK-HMAC-SHA256`` (AK/SK) signed requests.

Token: the ``X-Auth-Token`` header must be one of the configured tokens (or the development
token when none is configured); a token bound to a project only opens that project.

AK/SK: ``Authorization: SDK-HMAC-SHA256 Access=AK, SignedHeaders=h1;h2, Signature=HEX`` with
``X-Sdk-Date: YYYYMMDDTHHMMSSZ`` (signed). The server rebuilds the canonical request the way
the official SDK's signer does (``huaweicloudsdkcore.signer.Signer``):

    METHOD \\n canonical URI (each segment percent-encoded, trailing "/") \\n canonical query
    (sorted, percent-encoded) \\n "name:value" for each signed header \\n signed header names
    \\n hex SHA-256 of the body (of the empty string when there is none)

then ``string to sign = "SDK-HMAC-SHA256\\n" + X-Sdk-Date + "\\n" + hex SHA-256(canonical)``
and compares ``hex HMAC-SHA256(SK, string to sign)`` in constant time. The body is always
hashed by the server, so a tampered body fails; ``X-Sdk-Content-Sha256: UNSIGNED-PAYLOAD``
is refused. ``X-Sdk-Date`` further than ``signature_max_skew_s`` (15 min) from the wall clock
fails. Error messages never carry the token, the AK, the SK or the signature.

Authentication happens before the body is read: a token is checked on the headers alone; a
signed request passes every header check first (:func:`authenticate` returns a
:class:`PendingSignature`) and only then is its body read, at most ``max_body_bytes``, and
hashed (:func:`verify_signature`). An unauthenticated request never gets its body buffered.

Functions: :func:`authenticate` (the entry point), :func:`authenticate_token`,
:func:`authenticate_signature`, :func:`verify_signature`, :func:`parse_authorization`,
:func:`check_project_access`. The canonical request and signature are
:mod:`modelarts_kit_wire.signing` (shared with the contract kit's signer).
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from modelarts_kit_wire import signing
from modelarts_kit_wire.signing import (
    ALGORITHM,
    DATE_FORMAT,
    UNSIGNED_PAYLOAD,
    RequestParts,
    SignatureHeader,
    canonical_request,
    sign,
    string_to_sign,
)

from modelarts_kit_server import errors
from modelarts_kit_server.errors import ApiError
from modelarts_kit_server.settings import AkSkCredential, ServerSettings

__all__ = [
    "PendingSignature",
    "Principal",
    "SignatureHeader",
    "authenticate",
    "authenticate_signature",
    "authenticate_token",
    "check_project_access",
    "parse_authorization",
    "verify_signature",
]


@dataclass(frozen=True)
class Principal:
    """Who is calling: the project it may use (None: any) and how it authenticated."""

    method: str  # "token" | "aksk"
    project_id: str | None

    def __repr__(self) -> str:
        return f"Principal(method={self.method!r}, project_id={self.project_id!r})"


@dataclass(frozen=True)
class PendingSignature:
    """A signed request whose headers passed: the signature still needs the body's hash."""

    header: SignatureHeader
    credential: AkSkCredential

    def __repr__(self) -> str:
        return "PendingSignature(<redacted>)"


def authenticate(settings: ServerSettings, request: RequestParts) -> Principal | PendingSignature:
    """Authenticate a request on its headers, before its body is read.

    A token is checked whole (a :class:`Principal`). A signed request gets every check that does
    not need the body (format, access key, date, signed headers): the result is a
    :class:`PendingSignature` that :func:`verify_signature` completes once the body is read.
    """
    authorization = request.headers.get("authorization", "")
    if authorization.strip().startswith(ALGORITHM):
        return authenticate_signature(settings, request)
    return authenticate_token(settings, request.headers.get("x-auth-token"))


def authenticate_token(settings: ServerSettings, token: str | None) -> Principal:
    if token is None or not token.strip():
        raise ApiError(errors.TOKEN_MISSING, detail="The X-Auth-Token header is required.")
    for grant in settings.effective_tokens:
        if hmac.compare_digest(grant.token.encode(), token.strip().encode()):
            return Principal("token", grant.project_id)
    raise ApiError(errors.TOKEN_INVALID, detail="The X-Auth-Token value is not accepted.")


def check_project_access(principal: Principal, project_id: str) -> None:
    """``project-mismatch`` when the path's project is not the credential's project."""
    if principal.project_id is not None and principal.project_id != project_id:
        raise ApiError(errors.PROJECT_MISMATCH, project_id, principal.project_id)


def parse_authorization(value: str) -> SignatureHeader:
    """The signature header, header names and signature in lower case (as they are compared)."""
    parsed = signing.parse_authorization(value)
    if parsed is None:
        raise ApiError(
            errors.AUTHORIZATION_MALFORMED,
            detail="Expected 'SDK-HMAC-SHA256 Access=..., SignedHeaders=..., Signature=...'.",
        )
    signed = tuple(name.lower() for name in parsed.signed_headers)
    if any(not name for name in signed):
        raise ApiError(errors.AUTHORIZATION_MALFORMED, detail="SignedHeaders has an empty name.")
    return SignatureHeader(parsed.access_key, signed, parsed.signature.lower())


def authenticate_signature(settings: ServerSettings, request: RequestParts) -> PendingSignature:
    """The header checks of a signed request (401 on the first that fails)."""
    header = parse_authorization(request.headers.get("authorization", ""))
    credential = _credential(settings.credentials, header.access_key)
    if "x-sdk-date" not in header.signed_headers:
        raise ApiError(errors.AUTHORIZATION_MALFORMED, detail="X-Sdk-Date must be signed.")
    _check_date(request.headers.get("x-sdk-date"), settings)
    for name in header.signed_headers:
        if name not in request.headers:
            raise ApiError(
                errors.SIGNATURE_MISMATCH, detail=f"The signed header {name!r} is missing."
            )
    return PendingSignature(header, credential)


def verify_signature(pending: PendingSignature, request: RequestParts) -> Principal:
    """Complete a signed request's authentication with its body (401 when it does not match)."""
    if request.headers.get("x-sdk-content-sha256", "").strip() == UNSIGNED_PAYLOAD and (
        request.body
    ):
        raise ApiError(errors.SIGNATURE_MISMATCH, detail="Unsigned payloads are not accepted.")
    header = pending.header
    canonical = canonical_request(request, header.signed_headers)
    expected = sign(
        pending.credential.secret_key, string_to_sign(canonical, request.headers["x-sdk-date"])
    )
    if not hmac.compare_digest(expected, header.signature):
        raise ApiError(
            errors.SIGNATURE_MISMATCH,
            detail="The signature does not match the request (method, path, headers or body).",
        )
    # Only a verified caller learns the credential's project (the error names it).
    project = request.headers.get("x-project-id")
    if project is not None and project.strip() != pending.credential.project_id:
        raise ApiError(errors.PROJECT_MISMATCH, project.strip(), pending.credential.project_id)
    return Principal("aksk", pending.credential.project_id)


def _credential(credentials: Sequence[AkSkCredential], access_key: str) -> AkSkCredential:
    for credential in credentials:
        if hmac.compare_digest(credential.access_key.encode(), access_key.encode()):
            return credential
    raise ApiError(errors.CREDENTIAL_NOT_FOUND, detail="The access key is not known.")


def _check_date(value: str | None, settings: ServerSettings) -> None:
    if value is None:
        raise ApiError(errors.REQUEST_EXPIRED, "the X-Sdk-Date header is missing")
    try:
        signed_at = datetime.strptime(value.strip(), DATE_FORMAT).replace(tzinfo=UTC)
    except ValueError:
        raise ApiError(
            errors.REQUEST_EXPIRED, "X-Sdk-Date is not in the format YYYYMMDDTHHMMSSZ"
        ) from None
    skew = abs(settings.wall_clock() - signed_at.timestamp())
    if skew > settings.signature_max_skew_s:
        limit = round(settings.signature_max_skew_s / 60, 1)
        raise ApiError(
            errors.REQUEST_EXPIRED,
            f"X-Sdk-Date is {round(skew)} s away from the server time (limit {limit:g} min)",
        )
