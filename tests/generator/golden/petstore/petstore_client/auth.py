"""Authentication for the Swagger Petstore client, as ``httpx.Auth`` flows.

* :class:`TokenAuth` sends an IAM token in ``api_key``.
* :class:`AkSkAuth` signs each request with ``SDK-HMAC-SHA256`` (the algorithm of the
  official Huawei Cloud SDK core): it sets ``X-Sdk-Date``, ``Host`` and, when given,
  ``X-Project-Id``, and sends ``Authorization: SDK-HMAC-SHA256 Access=<AK>,
  SignedHeaders=<names>, Signature=<hex>``. Every retry is signed afresh.

Neither object shows its secret in ``repr`` or in any message.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Generator
from datetime import UTC, datetime
from urllib.parse import quote, unquote

import httpx

__all__ = ["AkSkAuth", "TokenAuth"]

SIGNING_ALGORITHM = "SDK-HMAC-SHA256"
DATE_HEADER = "X-Sdk-Date"
CONTENT_HASH_HEADER = "X-Sdk-Content-Sha256"
PROJECT_HEADER = "X-Project-Id"
DATE_FORMAT = "%Y%m%dT%H%M%SZ"
EMPTY_BODY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
# Only these headers are signed: proxies and transports may rewrite the others
# (Accept-Encoding, Connection, User-Agent), which would break the signature.
SIGNED_HEADERS = (
    "content-type",
    "host",
    PROJECT_HEADER.lower(),
    DATE_HEADER.lower(),
    CONTENT_HASH_HEADER.lower(),
)


def _require_text(name: str, value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{name} must be a non-empty string")
    return value


class TokenAuth(httpx.Auth):
    """Send an IAM token in the ``api_key`` header."""

    def __init__(self, token: str, *, header: str = "api_key") -> None:
        self._token = _require_text("token", token)
        self.header = header

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        request.headers[self.header] = self._token
        yield request

    def __repr__(self) -> str:
        return f"TokenAuth(header={self.header!r}, token='***')"


class AkSkAuth(httpx.Auth):
    """Sign requests with an access key (AK) and secret key (SK), ``SDK-HMAC-SHA256``.

    ``project_id`` (optional) is sent and signed as ``X-Project-Id``. ``clock`` returns
    the signing time (UTC); tests inject a fixed one.
    """

    requires_request_body = True

    def __init__(
        self,
        ak: str,
        sk: str,
        project_id: str | None = None,
        *,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self._ak = _require_text("ak", ak)
        self._sk = _require_text("sk", sk)
        self.project_id = project_id
        self._clock = clock or (lambda: datetime.now(UTC))

    def __repr__(self) -> str:
        return f"AkSkAuth(ak='***', sk='***', project_id={self.project_id!r})"

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        self.sign(request)
        yield request

    def sign(self, request: httpx.Request) -> None:
        """Add ``X-Sdk-Date``, ``Host``, ``X-Project-Id`` and ``Authorization`` to ``request``."""
        if self.project_id:
            request.headers[PROJECT_HEADER] = self.project_id
        content_type = request.headers.get("content-type")
        if content_type and not content_type.startswith(("application/json", "application/bson")):
            request.headers[CONTENT_HASH_HEADER] = "UNSIGNED-PAYLOAD"
        request.headers[DATE_HEADER] = self._clock().strftime(DATE_FORMAT)
        if "host" not in request.headers:
            request.headers["Host"] = request.url.netloc.decode("ascii")
        signed = [name for name in sorted(SIGNED_HEADERS) if name in request.headers]
        canonical = canonical_request(request, signed)
        string_to_sign = "\n".join(
            (
                SIGNING_ALGORITHM,
                request.headers[DATE_HEADER],
                hashlib.sha256(canonical.encode("utf-8")).hexdigest(),
            )
        )
        signature = hmac.new(
            self._sk.encode("utf-8"), string_to_sign.encode("utf-8"), hashlib.sha256
        ).hexdigest()
        request.headers["Authorization"] = (
            f"{SIGNING_ALGORITHM} Access={self._ak}, SignedHeaders={';'.join(signed)}, "
            f"Signature={signature}"
        )


def _encode(text: str) -> str:
    return quote(text, safe="~")


def canonical_request(request: httpx.Request, signed_headers: list[str]) -> str:
    """The canonical request of ``SDK-HMAC-SHA256`` (method, URI, query, headers, body hash)."""
    raw_path = request.url.raw_path.split(b"?", 1)[0].decode("ascii")
    uri = "/".join(_encode(segment) for segment in unquote(raw_path).split("/"))
    if not uri.endswith("/"):
        uri += "/"
    pairs = sorted(request.url.params.multi_items())
    query = "&".join(f"{_encode(key)}={_encode(value)}" for key, value in pairs)
    headers = "".join(f"{name}:{request.headers[name].strip()}\n" for name in signed_headers)
    body = request.content
    if not body:
        payload_hash = EMPTY_BODY_SHA256
    else:
        payload_hash = request.headers.get(CONTENT_HASH_HEADER) or hashlib.sha256(body).hexdigest()
    return "\n".join(
        (request.method.upper(), uri, query, headers, ";".join(signed_headers), payload_hash)
    )
