"""``SDK-HMAC-SHA256``: the canonical request and signature of Huawei Cloud AK/SK signing.

One implementation for both sides of the wire: the reference server verifies with it and the
contract kit signs with it, so checking a third-party server never loads the server (stdlib
only). The algorithm is the official SDK's (``huaweicloudsdkcore.signer.Signer``), which the
tests use as the oracle:

    METHOD \\n canonical URI (each segment percent-encoded, trailing "/") \\n canonical query
    (sorted, percent-encoded) \\n "name:value" for each signed header \\n signed header names
    \\n hex SHA-256 of the body (of the empty string when there is none)

then ``string to sign = "SDK-HMAC-SHA256\\n" + X-Sdk-Date + "\\n" + hex SHA-256(canonical)``
and the signature is ``hex HMAC-SHA256(SK, string to sign)``.

The header carrying it is ``Authorization: SDK-HMAC-SHA256 Access=AK, SignedHeaders=h1;h2,
Signature=HEX``: :func:`authorization` writes it, :func:`parse_authorization` reads it (one
grammar for the signer, the reference server's verifier and the contract kit's wire checks).

Functions: :func:`canonical_request`, :func:`string_to_sign`, :func:`sign`,
:func:`canonical_uri`, :func:`canonical_query`, :func:`body_digest`, :func:`authorization`,
:func:`parse_authorization`.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import quote, unquote

__all__ = [
    "ALGORITHM",
    "DATE_FORMAT",
    "DATE_HEADER",
    "EMPTY_SHA256",
    "UNSIGNED_PAYLOAD",
    "RequestParts",
    "SignatureHeader",
    "authorization",
    "body_digest",
    "canonical_query",
    "canonical_request",
    "canonical_uri",
    "parse_authorization",
    "sign",
    "string_to_sign",
]

ALGORITHM = "SDK-HMAC-SHA256"
DATE_HEADER = "X-Sdk-Date"  # when the request was signed; always among the signed headers
DATE_FORMAT = "%Y%m%dT%H%M%SZ"  # of the X-Sdk-Date header
EMPTY_SHA256 = hashlib.sha256(b"").hexdigest()
UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD"


@dataclass(frozen=True)
class RequestParts:
    """What signing covers, as sent (or received)."""

    method: str
    raw_path: str  # percent-encoded, as sent
    query_string: str
    headers: Mapping[str, str]  # lower-case names
    body: bytes

    def __repr__(self) -> str:  # headers may carry credentials
        return f"RequestParts(method={self.method!r}, raw_path={self.raw_path!r})"


@dataclass(frozen=True)
class SignatureHeader:
    """The parts of an ``Authorization: SDK-HMAC-SHA256 ...`` header, as sent (case and order
    kept: the receiver decides how strict to be)."""

    access_key: str
    signed_headers: tuple[str, ...]
    signature: str

    def __repr__(self) -> str:  # the access key is a credential
        return f"SignatureHeader(signed_headers={self.signed_headers!r})"


# Spaces around the commas are tolerated, as the official SDK's parser does; each value is one
# token without commas or spaces, the signature hex digits.
_AUTHORIZATION = re.compile(
    r"^SDK-HMAC-SHA256\s+Access=(?P<access>[^,\s]+)\s*,\s*"
    r"SignedHeaders=(?P<headers>[^,\s]+)\s*,\s*Signature=(?P<signature>[0-9a-fA-F]+)\s*$"
)


def authorization(access_key: str, signed_headers: Sequence[str], signature: str) -> str:
    """The ``Authorization`` header value of a signed request."""
    signed = ";".join(signed_headers)
    return f"{ALGORITHM} Access={access_key}, SignedHeaders={signed}, Signature={signature}"


def parse_authorization(value: str) -> SignatureHeader | None:
    """The parts of an ``SDK-HMAC-SHA256`` ``Authorization`` value (None: not of that form)."""
    match = _AUTHORIZATION.match(value.strip())
    if match is None:
        return None
    signed = tuple(match["headers"].split(";"))
    return SignatureHeader(match["access"], signed, match["signature"])


def _encode(segment: str) -> str:
    return quote(segment, safe="~")


def canonical_uri(raw_path: str) -> str:
    path = "/".join(_encode(segment) for segment in unquote(raw_path).split("/"))
    return path if path.endswith("/") else path + "/"


def canonical_query(query_string: str) -> str:
    pairs: list[tuple[str, str]] = []
    for item in query_string.split("&"):
        if not item:
            continue
        key, _, value = item.partition("=")
        pairs.append((unquote(key.replace("+", " ")), unquote(value.replace("+", " "))))
    pairs.sort()
    return "&".join(f"{_encode(key)}={_encode(value)}" for key, value in pairs)


def body_digest(body: bytes) -> str:
    """Hex SHA-256 of the body (of the empty string when there is none)."""
    return hashlib.sha256(body).hexdigest() if body else EMPTY_SHA256


def canonical_request(request: RequestParts, signed_headers: Sequence[str]) -> str:
    headers = "".join(f"{name}:{request.headers[name].strip()}\n" for name in signed_headers)
    return "\n".join(
        [
            request.method.upper(),
            canonical_uri(request.raw_path),
            canonical_query(request.query_string),
            headers,
            ";".join(signed_headers),
            body_digest(request.body),
        ]
    )


def string_to_sign(canonical: str, sdk_date: str) -> str:
    digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    return f"{ALGORITHM}\n{sdk_date.strip()}\n{digest}"


def sign(secret_key: str, text: str) -> str:
    return hmac.new(secret_key.encode("utf-8"), text.encode("utf-8"), hashlib.sha256).hexdigest()
