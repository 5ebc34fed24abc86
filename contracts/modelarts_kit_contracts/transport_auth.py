"""Credentials for a contract run, applied at the transport.

An IAM token is a plain ``X-Auth-Token`` header. An AK/SK pair signs every request with
``SDK-HMAC-SHA256`` (the algorithm of ``huaweicloudsdkcore.signer.Signer``, which the tests use
as the oracle). Signing must see the final request: method, path, query, headers and the exact
body bytes. Schemathesis's auth hook runs before the body is serialised, so the signature is
computed by a ``requests`` auth object (for the schemathesis engine, which sends through a
``requests.Session`` for both real HTTP and in-process ASGI) and by an ``httpx.Auth`` (for the
scenario checks), both thin adapters over :func:`sign_request`.

Secrets never appear in a ``repr``, a log line or an exception message.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import requests
import requests.auth
from modelarts_kit_wire.signing import ALGORITHM

from modelarts_kit_contracts.aksk_signing import sign_request
from modelarts_kit_contracts.errors import ContractError

if TYPE_CHECKING:
    from modelarts_kit_contracts.httpx_auth import AkSkHttpxAuth

__all__ = [
    "ALGORITHM",
    "AkSkHttpxAuth",
    "AkSkRequestsAuth",
    "CredentialError",
    "Credentials",
    "sign_request",
]

TOKEN_HEADER = "X-Auth-Token"


class CredentialError(ContractError, ValueError):
    """Credentials given in a combination that cannot be used."""


@dataclass(frozen=True)
class Credentials:
    """Either a token or an AK/SK pair (or nothing, for anonymous requests)."""

    token: str | None = field(default=None, repr=False)
    ak: str | None = field(default=None, repr=False)
    sk: str | None = field(default=None, repr=False)
    project_id: str | None = None  # sent as X-Project-Id with AK/SK

    def __post_init__(self) -> None:
        if self.token is not None and (self.ak is not None or self.sk is not None):
            raise CredentialError("--token and --ak/--sk: give one kind of credentials, not both")
        if (self.ak is None) != (self.sk is None):
            missing = "--sk" if self.sk is None else "--ak"
            raise CredentialError(f"{missing} is required: AK/SK signing needs both --ak and --sk")
        for name in ("token", "ak", "sk"):
            value = getattr(self, name)
            if value is not None and (value == "" or value != value.strip()):
                raise CredentialError(f"--{name}: must be non-empty without surrounding spaces")

    @property
    def kind(self) -> str:
        if self.token is not None:
            return "token"
        if self.ak is not None:
            return "aksk"
        return "none"

    def __repr__(self) -> str:
        return f"Credentials(kind={self.kind!r}, project_id={self.project_id!r})"

    def headers(self) -> dict[str, str]:
        """Static headers to send (the token; the project id for signed requests)."""
        if self.token is not None:
            return {TOKEN_HEADER: self.token}
        if self.ak is not None and self.project_id:
            return {"X-Project-Id": self.project_id}
        return {}

    def requests_auth(self) -> AkSkRequestsAuth | None:
        if self.ak is None or self.sk is None:
            return None
        return AkSkRequestsAuth(self.ak, self.sk)

    def httpx_auth(self) -> AkSkHttpxAuth | None:
        if self.ak is None or self.sk is None:
            return None
        from modelarts_kit_contracts.httpx_auth import AkSkHttpxAuth

        return AkSkHttpxAuth(self.ak, self.sk)


def _body_bytes(body: object) -> bytes | None:
    if body is None:
        return None
    if isinstance(body, bytes):
        return body
    if isinstance(body, str):
        return body.encode("utf-8")
    raise TypeError(
        f"AK/SK signing needs the whole body in memory; got a streamed {type(body).__name__}"
    )


class AkSkRequestsAuth(requests.auth.AuthBase):
    """Signs a prepared ``requests`` request (what schemathesis sends) just before it leaves."""

    def __init__(self, ak: str, sk: str) -> None:
        self._ak = ak
        self._sk = sk

    def __repr__(self) -> str:
        return "AkSkRequestsAuth(***)"

    def __call__(self, request: requests.PreparedRequest) -> requests.PreparedRequest:
        headers = {k: str(v) for k, v in request.headers.items()}
        added = sign_request(
            str(request.method),
            str(request.url),
            headers,
            _body_bytes(request.body),
            ak=self._ak,
            sk=self._sk,
        )
        request.headers.update(added)
        return request


def __getattr__(name: str) -> Any:
    # httpx (and the CLI it imports with it) loads only for what signs an httpx request: a
    # server run sends through requests.
    if name == "AkSkHttpxAuth":
        from modelarts_kit_contracts.httpx_auth import AkSkHttpxAuth

        return AkSkHttpxAuth
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
