"""The AK/SK signature of an ``httpx`` request, apart from :mod:`.transport_auth` so that a
run that sends through ``requests`` never imports httpx (and the command-line tool httpx
imports with itself)."""

from __future__ import annotations

from collections.abc import Generator

import httpx

from modelarts_kit_contracts.aksk_signing import sign_request

__all__ = ["AkSkHttpxAuth"]


class AkSkHttpxAuth(httpx.Auth):
    """Signs an ``httpx`` request (what the scenario checks send)."""

    requires_request_body = True

    def __init__(self, ak: str, sk: str) -> None:
        self._ak = ak
        self._sk = sk

    def __repr__(self) -> str:
        return "AkSkHttpxAuth(***)"

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        added = sign_request(
            request.method,
            str(request.url),
            dict(request.headers),
            request.content,
            ak=self._ak,
            sk=self._sk,
        )
        request.headers.update(added)
        yield request
